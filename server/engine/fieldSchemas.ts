/**
 * zod schemas of catalogue records, built from the field declarations: required and defaults here, each value
 * by its kind (./fieldKinds), with localised messages per field.
 */
import { z } from "zod";
import type { EntityDecl, FieldDecl } from "../../common/catalogue";
import { yuanToFen } from "../../common/money";
import { labelText, type Translate } from "../lib/i18n";
import { MAX_INT, MIN_INT } from "../protocol/validation";
import { FIELD_MESSAGES, kindOf, type FieldMessage } from "./fieldKinds";

export interface FieldError {
  field: string;
  message: string;
}

/** Fields a form action accepts. */
export function formFields(entity: EntityDecl, action: "add" | "edit"): FieldDecl[] {
  return entity.fields.filter((f) => f.form === true || f.form === action);
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === "string" && value.trim() === "");
}

/** The schema of a present (non-empty) value of the field: its stored form (money in fen). */
function valueSchema(field: FieldDecl): z.ZodType<unknown> {
  return kindOf(field).value(field);
}

/** The stored form of a declared default. */
export function storedDefault(field: FieldDecl): unknown {
  if (field.default === undefined) return undefined;
  return field.type === "money" ? yuanToFen(String(field.default)) : field.default;
}

/**
 * add: every form field, defaults filled in, required ones present. edit: only the fields sent; a required one
 * cannot be emptied.
 */
export function recordSchema(entity: EntityDecl, action: "add" | "edit"): z.ZodType<Record<string, unknown>> {
  return fieldsSchema(formFields(entity, action), action);
}

/** The schema of a payload of these fields (an entity's form, a declared operation's input), as recordSchema. */
export function fieldsSchema(declared: readonly FieldDecl[], action: "add" | "edit"): z.ZodType<Record<string, unknown>> {
  const fields = declared.map((field) => ({ field, present: valueSchema(field), dflt: storedDefault(field) }));
  // one transform over the whole payload: an absent field must still be seen (required, default)
  return z.record(z.string(), z.unknown()).transform((payload, ctx) => {
    const record: Record<string, unknown> = {};
    for (const { field, present, dflt } of fields) {
      const value = payload[field.name];
      // a required list of records (a pickup point's schools) names at least one
      if (isEmpty(value) || (field.required && Array.isArray(value) && value.length === 0)) {
        const missingRequired = field.required && (action === "add" ? dflt === undefined : value !== undefined);
        if (missingRequired) ctx.addIssue({ code: "custom", message: "required", path: [field.name] });
        else if (action === "add") record[field.name] = dflt ?? null;
        else if (value !== undefined) record[field.name] = null;
        continue;
      }
      const parsed = present.safeParse(typeof value === "string" && !kindOf(field).keepsWhitespace ? value.trim() : value);
      if (parsed.success) record[field.name] = parsed.data;
      else for (const issue of parsed.error.issues) ctx.addIssue({ code: "custom", message: issue.message, path: [field.name], params: "params" in issue ? issue.params : undefined });
    }
    return record;
  });
}

/** Localised messages of a failed record check, one per field. */
export function fieldErrors(entity: { readonly fields: readonly FieldDecl[] }, error: z.ZodError, t: Translate): FieldError[] {
  const out: FieldError[] = [];
  for (const issue of error.issues) {
    const name = String(issue.path[0] ?? "");
    if (out.some((e) => e.field === name)) continue;
    const field = entity.fields.find((f) => f.name === name);
    const label = field ? labelText(t, field.label, field.name) : name;
    const code = (FIELD_MESSAGES.has(issue.message) ? issue.message : "text") as FieldMessage;
    let message: string;
    if (code === "pattern" && field?.patternMessage) {
      message = labelText(t, field.patternMessage, t("api.validation.pattern", { label }));
    } else {
      const bounds = field?.type === "int" ? { min: field.min ?? MIN_INT, max: field.max ?? MAX_INT } : { min: field?.min ?? "", max: field?.max ?? "" };
      // a kind's own parameters (the number of a DIY page's block at fault)
      const params = "params" in issue && issue.params ? issue.params : {};
      message = t(`api.validation.${code}`, { label, ...bounds, count: field ? (kindOf(field).maxItems?.(field) ?? "") : "", ...params });
    }
    out.push({ field: name, message });
  }
  return out;
}
