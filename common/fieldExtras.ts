/**
 * Field declarations beyond common/catalogue.ts: a text shown masked, and rules between the fields of one record
 * (a value required while another field holds a value, a number not below another). Merged into FieldDecl by
 * TypeScript's declaration merging, so that a domain declares them like any other property of a field; the field
 * kinds (string masks) and the form's rules read them on the SPA's side, server/engine/fieldRelations.ts checks the
 * rules between fields on the server's. Shared by the SPA and the server: no React or database code here.
 */
import type { FieldDecl } from "./catalogue";

/** How a masked text shows: "account" keeps a bank account's first and last four digits. */
export type TextMask = "account";

declare module "./catalogue" {
  interface FieldDecl {
    /**
     * type "string": shown masked in lists, details and exports (a settlement bank account); only the record read
     * for editing carries it whole
     */
    mask?: TextMask;
    /** required while another field of the record holds this value (an open amount's bounds) */
    requiredWhen?: { field: string; value: string };
    /**
     * a number not below another field of the record (the highest amount not below the lowest); `message` is the
     * translation key of the refusal, naming both
     */
    atLeast?: { field: string; message: string };
  }
}

/** A bank account as lists and exports show it: `6222 **** **** 1234`; a value already masked stays as it is. */
export function maskAccount(value: string): string {
  const chars = value.replace(/\s+/g, "");
  if (chars.includes("*")) return value;
  const shown = Math.min(4, Math.floor(chars.length / 2));
  if (chars.length <= 8) return `****${shown > 0 ? ` ${chars.slice(-shown)}` : ""}`;
  return `${chars.slice(0, 4)} **** **** ${chars.slice(-4)}`;
}

const MASKS: Readonly<Record<TextMask, (value: string) => string>> = { account: maskAccount };

/** A text as a field with a mask shows it (itself when the field has none). */
export function maskedText(field: FieldDecl, value: string): string {
  return field.mask ? MASKS[field.mask](value) : value;
}

/** A value a person left empty: none, or a text of spaces only. */
export function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === "string" && value.trim() === "");
}

/** A filter's value that sets nothing: blank, or a range or list whose every end is blank. */
export function isBlankFilterValue(value: unknown): boolean {
  return isBlank(value) || (Array.isArray(value) && value.every(isBlank));
}

/** Whether a field's `requiredWhen` holds for the record's values (by field name, in any form). */
export function requiredNow(field: FieldDecl, valueOf: (name: string) => unknown): boolean {
  const when = field.requiredWhen;
  return when !== undefined && String(valueOf(when.field) ?? "") === when.value;
}

/** Whether a field shown only under a condition (`formWhen`) applies to the record's values. */
export function appliesNow(field: FieldDecl, valueOf: (name: string) => unknown): boolean {
  return !field.formWhen || String(valueOf(field.formWhen.field) ?? "") === field.formWhen.value;
}

/**
 * The first rule between fields the record breaks: a field required now and blank, or a number below the field it
 * must be at least. Values are compared as numbers in whatever form both carry (fen on the server, yuan in a form).
 */
export function brokenRelation(fields: readonly FieldDecl[], valueOf: (name: string) => unknown): { field: FieldDecl; rule: "required" | "atLeast" } | null {
  for (const field of fields) {
    const value = valueOf(field.name);
    if (requiredNow(field, valueOf) && isBlank(value)) return { field, rule: "required" };
    const other = field.atLeast ? valueOf(field.atLeast.field) : undefined;
    if (field.atLeast && !isBlank(value) && !isBlank(other) && Number(value) < Number(other)) return { field, rule: "atLeast" };
  }
  return null;
}
