/**
 * The inputs of every route outside /weapi/ (the sandbox payment page and its confirmation, the daily report's
 * binding page, the payment notifications, the SPA's files) pass the check /weapi/ payloads pass: a control
 * character (NUL and the other C0 controls but tab, line feed and carriage return, DEL) in a path parameter, a
 * query value or a body field is answered 400 naming the field, an HTML page to a browser and a FAIL envelope
 * to anything else, never a 500 or a system error, and nothing is written. The routes are read from the app, so
 * a public route added later is sent the same bad inputs the day it is registered.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { LightMyRequestResponse } from "fastify";
import { like } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { dailyReportSubscribers, providers } from "../../server/db/schema";
import { escapeHtml } from "../../server/lib/htmlPage";
import { translator } from "../../server/lib/i18n";
import { publicRoutes } from "../../server/protocol/publicInputs";
import { describeOnEmbedded } from "../helpers/db";
import { createTestApp, idByTitle, type TestApp } from "./support";

const zh = translator("zh");
const en = translator("en");
const BAD = ["\u0000", "\u0001", "\u001b", "\u007f"];
const HTML = { accept: "text/html,application/xhtml+xml" };

/** A refusal naming the field: HTML to a browser, a FAIL envelope otherwise; never a system error. */
function expectRefused(res: LightMyRequestResponse, field: string, where: string, t = zh): void {
  expect(res.statusCode, `${where}: ${res.body.slice(0, 300)}`).toBe(400);
  expect(res.body, where).not.toContain(t("api.system_error"));
  expect(res.headers["cache-control"], where).toBe("no-store");
  // a HEAD request's answer has no body to read
  if (res.body === "") return;
  const message = t("api.invalid_params", { field });
  if (String(res.headers["content-type"]).startsWith("text/html")) {
    expect(res.body, where).toContain('data-testid="invalid-input"');
    expect(res.body, where).toContain(escapeHtml(message));
  } else {
    expect(res.json(), where).toEqual({ return_code: "FAIL", return_msg: message });
  }
}

describeOnEmbedded("public routes' inputs", (kind) => {
  let t: TestApp;
  let staticDir: string;
  let svcToken = "";
  let sunrise = 0;

  beforeAll(async () => {
    staticDir = fs.mkdtempSync(path.join(os.tmpdir(), "cpc-public-inputs-"));
    fs.writeFileSync(path.join(staticDir, "index.html"), "<!doctype html><title>console</title>");
    t = await createTestApp(kind, { staticDir });
    await t.app.ready();
    svcToken = await t.login("svc");
    sunrise = await idByTitle(t.db, providers, "Sunrise Campus Services");
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(staticDir, { recursive: true, force: true });
  });

  const bindingAddress = async () => {
    const res = await t.call("adminapiv2", "getdaycountnoticeset", { id: sunrise }, { token: svcToken });
    expect(res.return_code, res.return_msg).toBe("SUCCESS");
    return new URL(String((res.data as { authurl: string }).authurl)).pathname;
  };
  const bind = (pathname: string, nickname: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: "POST", url: pathname, headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, payload: new URLSearchParams({ nickname }).toString() });

  it("refuses a control character in the nickname of the binding page, naming it, binds nothing, and keeps the code usable", async () => {
    const address = await bindingAddress();
    for (const bad of BAD) {
      expectRefused(await bind(address, `Zhou${bad}Li`), "nickname", JSON.stringify(bad));
      expectRefused(await bind(address, `Zhou${bad}Li`, { "accept-language": "en" }), "nickname", `en ${JSON.stringify(bad)}`, en);
    }
    expect(await t.db.select().from(dailyReportSubscribers).where(like(dailyReportSubscribers.nickname, "Zhou%"))).toEqual([]);
    // tab, line feed and carriage return are text; the code was not used up by the refusals
    const done = await bind(address, "Zhou\tLi");
    expect(done.statusCode, done.body).toBe(200);
    expect(done.body).toContain('data-testid="bind-done"');
    expect((await t.db.select().from(dailyReportSubscribers).where(like(dailyReportSubscribers.nickname, "Zhou%"))).map((s) => s.nickname)).toEqual(["Zhou\tLi"]);
  });

  it("refuses a control character in the sandbox confirmation's JSON body and in the page's address, naming the field", async () => {
    const payNo = "P".padEnd(24, "0");
    for (const bad of BAD) {
      const confirm = await t.app.inject({ method: "POST", url: `/pay/sandbox/${payNo}/confirm`, headers: { "content-type": "application/json" }, payload: JSON.stringify({ pay_no: `x${bad}` }) });
      expectRefused(confirm, "pay_no", `confirm ${JSON.stringify(bad)}`);
      expectRefused(await t.app.inject({ method: "GET", url: `/pay/sandbox/${encodeURIComponent(`x${bad}`)}`, headers: HTML }), "payNo", `page ${JSON.stringify(bad)}`);
    }
  });

  it("sends every public route a control character in each path parameter, a query value and a body field", async () => {
    const routes = publicRoutes(t.app);
    const names = routes.map((r) => `${r.method} ${r.url}`);
    // at least these; any other the app has is tried the same way
    expect(names).toEqual(
      expect.arrayContaining([
        "GET /pay/sandbox/:payNo",
        "POST /pay/sandbox/:payNo/confirm",
        "POST /pay/notify/wechatpay/:merchantId",
        "GET /notice/sandbox/bind/:token",
        "POST /notice/sandbox/bind/:token",
        "GET /*",
      ]),
    );
    expect(names.some((n) => n.includes("/weapi"))).toBe(false);
    // and the app's own table of routes agrees: every route but /weapi/'s runs the check before its handler
    const table: { head: string; hooks: string[] }[] = [];
    for (const line of t.app.printRoutes({ commonPrefix: false, includeHooks: true }).split("\n")) {
      if (/\((GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS)(, [A-Z]+)*\)\s*$/.test(line)) table.push({ head: line, hooks: [] });
      else table.at(-1)?.hooks.push(line);
    }
    expect(table.length).toBeGreaterThanOrEqual(6);
    for (const { head, hooks } of table) {
      const checked = hooks.some((h) => h.includes("(preValidation)") && h.includes("refuseUnacceptableInput"));
      expect(checked, head).toBe(!head.includes("/weapi"));
    }

    const PARAM = /:([A-Za-z_]\w*)|\*/g;
    let tried = 0;
    for (const route of routes) {
      const method = route.method as "GET" | "HEAD" | "POST";
      const params = [...route.url.matchAll(PARAM)].map((m) => m[1] ?? "*");
      const address = (values: Record<string, string>) => route.url.replace(PARAM, (_m, name: string | undefined) => encodeURIComponent(values[name ?? "*"] ?? "a"));
      const inject = (url: string, body?: { type: string; payload: string }) =>
        t.app.inject({ method, url, headers: { ...HTML, ...(body ? { "content-type": body.type } : {}) }, ...(body ? { payload: body.payload } : {}) });
      for (const bad of BAD) {
        const where = (what: string) => `${method} ${route.url} ${what} ${JSON.stringify(bad)}`;
        for (const param of params) expectRefused(await inject(address({ [param]: `x${bad}y` })), param === "*" ? "path" : param, where(param));
        expectRefused(await inject(`${address({})}?probe=${encodeURIComponent(`x${bad}`)}`), "probe", where("query"));
        tried++;
        if (method !== "POST") continue;
        // a body kept as sent (a payment notification, whose signature covers its text) is checked as that text
        const raw = route.url.startsWith("/pay/notify/");
        const json = await inject(address({}), { type: "application/json", payload: raw ? `{"probe":"x${bad}"}` : JSON.stringify({ probe: `x${bad}` }) });
        expectRefused(json, raw ? "body" : "probe", where("json body"));
        const form = await inject(address({}), { type: "application/x-www-form-urlencoded", payload: `probe=${encodeURIComponent(`x${bad}`)}` });
        // a route that takes no form answers as it answers any unknown content type, never with a system error
        if (form.statusCode === 400 && String(form.headers["content-type"]).startsWith("application/json") && form.json<{ return_msg: string }>().return_msg === zh("api.bad_request")) continue;
        expectRefused(form, "probe", where("form body"));
      }
    }
    expect(tried).toBeGreaterThanOrEqual(BAD.length * 6);
  });
});
