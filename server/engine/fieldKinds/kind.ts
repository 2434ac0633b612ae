/**
 * A field kind as the server sees it: the stored column, the check of an input value, the reading of a list
 * filter and the spreadsheet cell. One module per kind (./*.ts); ./index.ts is the registry.
 */
import type { SQL } from "drizzle-orm";
import type { z } from "zod";
import type { FieldDecl } from "../../../common/catalogue";
import type { Translate } from "../../lib/i18n";

export interface ServerFieldKind {
  /** zod schema of a present (non-empty) value: its stored form, or issues whose message is a FieldMessage code */
  value(field: FieldDecl): z.ZodType<unknown>;
  /** Drizzle column builder of the generated table (source text), before its default and not-null */
  column(field: FieldDecl): string;
  /** a list filter's text in stored form, undefined when it does not fit the field */
  filterValue(field: FieldDecl, text: string): unknown;
  /** a stored value as the API carries it (default: as stored) */
  toApi?(field: FieldDecl, value: unknown): unknown;
  /** the API value as a list page carries it, where a list shows less than the record (default: the API value) */
  listValue?(field: FieldDecl, value: unknown): unknown;
  /**
   * the list value written by the database, from the column's SQL (a list's page comes as JSON from it): required
   * of a kind with toApi or listValue; null where only listValue can write it (the page is then written here)
   */
  listSql?(field: FieldDecl, column: SQL): SQL | null;
  /** the API value as a spreadsheet cell (default: as the API gives it); the export writes a text cell safe from formulas */
  exportCell?(field: FieldDecl, value: unknown, t: Translate): string | number | null;
  /** whether the stored value is trimmed before the check (not a password, not free text) */
  keepsWhitespace?: boolean;
  /** a kind holding several values: the most it holds (its `over_count` message's count) */
  maxItems?(field: FieldDecl): number;
}

/** Message codes of field checks; each is api.validation.{code}. */
export type FieldMessage =
  | "required"
  | "too_short"
  | "too_long"
  | "too_small"
  | "too_big"
  | "pattern"
  | "option"
  | "integer"
  | "money"
  | "date"
  | "datetime"
  | "text"
  | "reference"
  | "phone"
  | "image"
  | "idcard"
  | "over_count"
  | "duplicate"
  | "spec_values"
  | "blocks"
  | "sections";

export const FIELD_MESSAGES: ReadonlySet<string> = new Set<FieldMessage>([
  "required",
  "too_short",
  "too_long",
  "too_small",
  "too_big",
  "pattern",
  "option",
  "integer",
  "money",
  "date",
  "datetime",
  "text",
  "reference",
  "phone",
  "image",
  "idcard",
  "over_count",
  "duplicate",
  "spec_values",
  "blocks",
  "sections",
]);
