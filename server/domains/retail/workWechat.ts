/**
 * Enterprise WeChat's (企业微信) server API, as the shop's customer service reads it: an access token for the corp's
 * customer-service secret (GET /cgi-bin/gettoken?corpid=&corpsecret=), the customer-service accounts
 * (POST /cgi-bin/kf/account/list {offset, limit}, paged by 100) and an account's chat link
 * (POST /cgi-bin/kf/add_contact_way {open_kfid, scene}). Every answer carries {errcode, errmsg}; errcode 0 is
 * success. The origin is the server's configuration (WORK_WECHAT_API_ORIGIN; tests point it at a stand-in).
 */
import { z } from "zod";
import { AnswerTooLargeError, boundedText } from "../../lib/boundedText";

export const WORK_WECHAT_API_ORIGIN = "https://qyapi.weixin.qq.com";

/** Enterprise WeChat's largest page of accounts (kf/account/list's limit: 1 to 100) */
const PAGE = 100;
/** the most pages read: enterprise WeChat keeps far fewer accounts a corp; a longer answer is a wrong one */
const MAX_PAGES = 20;
const TIMEOUT_MS = 10_000;
const MAX_ANSWER_BYTES = 256 * 1024;

/** what enterprise WeChat's error codes the caller tells apart mean */
export const WORK_WECHAT_ERRORS = {
  /** 不合法的secret参数 */
  invalidSecret: 40001,
  /** 不合法的CorpID */
  invalidCorpId: 40013,
  /** API接口无权限调用: the secret is not the customer-service (微信客服) one */
  forbidden: 48002,
  /** the server's address is not among the app's trusted IPs (企业可信IP) */
  untrustedIp: 60020,
} as const;

/**
 * A call that failed: `refused`, enterprise WeChat answered an errcode (and its errmsg); `network`, no whole answer
 * came (unreachable, timed out, not HTTP 200, not JSON, not its format). The message never holds the secret or the
 * token (both travel in the URL, which is never repeated).
 */
export class WorkWechatError extends Error {
  override readonly name = "WorkWechatError";

  constructor(
    readonly kind: "refused" | "network",
    message: string,
    readonly errcode: number | null = null,
    readonly errmsg: string = "",
  ) {
    super(message);
  }
}

export interface WorkWechatKfAccount {
  open_kfid: string;
  name: string;
  avatar: string;
}

const status = z.object({ errcode: z.number().int().optional(), errmsg: z.string().optional() });
const tokenAnswer = status.extend({ access_token: z.string().min(1).max(1024), expires_in: z.number().optional() });
const accountsAnswer = status.extend({
  account_list: z.array(z.object({ open_kfid: z.string().min(1).max(64), name: z.string().max(200).default(""), avatar: z.string().max(2000).default("") })).default([]),
});
const contactAnswer = status.extend({ url: z.string().min(1).max(2000) });

export class WorkWechatClient {
  constructor(
    private readonly corpId: string,
    private readonly secret: string,
    private readonly origin: string = WORK_WECHAT_API_ORIGIN,
  ) {}

  /** an access token of the corp's customer-service secret (valid two hours; one a sync is enough) */
  async accessToken(): Promise<string> {
    const url = this.url("/cgi-bin/gettoken", { corpid: this.corpId, corpsecret: this.secret });
    return (await this.call("gettoken", url, undefined, tokenAnswer)).access_token;
  }

  /** every customer-service account of the corp, page after page until one comes back short */
  async kfAccounts(token: string): Promise<WorkWechatKfAccount[]> {
    const accounts: WorkWechatKfAccount[] = [];
    for (let page = 0; page < MAX_PAGES; page++) {
      const answer = await this.call("kf/account/list", this.url("/cgi-bin/kf/account/list", { access_token: token }), { offset: page * PAGE, limit: PAGE }, accountsAnswer);
      accounts.push(...answer.account_list);
      if (answer.account_list.length < PAGE) return accounts;
    }
    throw new WorkWechatError("network", `kf/account/list answered more than ${MAX_PAGES} pages`);
  }

  /** the link that opens a chat with the account, tagged with `scene` (at most 32 of [0-9a-zA-Z_-]) */
  async contactLink(token: string, openKfid: string, scene: string): Promise<string> {
    return (await this.call("kf/add_contact_way", this.url("/cgi-bin/kf/add_contact_way", { access_token: token }), { open_kfid: openKfid, scene }, contactAnswer)).url;
  }

  private url(path: string, query: Record<string, string>): URL {
    const url = new URL(path, this.origin);
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
    return url;
  }

  private async call<T extends z.infer<typeof status>>(api: string, url: URL, body: Record<string, unknown> | undefined, answer: z.ZodType<T>): Promise<T> {
    let response: Response;
    try {
      response = await fetch(url, {
        method: body ? "POST" : "GET",
        ...(body ? { body: JSON.stringify(body), headers: { "content-type": "application/json" } } : {}),
        redirect: "error",
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      throw new WorkWechatError("network", `enterprise WeChat did not answer ${api} (${error instanceof Error ? error.name : "error"})`);
    }
    if (response.status !== 200) {
      await response.body?.cancel();
      throw new WorkWechatError("network", `enterprise WeChat answered ${api} with HTTP ${response.status}`);
    }
    let json: unknown;
    try {
      json = JSON.parse(await boundedText(response, MAX_ANSWER_BYTES));
    } catch (error) {
      throw new WorkWechatError("network", `enterprise WeChat's answer to ${api} ${error instanceof AnswerTooLargeError ? "is too large" : "was cut off or is not JSON"}`);
    }
    const head = status.safeParse(json);
    if (head.success && head.data.errcode !== undefined && head.data.errcode !== 0) {
      const errmsg = (head.data.errmsg ?? "").split(this.secret || "\u0000").join("***").slice(0, 200);
      throw new WorkWechatError("refused", `enterprise WeChat refused ${api}: ${head.data.errcode} ${errmsg}`, head.data.errcode, errmsg);
    }
    const parsed = answer.safeParse(json);
    if (!parsed.success) throw new WorkWechatError("network", `enterprise WeChat's answer to ${api} is not in its format`);
    return parsed.data;
  }
}
