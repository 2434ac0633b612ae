/**
 * Planner statistics derived from the catalogue, made when the database opens (after its migrations): for each
 * entity, the functional dependencies between its tenant columns and the references a list filters by (a class
 * lies in one school, a school in one provider). Without them PostgreSQL takes `sysid = ? AND sch_id = ? AND
 * class_id = ?` for three independent conditions, expects one row instead of a class's forty, and sorts every
 * match before it joins and limits; with them it reads the class's newest rows from the (class_id, id) index and
 * stops at the page's end. They are hints to the planner, not schema: the catalogue is their one source, so a new
 * entity gets them without a migration. ANALYZE (autovacuum, or the bulk seed) fills them.
 */
import { sql } from "drizzle-orm";
import type { EntityDecl } from "../../common/catalogue";
import { entities } from "../../resources.config";
import { isColumnField, tenantColumnNames } from "./catalogueTables";
import type { Db } from "./client";

/** PostgreSQL's limit of columns in one statistics object */
const MAX_STATISTICS_COLUMNS = 8;

/** The columns whose values depend on one another: the tenant columns and the references filtered by equality. */
export function dependentColumns(entity: EntityDecl): string[] {
  const tenant = tenantColumnNames(entity);
  const tenantColumns = [tenant.sysid, tenant.schid].filter((name): name is string => Boolean(name) && name !== "id");
  const references = entity.fields.filter((f) => f.type === "ref" && f.filter === "eq" && isColumnField(f) && !tenantColumns.includes(f.name)).map((f) => f.name);
  const columns = [...tenantColumns, ...references].slice(0, MAX_STATISTICS_COLUMNS);
  return columns.length >= 2 ? columns : [];
}

export function statisticsName(entity: EntityDecl): string {
  return `${entity.table}_tenant_deps`;
}

export async function createPlannerStatistics(db: Db): Promise<void> {
  for (const entity of entities) {
    const columns = dependentColumns(entity);
    if (columns.length === 0) continue;
    const quoted = columns.map((c) => sql.identifier(c));
    // servers starting together on one database are safe: the statement locks the table before it looks for the name
    await db.execute(
      sql`CREATE STATISTICS IF NOT EXISTS ${sql.identifier(statisticsName(entity))} (dependencies) ON ${sql.join(quoted, sql`, `)} FROM ${sql.identifier(entity.table)}`,
    );
  }
}
