/**
 * A fresh migrated database per test file: in-memory PGlite always, and a new database on the PostgreSQL server
 * of TEST_DATABASE_URL when it is set (created with a random name, dropped afterwards). Test apps start from the
 * images the server project's global setup made (databaseImages.ts): migrated, or seeded with the demo data.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import pg from "pg";
import { describe } from "vitest";
import { openDatabase, type Database } from "../../server/db/client";
import { isSkipped, skipReason } from "./requirements";

export type TestDatabaseKind = "pglite" | "postgres";

/** what a test database starts as: migrated only, or with the demo data seeded too */
export type DatabaseImage = "migrated" | "seeded";

/** the variables through which the global setup names its images: a PGlite image's file, a PostgreSQL template */
export const PGLITE_IMAGE_ENV: Record<DatabaseImage, string> = { migrated: "TEST_PGLITE_IMAGE_MIGRATED", seeded: "TEST_PGLITE_IMAGE_SEEDED" };
export const PG_TEMPLATE_ENV: Record<DatabaseImage, string> = { migrated: "TEST_PG_TEMPLATE_MIGRATED", seeded: "TEST_PG_TEMPLATE_SEEDED" };

function imageSetting(names: Record<DatabaseImage, string>, image: DatabaseImage): string {
  const value = process.env[names[image]];
  if (!value) throw new Error(`${names[image]} is not set: run the server tests through their global setup (tests/helpers/databaseImages.ts)`);
  return value;
}

/** each worker reads an image file once */
const pgliteImages = new Map<string, Buffer>();

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

/** A new database on the TEST_DATABASE_URL server, empty or a copy of `template`; drop() removes it. */
export async function createPostgresDatabase(template?: string): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("TEST_DATABASE_URL is not set");
  const name = `cpc_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
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

/** A fresh database, migrated from nothing, or started from one of the global setup's images. */
export async function createTestDatabase(kind: TestDatabaseKind, from?: DatabaseImage): Promise<TestDatabase> {
  if (kind === "pglite") {
    let image: Blob | undefined;
    if (from) {
      const file = imageSetting(PGLITE_IMAGE_ENV, from);
      let bytes = pgliteImages.get(file);
      if (!bytes) pgliteImages.set(file, (bytes = fs.readFileSync(file)));
      image = new Blob([new Uint8Array(bytes)]);
    }
    const database = await openDatabase({ kind: "memory", image });
    return { kind, database, dispose: () => database.close() };
  }
  const created = await createPostgresDatabase(from ? imageSetting(PG_TEMPLATE_ENV, from) : undefined);
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

/**
 * Runs the same tests once per database kind, each block with its own fresh database; a kind left out shows as skipped.
 * For what the two databases can do differently: the client layer (PGlite's one connection taken in turns and its
 * prepared statements, PostgreSQL's pool and pipelined list reads), concurrent writers and their locks, the types
 * values come back as (money, counts, times), the SQL of lists, reports and migrations.
 */
export function describeOnDatabases(name: string, body: (kind: TestDatabaseKind) => void): void {
  for (const kind of testDatabaseKinds()) {
    describe(`${name} [${kind}]`, () => body(kind));
  }
  if (isSkipped("postgres")) describe.skip(`${name} [postgres] (${skipReason()})`, () => body("postgres"));
}

/**
 * Runs the tests on the embedded database only: for behaviour that no database changes (payload validation, the
 * protocol, roles and tenancy checks, signatures, pages rendered) and no concurrent writers decide. Their queries
 * are those of the operations the files run on both databases exercise; keeping these off PostgreSQL keeps the
 * whole run short without testing less of what differs.
 */
export function describeOnEmbedded(name: string, body: (kind: TestDatabaseKind) => void): void {
  describe(`${name} [pglite]`, () => body("pglite"));
}

/** A block that needs PostgreSQL: defined always, so that leaving PostgreSQL out shows as skipped. */
export function describeOnPostgres(name: string, body: () => void): void {
  if (isSkipped("postgres")) describe.skip(`${name} (${skipReason()})`, body);
  else describe(name, body);
}
