/**
 * A stand-in on loopback for Alipay's open platform gateway (`POST /gateway.do`), speaking its protocol as its
 * documentation gives it: the common parameters (app_id, method, charset, sign_type RSA2, timestamp, version,
 * app_auth_token) and biz_content, signed RSA2 by the caller: SHA256withRSA over every parameter but `sign` that has
 * a value, sorted by name, as `name=value` joined by `&`, checked here with the application's public key. It answers
 * `{"<method with _>_response": {code, msg, sub_code?, sub_msg?, ...}, "sign": ...}`, the sign SHA256withRSA of the
 * response object's JSON text with Alipay's key (a test key pair whose public key it offers).
 * - `alipay.open.auth.token.app` {grant_type authorization_code + code, or refresh_token + refresh_token} ->
 *   {app_auth_token, app_refresh_token, auth_app_id, expires_in, re_expires_in, user_id}.
 * - With an app_auth_token of the app: `alipay.open.mini.version.upload` {template_id, template_version, app_version,
 *   ext}, `.experience.create` / `.experience.query` {app_version} -> exp_qr_code_url, `.version.audit.apply`
 *   {app_version, version_desc}, `.version.detail.query` {app_version} -> status (INIT, AUDITING, AUDIT_REJECT with
 *   reject_reason, WAIT_RELEASE, RELEASE, OFFLINE), `.version.online`, `.version.rollback`.
 * Refusals: 40002 isv.invalid-signature (a signature that fails), 20001 aop.invalid-app-auth-token, 40004 with a
 * sub_code of this stand-in's (isv.version-not-exist, isv.status-not-allowed) where the documentation we read gives
 * none.
 */
import { createSign, createVerify, generateKeyPairSync, randomBytes, type KeyObject } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeAlipayCall {
  method: string;
  biz: Record<string, unknown>;
  code: string;
}

type VersionStatus = "INIT" | "AUDITING" | "AUDIT_REJECT" | "WAIT_RELEASE" | "RELEASE" | "OFFLINE";

interface FakeAlipayApp {
  authToken: string;
  refreshToken: string;
  versions: Map<string, { status: VersionStatus; ext: string; template: string; reason: string; experience: boolean }>;
  online?: string;
  previous?: string;
}

const token = () => randomBytes(16).toString("hex");

export class FakeAlipayOpen {
  readonly calls: FakeAlipayCall[] = [];
  readonly apps = new Map<string, FakeAlipayApp>();
  /** Alipay's public key, PEM: what the platform's settings hold to check answers */
  readonly alipayPublicKey: string;
  private readonly alipayPrivateKey: KeyObject;
  /** app_auth_code -> the app it authorises */
  private readonly codes = new Map<string, string>();

  private constructor(
    private readonly server: http.Server,
    readonly gateway: string,
    readonly appId: string,
    private readonly appPublicKey: string,
  ) {
    const pair = generateKeyPairSync("rsa", { modulusLength: 2048 });
    this.alipayPrivateKey = pair.privateKey;
    this.alipayPublicKey = pair.publicKey.export({ type: "spki", format: "pem" }).toString();
  }

  /** `appPublicKey`: the public key of the platform's third-party application (PEM). */
  static async start(appId: string, appPublicKey: string): Promise<FakeAlipayOpen> {
    let fake: FakeAlipayOpen | undefined;
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const url = new URL(req.url ?? "/", "http://stand-in");
        const params: Record<string, string> = { ...Object.fromEntries(url.searchParams), ...Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString("utf8"))) };
        const method = params.method ?? "";
        const node = url.pathname === "/gateway.do" && req.method === "POST" ? fake!.answer(params) : { code: "40001", msg: "Missing Required Arguments", sub_code: "isv.missing-method" };
        let biz: Record<string, unknown> = {};
        try {
          biz = JSON.parse(params.biz_content ?? "{}") as Record<string, unknown>;
        } catch {
          biz = {};
        }
        fake!.calls.push({ method, biz, code: String(node.code) });
        const text = JSON.stringify(node);
        const sign = createSign("RSA-SHA256").update(text, "utf8").sign(fake!.alipayPrivateKey, "base64");
        res.writeHead(200, { "content-type": "application/json;charset=utf-8" });
        res.end(`{"${method.replaceAll(".", "_") || "error"}_response":${text},"sign":"${sign}"}`);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    fake = new FakeAlipayOpen(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}/gateway.do`, appId, appPublicKey);
    return fake;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  count(method: string): number {
    return this.calls.filter((c) => c.method === method).length;
  }

  /** The owner confirms on Alipay's authorisation page: the app_auth_code they return with. */
  confirmAuthorization(appid: string): string {
    const code = token();
    this.codes.set(code, appid);
    return code;
  }

  /** Alipay's reviewers decide the version's audit. */
  auditDone(appid: string, version: string, passed: boolean, reason = ""): void {
    const entry = this.apps.get(appid)?.versions.get(version);
    if (entry?.status !== "AUDITING") throw new Error(`${appid} ${version} is in no audit`);
    entry.status = passed ? "WAIT_RELEASE" : "AUDIT_REJECT";
    entry.reason = reason;
  }

  /** Every parameter but sign that has a value, sorted, as name=value&...: the string Alipay verifies. */
  private verified(params: Record<string, string>): boolean {
    const content = Object.keys(params)
      .filter((name) => name !== "sign" && params[name] !== "")
      .sort()
      .map((name) => `${name}=${params[name]}`)
      .join("&");
    return Boolean(params.sign) && createVerify("RSA-SHA256").update(content, "utf8").verify(this.appPublicKey, params.sign!, "base64");
  }

  private answer(params: Record<string, string>): Record<string, unknown> {
    const done = (fields: Record<string, unknown> = {}) => ({ code: "10000", msg: "Success", ...fields });
    const failed = (code: string, msg: string, subCode: string, subMsg: string) => ({ code, msg, sub_code: subCode, sub_msg: subMsg });
    if (params.app_id !== this.appId) return failed("40002", "Invalid Arguments", "isv.invalid-app-id", "无效的AppID参数");
    if (params.sign_type !== "RSA2" || params.charset !== "utf-8" || params.version !== "1.0" || !/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(params.timestamp ?? "")) {
      return failed("40002", "Invalid Arguments", "isv.invalid-parameter", "公共参数不正确");
    }
    if (!this.verified(params)) return failed("40002", "Invalid Arguments", "isv.invalid-signature", "验签出错");
    let biz: Record<string, string>;
    try {
      biz = JSON.parse(params.biz_content ?? "{}") as Record<string, string>;
    } catch {
      return failed("40002", "Invalid Arguments", "isv.invalid-biz-content", "biz_content 不是 JSON");
    }
    if (params.method === "alipay.open.auth.token.app") {
      if (biz.grant_type === "authorization_code") {
        const appid = this.codes.get(biz.code ?? "");
        if (!appid) return failed("40004", "Business Failed", "isv.code-invalid", "授权码code无效");
        this.codes.delete(biz.code!);
        const app: FakeAlipayApp = this.apps.get(appid) ?? { authToken: "", refreshToken: "", versions: new Map() };
        Object.assign(app, { authToken: `202612BB${token()}`, refreshToken: `202612BB${token()}` });
        this.apps.set(appid, app);
        return done({ user_id: "2088102150527498", auth_app_id: appid, app_auth_token: app.authToken, app_refresh_token: app.refreshToken, expires_in: 31536000, re_expires_in: 32140800 });
      }
      const entry = [...this.apps.entries()].find(([, app]) => app.refreshToken === biz.refresh_token);
      if (biz.grant_type !== "refresh_token" || !entry) return failed("40004", "Business Failed", "isv.refresh-token-invalid", "刷新令牌无效");
      entry[1].authToken = `202612BB${token()}`;
      return done({ user_id: "2088102150527498", auth_app_id: entry[0], app_auth_token: entry[1].authToken, app_refresh_token: entry[1].refreshToken, expires_in: 31536000, re_expires_in: 32140800 });
    }
    const found = [...this.apps.entries()].find(([, app]) => app.authToken !== "" && app.authToken === params.app_auth_token);
    if (!found) return failed("20001", "Insufficient Token Permissions", "aop.invalid-app-auth-token", "无效的应用授权令牌");
    const [appid, app] = found;
    const version = app.versions.get(biz.app_version ?? "");
    const notAllowed = failed("40004", "Business Failed", "isv.status-not-allowed", "当前版本状态不允许此操作");
    const missing = failed("40004", "Business Failed", "isv.version-not-exist", "版本不存在");
    switch (params.method) {
      case "alipay.open.mini.version.upload":
        if (!biz.template_id || !biz.app_version) return failed("40001", "Missing Required Arguments", "isv.missing-template-id", "缺少模板参数");
        app.versions.set(biz.app_version, { status: "INIT", ext: biz.ext ?? "", template: `${biz.template_id}@${biz.template_version ?? ""}`, reason: "", experience: false });
        return done({ build_status: "SUCCESS" });
      case "alipay.open.mini.experience.create":
        if (!version) return missing;
        version.experience = true;
        return done();
      case "alipay.open.mini.experience.query":
        if (!version?.experience) return missing;
        return done({ status: "expVersionPackged", exp_qr_code_url: `https://mobilecodec.alipay.com/show.htm?code=exp${appid}${biz.app_version}` });
      case "alipay.open.mini.version.audit.apply":
        if (!version) return missing;
        if (version.status !== "INIT" && version.status !== "AUDIT_REJECT") return notAllowed;
        version.status = "AUDITING";
        return done();
      case "alipay.open.mini.version.detail.query":
        if (!version) return missing;
        return done({ app_version: biz.app_version, status: version.status, ...(version.reason ? { reject_reason: version.reason } : {}) });
      case "alipay.open.mini.version.online":
        if (!version) return missing;
        if (version.status !== "WAIT_RELEASE") return notAllowed;
        if (app.online) app.versions.get(app.online)!.status = "OFFLINE";
        version.status = "RELEASE";
        app.previous = app.online;
        app.online = biz.app_version;
        return done();
      case "alipay.open.mini.version.rollback":
        if (!version || app.online !== biz.app_version || !app.previous) return notAllowed;
        version.status = "WAIT_RELEASE";
        app.versions.get(app.previous)!.status = "RELEASE";
        app.online = app.previous;
        app.previous = undefined;
        return done();
      default:
        return failed("40004", "Business Failed", "isv.unknown-method", "不支持的接口");
    }
  }
}
