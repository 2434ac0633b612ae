/**
 * The server behind PgBouncer in transaction mode (Debian's package), with DATABASE_POOLER=transaction: each
 * transaction may get another server connection, and only two are shared by all. Logins, list pages read at once by
 * two accounts (drizzle's prepared statements, sent unnamed), a payer's payment and its polling, the job worker's
 * claims and an export all work as they do on PostgreSQL directly.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { DEMO_PASSWORD } from "../../server/seed/demo";
import { createPostgresDatabase, describeOnPostgres, PG_TEMPLATE_ENV } from "../helpers/db";
import { TEST_NOW, TEST_PASSWORD_COST } from "../helpers/databaseImages";
import { ManualClock } from "../../server/lib/clock";
import { api, startTestServer, type TestServer } from "../helpers/server";
import { openActivityPayers } from "../helpers/schoolPayers";

const PGBOUNCER = "/usr/sbin/pgbouncer";

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

/** PgBouncer in transaction mode in front of the tests' PostgreSQL, two server connections per database and user. */
async function startPgBouncer(postgresUrl: URL): Promise<{ port: number; stop(): Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cpc-pgbouncer-"));
  // PgBouncer refuses to run as root: it is started as PostgreSQL's user, who must read its files
  fs.chmodSync(dir, 0o755);
  const port = await freePort();
  const user = decodeURIComponent(postgresUrl.username || "postgres");
  fs.writeFileSync(path.join(dir, "users.txt"), `"${user}" ""\n`, { mode: 0o644 });
  fs.writeFileSync(
    path.join(dir, "pgbouncer.ini"),
    [
      "[databases]",
      `* = host=${postgresUrl.hostname} port=${postgresUrl.port || 5432}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      "auth_type = trust",
      `auth_file = ${path.join(dir, "users.txt")}`,
      "pool_mode = transaction",
      "default_pool_size = 2",
      "max_client_conn = 200",
      "ignore_startup_parameters = extra_float_digits,options",
    ].join("\n"),
    { mode: 0o644 },
  );
  const asRoot = process.getuid?.() === 0;
  const child: ChildProcess = spawn(PGBOUNCER, [...(asRoot ? ["-u", "postgres"] : []), path.join(dir, "pgbouncer.ini")], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout?.on("data", (chunk) => (output += String(chunk)));
  child.stderr?.on("data", (chunk) => (output += String(chunk)));
  const deadline = Date.now() + 10_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`PgBouncer did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    port,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

describeOnPostgres("behind PgBouncer in transaction mode", () => {
  let bouncer: { port: number; stop(): Promise<void> };
  let database: { url: string; drop(): Promise<void> };
  let server: TestServer;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    const template = process.env[PG_TEMPLATE_ENV.seeded];
    database = await createPostgresDatabase(template);
    const direct = new URL(database.url);
    bouncer = await startPgBouncer(direct);
    const throughBouncer = new URL(database.url);
    throughBouncer.hostname = "127.0.0.1";
    throughBouncer.port = String(bouncer.port);
    server = await startTestServer({
      databaseUrl: throughBouncer.toString(),
      databasePooler: "transaction",
      seedDemo: false,
      staticDir: null,
      passwordCost: TEST_PASSWORD_COST,
      rateLimit: false,
      // the time the demo was seeded at, and jobs run when the test says
      clock: new ManualClock(TEST_NOW),
      jobs: { poll: false },
    });
    for (const username of ["svc", "sysadmin"]) {
      const login = await api(server.url, "adminapi", "login", { username, password: DEMO_PASSWORD });
      expect(login.return_code, login.return_msg).toBe("SUCCESS");
      tokens[username] = String(login.data?.token);
    }
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await bouncer?.stop();
    await database?.drop();
  });

  it("answers list pages read at once by several accounts, each page as it answers alone", async () => {
    const reads = [
      ["svc", "studentlist"],
      ["svc", "billlist"],
      ["svc", "schoollist"],
      ["sysadmin", "servicelist"],
      ["sysadmin", "schoollist"],
    ] as const;
    const alone = new Map<string, unknown>();
    for (const [user, method] of reads) {
      const res = await api(server.url, "adminapiv2", method, { page: 1, limit: 20 }, tokens[user]);
      expect(res.return_code, `${user} ${method}: ${res.return_msg}`).toBe("SUCCESS");
      alone.set(`${user} ${method}`, res.data);
    }
    const together = await Promise.all(
      Array.from({ length: 5 }, () => reads).flat().map(async ([user, method]) => [`${user} ${method}`, (await api(server.url, "adminapiv2", method, { page: 1, limit: 20 }, tokens[user])).data] as const),
    );
    for (const [read, data] of together) expect(data, read).toEqual(alone.get(read));
  }, 60_000);

  it("takes a payer's payment, tells it when polled, and runs the jobs and an export", async () => {
    const {
      schId,
      payers: [payer],
    } = await openActivityPayers(server.server.database.db, "Sunrise No.1 Primary School", 1);
    const qr = await api(server.url, "adminapiv2", "qrchnladd", { sch_id: schId, title: "Behind the pooler" }, tokens.svc);
    expect(qr.return_code, qr.return_msg).toBe("SUCCESS");
    const found = await api(server.url, "h5api", "h5find", { code: (qr.data?.items as { code: string }).code, name: payer.name, student_no: payer.student_no });
    expect(found.return_code, found.return_msg).toBe("SUCCESS");
    const ticket = (found.data?.items as { ticket: string }).ticket;
    const order = await api(server.url, "h5api", "h5pay", { ticket, bill_ids: [payer.billId] });
    expect(order.return_code, order.return_msg).toBe("SUCCESS");
    const { pay_no, payparam } = order.data?.items as { pay_no: string; payparam: { code_url: string } };
    const confirmed = await fetch(`${server.url}${new URL(payparam.code_url).pathname}/confirm`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(confirmed.status).toBe(200);
    const checked = await api(server.url, "h5api", "h5checkpay", { ticket, pay_no });
    expect((checked.data?.items as { status: string }).status).toBe("paid");

    const exported = await api(server.url, "adminapiv2", "auditlogexport", { action: "login" }, tokens.svc);
    expect(exported.return_code, exported.return_msg).toBe("SUCCESS");
    // every due job (the export, the receipt, the recurring ones), claimed in their transactions
    expect((await server.server.app.jobs.runDueJobs()).length).toBeGreaterThan(0);
    const info = await api(server.url, "adminapiv2", "downloadinfo", { id: (exported.data?.items as { job_id: number }).job_id }, tokens.svc);
    expect((info.data?.items as { status: string }).status).toBe("done");
  }, 60_000);
});
