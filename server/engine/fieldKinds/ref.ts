/**
 * A reference to a record of another entity: its id as an integer column (a foreign key in the generated table).
 * The record must lie in the caller's tenant (checked by the generic operations, ../references.ts); lists answer
 * the referred record's name beside the id (`{name}_title`, see refTitleKey), resolved in one query per page.
 */
import { z } from "zod";
import { intFilter, wholeNumber } from "./number";
import type { ServerFieldKind } from "./kind";
import { MAX_INT } from "../../protocol/validation";

const refId = wholeNumber.superRefine((n, ctx) => {
  if (n < 1 || n > MAX_INT) ctx.addIssue({ code: "custom", message: "reference" });
});

/** the most records a `multiple` reference may name (the schools of one account) */
export const MAX_MULTIPLE_REFS = 1000;

export const refKind: ServerFieldKind = {
  // `multiple`: an array of ids, each named once, in the order given
  value: (field) =>
    field.multiple
      ? z
          .array(refId, { error: "reference" })
          .max(MAX_MULTIPLE_REFS, { error: "reference" })
          .transform((ids) => [...new Set(ids)])
      : refId,
  // several ids: an integer array (no foreign key; the engine checks each id on every write)
  column: (field) => (field.multiple ? `integer(${JSON.stringify(field.name)}).array()` : `integer(${JSON.stringify(field.name)})`),
  filterValue: (_field, text) => {
    const id = intFilter(text);
    return id !== undefined && id > 0 ? id : undefined;
  },
};
