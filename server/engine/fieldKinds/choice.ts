/**
 * Choice kinds: one of declared options (enum), several of them (enums), yes/no ('Y' | 'N') and a record's status
 * ('1' in use | '0' disabled).
 */
import { z } from "zod";
import type { FieldDecl } from "../../../common/catalogue";
import { labelText, type Translate } from "../../lib/i18n";
import type { ServerFieldKind } from "./kind";

function values(field: FieldDecl): string[] {
  return (field.options ?? []).map((o) => o.value);
}

/** An option's label in the caller's language. */
function optionCell(field: FieldDecl, value: unknown, t: Translate): string | null {
  if (value === null || value === undefined) return null;
  const option = field.options?.find((o) => o.value === String(value));
  return option ? labelText(t, option.label, String(value)) : String(value);
}

function choiceKind(length: number): ServerFieldKind {
  return {
    value: (field) =>
      z
        .string({ error: "option" })
        .refine((v) => values(field).includes(v), { error: "option" }),
    column: (field) => `varchar(${JSON.stringify(field.name)}, { length: ${length} })`,
    filterValue: (field, text) => (values(field).includes(text) ? text : undefined),
    exportCell: optionCell,
  };
}

export const enumKind = choiceKind(32);
export const yesnoKind = choiceKind(1);
export const statusKind = choiceKind(1);

/** Several of the options, each once, kept in the options' order whatever order they were sent in. */
export const enumsKind: ServerFieldKind = {
  value: (field) =>
    z
      .array(z.string({ error: "option" }).refine((v) => values(field).includes(v), { error: "option" }), { error: "option" })
      .transform((chosen) => values(field).filter((v) => chosen.includes(v))),
  column: (field) => `varchar(${JSON.stringify(field.name)}, { length: 32 }).array()`,
  // a list is not filtered by one of several values
  filterValue: () => undefined,
  exportCell: (field, value, t) => (Array.isArray(value) ? value.map((v) => optionCell(field, v, t)).join("、") : null),
  maxItems: (field) => values(field).length,
};
