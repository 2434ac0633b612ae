/**
 * A stand-in on loopback for enterprise WeChat's (企业微信) server API, speaking its protocol as its documentation
 * gives it:
 * - `GET /cgi-bin/gettoken?corpid=&corpsecret=` -> {errcode: 0, errmsg: "ok", access_token, expires_in: 7200};
 *   an unknown corpid is 40013 (invalid corpid), a wrong secret 40001 (invalid credential), a missing one 41002 /
 *   41004.
 * - `POST /cgi-bin/kf/account/list?access_token=` {offset, limit (1 to 100, default 100)} -> {errcode, errmsg,
 *   account_list: [{open_kfid, name, avatar}]}, a page from offset; a token unknown is 40014, none 41001; a corp
 *   whose secret is not the customer-service one (`kfAllowed: false`) is 48002 (api forbidden).
 * - `POST /cgi-bin/kf/add_contact_way?access_token=` {open_kfid, scene (at most 32 of [0-9a-zA-Z_-])} -> {errcode,
 *   errmsg, url}: https://work.weixin.qq.com/kf/{id}?enc_scene={...}; an open_kfid the corp does not have is 95000.
 * Every answer is HTTP 200 with JSON, as enterprise WeChat's are. A test may switch it `down` (HTTP 502) and reads
 * the calls it was sent.
 */
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeKfAccount {
  open_kfid: string;
  name: string;
  avatar: string;
}

interface FakeCorp {
  secret: string;
  /** false: the secret is another app's, which may not call the customer-service API (48002) */
  kfAllowed: boolean;
  accounts: FakeKfAccount[];
}

export interface FakeWorkWechatCall {
  path: string;
  corpid?: string;
  body?: Record<string, unknown>;
}

const SCENE = /^[0-9a-zA-Z_-]{0,32}$/;

export class FakeWorkWechat {
  readonly calls: FakeWorkWechatCall[] = [];
  /** answer every call with HTTP 502, as a proxy in front of an unreachable service does */
  down = false;
  private readonly corps = new Map<string, FakeCorp>();
  /** token -> corp id */
  private readonly tokens = new Map<string, string>();

  private constructor(
    private readonly server: http.Server,
    readonly url: string,
  ) {}

  static async start(): Promise<FakeWorkWechat> {
    let fake: FakeWorkWechat | undefined;
    const server = http.createServer((req, res) => void fake!.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    fake = new FakeWorkWechat(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return fake;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** a corp with its customer-service secret and accounts (replacing one of the same id) */
  setCorp(corpId: string, corp: { secret: string; kfAllowed?: boolean; accounts: FakeKfAccount[] }): void {
    this.corps.set(corpId, { kfAllowed: true, ...corp });
  }

  corp(corpId: string): FakeCorp {
    const corp = this.corps.get(corpId);
    if (!corp) throw new Error(`no corp ${corpId}`);
    return corp;
  }

  /** the calls of one API (its path without /cgi-bin/) */
  callsOf(api: string): FakeWorkWechatCall[] {
    return this.calls.filter((c) => c.path === `/cgi-bin/${api}`);
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", this.url);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    let body: Record<string, unknown> | undefined;
    try {
      body = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
    } catch {
      body = undefined;
    }
    const token = url.searchParams.get("access_token");
    this.calls.push({ path: url.pathname, corpid: url.searchParams.get("corpid") ?? (token ? this.tokens.get(token) : undefined), body });
    if (this.down) {
      res.writeHead(502, { "content-type": "text/html" });
      res.end("<html>502 Bad Gateway</html>");
      return;
    }
    const answer = (value: Record<string, unknown>) => {
      res.writeHead(200, { "content-type": "application/json; charset=UTF-8" });
      res.end(JSON.stringify({ errcode: 0, errmsg: "ok", ...value }));
    };
    const refuse = (errcode: number, errmsg: string) => answer({ errcode, errmsg: `${errmsg}, hint: [${randomBytes(6).toString("hex")}], more info at https://open.work.weixin.qq.com/devtool/query?e=${errcode}` });

    if (url.pathname === "/cgi-bin/gettoken") {
      if (req.method !== "GET") return refuse(43001, "require GET method");
      const corpid = url.searchParams.get("corpid");
      const secret = url.searchParams.get("corpsecret");
      if (!corpid) return refuse(41002, "corpid missing");
      if (!secret) return refuse(41004, "corpsecret missing");
      const corp = this.corps.get(corpid);
      if (!corp) return refuse(40013, "invalid corpid");
      if (corp.secret !== secret) return refuse(40001, "invalid credential, access_token is invalid or not latest");
      const issued = randomBytes(32).toString("base64url");
      this.tokens.set(issued, corpid);
      return answer({ access_token: issued, expires_in: 7200 });
    }

    if (url.pathname !== "/cgi-bin/kf/account/list" && url.pathname !== "/cgi-bin/kf/add_contact_way") {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("not found");
      return;
    }
    if (req.method !== "POST") return refuse(43002, "require POST method");
    if (!token) return refuse(41001, "access_token missing");
    const corpId = this.tokens.get(token);
    if (!corpId) return refuse(40014, "invalid access_token");
    const corp = this.corps.get(corpId)!;
    if (!corp.kfAllowed) return refuse(48002, "api forbidden");
    if (!body) return refuse(47001, "data format error");

    if (url.pathname === "/cgi-bin/kf/account/list") {
      const offset = body.offset ?? 0;
      const limit = body.limit ?? 100;
      if (typeof offset !== "number" || !Number.isInteger(offset) || offset < 0) return refuse(40058, "invalid offset");
      if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > 100) return refuse(40058, "invalid limit");
      return answer({ account_list: corp.accounts.slice(offset, offset + limit) });
    }

    const openKfid = body.open_kfid;
    const scene = body.scene ?? "";
    if (typeof scene !== "string" || !SCENE.test(scene)) return refuse(40058, "invalid scene");
    if (typeof openKfid !== "string" || !corp.accounts.some((a) => a.open_kfid === openKfid)) return refuse(95000, "invalid open_kfid");
    const linkId = `kfc${Buffer.from(openKfid).toString("hex").slice(0, 16)}`;
    return answer({ url: `https://work.weixin.qq.com/kf/${linkId}${scene ? `?enc_scene=ENC${Buffer.from(scene).toString("hex").toUpperCase()}` : ""}` });
  }
}
