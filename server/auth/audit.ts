/** Writes to the append-only audit log. */
import type { DbOrTx } from "../db/client";
import { auditLog } from "../db/schema";
import type { Scope } from "./scope";

export interface AuditEntry {
  userId?: number | null;
  username?: string;
  action: string;
  entity?: string;
  entityId?: string | number;
  ip?: string;
  detail?: Record<string, unknown>;
  /**
   * The provider the entry concerns (null: a platform-only action), so that a provider's own trail can be read.
   * Required, as `schId` is, so that every entry says which tenant it concerns.
   */
  sysid: number | null;
  /** the school the entry concerns (null: none, or several), so that a school's own trail can be read */
  schId: number | null;
  /** when it happened, where that is not now (the demo data's history); default the database's clock */
  at?: Date;
}

/** The tenant of an action within a checked scope: its provider, and its school when it names exactly one. */
export function scopeTenant(scope: Scope): { sysid: number | null; schId: number | null } {
  return { sysid: scope.sysid, schId: scope.schids?.length === 1 ? scope.schids[0] : null };
}

/** The tenant of an account: its provider, and its school for a school's own account. */
export function accountTenant(account: { sysid: number | null; schid: number | null }): { sysid: number | null; schId: number | null } {
  return { sysid: account.sysid, schId: account.schid };
}

/** Who did something: a signed-in user, or a background job (no user: its name says what acted). */
export interface AuditActor {
  userId: number | null;
  username: string;
}

/** The actor of what a background job does on its own: `job:{its kind}`, so that the trail never names nobody. */
export function jobActor(kind: string): AuditActor {
  return { userId: null, username: `job:${kind}` };
}

/** What an operation's context says of its caller: its account (none for a public call) and its address. */
export interface AuditCaller {
  auth: { userId: number; username: string } | null;
  ip: string;
}

/**
 * The entry of something a caller's operation did: who and from where are its context's, so that no entry of an
 * operation misses its account or its address. What a job or a payer does on its own goes through writeAudit.
 */
export function auditCall(db: DbOrTx, caller: AuditCaller, entry: Omit<AuditEntry, "userId" | "username" | "ip">): Promise<void> {
  return writeAudit(db, { ...entry, userId: caller.auth?.userId ?? null, username: caller.auth?.username ?? "", ip: caller.ip });
}

export async function writeAudit(db: DbOrTx, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({
    userId: entry.userId ?? null,
    username: entry.username ?? "",
    action: entry.action,
    entity: entry.entity ?? "",
    entityId: entry.entityId === undefined ? "" : String(entry.entityId),
    ip: entry.ip ?? "",
    detail: entry.detail ?? {},
    sysid: entry.sysid,
    schId: entry.schId,
    ...(entry.at ? { at: entry.at } : {}),
  });
}
