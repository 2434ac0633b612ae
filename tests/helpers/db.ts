/**
 * A fresh migrated database per test file: in-memory PGlite always, and a new database on the PostgreSQL server
 * of TEST_DATABASE_URL when it is set (created with a random name, dropped afterwards).
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { describe } from "vitest";
import { openDatabase, type Database } from "../../server/db/client";
import { isSkipped, skipReason } from "./requirements";

export type TestDatabaseKind = "pglite" | "postgres";

export interface TestDatabase {
  kind: TestDatabaseKind;
  database: Database;
  /** the PostgreSQL URL of the fresh database (postgres only) */
  url?: string;
  /** closes and, on PostgreSQL, drops the database */
  dispose(): Promise<void>;
}

/**
 * The kinds the suite runs on: PGlite and PostgreSQL (TEST_DATABASE_URL, found by the global setup). PostgreSQL
 * is left out only on purpose (TEST_SKIP=postgres), never silently.
 */
export function testDatabaseKinds(): TestDatabaseKind[] {
  if (isSkipped("postgres")) return ["pglite"];
  if (!process.env.TEST_DATABASE_URL) throw new Error("TEST_DATABASE_URL is not set: run the tests through vitest's global setup (npm test), or set TEST_SKIP=postgres");
  return ["pglite", "postgres"];
}

/** An empty database on the TEST_DATABASE_URL server, not yet migrated; drop() removes it. */
export async function createPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("TEST_DATABASE_URL is not set");
  const name = `cpc_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

export async function createTestDatabase(kind: TestDatabaseKind): Promise<TestDatabase> {
  if (kind === "pglite") {
    const database = await openDatabase({ kind: "memory" });
    return { kind, database, dispose: () => database.close() };
  }
  const created = await createPostgresDatabase();
  try {
    const database = await openDatabase({ kind: "postgres", url: created.url, poolSize: 4 });
    return {
      kind,
      database,
      url: created.url,
      async dispose() {
        await database.close();
        await created.drop();
      },
    };
  } catch (err) {
    await created.drop();
    throw err;
  }
}

/** Runs the same tests once per database kind, each block with its own fresh database; a kind left out shows as skipped. */
export function describeOnDatabases(name: string, body: (kind: TestDatabaseKind) => void): void {
  for (const kind of testDatabaseKinds()) {
    describe(`${name} [${kind}]`, () => body(kind));
  }
  if (isSkipped("postgres")) describe.skip(`${name} [postgres] (${skipReason()})`, () => body("postgres"));
}

/** A block that needs PostgreSQL: defined always, so that leaving PostgreSQL out shows as skipped. */
export function describeOnPostgres(name: string, body: () => void): void {
  if (isSkipped("postgres")) describe.skip(`${name} (${skipReason()})`, body);
  else describe(name, body);
}
