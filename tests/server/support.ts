/** The app under test: a fresh seeded database, a clock the test moves, and a small /weapi client over inject. */
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { Envelope } from "../../server/protocol/envelope";
import type { ThrottleRules } from "../../server/auth/throttle";
import { tableColumn, type CatalogueTable } from "../../server/db/catalogueTables";
import type { Db } from "../../server/db/client";
import { ManualClock } from "../../server/lib/clock";
import { buildApp, type AppOptions } from "../../server/protocol/app";
import { DEMO_PASSWORD } from "../../server/seed/demo";
import { TEST_NOW, TEST_PASSWORD_COST } from "../helpers/databaseImages";
import { createTestDatabase, type TestDatabase, type TestDatabaseKind } from "../helpers/db";

export { TEST_PASSWORD_COST };

export interface CallOptions {
  token?: string;
  headers?: Record<string, string>;
}

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  clock: ManualClock;
  testDb: TestDatabase;
  call(path: string, method: string, payload?: Record<string, unknown>, options?: CallOptions): Promise<Envelope>;
  /** logs in with the demo password (or the given one) and returns the token */
  login(username: string, password?: string, options?: CallOptions): Promise<string>;
  close(): Promise<void>;
}

export async function createTestApp(
  kind: TestDatabaseKind,
  options: { seed?: boolean; throttle?: ThrottleRules; rateLimit?: AppOptions["rateLimit"]; bodyLimit?: number; staticDir?: string | null; paymentKey?: AppOptions["paymentKey"]; paymentSandbox?: boolean; wechatOAuth?: AppOptions["wechatOAuth"]; publicUrl?: string } = {},
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
    publicUrl: options.publicUrl,
    logger: false,
  });
  const call: TestApp["call"] = async (path, method, payload = {}, callOptions = {}) => {
    const headers: Record<string, string> = { "content-type": "application/json", ...callOptions.headers };
    if (callOptions.token) headers["x-token"] = callOptions.token;
    const res = await app.inject({ method: "POST", url: `/weapi/${path}`, headers, payload: JSON.stringify({ method, ...payload }) });
    if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}: ${res.body}`);
    return res.json<Envelope>();
  };
  return {
    app,
    db,
    clock,
    testDb,
    call,
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
