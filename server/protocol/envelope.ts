/** The /weapi/ answer envelope (DESIGN 4). */
import { randomBytes } from "node:crypto";

export type ReturnCode = "SUCCESS" | "FAIL" | "token_error";

export interface Envelope {
  return_code: ReturnCode;
  return_msg: string;
  result_code?: string;
  result_msg?: string;
  data?: Record<string, unknown>;
}

/**
 * JSON the database wrote (a list's page), carried in an answer's `data.items` as it is: the answer's text is
 * written around it (envelopeText). Anything else that writes it as JSON reads it first.
 */
export class JsonText {
  constructor(readonly text: string) {}

  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}

/** marks the place of `data.items` in an answer's text: a random word no value of an answer can hold */
const ITEMS_MARK = `"items-${randomBytes(16).toString("hex")}"`;

/** The envelope as the answer's JSON text, its `data.items` of JsonText put in unread. */
export function envelopeText(envelope: Envelope): string {
  const items = envelope.data?.items;
  if (!(items instanceof JsonText)) return JSON.stringify(envelope);
  const text = JSON.stringify({ ...envelope, data: { ...envelope.data, items: JSON.parse(ITEMS_MARK) as string } });
  // a function, so that no "$" of the JSON is read as a pattern
  return text.replace(ITEMS_MARK, () => items.text);
}

export function success(returnMsg: string, data?: Record<string, unknown>): Envelope {
  return data === undefined ? { return_code: "SUCCESS", return_msg: returnMsg } : { return_code: "SUCCESS", return_msg: returnMsg, data };
}

export function fail(returnMsg: string, data?: Record<string, unknown>): Envelope {
  return data === undefined ? { return_code: "FAIL", return_msg: returnMsg } : { return_code: "FAIL", return_msg: returnMsg, data };
}

export function tokenError(returnMsg: string): Envelope {
  return { return_code: "token_error", return_msg: returnMsg };
}

/**
 * Thrown by operations to answer FAIL with a message of the "api" namespace (or any translation key);
 * `data` carries details such as field errors. It is an answer, not a fault: it carries no stack trace, whose
 * capture would be most of its cost on hot paths such as checkpay's "not paid yet".
 */
export class ApiFailure extends Error {
  constructor(
    readonly messageKey: string,
    readonly params: Record<string, string | number> = {},
    readonly data?: Record<string, unknown>,
  ) {
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(messageKey);
    Error.stackTraceLimit = stackTraceLimit;
    this.name = "ApiFailure";
  }
}

/** The record does not exist or lies outside the caller's authority: both answer the same. */
export function notFound(): ApiFailure {
  return new ApiFailure("api.not_found");
}
