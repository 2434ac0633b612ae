/**
 * The declared actions of catalogue entities (common/catalogue.ts ActionDecl): submitting a channel for review,
 * approving it, waiving a bill, voiding a code. Every action runs the same way, whatever its domain: the record
 * is loaded in the caller's tenant under a row lock, its state checked against the action's `from`, the fields
 * checked, the state changed with the domain's effect and the audit entry written, in one transaction.
 */
import { and, eq } from "drizzle-orm";
import type { ActionDecl, EntityDecl } from "../../common/catalogue";
import { auditCall } from "../auth/audit";
import { parseTenantId, resolveScope, type Scope } from "../auth/scope";
import { tableColumn, tenantColumnNames, type CatalogueTable } from "../db/catalogueTables";
import type { DbOrTx } from "../db/client";
import { catalogueTables } from "../db/schema";
import { ApiFailure, notFound } from "../protocol/envelope";
import type { OperationContext, OperationRegistry } from "../protocol/registry";
import { entityTenantConditions, serialiseRow, wrongState } from "./crud";
import { checkPayload, DEFAULT_OPERATION_PATH, type DeclaredPayload } from "./declared";
import { checkFieldRelations } from "./fieldRelations";
import type { Row } from "./hooks";

/** What an action's effect is given: the record as it stands, locked, and the checked fields. */
export interface ActionCall {
  ctx: OperationContext;
  tx: DbOrTx;
  scope: Scope;
  entity: EntityDecl;
  /** the record as stored, locked until the transaction ends */
  row: Row;
  /** the action's declared fields, checked, in their stored form (null when absent) */
  input: DeclaredPayload;
}

/** What an effect answers: the columns it changes and, when it says more than "done", its message. */
export interface ActionOutcome {
  /** the columns to change besides the state, and the state itself when the action leads to one of several */
  changes?: Row;
  /** translation key of the answer's message (default: the action's label, done) */
  messageKey?: string;
  messageParams?: Record<string, string | number>;
}

/**
 * What a domain does beyond the state change (an approval's sub-merchant, a bill's new amount, the bills an
 * activity opens). Throws an ApiFailure to refuse, and the whole action is undone.
 */
export type ActionEffect = ((call: ActionCall) => Promise<ActionOutcome | void>) & {
  /**
   * What the domain does first, outside the transaction and the record's lock, once the state and the fields are
   * found right: work that waits on others (a payment gateway asked) must never hold the lock. Throws an ApiFailure
   * to refuse; the effect then runs under the lock as usual.
   */
  beforeLock?: (call: Omit<ActionCall, "tx">) => Promise<void>;
};

/** Domain effects by action name. */
export type ActionEffects = Readonly<Record<string, ActionEffect>>;

/** The states an action may lead to. */
function targetStates(action: ActionDecl): readonly string[] {
  if (action.to === undefined) return [];
  return typeof action.to === "string" ? [action.to] : action.to;
}

/**
 * Registers every declared action of the engine's entities (a domain-implemented entity registers its own, as
 * accounts do the password reset) with its roles, effect "write" and the entity's path. Throws at start when an
 * action leading to one of several states has no effect to choose it, or an effect names no declared action.
 */
export function registerEntityActions(registry: OperationRegistry, entities: readonly EntityDecl[], effects: ActionEffects = {}): void {
  const declared = new Set<string>();
  for (const entity of entities) {
    for (const action of entity.actions ?? []) {
      declared.add(action.name);
      if (entity.implementedBy === "domain" || action.implementedBy === "domain") continue;
      const table = catalogueTables[entity.name];
      if (!table) throw new Error(`entity ${entity.name} has no table for its action ${action.name}`);
      if (action.from && !entity.stateField) throw new Error(`${action.name}: ${entity.name} declares no stateField`);
      const effect = effects[action.name];
      if (targetStates(action).length > 1 && !effect && !action.result) throw new Error(`${action.name} leads to several states: its result field or its domain's effect must choose one`);
      checkResultDecl(action);
      registry.add({
        path: entity.apiPath ?? DEFAULT_OPERATION_PATH,
        method: action.name,
        needsToken: true,
        roles: action.roles,
        effect: "write",
        handler: (ctx) => runAction(ctx, entity, table, action, effect),
      });
    }
  }
  for (const name of Object.keys(effects)) if (!declared.has(name)) throw new Error(`an effect is given for ${name}, which no entity declares`);
}

async function runAction(ctx: OperationContext, entity: EntityDecl, table: CatalogueTable, action: ActionDecl, effect: ActionEffect | undefined) {
  const id = parseTenantId(ctx.payload[action.idField ?? "id"]);
  if (id === undefined) throw notFound();
  const scope = await resolveScope(ctx.db, ctx.auth!, ctx.payload);
  const conditions = entityTenantConditions(entity, table, ctx, scope);
  const stateField = entity.stateField;
  if (effect?.beforeLock) {
    const [unlocked] = (await ctx.db.select().from(table).where(and(eq(tableColumn(table, "id"), id), ...conditions))) as Row[];
    // a missing record or one in another state is refused below, as without it
    if (unlocked && (!action.from || action.from.includes(String(unlocked[stateField!])))) {
      await effect.beforeLock({ ctx, scope, entity, row: unlocked, input: actionInput(ctx, action) });
    }
  }
  const after = await ctx.db.transaction(async (tx) => {
    // locked: two actions on one record (an approval and a withdrawal) run one after the other
    const [row] = (await tx
      .select()
      .from(table)
      .where(and(eq(tableColumn(table, "id"), id), ...conditions))
      .for("update")) as Row[];
    if (!row) throw notFound();
    // after the lookup: another tenant's record is missing, whatever was sent with it; then the state: a record in
    // another state is refused before its fields are asked for (a review's decision, a waiver's reason)
    const from = stateField ? String(row[stateField]) : undefined;
    if (action.from && !action.from.includes(from!)) throw wrongState(ctx, entity, from, action.label);
    const unmet = unmetCondition(entity, action, row);
    if (unmet) throw new ApiFailure("api.action_not_for_record", { action: ctx.t(action.label), field: ctx.t(unmet.label), value: unmet.value === undefined ? "-" : ctx.t(unmet.value) });
    const input = actionInput(ctx, action);
    const outcome = (await effect?.({ ctx, tx, scope, entity, row, input })) ?? {};
    const changes: Row = { ...outcome.changes };
    const targets = targetStates(action);
    if (stateField && targets.length === 1) changes[stateField] = targets[0];
    if (stateField && action.result) changes[stateField] = action.result.to[String(input[action.result.field])];
    const to = stateField ? changes[stateField] : undefined;
    if (targets.length > 1 && !targets.includes(String(to))) throw new Error(`${action.name}: its effect chose no state of ${targets.join(", ")}`);
    const updated = Object.keys(changes).length === 0 ? row : ((await tx.update(table).set(changes).where(eq(tableColumn(table, "id"), id)).returning()) as Row[])[0];
    const tenant = tenantColumnNames(entity);
    await auditCall(tx, ctx, {
      action: action.name,
      entity: entity.name,
      entityId: String(id),
      sysid: tenantValue(updated, tenant.sysid ?? entity.providerColumn),
      schId: tenantValue(updated, tenant.schid),
      // what was sent, but never a secret (a new password)
      detail: { from: from ?? null, to: to ?? null, ...auditedInput(action, input) },
    });
    return { updated, outcome };
  });
  return {
    messageKey: after.outcome.messageKey ?? "api.action_done",
    messageParams: after.outcome.messageParams ?? { action: ctx.t(action.label) },
    data: { items: serialiseRow(entity, after.updated) },
  };
}

/** The first of the action's `onlyWhere` fields the record does not meet: its label and its value's label. */
function unmetCondition(entity: EntityDecl, action: ActionDecl, row: Row): { label: string; value: string | undefined } | undefined {
  for (const [name, allowed] of Object.entries(action.onlyWhere ?? {})) {
    const value = row[name] === null || row[name] === undefined ? "" : String(row[name]);
    if (allowed.includes(value)) continue;
    const field = entity.fields.find((f) => f.name === name)!;
    return { label: field.label, value: field.options?.find((o) => o.value === value)?.label ?? (value || undefined) };
  }
  return undefined;
}

/** A result field is a required enum field of the action, each of its options leading to one of the action's states. */
function checkResultDecl(action: ActionDecl): void {
  if (!action.result) return;
  const field = action.fields?.find((f) => f.name === action.result!.field);
  if (!field || field.type !== "enum" || !field.required) throw new Error(`${action.name}: its result ${action.result.field} is no required enum field of the action`);
  const targets = targetStates(action);
  for (const option of field.options ?? []) {
    const to = action.result.to[option.value];
    if (!to || !targets.includes(to)) throw new Error(`${action.name}: its result ${option.value} leads to no state of ${targets.join(", ")}`);
  }
}

/** An action's fields as sent, each checked by its kind and then by the rules between them (`requiredWhen`, `atLeast`). */
function actionInput(ctx: OperationContext, action: ActionDecl): DeclaredPayload {
  const input = checkPayload(ctx, action.fields ?? []);
  checkFieldRelations(ctx, action.fields ?? [], input);
  return input;
}

function tenantValue(row: Row, column: string | undefined): number | null {
  const value = column ? row[column] : undefined;
  return typeof value === "number" ? value : null;
}

function auditedInput(action: ActionDecl, input: DeclaredPayload): Row {
  const out: Row = {};
  for (const field of action.fields ?? []) if (field.type !== "password" && input[field.name] !== null) out[field.name] = input[field.name];
  return out;
}

/** A failure of an effect naming one of the action's fields, as the declared checks fail. */
export function actionFieldFailure(ctx: OperationContext, field: string, messageKey: string, params: Record<string, string | number> = {}): ApiFailure {
  const message = ctx.t(messageKey, params);
  return new ApiFailure(messageKey, params, { errors: [{ field, message }] });
}
