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
import { authorityColumns, authorityOf, type Authority } from "./authority";

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

/** The session with its user, provider and school: one prepared statement, as every request runs it. */
function sessionQuery(db: Db) {
  return db
    .select({ session: { revokedAt: sessions.revokedAt, lastSeenAt: sessions.lastSeenAt, createdAt: sessions.createdAt }, ...authorityColumns })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(providers, eq(tableColumn(providers, "id"), users.sysid))
    .leftJoin(schools, eq(tableColumn(schools, "id"), users.schid))
    .where(eq(sessions.tokenHash, sql.placeholder("tokenHash")))
    .prepare("session_by_token");
}
const preparedSessionQueries = new WeakMap<Db, ReturnType<typeof sessionQuery>>();

/** The authority of a live session, or null (unknown, revoked, idle too long or too old). */
export async function resolveSession(db: Db, token: string, now: Date, lifetime: SessionLifetime): Promise<{ auth: Authority; tokenHash: string } | null> {
  if (!token || token.length > 200) return null;
  const tokenHash = hashToken(token);
  let query = preparedSessionQueries.get(db);
  if (!query) preparedSessionQueries.set(db, (query = sessionQuery(db)));
  const [row] = await query.execute({ tokenHash });
  if (!row || row.session.revokedAt) return null;
  const { lastSeenAt, createdAt } = row.session;
  const idleLimit = now.getTime() - lifetime.idleMinutes * 60_000;
  const ageLimit = now.getTime() - lifetime.maxHours * 3_600_000;
  if (lastSeenAt.getTime() < idleLimit || createdAt.getTime() < ageLimit) return null;
  if (now.getTime() - lastSeenAt.getTime() >= LAST_SEEN_RESOLUTION_MS) {
    await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.tokenHash, tokenHash));
  }
  return { auth: authorityOf(row.user, row.provider, row.school), tokenHash };
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

/** Revokes every live session of the users of a provider (the provider was disabled). */
export async function revokeProviderSessions(db: DbOrTx, sysid: number, now: Date): Promise<void> {
  const providerUsers = db.select({ id: users.id }).from(users).where(eq(users.sysid, sysid));
  await db.update(sessions).set({ revokedAt: now }).where(and(inArray(sessions.userId, providerUsers), isNull(sessions.revokedAt)));
}
