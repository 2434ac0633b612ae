/**
 * The migration that makes a class's name unique within its grade (0013_class_title_within_grade) on a database
 * that already holds classes of one grade sharing a name, as the console allowed before: it keeps the first of
 * each name, gives each later one its id after the name (within the column's 50 characters), leaves classes of
 * other grades alone, and builds the unique index. On both databases.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { expect, it } from "vitest";
import { MIGRATIONS_FOLDER } from "../../server/db/client";
import { createPostgresDatabase, describeOnDatabases } from "../helpers/db";

const TAG = "0013_class_title_within_grade";

/** A copy of the migrations folder that ends before `tag`. */
function migrationsBefore(tag: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cpc-migrations-before-"));
  fs.cpSync(MIGRATIONS_FOLDER, dir, { recursive: true });
  const journalFile = path.join(dir, "meta/_journal.json");
  const journal = JSON.parse(fs.readFileSync(journalFile, "utf8")) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((e) => e.tag === tag);
  expect(at, `${tag} is in the journal`).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, at);
  fs.writeFileSync(journalFile, JSON.stringify(journal));
  return dir;
}

type Execute = (query: ReturnType<typeof sql>) => Promise<Record<string, unknown>[]>;

describeOnDatabases("class names unique within a grade: the migration", (kind) => {
  it("renames the later classes of a grade sharing a name and builds the unique index", async () => {
    const before = migrationsBefore(TAG);
    const cleanups: (() => Promise<unknown>)[] = [async () => fs.rmSync(before, { recursive: true, force: true })];
    try {
      let migrate: (folder: string) => Promise<void>;
      let execute: Execute;
      if (kind === "pglite") {
        const client = new PGlite();
        cleanups.push(() => client.close());
        const db = drizzlePglite(client);
        migrate = (folder) => migratePglite(db, { migrationsFolder: folder });
        execute = async (query) => (await db.execute(query)).rows as Record<string, unknown>[];
      } else {
        const created = await createPostgresDatabase();
        cleanups.push(() => created.drop());
        const pool = new pg.Pool({ connectionString: created.url, max: 1 });
        cleanups.push(() => pool.end());
        const db = drizzlePg(pool);
        migrate = (folder) => migratePg(db, { migrationsFolder: folder });
        execute = async (query) => (await db.execute(query)).rows as Record<string, unknown>[];
      }

      await migrate(before);
      const long = "x".repeat(50);
      await execute(sql`INSERT INTO providers (title, end_time) VALUES ('Provider', '2030-01-01')`);
      await execute(sql`INSERT INTO schools (title, sysid, endtime) SELECT 'School', id, '2030-01-01' FROM providers`);
      await execute(sql`INSERT INTO grades (sch_id, sysid, title) SELECT id, sysid, g FROM schools CROSS JOIN (VALUES ('一年级'), ('二年级')) AS v(g)`);
      await execute(sql`
        INSERT INTO classes (sch_id, sysid, grade_id, title)
        SELECT g.sch_id, g.sysid, g.id, v.title FROM grades g JOIN (VALUES
          (1, '一年级', '1班'), (2, '一年级', '1班'), (3, '一年级', '2班'), (4, '二年级', '1班'), (5, '一年级', '1班'),
          (6, '一年级', ${long}), (7, '一年级', ${long})
        ) AS v(n, grade, title) ON v.grade = g.title ORDER BY v.n`);
      const ids = (await execute(sql`SELECT id FROM classes ORDER BY id`)).map((r) => Number(r.id));

      await migrate(MIGRATIONS_FOLDER);
      const rows = await execute(sql`SELECT c.id, g.title AS grade, c.title FROM classes c JOIN grades g ON g.id = c.grade_id ORDER BY c.id`);
      expect(rows.map((r) => [r.grade, r.title])).toEqual([
        ["一年级", "1班"],
        ["一年级", `1班 #${ids[1]}`],
        ["一年级", "2班"],
        ["二年级", "1班"],
        ["一年级", `1班 #${ids[4]}`],
        ["一年级", long],
        ["一年级", `${long.slice(0, 50 - ` #${ids[6]}`.length)} #${ids[6]}`],
      ]);
      const index = await execute(sql`SELECT indexdef FROM pg_indexes WHERE indexname = 'classes_grade_id_title_unique'`);
      expect(String(index[0]?.indexdef)).toMatch(/UNIQUE INDEX .* \(grade_id, title\)/);
      await expect(execute(sql`INSERT INTO classes (sch_id, sysid, grade_id, title) SELECT sch_id, sysid, grade_id, title FROM classes WHERE title = '2班'`)).rejects.toThrow();
    } finally {
      for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    }
  });
});
