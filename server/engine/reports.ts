/**
 * The report pages of the catalogue (common/catalogue.ts ReportDecl): for every declaration the server offers
 * `name` (the figures: data.items one row per value of the dimension, data.total the row count, data.sums each
 * measure's total) and `exportOperation` (the same figures as an .xlsx file of the download centre, labels in the
 * caller's language),
 * allowed to the declared roles. The figures come from the domain's ReportSource: one grouped query under the
 * tenant's conditions (taken from the checked scope) and the filters' (checked by their kinds, as a list's are).
 */
import { and, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { z } from "zod";
import type { EntityDecl, ReportDecl, ReportMeasure } from "../../common/catalogue";
import { refTitleKey } from "../../common/fieldRules";
import { fenToYuan } from "../../common/money";
import { safeCell } from "../../common/spreadsheetCell";
import { resolveScope, type Scope } from "../auth/scope";
import { tenantFilter } from "../auth/tenantFilter";
import type { DbOrTx } from "../db/client";
import { labelText, type Translate } from "../lib/i18n";
import { notFound } from "../protocol/envelope";
import type { OperationContext, OperationRegistry } from "../protocol/registry";
import { listFilters } from "./crud";
import { DEFAULT_OPERATION_PATH } from "./declared";
import { registerExportOperation, type Exporter } from "./exports";

export type ReportRow = Record<string, unknown>;

/** Where a report's figures come from (server/domains/<domain>/): its columns and its one grouped query. */
export interface ReportSource {
  /** the column each filter field reads, and the tenant columns `sysid` and `sch_id` of a provider or school report */
  column(name: string): AnyPgColumn;
  /**
   * One row per value of the dimension under `where` (the tenant's and the filters' conditions): the value under
   * the dimension's name, a reference's title under `{name}_title` (refTitleKey), each measure under its name
   * (money in fen). One grouped query, in the order the rows are shown.
   */
  rows(db: DbOrTx, where: SQL | undefined): Promise<ReportRow[]>;
}

export type ReportSources = Record<string, ReportSource>;

/** A report's figures as the API carries them. */
export interface ReportFigures {
  items: ReportRow[];
  total: number;
  /** each measure's total over the rows, in API form */
  sums: Record<string, number | string>;
}

/** A pie's rows carry `share`: their percentage (one decimal) of the first measure's total. */
export const SHARE = "share";

function tenantConditions(report: ReportDecl, source: ReportSource, scope: Scope): SQL[] {
  if (report.scope === "platform") return [];
  return tenantFilter(scope, { sysid: source.column("sysid"), schid: report.scope === "school" ? source.column("sch_id") : undefined });
}

/** The filters' conditions, each value checked by its field's kind: a bad one is api.invalid_params naming it. */
function filterConditions(report: ReportDecl, source: ReportSource, payload: Record<string, unknown>): SQL[] {
  // the filters read like a list's: `field`, or `field_start` / `field_end` for a range
  const filters = { fields: report.filters } as Pick<EntityDecl, "fields"> as EntityDecl;
  return listFilters(filters, payload, (name) => source.column(name));
}

const measureValue = (measure: ReportMeasure, value: unknown): number | string => {
  const n = Number(value ?? 0) || 0;
  return measure.type === "money" ? fenToYuan(n) : n;
};

/** The rows in API form: every option of a choice dimension (zeros where none), titles, measures, shares. */
function apiFigures(report: ReportDecl, rows: ReportRow[], t: Translate): ReportFigures {
  const dimension = report.dimension;
  const titleKey = refTitleKey(dimension.name);
  let ordered = rows;
  if (dimension.options) {
    const byValue = new Map(rows.map((row) => [String(row[dimension.name]), row]));
    ordered = [
      ...dimension.options.map((option) => byValue.get(option.value) ?? { [dimension.name]: option.value }),
      ...rows.filter((row) => !dimension.options!.some((option) => option.value === String(row[dimension.name]))),
    ];
  }
  const sumsFen: Record<string, number> = Object.fromEntries(report.measures.map((m) => [m.name, 0]));
  for (const row of ordered) for (const m of report.measures) sumsFen[m.name]! += Number(row[m.name] ?? 0) || 0;
  const first = report.measures[0];
  const items = ordered.map((row) => {
    const value = row[dimension.name];
    const option = dimension.options?.find((o) => o.value === String(value));
    const out: ReportRow = {
      [dimension.name]: value,
      [titleKey]: option ? labelText(t, option.label, String(value)) : (row[titleKey] ?? String(value)),
    };
    for (const m of report.measures) out[m.name] = measureValue(m, row[m.name]);
    if (report.chart === "pie" && first) {
      const total = sumsFen[first.name]!;
      out[SHARE] = total > 0 ? Math.round(((Number(row[first.name] ?? 0) || 0) * 1000) / total) / 10 : 0;
    }
    return out;
  });
  const sums = Object.fromEntries(report.measures.map((m) => [m.name, measureValue(m, sumsFen[m.name])]));
  return { items, total: items.length, sums };
}

/** The figures of a report for the call's scope and filters. */
export async function reportFigures(ctx: OperationContext, report: ReportDecl, source: ReportSource): Promise<ReportFigures> {
  const auth = ctx.auth;
  if (!auth) throw notFound();
  const scope = await resolveScope(ctx.db, auth, ctx.payload);
  const conditions = [...tenantConditions(report, source, scope), ...filterConditions(report, source, ctx.payload)];
  const rows = await source.rows(ctx.db, conditions.length > 0 ? and(...conditions) : undefined);
  return apiFigures(report, rows, ctx.t);
}

/** The figures as a sheet: the dimension, the measures (and a pie's share), a total row. */
function reportExporter(report: ReportDecl, source: ReportSource): Exporter {
  return {
    check: async (ctx) => {
      await reportFigures(ctx, report, source);
    },
    async write(ctx, out) {
      const figures = await reportFigures(ctx, report, source);
      const label = (key: string, fallback: string) => labelText(ctx.t, key, fallback);
      const pie = report.chart === "pie";
      out.begin(label(report.title, report.name), [
        { header: label(report.dimension.label, report.dimension.name), key: "dimension" },
        ...report.measures.map((m) => ({ header: label(m.label, m.name), key: m.name, format: m.type === "money" ? ("money" as const) : undefined })),
        ...(pie ? [{ header: label("reports.share", SHARE), key: SHARE, format: "percent" as const }] : []),
      ]);
      // measures are number cells; a text (a class's title) is never read as a formula
      const cell = (m: ReportMeasure, value: unknown) => (m.type === "money" ? Number(value) : safeCell(value));
      const titleKey = refTitleKey(report.dimension.name);
      for (const row of figures.items) {
        out.row({
          dimension: safeCell(row[titleKey]),
          ...Object.fromEntries(report.measures.map((m) => [m.name, cell(m, row[m.name])])),
          ...(pie ? { [SHARE]: Number(row[SHARE]) / 100 } : {}),
        });
      }
      out.row(
        {
          dimension: safeCell(label("reports.total", "Total")),
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
    const names = report.filters.flatMap((f) => (f.filter === "range" ? [`${f.name}_start`, `${f.name}_end`] : [f.name]));
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
        return { data: { items, total, sums } };
      },
    });

    registerExportOperation(registry, { method: report.exportOperation, roles: report.roles, schema, subject: report.name, exporter: reportExporter(report, source) });
  }
}
