/**
 * What the catalogue says about the columns of its entities' tables (the tables themselves are generated:
 * catalogue.generated.ts, by generateTables.ts): which fields are columns, which columns carry the tenant, and a
 * column by its name for the generic operations.
 */
import type { AnyPgColumn, PgTable } from "drizzle-orm/pg-core";
import { getTableColumns, getTableName } from "drizzle-orm";
import type { EntityDecl, FieldDecl } from "../../common/catalogue";

/**
 * Tenant columns of an entity: provider and school scope carry sysid, school scope also sch_id; an entity pickup
 * clerks read names its pickup-point column.
 */
export function tenantColumnNames(entity: EntityDecl): { sysid?: string; schid?: string; pickupPoint?: string } {
  if (entity.scope === "platform") return {};
  const sysid = entity.tenantColumns?.sysid ?? "sysid";
  const schid = entity.tenantColumns?.schid ?? (entity.scope === "school" ? "sch_id" : undefined);
  return { sysid, schid, pickupPoint: entity.tenantColumns?.pickupPoint };
}

/** Whether a field is stored as a column of the entity's table. */
export function isColumnField(field: FieldDecl): boolean {
  return !field.virtual && field.type !== "password";
}

/** Any catalogue entity's table, as the generic operations handle it (column names known at run time). */
export type CatalogueTable = PgTable;

/** A column of a generated table by its API name (typed code names the column directly: `schools.endtime`). */
export function tableColumn(table: CatalogueTable, name: string): AnyPgColumn {
  const column = getTableColumns(table)[name];
  if (!column) throw new Error(`table ${getTableName(table)} has no column ${name}`);
  return column;
}

/**
 * The columns a unique field's unique index is on, the field last: the field alone (unique platform-wide), after
 * the narrowest tenant column (unique within the tenant) or after the reference it is unique within.
 */
export function uniqueColumns(entity: EntityDecl, field: FieldDecl): string[] {
  const unique = field.unique;
  if (!unique) return [];
  if (typeof unique === "object") {
    if (!entity.fields.some((f) => f.name === unique.within && f.type === "ref" && isColumnField(f))) {
      throw new Error(`${entity.name}.${field.name} is unique within ${unique.within}, which is no reference of ${entity.name}`);
    }
    return [unique.within, field.name];
  }
  const tenant = tenantColumnNames(entity);
  const tenantColumn = [tenant.schid, tenant.sysid].find((name) => name && name !== "id");
  return unique === "tenant" && tenantColumn ? [tenantColumn, field.name] : [field.name];
}

/** The name of a unique field's unique index (catalogue.generated.ts), so that a violation names the field. */
export function uniqueIndexName(entity: EntityDecl, field: FieldDecl): string {
  return `${entity.table}_${uniqueColumns(entity, field).join("_")}_unique`;
}
