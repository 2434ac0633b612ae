/**
 * Background jobs (server/jobs/): a job runs once, stores its progress and result, is retried and then failed
 * with its error, is picked up again when its run's lease runs out, and runs exactly once when several workers
 * (on PostgreSQL each with its own connections, as several server processes would) race over many; a recurring
 * kind stays enqueued once across workers. The first job closes unpaid orders after their timeout, asking the
 * gateway first: an order the sandbox was paid for without notifying the console is applied, not closed.
 */
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database, type Db } from "../../server/db/client";
import { auditLog, jobs, paymentOrders, providers, schools } from "../../server/db/schema";
import { tableColumn } from "../../server/db/catalogueTables";
import { CLOSE_EXPIRED_ORDERS } from "../../server/jobs/closeExpiredOrders";
import { JobKinds, type JobHandler, type JobKindOptions, type JobLog } from "../../server/jobs/registry";
import { PRUNE_FINISHED_JOBS, pruneFinishedJobs } from "../../server/jobs/pruneFinishedJobs";
import { enqueueJob, JobWorker } from "../../server/jobs/worker";
import { ManualClock } from "../../server/lib/clock";
import { ORDER_PAYABLE_MS } from "../../server/payments/orders";
import { PaymentSecrets } from "../../server/payments/secrets";
import { startServer } from "../../server/start";
import { createTestDatabase, describeOnDatabases, describeOnEmbedded, pgliteImage, type TestDatabase } from "../helpers/db";
import { createTestApp, idByTitle, type TestApp } from "./support";

type Row = Record<string, unknown>;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** lets the other workers' pending statements and callbacks run before this one goes on */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

interface LogEntry {
  level: "info" | "warn" | "error";
  fields: Row;
  msg?: string;
}
function capturingLog(entries: LogEntry[]): JobLog {
  return {
    info: (fields, msg) => entries.push({ level: "info", fields: fields as Row, msg }),
    warn: (fields, msg) => entries.push({ level: "warn", fields: fields as Row, msg }),
    error: (fields, msg) => entries.push({ level: "error", fields: fields as Row, msg }),
  };
}

describeOnDatabases("background jobs", (kind) => {
  let testDb: TestDatabase;
  let db: Db;
  const clock = new ManualClock(new Date("2026-03-02T02:00:00Z"));
  /** other connections to the same database: on PostgreSQL each worker gets its own pool, as a process would */
  const extra: Database[] = [];

  const kindsWith = (name: string, handler: JobHandler, options?: JobKindOptions) => {
    const kinds = new JobKinds();
    kinds.register(name, handler, options);
    return kinds;
  };
  const workerOn = (workerDb: Db, kinds: JobKinds, log?: JobLog, id?: string) =>
    new JobWorker({ services: { db: workerDb, clock, paymentSecrets: new PaymentSecrets() }, kinds, log, id });
  /** n workers, each with its own connections on PostgreSQL, all in this process on PGlite */
  const workers = async (n: number, kinds: JobKinds) => {
    const out: JobWorker[] = [];
    for (let i = 0; i < n; i++) {
      let workerDb = db;
      if (kind === "postgres") {
        const other = await openDatabase({ kind: "postgres", url: testDb.url!, poolSize: 2 });
        extra.push(other);
        workerDb = other.db;
      }
      out.push(workerOn(workerDb, kinds, undefined, `worker-${i}`));
    }
    return out;
  };
  const jobRow = async (id: number) => (await db.select().from(jobs).where(eq(jobs.id, id)))[0];
  const enqueue = (name: string, payload: Row = {}, runAt?: Date) => enqueueJob(db, name, payload, { now: clock.now(), runAt }) as Promise<number>;

  beforeAll(async () => {
    testDb = await createTestDatabase(kind);
    db = testDb.database.db;
  });
  afterAll(async () => {
    for (const other of extra) await other.close();
    await testDb?.dispose();
  });

  it("runs a due job once, storing its progress while it runs and its result", async () => {
    const seen: Row[] = [];
    const kinds = kindsWith("test.once", async ({ payload, reportProgress, jobId, now, attempt }) => {
      await reportProgress(40);
      const [row] = await db.select({ progress: jobs.progress, status: jobs.status }).from(jobs).where(eq(jobs.id, jobId));
      seen.push({ payload, progress: row.progress, status: row.status, now: now.toISOString(), attempt });
      return { greeted: payload.name };
    });
    const worker = workerOn(db, kinds);
    const id = await enqueue("test.once", { name: "no1" });
    const later = await enqueue("test.once", { name: "later" }, new Date(clock.now().getTime() + 60_000));

    expect(await worker.runDueJobs()).toEqual([id]);
    expect(await worker.runDueJobs()).toEqual([]);
    expect(seen).toEqual([{ payload: { name: "no1" }, progress: 40, status: "running", now: clock.now().toISOString(), attempt: 1 }]);
    expect(await jobRow(id)).toMatchObject({ status: "done", progress: 100, attempts: 1, result: { greeted: "no1" }, error: null, lockedBy: null, lockedUntil: null, finishedAt: clock.now() });

    // not due before its time
    expect((await jobRow(later)).status).toBe("queued");
    clock.advance(60_000);
    expect(await worker.runDueJobs()).toEqual([later]);
    expect(seen).toHaveLength(2);
  });

  it("retries a failing job after a growing delay, then fails it keeping its error, and logs it", async () => {
    const log: LogEntry[] = [];
    let runs = 0;
    const kinds = kindsWith(
      "test.failing",
      async () => {
        runs++;
        throw new Error(`gateway unreachable (run ${runs})`);
      },
      { maxAttempts: 3, retryDelaySeconds: 10 },
    );
    const worker = workerOn(db, kinds, capturingLog(log));
    const id = await enqueue("test.failing");

    expect(await worker.runDueJobs()).toEqual([id]);
    expect(await jobRow(id)).toMatchObject({ status: "queued", attempts: 1, error: "Error: gateway unreachable (run 1)", runAt: new Date(clock.now().getTime() + 10_000), finishedAt: null });
    expect(await worker.runDueJobs()).toEqual([]);
    clock.advance(10_000);
    expect(await worker.runDueJobs()).toEqual([id]);
    expect(await jobRow(id)).toMatchObject({ status: "queued", attempts: 2, runAt: new Date(clock.now().getTime() + 20_000) });
    clock.advance(20_000);
    expect(await worker.runDueJobs()).toEqual([id]);
    expect(await jobRow(id)).toMatchObject({ status: "failed", attempts: 3, error: "Error: gateway unreachable (run 3)", finishedAt: clock.now(), lockedBy: null });
    clock.advance(3600_000);
    expect(await worker.runDueJobs()).toEqual([]);
    expect(runs).toBe(3);

    expect(log.map((e) => e.level)).toEqual(["warn", "warn", "error"]);
    expect(log[2]).toMatchObject({ msg: "job failed", fields: { jobId: id, kind: "test.failing", attempt: 3, err: "Error: gateway unreachable (run 3)" } });
  });

  it("picks up again a job whose run stopped (its lease ran out), and ignores the stopped run's late finish", async () => {
    const ranBy: number[] = [];
    const kinds = kindsWith(
      "test.lease",
      async ({ attempt }) => {
        ranBy.push(attempt);
        return { attempt };
      },
      { leaseSeconds: 60, maxAttempts: 3 },
    );
    const [crashed, other] = await workers(2, kinds);
    const id = await enqueue("test.lease");
    // a process claims the job and dies before running it
    const claimed = await crashed.claim();
    expect(claimed).toMatchObject({ id, status: "running", attempts: 1, lockedBy: crashed.id });
    expect(await other.runDueJobs()).toEqual([]);
    clock.advance(59_000);
    expect(await other.runDueJobs()).toEqual([]);
    clock.advance(1_000);
    expect(await other.runDueJobs()).toEqual([id]);
    expect(ranBy).toEqual([2]);
    expect(await jobRow(id)).toMatchObject({ status: "done", attempts: 2, result: { attempt: 2 } });

    // the first run, had it only been slow, finishes late: the job is no longer its own, nothing changes
    await crashed.runClaimed(claimed!);
    expect(await jobRow(id)).toMatchObject({ status: "done", attempts: 2, result: { attempt: 2 } });
  });

  it("fails a job whose last allowed run's lease ran out, saying so", async () => {
    const kinds = kindsWith("test.lastlease", async () => "never", { leaseSeconds: 30, maxAttempts: 1 });
    const [crashed, other] = await workers(2, kinds);
    const id = (await other.enqueue("test.lastlease"))!;
    expect((await jobRow(id)).maxAttempts).toBe(1);
    expect(await crashed.claim()).toMatchObject({ id });
    clock.advance(30_000);
    expect(await other.runDueJobs()).toEqual([]);
    expect(await jobRow(id)).toMatchObject({ status: "failed", attempts: 1, error: "the run did not finish within its lease", finishedAt: clock.now() });
  });

  it("runs each of many jobs exactly once when several workers race for them", async () => {
    const runs: number[] = [];
    const kinds = kindsWith("test.race", async ({ jobId }) => {
      runs.push(jobId);
      // a turn of the event loop, in which the other workers claim
      await nextTurn();
      return null;
    });
    const racers = await workers(3, kinds);
    const ids: number[] = [];
    for (let i = 0; i < 60; i++) ids.push(await enqueue("test.race", { i }));

    const ranByWorker = await Promise.all(racers.map((w) => w.runDueJobs()));
    expect([...runs].sort((a, b) => a - b)).toEqual(ids);
    expect(ranByWorker.flat().sort((a, b) => a - b)).toEqual(ids);
    // the work was shared, not taken by one worker while the others waited
    expect(ranByWorker.filter((ran) => ran.length > 0).length).toBeGreaterThan(1);
    const rows = await db.select({ status: jobs.status, attempts: jobs.attempts }).from(jobs).where(eq(jobs.kind, "test.race"));
    expect(rows).toHaveLength(60);
    expect(rows.every((r) => r.status === "done" && r.attempts === 1)).toBe(true);
  });

  it("keeps a recurring job enqueued once across workers, due again its period after each run", async () => {
    let runs = 0;
    const kinds = kindsWith(
      "test.tick",
      async () => {
        runs++;
        await nextTurn();
        return runs;
      },
      { everySeconds: 30 },
    );
    const racers = await workers(3, kinds);
    const queued = () => db.select().from(jobs).where(and(eq(jobs.kind, "test.tick"), eq(jobs.status, "queued")));

    await Promise.all([...racers, ...racers].map((w) => w.ensureSchedules()));
    expect(await queued()).toHaveLength(1);

    await Promise.all(racers.map((w) => w.runDueJobs()));
    expect(runs).toBe(1);
    const [next] = await queued();
    expect(next.runAt).toEqual(new Date(clock.now().getTime() + 30_000));
    expect(await queued()).toHaveLength(1);

    await Promise.all(racers.map((w) => w.runDueJobs()));
    expect(runs).toBe(1);
    clock.advance(30_000);
    await Promise.all(racers.map((w) => w.runDueJobs()));
    expect(runs).toBe(2);
    expect(await queued()).toHaveLength(1);
    expect(await db.select().from(jobs).where(eq(jobs.kind, "test.tick"))).toHaveLength(3);
  });
  it("deletes finished jobs once kept long enough: a week for those done, a month for those failed", async () => {
    const kinds = kindsWith("test.prune", async ({ payload }) => {
      if (payload.fail) throw new Error("meant to fail");
      return null;
    }, { maxAttempts: 1 });
    kinds.register(PRUNE_FINISHED_JOBS, pruneFinishedJobs);
    const worker = workerOn(db, kinds);
    const done = await enqueue("test.prune");
    const failed = (await enqueueJob(db, "test.prune", { fail: true }, { now: clock.now(), maxAttempts: 1 })) as number;
    const queued = await enqueue("test.prune", {}, new Date(clock.now().getTime() + 60 * 86_400_000));
    await worker.runDueJobs();
    expect((await jobRow(done)).status).toBe("done");
    expect((await jobRow(failed)).status).toBe("failed");

    const prune = async () => {
      const id = await enqueue(PRUNE_FINISHED_JOBS);
      await worker.runDueJobs();
      return (await jobRow(id)).result;
    };
    clock.advance(7 * 86_400_000 - 1000);
    await prune();
    expect(await jobRow(done)).toBeDefined();
    clock.advance(2000);
    await prune();
    expect(await jobRow(done)).toBeUndefined();
    expect((await jobRow(failed)).status).toBe("failed");
    clock.advance(23 * 86_400_000);
    await prune();
    expect(await jobRow(failed)).toBeUndefined();
    // what has yet to run is never touched
    expect((await jobRow(queued)).status).toBe("queued");
  });
});

describeOnEmbedded("closing unpaid orders after their timeout", (kind) => {
  let t: TestApp;
  let token: string;
  const ids: Record<string, number> = {};
  const EN = { "accept-language": "en" };
  const pathOf = (codeUrl: string) => new URL(codeUrl).pathname;
  const buyOneYear = async () => {
    const res = await t.call("adminapiv2", "get_pay", { setmeal_id: ids.oneYear, sch_id: ids.no1, sysid: ids.sunrise }, { token, headers: EN });
    expect(res.return_code, res.return_msg).toBe("SUCCESS");
    return res.data?.items as { pay_no: string; payparam: { code_url: string } };
  };
  const order = async (payNo: string) => (await t.db.select().from(paymentOrders).where(eq(paymentOrders.payNo, payNo)))[0];
  const schoolEnd = async () => {
    const [row] = await t.db.select({ end: tableColumn(schools, "endtime") }).from(schools).where(eq(tableColumn(schools, "id"), ids.no1));
    return String(row.end);
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    token = await t.login("school");
    ids.sunrise = await idByTitle(t.db, providers, "Sunrise Campus Services");
    ids.no1 = await idByTitle(t.db, schools, "Sunrise No.1 Primary School");
    const meals = (await t.call("adminapiv2", "getsetmeal", {}, { token })).data?.items as Row[];
    ids.oneYear = Number(meals.find((m) => m.title === "One year")!.id);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("closes an unpaid order past its timeout, applies one the gateway was paid for without a notification, and leaves one within its timeout", async () => {
    const unpaid = await buyOneYear();
    const paidQuietly = await buyOneYear();
    // the sandbox takes the payment and the console is not told
    const confirm = await t.app.inject({
      method: "POST",
      url: `${pathOf(paidQuietly.payparam.code_url)}/confirm`,
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ notify: false }),
    });
    expect(confirm.json()).toMatchObject({ return_code: "SUCCESS" });
    // (nobody polls it with checkpay, which would ask the gateway: the closing job finds it)
    expect((await order(paidQuietly.pay_no)).status).toBe("NOTPAY");
    const endBefore = await schoolEnd();

    /** the due jobs run; the order closing's among them */
    const runClosing = async () => {
      const ran = await t.app.jobs.runDueJobs();
      return ran.length === 0 ? [] : (await t.db.select().from(jobs).where(inArray(jobs.id, ran))).filter((j) => j.kind === CLOSE_EXPIRED_ORDERS);
    };
    // nothing is due yet: the job runs and leaves both open
    const [first] = await runClosing();
    expect(first).toMatchObject({ kind: CLOSE_EXPIRED_ORDERS, status: "done", result: { due: 0, closed: 0, applied: 0, failed: 0 } });
    expect((await order(unpaid.pay_no)).status).toBe("NOTPAY");

    // two hours later (the order's timeout), a new order is made and the job runs again
    expect((await order(unpaid.pay_no)).expiresAt.getTime() - t.clock.now().getTime()).toBe(ORDER_PAYABLE_MS);
    t.clock.advance(ORDER_PAYABLE_MS);
    token = await t.login("school");
    const fresh = await buyOneYear();
    const ran = await runClosing();
    expect(ran).toHaveLength(1);
    expect(ran[0]).toMatchObject({ kind: CLOSE_EXPIRED_ORDERS, status: "done", progress: 100, result: { due: 2, closed: 1, applied: 1, failed: 0 } });

    expect((await order(unpaid.pay_no)).status).toBe("CLOSED");
    expect(await order(paidQuietly.pay_no)).toMatchObject({ status: "SUCCESS", transactionId: `SANDBOX${paidQuietly.pay_no}` });
    expect(await schoolEnd()).not.toBe(endBefore);
    expect(await t.call("adminapiv2", "checkpay", { pay_no: paidQuietly.pay_no }, { token, headers: EN })).toMatchObject({ return_code: "SUCCESS" });
    expect((await order(fresh.pay_no)).status).toBe("NOTPAY");
    // the closed order cannot be paid any more
    const late = await t.app.inject({ method: "POST", url: `${pathOf(unpaid.payparam.code_url)}/confirm` });
    expect(late.json().return_code).toBe("FAIL");

    // a later run changes nothing: the payment was applied once
    const endAfter = await schoolEnd();
    t.clock.advance(60_000);
    await t.app.jobs.runDueJobs();
    expect(await schoolEnd()).toBe(endAfter);
    const payments = await t.db.select().from(auditLog).where(and(eq(auditLog.action, "payment"), eq(auditLog.entityId, paidQuietly.pay_no)));
    expect(payments).toHaveLength(1);
    expect((await order(fresh.pay_no)).status).toBe("NOTPAY");
  });
});

describe("the server's job worker", () => {
  it("runs while the server runs and stops when it closes, leaving no timer", async () => {
    const server = await startServer({
      database: { kind: "memory", image: pgliteImage("migrated") },
      port: 0,
      host: "127.0.0.1",
      seedDemo: false,
      logger: false,
      staticDir: null,
      jobs: { pollIntervalMs: 10 },
    });
    const closeJobs = () => server.database.db.select().from(jobs).where(eq(jobs.kind, CLOSE_EXPIRED_ORDERS));
    const deadline = Date.now() + 20_000;
    while (!(await closeJobs()).some((j) => j.status === "done")) {
      if (Date.now() > deadline) throw new Error("the order-closing job never ran");
      await pause(10);
    }
    expect(server.app.jobs.active).toBe(true);
    await server.close();
    expect(server.app.jobs.active).toBe(false);
  });
});
