/**
 * The declared actions of catalogue entities (common/catalogue.ts ActionDecl): submitting a channel for review,
 * approving it, waiving a bill, voiding a code, binding a code to an order's item. Every action runs the same way,
 * whatever its domain: the record (named by its id or by its `key`) is loaded in the caller's tenant under a row
 * lock, its state checked against the action's `from`, the fields checked, the record it `requires` in a state
 * loaded and locked too, the state changed with the domain's effect and the audit entry written, in one transaction.
 */
import { and, eq, type SQL } from "drizzle-orm";
import type { ActionDecl, EntityDecl, FieldDecl } from "../../common/catalogue";
import { auditCall } from "../auth/audit";
import { parseTenantId, resolveScope, type Scope } from "../auth/scope";
import { tableColumn, tenantColumnNames, type CatalogueTable } from "../db/catalogueTables";
import type { DbOrTx } from "../db/client";
import { catalogueTables } from "../db/schema";
import { labelText } from "../lib/i18n";
import { ApiFailure, notFound } from "../protocol/envelope";
import type { OperationContext, OperationRegistry } from "../protocol/registry";
import { entityTenantConditions, serialiseRow, wrongState } from "./crud";
import { checkPayload, DEFAULT_OPERATION_PATH, type DeclaredPayload } from "./declared";
import { checkFieldRelations } from "./fieldRelations";
import type { Row } from "./hooks";
import { References } from "./references";

/** What an action's effect is given: the record as it stands, locked, and the checked fields. */
export interface ActionCall {
  ctx: OperationContext;
  tx: DbOrTx;
  scope: Scope;
  entity: EntityDecl;
  /** the record as stored, locked until the transaction ends */
  row: Row;
  /** the action's declared fields, checked, in their stored form (null when absent), and its `key`'s value */
  input: DeclaredPayload;
  /**
   * the record its `requires` names, by field, locked until the transaction ends: the record referred to and, for a
   * child record (an order's item), its parent, whose state was checked (absent when the reference was)
   */
  referenced: Readonly<Record<string, { record: Row; parent?: Row }>>;
}

/** What an effect answers: the columns it changes and, when it says more than "done", its message. */
export interface ActionOutcome {
  /** the columns to change besides the state, and the state itself when the action leads to one of several */
  changes?: Row;
  /** translation key of the answer's message (default: the action's label, done) */
  messageKey?: string;
  messageParams?: Record<string, string | number>;
  /**
   * what its audit entry says beyond the engine's (the state, the fields): details no field carries (a code's order
   * number), and the school it concerns when the record has none of its own (a provider's code bound to a school's order)
   */
  audit?: { detail?: Row; schId?: number };
  /** it queued work someone waits for (a refund to send): the job worker looks for it as soon as the action commits */
  wakeJobs?: boolean;
  /** values answered beside the record once, stored nowhere as they are (`answeredOnce`: a new API client secret) */
  answer?: Row;
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
  beforeLock?: (call: UnlockedCall) => Promise<void>;
};

/** What an effect's `beforeLock` is given: the call as it stands before the transaction, nothing locked. */
export type UnlockedCall = Omit<ActionCall, "tx" | "referenced">;

/** Domain effects by action name. */
export type ActionEffects = Readonly<Record<string, ActionEffect>>;

/** The states an action may lead to. */
function targetStates(action: ActionDecl): readonly string[] {
  if (action.to === undefined) return [];
  return typeof action.to === "string" ? [action.to] : action.to;
}

/** What an action needs at run time, resolved once when it is registered. */
interface ActionPlan {
  entity: EntityDecl;
  table: CatalogueTable;
  action: ActionDecl;
  effect: ActionEffect | undefined;
  /** the catalogue: the titles of a refusal's references */
  entities: readonly EntityDecl[];
  /** the `key` field as the entity declares it, required (alone in its list: its schema is made once) */
  keyFields?: readonly [FieldDecl];
  requires?: RequiredPlan;
}

/** Where the record an action `requires` is read: its entity, and for a child record its parent's, whose state it has. */
interface RequiredPlan {
  field: FieldDecl;
  /** among the action's fields (else the record's own) */
  sent: boolean;
  entity: EntityDecl;
  table: CatalogueTable;
  parent?: { entity: EntityDecl; table: CatalogueTable; field: string };
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
      const plan: ActionPlan = { entity, table, action, effect, entities, keyFields: keyFieldsOf(entity, action), requires: requiredPlan(entities, entity, action) };
      registry.add({
        path: entity.apiPath ?? DEFAULT_OPERATION_PATH,
        method: action.name,
        needsToken: true,
        roles: action.roles,
        effect: "write",
        handler: (ctx) => runAction(ctx, plan),
      });
    }
  }
  for (const name of Object.keys(effects)) if (!declared.has(name)) throw new Error(`an effect is given for ${name}, which no entity declares`);
}

/** The entity's field an action is keyed by, required (catalogue/assemble.ts holds it to a unique column). */
function keyFieldsOf(entity: EntityDecl, action: ActionDecl): readonly [FieldDecl] | undefined {
  if (action.key === undefined) return undefined;
  const field = entity.fields.find((f) => f.name === action.key);
  if (!field) throw new Error(`${action.name} is keyed by ${action.key}, which is no field of ${entity.name}`);
  return [{ ...field, required: true }];
}

function requiredPlan(entities: readonly EntityDecl[], entity: EntityDecl, action: ActionDecl): RequiredPlan | undefined {
  const requires = action.requires;
  if (!requires) return undefined;
  const sentField = action.fields?.find((f) => f.name === requires.field);
  const field = sentField ?? entity.fields.find((f) => f.name === requires.field);
  const referred = entities.find((e) => e.name === field?.ref?.entity);
  const table = referred && catalogueTables[referred.name];
  if (!field || !referred || !table) throw new Error(`${action.name} requires a state of the record ${requires.field} names, which is no reference to an entity with a table`);
  if (referred.stateField) return { field, sent: sentField !== undefined, entity: referred, table };
  // a child record (an order's item) has its parent's state
  for (const parent of entities) {
    const child = parent.children?.find((c) => c.entity === referred.name);
    const parentTable = catalogueTables[parent.name];
    if (child && parent.stateField && parentTable) return { field, sent: sentField !== undefined, entity: referred, table, parent: { entity: parent, table: parentTable, field: child.parentField } };
  }
  throw new Error(`${action.name} requires a state of ${referred.name}, which has none (nor a parent with one)`);
}

async function runAction(ctx: OperationContext, plan: ActionPlan) {
  const { entity, table, action, effect } = plan;
  const named = namedRecord(ctx, plan);
  const scope = await resolveScope(ctx.db, ctx.auth!, ctx.payload);
  const conditions = [named.condition, ...entityTenantConditions(entity, table, ctx, scope)];
  const stateField = entity.stateField;
  if (effect?.beforeLock) {
    const found = (await ctx.db.select().from(table).where(and(...conditions)).limit(2)) as Row[];
    const unlocked = found.length === 1 ? found[0] : undefined;
    // a missing record or one in another state is refused below, as without it
    if (unlocked && (!action.from || action.from.includes(String(unlocked[stateField!])))) {
      await effect.beforeLock({ ctx, scope, entity, row: unlocked, input: actionInput(ctx, plan, named) });
    }
  }
  const after = await ctx.db.transaction(async (tx) => {
    // locked: two actions on one record (an approval and a withdrawal) run one after the other
    const row = theRecord(ctx, plan, named, (await tx.select().from(table).where(and(...conditions)).limit(2).for("update")) as Row[]);
    // after the lookup: another tenant's record is missing, whatever was sent with it. An action keyed by a value
    // is called with what is in hand (a code scanned into an item), not from a button its state offers: its fields
    // are told first. Otherwise the state first: a record in another state is refused before its fields are asked
    // for (a review's decision, a waiver's reason)
    let input = plan.keyFields ? actionInput(ctx, plan, named) : undefined;
    const from = stateField ? String(row[stateField]) : undefined;
    if (action.from && !action.from.includes(from!)) throw await refusalInState(ctx, tx, plan, named.field, row, from!);
    const unmet = unmetCondition(entity, action, row);
    if (unmet) throw new ApiFailure("api.action_not_for_record", { action: ctx.t(action.label), field: ctx.t(unmet.label), value: unmet.value === undefined ? "-" : ctx.t(unmet.value) });
    input ??= actionInput(ctx, plan, named);
    const referenced = await requiredRecord(ctx, tx, scope, plan, row, input);
    const outcome = (await effect?.({ ctx, tx, scope, entity, row, input, referenced })) ?? {};
    const changes: Row = { ...outcome.changes };
    const targets = targetStates(action);
    if (stateField && targets.length === 1) changes[stateField] = targets[0];
    if (stateField && action.result) changes[stateField] = action.result.to[String(input[action.result.field])];
    const to = stateField ? changes[stateField] : undefined;
    if (targets.length > 1 && !targets.includes(String(to))) throw new Error(`${action.name}: its effect chose no state of ${targets.join(", ")}`);
    const id = Number(row.id);
    const updated = Object.keys(changes).length === 0 ? row : ((await tx.update(table).set(changes).where(eq(tableColumn(table, "id"), id)).returning()) as Row[])[0];
    const tenant = tenantColumnNames(entity);
    await auditCall(tx, ctx, {
      action: action.name,
      entity: entity.name,
      entityId: String(id),
      sysid: tenantValue(updated, tenant.sysid ?? entity.providerColumn),
      schId: tenantValue(updated, tenant.schid) ?? outcome.audit?.schId ?? null,
      // what was sent, but never a secret (a new password)
      detail: { from: from ?? null, to: to ?? null, ...auditedInput(plan, input), ...outcome.audit?.detail },
    });
    return { updated, outcome };
  });
  if (after.outcome.wakeJobs) ctx.services.wakeJobs?.();
  return {
    messageKey: after.outcome.messageKey ?? "api.action_done",
    messageParams: after.outcome.messageParams ?? { action: ctx.t(action.label) },
    data: { items: { ...serialiseRow(entity, after.updated), ...after.outcome.answer } },
  };
}

/** The payload field naming the record, its value as stored and the condition finding it. */
interface NamedRecord {
  field: string;
  value: unknown;
  condition: SQL;
}

/**
 * The record the payload names: by its id (a value that can be no id is a missing record), or by its key's value,
 * checked by the key field's kind first (a code as printed), failing on that field.
 */
function namedRecord(ctx: OperationContext, plan: ActionPlan): NamedRecord {
  const { keyFields, table } = plan;
  if (keyFields) {
    const name = keyFields[0].name;
    const value = checkPayload(ctx, keyFields)[name];
    return { field: name, value, condition: eq(tableColumn(table, name), value) };
  }
  const field = plan.action.idField ?? "id";
  const id = parseTenantId(ctx.payload[field]);
  if (id === undefined) throw notFound();
  return { field, value: id, condition: eq(tableColumn(table, "id"), id) };
}

/**
 * The one record found of at most two: none is a missing record (by a key: refused naming the key's field, in its
 * words); two, a key unique within each tenant sought across several (a platform operator naming no provider).
 */
function theRecord(ctx: OperationContext, plan: ActionPlan, named: NamedRecord, rows: Row[]): Row {
  if (rows.length === 1) return rows[0]!;
  const keyField = plan.keyFields?.[0];
  if (!keyField) throw notFound();
  const params = { field: labelText(ctx.t, keyField.label, keyField.name), value: String(named.value), [keyField.name]: String(named.value) };
  if (rows.length === 0) throw actionFieldFailure(ctx, keyField.name, plan.action.keyUnknown ?? "api.key_unknown", params);
  throw actionFieldFailure(ctx, keyField.name, "api.key_ambiguous", params);
}

/**
 * A record in a state the action does not start from: in the words its `refuseIn` gives that state (the record's
 * fields as its page reads them: which order holds a code), naming the field that named it; else the state alone.
 */
async function refusalInState(ctx: OperationContext, tx: DbOrTx, plan: ActionPlan, field: string, row: Row, state: string): Promise<ApiFailure> {
  const { entity, action } = plan;
  const key = action.refuseIn?.[state];
  if (!key) return wrongState(ctx, entity, state, action.label);
  const [record] = await new References(entity, plan.entities).attachTitles(tx, [serialiseRow(entity, row)]);
  const params: Record<string, string | number> = { state: stateLabel(ctx, entity, state) };
  for (const [name, value] of Object.entries(record!)) {
    if (typeof value === "string" || typeof value === "number") params[name] = value;
    else if (value === null) params[name] = "";
  }
  return actionFieldFailure(ctx, field, key, params);
}

function stateLabel(ctx: OperationContext, entity: EntityDecl, state: string): string {
  const option = entity.fields.find((f) => f.name === entity.stateField)?.options?.find((o) => o.value === state);
  return option ? ctx.t(option.label) : state;
}

/**
 * The record the action `requires` in a state, read in the caller's tenant (another tenant's is unknown) and locked,
 * so that two actions needing it follow one another (two codes bound to one order's items); of a child record, its
 * parent is locked and holds the state.
 */
async function requiredRecord(ctx: OperationContext, tx: DbOrTx, scope: Scope, plan: ActionPlan, row: Row, input: DeclaredPayload): Promise<ActionCall["referenced"]> {
  const required = plan.requires;
  const requires = plan.action.requires;
  if (!required || !requires) return {};
  const name = required.field.name;
  const id = required.sent ? input[name] : row[name];
  if (id === null || id === undefined) return {};
  const unknown = () =>
    requires.unknown
      ? actionFieldFailure(ctx, name, requires.unknown)
      : new ApiFailure("api.invalid_params", { field: name }, { errors: [{ field: name, message: ctx.t("api.validation.reference", { label: labelText(ctx.t, required.field.label, name) }) }] });
  const find = (entity: EntityDecl, table: CatalogueTable, recordId: unknown) => tx.select().from(table).where(and(eq(tableColumn(table, "id"), Number(recordId)), ...entityTenantConditions(entity, table, ctx, scope)));
  const parent = required.parent;
  const [record] = (await (parent ? find(required.entity, required.table, id) : find(required.entity, required.table, id).for("update"))) as Row[];
  if (!record) throw unknown();
  const [holder] = parent ? ((await find(parent.entity, parent.table, record[parent.field]).for("update")) as Row[]) : [record];
  if (!holder) throw unknown();
  const stateful = parent?.entity ?? required.entity;
  const state = String(holder[stateful.stateField!]);
  if (!requires.states.includes(state)) {
    throw actionFieldFailure(ctx, name, requires.message ?? "api.requires_state", {
      state: stateLabel(ctx, stateful, state),
      field: labelText(ctx.t, required.field.label, name),
      action: ctx.t(plan.action.label),
    });
  }
  return { [name]: parent ? { record, parent: holder } : { record } };
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

/**
 * An action's fields as sent, each checked by its kind and then by the rules between them (`requiredWhen`,
 * `atLeast`), and the value of its key.
 */
function actionInput(ctx: OperationContext, plan: ActionPlan, named: NamedRecord): DeclaredPayload {
  const fields = plan.action.fields ?? [];
  const input = checkPayload(ctx, fields);
  checkFieldRelations(ctx, fields, input);
  if (plan.keyFields) input[named.field] = named.value;
  return input;
}

function tenantValue(row: Row, column: string | undefined): number | null {
  const value = column ? row[column] : undefined;
  return typeof value === "number" ? value : null;
}

function auditedInput(plan: ActionPlan, input: DeclaredPayload): Row {
  const out: Row = {};
  for (const field of [...(plan.keyFields ?? []), ...(plan.action.fields ?? [])]) if (field.type !== "password" && input[field.name] !== null) out[field.name] = input[field.name];
  return out;
}

/** A failure of an effect naming one of the action's fields, as the declared checks fail. */
export function actionFieldFailure(ctx: OperationContext, field: string, messageKey: string, params: Record<string, string | number> = {}): ApiFailure {
  const message = ctx.t(messageKey, params);
  return new ApiFailure(messageKey, params, { errors: [{ field, message }] });
}
