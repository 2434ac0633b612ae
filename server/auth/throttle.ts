/**
 * Throttling of logins (per username and per IP) and of activation-code attempts (per user and per IP), kept
 * in the database so every server process counts the same failures. Too many failures within a minute lock the
 * key; each further lock lasts twice as long (capped).
 */
import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { loginThrottle } from "../db/schema";

export interface ThrottleRule {
  /** failures allowed within the window before a lock */
  maxFailures: number;
  windowMs: number;
  firstLockMs: number;
  maxLockMs: number;
}

export interface ThrottleRules {
  perUsername: ThrottleRule;
  perIp: ThrottleRule;
  /** wrong activation codes per user (guessing codes); per IP the perIp rule counts them apart from logins */
  perRedeemer: ThrottleRule;
}

export const DEFAULT_THROTTLE: ThrottleRules = {
  perUsername: { maxFailures: 5, windowMs: 60_000, firstLockMs: 60_000, maxLockMs: 3_600_000 },
  perIp: { maxFailures: 30, windowMs: 60_000, firstLockMs: 60_000, maxLockMs: 3_600_000 },
  perRedeemer: { maxFailures: 10, windowMs: 60_000, firstLockMs: 60_000, maxLockMs: 3_600_000 },
};

export function usernameKey(username: string): string {
  return `user:${username.toLowerCase()}`;
}

export function ipKey(ip: string): string {
  return `ip:${ip}`;
}

/** Milliseconds the key stays locked, or 0 when it is free. */
export async function lockRemainingMs(db: Db, keys: string[], now: Date): Promise<number> {
  let remaining = 0;
  for (const key of keys) {
    const [row] = await db.select({ lockedUntil: loginThrottle.lockedUntil }).from(loginThrottle).where(eq(loginThrottle.key, key));
    if (row?.lockedUntil && row.lockedUntil > now) remaining = Math.max(remaining, row.lockedUntil.getTime() - now.getTime());
  }
  return remaining;
}

/** Counts a failed login on the key; locks it when the rule's limit is reached. */
export async function recordFailure(db: Db, key: string, rule: ThrottleRule, now: Date): Promise<void> {
  const windowStartLimit = sql`${new Date(now.getTime() - rule.windowMs).toISOString()}::timestamptz`;
  const nowValue = sql`${now.toISOString()}::timestamptz`;
  // one atomic upsert: a new window starts when the old one has passed
  const [row] = await db
    .insert(loginThrottle)
    .values({ key, failures: 1, windowStart: now })
    .onConflictDoUpdate({
      target: loginThrottle.key,
      set: {
        failures: sql`case when ${loginThrottle.windowStart} < ${windowStartLimit} then 1 else ${loginThrottle.failures} + 1 end`,
        windowStart: sql`case when ${loginThrottle.windowStart} < ${windowStartLimit} then ${nowValue} else ${loginThrottle.windowStart} end`,
      },
    })
    .returning();
  if (row.failures < rule.maxFailures) return;
  const lockMs = Math.min(rule.firstLockMs * 2 ** row.lockCount, rule.maxLockMs);
  await db
    .update(loginThrottle)
    .set({ failures: 0, windowStart: now, lockedUntil: new Date(now.getTime() + lockMs), lockCount: row.lockCount + 1 })
    .where(eq(loginThrottle.key, key));
}

/** A successful login clears the username's failures and lock history. */
export async function clearFailures(db: Db, key: string): Promise<void> {
  await db.delete(loginThrottle).where(eq(loginThrottle.key, key));
}
