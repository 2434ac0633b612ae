/** Kinds of text with a format: a phone number, an image URL and an identity card number. */
import { sql } from "drizzle-orm";
import { z } from "zod";
import type { FieldDecl } from "../../../common/catalogue";
import { isIdCard, isImageUrl, isPhone, maskIdCard } from "../../../common/fieldRules";
import type { ServerFieldKind } from "./kind";

function formatted(check: (v: string) => boolean, message: "phone" | "image" | "idcard", length: number, normalise = (v: string) => v): ServerFieldKind {
  return {
    value: () =>
      z
        .string({ error: "text" })
        .transform(normalise)
        .refine(check, { error: message }),
    column: (field: FieldDecl) => `varchar(${JSON.stringify(field.name)}, { length: ${field.max ?? length} })`,
    // a part of the number finds it
    filterValue: (_field, text) => text,
  };
}

export const phoneKind = formatted(isPhone, "phone", 20, (v) => v.replace(/[\s()]/g, ""));

export const imageKind = formatted(isImageUrl, "image", 500);

export const idcardKind: ServerFieldKind = {
  ...formatted(isIdCard, "idcard", 18, (v) => v.toUpperCase()),
  // exact only: a masked list gives no part to search by
  filterValue: (_field, text) => (isIdCard(text.toUpperCase()) ? text.toUpperCase() : undefined),
  // a list never carries the whole number: only the record read for editing does
  listValue: (_field, value) => (typeof value === "string" ? maskIdCard(value) : value),
  // maskIdCard in SQL (an identity card's characters are ASCII: lengths agree)
  listSql: (_field, column) =>
    sql`case when length(${column}) < 8 then repeat('*', length(${column})) else left(${column}, 4) || repeat('*', length(${column}) - 6) || right(${column}, 2) end`,
  exportCell: (_field, value) => (typeof value === "string" ? maskIdCard(value) : null),
};
