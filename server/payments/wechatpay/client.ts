/**
 * HTTP client of WeChat Pay API v3: signs every request with the merchant key and accepts a successful answer
 * only when WeChat Pay's signature over it verifies. Error answers ({code, message}) become GatewayRequestError.
 */
import { createHash } from "node:crypto";
import { open } from "node:fs/promises";
import { AnswerTooLargeError, boundedText } from "../../lib/boundedText";
import type { Clock } from "../../lib/clock";
import { GatewayRequestError } from "../gateway";
import { authorizationHeader, newNonce, verifySignedMessage, type PlatformKey, type RequestSigner } from "./signing";

/** a gateway that does not answer within this is treated as failed; the order can be queried again later */
const REQUEST_TIMEOUT_MS = 10_000;
/** an order, a query or a refund answers a few KB */
const MAX_ANSWER_BYTES = 256 * 1024;

export interface WechatPayResponse {
  status: number;
  /** parsed JSON body; undefined for an empty body (204) */
  body: unknown;
}

export class WechatPayClient {
  constructor(
    private readonly apiBase: string,
    private readonly signer: RequestSigner,
    private readonly platformKey: PlatformKey,
    private readonly clock: Clock,
  ) {}

  async request(method: "GET" | "POST", pathWithQuery: string, payload?: unknown): Promise<WechatPayResponse> {
    const body = payload === undefined ? "" : JSON.stringify(payload);
    const timestamp = String(Math.floor(this.clock.now().getTime() / 1000));
    const headers: Record<string, string> = {
      accept: "application/json",
      "user-agent": "campus-pay-console",
      authorization: authorizationHeader(this.signer, method, pathWithQuery, body, timestamp, newNonce()),
    };
    if (payload !== undefined) headers["content-type"] = "application/json";

    let response: Response;
    let text: string;
    try {
      response = await fetch(new URL(pathWithQuery, this.apiBase), {
        method,
        headers,
        body: payload === undefined ? undefined : body,
        redirect: "error",
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      text = await boundedText(response, MAX_ANSWER_BYTES);
    } catch (err) {
      throw new GatewayRequestError(`WeChat Pay unreachable: ${(err as Error).message}`, 0);
    }

    if (!response.ok) {
      const error = parseJson(text) as { code?: unknown; message?: unknown } | undefined;
      const code = typeof error?.code === "string" ? error.code : undefined;
      const message = typeof error?.message === "string" ? error.message : `HTTP ${response.status}`;
      throw new GatewayRequestError(`WeChat Pay: ${message}`, response.status, code);
    }
    // an answer that changes our view of an order must come from WeChat Pay: verify before reading it
    verifySignedMessage(Object.fromEntries(response.headers), text, this.platformKey, this.clock.now());
    return { status: response.status, body: text === "" ? undefined : parseJson(text) };
  }

  /**
   * A file WeChat Pay gives by a short-lived download_url (a bill), written into the file `into` as it arrives and
   * answered by the SHA1 of its bytes (hex): a signed GET like any call, but its answer is the raw file and is not
   * signed, so its caller checks the digest the signed answer gave. Only a URL of the API's own origin is asked: our
   * signature goes nowhere else. A file longer than `maxBytes` is refused as soon as it is.
   */
  async download(url: string, into: string, maxBytes: number): Promise<string> {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      throw new GatewayRequestError("WeChat Pay: the download address is not a URL", 0);
    }
    if (target.origin !== new URL(this.apiBase).origin) throw new GatewayRequestError(`WeChat Pay: the download address is not on ${new URL(this.apiBase).origin}`, 0);
    const pathWithQuery = `${target.pathname}${target.search}`;
    const timestamp = String(Math.floor(this.clock.now().getTime() / 1000));
    try {
      const response = await fetch(target, {
        headers: { "user-agent": "campus-pay-console", authorization: authorizationHeader(this.signer, "GET", pathWithQuery, "", timestamp, newNonce()) },
        redirect: "error",
        signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS),
      });
      if (!response.ok) {
        await response.body?.cancel();
        throw new GatewayRequestError(`WeChat Pay: download answered HTTP ${response.status}`, response.status);
      }
      const declared = Number(response.headers.get("content-length") ?? Number.NaN);
      if (declared > maxBytes) {
        await response.body?.cancel();
        throw new AnswerTooLargeError(`the file declares ${declared} bytes, more than ${maxBytes}`);
      }
      const digest = createHash("sha1");
      const file = await open(into, "w");
      const reader = response.body?.getReader();
      try {
        for (let size = 0; reader; ) {
          const { done, value } = await reader.read();
          if (done) break;
          size += value.byteLength;
          if (size > maxBytes) throw new AnswerTooLargeError(`the file is longer than ${maxBytes} bytes`);
          digest.update(value);
          await file.write(value);
        }
      } finally {
        await reader?.cancel().catch(() => undefined);
        await file.close();
      }
      return digest.digest("hex");
    } catch (err) {
      if (err instanceof GatewayRequestError) throw err;
      throw new GatewayRequestError(`WeChat Pay download failed: ${(err as Error).message}`, 0);
    }
  }
}

/** a day's bill of a busy merchant is tens of megabytes */
const DOWNLOAD_TIMEOUT_MS = 120_000;

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
