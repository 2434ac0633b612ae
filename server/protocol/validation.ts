/** Messages for payloads that fail their zod schema. */
import type { ZodError } from "zod";
import type { Translate } from "../lib/i18n";

/** "Invalid parameter: {field}" for the first failing field of a named operation's payload. */
export function payloadIssueMessage(t: Translate, error: ZodError): string {
  const issue = error.issues[0];
  const field = issue && issue.path.length > 0 ? issue.path.join(".") : "method";
  return t("api.invalid_params", { field });
}
