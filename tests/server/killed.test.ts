/**
 * A server process (server/main.ts) killed outright (SIGKILL) in the middle of payments, refunds, an import, an
 * export and a reconciliation, then started again on the same database, embedded and PostgreSQL: what it answered
 * is kept, nothing is applied twice (a payment's notification heard again, an import sent again), nothing is left
 * half done or stuck (a job the killed process held is taken over once its lease has run out). Between a kill and
 * the next start the test reads the database itself, as the embedded one allows a single process. The demo is
 * seeded at the real time, as a server's first start seeds it.
 */
import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { businessDay } from "../../common/term";
import { openDatabase, queryRows, type Db } from "../../server/db/client";
import { feeOrders, refunds, schoolChannels, schools } from "../../server/db/catalogue.generated";
import { downloads, jobs } from "../../server/db/schema";
import { PasswordHasher } from "../../server/auth/passwords";
import { DEMO_PASSWORD, seedDemo } from "../../server/seed/demo";
import { createPostgresDatabase, describeOnDatabases, type TestDatabaseKind } from "../helpers/db";
import { TEST_PASSWORD_COST } from "../helpers/databaseImages";
import { sheetBase64 } from "../helpers/xlsxParts";
import { api, startServerProcess } from "../helpers/server";
import { openActivityPayers } from "../helpers/schoolPayers";

/** each test starts and kills server processes, several seconds each, on a machine busy with other test files */
const KILL_TEST_TIMEOUT_MS = 180_000;

const itemsOf = (res: Awaited<ReturnType<typeof api>>) => (res.data?.items ?? {}) as Record<string, unknown>;

/**
 * Sends the calls at once and kills the process once `answersBeforeKill` of them have been answered: the calls
 * answered (acknowledged) are returned by index; the others were cut off, or answered before the kill landed.
 */
async function burstThenKill<T>(calls: (() => Promise<T>)[], answersBeforeKill: number, kill: () => Promise<void>): Promise<Map<number, T>> {
  const answered = new Map<number, T>();
  let killing: Promise<void> | undefined;
  await Promise.all(
    calls.map((call, index) =>
      call().then(
        (value) => {
          answered.set(index, value);
          if (answered.size >= answersBeforeKill) killing ??= kill();
        },
        () => undefined,
      ),
    ),
  );
  await (killing ?? kill());
  return answered;
}

describeOnDatabases("a server process killed outright and started again", (kind: TestDatabaseKind) => {
  let env: Record<string, string>;
  let cleanup: () => Promise<void>;
  let child: ChildProcess | undefined;
  let url = "";
  let svc = "";

  const start = async () => {
    const started = await startServerProcess({ ...env, PAYMENT_KEY: Buffer.alloc(32, 5).toString("base64") });
    child = started.child;
    url = started.url;
    const login = await api(url, "adminapi", "login", { username: "svc", password: DEMO_PASSWORD });
    expect(login.return_code, login.return_msg).toBe("SUCCESS");
    svc = String(login.data?.token);
  };
  const stop = async (signal: "SIGKILL" | "SIGTERM") => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once("exit", resolve));
    running.kill(signal);
    await exited;
  };
  const kill9 = () => stop("SIGKILL");
  /** the database read by the test while no server runs on it */
  const withDatabase = async <T>(read: (db: Db) => Promise<T>): Promise<T> => {
    const database = await openDatabase(env.DATABASE_URL ? { kind: "postgres", url: env.DATABASE_URL, poolSize: 2 } : { kind: "pglite", dataDir: env.DATA_DIR });
    try {
      return await read(database.db);
    } finally {
      await database.close();
    }
  };

  beforeAll(async () => {
    if (kind === "postgres") {
      const created = await createPostgresDatabase();
      env = { DATABASE_URL: created.url };
      cleanup = () => created.drop();
    } else {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cpc-killed-"));
      env = { DATA_DIR: dataDir };
      cleanup = async () => fs.rmSync(dataDir, { recursive: true, force: true });
    }
    await withDatabase((db) => seedDemo(db, { hasher: new PasswordHasher(TEST_PASSWORD_COST), now: new Date() }));
    await start();
  }, 120_000);

  afterAll(async () => {
    await stop("SIGTERM");
    await cleanup?.();
  });

  it("payments: every one answered is applied, a notification heard again after the restart applies nothing twice", async () => {
    const world = await payerWorld();
    const payers = world.payers;
    const orders: { payNo: string; codeUrl: string; billId: number }[] = [];
    for (const payer of payers) {
      const found = await api(url, "h5api", "h5find", { code: world.code, name: payer.name, student_no: payer.student_no });
      expect(found.return_code, found.return_msg).toBe("SUCCESS");
      const order = await api(url, "h5api", "h5pay", { ticket: String(itemsOf(found).ticket), bill_ids: [payer.billId] });
      expect(order.return_code, order.return_msg).toBe("SUCCESS");
      const items = itemsOf(order) as { pay_no: string; payparam: { code_url: string } };
      orders.push({ payNo: items.pay_no, codeUrl: items.payparam.code_url, billId: payer.billId });
    }
    const confirm = (codeUrl: string) => async () => {
      const res = await fetch(`${url}${new URL(codeUrl).pathname}/confirm`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
      return (await res.json()) as { return_code: string };
    };
    const acknowledged = await burstThenKill(orders.map((order) => confirm(order.codeUrl)), 3, kill9);
    const paidAnswers = [...acknowledged].filter(([, answer]) => answer.return_code === "SUCCESS").map(([index]) => orders[index].payNo);
    expect(paidAnswers.length).toBeGreaterThanOrEqual(3);

    const orderStates = (db: Db) =>
      queryRows<{ pay_no: string; status: string; bill: string; payments: number }>(
        db,
        sql`select o.pay_no, po.status, b.status as bill, (select count(*)::int from fee_payments p where p.order_id = o.id) as payments
            from fee_orders o join payment_orders po on po.pay_no = o.pay_no
            join fee_order_lines l on l.order_id = o.id join bills b on b.id = l.bill_id
            where o.pay_no in ${orders.map((order) => order.payNo)} order by o.pay_no`,
      );
    const afterKill = await withDatabase(orderStates);
    for (const row of afterKill) {
      // each order whole: paid with its bill and one payment, or not at all
      expect([row.status, row.bill, row.payments], row.pay_no).toEqual(row.status === "SUCCESS" ? ["SUCCESS", "paid", 1] : [row.status, "unpaid", 0]);
      if (paidAnswers.includes(row.pay_no)) expect(row.status, `${row.pay_no} was answered paid`).toBe("SUCCESS");
    }

    await start();
    // the gateway tells every payment again, as it does until it is answered
    for (const order of orders) expect((await confirm(order.codeUrl)()).return_code).toBe("SUCCESS");
    expect((await withDatabaseWhenStopped(orderStates)).map((row) => [row.status, row.bill, row.payments])).toEqual(orders.map(() => ["SUCCESS", "paid", 1]));
  }, KILL_TEST_TIMEOUT_MS);

  it("refunds: every one answered is kept and ends, none refunds more than was paid, and a job the killed process held is taken over", async () => {
    const paid = await withDatabaseWhenStopped((db) =>
      db.select({ id: feeOrders.id, amount: feeOrders.amount }).from(feeOrders).where(
          and(
            eq(feeOrders.status, "paid"),
            // svc's provider's orders, never refunded
            sql`${feeOrders.sch_id} in (select s.id from schools s join users u on u.sysid = s.sysid where u.username = 'svc')`,
            sql`not exists (select 1 from refunds r where r.order_id = ${feeOrders.id})`,
          ),
        ).orderBy(asc(feeOrders.id)).limit(8),
    );
    const ask = (order: { id: number }) => () => api(url, "adminapiv2", "refundadd", { order_id: order.id, amount: "1.00", reason: "Killed test" }, svc);
    const answered = await burstThenKill(paid.map(ask), 2, kill9);
    const acknowledged = [...answered].filter(([, answer]) => answer.return_code === "SUCCESS").map(([index]) => paid[index].id);

    await withDatabase(async (db) => {
      const asked = await db.select({ order_id: refunds.order_id }).from(refunds).where(inArray(refunds.order_id, paid.map((order) => order.id)));
      for (const id of acknowledged) expect(asked.filter((refund) => refund.order_id === id), `order ${id}`).toHaveLength(1);
      // the killed process's leases run out, as they would while it stays down
      await db.update(jobs).set({ lockedUntil: sql`now() - interval '1 second'` }).where(eq(jobs.status, "running"));
    });
    await start();
    // the refunds the kill cut off are asked again, as a user would
    const asked = await refundStates();
    for (const order of paid) {
      if (asked.has(order.id)) continue;
      const again = await ask(order)();
      expect(again.return_code, `order ${order.id}: ${again.return_msg}`).toBe("SUCCESS");
    }
    await expect.poll(async () => [...(await refundStates()).values()].filter((status) => status === "success").length, { timeout: 30_000 }).toBe(paid.length);
    await withDatabaseWhenStopped(async (db) => {
      const rows = await db.select({ order_id: refunds.order_id, amount: refunds.amount, status: refunds.status }).from(refunds).where(inArray(refunds.order_id, paid.map((order) => order.id)));
      expect(rows.map((refund) => `${refund.order_id} ${refund.amount} ${refund.status}`).sort()).toEqual(paid.map((order) => `${order.id} 100 success`).sort());
      const orders = await db.select({ refunded: feeOrders.refunded_amount }).from(feeOrders).where(inArray(feeOrders.id, paid.map((order) => order.id)));
      expect(orders.map((order) => order.refunded)).toEqual(paid.map(() => 100));
    });
  }, KILL_TEST_TIMEOUT_MS);

  it("an import: all of it or none, and sent again after the restart, each pupil once", async () => {
    const schId = await withDatabaseWhenStopped(async (db) => (await db.select({ id: schools.id }).from(schools).where(eq(schools.title, "Sunrise No.2 Primary School")))[0].id);
    const rows = Array.from({ length: 400 }, (_, i) => [`Killed ${i}`, `KILL-${String(i).padStart(4, "0")}`, "Female", "Grade Nine", `Class ${i % 8}`, null, null, null]);
    const content = await sheetBase64(["Student name", "Student number", "Gender", "Grade", "Class", "Guardian", "Guardian's phone", "ID card number"], rows);
    const send = () => api(url, "adminapiv2", "studentimport", { sch_id: schId, filename: "killed.xlsx", content_base64: content }, svc);
    const answered = await burstThenKill([send], 1, () => new Promise<void>((resolve) => setTimeout(() => void kill9().then(resolve), 150)));
    const countImported = async (db: Db) => Number((await queryRows<{ n: string }>(db, sql`select count(*) as n from students where student_no like 'KILL-%'`))[0].n);
    const afterKill = await withDatabase(countImported);
    expect([0, 400]).toContain(afterKill);
    if (answered.get(0)?.return_code === "SUCCESS") expect(afterKill).toBe(400);
    await start();
    if (afterKill === 0) expect((await send()).return_code).toBe("SUCCESS");
    else expect((await send()).return_code).toBe("FAIL");
    expect(await withDatabaseWhenStopped(countImported)).toBe(400);
  }, KILL_TEST_TIMEOUT_MS);

  it("an export asked for before the kill is written after the restart, once", async () => {
    const started = await api(url, "adminapiv2", "auditlogexport", { action: "login" }, svc);
    expect(started.return_code, started.return_msg).toBe("SUCCESS");
    const downloadId = (itemsOf(started) as { job_id: number }).job_id;
    await kill9();
    await withDatabase((db) => db.update(jobs).set({ lockedUntil: sql`now() - interval '1 second'` }).where(eq(jobs.status, "running")));
    await start();
    await expect
      .poll(async () => (itemsOf(await api(url, "adminapiv2", "downloadinfo", { id: downloadId }, svc)) as { status: string }).status, { timeout: 30_000 })
      .toBe("done");
    await withDatabaseWhenStopped(async (db) => {
      const [download] = await db.select({ jobId: downloads.jobId, size: downloads.size }).from(downloads).where(eq(downloads.id, downloadId));
      const [job] = await db.select({ status: jobs.status, attempts: jobs.attempts }).from(jobs).where(eq(jobs.id, download.jobId!));
      expect(job.status).toBe("done");
      expect(job.attempts).toBeLessThanOrEqual(2);
      expect(download.size).toBeGreaterThan(0);
    });
  }, KILL_TEST_TIMEOUT_MS);

  it("a reconciliation cut off is run again whole: one batch of the day", async () => {
    const channelId = await withDatabaseWhenStopped(async (db) => {
      const [school] = await db.select({ id: schools.id }).from(schools).where(eq(schools.title, "Sunrise No.1 Primary School"));
      return (await db.select({ id: schoolChannels.paychnl_id }).from(schoolChannels).where(eq(schoolChannels.sch_id, school.id)))[0].id;
    });
    const today = businessDay(new Date());
    const run = () => api(url, "adminapiv2", "reconrun", { paychnl_id: channelId, bill_date: today }, svc);
    await burstThenKill([run], 1, () => new Promise<void>((resolve) => setTimeout(() => void kill9().then(resolve), 50)));
    await start();
    const again = await run();
    expect(again.return_code, again.return_msg).toBe("SUCCESS");
    await withDatabaseWhenStopped(async (db) => {
      const batches = await queryRows<{ n: string }>(db, sql`select count(*) as n from recon_batches where paychnl_id = ${channelId} and bill_date = ${today}`);
      expect(Number(batches[0].n)).toBe(1);
    });
  }, KILL_TEST_TIMEOUT_MS);

  /** the database read while the server is stopped (the embedded one allows one process), then started again */
  async function withDatabaseWhenStopped<T>(read: (db: Db) => Promise<T>): Promise<T> {
    // PostgreSQL is read beside the server
    if (kind === "postgres") return withDatabase(read);
    await stop("SIGTERM");
    try {
      return await withDatabase(read);
    } finally {
      await start();
    }
  }

  /** the refunds' states by order, as svc's refund list shows them */
  async function refundStates(): Promise<Map<number, string>> {
    const list = await api(url, "adminapiv2", "refundlist", { limit: 100, reason: "Killed test" }, svc);
    expect(list.return_code, list.return_msg).toBe("SUCCESS");
    const items = (list.data?.items ?? []) as { order_id: number; status: string; reason: string }[];
    return new Map(items.filter((item) => item.reason === "Killed test").map((item) => [Number(item.order_id), item.status]));
  }

  /** the payer world of Sunrise No.1's open activity: a QR code and unpaid pupils */
  async function payerWorld() {
    const { schId, payers } = await withDatabaseWhenStopped((db) => openActivityPayers(db, "Sunrise No.1 Primary School", 10));
    const qr = await api(url, "adminapiv2", "qrchnladd", { sch_id: schId, title: "Killed test" }, svc);
    expect(qr.return_code, qr.return_msg).toBe("SUCCESS");
    return { code: String(itemsOf(qr).code), payers };
  }
});
