/**
 * The rules between fields of one record that a declaration states (common/fieldExtras.ts `requiredWhen`,
 * `atLeast`), checked on the server as the form checks them: a failure names the field, with its message in
 * `data.errors` as every field check gives it. A domain's hooks call it with the record as it
 * will be stored (after an edit: the whole record), and an action's effect with its checked input. The answer's
 * message is the field's own (an action's dialog shows only the answer's message), not "invalid parameter".
 */
import type { FieldDecl } from "../../common/catalogue";
import { appliesNow, brokenRelation } from "../../common/fieldExtras";
import { labelText } from "../lib/i18n";
import { ApiFailure } from "../protocol/envelope";
import type { OperationContext } from "../protocol/registry";
import type { Row } from "./hooks";

/** Throws the failure of the first rule between fields that `record` (stored form, by field name) breaks. */
export function checkFieldRelations(ctx: OperationContext, fields: readonly FieldDecl[], record: Row): void {
  const broken = brokenRelation(fields, (name) => record[name]);
  if (!broken) return;
  const { field, rule } = broken;
  const params = { label: labelText(ctx.t, field.label, field.name) };
  const key = rule === "required" ? "api.validation.required" : field.atLeast!.message;
  throw new ApiFailure(key, params, { errors: [{ field: field.name, message: ctx.t(key, params) }] });
}

/**
 * The fields shown only under a condition (`formWhen`) that does not hold for `record` but that still hold a value
 * (an open amount's bounds kept after it became fixed): what to clear, as `{name: null}`.
 */
export function inapplicableValues(fields: readonly FieldDecl[], record: Row): Row {
  const cleared: Row = {};
  for (const field of fields) {
    if (field.formWhen && !appliesNow(field, (name) => record[name]) && record[field.name] !== null && record[field.name] !== undefined) cleared[field.name] = null;
  }
  return cleared;
}
