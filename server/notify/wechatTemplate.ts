/**
 * WeChat template messages of the platform's official account (the app of the platform's WeChat Pay merchant,
 * paymerchantset's app_id and app_secret): the daily report and the notices to users bound by their openid.
 * The access token comes from `POST /cgi-bin/stable_token` (the same token for every server process asking, so
 * several processes do not invalidate each other's), kept until shortly before it expires; a message is
 * `POST /cgi-bin/message/template/send?access_token=`. WeChat answers HTTP 200 either way: an error is a non-zero
 * errcode, and a token WeChat no longer takes (40001, 40014, 42001) is asked for again once. Each value is cut to
 * its field's documented limit (TEMPLATE_VALUE_LIMITS): WeChat refuses a longer one (47003) rather than fold it.
 */
import { z } from "zod";
import { boundedText } from "../lib/boundedText";
import type { NoticeDriver } from "./drivers";
import type { NoticeRow } from "./notices";

const TIMEOUT_MS = 8_000;
const MAX_ANSWER_BYTES = 16 * 1024;
/** a token is asked for again this long before WeChat says it expires */
const TOKEN_MARGIN_MS = 5 * 60_000;
const STALE_TOKEN_CODES = new Set([40001, 40014, 42001]);

/**
 * The template of each kind of notice: its id in the official account, and which parameter of the notice fills
 * each of the template's fields (`{"thing1": "school", "amount2": "paid"}`); WECHAT_TEMPLATES in the README.
 */
export const wechatTemplatesSchema = z.record(z.string(), z.object({ id: z.string().min(1).max(64), data: z.record(z.string(), z.string()) }));
export type WechatTemplates = z.infer<typeof wechatTemplatesSchema>;

export interface WechatApp {
  appid: string;
  secret: string;
}

/**
 * The documented limits of a value by the kind of its field (the field's name without its number: `thing1`,
 * `character_string02`), in characters: the category templates' parameter rules of the official account's
 * template messages (developers.weixin.qq.com/doc/offiaccount/Message_Management/Template_Message_Interface.html,
 * 类目模板消息), the same as the subscribe messages'. A name is 10 characters when it holds Chinese, 20 when it is
 * letters and signs only. Kinds whose rule is a form (time, date, amount) or an approved list are sent as they
 * are: cutting would not make them right.
 */
export const TEMPLATE_VALUE_LIMITS: Readonly<Record<string, number>> = {
  thing: 20,
  character_string: 32,
  number: 32,
  letter: 32,
  symbol: 5,
  phrase: 5,
  phone_number: 17,
  car_number: 8,
  const: 20,
  name: 10,
};
/** a name of letters and signs only (no Chinese) */
const NAME_LETTERS_LIMIT = 20;
const CHINESE = /\p{Script=Han}/u;

/** A value cut to its field's limit, by characters (a character outside the BMP is one, never split). */
export function templateValue(field: string, value: string): string {
  const kind = field.replace(/\d+$/, "");
  const limit = kind === "name" && !CHINESE.test(value) ? NAME_LETTERS_LIMIT : TEMPLATE_VALUE_LIMITS[kind];
  if (limit === undefined) return value;
  const characters = Array.from(value);
  return characters.length > limit ? characters.slice(0, limit).join("") : value;
}

const tokenAnswer = z.object({ access_token: z.string().min(1), expires_in: z.number().positive() });
const answer = z.object({ errcode: z.number().optional(), errmsg: z.string().optional(), msgid: z.union([z.number(), z.string()]).optional() });

/** tokens by appid, shared by the drivers of one process */
const tokens = new Map<string, { token: string; until: number }>();

async function postJson(url: URL, body: unknown): Promise<unknown> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    redirect: "error",
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  return JSON.parse(await boundedText(response, MAX_ANSWER_BYTES));
}

export class WechatTemplateDriver implements NoticeDriver {
  readonly name = "wechat";

  constructor(
    private readonly apiOrigin: string,
    private readonly app: WechatApp,
    private readonly templates: WechatTemplates,
    private readonly now: () => Date,
  ) {}

  private async token(): Promise<string> {
    const held = tokens.get(this.app.appid);
    if (held && held.until > this.now().getTime()) return held.token;
    const body = await postJson(new URL("/cgi-bin/stable_token", this.apiOrigin), { grant_type: "client_credential", appid: this.app.appid, secret: this.app.secret, force_refresh: false });
    const parsed = tokenAnswer.safeParse(body);
    if (!parsed.success) {
      const failed = answer.safeParse(body);
      throw new Error(`WeChat gave no access token: ${failed.success ? `${failed.data.errcode} ${failed.data.errmsg ?? ""}` : "an answer of another shape"}`);
    }
    tokens.set(this.app.appid, { token: parsed.data.access_token, until: this.now().getTime() + parsed.data.expires_in * 1000 - TOKEN_MARGIN_MS });
    return parsed.data.access_token;
  }

  async send(notice: NoticeRow): Promise<{ reference: string | null }> {
    const template = this.templates[notice.kind];
    if (!template) throw new Error(`no WeChat template is set for ${notice.kind} notices`);
    const data = Object.fromEntries(Object.entries(template.data).map(([field, param]) => [field, { value: templateValue(field, notice.params[param] ?? "") }]));
    const message = { touser: notice.recipient, template_id: template.id, data, ...(notice.params.link ? { url: notice.params.link } : {}) };
    for (let attempt = 0; ; attempt++) {
      const url = new URL("/cgi-bin/message/template/send", this.apiOrigin);
      url.searchParams.set("access_token", await this.token());
      const parsed = answer.safeParse(await postJson(url, message));
      if (!parsed.success) throw new Error("WeChat answered the template message with an answer of another shape");
      const { errcode = 0, errmsg = "", msgid } = parsed.data;
      if (errcode === 0) return { reference: msgid === undefined ? null : String(msgid) };
      if (STALE_TOKEN_CODES.has(errcode) && attempt === 0) {
        tokens.delete(this.app.appid);
        continue;
      }
      throw new Error(`WeChat refused the template message: ${errcode} ${errmsg}`);
    }
  }
}
