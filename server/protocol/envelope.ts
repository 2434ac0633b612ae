/** The /weapi/ answer envelope (DESIGN 4). */
export type ReturnCode = "SUCCESS" | "FAIL" | "token_error";

export interface Envelope {
  return_code: ReturnCode;
  return_msg: string;
  result_code?: string;
  result_msg?: string;
  data?: Record<string, unknown>;
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
