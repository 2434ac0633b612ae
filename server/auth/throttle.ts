/**
 * Throttling of password checks (logins and password changes, per username and per IP) and of activation-code
 * attempts (per user and per IP), kept in the database so every server process counts the same attempts.
 *
 * An attempt is counted before the password or code is checked, by one atomic upsert per key that also answers
 * whether it may go ahead: however many requests arrive at once, no more than `maxFailures` checks happen per
 * key and window. An attempt that turns out right is given back (a successful login clears its username), so the
 * count is of failures and of checks still running. Attempts beyond the count while checks are still running
 * are refused for a moment (BUSY_MS) without a lock, so that people logging in together are not locked out; a
 * failure that finds the count used up locks the key. Each lock in a row lasts twice as long as the last, never
 * longer than `maxLockMs`, and refused attempts neither count nor extend it.
 */
import { sql, type SQL } from "drizzle-orm";
import { queryRows, type DbOrTx } from "../db/client";
import { normaliseUsername } from "./usernames";

export interface ThrottleRule {
  /** attempts allowed within the window (failed or still being checked) */
  maxFailures: number;
  windowMs: number;
  /** the first lock (> 0); each further lock in a row doubles it */
  firstLockMs: number;
  /** the longest lock; a lock that ended this long ago no longer makes the next one longer */
  maxLockMs: number;
}

export interface ThrottleRules {
  perUsername: ThrottleRule;
  /** generous and short: many people may share an address (a school behind one NAT) */
  perIp: ThrottleRule;
  /** wrong activation codes per user (guessing codes); per IP the perIp rule counts them apart from logins */
  perRedeemer: ThrottleRule;
}

export const DEFAULT_THROTTLE: ThrottleRules = {
  perUsername: { maxFailures: 5, windowMs: 60_000, firstLockMs: 60_000, maxLockMs: 3_600_000 },
  perIp: { maxFailures: 30, windowMs: 60_000, firstLockMs: 30_000, maxLockMs: 300_000 },
  perRedeemer: { maxFailures: 10, windowMs: 60_000, firstLockMs: 60_000, maxLockMs: 3_600_000 },
};

/** how long an attempt waits while the key's checks are all still running */
export const BUSY_MS = 1000;

export interface ThrottleKey {
  key: string;
  rule: ThrottleRule;
}

/** An account's key: its username in the form accounts are matched by, so every spelling of it counts together. */
export function usernameKey(username: string): string {
  return `user:${normaliseUsername(username)}`;
}

export function ipKey(ip: string): string {
  return `ip:${ip}`;
}

const millis = (ms: number) => sql`(${ms}::double precision * interval '1 millisecond')`;

/** Counts one attempt on the key if it may go ahead: 0, else the milliseconds it stays locked. */
async function reserveAttempt(db: DbOrTx, key: string, rule: ThrottleRule, now: Date): Promise<number> {
  const at = sql`${now.toISOString()}::timestamptz`;
  // times beyond the rule's reach (a clock set back, or another server's clock far ahead of ours) end the lock or
  // window; a window started a little after this request's time is still its window: requests of one burst reach the
  // database out of the order of their arrival, and a window restarted by each late one would allow more checks
  const locked = sql`coalesce(t.locked_until > ${at} and t.locked_until <= ${at} + ${millis(rule.maxLockMs)}, false)`;
  const windowOver = sql`(t.window_start <= ${at} - ${millis(rule.windowMs)} or t.window_start > ${at} + ${millis(rule.windowMs)})`;
  const room = sql`t.failures < ${rule.maxFailures}::integer`;
  const counts = sql`(${locked} or ${windowOver} or ${room})`;
  // locked: nothing changes; a window over: a new one starts with this attempt; room left: counted; else: busy
  // for a moment (the count may be checks still running, which a lock would wrongly punish)
  const [row] = await queryRows<{ locked_until: Date | string | null; lock_count: number }>(
    db,
    sql`insert into login_throttle as t (key, failures, window_start, lock_count) values (${key}, 1, ${at}, 0)
        on conflict (key) do update set
          failures = case when ${locked} then t.failures when ${windowOver} then 1 when ${room} then t.failures + 1 else t.failures end,
          window_start = case when ${locked} then t.window_start when ${windowOver} then ${at} else t.window_start end,
          locked_until = case when ${counts} then t.locked_until else ${at} + ${millis(BUSY_MS)} end
        returning locked_until, lock_count`,
  );
  const lockedUntil = row.locked_until === null ? 0 : new Date(row.locked_until).getTime();
  if (lockedUntil <= now.getTime() || lockedUntil > now.getTime() + rule.maxLockMs) return 0;
  // a request that came in before the one that set the lock is told no longer than the lock lasts
  const lockLength = Math.max(BUSY_MS, Math.min(rule.firstLockMs * 2 ** Math.min(Number(row.lock_count) - 1, 40), rule.maxLockMs));
  return Math.min(lockedUntil - now.getTime(), lockLength);
}

/**
 * A check failed: when the key's attempts are used up, it is locked, once however many of them fail together
 * (the lock sets the count back to 0, and a locked key counts nothing).
 */
async function lockIfExhausted(db: DbOrTx, key: string, rule: ThrottleRule, now: Date): Promise<void> {
  const at = sql`${now.toISOString()}::timestamptz`;
  const locksInARow = sql`(case when t.locked_until > ${at} - ${millis(rule.maxLockMs)} then t.lock_count else 0 end)`;
  const lockMs = sql`least(${rule.firstLockMs}::double precision * power(2, least(${locksInARow}, 40)), ${rule.maxLockMs}::double precision)`;
  await db.execute(
    sql`update login_throttle as t set
          locked_until = ${at} + ${lockMs} * interval '1 millisecond',
          lock_count = ${locksInARow} + 1,
          failures = 0,
          window_start = ${at}
        where t.key = ${key} and t.failures >= ${rule.maxFailures}::integer`,
  );
}

/** The check of a reserved attempt failed: its count stays, and each key whose attempts are used up is locked. */
export async function recordFailures(db: DbOrTx, keys: ThrottleKey[], now: Date): Promise<void> {
  for (const { key, rule } of keys) await lockIfExhausted(db, key, rule, now);
}

/**
 * Counts one attempt on every key, in order, before anything is checked: 0 when the attempt may go ahead, else the
 * milliseconds to wait, and then nothing stays counted (a key refused does not use up the others').
 */
export async function reserveAttempts(db: DbOrTx, keys: ThrottleKey[], now: Date): Promise<number> {
  for (let i = 0; i < keys.length; i++) {
    const lockedMs = await reserveAttempt(db, keys[i].key, keys[i].rule, now);
    if (lockedMs > 0) {
      await releaseAttempts(db, keys.slice(0, i).map((k) => k.key));
      return lockedMs;
    }
  }
  return 0;
}

/**
 * The statement giving an attempt of the key back, when `only` holds: a check that is itself a statement gives its
 * attempt back within it (a data-modifying WITH), sparing a round trip.
 */
export function attemptGivenBack(key: string, only?: SQL): SQL {
  return sql`update login_throttle set failures = greatest(failures - 1, 0) where key = ${key}${only ? sql` and ${only}` : sql``}`;
}

/** Gives attempts back that turned out right (or were never checked). */
export async function releaseAttempts(db: DbOrTx, keys: string[]): Promise<void> {
  for (const key of keys) await db.execute(attemptGivenBack(key));
}

/**
 * Whether the key failed lately: failures counted in its window, a lock now, or a lock that ended less than the
 * rule's longest lock ago (what would make its next lock longer).
 */
export async function failedLately(db: DbOrTx, key: string, rule: ThrottleRule, now: Date): Promise<boolean> {
  const at = sql`${now.toISOString()}::timestamptz`;
  const rows = await queryRows<{ key: string }>(
    db,
    sql`select key from login_throttle as t where t.key = ${key} and (
          (t.failures > 0 and t.window_start > ${at} - ${millis(rule.windowMs)} and t.window_start <= ${at} + ${millis(rule.windowMs)})
          or (t.lock_count > 0 and t.locked_until > ${at} - ${millis(rule.maxLockMs)} and t.locked_until <= ${at} + ${millis(rule.maxLockMs)}))`,
  );
  return rows.length > 0;
}

/** Forgets the keys with this prefix whose window and lock ended before `before` (they count nothing any more). */
export async function pruneThrottle(db: DbOrTx, prefix: string, before: Date): Promise<number> {
  const at = sql`${before.toISOString()}::timestamptz`;
  const rows = await queryRows<{ key: string }>(
    db,
    sql`delete from login_throttle where starts_with(key, ${prefix}) and window_start < ${at} and (locked_until is null or locked_until < ${at}) returning key`,
  );
  return rows.length;
}

/** A successful login (or a proven password) clears the username's failures and lock history. */
export async function clearFailures(db: DbOrTx, key: string): Promise<void> {
  await db.execute(sql`delete from login_throttle where key = ${key}`);
}
