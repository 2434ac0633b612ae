/**
 * What the registry-generated tests know of the product: every registered operation, the demo accounts with the
 * tenants each may act in, and a live session for each, made straight in the database (no password needed, so a
 * test that changes a password or logs out cannot lock the next one out).
 */
import { count, eq, inArray } from "drizzle-orm";
import ExcelJS from "exceljs";
import type { EntityDecl, FieldDecl } from "../../common/catalogue";
import { entities, reports } from "../../resources.config";
import { loadAuthority, type Authority } from "../../server/auth/authority";
import { createSession } from "../../server/auth/sessions";
import { isColumnField, tableColumn, tenantColumnNames } from "../../server/db/catalogueTables";
import { catalogueTables, pickupPoints, schools, userSchools, users } from "../../server/db/schema";
import { registerOperations } from "../../server/domains";
import { OperationRegistry, type Operation } from "../../server/protocol/registry";
import { DEMO_ACCOUNTS } from "../../server/seed/demo";
import type { TestApp } from "./support";

export function registeredOperations(): Operation<unknown>[] {
  const registry = new OperationRegistry();
  registerOperations(registry);
  return registry.all();
}

/** The catalogue entity behind a generic operation ({entity}list / info / add / edit / del / export) or a record action, if any. */
export function entityOf(operation: Operation<unknown>) {
  return entities.find((e) =>
    [`${e.name}list`, `${e.name}info`, `${e.name}add`, `${e.name}edit`, `${e.name}del`, e.exportOperation, ...(e.actions ?? []).map((a) => a.name)].includes(operation.method),
  );
}

/**
 * Entities the demo data seeds no rows of, on purpose, and why: their rows come from using the product. The tests
 * generated from the catalogue compare no row of theirs; every other entity they read must have demo rows (seeded by
 * server/seed/), or they fail naming it (demoRowsNeeded), so that a new entity is not passed over for want of rows.
 */
export const WITHOUT_DEMO_ROWS: Readonly<Record<string, string>> = {
  schoolrenew: "a school's renewal, written when one is paid",
  servicedelay: "a provider's term extended by an operator",
  schoolimportlog: "the log of an import, written when one runs",
  qrchnl: "a channel QR code, made on its page",
  formanswer: "a payer's answer to an activity form",
};

/** How many rows of the entity the database holds (its generated table). */
export async function demoRowCount(t: TestApp, entity: EntityDecl): Promise<number> {
  const table = catalogueTables[entity.name];
  if (!table) throw new Error(`${entity.name} has no generated table`);
  const [row] = await t.db.select({ n: count() }).from(table);
  return Number(row?.n ?? 0);
}

/**
 * Fails naming the entity when a generated test found none of its demo rows where it needs some (`need`: what for),
 * unless the entity is one of those without demo rows on purpose. `rows`: how many the database holds, all tenants'.
 */
export function demoRowsNeeded(entity: EntityDecl, rows: number, need: string): void {
  if (entity.name in WITHOUT_DEMO_ROWS) return;
  if (rows === 0) {
    throw new Error(
      `the demo data has no rows of ${entity.name}, which ${need}: seed some (server/seed/), or name ${entity.name} in WITHOUT_DEMO_ROWS (tests/server/registryCases.ts) saying why it has none`,
    );
  }
  throw new Error(`none of the ${rows} demo rows of ${entity.name} reached the test, which ${need}: seed rows a demo account allowed to read them may see (server/seed/)`);
}

export interface DemoAccountCase {
  username: string;
  userId: number;
  auth: Authority;
  /** null: the whole platform */
  sysid: number | null;
  /** schools it may act in; null: every school of its provider (or of the platform); a clerk's: those its points serve */
  schids: number[] | null;
  /** a pickup clerk's points, whose records alone it may read; null: not a clerk */
  pickupPointIds: number[] | null;
}

export interface TenantMap {
  /** school id -> provider id */
  providerOfSchool: Map<number, number>;
  providers: number[];
}

export async function tenantMap(t: TestApp): Promise<TenantMap> {
  const rows = await t.db.select({ id: tableColumn(schools, "id"), sysid: tableColumn(schools, "sysid") }).from(schools);
  const providerOfSchool = new Map(rows.map((r) => [Number(r.id), Number(r.sysid)]));
  return { providerOfSchool, providers: [...new Set(providerOfSchool.values())] };
}

/** The demo accounts (or the accounts of these usernames) with their tenants. */
export async function demoAccountCases(t: TestApp, usernames: readonly string[] = DEMO_ACCOUNTS.map((a) => a.username)): Promise<DemoAccountCase[]> {
  const out: DemoAccountCase[] = [];
  for (const username of usernames) {
    const [user] = await t.db.select({ id: users.id }).from(users).where(eq(users.username, username));
    const auth = (await loadAuthority(t.db, user!.id))!;
    let schids: number[] | null = null;
    if (auth.userType === "school") schids = [auth.schid!];
    if (auth.userType === "service_schadmin") schids = (await t.db.select({ id: userSchools.schId }).from(userSchools).where(eq(userSchools.userId, user!.id))).map((r) => r.id);
    // a clerk knows the schools its points serve by name, and acts in none
    if (auth.userType === "pickup") {
      const points = auth.pickupPointIds.length === 0 ? [] : await t.db.select({ schIds: pickupPoints.sch_ids }).from(pickupPoints).where(inArray(pickupPoints.id, auth.pickupPointIds));
      schids = [...new Set(points.flatMap((p) => p.schIds))];
    }
    const pickupPointIds = auth.userType === "pickup" ? auth.pickupPointIds : null;
    out.push({ username, userId: user!.id, auth, sysid: auth.userType === "system" ? null : auth.sysid, schids, pickupPointIds });
  }
  return out;
}

/** A fresh session of the account. */
export function sessionOf(t: TestApp, account: DemoAccountCase): Promise<string> {
  return createSession(t.db, { userId: account.userId, now: t.clock.now(), ip: "127.0.0.1", userAgent: "registry test" });
}

/**
 * Where an answer names a tenant the account may not see: every object in `data` carrying `sysid` or `sch_id`
 * must lie inside the account's tenants. Returns the offending path, or null.
 */
export function foreignTenantIn(value: unknown, account: DemoAccountCase, tenants: TenantMap, path = "data"): string | null {
  if (account.sysid === null || typeof value !== "object" || value === null) return null;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = foreignTenantIn(item, account, tenants, `${path}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  const record = value as Record<string, unknown>;
  const sysid = record.sysid === undefined || record.sysid === null || record.sysid === "" ? null : Number(record.sysid);
  if (sysid !== null && sysid !== account.sysid) return `${path}.sysid`;
  const schId = record.sch_id === undefined || record.sch_id === null || record.sch_id === "" ? null : Number(record.sch_id);
  if (schId !== null) {
    if (tenants.providerOfSchool.get(schId) !== account.sysid) return `${path}.sch_id`;
    if (account.schids !== null && !account.schids.includes(schId)) return `${path}.sch_id`;
  }
  for (const [key, item] of Object.entries(record)) {
    const found = foreignTenantIn(item, account, tenants, `${path}.${key}`);
    if (found) return found;
  }
  return null;
}

/** The tenant a stored row belongs to: a provider, or one of its schools. */
export interface Owner {
  sysid: number;
  schid: number | null;
  /** the pickup point the row belongs to (EntityDecl.tenantColumns.pickupPoint) */
  point?: number | null;
}

/** What the seeded database says about who owns what, to find another tenant's rows in any answer or file. */
export interface TenantData {
  /** texts only one tenant's rows hold (a school's title, a student's name, a guardian's phone, a provider's code) */
  names: Map<string, Owner>;
  /** every catalogue record's tenant, by entity name and id */
  records: Map<string, Map<number, Owner>>;
}

/** the kinds of field whose values are texts a user typed or the seed wrote (not choices, dates or numbers) */
const TEXT_KINDS = new Set(["string", "text", "phone", "idcard", "image"]);
/** a text several tenants hold, or the platform too, names no one */
const SHARED = "shared";

/** A row's tenant by the entity's tenant columns; null: the platform's (no tenant). */
function ownerOf(entity: EntityDecl, row: Record<string, unknown>): Owner | null {
  const number = (value: unknown) => (value === null || value === undefined || value === "" ? null : Number(value));
  if (entity.scope === "platform") {
    const sysid = entity.providerColumn ? number(row[entity.providerColumn]) : null;
    return sysid === null ? null : { sysid, schid: null };
  }
  const tenant = tenantColumnNames(entity);
  const sysid = number(row[tenant.sysid ?? ""]);
  return sysid === null ? null : { sysid, schid: tenant.schid ? number(row[tenant.schid]) : null, point: tenant.pickupPoint ? number(row[tenant.pickupPoint]) : null };
}

export async function tenantData(t: TestApp): Promise<TenantData> {
  const holders = new Map<string, Owner | typeof SHARED>();
  const hold = (text: unknown, owner: Owner | null) => {
    if (typeof text !== "string" || text.trim().length < 2) return;
    // a day or a time (a trade bill's line keeps its time as text) names no one: two tenants' payments share them
    if (/^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2})?)?$/.test(text.trim())) return;
    const held = holders.get(text);
    if (held === SHARED) return;
    if (owner === null) holders.set(text, SHARED);
    else if (held === undefined) holders.set(text, owner);
    else if (held.sysid !== owner.sysid) holders.set(text, SHARED);
    // held by a school and by another school or its provider: the provider's, whose every account may see it
    else if (held.schid !== owner.schid) holders.set(text, { sysid: owner.sysid, schid: null });
    // held by two pickup points (or a point and its provider): the provider's
    else if ((held.point ?? null) !== (owner.point ?? null)) holders.set(text, { sysid: owner.sysid, schid: owner.schid });
  };
  const records = new Map<string, Map<number, Owner>>();
  for (const entity of entities.filter((e) => e.implementedBy !== "domain" && catalogueTables[e.name])) {
    const byId = new Map<number, Owner>();
    records.set(entity.name, byId);
    // the audit log's texts are other records' names and numbers and the operations' names: no tenant's own
    const texts = entity.ownTable ? [] : entity.fields.filter((f) => TEXT_KINDS.has(f.type) && isColumnField(f));
    for (const row of (await t.db.select().from(catalogueTables[entity.name]!)) as Record<string, unknown>[]) {
      const owner = ownerOf(entity, row);
      if (owner) byId.set(Number(row.id), owner);
      for (const field of texts) hold(row[field.name], owner);
    }
  }
  // accounts by their names (a username such as "school" is a word the answers use for other things too);
  // an operator's are the platform's
  for (const user of await t.db.select({ username: users.username, name: users.name, userType: users.userType, sysid: users.sysid, schid: users.schid }).from(users)) {
    hold(user.name, user.userType === "system" || user.sysid === null ? null : { sysid: user.sysid, schid: user.schid });
    // a record naming who did something (a refund's applied_by) holds a username: no tenant's own word either
    holders.set(user.username, SHARED);
  }
  const names = new Map<string, Owner>();
  for (const [text, owner] of holders) if (owner !== SHARED) names.set(text, owner);
  return { names, records };
}

/** Whether a row of this tenant lies outside the account's authority. */
function foreignTo(account: DemoAccountCase, owner: Owner): boolean {
  if (account.sysid === null) return false;
  if (owner.sysid !== account.sysid) return true;
  // a clerk's: the rows of its own points
  if (account.pickupPointIds !== null && owner.point !== undefined && owner.point !== null) return !account.pickupPointIds.includes(owner.point);
  return owner.schid !== null && account.schids !== null && !account.schids.includes(owner.schid);
}

/** Every string in an answer or a sheet, with where it is. */
function* stringsIn(value: unknown, path: string): Generator<[string, string]> {
  if (typeof value === "string") yield [value, path];
  else if (Array.isArray(value)) for (const [i, item] of value.entries()) yield* stringsIn(item, `${path}[${i}]`);
  else if (value && typeof value === "object") for (const [key, item] of Object.entries(value)) yield* stringsIn(item, `${path}.${key}`);
}

/** The first text in `value` that only a tenant outside the account's authority holds: "path: text", or null. */
export function foreignNameIn(value: unknown, account: DemoAccountCase, data: TenantData, path = "data"): string | null {
  for (const [text, where] of stringsIn(value, path)) {
    const owner = data.names.get(text);
    if (owner && foreignTo(account, owner)) return `${where}: ${text}`;
  }
  return null;
}

/** reference keys of the catalogue (grade_id, class_id...) to the entity they refer to, where the name says one only */
const referenceKeys: Map<string, string> = (() => {
  const found = new Map<string, Set<string>>();
  const add = (field: FieldDecl) => {
    if (field.type !== "ref" || !field.ref || field.multiple) return;
    found.set(field.name, (found.get(field.name) ?? new Set()).add(field.ref.entity));
  };
  for (const entity of entities) entity.fields.forEach(add);
  for (const report of reports) [report.dimension, ...report.filters].forEach(add);
  return new Map([...found].filter(([, targets]) => targets.size === 1).map(([key, targets]) => [key, [...targets][0]!]));
})();

/**
 * The first record in `value` of a tenant outside the account's authority, found by the references its objects
 * carry (`class_id`, `grade_id`...) and, for the answers of an entity's operations, the records' own `id`.
 */
export function foreignRecordIn(value: unknown, account: DemoAccountCase, data: TenantData, entity?: EntityDecl, path = "data"): string | null {
  if (account.sysid === null || typeof value !== "object" || value === null) return null;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = foreignRecordIn(item, account, data, entity, `${path}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  const record = value as Record<string, unknown>;
  const keys: [string, string | undefined][] = [...Object.keys(record).map((key): [string, string | undefined] => [key, referenceKeys.get(key)])];
  if (entity && path.startsWith("data.items")) keys.push(["id", entity.name]);
  for (const [key, target] of keys) {
    if (!target || typeof record[key] !== "number") continue;
    const owner = data.records.get(target)?.get(record[key] as number);
    if (owner && foreignTo(account, owner)) return `${path}.${key} (${target} ${String(record[key])})`;
  }
  for (const [key, item] of Object.entries(record)) {
    if (typeof item !== "object" || item === null) continue;
    const found = foreignRecordIn(item, account, data, entity, `${path}.${key}`);
    if (found) return found;
  }
  return null;
}

export const XLSX_MIME = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** The cells of a file's first sheet, row by row, each as exceljs reads it (a text, a number, a date...). */
export async function sheetRows(contentBase64: string): Promise<unknown[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Buffer.from(contentBase64, "base64") as unknown as ArrayBuffer);
  const rows: unknown[][] = [];
  workbook.worksheets[0]?.eachRow((row) => {
    rows.push((row.values as unknown[]).slice(1).map((cell) => (cell && typeof cell === "object" && "richText" in cell ? (cell.richText as { text: string }[]).map((p) => p.text).join("") : cell)));
  });
  return rows;
}
