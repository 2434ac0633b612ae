/**
 * A fresh migrated database per test block: in-memory PGlite always, and for the files listed in ON_POSTGRES
 * (onPostgres.ts) a new database on the PostgreSQL server of TEST_DATABASE_URL too (created with a random name,
 * dropped afterwards). Test apps start from the images the server project's global setup made (databaseImages.ts):
 * migrated, or seeded with the demo data.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { describe, TestRunner } from "vitest";
import { openDatabase, type Database } from "../../server/db/client";
import { postgresReason } from "./onPostgres";
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

/**
 * An image file as the databases opened from it read it. PGlite reads a data directory's tarball by arrayBuffer() and
 * copies the files out of it; so every database opened from the image is handed the same bytes, read from the file
 * once per worker. A Blob made anew each time would copy the 80 MB of a seeded image twice per database (into the
 * Blob, then out of it): a second of CPU each time, for each of the hundreds of test databases.
 */
class ImageFile extends Blob {
  readonly #bytes: ArrayBuffer;

  constructor(file: string) {
    const bytes = fs.readFileSync(file);
    super([bytes]);
    this.#bytes = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(this.#bytes);
  }
}

const pgliteImages = new Map<string, ImageFile>();

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

/** The PGlite image an in-memory database opens from (`{ kind: "memory", image }`): no migration runs again. */
export function pgliteImage(from: DatabaseImage): Blob {
  const file = imageSetting(PGLITE_IMAGE_ENV, from);
  let image = pgliteImages.get(file);
  if (!image) pgliteImages.set(file, (image = new ImageFile(file)));
  return image;
}

/** A fresh database, migrated from nothing, or started from one of the global setup's images. */
export async function createTestDatabase(kind: TestDatabaseKind, from?: DatabaseImage): Promise<TestDatabase> {
  if (kind === "pglite") {
    const database = await openDatabase({ kind: "memory", image: from && pgliteImage(from) });
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
 * A copy of the seeded image for a real server (startTestServer with seedDemo: false) to start on, instead of one it
 * seeds itself, which takes longer than the tests that need it: a PostgreSQL database, or an embedded data directory.
 * dispose() removes it once the server has closed.
 */
export async function seededServerDatabase(kind: TestDatabaseKind): Promise<{ databaseUrl?: string; dataDir?: string; dispose(): Promise<void> }> {
  if (kind === "postgres") {
    const created = await createPostgresDatabase(imageSetting(PG_TEMPLATE_ENV, "seeded"));
    return { databaseUrl: created.url, dispose: () => created.drop() };
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cpc-seeded-"));
  const client = await PGlite.create({ dataDir: path.join(dataDir, "pgdata"), loadDataDir: pgliteImage("seeded") });
  await client.close();
  return { dataDir, dispose: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
}

/**
 * Fails unless the test file being collected is listed in ON_POSTGRES (onPostgres.ts): the one place that says
 * which files hold blocks on PostgreSQL, and why.
 */
export function assertListedOnPostgres(helper: string): void {
  const file = TestRunner.getCurrentSuite().file?.filepath;
  if (!file) throw new Error(`${helper} is called while vitest collects a test file`);
  if (postgresReason(file) === undefined) {
    throw new Error(`${file} calls ${helper}: list it in ON_POSTGRES (tests/helpers/onPostgres.ts) with why, or run its blocks on PGlite alone (describeOnEmbedded)`);
  }
}

/**
 * Runs the block on PGlite and on PostgreSQL, each with its own fresh database, in a file listed in ON_POSTGRES
 * (onPostgres.ts, with why); PostgreSQL left out on purpose (TEST_SKIP=postgres) shows as skipped.
 */
export function describeOnDatabases(name: string, body: (kind: TestDatabaseKind) => void): void {
  assertListedOnPostgres("describeOnDatabases");
  for (const kind of testDatabaseKinds()) describe(`${name} [${kind}]`, () => body(kind));
  if (isSkipped("postgres")) describe.skip(`${name} [postgres] (${skipReason()})`, () => body("postgres"));
}

/**
 * Runs the tests on the embedded database only: every block of a file not listed in ON_POSTGRES, and the blocks of a
 * listed one that no concurrent writer, connection or driver decides (payload validation, the protocol, roles and
 * tenancy checks, signatures, pages rendered).
 */
export function describeOnEmbedded(name: string, body: (kind: TestDatabaseKind) => void): void {
  describe(`${name} [pglite]`, () => body("pglite"));
}

/** A block that needs PostgreSQL, in a file listed in ON_POSTGRES: defined always, so that leaving PostgreSQL out shows as skipped. */
export function describeOnPostgres(name: string, body: () => void): void {
  assertListedOnPostgres("describeOnPostgres");
  if (isSkipped("postgres")) describe.skip(`${name} (${skipReason()})`, body);
  else describe(name, body);
}
