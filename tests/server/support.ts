/** The app under test: a fresh seeded database, a clock the test moves, and a small /weapi client over inject. */
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { Envelope } from "../../server/protocol/envelope";
import type { ThrottleRules } from "../../server/auth/throttle";
import { tableColumn, type CatalogueTable } from "../../server/db/catalogueTables";
import type { Db } from "../../server/db/client";
import { users } from "../../server/db/schema";
import { loadAuthority } from "../../server/auth/authority";
import { ManualClock } from "../../server/lib/clock";
import { translator } from "../../server/lib/i18n";
import { buildApp, type AppOptions } from "../../server/protocol/app";
import type { AppServices, OperationContext } from "../../server/protocol/registry";
import { exportJobKinds } from "../../server/engine/exports";
import { JobWorker } from "../../server/jobs/worker";
import { PaymentSecrets } from "../../server/payments/secrets";
import { DEMO_PASSWORD } from "../../server/seed/demo";
import { TEST_NOW, TEST_PASSWORD_COST } from "../helpers/databaseImages";
import { createTestDatabase, type TestDatabase, type TestDatabaseKind } from "../helpers/db";

export { TEST_PASSWORD_COST };

/** an address nothing listens at: a call there fails at once, as a service that cannot be reached */
export const UNREACHABLE_ORIGIN = "http://127.0.0.1:9";

export interface CallOptions {
  token?: string;
  headers?: Record<string, string>;
  /** the address the call comes from (default 127.0.0.1) */
  remoteAddress?: string;
}

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  clock: ManualClock;
  testDb: TestDatabase;
  call(path: string, method: string, payload?: Record<string, unknown>, options?: CallOptions): Promise<Envelope>;
  /**
   * An export as a client follows it: the export operation, its job run, `downloadinfo`, then the file from the
   * signed link; answers the file as data.items {filename, mime, content_base64}, or the operation's FAIL.
   */
  exportFile(path: string, method: string, payload?: Record<string, unknown>, options?: CallOptions): Promise<Envelope>;
  /** runs the export jobs due now (and nothing else of the server's jobs) */
  runExportJobs(): Promise<number[]>;
  /** logs in with the demo password (or the given one) and returns the token */
  login(username: string, password?: string, options?: CallOptions): Promise<string>;
  close(): Promise<void>;
}

export async function createTestApp(
  kind: TestDatabaseKind,
  options: { seed?: boolean; throttle?: ThrottleRules; rateLimit?: AppOptions["rateLimit"]; bodyLimit?: number; staticDir?: string | null; paymentKey?: AppOptions["paymentKey"]; paymentSandbox?: boolean; wechatOAuth?: AppOptions["wechatOAuth"]; printerClouds?: AppOptions["printerClouds"]; workWechatOrigin?: string; alipayGateway?: string; publicUrl?: string; notify?: AppOptions["notify"]; jobs?: AppOptions["jobs"]; metricsToken?: string } = {},
): Promise<TestApp> {
  // the demo data as seeded at TEST_NOW, made once for the whole run
  const testDb = await createTestDatabase(kind, (options.seed ?? true) ? "seeded" : "migrated");
  const clock = new ManualClock(TEST_NOW);
  const db = testDb.database.db;
  const app = await buildApp({
    db,
    clock,
    passwordCost: TEST_PASSWORD_COST,
    throttle: options.throttle,
    rateLimit: options.rateLimit ?? false,
    bodyLimit: options.bodyLimit,
    staticDir: options.staticDir ?? null,
    paymentKey: options.paymentKey,
    paymentSandbox: options.paymentSandbox,
    wechatOAuth: options.wechatOAuth,
    printerClouds: options.printerClouds,
    // enterprise WeChat is never called from a test but through its stand-in: unset, a port that refuses at once
    workWechatOrigin: options.workWechatOrigin ?? UNREACHABLE_ORIGIN,
    alipayGateway: options.alipayGateway ?? `${UNREACHABLE_ORIGIN}/gateway.do`,
    publicUrl: options.publicUrl,
    notify: options.notify,
    jobs: options.jobs,
    metricsToken: options.metricsToken,
    databaseConnections: testDb.database.connections,
    logger: false,
  });
  const call: TestApp["call"] = async (path, method, payload = {}, callOptions = {}) => {
    const headers: Record<string, string> = { "content-type": "application/json", ...callOptions.headers };
    if (callOptions.token) headers["x-token"] = callOptions.token;
    const res = await app.inject({ method: "POST", url: `/weapi/${path}`, headers, payload: JSON.stringify({ method, ...payload }), remoteAddress: callOptions.remoteAddress });
    if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}: ${res.body}`);
    return res.json<Envelope>();
  };
  const exportWorker = new JobWorker({ services: { db, clock, paymentSecrets: new PaymentSecrets() }, kinds: exportJobKinds() });
  const runExportJobs = () => exportWorker.runDueJobs();
  const exportFile: TestApp["exportFile"] = async (path, method, payload = {}, callOptions = {}) => {
    const started = await call(path, method, payload, callOptions);
    if (started.return_code !== "SUCCESS") return started;
    const jobId = (started.data?.items as { job_id: number }).job_id;
    await runExportJobs();
    const info = await call("adminapiv2", "downloadinfo", { id: jobId }, callOptions);
    const item = info.data?.items as { status: string; url?: string; filename: string } | undefined;
    if (!item?.url) throw new Error(`export ${method}: ${info.return_msg} ${item?.status ?? ""}`);
    const file = await app.inject({ method: "GET", url: item.url });
    if (file.statusCode !== 200) throw new Error(`export ${method}: HTTP ${file.statusCode}`);
    return { return_code: "SUCCESS", return_msg: info.return_msg, data: { items: { filename: item.filename, mime: file.headers["content-type"], content_base64: file.rawPayload.toString("base64") } } };
  };
  return {
    app,
    db,
    clock,
    testDb,
    call,
    exportFile,
    runExportJobs,
    async login(username, password = DEMO_PASSWORD, callOptions) {
      const res = await call("adminapi", "login", { username, password }, callOptions);
      if (res.return_code !== "SUCCESS") throw new Error(`login ${username}: ${res.return_msg}`);
      return String(res.data?.token);
    },
    async close() {
      await app.close();
      await testDb.dispose();
    },
  };
}

/** The id of the demo record with this title (a provider, a school, a package...). */
export async function idByTitle(db: Db, table: CatalogueTable, title: string): Promise<number> {
  const [row] = await db.select({ id: tableColumn(table, "id") }).from(table).where(eq(tableColumn(table, "title"), title));
  if (!row) throw new Error(`no record titled ${title}`);
  return Number(row.id);
}

/**
 * The context an operation's handler is given, for a demo account of the app, as the protocol makes it after its
 * checks: for calling a registry of the test's own (declarations made for the test) without a route. A payload of its
 * own per call: the scope resolved for it is kept with it.
 */
export async function operationContextOf(t: TestApp, username: string, payload: Record<string, unknown>, language: "zh" | "en" | "es" = "en"): Promise<OperationContext> {
  const [user] = await t.db.select({ id: users.id }).from(users).where(eq(users.username, username));
  if (!user) throw new Error(`no demo account ${username}`);
  const auth = (await loadAuthority(t.db, user.id))!;
  return {
    services: {} as AppServices,
    db: t.db,
    payload: { ...payload },
    t: translator(language),
    language,
    now: t.clock.now(),
    ip: "127.0.0.1",
    userAgent: "test",
    origin: "http://127.0.0.1",
    log: t.app.log,
    auth,
    tokenHash: null,
    roles: auth.roles,
  } as OperationContext;
}
