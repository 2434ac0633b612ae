/**
 * A list's page written as JSON by the database: every value is cast to text in the statement, each field in its
 * API form as its kind's `listSql` writes it (money in yuan, times in ISO 8601), written into its row's JSON as it
 * is or quoted, and the rows read as texts (server/db/client.ts textRowsReader) joined into the answer's JSON. At a
 * million orders decoding each value, making each row an object and encoding it again cost most of a list's time;
 * the JSON this writes is the one those steps gave. A list with a value only JavaScript can write
 * (a masked account number, the names of several references) is read as objects by crud.ts.
 */
import { sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { EntityDecl, FieldDecl } from "../../common/catalogue";
import { kindOf } from "./fieldKinds";
import { isoTimeSql } from "./fieldKinds/time";
import type { ReferredTitle } from "./references";

/** how a column's text goes into JSON: as it is (a number, or JSON already) or as a string */
type Writing = "as-is" | "string";

interface PageColumn {
  key: string;
  value: SQL;
  writing: Writing;
}

/** column types whose text is their JSON: numbers and booleans */
const NUMBER_TYPES = new Set(["PgSerial", "PgInteger", "PgBigInt53", "PgBigSerial53", "PgBoolean"]);
/** column types the API carries as a string of their text */
const TEXT_TYPES = new Set(["PgVarchar", "PgText", "PgDateString"]);
/** column types the API carries as JSON of their value (an array of ids, a document) */
const JSON_TYPES = new Set(["PgArray", "PgJsonb"]);

/** A column's list value as text in SQL, as crud.ts's apiValue(field, "list") gives it; undefined where SQL cannot. */
function pageColumn(key: string, field: FieldDecl | undefined, column: AnyPgColumn): PageColumn | undefined {
  const value = sql`${column}`;
  if (field) {
    const kind = kindOf(field);
    if (kind.listSql) {
      // a kind's SQL writes its API form, a string
      const written = kind.listSql(field, value);
      return written ? { key, value: sql`(${written})::text`, writing: "string" } : undefined;
    }
    if (kind.toApi || kind.listValue) return undefined;
  }
  if (column.columnType === "PgTimestamp") return { key, value: isoTimeSql(value), writing: "string" };
  if (NUMBER_TYPES.has(column.columnType)) return { key, value: sql`${value}::text`, writing: "as-is" };
  if (TEXT_TYPES.has(column.columnType)) return { key, value: sql`${value}::text`, writing: "string" };
  if (JSON_TYPES.has(column.columnType)) return { key, value: sql`to_json(${value})::text`, writing: "as-is" };
  return undefined;
}

/** referred names: a text, or a number where a record is named by one */
function titleColumn(key: string, title: SQL, kind: ReferredTitle["kind"]): PageColumn | undefined {
  if (kind === "other") return undefined;
  return { key, value: sql`(${title})::text`, writing: kind === "text" ? "string" : "as-is" };
}

export interface PageColumns {
  /** the selection: one text column, each row's JSON */
  selection: Record<string, SQL.Aliased>;
  /** the page's rows (each its JSON text, then any columns after it) as the answer's JSON array */
  json(rows: readonly (readonly (string | null)[])[]): string;
}

/** what a key of the answer may be made of, written into the statement's text */
const KEY_LITERAL = /^[a-z][a-z0-9_]*$/;
/** the most arguments one call of concat takes (PostgreSQL's functions take at most 100) */
const CONCAT_ARGS = 90;

/** The texts joined: concat of concats where there are more than one call takes. */
export function concatAll(parts: SQL[]): SQL {
  if (parts.length <= CONCAT_ARGS) return sql`concat(${sql.join(parts, sql`, `)})`;
  const chunks: SQL[] = [];
  for (let i = 0; i < parts.length; i += CONCAT_ARGS) chunks.push(concatAll(parts.slice(i, i + CONCAT_ARGS)));
  return concatAll(chunks);
}

/**
 * The list's columns as one text a row, its JSON, keys in the order of the table's columns and then of the referred
 * names (as the rows read as objects answer them); undefined when a value is one SQL does not write.
 *
 * The database writes each row's JSON (to_json quotes a text as JSON.stringify does): the embedded database's
 * protocol reader copies every value it reads into a buffer of its own, which cost more than the row's writing
 * when each value was a column of its own (a page of 20 shop orders held some 700).
 */
export function pageColumns(entity: EntityDecl, columns: Record<string, AnyPgColumn>, titles: readonly { key: string; title: SQL; kind: ReferredTitle["kind"] }[]): PageColumns | undefined {
  const fields = new Map(entity.fields.map((f) => [f.name, f]));
  const page: PageColumn[] = [];
  for (const [key, column] of Object.entries(columns)) {
    // a secret column is never answered (FieldDecl.secret)
    if (fields.get(key)?.secret) continue;
    const written = pageColumn(key, fields.get(key), column);
    if (!written) return undefined;
    page.push(written);
  }
  for (const { key, title, kind } of titles) {
    const written = titleColumn(key, title, kind);
    if (!written) return undefined;
    page.push(written);
  }
  if (page.length === 0 || page.some((c) => !KEY_LITERAL.test(c.key))) return undefined;
  const parts = page.flatMap((c, i) => [
    sql.raw(`'${i === 0 ? "{" : ","}${JSON.stringify(c.key)}:'`),
    c.writing === "string" ? sql`coalesce(to_json(${c.value})::text, 'null')` : sql`coalesce(${c.value}, 'null')`,
  ]);
  const row = concatAll([...parts, sql.raw("'}'")]);
  return {
    selection: { row: row.as("c0") },
    json(rows) {
      let text = "[";
      for (let r = 0; r < rows.length; r++) text += r > 0 ? `,${rows[r][0]}` : rows[r][0];
      return `${text}]`;
    },
  };
}
