/**
 * zod schemas of catalogue records, built from the field declarations (required, min/max, pattern, options,
 * money and date formats), with localised messages per field.
 */
import { z } from "zod";
import type { EntityDecl, FieldDecl } from "../../../common/catalogue";
import { yuanToFen } from "../../../common/money";
import { isCalendarDay } from "../../../common/term";
import { labelText, type Translate } from "../../lib/i18n";
import { MAX_INT, MIN_INT } from "../../protocol/validation";

/** Message codes of field checks; each is api.validation.{code}. */
type FieldMessage = "required" | "too_short" | "too_long" | "too_small" | "too_big" | "pattern" | "option" | "integer" | "money" | "date" | "datetime" | "text";

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

const wholeNumber = z.union([z.number().int(), z.string().regex(/^-?\d{1,15}$/).transform(Number)], { error: "integer" });
/** ISO 8601 with an offset (DESIGN 4), on a day isCalendarDay accepts */
const isoTime = z.iso.datetime({ offset: true });

/** The schema of a present (non-empty) value of the field: its stored form (money in fen). */
function valueSchema(field: FieldDecl): z.ZodType<unknown> {
  switch (field.type) {
    case "string":
    case "text":
    case "password": {
      let s = z.string({ error: "text" });
      if (field.min !== undefined) s = s.min(field.min, { error: "too_short" });
      if (field.max !== undefined) s = s.max(field.max, { error: "too_long" });
      if (field.pattern) s = s.regex(new RegExp(field.pattern), { error: "pattern" });
      return s;
    }
    case "int": {
      // an undeclared bound is the column's own
      const min = field.min ?? MIN_INT;
      const max = field.max ?? MAX_INT;
      return wholeNumber.superRefine((n, ctx) => {
        if (n < min) ctx.addIssue({ code: "custom", message: "too_small" });
        if (n > max) ctx.addIssue({ code: "custom", message: "too_big" });
      });
    }
    case "money":
      return z.union([z.string(), z.number()], { error: "money" }).transform((v, ctx) => {
        const fen = yuanToFen(v);
        if (fen === null) {
          ctx.addIssue({ code: "custom", message: "money" });
          return z.NEVER;
        }
        if (field.min !== undefined && fen < field.min * 100) ctx.addIssue({ code: "custom", message: "too_small" });
        if (field.max !== undefined && fen > field.max * 100) ctx.addIssue({ code: "custom", message: "too_big" });
        return fen;
      });
    case "date":
      return z.string({ error: "date" }).refine(isCalendarDay, { error: "date" });
    case "datetime":
      return z
        .string({ error: "datetime" })
        .refine((v) => isoTime.safeParse(v).success && isCalendarDay(v.slice(0, 10)), { error: "datetime" })
        .transform((v) => new Date(v));
    case "yesno":
      return z.enum(["Y", "N"], { error: "option" });
    case "enum": {
      const values = (field.options ?? []).map((o) => o.value);
      return z.string({ error: "option" }).refine((v) => values.includes(v), { error: "option" });
    }
  }
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
      if (isEmpty(value)) {
        const missingRequired = field.required && (action === "add" ? dflt === undefined : value !== undefined);
        if (missingRequired) ctx.addIssue({ code: "custom", message: "required", path: [field.name] });
        else if (action === "add") record[field.name] = dflt ?? null;
        else if (value !== undefined) record[field.name] = null;
        continue;
      }
      const parsed = present.safeParse(typeof value === "string" && field.type !== "password" && field.type !== "text" ? value.trim() : value);
      if (parsed.success) record[field.name] = parsed.data;
      else for (const issue of parsed.error.issues) ctx.addIssue({ code: "custom", message: issue.message, path: [field.name] });
    }
    return record;
  });
}

const FIELD_MESSAGES = new Set<string>(["required", "too_short", "too_long", "too_small", "too_big", "pattern", "option", "integer", "money", "date", "datetime", "text"]);

/** Localised messages of a failed record check, one per field. */
export function fieldErrors(entity: Pick<EntityDecl, "fields">, error: z.ZodError, t: Translate): FieldError[] {
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
      message = t(`api.validation.${code}`, { label, ...bounds });
    }
    out.push({ field: name, message });
  }
  return out;
}
