/**
 * Three server processes (server/main.ts, each a Node process of its own) on one PostgreSQL, behind one address: a
 * small round-robin proxy sends each request to the next process, as a load balancer would. Whichever process
 * answers: payers pay each bill once, and the payer API tells each of them so; five wrong passwords spread over the
 * three lock the account once; a disabled account is out of all three at once; every export, notice and receipt
 * is made once, whichever process's job worker takes it. The demo is seeded at the real time, as a server's first
 * start seeds it, since the processes keep the real clock.
 */
import type { ChildProcess } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openDatabase, queryRows, type Database } from "../../server/db/client";
import { bills, feeOrders, printJobs } from "../../server/db/catalogue.generated";
import { downloads, jobs, loginThrottle, notices, paymentOrders, users } from "../../server/db/schema";
import { PasswordHasher } from "../../server/auth/passwords";
import { translator } from "../../server/lib/i18n";
import { DEMO_PASSWORD, seedDemo } from "../../server/seed/demo";
import { SEND_PRINT_JOB } from "../../server/domains/devices/printing";
import { createPostgresDatabase, describeOnPostgres } from "../helpers/db";
import { TEST_PASSWORD_COST } from "../helpers/databaseImages";
import { api, startServerProcess } from "../helpers/server";
import { openActivityPayers } from "../helpers/schoolPayers";

const PROCESSES = 3;
/** the processes' jobs and the proxy's round trips, on a machine busy with other test files */
const PROCESS_TEST_TIMEOUT_MS = 120_000;

const itemsOf = (res: Awaited<ReturnType<typeof api>>) => (res.data?.items ?? {}) as Record<string, unknown>;

/** One address in front of the processes: each request goes to the next one, its body and answer passed through. */
function roundRobinProxy(backends: string[]): Promise<{ url: string; close(): Promise<void> }> {
  let next = 0;
  const server = http.createServer((request, response) => {
    const target = new URL(request.url ?? "/", backends[next++ % backends.length]);
    const forwarded = http.request(target, { method: request.method, headers: request.headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    forwarded.on("error", () => response.writeHead(502).end());
    request.pipe(forwarded);
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}`, close: () => new Promise((done) => server.close(() => done())) });
    });
  });
}

describeOnPostgres("three server processes on one PostgreSQL behind one address", () => {
  let created: { url: string; drop(): Promise<void> };
  let database: Database;
  const processes: { child: ChildProcess; url: string }[] = [];
  let proxy: { url: string; close(): Promise<void> };
  const tokens: Record<string, string> = {};

  const login = async (username: string, password = DEMO_PASSWORD) => api(proxy.url, "adminapi", "login", { username, password });

  beforeAll(async () => {
    created = await createPostgresDatabase();
    const seeding = await openDatabase({ kind: "postgres", url: created.url });
    try {
      await seedDemo(seeding.db, { hasher: new PasswordHasher(TEST_PASSWORD_COST), now: new Date() });
    } finally {
      await seeding.close();
    }
    const env = { DATABASE_URL: created.url, PAYMENT_KEY: Buffer.alloc(32, 3).toString("base64") };
    processes.push(...(await Promise.all(Array.from({ length: PROCESSES }, () => startServerProcess(env)))));
    proxy = await roundRobinProxy(processes.map((p) => p.url));
    database = await openDatabase({ kind: "postgres", url: created.url, poolSize: 2 });
    for (const username of ["svc", "staff"]) tokens[username] = String((await login(username)).data?.token);
  }, 180_000);

  afterAll(async () => {
    await proxy?.close();
    await Promise.all(
      processes.map(({ child }) => new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : (child.once("exit", () => resolve()), child.kill("SIGTERM"))))),
    );
    await database?.close();
    await created?.drop();
  });

  it("payers pay through any process: each bill paid once, a notification heard twice at once applied once, every process telling them so", async () => {
    const { schId, payers } = await openActivityPayers(database.db, "Sunrise No.1 Primary School", 6);
    const qr = await api(proxy.url, "adminapiv2", "qrchnladd", { sch_id: schId, title: "Front gate poster" }, tokens.svc);
    expect(qr.return_code, qr.return_msg).toBe("SUCCESS");
    const code = String(itemsOf(qr).code);
    expect(payers).toHaveLength(6);

    const paidOrders = await Promise.all(
      payers.map(async (payer) => {
        const found = await api(proxy.url, "h5api", "h5find", { code, name: payer.name, student_no: payer.student_no });
        expect(found.return_code, found.return_msg).toBe("SUCCESS");
        const order = await api(proxy.url, "h5api", "h5pay", { ticket: String(itemsOf(found).ticket), bill_ids: [payer.billId] });
        expect(order.return_code, order.return_msg).toBe("SUCCESS");
        const ticket = String(itemsOf(found).ticket);
        const { pay_no, payparam } = itemsOf(order) as { pay_no: string; payparam: { code_url: string } };
        // the sandbox's confirmation reaches two processes at once, as a gateway's repeated notification would
        const confirmations = await Promise.all(
          [0, 1].map(() => fetch(`${proxy.url}${new URL(payparam.code_url).pathname}/confirm`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })),
        );
        for (const confirmation of confirmations) expect(confirmation.status).toBe(200);
        return { payNo: pay_no, ticket };
      }),
    );
    const payNos = paidOrders.map((order) => order.payNo);

    const paid = await database.db.select({ status: bills.status }).from(bills).where(inArray(bills.id, payers.map((payer) => payer.billId)));
    expect(paid.map((bill) => bill.status)).toEqual(payers.map(() => "paid"));
    const payments = await queryRows<{ pay_no: string; n: number }>(
      database.db,
      sql`select o.pay_no, count(p.id)::int as n from fee_orders o left join fee_payments p on p.order_id = o.id where o.pay_no in ${payNos} group by o.pay_no`,
    );
    expect(payments.map((row) => row.n)).toEqual(payNos.map(() => 1));
    const orders = await database.db.select({ status: paymentOrders.status }).from(paymentOrders).where(inArray(paymentOrders.payNo, payNos));
    expect(orders.map((order) => order.status)).toEqual(payNos.map(() => "SUCCESS"));
    for (const { url } of processes) {
      for (const { payNo, ticket } of paidOrders) {
        const checked = await api(url, "h5api", "h5checkpay", { ticket, pay_no: payNo });
        expect(checked.return_code, checked.return_msg).toBe("SUCCESS");
        expect(itemsOf(checked).status, payNo).toBe("paid");
      }
    }

    // each paid order's receipt printed once, by whichever process's worker took it
    const orderIds = (await database.db.select({ order_no: feeOrders.order_no }).from(feeOrders).where(inArray(feeOrders.pay_no, payNos))).map((order) => order.order_no);
    await expect
      .poll(async () => (await database.db.select({ status: printJobs.status }).from(printJobs).where(inArray(printJobs.order_no, orderIds))).map((job) => job.status), { timeout: 30_000 })
      .toEqual(orderIds.map(() => "printed"));
    const sends = await database.db.select({ attempts: jobs.attempts }).from(jobs).where(and(eq(jobs.kind, SEND_PRINT_JOB), eq(jobs.status, "done")));
    expect(sends.length).toBeGreaterThanOrEqual(orderIds.length);
    expect(sends.every((job) => job.attempts === 1)).toBe(true);
  }, PROCESS_TEST_TIMEOUT_MS);

  it("five wrong passwords spread over the three processes lock the account once", async () => {
    for (let attempt = 0; attempt < 5; attempt++) expect((await login("school", "not the password")).return_code).toBe("FAIL");
    const refused = await login("school");
    expect(refused.return_code).toBe("FAIL");
    // locked for the first lock's length (seconds count down from it)
    expect(refused.return_msg).toMatch(new RegExp(`^${translator("zh")("api.login_locked", { seconds: "\\d+" })}$`));
    const [throttle] = await database.db.select().from(loginThrottle).where(eq(loginThrottle.key, "user:school"));
    expect(throttle.lockCount).toBe(1);
  }, PROCESS_TEST_TIMEOUT_MS);

  it("a disabled account is out of all three processes at once", async () => {
    // the staff account's session used on every process, which each then knows
    for (const { url } of processes) expect((await api(url, "adminapiv2", "dashboard", {}, tokens.staff)).return_code).toBe("SUCCESS");
    const [staff] = await database.db.select({ id: users.id }).from(users).where(eq(users.username, "staff"));
    const disabled = await api(proxy.url, "adminapiv2", "usersedit", { id: staff.id, status: "0" }, tokens.svc);
    expect(disabled.return_code, disabled.return_msg).toBe("SUCCESS");
    for (const { url } of processes) expect((await api(url, "adminapiv2", "dashboard", {}, tokens.staff)).return_code, url).toBe("token_error");
  }, PROCESS_TEST_TIMEOUT_MS);

  it("every export and every reminder is made once, whichever process's worker takes it", async () => {
    const exportIds: number[] = [];
    // six exports of different filters (an export asked again while the same one runs is that one)
    for (const action of ["login", "qrchnladd", "usersedit", "billremind", "schooledit", "gradeadd"]) {
      const started = await api(proxy.url, "adminapiv2", "auditlogexport", { action }, tokens.svc);
      expect(started.return_code, started.return_msg).toBe("SUCCESS");
      exportIds.push((itemsOf(started) as { job_id: number }).job_id);
    }
    expect(new Set(exportIds).size).toBe(6);
    // guardians not reminded yet (the demo reminded Sunrise No.1's), one bill each: a guardian is reminded once a day
    const unpaid = await queryRows<{ id: number }>(
      database.db,
      sql`select distinct on (st.guardian_phone) b.id from bills b join students st on st.id = b.student_id join schools s on s.id = b.sch_id
          where b.status = 'unpaid' and s.title = 'Sunrise No.2 Primary School' order by st.guardian_phone, b.id limit 6`,
    );
    for (const bill of unpaid) {
      const reminded = await api(proxy.url, "adminapiv2", "billremind", { id: bill.id }, tokens.svc);
      expect(reminded.return_code, reminded.return_msg).toBe("SUCCESS");
    }

    // each download's file written by one run of its job
    await expect
      .poll(
        async () =>
          (
            await database.db
              .select({ status: jobs.status, attempts: jobs.attempts, size: downloads.size })
              .from(downloads)
              .innerJoin(jobs, eq(jobs.id, downloads.jobId))
              .where(inArray(downloads.id, exportIds))
          ).map((job) => `${job.status} ${job.attempts} ${job.size !== null && job.size > 0}`),
        { timeout: 30_000 },
      )
      .toEqual(exportIds.map(() => "done 1 true"));
    await expect
      .poll(
        async () =>
          (await database.db.select({ status: notices.status, attempts: notices.attempts }).from(notices).where(and(eq(notices.kind, "reminder"), inArray(notices.billId, unpaid.map((bill) => bill.id))))).map(
            (notice) => `${notice.status} ${notice.attempts}`,
          ),
        // within the worker's wake-up, well before the recurring run a minute later
        { timeout: 30_000 },
      )
      .toEqual(unpaid.map(() => "sent 1"));
  }, PROCESS_TEST_TIMEOUT_MS);
});
