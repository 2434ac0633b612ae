/**
 * What operators watch (server/monitoring/): /healthz answers while the process lives, /readyz only while the
 * database answers, the migrations are applied and the jobs run; /metrics is served only with its token and tells,
 * in Prometheus's text format, the requests per operation, the payments applied, the jobs waiting and how long,
 * the notices waiting and the database's connections. A graceful stop hands the job in hand back to the queue.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { jobs, notices, printJobs } from "../../server/db/schema";
import { JobKinds } from "../../server/jobs/registry";
import { enqueueJob, JobWorker } from "../../server/jobs/worker";
import { buildApp } from "../../server/protocol/app";
import { PaymentSecrets } from "../../server/payments/secrets";
import { describeOnEmbedded } from "../helpers/db";
import { confirmSandbox, findStudent, payBills, payerWorld, unpaidStudents } from "./payerSupport";
import { createTestApp, type TestApp } from "./support";

const METRICS_TOKEN = "scraper-token-0123456789";

/** A sample of Prometheus's text exposition format: `name{label="value",...} number`. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[key] = value;
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return samples;
}

/** the value of the sample with this name and these labels (among others), 0 when there is none */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.find((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value));
  return found?.value ?? 0;
}

describeOnEmbedded("operators' endpoints", () => {
  let t: TestApp;

  const scrape = async () => {
    const res = await t.app.inject({ method: "GET", url: "/metrics", headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
    return parseExposition(res.body);
  };

  beforeAll(async () => {
    t = await createTestApp("pglite", { metricsToken: METRICS_TOKEN, jobs: { pollIntervalMs: 3_600_000 } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("/healthz answers while the process lives; /readyz once the job worker runs", async () => {
    const health = await t.app.inject({ method: "GET", url: "/healthz" });
    expect([health.statusCode, health.json()]).toEqual([200, { status: "ok" }]);

    const before = await t.app.inject({ method: "GET", url: "/readyz" });
    expect([before.statusCode, before.json()]).toEqual([503, { status: "not ready", checks: { database: "ok", migrations: "ok", jobs: "stopped" } }]);
    t.app.jobs.start();
    const after = await t.app.inject({ method: "GET", url: "/readyz" });
    expect([after.statusCode, after.json()]).toEqual([200, { status: "ready", checks: { database: "ok", migrations: "ok", jobs: "ok" } }]);
    expect(after.headers["cache-control"]).toBe("no-store");
  });

  it("/readyz is not ready when the database has not the server's migrations", async () => {
    await t.db.execute("update drizzle.__drizzle_migrations set created_at = created_at - 1 where created_at = (select max(created_at) from drizzle.__drizzle_migrations)");
    try {
      const res = await t.app.inject({ method: "GET", url: "/readyz" });
      expect([res.statusCode, (res.json() as { checks: unknown }).checks]).toEqual([503, { database: "ok", migrations: "not applied", jobs: "ok" }]);
    } finally {
      await t.db.execute("update drizzle.__drizzle_migrations set created_at = created_at + 1 where created_at = (select max(created_at) from drizzle.__drizzle_migrations)");
    }
  });

  it("/metrics answers only a scraper with the token, and is not served without one configured", async () => {
    for (const authorization of [undefined, "Bearer wrong-token-0123456789", `Basic ${METRICS_TOKEN}`, METRICS_TOKEN]) {
      const res = await t.app.inject({ method: "GET", url: "/metrics", headers: authorization ? { authorization } : {} });
      expect(res.statusCode, authorization).toBe(401);
      expect(res.headers["www-authenticate"]).toBe('Bearer realm="metrics"');
      expect(res.body).not.toContain("cpc_");
    }
    const untokened = await buildApp({ db: t.db, clock: t.clock, logger: false, staticDir: null });
    try {
      const res = await untokened.inject({ method: "GET", url: "/metrics", headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      expect(res.statusCode).toBe(404);
    } finally {
      await untokened.close();
    }
  });

  it("counts requests by operation and outcome, and a payment applied by its kind and gateway", async () => {
    const before = await scrape();
    const svc = await t.login("svc");
    await t.call("adminapi", "login", { username: "svc", password: "not the password" });
    const world = await payerWorld(t, svc);
    const [pupil] = await unpaidStudents(t, world, 1);
    const order = await payBills(t, await findStudent(t, world, pupil), [pupil.billId]);
    expect((await confirmSandbox(t, order.payparam.code_url)).return_code).toBe("SUCCESS");
    const after = await scrape();

    const grew = (name: string, labels: Record<string, string>) => valueOf(after, name, labels) - valueOf(before, name, labels);
    expect(grew("cpc_requests_total", { operation: "adminapi.login", outcome: "SUCCESS" })).toBe(1);
    expect(grew("cpc_requests_total", { operation: "adminapi.login", outcome: "FAIL" })).toBe(1);
    expect(grew("cpc_requests_total", { operation: "h5api.h5pay", outcome: "SUCCESS" })).toBe(1);
    expect(grew("cpc_request_duration_seconds_count", { operation: "h5api.h5find" })).toBe(1);
    // a route outside /weapi/ by its pattern, never by its address (a pay_no would make a series per order)
    expect(grew("cpc_requests_total", { operation: "/pay/sandbox/:payNo/confirm", outcome: "2xx" })).toBe(1);
    expect(after.some((sample) => sample.labels.operation?.includes(order.pay_no))).toBe(false);
    expect(grew("cpc_payments_applied_total", { kind: "fee", gateway: "sandbox" })).toBe(1);
    // the process's own figures, under Prometheus's usual names
    expect(valueOf(after, "process_resident_memory_bytes")).toBeGreaterThan(0);
  });

  it("tells the jobs waiting by kind, how long the oldest due one has waited, the notices waiting and the connections", async () => {
    const now = t.clock.now();
    for (const seconds of [90, 30]) await enqueueJob(t.db, "monitoring.example", {}, { now, runAt: new Date(now.getTime() - seconds * 1000) });
    // not due yet: waiting, but not late
    await enqueueJob(t.db, "monitoring.example", {}, { now, runAt: new Date(now.getTime() + 60_000) });
    const noticesBefore = valueOf(await scrape(), "cpc_notices_waiting", { status: "queued" });
    await t.db.insert(notices).values({ sysid: 1, kind: "reminder", channel: "sms", recipient: "13800000000", params: {}, createdBy: "test", createdAt: now });
    // the demo's receipt that gave up on its offline printer, sent again
    await t.db.update(printJobs).set({ status: "queued" }).where(eq(printJobs.status, "failed"));

    const samples = await scrape();
    expect(valueOf(samples, "cpc_jobs", { kind: "monitoring.example", status: "queued" })).toBe(3);
    expect(valueOf(samples, "cpc_jobs_oldest_due_seconds", { kind: "monitoring.example" })).toBe(90);
    expect(valueOf(samples, "cpc_notices_waiting", { status: "queued" })).toBe(noticesBefore + 1);
    // the receipts waiting for their printers, counted here apart
    const printJobsOf = async (status: string) => (await t.db.select({ id: printJobs.id }).from(printJobs).where(eq(printJobs.status, status))).length;
    expect(await printJobsOf("queued")).toBeGreaterThan(0);
    for (const status of ["queued", "sent"]) expect(valueOf(samples, "cpc_print_jobs_waiting", { status }), status).toBe(await printJobsOf(status));
    expect(valueOf(samples, "cpc_database_connections", { state: "total" })).toBeGreaterThanOrEqual(1);
    expect(samples.some((sample) => sample.name === "cpc_refunds")).toBe(true);
  });
});

describeOnEmbedded("a graceful stop", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp("pglite", { seed: false });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("hands the job still running when its grace ends back to the queue, due now and its attempt not counted", async () => {
    let release: () => void = () => undefined;
    const kinds = new JobKinds();
    kinds.register("monitoring.slow", () => new Promise<void>((resolve) => (release = resolve)), { leaseSeconds: 600 });
    const worker = new JobWorker({ services: { db: t.db, clock: t.clock, paymentSecrets: new PaymentSecrets() }, kinds, stopGraceMs: 50 });
    const id = (await enqueueJob(t.db, "monitoring.slow", {}, { now: t.clock.now() }))!;
    const row = async () => (await t.db.select().from(jobs).where(eq(jobs.id, id)))[0];
    worker.start();
    await expect.poll(async () => (await row()).status).toBe("running");
    t.clock.advance(5_000);
    await worker.stop();
    const handedBack = await row();
    expect({ status: handedBack.status, attempts: handedBack.attempts, lockedBy: handedBack.lockedBy, runAt: handedBack.runAt }).toEqual({
      status: "queued",
      attempts: 0,
      lockedBy: null,
      runAt: t.clock.now(),
    });
    // the interrupted run, ending later, changes nothing: the job is the queue's again
    release();
    await expect.poll(() => worker.active).toBe(false);
    expect((await row()).status).toBe("queued");
  });
});
