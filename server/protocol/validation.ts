/**
 * Checks every payload passes before any operation sees it, and messages for payloads that fail their zod
 * schema. What is checked here holds for every operation, present and future.
 */
import type { ZodError } from "zod";
import type { Translate } from "../lib/i18n";

/** Ids and whole numbers are PostgreSQL `integer` columns: a larger number names no row and fits no column. */
export const MAX_INT = 2_147_483_647;
export const MIN_INT = -2_147_483_648;

/** C0 controls other than tab, line feed and carriage return, and DEL: never part of a value a person typed. */
const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
/** half of a UTF-16 pair without its other half: no UTF-8 text can hold it */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether a text holds a control character or a lone surrogate. */
export function unacceptableText(text: string): boolean {
  return CONTROL_CHARACTER.test(text) || LONE_SURROGATE.test(text);
}
/** a payload nested deeper than this is not one any operation takes */
const MAX_DEPTH = 8;

/**
 * The path of the first value no operation accepts: a string with a control character (PostgreSQL refuses NUL
 * outright) or a lone surrogate, or nesting past MAX_DEPTH. null when the payload is clean.
 */
export function unacceptableValuePath(value: unknown, path: string[] = []): string | null {
  if (typeof value === "string") {
    return unacceptableText(value) ? path.join(".") || "method" : null;
  }
  if (typeof value !== "object" || value === null) return null;
  if (path.length >= MAX_DEPTH) return path.join(".");
  for (const [key, item] of Object.entries(value)) {
    const found = unacceptableText(key) ? [...path, "?"].join(".") : unacceptableValuePath(item, [...path, key]);
    if (found !== null) return found;
  }
  return null;
}

/** "Invalid parameter: {field}" for the first failing field of a named operation's payload. */
export function payloadIssueMessage(t: Translate, error: ZodError): string {
  const issue = error.issues[0];
  const field = issue && issue.path.length > 0 ? issue.path.join(".") : "method";
  return t("api.invalid_params", { field });
}
