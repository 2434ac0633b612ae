/**
 * WeChat's web OAuth for official accounts, as far as JSAPI payment needs it: inside WeChat, the payer page sends
 * the payer to the authorize page (scope snsapi_base: silent, no consent screen), WeChat sends them back with a
 * `code`, and the server exchanges that code, with the app's AppSecret, for the payer's openid in that app
 * (GET /sns/oauth2/access_token). A code works once and for five minutes. The addresses are configurable so that
 * tests talk to a stand-in speaking the same protocol.
 */
import { z } from "zod";
import { boundedText } from "../../lib/boundedText";

export const WECHAT_OAUTH_AUTHORIZE_URL = "https://open.weixin.qq.com/connect/oauth2/authorize";
export const WECHAT_API_ORIGIN = "https://api.weixin.qq.com";
const EXCHANGE_TIMEOUT_MS = 8_000;
/** the exchange answers a few hundred bytes */
const MAX_ANSWER_BYTES = 16 * 1024;

export interface WechatOAuthEndpoints {
  /** the authorize page the payer's browser is sent to */
  authorizeUrl: string;
  /** the origin of the server API (sns/oauth2/access_token) */
  apiOrigin: string;
}

export const DEFAULT_WECHAT_OAUTH: WechatOAuthEndpoints = { authorizeUrl: WECHAT_OAUTH_AUTHORIZE_URL, apiOrigin: WECHAT_API_ORIGIN };

/** WeChat refused the code (errcode 40029 invalid, 40163 used, 40125 wrong secret...) or could not be asked. */
export class WechatOAuthError extends Error {
  constructor(
    message: string,
    readonly errcode?: number,
  ) {
    super(message);
    this.name = "WechatOAuthError";
  }
}

const tokenAnswer = z.object({ access_token: z.string().min(1).max(512), openid: z.string().min(1).max(128), scope: z.string().optional() });
const userInfoAnswer = z.object({ openid: z.string().min(1).max(128), nickname: z.string().max(256).optional(), headimgurl: z.string().max(1000).optional() });
const errorAnswer = z.object({ errcode: z.number(), errmsg: z.string().optional() });

/** GETs a WeChat API address and answers its JSON body, or throws what WeChat refused (it answers 200 either way). */
async function askWechat(url: URL, what: string): Promise<unknown> {
  let body: unknown;
  try {
    const response = await fetch(url, { redirect: "error", signal: AbortSignal.timeout(EXCHANGE_TIMEOUT_MS) });
    body = JSON.parse(await boundedText(response, MAX_ANSWER_BYTES));
  } catch (err) {
    throw new WechatOAuthError(`WeChat OAuth could not be asked: ${(err as Error).message}`);
  }
  const failed = errorAnswer.safeParse(body);
  if (failed.success && failed.data.errcode !== 0) throw new WechatOAuthError(`WeChat OAuth refused ${what}: ${failed.data.errcode} ${failed.data.errmsg ?? ""}`, failed.data.errcode);
  return body;
}

/** The user whose browser WeChat sent back with `code`: their openid in the app `appid` and a web access token. */
export async function userOfCode(endpoints: WechatOAuthEndpoints, app: { appid: string; secret: string }, code: string): Promise<{ openid: string; accessToken: string }> {
  const url = new URL("/sns/oauth2/access_token", endpoints.apiOrigin);
  url.search = new URLSearchParams({ appid: app.appid, secret: app.secret, code, grant_type: "authorization_code" }).toString();
  const answer = tokenAnswer.safeParse(await askWechat(url, "the code"));
  if (!answer.success) throw new WechatOAuthError("WeChat OAuth answered without an openid");
  return { openid: answer.data.openid, accessToken: answer.data.access_token };
}

/** The openid of the payer whose browser WeChat sent back with `code`, in the app `appid`. */
export async function openidOfCode(endpoints: WechatOAuthEndpoints, app: { appid: string; secret: string }, code: string): Promise<string> {
  return (await userOfCode(endpoints, app, code)).openid;
}

/**
 * The nickname and avatar a user agreed to show (scope snsapi_userinfo): GET /sns/userinfo with the web access
 * token of userOfCode. Either may be empty.
 */
export async function userInfo(endpoints: WechatOAuthEndpoints, user: { openid: string; accessToken: string }): Promise<{ nickname: string; headimgurl: string }> {
  const url = new URL("/sns/userinfo", endpoints.apiOrigin);
  url.search = new URLSearchParams({ access_token: user.accessToken, openid: user.openid, lang: "zh_CN" }).toString();
  const answer = userInfoAnswer.safeParse(await askWechat(url, "the user's profile"));
  if (!answer.success || answer.data.openid !== user.openid) throw new WechatOAuthError("WeChat OAuth answered another user's profile");
  return { nickname: answer.data.nickname ?? "", headimgurl: answer.data.headimgurl ?? "" };
}
