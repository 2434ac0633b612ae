/**
 * Stand-ins on loopback for the services the notifier sends through, speaking their protocols:
 * - WeChat's API for official accounts: `POST /cgi-bin/stable_token` {grant_type: client_credential, appid, secret,
 *   force_refresh} answers {access_token, expires_in} (40013 invalid appid, 40125 invalid appsecret): the same
 *   token, with the seconds it has left, while it is valid (two hours), a new one once it is not or when
 *   force_refresh is true, which makes the previous one stale, as WeChat's does. And
 *   `POST /cgi-bin/message/template/send?access_token=` answers {errcode: 0, errmsg: "ok", msgid}, 40001 for a
 *   token it does not take (`expireTokens()` makes the one issued stale, as WeChat does), 40003 for an openid it
 *   does not know (`unknownOpenids`), 40037 for an unknown template id, 47003 for a value longer than its field's
 *   kind allows (thing 20 characters, phrase 5...).
 * - Alibaba Cloud's SMS service: `GET /?Action=SendSms&...&Signature=` checks the RPC signature (HMAC-SHA1 with
 *   `{secret}&`), the signature method and version, answers {Code: "OK", BizId, RequestId} or its refusals
 *   (SignatureDoesNotMatch, InvalidAccessKeyId.NotFound, isv.MOBILE_NUMBER_ILLEGAL for a number not of 11 digits,
 *   isv.SMS_TEMPLATE_ILLEGAL for an unknown template).
 */
import { createHmac, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

async function listen(handler: http.RequestListener): Promise<{ server: http.Server; url: string }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

function json(res: http.ServerResponse, body: unknown): void {
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

async function bodyOf(req: http.IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
  } catch {
    return {};
  }
}

export interface SentTemplateMessage {
  touser: string;
  template_id: string;
  url?: string;
  data: Record<string, { value: string }>;
}

/** how long WeChat's access token lives */
const TOKEN_SECONDS = 7200;
/** what WeChat takes of a value, in characters, by its field's kind (a name: 10 with Chinese, else 20) */
const VALUE_LIMITS: Record<string, number> = { thing: 20, character_string: 32, number: 32, letter: 32, symbol: 5, phrase: 5, phone_number: 17, car_number: 8, const: 20, name: 10 };

function valueTooLong(field: string, value: string): boolean {
  const kind = field.replace(/\d+$/, "");
  const limit = kind === "name" && !/\p{Script=Han}/u.test(value) ? 20 : VALUE_LIMITS[kind];
  return limit !== undefined && Array.from(value).length > limit;
}

export class FakeWechatMessages {
  readonly sent: SentTemplateMessage[] = [];
  /** the tokens given, each once: the same token answered again is not counted */
  tokensIssued = 0;
  readonly unknownOpenids = new Set<string>();
  /** WeChat's web OAuth, which api.weixin.qq.com also serves (/sns/...): set it to answer those paths too */
  webOAuth: { handle(req: http.IncomingMessage, res: http.ServerResponse): void } | undefined;
  private current: { token: string; until: number } | undefined;

  private constructor(
    private readonly server: http.Server,
    readonly url: string,
    private readonly app: { appid: string; secret: string },
    private readonly templateIds: Set<string>,
    private readonly now: () => number,
  ) {}

  /** `now`: the clock the tokens' lifetimes are counted on (milliseconds) */
  static async start(app: { appid: string; secret: string }, templateIds: string[], now: () => number = Date.now): Promise<FakeWechatMessages> {
    let fake: FakeWechatMessages | undefined;
    const { server, url } = await listen((req, res) => void fake!.handle(req, res));
    fake = new FakeWechatMessages(server, url, app, new Set(templateIds), now);
    return fake;
  }

  /** WeChat stops taking the token it gave */
  expireTokens(): void {
    this.current = undefined;
  }

  private liveToken(): { token: string; until: number } | undefined {
    return this.current && this.current.until > this.now() ? this.current : undefined;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", this.url);
    const body = await bodyOf(req);
    if (req.method === "POST" && url.pathname === "/cgi-bin/stable_token") {
      if (body.grant_type !== "client_credential") return json(res, { errcode: 40002, errmsg: "invalid grant_type" });
      if (body.appid !== this.app.appid) return json(res, { errcode: 40013, errmsg: "invalid appid" });
      if (body.secret !== this.app.secret) return json(res, { errcode: 40125, errmsg: "invalid appsecret" });
      let live = this.liveToken();
      if (!live || body.force_refresh === true) {
        live = this.current = { token: randomBytes(24).toString("base64url"), until: this.now() + TOKEN_SECONDS * 1000 };
        this.tokensIssued++;
      }
      return json(res, { access_token: live.token, expires_in: Math.floor((live.until - this.now()) / 1000) });
    }
    if (req.method === "POST" && url.pathname === "/cgi-bin/message/template/send") {
      if (this.liveToken()?.token !== url.searchParams.get("access_token")) return json(res, { errcode: 40001, errmsg: "invalid credential, access_token is invalid or not latest" });
      const message = body as unknown as SentTemplateMessage;
      if (!this.templateIds.has(message.template_id)) return json(res, { errcode: 40037, errmsg: "invalid template_id" });
      const tooLong = Object.entries(message.data ?? {}).find(([field, { value }]) => valueTooLong(field, String(value)));
      if (tooLong) return json(res, { errcode: 47003, errmsg: `argument invalid! data.${tooLong[0]}.value invalid` });
      if (this.unknownOpenids.has(message.touser)) return json(res, { errcode: 40003, errmsg: "invalid openid" });
      this.sent.push(message);
      return json(res, { errcode: 0, errmsg: "ok", msgid: 200228332 + this.sent.length });
    }
    if (this.webOAuth && url.pathname.startsWith("/sns/")) return this.webOAuth.handle(req, res);
    res.writeHead(404).end();
  }
}

export interface SentSms {
  PhoneNumbers: string;
  SignName: string;
  TemplateCode: string;
  TemplateParam: Record<string, string>;
}

export class FakeAliyunSms {
  readonly sent: SentSms[] = [];

  private constructor(
    private readonly server: http.Server,
    readonly url: string,
    private readonly account: { accessKeyId: string; accessKeySecret: string },
    private readonly templateCodes: Set<string>,
  ) {}

  static async start(account: { accessKeyId: string; accessKeySecret: string }, templateCodes: string[]): Promise<FakeAliyunSms> {
    let fake: FakeAliyunSms | undefined;
    const { server, url } = await listen((req, res) => fake!.handle(req, res));
    fake = new FakeAliyunSms(server, url, account, new Set(templateCodes));
    return fake;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const query = new URL(req.url ?? "/", this.url).searchParams;
    const params = Object.fromEntries([...query.entries()].filter(([key]) => key !== "Signature"));
    const requestId = randomBytes(8).toString("hex").toUpperCase();
    const fail = (Code: string, Message: string) => json(res, { Code, Message, RequestId: requestId });
    if (req.method !== "GET" || params.Action !== "SendSms" || params.Version !== "2017-05-25") return fail("InvalidAction.NotFound", "Specified api is not found");
    if (params.AccessKeyId !== this.account.accessKeyId) return fail("InvalidAccessKeyId.NotFound", "Specified access key is not found.");
    if (params.SignatureMethod !== "HMAC-SHA1" || params.SignatureVersion !== "1.0" || !params.SignatureNonce || !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(params.Timestamp ?? "")) return fail("MissingParameter", "a signature parameter is missing or malformed");
    if (query.get("Signature") !== this.signature(params)) return fail("SignatureDoesNotMatch", "Specified signature is not matched with our calculation.");
    if (!this.templateCodes.has(params.TemplateCode)) return fail("isv.SMS_TEMPLATE_ILLEGAL", "模版不合法(不存在或被拉黑)");
    if (!/^1\d{10}$/.test(params.PhoneNumbers)) return fail("isv.MOBILE_NUMBER_ILLEGAL", "非法手机号");
    this.sent.push({ PhoneNumbers: params.PhoneNumbers, SignName: params.SignName, TemplateCode: params.TemplateCode, TemplateParam: JSON.parse(params.TemplateParam) });
    json(res, { Code: "OK", Message: "OK", BizId: `${900000 + this.sent.length}^0`, RequestId: requestId });
  }

  /** the signature computed here, independently of the server's code */
  private signature(params: Record<string, string>): string {
    const encode = (value: string) => encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
    const canonical = Object.keys(params)
      .sort()
      .map((key) => `${encode(key)}=${encode(params[key])}`)
      .join("&");
    return createHmac("sha1", `${this.account.accessKeySecret}&`).update(`GET&%2F&${encode(canonical)}`).digest("base64");
  }
}
