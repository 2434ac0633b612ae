/**
 * Writes the typed Drizzle tables of the catalogue entities (server/db/catalogue.generated.ts) from their
 * declarations, so that a column is named in the declaration only and a misspelt one fails the typecheck:
 * money → integer fen (bigint), date → date string, datetime → timestamptz, yesno/enum → varchar; virtual and
 * password fields are not columns. Indexes: one per filter and sort, the tenant column leading a composite index
 * with the list's default order (a tenant's list is read in that order), a unique index per unique field.
 *
 * `npm run generate:tables` writes the file; a test fails while it differs from what the catalogue gives. Then
 * `npx drizzle-kit generate` writes the migration.
 */
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import type { EntityDecl, FieldDecl } from "../../common/catalogue";
import { yuanToFen } from "../../common/money";
import { isColumnField, tenantColumnNames } from "./catalogueTables";

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

function columnSource(field: FieldDecl): string {
  const name = JSON.stringify(field.name);
  // "id" is the record's own key in every entity
  if (field.name === "id") return `serial(${name}).primaryKey()`;
  switch (field.type) {
    case "string":
      return withRules(`varchar(${name}, { length: ${field.max ?? 255} })`, field);
    case "text":
      return withRules(`text(${name})`, field);
    case "int":
      return withRules(`integer(${name})`, field);
    case "money":
      return withRules(`bigint(${name}, { mode: "number" })`, field);
    case "date":
      return withRules(`date(${name}, { mode: "string" })`, field);
    case "datetime":
      // a record's creation time is stamped by the database
      return field.name === "created_at" ? `timestamp(${name}, { withTimezone: true, mode: "date" }).defaultNow().notNull()` : withRules(`timestamp(${name}, { withTimezone: true, mode: "date" })`, field);
    case "yesno":
      return withRules(`varchar(${name}, { length: 1 })`, field);
    case "enum":
      return withRules(`varchar(${name}, { length: 32 })`, field);
    case "password":
      throw new Error(`password field ${field.name} is never a column`);
  }
}

const key = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name));

function tableSource(entity: EntityDecl): string {
  const columns = new Map<string, string>();
  for (const field of entity.fields) if (isColumnField(field)) columns.set(field.name, columnSource(field));
  if (!columns.has("id")) columns.set("id", `serial("id").primaryKey()`);
  const tenant = tenantColumnNames(entity);
  for (const name of [tenant.sysid, tenant.schid]) if (name && !columns.has(name)) columns.set(name, `integer(${JSON.stringify(name)}).notNull()`);

  const indexes: string[] = [];
  // the narrowest tenant column first, then the default order: a tenant's list page is one index range
  const tenantColumn = [tenant.schid, tenant.sysid].find((name) => name && name !== "id");
  const order = entity.defaultSort?.field ?? "id";
  if (tenantColumn) {
    const on = order === "id" ? [tenantColumn, "id"] : [tenantColumn, order, "id"];
    indexes.push(`index("${entity.table}_${on.join("_")}_idx").on(${on.map((c) => `t.${c}`).join(", ")})`);
  }
  for (const name of [tenant.sysid, tenant.schid]) {
    if (name && name !== "id" && name !== tenantColumn) indexes.push(`index("${entity.table}_${name}_idx").on(t.${name})`);
  }
  for (const field of entity.fields) {
    if (!isColumnField(field) || field.name === "id" || field.unique || !(field.filter || field.sortable)) continue;
    if (field.name === tenant.sysid || field.name === tenant.schid) continue;
    indexes.push(`index("${entity.table}_${field.name}_idx").on(t.${field.name})`);
  }
  for (const field of entity.fields.filter((f) => f.unique && isColumnField(f))) indexes.push(`uniqueIndex("${entity.table}_${field.name}_unique").on(t.${field.name})`);

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

const BUILDERS = ["bigint", "date", "index", "integer", "pgTable", "serial", "text", "timestamp", "uniqueIndex", "varchar"];

export function renderCatalogueTables(entities: readonly EntityDecl[]): string {
  const tables = entities.map(tableSource).join("\n\n");
  const used = BUILDERS.filter((b) => new RegExp(`\\b${b}\\(`).test(tables));
  const byEntity = entities.map((e) => `  ${key(e.name)}: ${tableExportName(e)},`).join("\n");
  return `// Generated from the catalogue's entity declarations by \`npm run generate:tables\` (server/db/generateTables.ts).
// Do not edit: change the declaration, run the generator, then \`npx drizzle-kit generate\`.
import { ${used.join(", ")} } from "drizzle-orm/pg-core";

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
