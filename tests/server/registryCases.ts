/**
 * What the registry-generated tests know of the product: every registered operation, the demo accounts with the
 * tenants each may act in, and a live session for each, made straight in the database (no password needed, so a
 * test that changes a password or logs out cannot lock the next one out).
 */
import { eq } from "drizzle-orm";
import { entities } from "../../resources.config";
import { loadAuthority, type Authority } from "../../server/auth/authority";
import { createSession } from "../../server/auth/sessions";
import { tableColumn } from "../../server/db/catalogueTables";
import { schools, userSchools, users } from "../../server/db/schema";
import { registerOperations } from "../../server/domains";
import { OperationRegistry, type Operation } from "../../server/protocol/registry";
import { DEMO_ACCOUNTS } from "../../server/seed/demo";
import type { TestApp } from "./support";

export function registeredOperations(): Operation<unknown>[] {
  const registry = new OperationRegistry();
  registerOperations(registry);
  return registry.all();
}

/** The catalogue entity behind a generic operation ({entity}list / info / add / edit / del / export), if any. */
export function entityOf(operation: Operation<unknown>) {
  return entities.find((e) => [`${e.name}list`, `${e.name}info`, `${e.name}add`, `${e.name}edit`, `${e.name}del`, e.exportOperation].includes(operation.method));
}

export interface DemoAccountCase {
  username: string;
  userId: number;
  auth: Authority;
  /** null: the whole platform */
  sysid: number | null;
  /** schools it may act in; null: every school of its provider (or of the platform) */
  schids: number[] | null;
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

export async function demoAccountCases(t: TestApp): Promise<DemoAccountCase[]> {
  const out: DemoAccountCase[] = [];
  for (const { username } of DEMO_ACCOUNTS) {
    const [user] = await t.db.select({ id: users.id }).from(users).where(eq(users.username, username));
    const auth = (await loadAuthority(t.db, user!.id))!;
    let schids: number[] | null = null;
    if (auth.userType === "school") schids = [auth.schid!];
    if (auth.userType === "service_schadmin") schids = (await t.db.select({ id: userSchools.schId }).from(userSchools).where(eq(userSchools.userId, user!.id))).map((r) => r.id);
    if (auth.userType === "pickup") schids = [];
    out.push({ username, userId: user!.id, auth, sysid: auth.userType === "system" ? null : auth.sysid, schids });
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
