/**
 * Sessions (DESIGN 5): a 32-byte random token (base64url) given to the client, only its SHA-256 stored. A
 * session ends after SESSION_IDLE_MINUTES without use, SESSION_MAX_HOURS after login, or when revoked; every
 * request reads the session from the database, so revocation holds in every server process.
 */
import { createHash, randomBytes } from "node:crypto";
import { and, eq, inArray, isNull, ne, sql } from "drizzle-orm";
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

/**
 * The session with its user, provider and school, and the school and provider the payload names (`sch_id`,
 * `sysid`) for the scope check: one prepared statement, as every request runs it.
 */
function sessionQuery(db: Db) {
  return db
    .select({
      session: { revokedAt: sessions.revokedAt, lastSeenAt: sessions.lastSeenAt, createdAt: sessions.createdAt },
      ...authorityColumns,
      namedSchool: columnsOf(namedSchool, SCHOOL_FACT_COLUMNS),
      namedProvider: columnsOf(namedProvider, PROVIDER_FACT_COLUMNS),
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(providers, eq(tableColumn(providers, "id"), users.sysid))
    .leftJoin(schools, eq(tableColumn(schools, "id"), users.schid))
    .leftJoin(namedSchool, eq(tableColumn(namedSchool, "id"), sql.placeholder("namedSchid")))
    .leftJoin(namedProvider, eq(tableColumn(namedProvider, "id"), sql.placeholder("namedSysid")))
    .where(eq(sessions.tokenHash, sql.placeholder("tokenHash")))
    .prepare("session_by_token");
}
const preparedSessionQueries = new WeakMap<Db, ReturnType<typeof sessionQuery>>();

export interface ResolvedSession {
  auth: Authority;
  tokenHash: string;
  /** the tenants the payload named, as found (null: no such record) */
  named: NamedTenants;
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
  const idleLimit = now.getTime() - lifetime.idleMinutes * 60_000;
  const ageLimit = now.getTime() - lifetime.maxHours * 3_600_000;
  if (lastSeenAt.getTime() < idleLimit || createdAt.getTime() < ageLimit) return null;
  if (now.getTime() - lastSeenAt.getTime() >= LAST_SEEN_RESOLUTION_MS) {
    await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.tokenHash, tokenHash));
  }
  return {
    auth: authorityOf(row.user, row.provider, row.school, row.tenancy),
    tokenHash,
    named: {
      ...(named.schid === undefined ? {} : { school: { id: named.schid, facts: row.namedSchool ? schoolFacts(row.namedSchool) : null } }),
      ...(named.sysid === undefined ? {} : { provider: { id: named.sysid, facts: row.namedProvider ? providerFacts(row.namedProvider) : null } }),
    },
  };
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
