/**
 * State totals (EntityDecl.stateTotals): each state's row count and the summary fields' sums per tenant, kept by
 * the database in a table of their own, `{table}_state_totals`, so that a list narrowed by its tenant and state
 * alone answers its tabs, total and summary from a handful of rows instead of counting a school's orders.
 *
 * Statement-level triggers with transition tables append one row per tenant and state a statement changed,
 * holding the difference (+1 / -1 and the amounts), so that every write path (a payment, the closing job, the
 * bulk seed, a refund to come) keeps them without knowing of them, and no two payments ever wait on one counter
 * row or deadlock over two. A recurring job folds each tenant's and state's rows into one (`compactStateTotals`);
 * a read sums what is there, folded or not.
 *
 * The table, its function and triggers are derived data made from the declaration when the database opens, like
 * the planner statistics: a digest of their definition is the table's comment, and when it differs (first open,
 * a changed declaration) they are made anew and counted from the rows, with the entity's table locked against
 * writes meanwhile, so no change is counted twice or missed. Servers opening one database together do it once.
 *
 * An entity keeping its totals by day too (`stateTotals: { days: field }`) has a second table, `{table}_day_totals`,
 * with the business day of that field as one more key, kept by the same triggers and folded by the same job: a list
 * narrowed by its tenant, state and a range of whole days sums the days' rows. With it come indexes on its table
 * by tenant, state, day and id (made and dropped with the totals), which read a range's first page day by day.
 */
import { createHash } from "node:crypto";
import { sql, type SQL } from "drizzle-orm";
import { bigint, boolean, date, integer, pgTable, text, type PgColumnBuilderBase } from "drizzle-orm/pg-core";
import { BUSINESS_TIME_ZONE } from "../../common/businessTime";
import type { EntityDecl } from "../../common/catalogue";
import { tableColumn, tenantColumnNames, type CatalogueTable } from "./catalogueTables";
import type { Db, DbOrTx } from "./client";

/**
 * The columns of an entity's state totals: its tenant columns (a pickup point's too, 0 for a record of none), its
 * state, whether each `orSet` column of its sums in states is set (a shop order refunded in full is cancelled but
 * was paid), the count and the summed fields.
 */
export interface StateTotalsColumns {
  tenant: string[];
  state: string;
  /** `{column}_set`, by the column whose being set it records */
  flags: { column: string; name: string }[];
  sums: readonly string[];
  /** the datetime column whose business days the day totals are kept by, if any */
  days?: string;
}

/** the day totals' column holding the business day */
export const DAY = "day";

/** the column holding the number of rows */
export const ROW_COUNT = "row_count";

export function stateTotalsTableName(entity: EntityDecl): string {
  return `${entity.table}_state_totals`;
}

export function dayTotalsTableName(entity: EntityDecl): string {
  return `${entity.table}_day_totals`;
}

/** The datetime field an entity keeps its totals by day of (`stateTotals: { days }`), checked; else undefined. */
export function stateTotalsDays(entity: EntityDecl): string | undefined {
  const declared = entity.stateTotals;
  if (typeof declared !== "object") return undefined;
  const field = entity.fields.find((f) => f.name === declared.days);
  if (!field || field.type !== "datetime" || field.virtual) throw new Error(`${entity.name}: its state totals are kept by day of ${declared.days}, no datetime column of it`);
  return field.name;
}

/** The business day (a date) of a timestamptz column, as the day totals and the page's indexes key it. */
export function businessDaySql(column: string): string {
  return `(("${column}" AT TIME ZONE '${BUSINESS_TIME_ZONE}')::date)`;
}

/** The indexes reading a range of days' first page: one per tenant column but the pickup point's (names, columns). */
export function dayPageIndexes(entity: EntityDecl): { name: string; on: string }[] {
  const days = stateTotalsDays(entity);
  if (!days) return [];
  const { state } = stateTotalsColumns(entity);
  const tenant = tenantColumnNames(entity);
  return [tenant.sysid, tenant.schid]
    .filter((name): name is string => Boolean(name) && name !== "id")
    .map((c) => ({ name: `${entity.table}_${c}_${state}_${days}_by_day`, on: `("${c}", "${state}", ${businessDaySql(days)}, "id") INCLUDE ("${days}")` }));
}

export function stateTotalsColumns(entity: EntityDecl): StateTotalsColumns {
  if (!entity.stateField) throw new Error(`${entity.name}: stateTotals needs a stateField`);
  const tenant = tenantColumnNames(entity);
  const flagged = [...new Set((entity.summaryInStates ?? []).flatMap((sum) => (sum.orSet ? [sum.orSet] : [])))];
  return {
    tenant: [tenant.sysid, tenant.schid, tenant.pickupPoint].filter((name): name is string => Boolean(name) && name !== "id"),
    state: entity.stateField,
    flags: flagged.map((column) => ({ column, name: stateTotalsFlag(column) })),
    sums: entity.summary ?? [],
    days: stateTotalsDays(entity),
  };
}

/** The totals' column recording whether `column` is set. */
export function stateTotalsFlag(column: string): string {
  return `${column}_set`;
}

/** The entities that keep state totals. */
export function stateTotalEntities(entities: readonly EntityDecl[]): EntityDecl[] {
  return entities.filter((e) => e.stateTotals);
}

/** An entity's state totals table (or its day totals table) for drizzle's queries (made once per entity). */
const tables = new WeakMap<EntityDecl, CatalogueTable>();
const dayTables = new WeakMap<EntityDecl, CatalogueTable>();
export function stateTotalsTable(entity: EntityDecl, byDay = false): CatalogueTable {
  const made = byDay ? dayTables : tables;
  let table = made.get(entity);
  if (!table) {
    const { tenant, state, flags, sums, days } = stateTotalsColumns(entity);
    if (byDay && !days) throw new Error(`${entity.name}: keeps no state totals by day`);
    const columns: Record<string, PgColumnBuilderBase> = {};
    for (const name of tenant) columns[name] = integer(name).notNull();
    if (byDay) columns[DAY] = date(DAY, { mode: "string" }).notNull();
    columns[state] = text(state).notNull();
    for (const flag of flags) columns[flag.name] = boolean(flag.name).notNull();
    columns[ROW_COUNT] = bigint(ROW_COUNT, { mode: "number" }).notNull();
    for (const name of sums) columns[name] = bigint(name, { mode: "number" }).notNull();
    made.set(entity, (table = pgTable(byDay ? dayTotalsTableName(entity) : stateTotalsTableName(entity), columns)));
  }
  return table;
}

/** The totals tables an entity keeps: its state totals, and its day totals if it keeps them. */
function totalsTables(entity: EntityDecl): { table: CatalogueTable; byDay: boolean }[] {
  const kept = [{ table: stateTotalsTable(entity), byDay: false }];
  if (stateTotalsDays(entity)) kept.push({ table: stateTotalsTable(entity, true), byDay: true });
  return kept;
}

/** The statements that make an entity's state totals table (and day totals), their indexes, function and triggers. */
export function stateTotalsDefinition(entity: EntityDecl): string[] {
  const { tenant, state, flags, sums, days } = stateTotalsColumns(entity);
  const totals = stateTotalsTableName(entity);
  const dayTotals = dayTotalsTableName(entity);
  const fn = `${totals}_count`;
  const q = (name: string) => `"${name}"`;
  const pickupPoint = tenantColumnNames(entity).pickupPoint;
  // the keys of each table: the day's come after the tenant's
  const keyNames = (byDay: boolean) => [...tenant, ...(byDay ? [DAY] : []), state, ...flags.map((f) => f.name)];
  // a row's keys as the totals hold them: a record of no pickup point under 0 (a key compares equal, where NULL
  // would not), its business day, and whether each flagged column is set
  const rowKeys = (byDay: boolean) =>
    [
      ...tenant.map((c) => (c === pickupPoint ? `coalesce(${q(c)}, 0) AS ${q(c)}` : q(c))),
      ...(byDay && days ? [`${businessDaySql(days)} AS ${q(DAY)}`] : []),
      q(state),
      ...flags.map((f) => `(${q(f.column)} IS NOT NULL) AS ${q(f.name)}`),
    ].join(", ");
  const target = (byDay: boolean) => [...keyNames(byDay), ROW_COUNT, ...sums].map(q).join(", ");
  const groupBy = (byDay: boolean) => keyNames(byDay).map((_, i) => i + 1).join(", ");
  // a record whose day field is empty is in no day
  const dated = (byDay: boolean) => (byDay && days ? ` WHERE ${q(days)} IS NOT NULL` : "");
  // the difference a transition table makes, signed: + for rows that are, - for rows that were
  const signed = (byDay: boolean, rows: string, sign: "" | "-") =>
    `SELECT ${rowKeys(byDay)}, ${sign}1 AS ${q(ROW_COUNT)}${sums.map((s) => `, ${sign}coalesce(${q(s)}, 0) AS ${q(s)}`).join("")} FROM ${rows}${dated(byDay)}`;
  const folded = (byDay: boolean, change: (byDay: boolean) => string) =>
    `INSERT INTO ${q(byDay ? dayTotals : totals)} (${target(byDay)}) SELECT ${keyNames(byDay).map(q).join(", ")}, sum(${q(ROW_COUNT)})${sums.map((s) => `, sum(${q(s)})`).join("")} FROM (${change(byDay)}) AS changed GROUP BY ${groupBy(byDay)} HAVING sum(${q(ROW_COUNT)}) <> 0${sums.map((s) => ` OR sum(${q(s)}) <> 0`).join("")}`;
  const kept = days ? [false, true] : [false];
  const each = (change: (byDay: boolean) => string) => kept.map((byDay) => `${folded(byDay, change)};`).join("\n    ");
  const table = (byDay: boolean) =>
    `CREATE TABLE ${q(byDay ? dayTotals : totals)} (id bigserial PRIMARY KEY, ${tenant.map((c) => `${q(c)} integer NOT NULL, `).join("")}${byDay ? `${q(DAY)} date NOT NULL, ` : ""}${q(state)} text NOT NULL, ${flags.map((f) => `${q(f.name)} boolean NOT NULL, `).join("")}${q(ROW_COUNT)} bigint NOT NULL${sums.map((s) => `, ${q(s)} bigint NOT NULL`).join("")})`;
  return [
    ...kept.map(table),
    // each tenant column leads an index: a school's totals, a provider's over its schools (a range of its days)
    ...tenant.map((c) => `CREATE INDEX ${q(`${totals}_${c}_idx`)} ON ${q(totals)} (${q(c)}, ${q(state)})`),
    ...(days ? tenant.map((c) => `CREATE INDEX ${q(`${dayTotals}_${c}_idx`)} ON ${q(dayTotals)} (${q(c)}, ${q(DAY)})`) : []),
    // a range of days' first page, read day by day
    ...dayPageIndexes(entity).map((index) => `CREATE INDEX ${q(index.name)} ON ${q(entity.table)} ${index.on}`),
    `CREATE FUNCTION ${q(fn)}() RETURNS trigger LANGUAGE plpgsql AS $body$
BEGIN
  IF TG_OP = 'INSERT' THEN
    ${each((byDay) => signed(byDay, "new_rows", ""))}
  ELSIF TG_OP = 'UPDATE' THEN
    ${each((byDay) => `${signed(byDay, "new_rows", "")} UNION ALL ${signed(byDay, "old_rows", "-")}`)}
  ELSIF TG_OP = 'DELETE' THEN
    ${each((byDay) => signed(byDay, "old_rows", "-"))}
  ELSE
    ${kept.map((byDay) => `DELETE FROM ${q(byDay ? dayTotals : totals)};`).join("\n    ")}
  END IF;
  RETURN NULL;
END
$body$`,
    `CREATE TRIGGER ${q(`${totals}_insert`)} AFTER INSERT ON ${q(entity.table)} REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${q(fn)}()`,
    `CREATE TRIGGER ${q(`${totals}_update`)} AFTER UPDATE ON ${q(entity.table)} REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${q(fn)}()`,
    `CREATE TRIGGER ${q(`${totals}_delete`)} AFTER DELETE ON ${q(entity.table)} REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ${q(fn)}()`,
    `CREATE TRIGGER ${q(`${totals}_truncate`)} AFTER TRUNCATE ON ${q(entity.table)} FOR EACH STATEMENT EXECUTE FUNCTION ${q(fn)}()`,
    // counted from the rows as they are, under the lock that keeps writers out
    ...kept.map(
      (byDay) =>
        `INSERT INTO ${q(byDay ? dayTotals : totals)} (${target(byDay)}) SELECT ${rowKeys(byDay)}, count(*)${sums.map((s) => `, coalesce(sum(${q(s)}), 0)`).join("")} FROM ${q(entity.table)}${dated(byDay)} GROUP BY ${groupBy(byDay)}`,
    ),
  ];
}

function digestOf(statements: string[]): string {
  return createHash("sha256").update(statements.join(";\n")).digest("hex");
}

async function installedDigest(db: DbOrTx, entity: EntityDecl): Promise<string | null> {
  const result = (await db.execute(sql`SELECT obj_description(to_regclass(${stateTotalsTableName(entity)}), 'pg_class') AS digest`)) as { rows: { digest: string | null }[] };
  return result.rows[0]?.digest ?? null;
}

/** Makes (or makes anew) the state totals of every entity that declares them, when their definition changed. */
export async function installStateTotals(db: Db, entities: readonly EntityDecl[]): Promise<void> {
  for (const entity of stateTotalEntities(entities)) {
    const statements = stateTotalsDefinition(entity);
    const digest = digestOf(statements);
    if ((await installedDigest(db, entity)) === digest) continue;
    const totals = stateTotalsTableName(entity);
    await db.transaction(async (tx) => {
      // writers wait until the totals count every row; a second server opening meanwhile finds them made
      await tx.execute(sql.raw(`LOCK TABLE "${entity.table}" IN SHARE ROW EXCLUSIVE MODE`));
      if ((await installedDigest(tx, entity)) === digest) return;
      await tx.execute(sql.raw(`DROP TABLE IF EXISTS "${totals}"`));
      await tx.execute(sql.raw(`DROP TABLE IF EXISTS "${dayTotalsTableName(entity)}"`));
      await tx.execute(sql.raw(`DROP FUNCTION IF EXISTS "${totals}_count"() CASCADE`));
      // the day pages' indexes of an earlier definition (another day field, or none now)
      const dayIndexes = (await tx.execute(sql`SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND tablename = ${entity.table} AND indexname LIKE ${`${entity.table}\\_%\\_by\\_day`}`)) as { rows: { indexname: string }[] };
      for (const { indexname } of dayIndexes.rows) await tx.execute(sql.raw(`DROP INDEX "${indexname}"`));
      for (const statement of statements) await tx.execute(sql.raw(statement));
      await tx.execute(sql.raw(`COMMENT ON TABLE "${totals}" IS '${digest}'`));
      // the planner sees the totals as counted (a month's rows of a provider are hundreds, summed by hash)
      await tx.execute(sql.raw(`ANALYZE "${totals}"${stateTotalsDays(entity) ? `, "${dayTotalsTableName(entity)}"` : ""}`));
    });
  }
}

/**
 * Folds each tenant's and state's rows into one, dropping those that come to nothing. Safe beside writers and
 * another fold: a row is summed only by the fold whose delete took it.
 */
export async function compactStateTotals(db: Db, entities: readonly EntityDecl[]): Promise<{ folded: number }> {
  let folded = 0;
  for (const entity of stateTotalEntities(entities)) for (const { table, byDay } of totalsTables(entity)) {
    const { tenant, state, flags, sums } = stateTotalsColumns(entity);
    const col = (name: string) => tableColumn(table, name);
    const keyColumns = [...tenant, ...(byDay ? [DAY] : []), state, ...flags.map((f) => f.name)];
    const keys = sql.join(keyColumns.map((name) => col(name)), sql`, `);
    const keyNames = sql.join(keyColumns.map((name) => sql.identifier(name)), sql`, `);
    const valueNames = [ROW_COUNT, ...sums].map((name) => sql.identifier(name));
    const summed = sql.join(valueNames.map((name) => sql`sum(${name})`), sql`, `);
    const nonZero = sql.join(valueNames.map((name) => sql`sum(${name}) <> 0`), sql` OR `);
    const result = (await db.execute(sql`
      WITH taken AS (
        DELETE FROM ${table} WHERE (${keys}) IN (SELECT ${keys} FROM ${table} GROUP BY ${keys} HAVING count(*) > 1)
        RETURNING *
      ), merged AS (
        INSERT INTO ${table} (${keyNames}, ${sql.join(valueNames, sql`, `)})
        SELECT ${keyNames}, ${summed} FROM taken GROUP BY ${keyNames} HAVING ${nonZero}
        RETURNING 1
      )
      SELECT (SELECT count(*) FROM taken)::int AS taken`)) as { rows: { taken: number }[] };
    folded += Number(result.rows[0]?.taken ?? 0);
  }
  return { folded };
}

/**
 * Each state's count and sums (fen) under `where` on the totals table (or the day totals'): one grouped read,
 * prepared per shape by the list that asks.
 */
export function stateTotalsSelection(entity: EntityDecl, byDay = false): Record<string, SQL> {
  const { state, flags, sums } = stateTotalsColumns(entity);
  const table = stateTotalsTable(entity, byDay);
  const selection: Record<string, SQL> = { value: sql`${tableColumn(table, state)}` };
  for (const flag of flags) selection[flag.name] = sql`${tableColumn(table, flag.name)}`;
  selection.count = sql`sum(${tableColumn(table, ROW_COUNT)})::text`;
  for (const name of sums) selection[name] = sql`sum(${tableColumn(table, name)})::text`;
  return selection;
}

/** The columns the selection above groups by: the state, and the flags. */
export function stateTotalsGrouping(entity: EntityDecl, byDay = false): SQL[] {
  const { state, flags } = stateTotalsColumns(entity);
  const table = stateTotalsTable(entity, byDay);
  return [state, ...flags.map((f) => f.name)].map((name) => sql`${tableColumn(table, name)}`);
}
