/**
 * Tables of the catalogue entities (resources.config.ts), generated from their field declarations so a field
 * list is never written twice: money → integer fen (bigint), date → date string, datetime → timestamptz,
 * yesno/enum → varchar, virtual and password fields are not columns. Tenant columns and indexes for every
 * filter, sort and tenant column are added here.
 */
import {
  bigint,
  date,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
  varchar,
  type AnyPgColumn,
  type PgColumnBuilderBase,
} from "drizzle-orm/pg-core";
import { getTableColumns, getTableName } from "drizzle-orm";
import type { EntityDecl, FieldDecl } from "../../common/catalogue";
import { yuanToFen } from "../../common/money";

/** Tenant columns of an entity: provider and school scope carry sysid, school scope also sch_id. */
export function tenantColumnNames(entity: EntityDecl): { sysid?: string; schid?: string } {
  if (entity.scope === "platform") return {};
  const sysid = entity.tenantColumns?.sysid ?? "sysid";
  const schid = entity.tenantColumns?.schid ?? (entity.scope === "school" ? "sch_id" : undefined);
  return { sysid, schid };
}

/** Whether a field is stored as a column of the entity's table. */
export function isColumnField(field: FieldDecl): boolean {
  return !field.virtual && field.type !== "password";
}

function defaultValue(field: FieldDecl): string | number | undefined {
  if (field.default === undefined) return undefined;
  if (field.type === "money") return yuanToFen(String(field.default)) ?? 0;
  return field.default;
}

function fieldColumn(field: FieldDecl): PgColumnBuilderBase {
  // "id" is the record's own key in every entity
  if (field.name === "id") return serial("id").primaryKey();
  const dflt = defaultValue(field);
  switch (field.type) {
    case "string": {
      const col = varchar(field.name, { length: field.max ?? 255 });
      return withRules(col, field, dflt);
    }
    case "text":
      return withRules(text(field.name), field, dflt);
    case "int":
      return withRules(integer(field.name), field, dflt);
    case "money":
      return withRules(bigint(field.name, { mode: "number" }), field, dflt);
    case "date":
      return withRules(date(field.name, { mode: "string" }), field, dflt);
    case "datetime": {
      const col = timestamp(field.name, { withTimezone: true, mode: "date" });
      // a record's creation time is stamped by the database
      return field.name === "created_at" ? col.defaultNow().notNull() : withRules(col, field, dflt);
    }
    case "yesno":
      return withRules(varchar(field.name, { length: 1 }), field, dflt);
    case "enum":
      return withRules(varchar(field.name, { length: 32 }), field, dflt);
    case "password":
      throw new Error(`password field ${field.name} is never a column`);
  }
}

interface RuleBuilder {
  notNull(): unknown;
  default(value: unknown): unknown;
}

function withRules<T extends RuleBuilder & PgColumnBuilderBase>(col: T, field: FieldDecl, dflt: unknown): PgColumnBuilderBase {
  let out: RuleBuilder = col;
  if (dflt !== undefined) out = out.default(dflt) as RuleBuilder;
  if (field.required || dflt !== undefined) out = out.notNull() as RuleBuilder;
  return out as unknown as PgColumnBuilderBase;
}

export function catalogueTable(entity: EntityDecl) {
  const columns: Record<string, PgColumnBuilderBase> = {};
  for (const field of entity.fields) {
    if (isColumnField(field)) columns[field.name] = fieldColumn(field);
  }
  if (!columns.id) columns.id = serial("id").primaryKey();
  const tenant = tenantColumnNames(entity);
  for (const name of [tenant.sysid, tenant.schid]) {
    if (name && !columns[name]) columns[name] = integer(name).notNull();
  }
  const indexed = new Set<string>();
  for (const field of entity.fields) {
    if (isColumnField(field) && field.name !== "id" && (field.filter || field.sortable) && !field.unique) indexed.add(field.name);
  }
  for (const name of [tenant.sysid, tenant.schid]) if (name && name !== "id") indexed.add(name);
  const uniques = entity.fields.filter((f) => f.unique && isColumnField(f)).map((f) => f.name);
  return pgTable(entity.table, columns, (t) => [
    ...[...indexed].map((name) => index(`${entity.table}_${name}_idx`).on(t[name])),
    ...uniques.map((name) => uniqueIndex(`${entity.table}_${name}_unique`).on(t[name])),
  ]);
}

export type CatalogueTable = ReturnType<typeof catalogueTable>;

/** A column of a generated table by its API name. */
export function tableColumn(table: CatalogueTable, name: string): AnyPgColumn {
  const column = getTableColumns(table)[name];
  if (!column) throw new Error(`table ${getTableName(table)} has no column ${name}`);
  return column;
}
