/**
 * Report charts: a value of a dimension keeps one colour on every chart of the console, whatever its position in
 * an answer (boys are one colour on students by gender and on students by class, girls another), whole measures
 * the theme colour; a reference's value keeps its colour too. On a phone a pie's labels stay inside its ring and
 * the names and figures go in the legend below, and a line's day labels stay level, none over another. Figures
 * read as the user's language writes them.
 */
import { describe, expect, it } from "vitest";
import { classReport, sexReport } from "../../catalogue/reports";
import type { ReportDecl } from "../../common/catalogue";
import { chartData } from "../../src/engine/ReportPage";
import { chartOption } from "../../src/engine/ReportChart";
import { formatNumber } from "../../common/money";

const tokens = {
  colorPrimary: "#1890ff",
  colorBgContainer: "#ffffff",
  colorText: "rgba(0,0,0,0.88)",
  colorTextSecondary: "rgba(0,0,0,0.65)",
  colorBorderSecondary: "#f0f0f0",
  colorBgElevated: "#ffffff",
  fontFamily: "sans-serif",
};

type Row = Record<string, unknown>;
type Option = {
  color?: string[];
  series: { name?: string; itemStyle?: { color?: string }; data: ({ name: string; itemStyle?: { color?: string } } | number)[]; label?: { position?: string }; labelLine?: { show?: boolean } }[];
  legend: { bottom?: number; formatter?: (name: string) => string };
};

const label = (row: Row) => String(row.label);

function option(report: ReportDecl, rows: Row[], narrow = false): Option {
  const data = chartData(report, rows, label, (key) => key);
  return chartOption({ kind: report.chart, ...data }, tokens, narrow) as Option;
}

/** The colour each slice of a pie is drawn in, by its label. */
function sliceColours(chart: Option): Record<string, string | undefined> {
  return Object.fromEntries(
    chart.series[0]!.data.map((slice, i) => {
      const { name, itemStyle } = slice as { name: string; itemStyle?: { color?: string } };
      return [name, itemStyle?.color ?? chart.color?.[i]];
    }),
  );
}

/** The colour each series of a bar chart is drawn in, by its measure's label. */
function seriesColours(chart: Option): Record<string, string | undefined> {
  return Object.fromEntries(chart.series.map((s, i) => [s.name, s.itemStyle?.color ?? chart.color?.[i]]));
}

const genders: Row[] = [
  { sex: "1", label: "boys", students: 178 },
  { sex: "2", label: "girls", students: 165 },
];
const classes: Row[] = [
  { class_id: 11, label: "Grade 1 / Class 1", students: 27, boys: 13, girls: 14 },
  { class_id: 12, label: "Grade 1 / Class 2", students: 38, boys: 21, girls: 17 },
];

describe("report chart colours", () => {
  it("draws boys in one colour and girls in another on the gender pie and the class bars, all students in the theme colour", () => {
    const pie = sliceColours(option(sexReport, genders));
    const bars = seriesColours(option(classReport, classes));
    expect(pie.boys).toBeDefined();
    expect(pie.girls).toBeDefined();
    expect(pie.boys).not.toBe(pie.girls);
    expect(bars["reports.measure.boys"]).toBe(pie.boys);
    expect(bars["reports.measure.girls"]).toBe(pie.girls);
    expect(bars["reports.measure.students"]).toBe(tokens.colorPrimary);
    expect([pie.boys, pie.girls]).not.toContain(tokens.colorPrimary);
  });

  it("keeps each value's colour whatever its position in the answer", () => {
    const forward = sliceColours(option(sexReport, genders));
    const reversed = sliceColours(option(sexReport, [...genders].reverse()));
    expect(reversed).toEqual(forward);
    const girlsOnly = sliceColours(option(sexReport, [genders[1]!]));
    expect(girlsOnly.girls).toBe(forward.girls);

    // a reference's value (a class) too, on a pie by class
    const byClass: ReportDecl = { ...classReport, chart: "pie" };
    const classColours = sliceColours(option(byClass, classes));
    expect(sliceColours(option(byClass, [...classes].reverse()))).toEqual(classColours);
    expect(sliceColours(option(byClass, [classes[1]!]))["Grade 1 / Class 2"]).toBe(classColours["Grade 1 / Class 2"]);
  });

  it("on a phone puts a pie's shares inside its ring and its names with their figures in the legend below", () => {
    const narrow = option(sexReport, genders, true);
    expect(narrow.series[0]!.label?.position).toBe("inside");
    expect(narrow.series[0]!.labelLine?.show).toBe(false);
    expect(narrow.legend.bottom).toBe(0);
    expect(narrow.legend.formatter?.("boys")).toContain("178");
    const wide = option(sexReport, genders);
    expect(wide.series[0]!.label?.position).toBeUndefined();
  });
});

describe("report chart labels", () => {
  type Axis = { axisLabel: { rotate?: number; hideOverlap?: boolean; interval?: unknown; formatter?: (value: unknown) => string } };
  const days = Array.from({ length: 31 }, (_, i) => `2026-08-${String(i + 1).padStart(2, "0")}`);
  const line = (narrow: boolean, valueText?: (value: number) => string) =>
    chartOption({ kind: "line", categories: days, categoryColours: days.map(() => "theme"), series: [{ name: "paid", data: days.map((_, i) => i * 1000), colour: "theme" }], valueText }, tokens, narrow) as unknown as {
      xAxis: Axis;
      yAxis: Axis;
      tooltip: { valueFormatter?: (value: unknown) => string };
    };

  it("on a phone keeps a line's day labels level, shows every few whole and leaves their year to the table", () => {
    const narrow = line(true);
    expect(narrow.xAxis.axisLabel.rotate).toBe(0);
    expect(narrow.xAxis.axisLabel.interval).toBe("auto");
    expect(narrow.xAxis.axisLabel.hideOverlap).toBe(true);
    expect(narrow.xAxis.axisLabel.formatter?.("2026-08-30")).toBe("08-30");
    // wide, the days are whole and tilted when many
    const wide = line(false);
    expect(wide.xAxis.axisLabel.rotate).toBe(30);
    expect(wide.xAxis.axisLabel.formatter).toBeUndefined();
  });

  it("writes the figures of its axis and tooltip as the user's language does", () => {
    const spanish = line(true, (value) => formatNumber(value, "es"));
    expect(spanish.yAxis.axisLabel.formatter?.(35000)).toBe("35.000");
    expect(spanish.yAxis.axisLabel.formatter?.(5000)).toBe("5.000");
    expect(spanish.tooltip.valueFormatter?.(4782)).toBe("4.782");
  });
});

describe("motion", () => {
  it("draws a chart at once for a reader who prefers reduced motion, and animated otherwise", () => {
    const rows = [{ label: "男", value: 3 }];
    const animated = (motion?: boolean) => (chartOption({ kind: "pie", ...chartData(sexReport, rows, label, (key) => key) }, { ...tokens, motion }, false) as { animation?: boolean }).animation;
    expect(animated(false)).toBe(false);
    expect(animated(true)).toBe(true);
    expect(animated(undefined)).toBe(true);
  });
});
