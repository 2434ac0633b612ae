/**
 * An export's file name says what it holds: the list's or report's title, then the values of the filters it was
 * asked with, in the order the filters are declared ("订单_2026-11-01~2026-11-28_三年级 1班.xlsx"), in the caller's
 * language; a file asked without filters names the day it was asked for instead. A referred record is named as
 * lists name it, and only when it lies in the caller's scope: a file never names another tenant's record. The name
 * holds no character a file system or a download refuses, and is bounded.
 */
import { and, eq } from "drizzle-orm";
import type { EntityDecl, FieldDecl } from "../../common/catalogue";
import { refTitleKey } from "../../common/fieldRules";
import { businessDay } from "../../common/term";
import { entities, reports } from "../../resources.config";
import type { Scope } from "../auth/scope";
import { tenantFilter } from "../auth/tenantFilter";
import { catalogueTables } from "../db/schema";
import { isColumnField, tableColumn, tenantColumnNames } from "../db/catalogueTables";
import { labelText } from "../lib/i18n";
import type { OperationContext } from "../protocol/registry";
import { MAX_INT } from "../protocol/validation";
import { References } from "./references";

/** What an export's name is made of: its subject's title and the filters of its call. */
export interface ExportNaming {
  /** the title's locale key, and what stands for it when the language has none */
  title: string;
  fallback: string;
  /** the filters the call may give, in the order they are named */
  filters: readonly FieldDecl[];
}

/** characters of a name beside the extension, at most (the column holds 200) */
export const MAX_NAME_CHARS = 120;
/** characters of one filter's value, at most */
const MAX_PART_CHARS = 40;
const SEPARATOR = "_";

/** What no file name may hold on Windows, macOS or Linux, nor a Content-Disposition: replaced by a dash. */
const UNSAFE = /[\\/:*?"<>|\u0000-\u001f\u007f]/g;

function cut(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length > max ? chars.slice(0, max).join("") : text;
}

/** A part of the name: its unsafe characters replaced, its spaces single, trimmed of dots and spaces, bounded. */
export function safeNamePart(text: string, max = MAX_PART_CHARS): string {
  const cleaned = text.replace(UNSAFE, "-").replace(/\s+/g, " ").trim();
  return cut(cleaned, max).replace(/^[.\s]+|[.\s]+$/g, "");
}

const present = (value: unknown) => value !== undefined && value !== null && value !== "";

/** The referred record's name, when it lies in the caller's scope. */
async function referredName(ctx: OperationContext, scope: Scope, field: FieldDecl, value: unknown): Promise<string | undefined> {
  const entity = entities.find((e) => e.name === field.ref?.entity);
  const table = entity && catalogueTables[entity.name];
  const id = typeof value === "number" ? value : typeof value === "string" && /^\d{1,10}$/.test(value) ? Number(value) : NaN;
  // an id no record can have names nothing (and is not asked of the database, whose ids are int4)
  if (!entity || !table || !Number.isSafeInteger(id) || id <= 0 || id > MAX_INT) return undefined;
  const tenant = tenantColumnNames(entity);
  const inScope = tenantFilter(scope, {
    sysid: tenant.sysid ? tableColumn(table, tenant.sysid) : undefined,
    schid: tenant.schid ? tableColumn(table, tenant.schid) : undefined,
  });
  const [found] = await ctx.db
    .select({ id: tableColumn(table, "id") })
    .from(table)
    .where(and(eq(tableColumn(table, "id"), id), ...inScope))
    .limit(1);
  if (!found) return undefined;
  // named as the lists name it (a class with its grade)
  const holder = { name: "export", fields: [field] } as Pick<EntityDecl, "name" | "fields"> as EntityDecl;
  const [row] = await new References(holder, entities).attachTitles(ctx.db, [{ [field.name]: id }], [field]);
  const title = row?.[refTitleKey(field.name)];
  return typeof title === "string" ? title : undefined;
}

/** The text of one filter's value in the call, or undefined when the call does not filter by it. */
async function filterText(ctx: OperationContext, scope: Scope, field: FieldDecl): Promise<string | undefined> {
  const payload = ctx.payload;
  if (field.filter === "range") {
    const [start, end] = [payload[`${field.name}_start`], payload[`${field.name}_end`]];
    if (!present(start) && !present(end)) return undefined;
    // a day's bound as a day, a time's as it was given
    const bound = (value: unknown) => (present(value) ? String(value).trim() : "");
    return `${bound(start)}~${bound(end)}`;
  }
  const value = payload[field.name];
  if (!present(value)) return undefined;
  // a reference searched by its records' names (a `like` filter) is named by the text searched
  if (field.type === "ref" && field.filter !== "like") return referredName(ctx, scope, field, value);
  const option = field.options?.find((o) => o.value === String(value));
  if (option) return labelText(ctx.t, option.label, option.value);
  return typeof value === "string" || typeof value === "number" ? String(value) : undefined;
}

/** What the export operation `method` is the export of: the list or report that declares it, else its subject alone. */
export function exportNaming(method: string, subject: string): ExportNaming {
  const entity = entities.find((e) => e.exportOperation === method);
  if (entity) return { title: entity.title, fallback: subject, filters: entity.fields };
  const report = reports.find((r) => r.exportOperation === method);
  if (report) return { title: report.title, fallback: subject, filters: report.filters };
  return { title: subject, fallback: subject, filters: [] };
}

/** The file name of an export asked by this call: its title, its filters' values (or the day), ".xlsx". */
export async function exportFileName(ctx: OperationContext, scope: Scope, naming: ExportNaming): Promise<string> {
  const title = safeNamePart(labelText(ctx.t, naming.title, naming.fallback), MAX_PART_CHARS) || safeNamePart(naming.fallback);
  const values: string[] = [];
  for (const field of naming.filters) {
    if (!field.filter || !isColumnField(field)) continue;
    const text = await filterText(ctx, scope, field);
    const part = text === undefined ? "" : safeNamePart(text);
    if (part) values.push(part);
  }
  const parts = values.length > 0 ? values : [businessDay(ctx.now)];
  let name = title;
  for (const part of parts) {
    if (Array.from(`${name}${SEPARATOR}${part}`).length > MAX_NAME_CHARS) break;
    name = `${name}${SEPARATOR}${part}`;
  }
  return `${name}.xlsx`;
}
