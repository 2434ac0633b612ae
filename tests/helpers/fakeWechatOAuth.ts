/**
 * A stand-in for WeChat's web OAuth of official accounts on loopback, speaking its protocol:
 * - GET /connect/oauth2/authorize?appid&redirect_uri&response_type=code&scope=snsapi_base|snsapi_userinfo&state:
 *   the page WeChat's browser is sent to. For a known app and a valid request it redirects (302) to redirect_uri
 *   with `code` and `state` added, as WeChat does silently for snsapi_base; otherwise it shows an error page and
 *   goes nowhere, as WeChat does.
 * - GET /sns/oauth2/access_token?appid&secret&code&grant_type=authorization_code: answers {access_token,
 *   expires_in, refresh_token, openid, scope}, or WeChat's error bodies (always HTTP 200): 40013 invalid appid,
 *   40125 invalid appsecret, 40029 invalid code (unknown or older than five minutes), 40163 code been used,
 *   40002 invalid grant_type.
 * - GET /sns/userinfo?access_token&openid&lang: the user's nickname and avatar, for a token of scope
 *   snsapi_userinfo ({openid, nickname, sex, province, city, country, headimgurl, privilege}); 40001 for an unknown
 *   token, 48001 for a token of snsapi_base, 40003 for another openid.
 * The WeChat user in the browser is `user` (its openid in the app is derived from both, as WeChat's openids are
 * per app).
 */
import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Clock } from "../../server/lib/clock";

const CODE_LIFETIME_MS = 5 * 60_000;

export interface FakeOfficialAccount {
  appid: string;
  secret: string;
}

interface IssuedCode {
  appid: string;
  user: string;
  openid: string;
  scope: string;
  issuedAt: number;
  used: boolean;
}

/** The openid of a WeChat user in an app: stable, and different in every app. */
export function openidOf(user: string, appid: string): string {
  return `o${createHash("sha256").update(`${appid}:${user}`).digest("base64url").slice(0, 27)}`;
}

export class FakeWechatOAuth {
  /** the WeChat user whose browser follows the authorize page */
  user = "payer-1";
  /** every code exchange asked of the API, as sent */
  readonly exchanges: URLSearchParams[] = [];
  /** what each WeChat user shows with snsapi_userinfo (a user not here shows their name and no avatar) */
  readonly profiles = new Map<string, { nickname: string; headimgurl: string }>();
  private readonly codes = new Map<string, IssuedCode>();
  private readonly accessTokens = new Map<string, { openid: string; scope: string; user: string }>();

  private constructor(
    private readonly server: http.Server,
    private readonly accounts: FakeOfficialAccount[],
    private readonly clock: Clock,
    readonly url: string,
  ) {}

  static async start(accounts: FakeOfficialAccount[], clock: Clock): Promise<FakeWechatOAuth> {
    let fake: FakeWechatOAuth | undefined;
    const server = http.createServer((req, res) => fake!.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    fake = new FakeWechatOAuth(server, accounts, clock, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return fake;
  }

  /** The addresses the server under test is given (its wechatOAuth option). */
  get endpoints(): { authorizeUrl: string; apiOrigin: string } {
    return { authorizeUrl: `${this.url}/connect/oauth2/authorize`, apiOrigin: this.url };
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** A code for the current user in the app, as the authorize page's redirect carries it. */
  issueCode(appid: string, scope = "snsapi_base"): string {
    const code = randomBytes(16).toString("hex");
    this.codes.set(code, { appid, openid: openidOf(this.user, appid), user: this.user, scope, issuedAt: this.clock.now().getTime(), used: false });
    return code;
  }

  /** Answers a request to WeChat's OAuth (also when another stand-in of api.weixin.qq.com passes on /sns/). */
  handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const url = new URL(req.url ?? "/", this.url);
    if (req.method === "GET" && url.pathname === "/connect/oauth2/authorize") return this.authorize(url.searchParams, res);
    if (req.method === "GET" && url.pathname === "/sns/oauth2/access_token") return this.accessToken(url.searchParams, res);
    if (req.method === "GET" && url.pathname === "/sns/userinfo") return this.userInfo(url.searchParams, res);
    res.writeHead(404).end();
  }

  private userInfo(query: URLSearchParams, res: http.ServerResponse): void {
    const answer = (body: Record<string, unknown>): void => {
      res.writeHead(200, { "content-type": "application/json; encoding=utf-8" }).end(JSON.stringify(body));
    };
    const token = this.accessTokens.get(query.get("access_token") ?? "");
    if (!token) return answer({ errcode: 40001, errmsg: "invalid credential, access_token is invalid or not latest" });
    if (token.scope !== "snsapi_userinfo") return answer({ errcode: 48001, errmsg: "api unauthorized" });
    if (query.get("openid") !== token.openid) return answer({ errcode: 40003, errmsg: "invalid openid" });
    const profile = this.profiles.get(token.user) ?? { nickname: token.user, headimgurl: "" };
    answer({ openid: token.openid, nickname: profile.nickname, sex: 0, province: "", city: "", country: "", headimgurl: profile.headimgurl, privilege: [] });
  }

  private authorize(query: URLSearchParams, res: http.ServerResponse): void {
    const appid = query.get("appid") ?? "";
    const scope = query.get("scope") ?? "";
    const redirect = query.get("redirect_uri") ?? "";
    let target: URL | undefined;
    try {
      target = new URL(redirect);
    } catch {
      target = undefined;
    }
    const problem = !this.accounts.some((a) => a.appid === appid)
      ? "appid参数错误"
      : query.get("response_type") !== "code"
        ? "response_type参数错误"
        : scope !== "snsapi_base" && scope !== "snsapi_userinfo"
          ? "scope参数错误"
          : !target
            ? "redirect_uri参数错误"
            : undefined;
    if (problem || !target) {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(`<!doctype html><p data-testid="wechat-oauth-error">${problem}</p>`);
      return;
    }
    target.searchParams.set("code", this.issueCode(appid, scope));
    target.searchParams.set("state", query.get("state") ?? "");
    res.writeHead(302, { location: target.toString() }).end();
  }

  private accessToken(query: URLSearchParams, res: http.ServerResponse): void {
    this.exchanges.push(query);
    const answer = (body: Record<string, unknown>): void => {
      res.writeHead(200, { "content-type": "application/json; encoding=utf-8" }).end(JSON.stringify(body));
    };
    const account = this.accounts.find((a) => a.appid === query.get("appid"));
    if (!account) return answer({ errcode: 40013, errmsg: "invalid appid" });
    if (query.get("secret") !== account.secret) return answer({ errcode: 40125, errmsg: "invalid appsecret" });
    if (query.get("grant_type") !== "authorization_code") return answer({ errcode: 40002, errmsg: "invalid grant_type" });
    const issued = this.codes.get(query.get("code") ?? "");
    if (!issued || issued.appid !== account.appid || this.clock.now().getTime() - issued.issuedAt > CODE_LIFETIME_MS) return answer({ errcode: 40029, errmsg: "invalid code" });
    if (issued.used) return answer({ errcode: 40163, errmsg: "code been used" });
    issued.used = true;
    const accessToken = randomBytes(24).toString("base64url");
    this.accessTokens.set(accessToken, { openid: issued.openid, scope: issued.scope, user: issued.user });
    answer({
      access_token: accessToken,
      expires_in: 7200,
      refresh_token: randomBytes(24).toString("base64url"),
      openid: issued.openid,
      scope: issued.scope,
    });
  }
}
