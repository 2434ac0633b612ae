/**
 * The rules between fields of one record that a declaration states (common/fieldExtras.ts `requiredWhen`,
 * `atLeast`), checked on the server as the form checks them: a failure names the field, with its message in
 * `data.errors` as every field check gives it. The engine calls it on every add and edit with the record as it will
 * be stored (after an edit: the whole record), on each child row, and on an action's checked input. The answer's
 * message is the field's own (an action's dialog shows only the answer's message), not "invalid parameter".
 */
import type { FieldDecl } from "../../common/catalogue";
import { appliesNow, brokenRelation } from "../../common/fieldExtras";
import { labelText } from "../lib/i18n";
import { kindOf } from "./fieldKinds";
import { ApiFailure } from "../protocol/envelope";
import type { OperationContext } from "../protocol/registry";
import type { Row } from "./hooks";

/** The first rule between fields that `record` (stored form, by field name) breaks: its field, message key and text. */
export function brokenFieldRelation(ctx: OperationContext, fields: readonly FieldDecl[], record: Row): { field: string; key: string; params: Record<string, string>; message: string } | undefined {
  const broken = brokenRelation(fields, (name) => record[name]);
  if (!broken) return undefined;
  const { field, rule } = broken;
  const params = { label: labelText(ctx.t, field.label, field.name) };
  const key = rule === "required" ? "api.validation.required" : field.atLeast!.message;
  return { field: field.name, key, params, message: ctx.t(key, params) };
}

/** Throws the failure of the first rule between fields that `record` (stored form, by field name) breaks. */
export function checkFieldRelations(ctx: OperationContext, fields: readonly FieldDecl[], record: Row): void {
  const broken = brokenFieldRelation(ctx, fields, record);
  if (broken) throw new ApiFailure(broken.key, broken.params, { errors: [{ field: broken.field, message: broken.message }] });
}

/**
 * The fields shown only under a condition (`formWhen`) that does not hold for `record` but that still hold a value
 * (an open amount's bounds kept after it became fixed): what to clear, as `{name: null}`; a required field with a
 * default (a sandbox printer's state, which a cloud printer has no use for) goes back to its default instead.
 */
export function inapplicableValues(fields: readonly FieldDecl[], record: Row): Row {
  const cleared: Row = {};
  for (const field of fields) {
    if (!field.formWhen || appliesNow(field, (name) => record[name]) || record[field.name] === null || record[field.name] === undefined) continue;
    cleared[field.name] = field.required && field.default !== undefined ? kindOf(field).value(field).parse(field.default) : null;
  }
  return cleared;
}
