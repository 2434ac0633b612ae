/**
 * The report pages of the catalogue (common/catalogue.ts ReportDecl): for every declaration the server offers
 * `name` (the figures: data.items one row per value of the dimension, data.total the row count, data.sums each
 * measure's total) and `exportOperation` (the same figures as an .xlsx file of the download centre, labels in the
 * caller's language), allowed to the declared roles. The figures come from the domain's ReportSource: one grouped
 * query per table it reads, under the tenant's conditions (taken from the checked scope) and the filters' (checked
 * by their kinds, as a list's are). The totals are answered as `data.sums` and, as a list's summary is,
 * `data.summary`.
 */
import { and, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { EntityDecl, FieldDecl, ReportDecl, ReportMeasure } from "../../common/catalogue";
import { refTitleKey } from "../../common/fieldRules";
import { fenToYuan } from "../../common/money";
import { reportDimensions } from "../../common/reports";
import { resolveScope, type Scope } from "../auth/scope";
import { tenantFilter } from "../auth/tenantFilter";
import type { DbOrTx } from "../db/client";
import { labelText, type Translate } from "../lib/i18n";
import { ApiFailure, notFound } from "../protocol/envelope";
import type { OperationContext, OperationRegistry } from "../protocol/registry";
import { listFilters, listPaging, type ColumnOf, type FilterConditions } from "./crud";
import { DEFAULT_OPERATION_PATH } from "./declared";
import { registerExportOperation, type Exporter } from "./exports";

export type ReportRow = Record<string, unknown>;

/** What a report's source is asked for: the dimension chosen and the conditions of the call. */
export interface ReportQuery {
  dimension: FieldDecl;
  /** the call's payload, for the filters the source applies itself (`ownFilters`) */
  payload: Record<string, unknown>;
  /**
   * The tenant's and the filters' conditions on the columns `column` names: `sysid` and `sch_id` for the tenant,
   * each filter by its name but those in `skip`. A source reading two tables (payments, bills) asks once for each
   * with its own columns.
   */
  where(column: ColumnOf, skip?: readonly string[]): SQL | undefined;
}

/**
 * A source's rows; `totals`, when given, are the measures over every row that adding the rows up would get wrong
 * (orders counted once, where an order of two goods is a row of each).
 */
export type ReportRows = ReportRow[] & { totals?: ReportRow };

/** Where a report's figures come from (server/domains/<domain>/): one grouped query per table it reads. */
export interface ReportSource {
  /** filters the source applies itself, to its rows rather than to a column (the students owing) */
  ownFilters?: readonly string[];
  /** filters whose condition is more than their column's comparison (a category and the categories within it) */
  conditions?: FilterConditions;
  /**
   * One row per value of the dimension: the value under the dimension's name, a reference's title under
   * `{name}_title` (refTitleKey), each count or sum measure under its name (money in fen; the engine computes the
   * rates). In the order the rows are shown.
   */
  rows(db: DbOrTx, query: ReportQuery): Promise<ReportRows>;
}

export type ReportSources = Record<string, ReportSource>;

/** A report's figures as the API carries them. */
export interface ReportFigures {
  /** the rows of the page asked for (all of them when no page is asked) */
  items: ReportRow[];
  /** the number of rows over every page */
  total: number;
  /** each measure over every row, in API form (a rate from the totals of its two measures) */
  sums: Record<string, number | string>;
}

/** A pie's rows carry `share`: their percentage (one decimal) of the first measure's total. */
export const SHARE = "share";

/** The dimension the call asks for (`dimension`), else the report's default; an unknown one is refused naming it. */
function chosenDimension(report: ReportDecl, payload: Record<string, unknown>): FieldDecl {
  const asked = payload.dimension;
  if (asked === undefined || asked === null || asked === "") return report.dimension;
  const found = reportDimensions(report).find((d) => d.name === asked);
  if (!found) throw new ApiFailure("api.invalid_params", { field: "dimension" });
  return found;
}

function tenantConditions(report: ReportDecl, column: ColumnOf, scope: Scope): SQL[] {
  if (report.scope === "platform") return [];
  return tenantFilter(scope, { sysid: column("sysid"), schid: report.scope === "school" ? column("sch_id") : undefined });
}

/**
 * The filters' conditions, each value checked by its field's kind: a bad one is api.invalid_params naming it. The
 * source's own filters are only checked: a choice must be one of its options.
 */
function filterConditions(report: ReportDecl, source: ReportSource, column: ColumnOf, payload: Record<string, unknown>, skip: readonly string[]): SQL[] {
  const own = source.ownFilters ?? [];
  for (const field of report.filters.filter((f) => own.includes(f.name))) {
    const value = payload[field.name];
    if (value !== undefined && value !== null && value !== "" && !field.options?.some((o) => o.value === value)) throw new ApiFailure("api.invalid_params", { field: field.name });
  }
  // the filters read like a list's: `field`, or `field_start` / `field_end` for a range
  const filters = { fields: report.filters } as Pick<EntityDecl, "fields"> as EntityDecl;
  return listFilters(filters, payload, column, undefined, [...own, ...skip], source.conditions);
}

/** A rate in percent with one decimal; 0 of nothing. */
function rate(numerator: number, denominator: number): number {
  return denominator > 0 ? Math.round((numerator * 1000) / denominator) / 10 : 0;
}

const measureValue = (measure: ReportMeasure, value: unknown): number | string => {
  const n = Number(value ?? 0) || 0;
  return measure.type === "money" ? fenToYuan(n) : n;
};

/** A row's measures in API form: counts, money in yuan, rates from the row's own counts. */
function apiMeasures(report: ReportDecl, row: ReportRow): ReportRow {
  const out: ReportRow = {};
  for (const m of report.measures) {
    out[m.name] = m.type === "rate" && m.of ? rate(Number(row[m.of[0]] ?? 0) || 0, Number(row[m.of[1]] ?? 0) || 0) : measureValue(m, row[m.name]);
  }
  return out;
}

/** The rows in API form: every option of a choice dimension (zeros where none), titles, measures, shares; a page. */
function apiFigures(report: ReportDecl, dimension: FieldDecl, rows: ReportRows, t: Translate, paging: { page: number; limit: number } | undefined): ReportFigures {
  const titleKey = refTitleKey(dimension.name);
  let ordered = rows;
  if (dimension.options) {
    const byValue = new Map(rows.map((row) => [String(row[dimension.name]), row]));
    ordered = [
      ...dimension.options.map((option) => byValue.get(option.value) ?? { [dimension.name]: option.value }),
      ...rows.filter((row) => !dimension.options!.some((option) => option.value === String(row[dimension.name]))),
    ];
  }
  // every count and sum over all rows (a rate's two measures are among them), or the source's own total of it
  const sumsRaw: ReportRow = {};
  for (const m of report.measures) {
    if (m.type === "rate") continue;
    sumsRaw[m.name] = rows.totals && Object.hasOwn(rows.totals, m.name) ? Number(rows.totals[m.name]) || 0 : ordered.reduce((sum: number, row) => sum + (Number(row[m.name] ?? 0) || 0), 0);
  }
  const first = report.measures[0];
  const shown = paging ? ordered.slice((paging.page - 1) * paging.limit, paging.page * paging.limit) : ordered;
  const items = shown.map((row) => {
    const value = row[dimension.name];
    const option = dimension.options?.find((o) => o.value === String(value));
    const out: ReportRow = {
      [dimension.name]: value,
      [titleKey]: option ? labelText(t, option.label, String(value)) : (row[titleKey] ?? String(value)),
      ...apiMeasures(report, row),
    };
    if (report.chart === "pie" && first) out[SHARE] = rate(Number(row[first.name] ?? 0) || 0, Number(sumsRaw[first.name] ?? 0));
    return out;
  });
  return { items, total: ordered.length, sums: apiMeasures(report, sumsRaw) as Record<string, number | string> };
}

/** `page` and `limit` when the call asks for a page (a paged report's table), else every row. */
function reportPaging(payload: Record<string, unknown>): { page: number; limit: number } | undefined {
  if (payload.page === undefined && payload.limit === undefined) return undefined;
  return listPaging(payload);
}

/** The figures of a report for the call's scope, filters, dimension and page. */
export async function reportFigures(ctx: OperationContext, report: ReportDecl, source: ReportSource): Promise<ReportFigures> {
  const auth = ctx.auth;
  if (!auth) throw notFound();
  const scope = await resolveScope(ctx.db, auth, ctx.payload);
  const dimension = chosenDimension(report, ctx.payload);
  const paging = reportPaging(ctx.payload);
  const where = (column: ColumnOf, skip: readonly string[] = []) => {
    const conditions = [...tenantConditions(report, column, scope), ...filterConditions(report, source, column, ctx.payload, skip)];
    return conditions.length > 0 ? and(...conditions) : undefined;
  };
  const rows = await source.rows(ctx.db, { dimension, payload: ctx.payload, where });
  return apiFigures(report, dimension, rows, ctx.t, paging);
}

/** The figures as a sheet: the dimension, the measures (and a pie's share), a total row. */
function reportExporter(report: ReportDecl, source: ReportSource): Exporter {
  return {
    check: async (ctx) => {
      await reportFigures(ctx, report, source);
    },
    async write(ctx, out) {
      // the file holds every row, whichever page the page showed
      const { page: _page, limit: _limit, ...payload } = ctx.payload;
      const figures = await reportFigures({ ...ctx, payload }, report, source);
      const dimension = chosenDimension(report, payload);
      const label = (key: string, fallback: string) => labelText(ctx.t, key, fallback);
      const pie = report.chart === "pie";
      out.begin(label(report.title, report.name), [
        { header: label(dimension.label, dimension.name), key: "dimension" },
        ...report.measures.map((m) => ({ header: label(m.label, m.name), key: m.name, format: m.type === "money" ? ("money" as const) : m.type === "rate" ? ("percent" as const) : undefined })),
        ...(pie ? [{ header: label("reports.share", SHARE), key: SHARE, format: "percent" as const }] : []),
      ]);
      // measures are number cells; the sheet keeps a text (a class's title) from being read as a formula
      const cell = (m: ReportMeasure, value: unknown) => (m.type === "money" ? Number(value) : m.type === "rate" ? Number(value) / 100 : value);
      const titleKey = refTitleKey(dimension.name);
      for (const row of figures.items) {
        out.row({
          dimension: row[titleKey],
          ...Object.fromEntries(report.measures.map((m) => [m.name, cell(m, row[m.name])])),
          ...(pie ? { [SHARE]: Number(row[SHARE]) / 100 } : {}),
        });
      }
      out.row(
        {
          dimension: label("reports.total", "Total"),
          ...Object.fromEntries(report.measures.map((m) => [m.name, cell(m, figures.sums[m.name])])),
          ...(pie && figures.items.length > 0 ? { [SHARE]: 1 } : {}),
        },
        { bold: true },
      );
      return figures.items.length;
    },
  };
}

/** `name` and `exportOperation` of every report, each with its domain's source. */
export function registerReportOperations(registry: OperationRegistry, reports: readonly ReportDecl[], sources: ReportSources): void {
  for (const report of reports) {
    const source = sources[report.name];
    if (!source) throw new Error(`report ${report.name} has no source of figures in server/domains`);
    // the payload's filters, for whoever reads the registry; each value is checked by its kind
    const names = [...report.filters.flatMap((f) => (f.filter === "range" ? [`${f.name}_start`, `${f.name}_end`] : [f.name])), "dimension", "page", "limit"];
    const schema = z.looseObject(Object.fromEntries(names.map((name) => [name, z.unknown().optional()])));

    registry.add({
      path: DEFAULT_OPERATION_PATH,
      method: report.name,
      needsToken: true,
      roles: report.roles,
      effect: "read",
      schema,
      async handler(ctx) {
        const { items, total, sums } = await reportFigures(ctx, report, source);
        // `summary` is the totals under the name a list's answer gives them
        return { data: { items, total, sums, summary: sums } };
      },
    });

    registerExportOperation(registry, { method: report.exportOperation, roles: report.roles, schema, subject: report.name, exporter: reportExporter(report, source) });
  }
}
