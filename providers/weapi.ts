/**
 * The /weapi/ client (spec 7 and 8, DESIGN 4): POST /weapi/{path} with {method, ...payload}, credentials,
 * X-Token from the token cookie, a 10-minute timeout, and the envelope rules of the error catalogue.
 */
import { feedback } from "./feedback";
import { i18n } from "./i18n";
import { getCookie, getToken, resetToken } from "./session";

export const REQUEST_TIMEOUT_MS = 600_000;
export const ERROR_TOAST_SECONDS = 5;
export const TOKEN_ERROR_RELOAD_MS = 1500;
/** Legacy codes answered by "you have been logged out" (spec 8). */
export const LOGGED_OUT_CODES = ["50008", "50012", "50014"] as const;

export interface Envelope<T = unknown> {
  return_code: string;
  return_msg: string;
  result_code?: string;
  result_msg?: string;
  data?: T;
}

export interface WeapiOptions {
  /** no error toast (the call's failure is handled by the caller, e.g. silent polling) */
  silent?: boolean;
  /** overrides the 600000 ms timeout */
  timeoutMs?: number;
}

export class WeapiError extends Error {
  constructor(
    message: string,
    /** the envelope when the server answered, absent on transport failure */
    readonly envelope?: Envelope,
  ) {
    super(message);
    this.name = "WeapiError";
  }

  get isTransport(): boolean {
    return this.envelope === undefined;
  }
}

/** Page control, separate so tests can observe it (jsdom cannot reload). */
export const page = {
  reload(): void {
    window.location.reload();
  },
};

function isEnvelope(body: unknown): body is Envelope {
  return typeof body === "object" && body !== null && typeof (body as Envelope).return_code === "string";
}

function handleEnvelope<T>(body: Envelope<T>, options: WeapiOptions): Envelope<T> {
  const code = body.return_code;
  if (code === "SUCCESS") return body;
  const text = body.return_msg || i18n.t("errors.system");
  if (!options.silent) feedback().error(text, ERROR_TOAST_SECONDS);

  if (code.toLowerCase() === "token_error") {
    resetToken();
    setTimeout(() => page.reload(), TOKEN_ERROR_RELOAD_MS);
    throw new WeapiError(text, body);
  }
  if (code === "FAIL") return body;
  if ((LOGGED_OUT_CODES as readonly string[]).includes(code)) {
    feedback().confirm({
      title: i18n.t("errors.logged_out_title"),
      content: i18n.t("errors.logged_out"),
      okText: i18n.t("errors.relogin"),
      cancelText: i18n.t("common.cancel"),
      onOk: () => {
        resetToken();
        page.reload();
      },
    });
  }
  throw new WeapiError(text, body);
}

/**
 * Calls `method` on /weapi/{path}. SUCCESS and FAIL envelopes resolve (FAIL after an error toast); every other
 * code and transport failures reject with a WeapiError.
 */
export async function weapi<T = unknown>(
  path: string,
  method: string,
  payload: Record<string, unknown> = {},
  options: WeapiOptions = {},
): Promise<Envelope<T>> {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  const token = getToken();
  if (token) headers["X-Token"] = token;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? REQUEST_TIMEOUT_MS);
  let body: unknown;
  try {
    const response = await fetch(`/weapi/${path}`, {
      method: "POST",
      credentials: "include",
      headers,
      body: JSON.stringify({ ...payload, method }),
      signal: controller.signal,
    });
    body = await response.json();
  } catch {
    const text = i18n.t("errors.network");
    if (!options.silent) feedback().error(text, ERROR_TOAST_SECONDS);
    throw new WeapiError(text);
  } finally {
    clearTimeout(timer);
  }
  if (!isEnvelope(body)) {
    const text = i18n.t("errors.system");
    if (!options.silent) feedback().error(text, ERROR_TOAST_SECONDS);
    throw new WeapiError(text);
  }
  return handleEnvelope(body as Envelope<T>, options);
}

/** The general helper (spec 7): the caller's payload, method included, on adminapiv2. */
export function weapiGeneral<T = unknown>(
  payload: { method: string } & Record<string, unknown>,
  options?: WeapiOptions,
): Promise<Envelope<T>> {
  const { method, ...rest } = payload;
  return weapi<T>("adminapiv2", method, rest, options);
}

/** The v3 helper (spec 7): the caller's payload plus sysid from the cookie, on a caller-given path. */
export function weapiV3<T = unknown>(
  path: string,
  payload: { method: string } & Record<string, unknown>,
  options?: WeapiOptions,
): Promise<Envelope<T>> {
  const { method, ...rest } = payload;
  return weapi<T>(path, method, { ...rest, sysid: getCookie("select_sysid") }, options);
}
