/**
 * Paying inside WeChat's own browser: a QR code cannot be scanned by the phone that shows it, so there the payer
 * pays on WeChat's payment sheet (JSAPI). That needs the payer's openid: when the school offers it (h5entry's
 * wechat_oauth), the page sends the payer once per visit through WeChat's silent sign-in (snsapi_base), which
 * comes back to this page with `code` and `state`; h5oauth trades the code for a token the page keeps for h5pay.
 * The sheet is opened through WeChat's JS bridge (WeixinJSBridge getBrandWCPayRequest). Anywhere else, or when
 * anything here fails, the payer pays by QR code as before.
 */
import type { JsapiPayParams, WechatOAuth } from "./api";

const TOKEN_KEY = "h5:wx";
const STATE_KEY = "h5:wx-state";
/** the bridge is injected when WeChat's page has loaded; give up on it after this */
const BRIDGE_WAIT_MS = 5_000;

interface StoredToken {
  appid: string;
  token: string;
  /** ms since the epoch */
  expiresAt: number;
}

interface WeixinJSBridge {
  invoke(name: "getBrandWCPayRequest", params: JsapiPayParams, callback: (result: { err_msg?: string }) => void): void;
}

declare global {
  interface Window {
    WeixinJSBridge?: WeixinJSBridge;
  }
}

export function insideWechat(): boolean {
  return /MicroMessenger/i.test(navigator.userAgent);
}

function read(key: string): string | null {
  try {
    return window.sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) window.sessionStorage.removeItem(key);
    else window.sessionStorage.setItem(key, value);
  } catch {
    // storage off: the payer is asked to sign in again next time, or pays by QR code
  }
}

/** The payer's live token for this app, if signed in during this visit. */
export function wechatToken(appid: string): string | undefined {
  try {
    const stored = JSON.parse(read(TOKEN_KEY) ?? "null") as StoredToken | null;
    if (stored && stored.appid === appid && stored.expiresAt > Date.now()) return stored.token;
  } catch {
    // unreadable: sign in again
  }
  return undefined;
}

export function keepWechatToken(appid: string, token: string, expiresInSeconds: number): void {
  // a minute's margin: a token that expires while the payer pays only costs a QR code
  const stored: StoredToken = { appid, token, expiresAt: Date.now() + Math.max(0, expiresInSeconds - 60) * 1000 };
  write(TOKEN_KEY, JSON.stringify(stored));
}

/** The payer chose a QR code instead (the sheet would not open): h5pay is no longer given the token. */
export function forgetWechatToken(): void {
  write(TOKEN_KEY, null);
}

/** The sign-in has been tried in this visit (successful or not): never sent round again, so no loop. */
export function signInTried(): boolean {
  return read(STATE_KEY) !== null;
}

/** Sends the browser to WeChat's silent sign-in, to come back to this very page. */
export function startSignIn(oauth: WechatOAuth): void {
  const state = Math.random().toString(36).slice(2, 12);
  write(STATE_KEY, state);
  const back = new URL(window.location.href);
  back.searchParams.delete("code");
  back.searchParams.delete("state");
  back.hash = "";
  const query = new URLSearchParams({ appid: oauth.appid, redirect_uri: back.toString(), response_type: "code", scope: "snsapi_base", state });
  window.location.replace(`${oauth.authorize_url}?${query.toString()}#wechat_redirect`);
}

/**
 * The code WeChat's sign-in brought back to this page, when it answers the sign-in this page started; the address
 * loses both parameters either way (a reload must not reuse a spent code).
 */
export function takeReturnedCode(): string | undefined {
  const url = new URL(window.location.href);
  const code = url.searchParams.get("code");
  const state = url.searchParams.get("state");
  if (code === null && state === null) return undefined;
  url.searchParams.delete("code");
  url.searchParams.delete("state");
  window.history.replaceState(window.history.state, "", url.toString());
  return code && state !== null && state === read(STATE_KEY) ? code : undefined;
}

function bridge(): Promise<WeixinJSBridge | undefined> {
  if (window.WeixinJSBridge) return Promise.resolve(window.WeixinJSBridge);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(window.WeixinJSBridge), BRIDGE_WAIT_MS);
    document.addEventListener(
      "WeixinJSBridgeReady",
      () => {
        clearTimeout(timer);
        resolve(window.WeixinJSBridge);
      },
      { once: true },
    );
  });
}

export type SheetResult = "ok" | "cancel" | "fail";

/** Opens WeChat's payment sheet for a JSAPI order; "ok" once the payer paid (the server still confirms it). */
export async function openPaySheet(params: JsapiPayParams): Promise<SheetResult> {
  const jsBridge = await bridge();
  if (!jsBridge) return "fail";
  return new Promise((resolve) => {
    jsBridge.invoke("getBrandWCPayRequest", params, (result) => {
      const message = result?.err_msg ?? "";
      resolve(message.endsWith(":ok") ? "ok" : message.endsWith(":cancel") ? "cancel" : "fail");
    });
  });
}
