/**
 * Registers an operation the catalogue declares (common/catalogue.ts OperationDecl): its path, roles and effect
 * come from the declaration, and its payload is checked against the declared fields before the handler runs,
 * failing with the first field's name and every field's localised message in `data.errors`.
 */
import type { FieldDecl, OperationDecl } from "../../common/catalogue";
import { labelText } from "../lib/i18n";
import { ApiFailure } from "../protocol/envelope";
import type { OperationContext, OperationRegistry, OperationResult } from "../protocol/registry";
import { fieldErrors, fieldsSchema } from "./fieldSchemas";

export const DEFAULT_OPERATION_PATH = "adminapiv2";

/** The checked payload: every declared field, in its stored form (money in fen), null when absent. */
export type DeclaredPayload = Record<string, unknown>;

/** `P`: the handler's view of the checked payload, which must match the declared fields. */
export function registerDeclared<P = DeclaredPayload>(
  registry: OperationRegistry,
  declaration: OperationDecl,
  handler: (ctx: OperationContext, payload: P) => Promise<OperationResult>,
): void {
  registry.add({
    path: declaration.path ?? DEFAULT_OPERATION_PATH,
    method: declaration.name,
    needsToken: true,
    roles: declaration.roles,
    effect: declaration.effect,
    declaration,
    handler: (ctx) => handler(ctx, checkPayload(ctx, declaration.fields) as P),
  });
}

/** schemas of declared field lists, made once per list and form */
const schemas = { add: new WeakMap<readonly FieldDecl[], ReturnType<typeof fieldsSchema>>(), edit: new WeakMap<readonly FieldDecl[], ReturnType<typeof fieldsSchema>>() };

/**
 * The one payload check of every operation with declared fields (declared operations, record actions, domain
 * handlers): each field in its stored form (money in fen); on "add" an absent field is null (or its default), on
 * "edit" it is left out (kept as stored). A failure is `api.invalid_params` naming the first field, with every
 * field's localised message in `data.errors`.
 */
export function checkPayload(ctx: OperationContext, fields: readonly FieldDecl[], action: "add" | "edit" = "add"): DeclaredPayload {
  let schema = schemas[action].get(fields);
  if (!schema) schemas[action].set(fields, (schema = fieldsSchema(fields, action)));
  const parsed = schema.safeParse(ctx.payload);
  if (parsed.success) return parsed.data;
  const errors = fieldErrors({ fields }, parsed.error, ctx.t);
  throw new ApiFailure("api.invalid_params", { field: errors[0]?.field ?? "" }, { errors });
}

/** A field a rule between fields requires (one of two): FAIL on that field, as the declared checks fail. */
export function missingField(declaration: OperationDecl, name: string, ctx: OperationContext): ApiFailure {
  const field = declaration.fields.find((f) => f.name === name);
  const label = field ? labelText(ctx.t, field.label, name) : name;
  return new ApiFailure("api.invalid_params", { field: name }, { errors: [{ field: name, message: ctx.t("api.validation.required", { label }) }] });
}
