/**
 * A report page of the catalogue (PageRef `{kind: "report"}`, a ReportDecl): its filters (each by its field
 * kind: a date range, a searchable reference, a choice), a chart and a table of one row per value of the
 * dimension with a total, and an export of the same figures to .xlsx. The figures are read through refine's data
 * provider (`custom`), so they are cached and refreshed like every other read; the chart (echarts) is a lazy
 * chunk of its own, loaded by report pages only, a placeholder of the chart's size standing in meanwhile. Each
 * value of the dimension keeps its colour on every chart (chartStyle.ts). Under 992 px the filters fold behind a
 * button that counts those set, stacked when opened, the dimension is chosen from a list, and the table scrolls
 * sideways (its edge fades where columns lie beyond). Figures read as the user's language writes them, grouped
 * alike at every size, in the table and on the chart.
 */
import { DownloadOutlined, FilterOutlined, ReloadOutlined, SearchOutlined } from "@ant-design/icons";
import { Badge, Breadcrumb, Button, Card, Empty, Form, Grid, Result, Segmented, Select, Skeleton, Space, Table, Typography } from "antd";
import type { TableProps } from "antd";
import { useCustom, useGo } from "@refinedev/core";
import { lazy, Suspense, useCallback, useLayoutEffect, useMemo, useState } from "react";
import { useParams } from "react-router";
import { useTranslation } from "react-i18next";
import type { EntityDecl, FieldDecl, MenuEntry, MenuGroup, ReportDecl } from "../../common/catalogue";
import { formatNumber, formatYuan } from "../../common/money";
import { reportDimensions } from "../../common/reports";
import { ApiFailError, DEFAULT_API_PATH, scope, type CustomAnswer } from "../../providers/dataProvider";
import { displayValue, FilterControl, filterValueProps, type Translate } from "./fields";
import { useExport } from "./useExport";
import { clearNarrowed } from "./RecordFields";
import { chartHeight, valueSlot, type ColourSlot } from "./chartStyle";
import type { ChartSeries } from "./ReportChart";
import { isBlankFilterValue as isBlank } from "../../common/fieldExtras";

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

/** How many of the report's filters the payload sets (a range once, whichever of its ends is set). */
export function filtersSet(report: ReportDecl, payload: Record<string, unknown>): number {
  return report.filters.filter((f) => [f.name, `${f.name}_start`, `${f.name}_end`].some((key) => !isBlank(payload[key]))).length;
}

/** The measures the chart draws: the declared ones, else every count and sum (a rate has an axis of its own). */
function chartMeasures(report: ReportDecl) {
  return report.chartMeasures ? report.measures.filter((m) => report.chartMeasures!.includes(m.name)) : report.measures.filter((m) => m.type !== "rate");
}

/** A step down a drill: the dimension left and the row opened (its value, the filter it sets, and its title). */
interface DrillStep {
  dimension: string;
  value: unknown;
  title: string;
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
  dimension: FieldDecl = report.dimension,
): { categories: string[]; categoryColours: ColourSlot[]; series: ChartSeries[] } {
  return {
    categories: rows.map(rowLabel),
    categoryColours: rows.map((row) => valueSlot(dimension, row[dimension.name])),
    series: chartMeasures(report).map((m) => ({
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

export default function ReportPage({ report, group, entry }: ReportPageProps) {
  const { t: translate, i18n } = useTranslation();
  const t: Translate = (key, options) => translate(key, options);
  const [form] = Form.useForm<FilterValues>();
  const screens = Grid.useBreakpoint();
  const go = useGo();
  // below lg (992 px): filters folded behind a button, stacked, full width
  const narrow = screens.lg === false;
  const [filtersOpen, setFiltersOpen] = useState(false);
  const [filters, setFilters] = useState<Record<string, unknown>>({});
  const dimensions = reportDimensions(report);
  const [drill, setDrill] = useState<DrillStep[]>([]);
  const [dimensionName, setDimensionName] = useState(report.dimension.name);
  const dimension = dimensions.find((d) => d.name === dimensionName) ?? report.dimension;
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(report.pageSize ?? 0);
  const [chartWidth, chartArea] = useWidth();
  // a record page's report (a class's students) is narrowed to its record
  const { id: recordId } = useParams();
  const recordFilter = entry.page?.kind === "report" && entry.page.recordFilter && recordId ? { [entry.page.recordFilter]: recordId } : {};
  const drillFilters = Object.fromEntries(drill.map((step) => [step.dimension, step.value]));
  const reading = { ...scope(), ...filters, ...drillFilters, ...recordFilter, ...(dimensions.length > 1 ? { dimension: dimension.name } : {}) };
  const payload = { ...reading, ...(report.pageSize ? { page, limit: pageSize } : {}) };

  const { query } = useCustom<ReportRow[]>({
    url: report.name,
    method: "post",
    config: { payload },
    // the weapi client has shown a failure already
    errorNotification: false,
    successNotification: false,
  });
  const answer = query.data as CustomAnswer<ReportRow[]> | undefined;
  // the rows of the dimension shown: while another dimension's figures load, the last ones are not drawn under its name
  const rows = useMemo(
    () => (query.isSuccess && Array.isArray(answer?.data) ? answer.data.filter((row) => Object.hasOwn(row, dimension.name)) : []),
    [query.isSuccess, answer, dimension.name],
  );
  const sums = answer?.sums ?? {};

  const exports = useExport();
  // the file holds every row of what the page reads, whichever page of the table is shown
  const onExport = () => exports.start(DEFAULT_API_PATH, report.exportOperation, reading);

  const rowLabel = (row: ReportRow): string => {
    const shown = displayValue(dimension, row[dimension.name], t, row);
    return typeof shown === "string" || typeof shown === "number" ? String(shown) : String(row[dimension.name] ?? "");
  };
  const pie = report.chart === "pie";
  // the chart writes its figures as the table does: money to the fen (a whole yuan too), counts whole
  const language = i18n.language;
  const chartInMoney = chartMeasures(report).some((m) => m.type === "money");
  const chartValueText = useCallback((value: number) => formatNumber(value, language, chartInMoney ? 2 : 0), [language, chartInMoney]);
  const { categories, categoryColours, series } = useMemo(() => chartData(report, rows, rowLabel, translate, dimension), [report, rows, translate, dimension]);
  // the placeholder stands where the chart will, at its size (its row count known once the figures are in)
  const chartFallback = (
    <div data-testid="report-chart-loading">
      <Skeleton.Node active style={{ width: chartWidth, height: chartHeight(report.chart, chartWidth, query.isSuccess ? rows.length : undefined) }} />
    </div>
  );

  /** A row opens the next level down: the next dimension narrowed to the row, or the record page of its report. */
  const drillTarget = report.drill?.[dimension.name];
  const drillRoute = drillTarget && "report" in drillTarget ? group.children.find((e) => e.page?.kind === "report" && e.page.report === drillTarget.report && e.params?.length) : undefined;
  const openRow = (row: ReportRow) => {
    if (!drillTarget) return;
    if ("report" in drillTarget) {
      if (drillRoute) go({ to: `/${group.path}/${drillRoute.name}/${String(row[dimension.name])}` });
      return;
    }
    setDrill([...drill, { dimension: dimension.name, value: row[dimension.name], title: rowLabel(row) }]);
    setDimensionName(drillTarget.dimension);
    setPage(1);
  };
  const drillable = Boolean(drillTarget && ("dimension" in drillTarget || drillRoute));
  const backTo = (steps: number) => {
    // the level of that step: the dimension it was read by
    setDimensionName(drill[steps]?.dimension ?? dimension.name);
    setDrill(drill.slice(0, steps));
    setPage(1);
  };
  const chooseDimension = (name: string) => {
    setDimensionName(name);
    setDrill([]);
    setPage(1);
  };

  const measureText = (m: (typeof report.measures)[number], value: unknown) => {
    if (m.type === "rate") return `${formatNumber(asNumber(value), i18n.language, 1)}%`;
    if (m.type === "money") return formatYuan(String(value ?? 0), i18n.language);
    return formatNumber(asNumber(value), i18n.language);
  };
  const columns: NonNullable<TableProps<ReportRow>["columns"]> = [
    {
      key: dimension.name,
      title: translate(dimension.label),
      render: (_: unknown, row: ReportRow) =>
        drillable ? (
          <Button type="link" size="small" style={{ padding: 0, height: "auto", whiteSpace: "normal", textAlign: "start" }} onClick={() => openRow(row)} data-testid="report-drill">
            {rowLabel(row)}
          </Button>
        ) : (
          rowLabel(row)
        ),
    },
    ...report.measures.map((m) => ({ key: m.name, dataIndex: m.name, title: translate(m.label), align: "right" as const, render: (value: unknown) => measureText(m, value) })),
    ...(pie ? [{ key: SHARE, dataIndex: SHARE, title: translate("reports.share"), align: "right" as const, render: (value: unknown) => `${formatNumber(asNumber(value), i18n.language, 1)}%` }] : []),
  ];

  const search = (values: FilterValues) => {
    setFilters(reportFilterPayload(report, values));
    setPage(1);
    // on a phone the figures matter now: fold the filters away
    setFiltersOpen(false);
  };
  const reset = () => {
    form.resetFields();
    setFilters({});
    setPage(1);
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
      {report.note && (
        <Typography.Paragraph type="secondary" style={{ marginBottom: 12 }} data-testid="report-note">
          {translate(report.note)}
        </Typography.Paragraph>
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
      {(dimensions.length > 1 || drill.length > 0) && (
        <Space wrap style={{ marginBottom: 16, width: "100%", justifyContent: "space-between" }}>
          {drill.length > 0 ? (
            <Breadcrumb
              data-testid="report-drill-path"
              items={[
                { title: <a onClick={() => backTo(0)}>{translate("reports.drill_all")}</a> },
                ...drill.map((step, i) => ({ title: i === drill.length - 1 ? step.title : <a onClick={() => backTo(i + 1)}>{step.title}</a> })),
              ]}
            />
          ) : (
            <span />
          )}
          {dimensions.length > 1 && drill.length === 0 && (
            <Space>
              <span>{translate("reports.view_by")}</span>
              {/* a phone has no room for every dimension side by side (nor Spanish on a tablet): a choice, never a cut label */}
              {narrow ? (
                <Select
                  value={dimension.name}
                  onChange={(value: string) => chooseDimension(value)}
                  options={dimensions.map((d) => ({ value: d.name, label: translate(d.label) }))}
                  popupMatchSelectWidth={false}
                  style={{ minWidth: 140 }}
                  aria-label={translate("reports.view_by")}
                  data-testid="report-dimension"
                />
              ) : (
                <Segmented
                  value={dimension.name}
                  onChange={(value) => chooseDimension(String(value))}
                  options={dimensions.map((d) => ({ value: d.name, label: translate(d.label) }))}
                  data-testid="report-dimension"
                />
              )}
            </Space>
          )}
        </Space>
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
                <ReportChart kind={report.chart} categories={categories} categoryColours={categoryColours} series={series} title={pie ? series[0]?.name : undefined} valueText={chartValueText} />
              </Suspense>
            )}
          </div>
          <Table<ReportRow>
            rowKey={(row) => `${dimension.name}:${String(row[dimension.name])}`}
            columns={columns}
            dataSource={rows}
            loading={query.isFetching}
            size={narrow ? "small" : "middle"}
            pagination={
              report.pageSize
                ? {
                    current: page,
                    pageSize,
                    total: answer?.total ?? 0,
                    showSizeChanger: true,
                    pageSizeOptions: [...new Set([report.pageSize, 20, 50, 100])].sort((a, b) => a - b),
                    onChange: (next, size) => {
                      setPage(size === pageSize ? next : 1);
                      setPageSize(size);
                    },
                  }
                : false
            }
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
                        <strong>{measureText(m, sums[m.name])}</strong>
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
