/** Time kinds: a calendar day (date, YYYY-MM-DD) and an instant (datetime, ISO 8601 with an offset). */
import { sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { businessTime, isCalendarDay } from "../../../common/term";
import type { ServerFieldKind } from "./kind";

/** ISO 8601 with an offset (DESIGN 4), on a day isCalendarDay accepts: Date alone would take "2026-02-30" as 2 March */
const isoTime = z.iso.datetime({ offset: true });

export function isInstant(text: string): boolean {
  return isoTime.safeParse(text).success && isCalendarDay(text.slice(0, 10));
}

export const dateKind: ServerFieldKind = {
  value: () => z.string({ error: "date" }).refine(isCalendarDay, { error: "date" }),
  column: (field) => `date(${JSON.stringify(field.name)}, { mode: "string" })`,
  filterValue: (_field, text) => (isCalendarDay(text) ? text : undefined),
};

export const datetimeKind: ServerFieldKind = {
  value: () =>
    z
      .string({ error: "datetime" })
      .refine(isInstant, { error: "datetime" })
      .transform((v) => new Date(v)),
  column: (field) =>
    // a record's creation time is stamped by the database
    field.name === "created_at"
      ? `timestamp(${JSON.stringify(field.name)}, { withTimezone: true, mode: "date" }).defaultNow()`
      : `timestamp(${JSON.stringify(field.name)}, { withTimezone: true, mode: "date" })`,
  filterValue: (_field, text) => (isInstant(text) ? new Date(text) : undefined),
  toApi: (_field, value) => (value instanceof Date ? value.toISOString() : value),
  listSql: (_field, column) => isoTimeSql(column),
  // as the list shows it: the business time zone
  exportCell: (_field, value) => (typeof value === "string" ? businessTime(new Date(value)) : null),
};

/** A time stamp with its zone as Date.toISOString writes it (UTC, milliseconds, "Z"), in SQL. */
export function isoTimeSql(column: SQL): SQL {
  return sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}
