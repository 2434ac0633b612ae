/** Number kinds: a whole number (int) and an amount of money (stored as integer fen, carried as yuan "0.00"). */
import { sql } from "drizzle-orm";
import { z } from "zod";
import type { FieldDecl } from "../../../common/catalogue";
import { fenToYuan, yuanToFen } from "../../../common/money";
import { MAX_INT, MIN_INT } from "../../protocol/validation";
import type { ServerFieldKind } from "./kind";

export const wholeNumber = z.union([z.number().int(), z.string().regex(/^-?\d{1,15}$/).transform(Number)], { error: "integer" });

/** A whole number within the declared bounds, or the column's own. */
export function boundedInt(field: FieldDecl): z.ZodType<number> {
  const min = field.min ?? MIN_INT;
  const max = field.max ?? MAX_INT;
  return wholeNumber.superRefine((n, ctx) => {
    if (n < min) ctx.addIssue({ code: "custom", message: "too_small" });
    if (n > max) ctx.addIssue({ code: "custom", message: "too_big" });
  });
}

/** A filter's whole number within the column's range. */
export function intFilter(text: string): number | undefined {
  const n = /^-?\d{1,10}$/.test(text) ? Number(text) : NaN;
  return n >= MIN_INT && n <= MAX_INT ? n : undefined;
}

export const intKind: ServerFieldKind = {
  value: boundedInt,
  column: (field) => `integer(${JSON.stringify(field.name)})`,
  filterValue: (_field, text) => intFilter(text),
};

export const moneyKind: ServerFieldKind = {
  value: (field) =>
    z.union([z.string(), z.number()], { error: "money" }).transform((v, ctx) => {
      const fen = yuanToFen(v);
      if (fen === null) {
        ctx.addIssue({ code: "custom", message: "money" });
        return z.NEVER;
      }
      if (field.min !== undefined && fen < field.min * 100) ctx.addIssue({ code: "custom", message: "too_small" });
      if (field.max !== undefined && fen > field.max * 100) ctx.addIssue({ code: "custom", message: "too_big" });
      return fen;
    }),
  column: (field) => `bigint(${JSON.stringify(field.name)}, { mode: "number" })`,
  filterValue: (_field, text) => yuanToFen(text) ?? undefined,
  toApi: (_field, value) => fenToYuan(Number(value)),
  // fenToYuan in SQL
  listSql: (_field, column) =>
    sql`case when ${column} < 0 then '-' else '' end || (abs(${column}) / 100)::text || '.' || lpad((abs(${column}) % 100)::text, 2, '0')`,
  // a number cell in yuan (shown with two decimals), so that a sheet sums it and a negative amount stays a number
  exportCell: (_field, value) => Number(value),
};
