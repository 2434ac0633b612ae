/** Writes to the append-only audit log. */
import { SQL, sql } from "drizzle-orm";
import type { DbOrTx } from "../db/client";
import { auditLog } from "../db/schema";
import type { Scope } from "./scope";

/** What an entry says beside its actor (writeAudit). */
export interface AuditFacts {
  action: string;
  entity?: string;
  entityId?: string | number;
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

declare const actorMade: unique symbol;

/**
 * Who did something and from where. Made only by the constructors below (the brand keeps a hand-written literal
 * out), so that every entry of the trail names someone: an account, a job, the payer page, a payment gateway.
 */
export interface AuditActor {
  readonly userId: number | null;
  readonly username: string;
  /** the address the request came from ("" for what no request asked: a job) */
  readonly ip: string;
  readonly [actorMade]: true;
}

/** audit_log.username's width: a name from outside (a WeChat nickname) is cut to it, never refused with the entry */
const USERNAME_MAX = 50;

function madeActor(userId: number | null, username: string, ip: string): AuditActor {
  return { userId, username: username.slice(0, USERNAME_MAX), ip } as AuditActor;
}

/** What an operation's context says of its caller: its account (none for a public call) and its address. */
export interface AuditCaller {
  auth: { userId: number; username: string; apiClient?: true } | null;
  ip: string;
}

/** The caller of an operation: its account, or the payer page for a call without one. */
export function callerActor(caller: AuditCaller): AuditActor {
  if (!caller.auth) return payerActor(caller.ip);
  return madeActor(caller.auth.apiClient ? null : caller.auth.userId, caller.auth.username, caller.ip);
}

/**
 * An account acting, or tried, outside an operation's context: a login attempt (the account named, when there is
 * one), an export made for its requester, a payment applied for the order's creator.
 */
export function accountActor(account: { userId: number | null; username: string }, ip = ""): AuditActor {
  return madeActor(account.userId, account.username, ip);
}

/** The actor of what a background job does on its own: `job:{its kind}`. */
export function jobActor(kind: string): AuditActor {
  return madeActor(null, `job:${kind}`, "");
}

/** A parent on the payer page: no account, its address. */
export function payerActor(ip: string): AuditActor {
  return madeActor(null, "payer", ip);
}

/** A person without an account, named as WeChat names them (a subscriber of the daily report binding themself). */
export function wechatPersonActor(nickname: string, ip: string): AuditActor {
  return madeActor(null, `wechat:${nickname}`, ip);
}

/** What a payment gateway's answer or notification decided (a refund's result, a payment that did not match). */
export function gatewayActor(ip = ""): AuditActor {
  return madeActor(null, "system", ip);
}

/**
 * The entry of something a caller's operation did: who and from where are its context's, so that no entry of an
 * operation misses its account or its address.
 */
export function auditCall(db: DbOrTx, caller: AuditCaller, entry: AuditFacts): Promise<void> {
  return writeAudit(db, callerActor(caller), entry);
}

/** The one way an entry is written: its actor made by a constructor above, its facts. */
export async function writeAudit(db: DbOrTx, actor: AuditActor, entry: AuditFacts): Promise<void> {
  await db.insert(auditLog).values({
    userId: actor.userId,
    username: actor.username,
    action: entry.action,
    entity: entry.entity ?? "",
    entityId: entry.entityId === undefined ? "" : String(entry.entityId),
    ip: actor.ip,
    detail: entry.detail ?? {},
    sysid: entry.sysid,
    schId: entry.schId,
    ...(entry.at ? { at: entry.at } : {}),
  });
}

/** A fact of an entry a statement writes itself (auditInsert): a value, or an expression over the statement's rows. */
export type AuditValue<T> = T | SQL;

/** An entry's facts (AuditFacts), each a value or an expression over the rows of the statement that writes it. */
export interface AuditFactsOver {
  action: string;
  entity?: AuditValue<string>;
  entityId?: AuditValue<string | number>;
  detail?: Record<string, AuditValue<unknown>>;
  sysid: AuditValue<number | null>;
  schId: AuditValue<number | null>;
  at?: Date;
}

/**
 * The insert of one entry for each row of `rows` (a relation of the statement it is part of, aliased), for a
 * statement that writes its entry itself, as a data-modifying WITH does: the entry is written with what it records,
 * in one round trip. The row is the one writeAudit writes for the same actor and facts (an expression's value in
 * place of the value: tests/server/auditInsert.test.ts writes both and compares them): its actor made by a
 * constructor above, its time the database's clock unless given.
 */
export function auditInsert(actor: AuditActor, entry: AuditFactsOver, rows: SQL): SQL {
  const value = (v: AuditValue<unknown> | undefined, type: string, empty: unknown) => (is(v) ? sql`(${v})::${sql.raw(type)}` : sql`${v === undefined ? empty : v}::${sql.raw(type)}`);
  const given: Record<string, unknown> = {};
  const computed: SQL[] = [];
  for (const [key, v] of Object.entries(entry.detail ?? {})) {
    if (is(v)) computed.push(sql`${key}::text, ${v}`);
    else given[key] = v;
  }
  // the values given as writeAudit's driver writes them (JSON text), those of the rows beside them: one object
  const detail = computed.length === 0 ? sql`${JSON.stringify(given)}::jsonb` : sql`${JSON.stringify(given)}::jsonb || jsonb_build_object(${sql.join(computed, sql`, `)})`;
  const entityId = is(entry.entityId) ? sql`(${entry.entityId})::varchar` : sql`${entry.entityId === undefined ? "" : String(entry.entityId)}::varchar`;
  return sql`insert into ${auditLog} (user_id, username, action, entity, entity_id, ip, detail, sysid, sch_id${entry.at ? sql`, at` : sql``})
    select ${actor.userId}::integer, ${actor.username}::varchar, ${entry.action}::varchar, ${value(entry.entity, "varchar", "")}, ${entityId},
      ${actor.ip}::varchar, ${detail}, ${value(entry.sysid, "integer", null)}, ${value(entry.schId, "integer", null)}${entry.at ? sql`, ${entry.at.toISOString()}::timestamptz` : sql``}
    from ${rows}`;
}

function is(v: unknown): v is SQL {
  return v instanceof SQL;
}
