/**
 * Global setup of the server tests: the databases every test app starts from, made once instead of once per test
 * file and database (migrating and seeding the demo data took seconds each time). Two of each kind, one only
 * migrated and one seeded with the demo data at TEST_NOW:
 * - PGlite: images of an in-memory database (its data directory as a tarball) in files named by
 *   TEST_PGLITE_IMAGE_MIGRATED and TEST_PGLITE_IMAGE_SEEDED;
 * - PostgreSQL: template databases, named by TEST_PG_TEMPLATE_MIGRATED and TEST_PG_TEMPLATE_SEEDED, that each test
 *   database is copied from (CREATE DATABASE ... TEMPLATE).
 * A test that needs migrations to run from nothing (migrations.test.ts) still asks for an empty database.
 * The images are kept for the next run on the same sources (imageCache.ts), which then skips migrating and
 * seeding; TEST_IMAGE_CACHE=off makes fresh ones, removed when the run ends.
 */
import fs from "node:fs";
import { sql } from "drizzle-orm";
import { PasswordHasher, type PasswordCost } from "../../server/auth/passwords";
import { openDatabase, queryRows, type Database } from "../../server/db/client";
import { seedDemo } from "../../server/seed/demo";
import { PG_TEMPLATE_ENV, PGLITE_IMAGE_ENV, type DatabaseImage } from "./db";
import { imageKey, openImageStore } from "./imageCache";
import { isSkipped } from "./requirements";

/** argon2 at a cost fit for tests (explicit: production keeps the DESIGN cost) */
export const TEST_PASSWORD_COST: PasswordCost = { memoryCost: 1024, timeCost: 1 };
/** when the test apps' clocks start, and the demo data is seeded */
export const TEST_NOW = new Date("2026-03-02T02:00:00Z");

const IMAGES: readonly DatabaseImage[] = ["migrated", "seeded"];

/** a WAL segment's file in a data directory tarball: pg_wal/ and 24 hex digits */
const WAL_SEGMENT = /(^|\/)pg_wal\/([0-9A-F]{24})$/;

/**
 * The tarball of a ustar archive (what dumpDataDir writes: 512-byte headers, files and folders) without the WAL
 * segments outside [first, last]: those PostgreSQL keeps only to reuse as new segments, 80 MB of a seeded image's
 * 140 that every test database would otherwise read in.
 */
function withoutSpareWal(tar: Buffer, first: string, last: string): Buffer {
  const kept: Buffer[] = [];
  let offset = 0;
  while (offset + 512 <= tar.length) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((byte) => byte === 0)) break;
    const name = header.subarray(0, 100).toString("latin1").replace(/\0.*$/s, "");
    const size = parseInt(header.subarray(124, 136).toString("latin1").replace(/[\0 ]+$/, "") || "0", 8);
    const end = offset + 512 + Math.ceil(size / 512) * 512;
    const segment = WAL_SEGMENT.exec(name)?.[2];
    if (segment === undefined || (segment >= first && segment <= last)) kept.push(tar.subarray(offset, end));
    offset = end;
  }
  kept.push(Buffer.alloc(1024));
  return Buffer.concat(kept);
}

/**
 * The in-memory database as the image test databases start from: checkpointed first, so that opening a copy
 * replays no WAL, and without the spare WAL segments.
 */
async function dumpImage(database: Database): Promise<Buffer> {
  await database.db.execute(sql`CHECKPOINT`);
  const [wal] = await queryRows<{ first: string; last: string }>(
    database.db,
    sql`SELECT redo_wal_file AS first, pg_walfile_name(pg_current_wal_lsn()) AS last FROM pg_control_checkpoint()`,
  );
  return withoutSpareWal(Buffer.from(await (await database.dumpDataDir!()).arrayBuffer()), wal.first, wal.last);
}

async function seed(database: Database): Promise<void> {
  await seedDemo(database.db, { hasher: new PasswordHasher(TEST_PASSWORD_COST), now: TEST_NOW });
}

export default async function setup(): Promise<() => Promise<void>> {
  const postgres = !isSkipped("postgres");
  const id = imageKey([`TEST_NOW=${TEST_NOW.toISOString()}`, `password cost=${JSON.stringify(TEST_PASSWORD_COST)}`, `PUBLIC_URL=${process.env.PUBLIC_URL ?? ""}`]);
  const store = await openImageStore("server", id, { postgres });
  try {
    const file = (image: DatabaseImage) => `${image}.tar`;
    // one in-memory database, dumped once migrated and then once seeded, when an image is not kept already
    const pglite = IMAGES.every((image) => store.has(file(image))) ? undefined : await openDatabase({ kind: "memory" });
    try {
      for (const image of IMAGES) {
        if (image === "seeded" && pglite) await seed(pglite);
        process.env[PGLITE_IMAGE_ENV[image]] = await store.file(file(image), async (target) => {
          fs.writeFileSync(target, await dumpImage(pglite!));
        });
      }
    } finally {
      await pglite?.close();
    }
    if (postgres) {
      for (const image of IMAGES) {
        process.env[PG_TEMPLATE_ENV[image]] = await store.template(image, async (url) => {
          // no connection may stay open to a template while it is copied
          const database = await openDatabase({ kind: "postgres", url, poolSize: 2 });
          try {
            if (image === "seeded") await seed(database);
          } finally {
            await database.close();
          }
        });
      }
    }
  } catch (err) {
    await store.teardown();
    throw err;
  }
  console.log(store.summary());
  return () => store.teardown();
}
