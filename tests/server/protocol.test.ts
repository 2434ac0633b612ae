import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable, Writable } from "node:stream";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp, SIGNED_IN_BODY_LIMIT } from "../../server/protocol/app";
import { createTestDatabase, describeOnEmbedded } from "../helpers/db";
import { createTestApp, TEST_PASSWORD_COST, type TestApp } from "./support";

const json = { "content-type": "application/json" };

/** A log stream for buildApp whose lines the test reads. */
function capturedLog(): { stream: Writable; text(): string } {
  let text = "";
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  return { stream, text: () => text };
}

const BIG_SCRIPT = `console.log(${JSON.stringify("the console ".repeat(2000))});`;

describeOnEmbedded("protocol", (kind) => {
  let t: TestApp;
  let staticDir: string;
  beforeAll(async () => {
    staticDir = fs.mkdtempSync(path.join(os.tmpdir(), "cpc-dist-"));
    fs.mkdirSync(path.join(staticDir, "assets"));
    fs.writeFileSync(path.join(staticDir, "index.html"), "<!doctype html><title>Campus Pay Console</title><div id=root></div>");
    fs.writeFileSync(path.join(staticDir, "assets", "app-1234.js"), "console.log('spa')");
    // a file as the build leaves it: its brotli and gzip forms beside it
    fs.writeFileSync(path.join(staticDir, "assets", "big-1234.js"), BIG_SCRIPT);
    fs.writeFileSync(path.join(staticDir, "assets", "big-1234.js.br"), zlib.brotliCompressSync(BIG_SCRIPT));
    fs.writeFileSync(path.join(staticDir, "assets", "big-1234.js.gz"), zlib.gzipSync(BIG_SCRIPT));
    t = await createTestApp(kind, { staticDir, bodyLimit: 64 * 1024 });
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(staticDir, { recursive: true, force: true });
  });

  const post = (url: string, payload: string, headers: Record<string, string> = json) => t.app.inject({ method: "POST", url, headers, payload });

  describe("malformed requests never give a 500", () => {
    it("answers a body that is not JSON with 400 and a FAIL envelope", async () => {
      const res = await post("/weapi/adminapi", "{not json");
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ return_code: "FAIL", return_msg: "请求格式错误，请发送 JSON 对象" });
    });

    it("accepts JSON bodies only", async () => {
      const res = await post("/weapi/adminapi", "method=login", { "content-type": "application/x-www-form-urlencoded" });
      expect(res.statusCode).toBe(400);
      expect(res.json().return_code).toBe("FAIL");
      const empty = await post("/weapi/adminapi", "");
      expect(empty.statusCode).toBe(400);
      expect(empty.json().return_code).toBe("FAIL");
    });

    it("answers an array, a string or null body with FAIL", async () => {
      for (const body of ["[]", '["login"]', '"login"', "null", "42"]) {
        const res = await post("/weapi/adminapi", body);
        expect(res.statusCode).toBeLessThan(500);
        expect(res.json().return_code).toBe("FAIL");
      }
    });

    it("answers a missing or non-string method as unknown", async () => {
      for (const body of ["{}", '{"method":42}', '{"method":{"a":1}}', '{"method":"toString"}', '{"method":"__proto__"}']) {
        const res = await post("/weapi/adminapi", body);
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ return_code: "FAIL", return_msg: "未知的操作" });
      }
    });

    it("answers a huge body with a FAIL envelope", async () => {
      const res = await post("/weapi/adminapi", JSON.stringify({ method: "login", username: "x".repeat(200_000), password: "y" }));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ return_code: "FAIL", return_msg: "请求内容过大" });
    });

    it("reads a body beyond the plain limit only for a live session, up to an import's file", async () => {
      const tooLarge = { return_code: "FAIL", return_msg: "请求内容过大" };
      const padded = (bytes: number) => JSON.stringify({ method: "getuserinfo", pad: "x".repeat(bytes) });
      // without a length: refused once it passes the plain limit
      const chunks = Readable.from([padded(200_000)].map((body) => Buffer.from(body)));
      const unsigned = await t.app.inject({ method: "POST", url: "/weapi/adminapi", headers: json, payload: chunks });
      expect(unsigned.statusCode).toBe(400);
      expect(unsigned.json()).toEqual(tooLarge);
      const revoked = await post("/weapi/adminapi", padded(200_000), { ...json, "x-token": "not-a-session" });
      expect(revoked.json()).toEqual(tooLarge);

      const token = await t.login("svc");
      const signedIn = await post("/weapi/adminapi", padded(200_000), { ...json, "x-token": token });
      expect(signedIn.statusCode).toBe(200);
      expect(signedIn.json().return_code).toBe("SUCCESS");
      const beyondAnyFile = await post("/weapi/adminapi", padded(SIGNED_IN_BODY_LIMIT + 1), { ...json, "x-token": token });
      expect(beyondAnyFile.json()).toEqual(tooLarge);
    });

    it("answers wrong payload types with FAIL naming the field", async () => {
      const res = await t.call("adminapi", "login", { username: 123, password: ["a"] });
      expect(res).toEqual({ return_code: "FAIL", return_msg: "参数错误：username" });
      const proto = await post("/weapi/adminapi", '{"method":"login","__proto__":{"admin":true},"username":"a","password":"b"}');
      expect(proto.statusCode).toBeLessThan(500);
      expect(proto.json().return_code).toBe("FAIL");
    });

    it("answers an unknown path with FAIL, by POST or GET, never the SPA", async () => {
      const res = await post("/weapi/nosuchpath", '{"method":"login"}');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ return_code: "FAIL", return_msg: "未知的接口地址" });
      const get = await t.app.inject({ method: "GET", url: "/weapi/adminapi", headers: { accept: "text/html" } });
      expect(get.headers["content-type"]).toMatch(/application\/json/);
      expect(get.json().return_code).toBe("FAIL");
      const nested = await t.app.inject({ method: "GET", url: "/weapi/adminapiv2/getwebsetinfo", headers: { accept: "text/html,*/*" } });
      expect(nested.json().return_code).toBe("FAIL");
    });

    it("turns an operation's fault into 系统错误, logged with the request id and no secrets", async () => {
      const broken = await createTestDatabase("pglite");
      const log = capturedLog();
      const app = await buildApp({ db: broken.database.db, passwordCost: TEST_PASSWORD_COST, rateLimit: false, staticDir: null, logger: { level: "info", stream: log.stream } });
      await broken.dispose();
      const res = await app.inject({
        method: "POST",
        url: "/weapi/adminapi",
        headers: { ...json, cookie: "language=en; token=cookie-secret-1", "x-token": "header-secret-2" },
        payload: JSON.stringify({ method: "login", username: "svc", password: "password-secret-3" }),
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ return_code: "FAIL", return_msg: "System error" });
      const requestId = String(res.headers["x-request-id"]);
      expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
      await app.close();
      const errorLine = log.text().split("\n").find((line) => line.includes("operation failed"));
      expect(errorLine).toBeDefined();
      expect(JSON.parse(errorLine!)).toMatchObject({ level: 50, reqId: requestId });
      for (const secret of ["cookie-secret-1", "header-secret-2", "password-secret-3"]) expect(log.text()).not.toContain(secret);
    });

    it("keeps binding tokens and pay_no values out of the request logs", async () => {
      const quiet = await createTestDatabase("pglite");
      const log = capturedLog();
      const app = await buildApp({ db: quiet.database.db, passwordCost: TEST_PASSWORD_COST, rateLimit: false, staticDir: null, logger: { level: "info", stream: log.stream } });
      try {
        for (const url of ["/pay/sandbox/P20260302100000123456789/confirm", "/notice/sandbox/bind/bind-token-secret-4"]) {
          await app.inject({ method: "GET", url });
        }
      } finally {
        await app.close();
        await quiet.dispose();
      }
      expect(log.text()).toContain("/pay/sandbox/[redacted]");
      for (const secret of ["P20260302100000123456789", "bind-token-secret-4"]) expect(log.text()).not.toContain(secret);
    });
  });

  describe("messages", () => {
    it("speaks zh by default, then the language cookie, then Accept-Language", async () => {
      const unknown = (headers: Record<string, string>) => t.call("adminapiv2", "nosuchmethod", {}, { headers }).then((r) => r.return_msg);
      expect(await unknown({})).toBe("未知的操作");
      expect(await unknown({ "accept-language": "en-GB,en;q=0.8" })).toBe("Unknown method");
      expect(await unknown({ "accept-language": "fr-FR, es;q=0.5" })).toBe("Operación desconocida");
      expect(await unknown({ cookie: "size=small; language=es", "accept-language": "en" })).toBe("Operación desconocida");
      expect(await unknown({ cookie: "language=en", "accept-language": "zh-CN" })).toBe("Unknown method");
      expect(await unknown({ cookie: "language=de" })).toBe("未知的操作");
    });
  });

  describe("site operations", () => {
    it("gives the site settings without a token", async () => {
      const res = await t.call("adminapiv2", "getwebsetinfo");
      expect(res.return_code).toBe("SUCCESS");
      expect(res.data?.items).toEqual({
        title: "Campus Pay Console",
        keywords: expect.any(String),
        description: expect.any(String),
        icon: expect.any(String),
        kfurl: "https://support.example.com/chat",
      });
    });

    it("gives the user manual address to a logged-in user only", async () => {
      expect((await t.call("adminapiv2", "getsysinfo")).return_code).toBe("token_error");
      const token = await t.login("school");
      const res = await t.call("adminapiv2", "getsysinfo", {}, { token });
      expect(res.data?.items).toEqual({ user_manual_url: "https://docs.example.com/campus-pay-console/manual" });
    });

    it("does not offer a named operation on the wrong path", async () => {
      expect((await t.call("adminapiv2", "login", { username: "svc", password: "demo1234" })).return_msg).toBe("未知的操作");
    });
  });

  describe("the SPA", () => {
    it("serves built files and falls back to index.html for pages", async () => {
      const page = await t.app.inject({ method: "GET", url: "/schoolv2/schoollist?page=2", headers: { accept: "text/html,application/xhtml+xml" } });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain("<title>Campus Pay Console</title>");
      expect(page.headers["cache-control"]).toBe("no-cache");
      const asset = await t.app.inject({ method: "GET", url: "/assets/app-1234.js" });
      expect(asset.body).toBe("console.log('spa')");
      expect(asset.headers["cache-control"]).toContain("immutable");
      const missingAsset = await t.app.inject({ method: "GET", url: "/assets/missing.js", headers: { accept: "*/*" } });
      expect(missingAsset.statusCode).toBe(404);
      expect(missingAsset.body).not.toContain("<title>");
    });

    it("sends a built file in the compressed form the browser accepts, as the build made it", async () => {
      const asset = (acceptEncoding?: string) => t.app.inject({ method: "GET", url: "/assets/big-1234.js", headers: acceptEncoding ? { "accept-encoding": acceptEncoding } : {} });
      const br = await asset("gzip, deflate, br");
      expect(br.headers["content-encoding"]).toBe("br");
      expect(br.rawPayload.length).toBeLessThan(BIG_SCRIPT.length / 10);
      expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(BIG_SCRIPT);
      expect(br.headers["cache-control"]).toContain("immutable");
      expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
      const gz = await asset("gzip");
      expect(gz.headers["content-encoding"]).toBe("gzip");
      expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(BIG_SCRIPT);
      const plain = await asset();
      expect(plain.headers["content-encoding"]).toBeUndefined();
      expect(plain.body).toBe(BIG_SCRIPT);
    });

    it("compresses API answers of 1 KB and more for a client that accepts it, and never inflates a request body", async () => {
      const token = await t.login("svc");
      const list = (acceptEncoding?: string) =>
        t.app.inject({
          method: "POST",
          url: "/weapi/adminapiv2",
          headers: { ...json, "x-token": token, ...(acceptEncoding ? { "accept-encoding": acceptEncoding } : {}) },
          payload: JSON.stringify({ method: "studentlist", limit: 50 }),
        });
      const plain = await list();
      expect(plain.headers["content-encoding"]).toBeUndefined();
      expect(plain.body.length).toBeGreaterThan(4096);
      const compressed = await list("br, gzip");
      expect(compressed.headers["content-encoding"]).toBe("br");
      expect(JSON.parse(zlib.brotliDecompressSync(compressed.rawPayload).toString())).toEqual(plain.json());
      expect(compressed.rawPayload.length).toBeLessThan(plain.body.length / 3);
      // a small answer is not worth it
      const small = await t.app.inject({ method: "POST", url: "/weapi/adminapi", headers: { ...json, "accept-encoding": "br, gzip" }, payload: JSON.stringify({ method: "getuserinfo" }) });
      expect(small.headers["content-encoding"]).toBeUndefined();
      // a compressed body is not JSON to the server: a few bytes may not expand to megabytes
      const zipped = zlib.gzipSync(JSON.stringify({ method: "getwebsetinfo", filler: " ".repeat(10_000_000) }));
      const res = await t.app.inject({ method: "POST", url: "/weapi/adminapiv2", headers: { ...json, "content-encoding": "gzip" }, payload: zipped });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ return_code: "FAIL" });
    });

    it("sends security headers with a CSP that allows the SPA and no inline script, on pages and API answers alike", async () => {
      const page = await t.app.inject({ method: "GET", url: "/", headers: { accept: "text/html" } });
      const csp = String(page.headers["content-security-policy"]);
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(csp).toContain("style-src 'self' 'unsafe-inline'");
      // the daily report dialog shows WeChat avatars, the customer-service list enterprise WeChat's; nothing else comes from elsewhere
      expect(csp).toMatch(/img-src 'self' data: blob: https:\/\/thirdwx\.qlogo\.cn https:\/\/wx\.qlogo\.cn https:\/\/wework\.qpic\.cn(;|$)/);
      expect(csp).toContain("default-src 'self'");
      expect(csp).not.toContain("upgrade-insecure-requests");
      expect(page.headers["x-content-type-options"]).toBe("nosniff");
      const api = await t.app.inject({ method: "POST", url: "/weapi/adminapi", payload: { method: "getuserinfo" } });
      expect(api.headers["content-security-policy"]).toBe(csp);
      expect(api.headers["x-content-type-options"]).toBe("nosniff");
    });

    it("answers a malformed or over-long URL under /weapi/ with the envelope and the security headers, never Fastify's own error", async () => {
      for (const url of ["/weapi/%E0%A4%A", `/weapi/${"a".repeat(5000)}`, "/weapi/adminapi%ZZ"]) {
        const res = await t.app.inject({ method: "POST", url, headers: json, payload: JSON.stringify({ method: "login" }) });
        expect([200, 400, 414], url.slice(0, 30)).toContain(res.statusCode);
        expect(res.json(), url.slice(0, 30)).toMatchObject({ return_code: "FAIL" });
        expect(res.json().return_msg).not.toMatch(/FST_|URI|Bad Request/);
        expect(res.headers["content-security-policy"], url.slice(0, 30)).toContain("default-src 'self'");
        expect(res.headers["cache-control"], url.slice(0, 30)).toBe("no-store");
      }
    });

    it("marks every /weapi/ answer no-store: success, failure, unknown path and token error alike", async () => {
      const answers = [
        await post("/weapi/adminapiv2", JSON.stringify({ method: "getwebsetinfo" })),
        await post("/weapi/adminapi", JSON.stringify({ method: "getuserinfo" })),
        await post("/weapi/nowhere", JSON.stringify({ method: "x" })),
        await post("/weapi/adminapi", "{broken"),
      ];
      for (const res of answers) expect(res.headers["cache-control"]).toBe("no-store");
    });
  });

  describe("input every operation refuses", () => {
    it("refuses NUL and other control characters in any string, naming the field, without a fault", async () => {
      const login = await post("/weapi/adminapi", JSON.stringify({ method: "login", username: "a\u0000b", password: "x" }), { ...json, "accept-language": "en" });
      expect(login.json()).toEqual({ return_code: "FAIL", return_msg: "Invalid parameter: username" });
      const token = await t.login("sysadmin");
      const nested = await t.call("adminapiv2", "servicelist", { title: ["ok", "bell\u0007"] }, { token, headers: { "accept-language": "en" } });
      expect(nested).toEqual({ return_code: "FAIL", return_msg: "Invalid parameter: title.1" });
      // tabs and line breaks are text
      expect((await t.call("adminapiv2", "servicelist", { title: "a\tb" }, { token })).return_code).toBe("SUCCESS");
    });

    it("answers ids beyond the 32-bit range like missing records, and dates outside 1900..9999 as invalid", async () => {
      const token = await t.login("sysadmin");
      for (const [method, payload] of [
        ["schoolinfo", { id: 9999999999 }],
        ["schoolinfo", { sch_id: "2147483648" }],
        ["actcodevoid", { id: 9999999999 }],
        ["servicelist", { sysid: 2 ** 40 }],
      ] as const) {
        expect(await t.call("adminapiv2", method, payload, { token }), method).toEqual({ return_code: "FAIL", return_msg: "记录不存在" });
      }
      const svc = await t.login("svc");
      const add = await t.call("adminapiv2", "schooladd", { title: "Year Zero School", endtime: "0000-01-01" }, { token: svc });
      expect(add).toMatchObject({ return_code: "FAIL", data: { errors: [{ field: "endtime" }] } });
      const filter = await t.call("adminapiv2", "servicelist", { end_time_start: "1899-12-31" }, { token });
      expect(filter).toEqual({ return_code: "FAIL", return_msg: "参数错误：end_time_start" });
    });
  });
});

describe("rate limit", () => {
  it("answers 429 with a FAIL envelope past the limit", async () => {
    const t = await createTestApp("pglite", { seed: false, rateLimit: { max: 3, timeWindowMs: 60_000 } });
    try {
      const codes: number[] = [];
      let last: unknown;
      for (let i = 0; i < 4; i++) {
        const res = await t.app.inject({ method: "POST", url: "/weapi/adminapiv2", headers: { ...json, "accept-language": "en" }, payload: '{"method":"getwebsetinfo"}' });
        codes.push(res.statusCode);
        last = res.json();
      }
      expect(codes).toEqual([200, 200, 200, 429]);
      expect(last).toEqual({ return_code: "FAIL", return_msg: "Too many requests, please try again later" });
    } finally {
      await t.close();
    }
  });
});

describe("without a built SPA", () => {
  it("serves the API only", async () => {
    const t = await createTestApp("pglite", { seed: false });
    try {
      const res = await t.app.inject({ method: "GET", url: "/", headers: { accept: "text/html" } });
      expect(res.statusCode).toBe(404);
      expect(res.json().return_code).toBe("FAIL");
      expect((await t.call("adminapiv2", "getwebsetinfo")).return_code).toBe("SUCCESS");
    } finally {
      await t.close();
    }
  });
});
