/**
 * Every table's figures: its rows and the sum of each of its whole-number columns (ids, amounts in fen, counts).
 * A backup keeps them in its manifest and its restore checks them; a move to PostgreSQL checks them on both sides.
 * Equal figures mean nothing was lost or added, and every amount arrived to the fen.
 */
import { sql } from "drizzle-orm";
import { queryRows, type DbOrTx } from "../db/client";

export interface TableFigures {
  rows: number;
  /** by column, as the database's text (a bigint sum stays exact) */
  sums: Record<string, string | null>;
}

export type DatabaseFigures = Record<string, TableFigures>;

export const quoteIdentifier = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The tables of the schema `public`, by name. */
export async function publicTables(db: DbOrTx): Promise<string[]> {
  const rows = await queryRows<{ name: string }>(
    db,
    sql`select table_name::text as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  );
  return rows.map((row) => row.name);
}

/** The figures of these tables (default: every table of `public`), read in one snapshot when `db` is a transaction. */
export async function databaseFigures(db: DbOrTx, tables?: string[]): Promise<DatabaseFigures> {
  const names = tables ?? (await publicTables(db));
  const columns = await queryRows<{ table_name: string; column_name: string }>(
    db,
    sql`select table_name::text, column_name::text from information_schema.columns
        where table_schema = 'public' and data_type in ('smallint', 'integer', 'bigint', 'numeric')
        order by table_name, ordinal_position`,
  );
  const figures: DatabaseFigures = {};
  for (const table of names) {
    const summed = columns.filter((column) => column.table_name === table).map((column) => column.column_name);
    const selections = [`count(*)::text as "rows"`, ...summed.map((column, i) => `sum(${quoteIdentifier(column)})::text as "s${i}"`)];
    const [row] = await queryRows<Record<string, string | null>>(db, sql.raw(`select ${selections.join(", ")} from ${quoteIdentifier(table)}`));
    figures[table] = { rows: Number(row.rows), sums: Object.fromEntries(summed.map((column, i) => [column, row[`s${i}`] ?? null])) };
  }
  return figures;
}

/** What differs between two sets of figures, one line a table ("" when they agree). */
export function figuresDifference(expected: DatabaseFigures, found: DatabaseFigures): string[] {
  const lines: string[] = [];
  for (const table of new Set([...Object.keys(expected), ...Object.keys(found)])) {
    const want = expected[table];
    const got = found[table];
    if (!want || !got) {
      lines.push(`${table}: ${want ? "missing" : "not expected"}`);
      continue;
    }
    if (want.rows !== got.rows) lines.push(`${table}: ${got.rows} rows, expected ${want.rows}`);
    for (const [column, sum] of Object.entries(want.sums)) {
      if (got.sums[column] !== sum) lines.push(`${table}.${column}: sum ${got.sums[column] ?? "none"}, expected ${sum ?? "none"}`);
    }
  }
  return lines;
}
