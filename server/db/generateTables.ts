/**
 * Writes the typed Drizzle tables of the catalogue entities (server/db/catalogue.generated.ts) from their
 * declarations, so that a column is named in the declaration only and a misspelt one fails the typecheck:
 * each field's column comes from its kind (server/engine/fieldKinds); virtual and password fields are not columns.
 * Indexes: one per filter and sort; the tenant column, and a reference picked in a filter followed by the tenant
 * columns, leading a composite index with the list's default order (such a list is read in that order); a unique
 * index per unique field (after its tenant column, or the reference it is unique within).
 *
 * `npm run generate:tables` writes the file; a test fails while it differs from what the catalogue gives. Then
 * `npx drizzle-kit generate` writes the migration.
 */
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import type { EntityDecl, FieldDecl } from "../../common/catalogue";
import { yuanToFen } from "../../common/money";
import { kindOf } from "../engine/fieldKinds";
import { isColumnField, tenantColumnNames, uniqueColumns, uniqueIndexName } from "./catalogueTables";

export const GENERATED_TABLES_FILE = fileURLToPath(new URL("./catalogue.generated.ts", import.meta.url));

/** The export name of an entity's table: its table name in camelCase (meal_packages → mealPackages). */
export function tableExportName(entity: EntityDecl): string {
  return entity.table.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

function defaultValue(field: FieldDecl): string | number | undefined {
  if (field.default === undefined) return undefined;
  if (field.type === "money") return yuanToFen(String(field.default)) ?? 0;
  return field.default;
}

function withRules(builder: string, field: FieldDecl): string {
  const dflt = defaultValue(field);
  let out = builder;
  if (dflt !== undefined) out += `.default(${JSON.stringify(dflt)})`;
  if (field.required || dflt !== undefined) out += ".notNull()";
  return out;
}

function columnSource(field: FieldDecl, entities: readonly EntityDecl[]): string {
  // "id" is the record's own key in every entity
  if (field.name === "id") return `serial(${JSON.stringify(field.name)}).primaryKey()`;
  const column = kindOf(field).column(field);
  if (field.name === "created_at") return `${column}.notNull()`;
  const target = field.type === "ref" && !field.multiple ? entities.find((e) => e.name === field.ref?.entity) : undefined;
  // a referred record cannot be deleted while referred to (the engine says so first, with a clear message)
  const references = target ? `.references((): AnyPgColumn => ${tableExportName(target)}.id)` : "";
  return withRules(column, field) + references;
}

const key = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name));

function tableSource(entity: EntityDecl, entities: readonly EntityDecl[]): string {
  const columns = new Map<string, string>();
  for (const field of entity.fields) if (isColumnField(field)) columns.set(field.name, columnSource(field, entities));
  if (!columns.has("id")) columns.set("id", `serial("id").primaryKey()`);
  const tenant = tenantColumnNames(entity);
  for (const name of [tenant.sysid, tenant.schid]) {
    if (!name || name === "id") continue;
    // a tenant column is always set (from the caller's scope), declared as a field or not
    const declared = columns.get(name);
    if (!declared) columns.set(name, `integer(${JSON.stringify(name)}).notNull()`);
    else if (!declared.includes(".notNull()")) columns.set(name, declared.replace(/^(integer\([^)]*\))/, "$1.notNull()"));
  }

  const indexes: string[] = [];
  const order = entity.defaultSort?.field ?? "id";
  /**
   * an index led by `lead` (and `then`, the columns always compared for equality beside it) and then the default
   * order: a list narrowed by them is read as one index range
   */
  const ordered = (lead: string, then: string[] = []) => {
    const on = order === "id" || order === lead ? [lead, ...then, "id"] : [lead, ...then, order, "id"];
    indexes.push(`index("${entity.table}_${on.join("_")}_idx").on(${on.map((c) => `t.${c}`).join(", ")})`);
  };
  // the narrowest tenant column first: a school's list; the provider column too: a provider's list of all its schools
  const tenantColumns = [tenant.schid, tenant.sysid].filter((name): name is string => Boolean(name) && name !== "id");
  for (const name of tenantColumns) ordered(name);
  for (const field of entity.fields) {
    // a reference unique within another (a bill's student within its activity) is still filtered by alone
    const uniqueLedByOther = typeof field.unique === "object" && field.type === "ref" && field.filter === "eq";
    if (!isColumnField(field) || field.name === "id" || (field.unique && !uniqueLedByOther) || !(field.filter || field.sortable)) continue;
    if (field.name === tenant.sysid || field.name === tenant.schid) continue;
    // a reference picked in a filter (the students of a class), or searched by its records' names, is read in the
    // list's order; its tenant's columns follow, as every list compares them too, so the page's total is counted
    // from the index alone
    if (field.type === "ref" && (field.filter === "eq" || field.filter === "like")) ordered(field.name, tenantColumns);
    else indexes.push(`index("${entity.table}_${field.name}_idx").on(t.${field.name})`);
  }
  for (const on of entity.indexes ?? []) {
    for (const name of on) if (!columns.has(name)) throw new Error(`${entity.name}: an index names ${name}, no column of it`);
    indexes.push(`index("${entity.table}_${on.join("_")}_idx").on(${on.map((c) => `t.${c}`).join(", ")})`);
  }
  // a child entity's rows are read by their parent, in their order (an activity's fee items)
  for (const parent of entities) {
    for (const child of parent.children ?? []) if (child.entity === entity.name) ordered(child.parentField);
  }
  for (const field of entity.fields.filter((f) => f.unique && isColumnField(f))) {
    // unique within the tenant (or a reference): that column leads, so the index also serves its lookups
    const on = uniqueColumns(entity, field);
    indexes.push(`uniqueIndex("${uniqueIndexName(entity, field)}").on(${on.map((c) => `t.${c}`).join(", ")})`);
  }

  const body = [...columns].map(([name, source]) => `    ${key(name)}: ${source},`).join("\n");
  return `/** ${entity.name} (${entity.title}) */
export const ${tableExportName(entity)} = pgTable(
  ${JSON.stringify(entity.table)},
  {
${body}
  },
  (t) => [
${indexes.map((i) => `    ${i},`).join("\n")}
  ],
);`;
}

const BUILDERS = ["bigint", "date", "index", "integer", "jsonb", "pgTable", "serial", "text", "timestamp", "uniqueIndex", "varchar"];

export function renderCatalogueTables(declared: readonly EntityDecl[]): string {
  // an entity its domain implements keeps its own hand-written table
  const entities = declared.filter((e) => e.implementedBy !== "domain" && !e.ownTable);
  const tables = entities.map((e) => tableSource(e, entities)).join("\n\n");
  const used = BUILDERS.filter((b) => new RegExp(`\\b${b}\\(`).test(tables));
  const byEntity = entities.map((e) => `  ${key(e.name)}: ${tableExportName(e)},`).join("\n");
  return `// Generated from the catalogue's entity declarations by \`npm run generate:tables\` (server/db/generateTables.ts).
// Do not edit: change the declaration, run the generator, then \`npx drizzle-kit generate\`.
import { ${used.join(", ")}${tables.includes("AnyPgColumn") ? ", type AnyPgColumn" : ""} } from "drizzle-orm/pg-core";

${tables}

/** Every catalogue entity's table by entity name. */
export const catalogueTablesByEntity = {
${byEntity}
} as const;
`;
}

// npm run generate:tables
if (process.argv[1] && fileURLToPath(import.meta.url) === fs.realpathSync(process.argv[1])) {
  const { entities } = await import("../../resources.config");
  fs.writeFileSync(GENERATED_TABLES_FILE, renderCatalogueTables(entities));
  console.log(`wrote ${GENERATED_TABLES_FILE}`);
}
