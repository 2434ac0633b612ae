/**
 * Global setup of the browser tests: the demo data seeded once per run, at the run's start, instead of once per
 * test file (seeding took longer than many a file's tests). Each file's server starts on a copy:
 * - PGlite: an embedded data directory (its `pgdata`), named by TEST_E2E_PGDATA and copied into the file's own;
 * - PostgreSQL: a template database, named by TEST_E2E_PG_TEMPLATE, copied by CREATE DATABASE ... TEMPLATE.
 * The browser's clock is the real one, so the demo is seeded at the real time, as a server seeds it on its first
 * start. Its terms and dates count whole days from the China business day it was seeded on, so the seeded demo is
 * kept (imageCache.ts) for the next run on the same sources and the same business day (Asia/Shanghai), which then
 * skips seeding; TEST_IMAGE_CACHE=off seeds afresh and removes it when the run ends.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { businessDay } from "../../common/term";
import { PasswordHasher } from "../../server/auth/passwords";
import { openDatabase, type Database } from "../../server/db/client";
import { seedDemo } from "../../server/seed/demo";
import { imageKey, openImageStore } from "./imageCache";
import { isSkipped } from "./requirements";

export const E2E_PGDATA_ENV = "TEST_E2E_PGDATA";
export const E2E_PG_TEMPLATE_ENV = "TEST_E2E_PG_TEMPLATE";

function setting(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the browser tests through their global setup (tests/helpers/browserDatabases.ts)`);
  return value;
}

/** A new embedded data directory holding a copy of the seeded demo; the caller removes it. */
export function copySeededDataDir(): string {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cpc-e2e-"));
  fs.cpSync(setting(E2E_PGDATA_ENV), path.join(dataDir, "pgdata"), { recursive: true });
  return dataDir;
}

/** The name of the PostgreSQL template holding the seeded demo. */
export function seededTemplate(): string {
  return setting(E2E_PG_TEMPLATE_ENV);
}

async function seedInto(database: Database, now: Date): Promise<void> {
  try {
    // the production cost, as on a server's first start: the tests log in as its users do
    await seedDemo(database.db, { hasher: new PasswordHasher(), now });
  } finally {
    await database.close();
  }
}

export default async function setup(): Promise<() => Promise<void>> {
  if (isSkipped("browser")) return async () => undefined;
  const postgres = !isSkipped("postgres");
  const now = new Date();
  const day = businessDay(now);
  const id = `${imageKey([`business day=${day}`, `PUBLIC_URL=${process.env.PUBLIC_URL ?? ""}`])}_${day.replace(/-/g, "")}`;
  const store = await openImageStore("e2e", id, { postgres });
  try {
    // `target` is a data directory's pgdata: the embedded database is made in that directory
    process.env[E2E_PGDATA_ENV] = await store.file("pgdata", async (target) => {
      await seedInto(await openDatabase({ kind: "pglite", dataDir: path.dirname(target) }), now);
    });
    if (postgres) {
      // no connection may stay open to a template while it is copied: seedInto closes its pool
      process.env[E2E_PG_TEMPLATE_ENV] = await store.template(undefined, async (url) => {
        await seedInto(await openDatabase({ kind: "postgres", url, poolSize: 2 }), now);
      });
    }
  } catch (err) {
    await store.teardown();
    throw err;
  }
  console.log(store.summary());
  return () => store.teardown();
}
