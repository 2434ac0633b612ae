/**
 * Global setup of the server tests: the databases every test app starts from, made once per run instead of once per
 * test file and database (migrating and seeding the demo data took seconds each time). Two of each kind, one only
 * migrated and one seeded with the demo data at TEST_NOW:
 * - PGlite: images of an in-memory database (its data directory as a tarball) in files named by
 *   TEST_PGLITE_IMAGE_MIGRATED and TEST_PGLITE_IMAGE_SEEDED;
 * - PostgreSQL: template databases, named by TEST_PG_TEMPLATE_MIGRATED and TEST_PG_TEMPLATE_SEEDED, that each test
 *   database is copied from (CREATE DATABASE ... TEMPLATE).
 * A test that needs migrations to run from nothing (migrations.test.ts) still asks for an empty database.
 * Everything made here is removed when the run ends.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PasswordHasher, type PasswordCost } from "../../server/auth/passwords";
import { openDatabase, type Database } from "../../server/db/client";
import { seedDemo } from "../../server/seed/demo";
import { createPostgresDatabase, PG_TEMPLATE_ENV, PGLITE_IMAGE_ENV } from "./db";
import { isSkipped } from "./requirements";

/** argon2 at a cost fit for tests (explicit: production keeps the DESIGN cost) */
export const TEST_PASSWORD_COST: PasswordCost = { memoryCost: 1024, timeCost: 1 };
/** when the test apps' clocks start, and the demo data is seeded */
export const TEST_NOW = new Date("2026-03-02T02:00:00Z");


async function seed(database: Database): Promise<void> {
  await seedDemo(database.db, { hasher: new PasswordHasher(TEST_PASSWORD_COST), now: TEST_NOW });
}

export default async function setup(): Promise<() => Promise<void>> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cpc-db-images-"));
  const templates: { drop(): Promise<void> }[] = [];
  const teardown = async () => {
    for (const template of templates) await template.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    const pglite = await openDatabase({ kind: "memory" });
    try {
      for (const image of ["migrated", "seeded"] as const) {
        if (image === "seeded") await seed(pglite);
        const file = path.join(dir, `${image}.tar`);
        fs.writeFileSync(file, Buffer.from(await (await pglite.dumpDataDir!()).arrayBuffer()));
        process.env[PGLITE_IMAGE_ENV[image]] = file;
      }
    } finally {
      await pglite.close();
    }
    if (!isSkipped("postgres")) {
      for (const image of ["migrated", "seeded"] as const) {
        const template = await createPostgresDatabase();
        templates.push(template);
        // no connection may stay open to a template while it is copied
        const database = await openDatabase({ kind: "postgres", url: template.url, poolSize: 2 });
        try {
          if (image === "seeded") await seed(database);
        } finally {
          await database.close();
        }
        process.env[PG_TEMPLATE_ENV[image]] = template.name;
      }
    }
  } catch (err) {
    await teardown();
    throw err;
  }
  return teardown;
}
