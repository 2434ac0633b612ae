/** Text kinds: a line (string), free text (text) and a write-only password. */
import { z } from "zod";
import type { FieldDecl } from "../../../common/catalogue";
import { maskedText } from "../../../common/fieldExtras";
import type { ServerFieldKind } from "./kind";

/** A string with the declared length bounds and pattern. */
export function boundedText(field: FieldDecl): z.ZodString {
  let s = z.string({ error: "text" });
  if (field.min !== undefined) s = s.min(field.min, { error: "too_short" });
  if (field.max !== undefined) s = s.max(field.max, { error: "too_long" });
  if (field.pattern) s = s.regex(new RegExp(field.pattern), { error: "pattern" });
  return s;
}

export const stringKind: ServerFieldKind = {
  value: boundedText,
  column: (field) => `varchar(${JSON.stringify(field.name)}, { length: ${field.max ?? 255} })`,
  filterValue: (_field, text) => text,
  // a masked text (a bank account) is whole only in the record read for editing
  listValue: (field, value) => (field.mask && typeof value === "string" ? maskedText(field, value) : value),
  listSql: (field, column) => (field.mask ? null : column),
  exportCell: (field, value) => (typeof value === "string" ? maskedText(field, value) : null),
};

export const textKind: ServerFieldKind = {
  value: boundedText,
  column: (field) => `text(${JSON.stringify(field.name)})`,
  filterValue: (_field, text) => text,
  keepsWhitespace: true,
};

export const passwordKind: ServerFieldKind = {
  value: boundedText,
  column: (field) => {
    throw new Error(`password field ${field.name} is never a column`);
  },
  filterValue: () => undefined,
  keepsWhitespace: true,
};
