/**
 * Throttling under concurrency (DESIGN 5): attempts are counted before the password is checked, so a burst of
 * simultaneous requests gets no more password checks than the rules allow, the right password inside the burst
 * is refused like the rest, other accounts behind the same address are not shut out, and no lock outlasts the
 * rule's cap. The same holds for the password change of a logged-in user. People logging in together with the
 * right password are told to try again in a moment, never locked out.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PasswordHasher } from "../../server/auth/passwords";
import { DEFAULT_THROTTLE, failedLately, pruneThrottle, recordFailures, releaseAttempts, reserveAttempts, type ThrottleRule } from "../../server/auth/throttle";
import type { Db } from "../../server/db/client";
import { auditLog, loginThrottle } from "../../server/db/schema";
import type { Envelope } from "../../server/protocol/envelope";
import { describeOnDatabases, seededServerDatabase } from "../helpers/db";
import { startTestServer, type TestServer } from "../helpers/server";
import { TEST_PASSWORD_COST, createTestApp, type TestApp } from "./support";

const WRONG = "用户名或密码错误";
const locked = (seconds: number) => `登录失败次数过多，请在 ${seconds} 秒后再试`;
const SECONDS = /(\d+) 秒后再试$/;
/** refused before any check: busy while the allowed checks still run (1 s), or locked once they failed */
const refused = (r: Envelope) => r.return_code === "FAIL" && SECONDS.test(r.return_msg);

const realVerify = PasswordHasher.prototype.verify;

/** Polls until the condition holds. */
async function until(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** password checks made (a check for an unknown user counts too: it verifies against a dummy hash) */
let checks: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  checks = vi.spyOn(PasswordHasher.prototype, "verify");
});
afterEach(() => {
  checks.mockRestore();
});

async function auditCount(db: Db, username: string, action: string): Promise<number> {
  return (await db.select().from(auditLog).where(and(eq(auditLog.username, username), eq(auditLog.action, action)))).length;
}

async function lockedUntil(db: Db, key: string): Promise<Date | null> {
  const [row] = await db.select().from(loginThrottle).where(eq(loginThrottle.key, key));
  return row?.lockedUntil ?? null;
}

describeOnDatabases("login throttling under concurrency", (kind) => {
  const apps: TestApp[] = [];
  const app = async (throttle = DEFAULT_THROTTLE) => {
    const t = await createTestApp(kind, { throttle });
    apps.push(t);
    return t;
  };
  afterAll(async () => {
    for (const t of apps) await t.close();
  });
  const login = (t: TestApp, username: string, password: string) => t.call("adminapi", "login", { username, password });

  it("checks at most five passwords of a burst of 50 wrong ones, refuses the right one sent with them, and keeps the address open", async () => {
    const t = await app();
    const before = await auditCount(t.db, "sysadmin", "login_failed");
    checks.mockClear();
    const burst = await Promise.all([...Array.from({ length: 50 }, () => login(t, "sysadmin", "wrong-password")), login(t, "sysadmin", "demo1234")]);

    expect(checks).toHaveBeenCalledTimes(DEFAULT_THROTTLE.perUsername.maxFailures);
    expect((await auditCount(t.db, "sysadmin", "login_failed")) - before).toBe(DEFAULT_THROTTLE.perUsername.maxFailures);
    expect(burst.filter((r) => r.return_msg === WRONG)).toHaveLength(DEFAULT_THROTTLE.perUsername.maxFailures);
    expect(burst.filter(refused)).toHaveLength(51 - DEFAULT_THROTTLE.perUsername.maxFailures);
    expect(refused(burst.at(-1)!)).toBe(true);
    // the failures lock the account for the rule's first lock
    expect((await lockedUntil(t.db, "user:sysadmin"))!.getTime() - t.clock.now().getTime()).toBe(60_000);
    expect(await login(t, "sysadmin", "demo1234")).toEqual({ return_code: "FAIL", return_msg: locked(60) });

    // another account behind the same address is not shut out, and the locked one opens again after its minute
    await expect(t.login("sysop")).resolves.toBeTruthy();
    t.clock.advance(60_001);
    await expect(t.login("sysadmin")).resolves.toBeTruthy();
  });

  it("never locks out people who log in together with the right password: the ones over the count try again in a moment", async () => {
    const t = await app();
    const together = await Promise.all(Array.from({ length: 16 }, () => login(t, "svc", "demo1234")));
    expect(together.filter((r) => r.return_code === "SUCCESS").length).toBeGreaterThanOrEqual(DEFAULT_THROTTLE.perUsername.maxFailures);
    expect(together.every((r) => r.return_code === "SUCCESS" || r.return_msg === locked(1))).toBe(true);
    // nothing is locked: a second later everyone gets in, and the address keeps its whole allowance
    t.clock.advance(1_001);
    expect((await Promise.all(Array.from({ length: 5 }, () => login(t, "svc", "demo1234")))).every((r) => r.return_code === "SUCCESS")).toBe(true);
    expect(await lockedUntil(t.db, "user:svc")).toBeNull();
    expect((await t.db.select().from(loginThrottle).where(eq(loginThrottle.key, "ip:127.0.0.1")))[0]?.failures ?? 0).toBe(0);
  });

  it("counts wrong logins across accounts from one address up to the address's limit, with a short lock", async () => {
    const perIp: ThrottleRule = { maxFailures: 5, windowMs: 60_000, firstLockMs: 30_000, maxLockMs: 60_000 };
    const t = await app({ ...DEFAULT_THROTTLE, perIp });
    checks.mockClear();
    const burst = await Promise.all(Array.from({ length: 30 }, (_, i) => login(t, `nobody${i}`, "wrong-password")));
    expect(checks).toHaveBeenCalledTimes(perIp.maxFailures);
    expect(burst.filter((r) => r.return_msg === WRONG)).toHaveLength(perIp.maxFailures);
    expect(burst.filter(refused)).toHaveLength(30 - perIp.maxFailures);
    // an attempt the address refused is not left counted against its account
    const counted = await t.db.select().from(loginThrottle);
    expect(counted.filter((row) => row.key.startsWith("user:nobody")).reduce((sum, row) => sum + row.failures, 0)).toBe(perIp.maxFailures);
    expect(await login(t, "staff", "demo1234")).toEqual({ return_code: "FAIL", return_msg: locked(30) });
    t.clock.advance(30_001);
    await expect(t.login("staff")).resolves.toBeTruthy();
  });

  it("keeps counting in the window a request with a slightly later time started: a burst reaches the database out of order", async () => {
    const t = await app();
    checks.mockClear();
    for (let i = 0; i < 3; i++) expect((await login(t, "sysv1", "wrong-password")).return_msg).toBe(WRONG);
    // the next requests carry a time 50 ms before the window's start, as a request that arrived first but reached
    // the database last does
    t.clock.advance(-50);
    const late = [];
    for (let i = 0; i < 7; i++) late.push(await login(t, "sysv1", "wrong-password"));
    expect(checks).toHaveBeenCalledTimes(DEFAULT_THROTTLE.perUsername.maxFailures);
    expect(late.filter((r) => r.return_msg === WRONG)).toHaveLength(DEFAULT_THROTTLE.perUsername.maxFailures - 3);
    // the failures locked the account for its minute; then the right password gets in
    t.clock.advance(120_000);
    expect(await login(t, "sysv1", "demo1234")).toMatchObject({ return_code: "SUCCESS" });
  });

  it("never locks longer than the rule's cap, and refused attempts do not extend a lock", async () => {
    const perUsername: ThrottleRule = { maxFailures: 3, windowMs: 60_000, firstLockMs: 60_000, maxLockMs: 90_000 };
    const t = await app({ ...DEFAULT_THROTTLE, perUsername });
    const burst = () => Promise.all(Array.from({ length: 20 }, () => login(t, "school", "wrong-password")));
    const lockLeft = async () => (await lockedUntil(t.db, "user:school"))!.getTime() - t.clock.now().getTime();

    await burst();
    expect(await lockLeft()).toBe(60_000);
    const firstLock = await lockedUntil(t.db, "user:school");
    t.clock.advance(30_000);
    const during = await burst();
    expect(during.every((r) => r.return_msg === locked(30))).toBe(true);
    expect(await lockedUntil(t.db, "user:school")).toEqual(firstLock);

    for (let round = 0; round < 3; round++) {
      t.clock.advance(90_001);
      checks.mockClear();
      await burst();
      expect(checks).toHaveBeenCalledTimes(perUsername.maxFailures);
      // 60 s doubled would be 120 s, 240 s...: capped at 90 s
      expect(await lockLeft()).toBe(90_000);
      expect(await login(t, "school", "demo1234")).toEqual({ return_code: "FAIL", return_msg: locked(90) });
    }
    // a clock set back (or another server's clock running ahead) cannot stretch a lock past the cap either
    t.clock.advance(-60_000);
    await expect(t.login("school")).resolves.toBeTruthy();
  });

  it("tells whether a key failed lately, and forgets the keys of a prefix whose window and lock are over, no others", async () => {
    const t = await app();
    const rule: ThrottleRule = { maxFailures: 2, windowMs: 60_000, firstLockMs: 60_000, maxLockMs: 600_000 };
    const now = t.clock.now();
    const at = (ms: number) => new Date(now.getTime() + ms);
    const fail = async (key: string) => {
      expect(await reserveAttempts(t.db, [{ key, rule }], now)).toBe(0);
      await recordFailures(t.db, [{ key, rule }], now);
    };
    expect(await failedLately(t.db, "h5find:a", rule, now)).toBe(false);
    // an attempt given back is no failure
    expect(await reserveAttempts(t.db, [{ key: "h5find:a", rule }], now)).toBe(0);
    await releaseAttempts(t.db, ["h5find:a"]);
    expect(await failedLately(t.db, "h5find:a", rule, now)).toBe(false);
    // a failure, for its window
    await fail("h5find:a");
    expect(await failedLately(t.db, "h5find:a", rule, at(59_999))).toBe(true);
    expect(await failedLately(t.db, "h5find:a", rule, at(60_000))).toBe(false);
    // a lock, while it lasts and for the longest lock after it
    await fail("h5find:b");
    await fail("h5find:b");
    expect(await lockedUntil(t.db, "h5find:b")).toEqual(at(60_000));
    expect(await failedLately(t.db, "h5find:b", rule, at(60_000 + 599_999))).toBe(true);
    expect(await failedLately(t.db, "h5find:b", rule, at(60_000 + 600_000))).toBe(false);
    await fail("user:c");
    const keys = async () => (await t.db.select({ key: loginThrottle.key }).from(loginThrottle)).map((r) => r.key).filter((k) => /^(h5find:[ab]|user:c)$/.test(k)).sort();
    expect(await pruneThrottle(t.db, "h5", at(30_000))).toBe(1);
    expect(await keys()).toEqual(["h5find:b", "user:c"]);
    expect(await pruneThrottle(t.db, "h5", at(60_001))).toBe(1);
    expect(await keys()).toEqual(["user:c"]);
  });

  it("checks at most five current passwords of a burst sent with one session, and refuses the right one sent with them", async () => {
    const t = await app();
    const token = await t.login("schoolv1");
    const change = (password1: string) => t.call("adminapiv2", "sysusereditpassword", { password1, password2: "new-secret", password3: "new-secret" }, { token });
    checks.mockClear();
    const burst = await Promise.all([...Array.from({ length: 30 }, () => change("guess")), change("demo1234")]);

    expect(checks).toHaveBeenCalledTimes(DEFAULT_THROTTLE.perUsername.maxFailures);
    expect(await auditCount(t.db, "schoolv1", "password_change_failed")).toBe(DEFAULT_THROTTLE.perUsername.maxFailures);
    expect(burst.filter((r) => r.return_msg === "当前密码不正确")).toHaveLength(DEFAULT_THROTTLE.perUsername.maxFailures);
    expect(burst.at(-1)).toMatchObject({ return_code: "FAIL", return_msg: expect.stringMatching(/^密码错误次数过多，请在 \d+ 秒后再试$/) });
    expect(await change("demo1234")).toMatchObject({ return_msg: "密码错误次数过多，请在 60 秒后再试" });
    const english = await t.call("adminapiv2", "sysusereditpassword", { password1: "demo1234", password2: "x", password3: "x" }, { token, headers: { "accept-language": "en" } });
    expect(english.return_msg).toBe("Too many wrong passwords, please try again in 60 seconds");
    // one allowance per account: the guesses count against its logins too
    expect(await login(t, "schoolv1", "demo1234")).toEqual({ return_code: "FAIL", return_msg: locked(60) });

    t.clock.advance(60_001);
    expect(await change("demo1234")).toEqual({ return_code: "SUCCESS", return_msg: "密码修改成功" });
    await expect(t.login("schoolv1", "new-secret")).resolves.toBeTruthy();
  });
});

describeOnDatabases("login throttling over a loopback port", (kind) => {
  let server: TestServer;
  let database: Awaited<ReturnType<typeof seededServerDatabase>> | undefined;
  afterAll(async () => {
    await server?.close();
    await database?.dispose();
  });

  it("checks at most five of 50 wrong logins sent at once and refuses the right password sent while they are checked", async () => {
    // the real server on a copy of the seeded demo (seeding it here would take longer than the test)
    database = await seededServerDatabase(kind);
    server = await startTestServer({ databaseUrl: database.databaseUrl, dataDir: database.dataDir, seedDemo: false, passwordCost: TEST_PASSWORD_COST, staticDir: null });
    const db = server.server.database.db;
    const login = async (username: string, password: string) => {
      const res = await fetch(`${server.url}/weapi/adminapi`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ method: "login", username, password }) });
      return (await res.json()) as Envelope;
    };
    // the checks that go ahead are held until the right password has been sent, so it meets them all in progress
    let openGate!: () => void;
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    checks.mockImplementation(async function (this: PasswordHasher, hash: string, password: string) {
      await gate;
      return realVerify.call(this, hash, password);
    });
    const max = DEFAULT_THROTTLE.perUsername.maxFailures;
    const answered: Envelope[] = [];
    const wrong = Array.from({ length: 50 }, () => login("sysv1", "wrong-password").then((r) => (answered.push(r), r)));
    await until(() => checks.mock.calls.length === max && answered.length === 50 - max, "the burst to be counted");
    const right = await login("sysv1", "demo1234");
    openGate();
    const burst = await Promise.all(wrong);

    // while the allowed checks run, the rest is told to try again in a moment; once they failed, the lock
    // (a second at most, counted from the request's arrival on the real clock)
    const busy = /^登录失败次数过多，请在 [12] 秒后再试$/;
    expect(right).toEqual({ return_code: "FAIL", return_msg: expect.stringMatching(busy) });
    expect(checks).toHaveBeenCalledTimes(max);
    expect(await auditCount(db, "sysv1", "login_failed")).toBe(max);
    expect(burst.filter((r) => r.return_msg === WRONG)).toHaveLength(max);
    expect(burst.filter((r) => busy.test(r.return_msg))).toHaveLength(50 - max);
    expect((await login("sysv1", "demo1234")).return_msg).toMatch(/^登录失败次数过多，请在 (5\d|60) 秒后再试$/);
    expect((await login("svcv1", "demo1234")).return_code).toBe("SUCCESS");
  });
});

describe("the default rules", () => {
  it("keep the address's allowance well above an account's, and its lock short", () => {
    const { perUsername, perIp } = DEFAULT_THROTTLE;
    expect(perIp.maxFailures).toBeGreaterThanOrEqual(5 * perUsername.maxFailures);
    expect(perIp.maxLockMs).toBeLessThanOrEqual(5 * 60_000);
  });
});
