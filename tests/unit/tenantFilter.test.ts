/**
 * The one tenant filter (server/auth/tenantFilter.ts) that CRUD, reports, the dashboard and imports share: the
 * provider's column, then the schools the scope allows (none: no row at all; every school: no school condition).
 */
import { and } from "drizzle-orm";
import { integer, PgDialect, pgTable } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import { tenantFilter } from "../../server/auth/tenantFilter";

const rows = pgTable("rows", { sysid: integer("sysid"), sch_id: integer("sch_id") });
const columns = { sysid: rows.sysid, schid: rows.sch_id };
const sqlOf = (conditions: ReturnType<typeof tenantFilter>) => new PgDialect().sqlToQuery(and(...conditions)!);

describe("tenant filter", () => {
  it("keeps a provider's rows, narrowed to the schools the scope allows", () => {
    expect(sqlOf(tenantFilter({ sysid: 5, schids: null }, columns))).toMatchObject({ sql: '"rows"."sysid" = $1', params: [5] });
    expect(sqlOf(tenantFilter({ sysid: 5, schids: [31] }, columns))).toMatchObject({ sql: '("rows"."sysid" = $1 and "rows"."sch_id" = $2)', params: [5, 31] });
    expect(sqlOf(tenantFilter({ sysid: 5, schids: [31, 32] }, columns))).toMatchObject({ sql: '("rows"."sysid" = $1 and "rows"."sch_id" in ($2, $3))', params: [5, 31, 32] });
  });

  it("matches nothing for a scope without a school, and says so for a statement's shape", () => {
    let told = 0;
    const conditions = tenantFilter({ sysid: 5, schids: [] }, columns, { onNoSchool: () => told++ });
    expect(sqlOf(conditions)).toMatchObject({ sql: '("rows"."sysid" = $1 and false)', params: [5] });
    expect(told).toBe(1);
  });

  it("leaves out what a table does not carry, and what a platform-wide scope does not narrow", () => {
    expect(tenantFilter({ sysid: null, schids: null }, columns)).toEqual([]);
    expect(sqlOf(tenantFilter({ sysid: 5, schids: [31] }, { sysid: rows.sysid }))).toMatchObject({ sql: '"rows"."sysid" = $1', params: [5] });
  });
});
