/**
 * Sessions (DESIGN 5): a 32-byte random token (base64url) given to the client, only its SHA-256 stored. A
 * session ends after SESSION_IDLE_MINUTES without use, SESSION_MAX_HOURS after login, or when revoked; every
 * request reads the session from the database (a list, in its own statement: RecentSessions), so revocation holds
 * in every server process.
 */
import { createHash, randomBytes } from "node:crypto";
import { and, Column, eq, inArray, is, isNull, lte, ne, SQL, sql, type AnyColumn, type SQLWrapper } from "drizzle-orm";
import { tableColumn } from "../db/catalogueTables";
import type { Db, DbOrTx } from "../db/client";
import { providers, schools, sessions, users } from "../db/schema";
import { alias } from "drizzle-orm/pg-core";
import { authorityColumns, authorityOf, columnsOf, PROVIDER_FACT_COLUMNS, providerFacts, SCHOOL_FACT_COLUMNS, schoolFacts, type Authority } from "./authority";
import type { NamedTenants } from "./scope";

export interface SessionLifetime {
  idleMinutes: number;
  maxHours: number;
}

export const DEFAULT_SESSION_LIFETIME: SessionLifetime = { idleMinutes: 120, maxHours: 12 };

/** last_seen_at is written at most this often, so polling does not write on every call */
const LAST_SEEN_RESOLUTION_MS = 30_000;

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export async function createSession(
  db: DbOrTx,
  input: { userId: number; now: Date; ip: string; userAgent: string },
): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await db.insert(sessions).values({
    tokenHash: hashToken(token),
    userId: input.userId,
    createdAt: input.now,
    lastSeenAt: input.now,
    ip: input.ip.slice(0, 64),
    userAgent: input.userAgent.slice(0, 500),
  });
  return token;
}

const namedSchool = alias(schools, "named_school");
const namedProvider = alias(providers, "named_provider");

/** What the session statement reads: the session, its user, provider and school, and the payload's named tenants. */
const sessionColumns = {
  session: { revokedAt: sessions.revokedAt, lastSeenAt: sessions.lastSeenAt, createdAt: sessions.createdAt },
  ...authorityColumns,
  namedSchool: columnsOf(namedSchool, SCHOOL_FACT_COLUMNS),
  namedProvider: columnsOf(namedProvider, PROVIDER_FACT_COLUMNS),
};

function flatColumns(selection: object): (SQLWrapper | AnyColumn)[] {
  return Object.values(selection).flatMap((value: object) => (is(value, Column) || is(value, SQL) ? [value as AnyColumn] : flatColumns(value)));
}

/**
 * Everything the session statement reads but its last use, as one text: the SHA-256 of its row's text form. A
 * session whose state reads the same at two moments gave the same authority, the same scope and the same answer to
 * every check at both. Its last use only decides when it ends idle, which this process checks from the last use it
 * wrote or read itself (never later than the database's), so writing it changes no session's state. A digest, as a
 * list's page carries it in each of its rows.
 */
const stateColumns = { ...sessionColumns, session: { revokedAt: sessions.revokedAt, createdAt: sessions.createdAt } };
const sessionState = sql<string>`encode(sha256(convert_to(row(${sql.join(flatColumns(stateColumns), sql`, `)})::text, 'UTF8')), 'base64')`;

/** The session statement for the token and named tenants given (placeholders, or a statement's own bound values). */
function sessionStatement(db: DbOrTx, tokenHash: unknown, namedSchid: unknown, namedSysid: unknown) {
  return db
    .select({ ...sessionColumns, state: sessionState.as("session_state") })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(providers, eq(tableColumn(providers, "id"), users.sysid))
    .leftJoin(schools, eq(tableColumn(schools, "id"), users.schid))
    .leftJoin(namedSchool, eq(tableColumn(namedSchool, "id"), namedSchid))
    .leftJoin(namedProvider, eq(tableColumn(namedProvider, "id"), namedSysid))
    .where(eq(sessions.tokenHash, tokenHash as string));
}

/** Prepared once per database, as every request runs it. */
function sessionQuery(db: Db) {
  return sessionStatement(db, sql.placeholder("tokenHash"), sql.placeholder("namedSchid"), sql.placeholder("namedSysid")).prepare("session_by_token");
}
const preparedSessionQueries = new WeakMap<Db, ReturnType<typeof sessionQuery>>();

export interface ResolvedSession {
  auth: Authority;
  tokenHash: string;
  /** the tenants the payload named, as found (null: no such record) */
  named: NamedTenants;
  /** the session's state as read (see sessionState) */
  state: string;
  /** its last use as written (a kept session's is written again by RecentSessions.touchIfDue) */
  lastSeenAt: Date;
  createdAt: Date;
}

/**
 * The authority of a live session, or null (unknown, revoked, idle too long or too old), with the school and
 * provider of `named` ids read in the same statement.
 */
export async function resolveSession(
  db: Db,
  token: string,
  now: Date,
  lifetime: SessionLifetime,
  named: { schid?: number; sysid?: number } = {},
): Promise<ResolvedSession | null> {
  if (!token || token.length > 200) return null;
  const tokenHash = hashToken(token);
  let query = preparedSessionQueries.get(db);
  if (!query) preparedSessionQueries.set(db, (query = sessionQuery(db)));
  const [row] = await query.execute({ tokenHash, namedSchid: named.schid ?? null, namedSysid: named.sysid ?? null });
  if (!row || row.session.revokedAt) return null;
  const { lastSeenAt, createdAt } = row.session;
  if (!liveAt(now, lifetime, lastSeenAt, createdAt)) return null;
  const touched = lastUseDue(lastSeenAt, now);
  if (touched) await touchSession(db, tokenHash, now);
  return {
    auth: authorityOf(row.user, row.provider, row.school, row.tenancy),
    tokenHash,
    named: {
      ...(named.schid === undefined ? {} : { school: { id: named.schid, facts: row.namedSchool ? schoolFacts(row.namedSchool) : null } }),
      ...(named.sysid === undefined ? {} : { provider: { id: named.sysid, facts: row.namedProvider ? providerFacts(row.namedProvider) : null } }),
    },
    state: row.state,
    lastSeenAt: touched ? now : lastSeenAt,
    createdAt,
  };
}

/** Whether a session's last use is to be written again (at most every LAST_SEEN_RESOLUTION_MS). */
function lastUseDue(lastSeenAt: Date, now: Date): boolean {
  return now.getTime() - lastSeenAt.getTime() >= LAST_SEEN_RESOLUTION_MS;
}

/**
 * Writes a session's last use, unless another call is writing it at this moment (the row is locked) or has just
 * written it. A session's concurrent calls all find its last use due at once; each waiting on the row for the one
 * before it to commit held every one of them up by all the others' commits.
 */
async function touchSession(db: Db, tokenHash: string, now: Date): Promise<void> {
  const due = new Date(now.getTime() - LAST_SEEN_RESOLUTION_MS);
  const free = db
    .select({ tokenHash: sessions.tokenHash })
    .from(sessions)
    .where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt), lte(sessions.lastSeenAt, due)))
    .for("update", { skipLocked: true });
  await db.update(sessions).set({ lastSeenAt: now }).where(inArray(sessions.tokenHash, free));
}

/** Whether a session last used and made at these times is alive: neither idle too long nor too old. */
function liveAt(now: Date, lifetime: SessionLifetime, lastSeenAt: Date, createdAt: Date): boolean {
  return lastSeenAt.getTime() >= now.getTime() - lifetime.idleMinutes * 60_000 && createdAt.getTime() >= now.getTime() - lifetime.maxHours * 3_600_000;
}

/**
 * The session's state read inside another statement (a list's page): its SQL, the same for every session of a
 * database, and the values of its placeholders for this session.
 */
export interface SessionStateRead {
  sql: SQL;
  values: Record<string, unknown>;
}

const stateReads = new WeakMap<object, SQL>();

/**
 * Sessions this process resolved lately, for reads that confirm them in their own statement (DESIGN 5 wants a
 * revocation to hold at once in every process): such a read runs with the session as it was resolved and also
 * reads the session's state (sessionState) in its statement, in the same snapshot as its rows; the answer stands
 * only if that state is the one resolved, else the call is made again from the session's own statement. A list
 * then costs one statement instead of two. A kept session's last use is written by the first of its calls that
 * finds it due (touchIfDue), while the others go on.
 */
export class RecentSessions {
  private readonly sessions = new Map<string, ResolvedSession>();
  /** last uses being written, by token: the session's other calls wait for the same write */
  private readonly touches = new Map<string, Promise<void>>();

  constructor(private readonly maxSessions = 10_000) {}

  private static key(tokenHash: string, named: { schid?: number; sysid?: number }): string {
    return `${tokenHash}|${named.schid ?? ""}|${named.sysid ?? ""}`;
  }

  /** The session resolved for this token and named tenants, while it is alive at `now`. */
  get(token: string, named: { schid?: number; sysid?: number }, now: Date, lifetime: SessionLifetime): ResolvedSession | undefined {
    if (!token || token.length > 200) return undefined;
    const key = RecentSessions.key(hashToken(token), named);
    const session = this.sessions.get(key);
    if (!session) return undefined;
    if (now < session.lastSeenAt || !liveAt(now, lifetime, session.lastSeenAt, session.createdAt)) {
      this.sessions.delete(key);
      return undefined;
    }
    return session;
  }

  /** Writes a kept session's last use when it is due, once for all of its calls at that moment. */
  async touchIfDue(db: Db, session: ResolvedSession, now: Date): Promise<void> {
    if (!lastUseDue(session.lastSeenAt, now)) return;
    let touch = this.touches.get(session.tokenHash);
    if (!touch) {
      touch = touchSession(db, session.tokenHash, now).finally(() => this.touches.delete(session.tokenHash));
      this.touches.set(session.tokenHash, touch);
    }
    await touch;
    if (session.lastSeenAt < now) session.lastSeenAt = now;
  }

  remember(session: ResolvedSession, named: { schid?: number; sysid?: number }): void {
    if (!session.auth.usable) return;
    if (this.sessions.size >= this.maxSessions) this.sessions.delete(this.sessions.keys().next().value as string);
    this.sessions.set(RecentSessions.key(session.tokenHash, named), session);
  }

  forget(session: ResolvedSession, named: { schid?: number; sysid?: number }): void {
    this.sessions.delete(RecentSessions.key(session.tokenHash, named));
  }

  /** The session's state as a statement reads it beside its own rows. */
  static stateRead(db: DbOrTx, session: ResolvedSession, named: { schid?: number; sysid?: number }): SessionStateRead {
    let read = stateReads.get(db);
    if (!read) {
      // the database computes only the state of the statement's columns
      const statement = sessionStatement(db, sql.placeholder("sessionToken"), sql.placeholder("sessionSchid"), sql.placeholder("sessionSysid"));
      stateReads.set(db, (read = sql`(select s.session_state from (${statement}) s)`));
    }
    return { sql: read, values: { sessionToken: session.tokenHash, sessionSchid: named.schid ?? null, sessionSysid: named.sysid ?? null } };
  }
}

export async function revokeSession(db: DbOrTx, tokenHash: string, now: Date): Promise<void> {
  await db.update(sessions).set({ revokedAt: now }).where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt)));
}

/** Revokes every live session of a user, except the one named (the caller's own, after a password change). */
export async function revokeUserSessions(db: DbOrTx, userId: number, now: Date, exceptTokenHash?: string): Promise<void> {
  const conditions = [eq(sessions.userId, userId), isNull(sessions.revokedAt)];
  if (exceptTokenHash) conditions.push(ne(sessions.tokenHash, exceptTokenHash));
  await db.update(sessions).set({ revokedAt: now }).where(and(...conditions));
}

/**
 * Revokes every live session of a school's own accounts (the school was disabled): for good, so that enabling the
 * school again brings none of them back.
 */
export async function revokeSchoolSessions(db: DbOrTx, schId: number, now: Date): Promise<void> {
  const schoolUsers = db.select({ id: users.id }).from(users).where(eq(users.schid, schId));
  await db.update(sessions).set({ revokedAt: now }).where(and(inArray(sessions.userId, schoolUsers), isNull(sessions.revokedAt)));
}

/** Revokes every live session of the users of a provider (the provider was disabled). */
export async function revokeProviderSessions(db: DbOrTx, sysid: number, now: Date): Promise<void> {
  const providerUsers = db.select({ id: users.id }).from(users).where(eq(users.sysid, sysid));
  await db.update(sessions).set({ revokedAt: now }).where(and(inArray(sessions.userId, providerUsers), isNull(sessions.revokedAt)));
}
