/**
 * The planner statistics the catalogue gives (server/db/plannerStatistics.ts) exist once a database has opened,
 * on both databases, and servers starting together on one PostgreSQL database do not fail for making them twice.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { entities } from "../../resources.config";
import { openDatabase, queryRows, type Database, type Db } from "../../server/db/client";
import { createPlannerStatistics, dependentColumns, statisticsName } from "../../server/db/plannerStatistics";
import { createPostgresDatabase, describeOnDatabases, describeOnPostgres, createTestDatabase, type TestDatabase } from "../helpers/db";

const student = entities.find((e) => e.name === "student");
if (!student) throw new Error("the catalogue declares no student entity");

/** The column names of each statistics object on the database, by its name. */
async function statisticsColumns(db: Db): Promise<Map<string, string[]>> {
  const rows = await queryRows<{ name: string; columns: string[] }>(
    db,
    sql`
      SELECT s.stxname AS name, array_agg(a.attname::text ORDER BY a.attname) AS columns
      FROM pg_statistic_ext s
      JOIN pg_attribute a ON a.attrelid = s.stxrelid AND a.attnum = ANY (s.stxkeys)
      GROUP BY s.stxname`,
  );
  return new Map(rows.map((r) => [r.name, r.columns]));
}

it("ties a student's school and provider to its grade and class", () => {
  expect(dependentColumns(student).sort()).toEqual(["class_id", "grade_id", "sch_id", "sysid"]);
});

describeOnDatabases("planner statistics", (kind) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(kind);
  });
  afterAll(() => t?.dispose());

  it("has one for every entity whose list filters by dependent columns, on exactly those columns", async () => {
    const found = await statisticsColumns(t.database.db);
    const expected = entities.filter((e) => dependentColumns(e).length > 0);
    expect(expected.length).toBeGreaterThan(0);
    for (const entity of expected) {
      expect(found.get(statisticsName(entity)), entity.name).toEqual([...dependentColumns(entity)].sort());
    }
  });
});

describeOnPostgres("planner statistics made by servers starting together", () => {
  it("lets servers starting at once on one database make them together", async () => {
    const created = await createPostgresDatabase();
    const servers: Database[] = [];
    try {
      for (let i = 0; i < 4; i++) servers.push(await openDatabase({ kind: "postgres", url: created.url, poolSize: 1 }));
      const made = entities.filter((e) => dependentColumns(e).length > 0);
      for (const entity of made) await servers[0].db.execute(sql`DROP STATISTICS ${sql.identifier(statisticsName(entity))}`);
      // what each server does after its migrations, at the same moment
      await Promise.all(servers.map((s) => createPlannerStatistics(s.db)));
      const found = await statisticsColumns(servers[0].db);
      for (const entity of made) expect(found.has(statisticsName(entity)), entity.name).toBe(true);
    } finally {
      await Promise.all(servers.map((s) => s.close()));
      await created.drop();
    }
  });
});
