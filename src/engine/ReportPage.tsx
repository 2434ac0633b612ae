/**
 * A report page of the catalogue (PageRef `{kind: "report"}`, a ReportDecl): its filters (each by its field
 * kind: a date range, a searchable reference, a choice), a chart and a table of one row per value of the
 * dimension with a total, and an export of the same figures to .xlsx. The figures are read through refine's data
 * provider (`custom`), so they are cached and refreshed like every other read; the chart (echarts) is a lazy
 * chunk of its own, loaded by report pages only, a placeholder of the chart's size standing in meanwhile. Each
 * value of the dimension keeps its colour on every chart (chartStyle.ts). Under 992 px the filters fold behind a
 * button that counts those set, stacked when opened, and the table scrolls sideways.
 */
import { DownloadOutlined, FilterOutlined, ReloadOutlined, SearchOutlined } from "@ant-design/icons";
import { Badge, Button, Card, Empty, Form, Grid, Result, Skeleton, Space, Table } from "antd";
import type { TableProps } from "antd";
import { useCustom } from "@refinedev/core";
import { lazy, Suspense, useLayoutEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import type { EntityDecl, FieldDecl, MenuEntry, MenuGroup, ReportDecl } from "../../common/catalogue";
import { fenToYuan, yuanToFen } from "../../common/money";
import { ApiFailError, DEFAULT_API_PATH, scope } from "../../providers/dataProvider";
import { displayValue, FilterControl, filterValueProps, type Translate } from "./fields";
import { useExport } from "./useExport";
import { clearNarrowed } from "./RecordFields";
import { chartHeight, valueSlot, type ColourSlot } from "./chartStyle";
import type { ChartSeries } from "./ReportChart";

const ReportChart = lazy(() => import("./ReportChart"));

type ReportRow = Record<string, unknown>;
type FilterValues = Record<string, unknown>;

export interface ReportPageProps {
  report: ReportDecl;
  /** the menu group and entry the page is opened from */
  group: MenuGroup;
  entry: MenuEntry;
}

/** A pie's rows carry their share of the first measure (server/engine/reports.ts). */
const SHARE = "share";

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || value === "" || (Array.isArray(value) && !value.some((v) => v !== undefined && v !== null && v !== ""));
}

/** The filters as the report's operations take them: `field`, or `field_start` / `field_end` for a range. */
export function reportFilterPayload(report: ReportDecl, values: FilterValues): Record<string, unknown> {
  const payload: Record<string, unknown> = {};
  for (const field of report.filters) {
    const value = values[field.name];
    if (isBlank(value)) continue;
    if (field.filter === "range" && Array.isArray(value)) {
      const [start, end] = value as unknown[];
      if (!isBlank(start)) payload[`${field.name}_start`] = start;
      if (!isBlank(end)) payload[`${field.name}_end`] = end;
    } else {
      payload[field.name] = typeof value === "string" ? value.trim() : value;
    }
  }
  return payload;
}

/** A measure's value as a number (money in yuan). */
function asNumber(value: unknown): number {
  return Number(value ?? 0) || 0;
}

/** Each measure's total over the rows (money added in fen, shown in yuan). */
function totals(report: ReportDecl, rows: readonly ReportRow[]): Record<string, number | string> {
  return Object.fromEntries(
    report.measures.map((m) => {
      if (m.type === "money") return [m.name, fenToYuan(rows.reduce((sum, row) => sum + (yuanToFen(String(row[m.name] ?? "0")) ?? 0), 0))];
      return [m.name, rows.reduce((sum, row) => sum + asNumber(row[m.name]), 0)];
    }),
  );
}

/** How many of the report's filters the payload sets (a range once, whichever of its ends is set). */
export function filtersSet(report: ReportDecl, payload: Record<string, unknown>): number {
  return report.filters.filter((f) => [f.name, `${f.name}_start`, `${f.name}_end`].some((key) => !isBlank(payload[key]))).length;
}

/**
 * What the chart draws from the rows: a label per row, each row's colour (its value's, for a pie's slices), and a
 * series per measure in the colour of the value it counts, else the theme colour.
 */
export function chartData(
  report: ReportDecl,
  rows: readonly ReportRow[],
  rowLabel: (row: ReportRow) => string,
  translate: (key: string) => string,
): { categories: string[]; categoryColours: ColourSlot[]; series: ChartSeries[] } {
  return {
    categories: rows.map(rowLabel),
    categoryColours: rows.map((row) => valueSlot(report.dimension, row[report.dimension.name])),
    series: report.measures.map((m) => ({
      name: translate(m.label),
      data: rows.map((row) => asNumber(row[m.name])),
      colour: m.value ? valueSlot(m.value.field, m.value.value) : "theme",
    })),
  };
}

/** The width of the element given to the returned ref, measured before the first paint and followed. */
function useWidth(): [number, (el: HTMLElement | null) => void] {
  const [element, setElement] = useState<HTMLElement | null>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    if (!element) return;
    setWidth(element.clientWidth);
    const observer = new ResizeObserver(() => setWidth(element.clientWidth));
    observer.observe(element);
    return () => observer.disconnect();
  }, [element]);
  return [width, setElement];
}

export default function ReportPage({ report, entry }: ReportPageProps) {
  const { t: translate } = useTranslation();
  const t: Translate = (key, options) => translate(key, options);
  const [form] = Form.useForm<FilterValues>();
  const screens = Grid.useBreakpoint();
  // below lg (992 px): filters folded behind a button, stacked, full width
  const narrow = screens.lg === false;
  const [filtersOpen, setFiltersOpen] = useState(false);
  const [filters, setFilters] = useState<Record<string, unknown>>({});
  const [chartWidth, chartArea] = useWidth();
  const payload = { ...scope(), ...filters };

  const { query, result } = useCustom<ReportRow[]>({
    url: report.name,
    method: "post",
    config: { payload },
    // the weapi client has shown a failure already
    errorNotification: false,
    successNotification: false,
  });
  const rows = useMemo(() => (query.isSuccess && Array.isArray(result.data) ? result.data : []), [query.isSuccess, result.data]);

  const exports = useExport();
  const onExport = () => exports.start(DEFAULT_API_PATH, report.exportOperation, payload);

  const dimension = report.dimension;
  const rowLabel = (row: ReportRow): string => {
    const shown = displayValue(dimension, row[dimension.name], t, row);
    return typeof shown === "string" || typeof shown === "number" ? String(shown) : String(row[dimension.name] ?? "");
  };
  const pie = report.chart === "pie";
  const sums = useMemo(() => totals(report, rows), [report, rows]);
  const { categories, categoryColours, series } = useMemo(() => chartData(report, rows, rowLabel, translate), [report, rows, translate]);
  // the placeholder stands where the chart will, at its size (its row count known once the figures are in)
  const chartFallback = (
    <div data-testid="report-chart-loading">
      <Skeleton.Node active style={{ width: chartWidth, height: chartHeight(report.chart, chartWidth, query.isSuccess ? rows.length : undefined) }} />
    </div>
  );

  const columns: NonNullable<TableProps<ReportRow>["columns"]> = [
    { key: dimension.name, title: translate(dimension.label), render: (_: unknown, row: ReportRow) => rowLabel(row) },
    ...report.measures.map((m) => ({ key: m.name, dataIndex: m.name, title: translate(m.label), align: "right" as const })),
    ...(pie ? [{ key: SHARE, dataIndex: SHARE, title: translate("reports.share"), align: "right" as const, render: (value: unknown) => `${Number(value ?? 0).toFixed(1)}%` }] : []),
  ];

  const search = (values: FilterValues) => {
    setFilters(reportFilterPayload(report, values));
    // on a phone the figures matter now: fold the filters away
    setFiltersOpen(false);
  };
  const reset = () => {
    form.resetFields();
    setFilters({});
    setFiltersOpen(false);
  };
  // a class filter narrowed by the grade is cleared when the grade changes
  const narrowing = clearNarrowed({ fields: report.filters } as Pick<EntityDecl, "fields"> as EntityDecl, form);

  const title = translate(entry.title || report.title);
  const exportButton = (
    <Button icon={<DownloadOutlined />} loading={exports.starting} disabled={!query.isSuccess} onClick={() => void onExport()} data-testid="report-export">
      {translate("crud.export")}
    </Button>
  );

  const filterItem = (field: FieldDecl) => (
    <Form.Item key={field.name} name={field.name} label={translate(field.label)} {...filterValueProps(field)} style={narrow ? { marginBottom: 12 } : undefined}>
      <FilterControl field={field} t={t} block={narrow} />
    </Form.Item>
  );

  const failed = query.isError && (
    <div data-testid="report-load-failed">
      <Result
        status="warning"
        title={query.error instanceof ApiFailError ? query.error.message : translate("reports.load_failed")}
        extra={
          <Button type="primary" icon={<ReloadOutlined />} onClick={() => void query.refetch()} data-testid="report-retry">
            {translate("crud.retry")}
          </Button>
        }
      />
    </div>
  );

  return (
    <Card title={title} extra={narrow ? undefined : exportButton} data-testid="report-page" data-report={report.name} styles={{ body: { paddingInline: "clamp(12px, 3vw, 24px)" } }}>
      {narrow && (
        <Space wrap style={{ marginBottom: 12 }}>
          {report.filters.length > 0 && (
            <Badge count={filtersSet(report, filters)} size="small">
              <Button icon={<FilterOutlined />} aria-expanded={filtersOpen} onClick={() => setFiltersOpen((open) => !open)} data-testid="report-filters-toggle">
                {translate("crud.filters")}
              </Button>
            </Badge>
          )}
          {exportButton}
        </Space>
      )}
      {report.filters.length > 0 && (!narrow || filtersOpen) && (
        <Form
          form={form}
          layout={narrow ? "vertical" : "inline"}
          style={{ marginBottom: 16, rowGap: 8 }}
          onValuesChange={(changed) => narrowing(changed as Record<string, unknown>)}
          onFinish={search}
          data-testid="report-filters"
        >
          {report.filters.map(filterItem)}
          <Form.Item style={narrow ? { marginBottom: 0 } : undefined}>
            <Space wrap>
              <Button type="primary" htmlType="submit" icon={<SearchOutlined />} data-testid="report-search">
                {translate("crud.search")}
              </Button>
              <Button icon={<ReloadOutlined />} onClick={reset} data-testid="report-reset">
                {translate("crud.reset")}
              </Button>
            </Space>
          </Form.Item>
        </Form>
      )}
      {failed || (
        <>
          <div style={{ marginBottom: 16 }} data-testid="report-chart-area" ref={chartArea}>
            {query.isLoading ? (
              chartFallback
            ) : series.every((s) => s.data.every((value) => value === 0)) ? (
              // nothing to draw: no rows, or only zeros (the table still shows them)
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={translate("reports.empty")} />
            ) : (
              <Suspense fallback={chartFallback}>
                <ReportChart kind={report.chart} categories={categories} categoryColours={categoryColours} series={series} title={pie ? series[0]?.name : undefined} />
              </Suspense>
            )}
          </div>
          <Table<ReportRow>
            rowKey={(row) => String(row[dimension.name])}
            columns={columns}
            dataSource={rows}
            loading={query.isFetching}
            size={narrow ? "small" : "middle"}
            pagination={false}
            scroll={{ x: "max-content" }}
            locale={{ emptyText: translate("reports.empty") }}
            data-testid="report-table"
            summary={() =>
              rows.length > 0 && (
                <Table.Summary fixed>
                  <Table.Summary.Row data-testid="report-total">
                    <Table.Summary.Cell index={0}>
                      <strong>{translate("reports.total")}</strong>
                    </Table.Summary.Cell>
                    {report.measures.map((m, i) => (
                      <Table.Summary.Cell key={m.name} index={i + 1} align="right">
                        <strong>{String(sums[m.name])}</strong>
                      </Table.Summary.Cell>
                    ))}
                    {pie && (
                      <Table.Summary.Cell index={report.measures.length + 1} align="right">
                        <strong>{asNumber(sums[report.measures[0]?.name ?? ""]) > 0 ? "100.0%" : "0.0%"}</strong>
                      </Table.Summary.Cell>
                    )}
                  </Table.Summary.Row>
                </Table.Summary>
              )
            }
          />
        </>
      )}
    </Card>
  );
}
