/**
 * Accounts (catalogue/accounts.ts): userslist / usersinfo / usersadd / usersedit, users_adminlist / users_adminadd
 * and usersresetpassword, over the hand-written `users` and `user_schools` tables.
 *
 * Whose accounts a caller manages (DESIGN 5):
 * - an operator (system) acting platform-wide: the operator accounts (user_type system); a super administrator
 *   also the super administrators, the others never see or touch them;
 * - a provider (service), or an operator switched into a provider (`sysid`): that provider's accounts (service)
 *   its provider-side school administrators (service_schadmin) with their schools, and its pickup clerks (pickup,
 *   whose points name them: retail.ts), all of that provider's;
 * - a super administrator, on users_admin*: the super administrators.
 * An account outside that answers like a missing record. Nobody disables, demotes or resets the password of their
 * own account here, and the last active super administrator stays one; disabling an account or resetting its
 * password ends its sessions at once.
 */
import { and, count, eq, inArray, ne, notInArray, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { EntityDecl, FieldDecl } from "../../../common/catalogue";
import { refTitleKey } from "../../../common/fieldRules";
import { normaliseUserType } from "../../../common/roleKeys";
import { ACCOUNT_PASSWORD_MIN, usersAdminEntity, usersEntity, usersResetPassword } from "../../../catalogue/accounts";
import { auditCall } from "../../auth/audit";
import type { ProviderFacts } from "../../auth/authority";
import { parseTenantId, resolveScope } from "../../auth/scope";
import { revokeUserSessions } from "../../auth/sessions";
import { clearFailures, usernameKey } from "../../auth/throttle";
import { usernameMatches, usernameUnavailable } from "../../auth/usernames";
import type { DbOrTx } from "../../db/client";
import { schools, users, userSchools } from "../../db/schema";
import { hasErrorCode, UNIQUE_VIOLATION } from "../../db/errors";
import { listFilters, listOrder, listPaging, refuseChangedAddOnlyFields } from "../../engine/crud";
import { checkPayload } from "../../engine/declared";
import { formFields } from "../../engine/fieldSchemas";
import { labelText } from "../../lib/i18n";
import { ApiFailure, notFound } from "../../protocol/envelope";
import type { OperationContext, OperationRegistry, OperationResult } from "../../protocol/registry";
import { MIN_PASSWORD_LENGTH } from "../site/site";

// the form's rule and the server's are one rule
if (ACCOUNT_PASSWORD_MIN < MIN_PASSWORD_LENGTH) throw new Error(`accounts: passwords need at least ${MIN_PASSWORD_LENGTH} characters`);

type Row = Record<string, unknown>;
type AccountType = "system" | "service" | "service_schadmin" | "pickup";
const PROVIDER_ACCOUNT_TYPES: readonly AccountType[] = ["service", "service_schadmin", "pickup"];
/** the account types only a v2 provider has (spec 4.1): in v1 such an account could never sign in */
const V2_ONLY_TYPES: readonly AccountType[] = ["service_schadmin", "pickup"];
/** every stored user_type but these is an operator's (spec 1: any other type is treated as system) */
const NON_OPERATOR_TYPES = ["service", "service_schadmin", "school", "pickup"];
const isOperator = notInArray(users.userType, NON_OPERATOR_TYPES);
/** the active super administrators, as the sessions' authority counts them */
const activeSuperadmin = and(isOperator, eq(users.isSuperadmin, "Y"), eq(users.status, "1"));

/** The accounts a call may see and touch. */
type View =
  /** operator accounts; `superadmins`: the super administrators too */
  | { kind: "platform"; superadmins: boolean }
  /** a provider's accounts and school administrators */
  | { kind: "provider"; sysid: number; provider: ProviderFacts | null }
  /** super administrators only (users_admin*) */
  | { kind: "superadmins" };

/** The users table's column of each declared field. */
const COLUMNS: Record<string, AnyPgColumn> = {
  id: users.id,
  username: users.username,
  name: users.name,
  phone: users.phone,
  user_type: users.userType,
  status: users.status,
  is_superadmin: users.isSuperadmin,
  created_at: users.createdAt,
};

function columnOf(name: string): AnyPgColumn {
  const column = COLUMNS[name];
  if (!column) throw new Error(`users has no column for ${name}`);
  return column;
}

const ACCOUNT_COLUMNS = {
  id: users.id,
  username: users.username,
  name: users.name,
  phone: users.phone,
  userType: users.userType,
  sysid: users.sysid,
  status: users.status,
  isSuperadmin: users.isSuperadmin,
  createdAt: users.createdAt,
};
type Account = { id: number; username: string; name: string; phone: string | null; userType: string; sysid: number | null; status: string; isSuperadmin: string; createdAt: Date };

/** An account's phone as checked by the phone field's kind (normalised), or none. */
function phoneOf(value: unknown): string | null {
  return value === undefined || value === null || value === "" ? null : String(value);
}

/** A FAIL on one field, with its message in data.errors as the shared validation answers. */
function fieldFailure(ctx: OperationContext, field: string, key: string, params: Record<string, string | number> = {}): ApiFailure {
  return new ApiFailure(key, params, { errors: [{ field, message: ctx.t(key, params) }] });
}

/** A FAIL on a field naming it by its label, with a shared validation message (api.validation.*). */
function invalidField(ctx: OperationContext, entity: EntityDecl, name: string, code: string, params: Record<string, string | number> = {}): ApiFailure {
  const field = entity.fields.find((f) => f.name === name);
  const label = field ? labelText(ctx.t, field.label, name) : name;
  return new ApiFailure("api.invalid_params", { field: name }, { errors: [{ field: name, message: ctx.t(`api.validation.${code}`, { label, ...params }) }] });
}

/** The payload checked against the fields (the shared validation), or api.invalid_params naming the first field. */
async function viewOf(ctx: OperationContext): Promise<View> {
  const auth = ctx.auth;
  if (!auth) throw notFound();
  const scope = await resolveScope(ctx.db, auth, ctx.payload);
  if (auth.userType === "system") {
    if (scope.sysid === null) return { kind: "platform", superadmins: auth.isSuperadmin === "Y" };
    // an operator switched into a provider manages it as the provider would
    return { kind: "provider", sysid: scope.sysid, provider: scope.provider };
  }
  if (auth.userType === "service" && scope.sysid !== null) return { kind: "provider", sysid: scope.sysid, provider: scope.provider };
  // no other account type holds the roles of these operations
  throw notFound();
}

/** Conditions that keep a query on the accounts of the view. */
function viewConditions(view: View): SQL[] {
  switch (view.kind) {
    case "platform":
      return view.superadmins ? [isOperator] : [isOperator, ne(users.isSuperadmin, "Y")];
    case "superadmins":
      return [isOperator, eq(users.isSuperadmin, "Y")];
    case "provider":
      return [eq(users.sysid, view.sysid), inArray(users.userType, [...PROVIDER_ACCOUNT_TYPES])];
  }
}

/** The schools assigned to each account (ids and names in the same order, by school id): one query for them all. */
async function assignedSchools(db: DbOrTx, accounts: readonly Account[]): Promise<Map<number, { ids: number[]; titles: string[] }>> {
  const out = new Map<number, { ids: number[]; titles: string[] }>();
  const staff = accounts.filter((a) => a.userType === "service_schadmin").map((a) => a.id);
  if (staff.length === 0) return out;
  const rows = await db
    .select({ userId: userSchools.userId, id: schools.id, title: schools.title })
    .from(userSchools)
    .innerJoin(users, eq(users.id, userSchools.userId))
    // only the account's own provider's schools are ever its
    .innerJoin(schools, and(eq(schools.id, userSchools.schId), eq(schools.sysid, users.sysid)))
    .where(inArray(userSchools.userId, staff))
    .orderBy(userSchools.userId, schools.id);
  for (const row of rows) {
    let entry = out.get(row.userId);
    if (!entry) out.set(row.userId, (entry = { ids: [], titles: [] }));
    entry.ids.push(row.id);
    entry.titles.push(row.title);
  }
  return out;
}

/** Accounts as the API carries them, with their schools (`schids`, `schids_title`); never a password hash. */
async function apiRows(db: DbOrTx, accounts: readonly Account[]): Promise<Row[]> {
  const assigned = await assignedSchools(db, accounts);
  return accounts.map((a) => {
    const schoolsOf = assigned.get(a.id);
    return {
      id: a.id,
      username: a.username,
      name: a.name,
      phone: a.phone,
      user_type: a.userType,
      status: a.status,
      is_superadmin: a.isSuperadmin,
      schids: schoolsOf?.ids ?? [],
      [refTitleKey("schids")]: schoolsOf?.titles ?? [],
      created_at: a.createdAt.toISOString(),
    };
  });
}

async function findAccount(db: DbOrTx, view: View, id: number, forUpdate = false): Promise<Account | undefined> {
  const query = db
    .select(ACCOUNT_COLUMNS)
    .from(users)
    .where(and(eq(users.id, id), ...viewConditions(view)));
  const [row] = forUpdate ? await query.for("update") : await query;
  return row;
}

function recordId(ctx: OperationContext): number {
  const id = parseTenantId(ctx.payload.id);
  if (id === undefined) throw notFound();
  return id;
}

async function list(ctx: OperationContext, entity: EntityDecl, view: View): Promise<OperationResult> {
  const { page, limit } = listPaging(ctx.payload);
  const where = and(...viewConditions(view), ...listFilters(entity, ctx.payload, columnOf));
  const order = listOrder(entity, ctx.payload.sort, columnOf);
  const [accounts, [{ total }]] = await Promise.all([
    ctx.db.select(ACCOUNT_COLUMNS).from(users).where(where).orderBy(...order).limit(limit).offset((page - 1) * limit),
    ctx.db.select({ total: count() }).from(users).where(where),
  ]);
  return { data: { items: await apiRows(ctx.db, accounts), total: Number(total) } };
}

async function info(ctx: OperationContext, view: View): Promise<OperationResult> {
  const account = await findAccount(ctx.db, view, recordId(ctx));
  if (!account) throw notFound();
  const [items] = await apiRows(ctx.db, [account]);
  return { data: { items } };
}

/** The account type a write asks for (required: no type is ever assumed), within what the view allows. */
function accountType(ctx: OperationContext, view: View, requested: unknown): AccountType {
  if (requested === undefined || requested === null || requested === "") throw invalidField(ctx, usersEntity, "user_type", "required");
  const type = requested as AccountType;
  const allowed: readonly AccountType[] = view.kind === "provider" ? PROVIDER_ACCOUNT_TYPES : ["system"];
  if (!allowed.includes(type)) throw fieldFailure(ctx, "user_type", view.kind === "provider" ? "accounts.provider_types_only" : "accounts.system_type_only");
  if (V2_ONLY_TYPES.includes(type) && view.kind === "provider" && view.provider?.servicerVer !== "v2") throw fieldFailure(ctx, "user_type", "accounts.staff_needs_v2");
  return type;
}

/**
 * The schools of an account of this type: a school administrator's are required and all of the view's provider;
 * another account type has none.
 */
async function schoolsFor(ctx: OperationContext, db: DbOrTx, view: View, type: AccountType, schids: number[] | null): Promise<number[]> {
  if (type !== "service_schadmin") {
    if (schids && schids.length > 0) throw fieldFailure(ctx, "schids", "accounts.schools_only_for_staff");
    return [];
  }
  if (!schids || schids.length === 0) throw invalidField(ctx, usersEntity, "schids", "required");
  if (view.kind !== "provider") throw invalidField(ctx, usersEntity, "schids", "reference");
  const [{ n }] = await db
    .select({ n: count() })
    .from(schools)
    .where(and(inArray(schools.id, schids), eq(schools.sysid, view.sysid)));
  if (Number(n) !== schids.length) throw invalidField(ctx, usersEntity, "schids", "reference");
  return schids;
}

async function add(ctx: OperationContext, entity: EntityDecl, view: View): Promise<OperationResult> {
  const auth = ctx.auth!;
  const record = checkPayload(ctx, formFields(entity, "add"), "add");
  const username = String(record.username);
  const password = String(record.password);
  if (password.length < MIN_PASSWORD_LENGTH) throw invalidField(ctx, entity, "password", "too_short", { min: MIN_PASSWORD_LENGTH });
  const superadmin = view.kind === "superadmins";
  const type = superadmin ? "system" : accountType(ctx, view, record.user_type);
  const schids = superadmin ? [] : await schoolsFor(ctx, ctx.db, view, type, (record.schids as number[] | null) ?? null);
  const status = record.status === undefined || record.status === null ? "1" : String(record.status);
  const sysid = view.kind === "provider" ? view.sysid : null;
  // an operator account takes its creator's menu generation; a provider's account, its provider's
  const servicerVer = view.kind === "provider" ? (view.provider?.servicerVer ?? "v2") : auth.facts.servicer_ver;

  const [taken] = await ctx.db.select({ id: users.id }).from(users).where(usernameMatches(username));
  if (taken) throw usernameUnavailable(ctx.t);
  const passwordHash = await ctx.services.hasher.hash(password);
  try {
    const account = await ctx.db.transaction(async (tx) => {
      const [created] = await tx
        .insert(users)
        .values({ username, passwordHash, name: String(record.name), phone: phoneOf(record.phone), userType: type, servicerVer, sysid, isSuperadmin: superadmin ? "Y" : "N", status, createdAt: ctx.now, updatedAt: ctx.now })
        .returning(ACCOUNT_COLUMNS);
      if (schids.length > 0) await tx.insert(userSchools).values(schids.map((schId) => ({ userId: created.id, schId })));
      await auditCall(tx, ctx, {
        action: `${entity.name}add`,
        entity: "users",
        entityId: created.id,
        detail: { username, user_type: type, sysid, is_superadmin: created.isSuperadmin, status, schids },
        // the account's provider; a staff account's schools are a list, no school of its own
        sysid: created.sysid,
        schId: null,
      });
      return created;
    });
    const [items] = await apiRows(ctx.db, [account]);
    return { data: { items } };
  } catch (err) {
    if (!(err instanceof ApiFailure) && hasErrorCode(err, UNIQUE_VIOLATION)) throw usernameUnavailable(ctx.t);
    throw err;
  }
}

/** Refuses to take away the last active super administrator (run with the super administrators locked). */
async function keepOneSuperadmin(ctx: OperationContext, tx: DbOrTx, target: Account, field: string): Promise<void> {
  if (normaliseUserType(target.userType) !== "system" || target.isSuperadmin !== "Y" || target.status !== "1") return;
  const [{ n }] = await tx
    .select({ n: count() })
    .from(users)
    .where(and(activeSuperadmin, ne(users.id, target.id)));
  if (Number(n) === 0) throw fieldFailure(ctx, field, "accounts.last_superadmin");
}

/** The fields usersedit takes: the form's, and a super administrator's promotion or demotion. */
const editFields: FieldDecl[] = [...formFields(usersEntity, "edit"), usersEntity.fields.find((f) => f.name === "is_superadmin")!];

async function edit(ctx: OperationContext, view: View): Promise<OperationResult> {
  const auth = ctx.auth!;
  const id = recordId(ctx);
  const record = checkPayload(ctx, editFields, "edit");
  // a choice sent empty changes nothing; schools sent empty are none, a phone sent empty is taken away
  const changes = Object.fromEntries(Object.entries(record).filter(([name, v]) => v !== undefined && (v !== null || name === "schids" || name === "phone")));
  const self = id === auth.userId;
  if (changes.status === "0" && self) throw fieldFailure(ctx, "status", "accounts.cannot_disable_self");
  const mayRemoveSuperadmin = view.kind === "platform" && (changes.status === "0" || changes.is_superadmin === "N");

  const account = await ctx.db.transaction(async (tx) => {
    // the active super administrators are locked first, in id order, so that two of them taken away at once
    // cannot both see the other still there
    if (mayRemoveSuperadmin) {
      await tx.select({ id: users.id }).from(users).where(activeSuperadmin).orderBy(users.id).for("update");
    }
    const before = await findAccount(tx, view, id, true);
    if (!before) throw notFound();
    // what only some may change, sent back as it stands (a client sending the whole record), is no change: the
    // username is never changed here, the super administrator flag only by a super administrator
    refuseChangedAddOnlyFields(usersEntity, ctx, { username: before.username });
    if (changes.is_superadmin === before.isSuperadmin) delete changes.is_superadmin;
    if (changes.is_superadmin !== undefined) {
      if (view.kind !== "platform" || !view.superadmins) throw fieldFailure(ctx, "is_superadmin", "accounts.superadmin_only");
      if (changes.is_superadmin === "N" && self) throw fieldFailure(ctx, "is_superadmin", "accounts.cannot_demote_self");
    }
    const type = changes.user_type === undefined ? (before.userType as AccountType) : accountType(ctx, view, changes.user_type);
    if (normaliseUserType(type) !== normaliseUserType(before.userType) && self) throw fieldFailure(ctx, "user_type", "accounts.cannot_demote_self");
    if (changes.status === "0") await keepOneSuperadmin(ctx, tx, before, "status");
    if (changes.is_superadmin === "N") await keepOneSuperadmin(ctx, tx, before, "is_superadmin");

    // a school administrator keeps its schools unless new ones are given; another type has none
    let schids: number[] | undefined;
    if (type === "service_schadmin") {
      const given = changes.schids as number[] | null | undefined;
      const current = given === undefined ? (await assignedSchools(tx, [before])).get(before.id)?.ids ?? [] : (given ?? []);
      const checkedSchools = await schoolsFor(ctx, tx, view, type, current);
      if (given !== undefined || type !== before.userType) schids = checkedSchools;
    } else {
      await schoolsFor(ctx, tx, view, type, (changes.schids as number[] | null | undefined) ?? null);
      if (before.userType === "service_schadmin") schids = [];
    }

    const set: Partial<typeof users.$inferInsert> = { updatedAt: ctx.now };
    if (changes.name !== undefined) set.name = String(changes.name);
    if (changes.phone !== undefined) set.phone = phoneOf(changes.phone);
    if (changes.status !== undefined) set.status = String(changes.status);
    if (type !== before.userType) set.userType = type;
    if (changes.is_superadmin !== undefined) set.isSuperadmin = String(changes.is_superadmin);
    const [after] = await tx.update(users).set(set).where(eq(users.id, id)).returning(ACCOUNT_COLUMNS);
    if (schids !== undefined) {
      await tx.delete(userSchools).where(eq(userSchools.userId, id));
      if (schids.length > 0) await tx.insert(userSchools).values(schids.map((schId) => ({ userId: id, schId })));
    }
    // a disabled account is logged out at once, in every server process
    if (before.status !== "0" && after.status === "0") await revokeUserSessions(tx, id, ctx.now);
    await auditCall(tx, ctx, {
      action: "usersedit",
      entity: "users",
      entityId: id,
      detail: { username: before.username, fields: Object.keys(changes), ...(schids !== undefined ? { schids } : {}) },
      sysid: before.sysid,
      schId: null,
    });
    return after;
  });
  const [items] = await apiRows(ctx.db, [account]);
  return { data: { items } };
}

async function resetPassword(ctx: OperationContext, view: View): Promise<OperationResult> {
  const auth = ctx.auth!;
  const id = recordId(ctx);
  const { password } = checkPayload(ctx, usersResetPassword.fields ?? [], "add");
  if (String(password).length < MIN_PASSWORD_LENGTH) throw invalidField(ctx, usersEntity, "password", "too_short", { min: MIN_PASSWORD_LENGTH });
  // one's own password is changed by proving the current one (sysusereditpassword)
  if (id === auth.userId) throw fieldFailure(ctx, "id", "accounts.cannot_reset_self");
  const target = await findAccount(ctx.db, view, id);
  if (!target) throw notFound();
  const passwordHash = await ctx.services.hasher.hash(String(password));
  await ctx.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(users)
      .set({ passwordHash, updatedAt: ctx.now })
      .where(and(eq(users.id, id), ...viewConditions(view)))
      .returning({ id: users.id });
    if (!updated) throw notFound();
    // whoever held the old password is logged out, and a lockout from wrong guesses ends with it
    await revokeUserSessions(tx, id, ctx.now);
    await clearFailures(tx, usernameKey(target.username));
    await auditCall(tx, ctx, {
      action: "usersresetpassword",
      entity: "users",
      entityId: id,
      detail: { username: target.username },
      sysid: target.sysid,
      schId: null,
    });
  });
  return { messageKey: "accounts.password_reset_done", messageParams: { username: target.username } };
}

/** The roles the catalogue gives an entity's action (one source for the menus, the SPA and the server). */
function rolesOf(entity: EntityDecl, action: "list" | "info" | "add" | "edit"): readonly string[] {
  const roles = entity.roles[action];
  if (!roles || roles.length === 0) throw new Error(`accounts: ${entity.name} declares no roles for ${action}`);
  return roles;
}

export function registerAccountOperations(registry: OperationRegistry): void {
  const operation = (
    entity: EntityDecl,
    method: string,
    roles: readonly string[],
    effect: "read" | "write",
    run: (ctx: OperationContext, view: View) => Promise<OperationResult>,
    fixedView?: View,
  ) =>
    registry.add({
      path: entity.apiPath ?? "adminapiv2",
      method,
      needsToken: true,
      roles,
      effect,
      handler: async (ctx) => run(ctx, fixedView ?? (await viewOf(ctx))),
    });

  operation(usersEntity, "userslist", rolesOf(usersEntity, "list"), "read", (ctx, view) => list(ctx, usersEntity, view));
  operation(usersEntity, "usersinfo", rolesOf(usersEntity, "info"), "read", info);
  operation(usersEntity, "usersadd", rolesOf(usersEntity, "add"), "write", (ctx, view) => add(ctx, usersEntity, view));
  operation(usersEntity, "usersedit", rolesOf(usersEntity, "edit"), "write", edit);
  operation(usersEntity, usersResetPassword.name, usersResetPassword.roles, "write", resetPassword);

  // super administrators are the platform's, whichever provider the caller has switched into
  const superadmins: View = { kind: "superadmins" };
  operation(usersAdminEntity, "users_adminlist", rolesOf(usersAdminEntity, "list"), "read", (ctx, view) => list(ctx, usersAdminEntity, view), superadmins);
  operation(usersAdminEntity, "users_adminadd", rolesOf(usersAdminEntity, "add"), "write", (ctx, view) => add(ctx, usersAdminEntity, view), superadmins);
}
