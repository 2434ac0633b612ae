/**
 * A stand-in on loopback for WeChat's third-party platform (第三方平台) API, speaking its protocol as its
 * documentation gives it (../shared/research/retail-platform.md section 3): JSON POSTs with the token in the query,
 * HTTP 200 answers {errcode, errmsg, ...}. A body is read as WeChat's note on setprivacysetting warns: text past ASCII
 * must come escaped in the JSON (\uXXXX), or it is garbled.
 * - `/cgi-bin/component/api_component_token` {component_appid, component_appsecret, component_verify_ticket} ->
 *   {component_access_token, expires_in: 7200}; a ticket it never pushed is 61006, a wrong secret 40125 (invalid
 *   appsecret), another appid 40013.
 * - `/cgi-bin/component/api_create_preauthcode?component_access_token=` {component_appid} -> {pre_auth_code,
 *   expires_in: 600}; `/cgi-bin/component/api_query_auth` {component_appid, authorization_code} ->
 *   {authorization_info: {authorizer_appid, authorizer_access_token, expires_in, authorizer_refresh_token,
 *   func_info}}; `/cgi-bin/component/api_authorizer_token` {component_appid, authorizer_appid,
 *   authorizer_refresh_token} -> {authorizer_access_token, expires_in, authorizer_refresh_token}, a refresh token it
 *   does not hold for that app 61023. A component token it did not give is 40001 (invalid credential).
 * - With an authorizer access token (another token, a component one included, 40001): `/wxa/commit` {template_id,
 *   ext_json (a string of JSON), user_version, user_desc}; `/wxa/submit_audit` {...} -> {auditid}, 85086 before a
 *   commit; `/wxa/get_auditstatus` {auditid} -> {status, reason}; `/wxa/release` {} (85020 unless the audit passed);
 *   `GET /wxa/revertcoderelease` (87011 without a version before); `/cgi-bin/component/getprivacysetting`
 *   {privacy_ver} -> {code_exist, privacy_list (the keys found in the committed code), setting_list, owner_setting}; `GET /wxa/get_qrcode` (the experience version's
 *   QR code, a JPEG); `/cgi-bin/component/setprivacysetting`
 *   {privacy_ver, owner_setting, setting_list} (86074 for the live version of an app never released, setting_list
 *   refused for it).
 * 61006, 61023, 85086, 86074, 86000, 40001 and 40013 are WeChat's documented codes; 85020 (release before the audit
 * passed), 85045 (ext_json not JSON), 86075 (setting_list for the live version), 87011 (nothing to revert to) and
 * 61010 (an authorisation code used or unknown) are this stand-in's where what we read of WeChat's documentation
 * gives none.
 * A test plays the owner and WeChat's pushes: `confirmAuthorization` is the owner's confirmation on the
 * authorisation page (an authorisation code for the app), `ticketPush`, `authPush` and `auditPush` are pushes
 * encrypted and signed as WeChat sends them; `auditDone` sets what get_auditstatus answers.
 */
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import sharp from "sharp";
import { WechatMessageCrypt } from "../../server/domains/miniPrograms/wechatCrypt";
import { qrPng } from "../../server/lib/qrImage";

export interface FakeWechatCall {
  path: string;
  body?: Record<string, unknown>;
  errcode: number;
}

interface FakeApp {
  refreshToken?: string;
  accessTokens: Set<string>;
  experience?: { template_id: number; ext_json: string; user_version: string; user_desc: string };
  audit?: { auditid: number; status: 0 | 1 | 2 | 3 | 4; reason: string; version: string };
  live?: string;
  previous?: string;
  privacy: { dev?: Record<string, unknown>; live?: Record<string, unknown> };
}

const token = () => randomBytes(24).toString("base64url");

export class FakeWechatOpen {
  readonly calls: FakeWechatCall[] = [];
  readonly apps = new Map<string, FakeApp>();
  readonly crypt: WechatMessageCrypt;
  /** the privacy keys getprivacysetting finds in an app's committed code */
  codePrivacyKeys = ["UserInfo", "PhoneNumber"];
  private readonly tickets = new Set<string>();
  private readonly componentTokens = new Set<string>();
  private readonly preAuthCodes = new Set<string>();
  /** authorisation code -> the app it authorises */
  private readonly authCodes = new Map<string, string>();
  private nextAuditId = 412_000_001;

  private constructor(
    private readonly server: http.Server,
    readonly url: string,
    readonly componentAppid: string,
    readonly componentSecret: string,
    readonly messageToken: string,
    readonly messageAesKey: string,
  ) {
    this.crypt = new WechatMessageCrypt(messageToken, messageAesKey, componentAppid);
  }

  static async start(credentials: { componentAppid: string; componentSecret: string; messageToken: string; messageAesKey: string }): Promise<FakeWechatOpen> {
    let fake: FakeWechatOpen | undefined;
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const url = new URL(req.url ?? "/", "http://stand-in");
        let body: Record<string, unknown> | undefined;
        try {
          // read byte by byte, as WeChat reads a body: Chinese must come escaped (\uXXXX) or it arrives garbled
          body = chunks.length > 0 ? (JSON.parse(Buffer.concat(chunks).toString("latin1")) as Record<string, unknown>) : undefined;
        } catch {
          body = undefined;
        }
        if (url.pathname === "/wxa/get_qrcode") {
          void fake!.experienceQr(url).then(
            (jpeg) => {
              fake!.calls.push({ path: url.pathname, errcode: 0 });
              res.writeHead(200, { "content-type": "image/jpeg" });
              res.end(jpeg);
            },
            () => {
              fake!.calls.push({ path: url.pathname, errcode: 40001 });
              res.writeHead(200, { "content-type": "application/json; charset=utf-8" });
              res.end(JSON.stringify({ errcode: 40001, errmsg: "invalid credential, access_token is invalid or not latest" }));
            },
          );
          return;
        }
        const answer = fake!.answer(req.method ?? "GET", url, body);
        fake!.calls.push({ path: url.pathname, ...(body ? { body } : {}), errcode: Number(answer.errcode ?? 0) });
        res.writeHead(200, { "content-type": "application/json; charset=utf-8" });
        res.end(JSON.stringify(answer));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    fake = new FakeWechatOpen(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, credentials.componentAppid, credentials.componentSecret, credentials.messageToken, credentials.messageAesKey);
    return fake;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** How many times a path was called. */
  count(path: string): number {
    return this.calls.filter((c) => c.path === path).length;
  }

  /** The owner confirms on the authorisation page opened with this pre-auth code: the code WeChat returns them with. */
  confirmAuthorization(preAuthCode: string, appid: string): string {
    if (!this.preAuthCodes.delete(preAuthCode)) throw new Error(`the stand-in never gave the pre-auth code ${preAuthCode}`);
    const code = `queryauthcode@@@${token()}`;
    this.authCodes.set(code, appid);
    return code;
  }

  /** An authorisation code for the app as the `authorized` push carries it (the owner authorised on WeChat's side). */
  authorizationCode(appid: string): string {
    const code = `queryauthcode@@@${token()}`;
    this.authCodes.set(code, appid);
    return code;
  }

  /** What get_auditstatus answers from now on for the app's audit, as WeChat's reviewers decided. */
  auditDone(appid: string, status: 0 | 1 | 3 | 4, reason = ""): void {
    const app = this.apps.get(appid);
    if (!app?.audit) throw new Error(`${appid} is in no audit`);
    app.audit.status = status;
    app.audit.reason = reason;
  }

  private push(fields: Record<string, string | number>, timestamp: string): { body: string; query: Record<string, string> } {
    const xml = `<xml>${Object.entries(fields)
      .map(([name, value]) => (typeof value === "number" ? `<${name}>${value}</${name}>` : `<${name}><![CDATA[${value}]]></${name}>`))
      .join("")}</xml>`;
    return this.crypt.seal(xml, timestamp, randomBytes(5).toString("hex"));
  }

  /** The ticket push WeChat sends every ten minutes. */
  ticketPush(timestamp = String(Math.floor(Date.now() / 1000))): { ticket: string; body: string; query: Record<string, string> } {
    const ticket = `ticket@@@${token()}`;
    this.tickets.add(ticket);
    return { ticket, ...this.push({ AppId: this.componentAppid, CreateTime: Number(timestamp), InfoType: "component_verify_ticket", ComponentVerifyTicket: ticket }, timestamp) };
  }

  /** An owner's authorisation or its end, pushed to the authorisation event URL. */
  authPush(type: "authorized" | "updateauthorized" | "unauthorized", appid: string): { body: string; query: Record<string, string> } {
    const timestamp = String(Math.floor(Date.now() / 1000));
    if (type === "unauthorized") {
      this.apps.delete(appid);
      return this.push({ AppId: this.componentAppid, CreateTime: Number(timestamp), InfoType: type, AuthorizerAppid: appid }, timestamp);
    }
    const code = this.authorizationCode(appid);
    return this.push({ AppId: this.componentAppid, CreateTime: Number(timestamp), InfoType: type, AuthorizerAppid: appid, AuthorizationCode: code, AuthorizationCodeExpiredTime: Number(timestamp) + 3600, PreAuthCode: `preauthcode@@@${token()}` }, timestamp);
  }

  /** An audit's result pushed to the app's message event URL. */
  auditPush(appid: string, event: "weapp_audit_success" | "weapp_audit_fail" | "weapp_audit_delay", reason = ""): { body: string; query: Record<string, string> } {
    const timestamp = String(Math.floor(Date.now() / 1000));
    const at = Number(timestamp);
    const app = this.apps.get(appid);
    if (app?.audit) {
      app.audit.status = event === "weapp_audit_success" ? 0 : event === "weapp_audit_fail" ? 1 : 4;
      app.audit.reason = reason;
    }
    const detail: Record<string, string | number> = event === "weapp_audit_success" ? { SuccTime: at } : event === "weapp_audit_fail" ? { Reason: reason, FailTime: at, ScreenShot: "" } : { Reason: reason, DelayTime: at };
    return this.push({ ToUserName: "gh_fb9688c2a4b2", FromUserName: "od1P50M-fNQI5Gcq-trm4a7apsU8", CreateTime: at, MsgType: "event", Event: event, ...detail }, timestamp);
  }

  /** get_qrcode: the experience version's QR code as a JPEG, for a token of an app with one. */
  private async experienceQr(url: URL): Promise<Buffer> {
    const entry = [...this.apps.entries()].find(([, app]) => app.accessTokens.has(url.searchParams.get("access_token") ?? ""));
    if (!entry?.[1].experience) throw new Error("no app or no experience version");
    const text = `https://open.weixin.qq.com/sns/getexpappinfo?appid=${entry[0]}&version=${entry[1].experience.user_version}#wechat-redirect`;
    return sharp(await qrPng(text)).jpeg().toBuffer();
  }

  private answer(method: string, url: URL, body: Record<string, unknown> | undefined): Record<string, unknown> {
    const path = url.pathname;
    const refuse = (errcode: number, errmsg: string) => ({ errcode, errmsg });
    if (path === "/cgi-bin/component/api_component_token") {
      if (body?.component_appid !== this.componentAppid) return refuse(40013, "invalid appid");
      if (body.component_appsecret !== this.componentSecret) return refuse(40125, "invalid appsecret");
      if (!this.tickets.has(String(body.component_verify_ticket))) return refuse(61006, "component ticket is invalid");
      const made = token();
      this.componentTokens.add(made);
      return { component_access_token: made, expires_in: 7200 };
    }
    if (path.startsWith("/cgi-bin/component/api_")) {
      if (!this.componentTokens.has(url.searchParams.get("component_access_token") ?? "")) return refuse(40001, "invalid credential, access_token is invalid or not latest");
      if (body?.component_appid !== this.componentAppid) return refuse(40013, "invalid appid");
      if (path === "/cgi-bin/component/api_create_preauthcode") {
        const code = `preauthcode@@@${token()}`;
        this.preAuthCodes.add(code);
        return { pre_auth_code: code, expires_in: 600 };
      }
      if (path === "/cgi-bin/component/api_query_auth") {
        const appid = this.authCodes.get(String(body.authorization_code));
        if (!appid) return refuse(61010, "code is expired");
        this.authCodes.delete(String(body.authorization_code));
        const app: FakeApp = this.apps.get(appid) ?? { accessTokens: new Set(), privacy: {} };
        const accessToken = token();
        app.refreshToken = `refreshtoken@@@${token()}`;
        app.accessTokens.add(accessToken);
        this.apps.set(appid, app);
        return { authorization_info: { authorizer_appid: appid, authorizer_access_token: accessToken, expires_in: 7200, authorizer_refresh_token: app.refreshToken, func_info: [{ funcscope_category: { id: 18 } }] } };
      }
      if (path === "/cgi-bin/component/api_authorizer_token") {
        const app = this.apps.get(String(body.authorizer_appid));
        if (!app?.refreshToken || app.refreshToken !== body.authorizer_refresh_token) return refuse(61023, "refresh_token is invalid");
        const accessToken = token();
        app.accessTokens.add(accessToken);
        return { authorizer_access_token: accessToken, expires_in: 7200, authorizer_refresh_token: app.refreshToken };
      }
      return refuse(-1, "system error");
    }
    const accessToken = url.searchParams.get("access_token") ?? "";
    const entry = [...this.apps.entries()].find(([, app]) => app.accessTokens.has(accessToken));
    if (!entry) return refuse(40001, "invalid credential, access_token is invalid or not latest");
    const [, app] = entry;
    if (path === "/wxa/commit" && method === "POST") {
      if (typeof body?.ext_json !== "string") return refuse(85045, "ext_json is invalid");
      try {
        JSON.parse(body.ext_json);
      } catch {
        return refuse(85045, "ext_json is invalid");
      }
      app.experience = { template_id: Number(body.template_id), ext_json: body.ext_json, user_version: String(body.user_version), user_desc: String(body.user_desc ?? "") };
      return refuse(0, "ok");
    }
    if (path === "/wxa/submit_audit" && method === "POST") {
      if (!app.experience) return refuse(85086, "must commit before submit audit");
      app.audit = { auditid: this.nextAuditId++, status: 2, reason: "", version: app.experience.user_version };
      return { errcode: 0, errmsg: "ok", auditid: app.audit.auditid };
    }
    if (path === "/wxa/get_auditstatus" && method === "POST") {
      if (!app.audit || app.audit.auditid !== Number(body?.auditid)) return refuse(86000, "auditid is invalid");
      return { errcode: 0, errmsg: "ok", status: app.audit.status, reason: app.audit.reason, screenshot: "" };
    }
    if (path === "/wxa/release" && method === "POST") {
      if (app.audit?.status !== 0) return refuse(85020, "status not allowed");
      app.previous = app.live;
      app.live = app.audit.version;
      app.audit = undefined;
      return refuse(0, "ok");
    }
    if (path === "/wxa/revertcoderelease" && method === "GET") {
      if (!app.previous) return refuse(87011, "no previous version to revert");
      app.live = app.previous;
      app.previous = undefined;
      return refuse(0, "ok");
    }
    if (path === "/cgi-bin/component/getprivacysetting" && method === "POST") {
      const live = body?.privacy_ver === 1;
      const kept = app.privacy[live ? "live" : "dev"];
      return { errcode: 0, errmsg: "ok", code_exist: app.experience ? 1 : 0, privacy_list: app.experience ? this.codePrivacyKeys : [], setting_list: kept?.setting_list ?? [], owner_setting: kept?.owner_setting ?? {} };
    }
    if (path === "/cgi-bin/component/setprivacysetting" && method === "POST") {
      const live = body?.privacy_ver === 1;
      if (live && !app.live) return refuse(86074, "no live version, please release first");
      if (live && body?.setting_list) return refuse(86075, "setting_list is not allowed for the live version");
      app.privacy[live ? "live" : "dev"] = body;
      return refuse(0, "ok");
    }
    return refuse(-1, "system error");
  }
}
