/**
 * A report's chart (bar, pie or line) drawn by echarts through its modular core: only these charts, components
 * and the canvas renderer are bundled, and only into the report pages' lazy chunk. Each series and slice has the
 * colour of its slot (chartStyle.ts: a value keeps its colour on every chart, whole measures the theme colour),
 * text and lines come from the light or dark tokens; the chart fills its width and follows it. Figures are
 * written as the user's language writes them (grouping and decimal mark, as in the table below the chart). On a
 * narrow screen a bar chart lies on its side so that long class names stay readable, a pie's labels go inside its
 * ring, the names and figures in the legend below, and a line's labels stay level, every few shown so that none
 * overlaps (days without their year).
 */
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { theme } from "antd";
import * as echarts from "echarts/core";
import { BarChart, LineChart, PieChart } from "echarts/charts";
import { GridComponent, LegendComponent, TitleComponent, TooltipComponent } from "echarts/components";
import { CanvasRenderer } from "echarts/renderers";
import type { EChartsCoreOption } from "echarts/core";
import { chartHeight, NARROW_WIDTH, seriesColour, slotColours, type ColourSlot } from "./chartStyle";

echarts.use([BarChart, LineChart, PieChart, GridComponent, LegendComponent, TitleComponent, TooltipComponent, CanvasRenderer]);

export interface ChartSeries {
  name: string;
  data: number[];
  /** the measure's colour: the value it counts, or the theme colour */
  colour: ColourSlot;
}

export interface ReportChartProps {
  kind: "bar" | "pie" | "line";
  /** one label per row (a pie's slices, the bars' or points' categories) */
  categories: string[];
  /** a pie's slices: the colour of each row's value */
  categoryColours: ColourSlot[];
  /** one series per measure; a pie draws the first */
  series: ChartSeries[];
  /** shown above the chart (a pie's measure) */
  title?: string;
  /** a figure as the user's language writes it (axis labels, tooltips, a pie's legend); echarts' own by default */
  valueText?: (value: number) => string;
}

interface Tokens {
  colorPrimary: string;
  colorBgContainer: string;
  colorText: string;
  colorTextSecondary: string;
  colorBorderSecondary: string;
  colorBgElevated: string;
  fontFamily: string;
  /** antd's motion switch: off when the reader prefers reduced motion */
  motion?: boolean;
}

/** values a wide axis names each of, at most */
const FEW_CATEGORIES = 12;
/** pixels of a tilted name on a wide axis, at most, and of a level one at least */
const WIDE_LABEL_WIDTH = 160;
/** pixels of a wide chart beside its values' names (the value axis), and between two names */
const AXIS_ROOM = 80;
const LABEL_GAP = 12;

/** a day as reports name it: on a narrow axis its year is left to the tooltip and the table */
const DAY = /^\d{4}-(\d{2}-\d{2})$/;

export function chartOption({ kind, categories, categoryColours, series, title, valueText }: ReportChartProps, tokens: Tokens, narrow: boolean, width = 0): EChartsCoreOption {
  const figure = (value: unknown) => (valueText && typeof value === "number" ? valueText(value) : String(value ?? ""));
  const text = { color: tokens.colorText, fontFamily: tokens.fontFamily };
  const theme = seriesColour(tokens.colorPrimary, tokens.colorBgContainer, tokens.colorTextSecondary);
  const common = {
    backgroundColor: "transparent",
    textStyle: text,
    animation: tokens.motion !== false,
    animationDuration: 300,
    title: title ? { text: title, left: "center", top: 0, textStyle: { ...text, fontSize: 14, fontWeight: 500 } } : undefined,
    tooltip: {
      trigger: kind === "pie" ? "item" : "axis",
      backgroundColor: tokens.colorBgElevated,
      borderColor: tokens.colorBorderSecondary,
      textStyle: text,
      confine: true,
      ...(valueText ? { valueFormatter: figure } : {}),
    },
    legend: { bottom: 0, textStyle: text, type: "scroll" },
  };
  if (kind === "pie") {
    const first = series[0];
    const values = categories.map((_, i) => first?.data[i] ?? 0);
    const colours = slotColours(categoryColours, theme, tokens.colorPrimary);
    return {
      ...common,
      tooltip: { ...common.tooltip, formatter: (item: { name: string; value: number; percent: number }) => `${item.name}: ${figure(item.value)} (${item.percent}%)` },
      // narrow: the names and figures in the legend, only the shares on the ring, so nothing is cut at the sides
      legend: narrow ? { ...common.legend, formatter: (name: string) => `${name}  ${figure(values[categories.indexOf(name)] ?? "")}` } : common.legend,
      series: [
        {
          type: "pie",
          name: first?.name,
          radius: narrow ? ["36%", "70%"] : ["38%", "66%"],
          center: narrow ? ["50%", "48%"] : ["50%", "50%"],
          itemStyle: { borderColor: tokens.colorBgElevated, borderWidth: 2 },
          label: narrow
            ? { position: "inside", color: "#fff", fontWeight: 500, formatter: "{d}%" }
            : { color: tokens.colorText, formatter: (item: { name: string; value: number; percent: number }) => `${item.name}\n${figure(item.value)} (${item.percent}%)` },
          // a sliver's share would not fit inside it (the legend and the tooltip still name it)
          minShowLabelAngle: narrow ? 15 : 0,
          labelLine: { show: !narrow },
          data: categories.map((name, i) => ({ name, value: values[i], itemStyle: { color: colours[i] } })),
        },
      ],
    };
  }
  const colours = slotColours(
    series.map((s) => s.colour),
    theme,
    tokens.colorPrimary,
  );
  const sideways = kind === "bar" && narrow;
  const days = categories.length > 0 && categories.every((c) => DAY.test(c));
  // a narrow axis keeps its labels level (tilted ones run into each other there) and shows every few, each whole
  const levelLabels = { rotate: 0, interval: "auto", ...(days ? { formatter: (day: string) => DAY.exec(day)?.[1] ?? day } : {}) };
  // a wide axis names every one of a few values (echarts' own spacing dropped every other long name, a goods item's
  // SKU, with room to spare), tilted beyond six; a name longer than its value's room (or, tilted, 160 px) is cut,
  // the tooltip and the table giving it whole
  const tilted = categories.length > 6;
  const room = width > 0 && !tilted ? Math.floor((width - AXIS_ROOM) / Math.max(categories.length, 1)) - LABEL_GAP : 0;
  const wideLabels = { rotate: tilted ? 30 : 0, interval: categories.length <= FEW_CATEGORIES ? 0 : "auto", width: Math.max(room, WIDE_LABEL_WIDTH), overflow: "truncate" };
  const categoryAxis = {
    type: "category",
    data: categories,
    axisLine: { lineStyle: { color: tokens.colorBorderSecondary } },
    axisTick: { alignWithLabel: true },
    axisLabel: { color: tokens.colorTextSecondary, hideOverlap: true, ...(sideways ? { width: 110, overflow: "truncate" } : narrow ? levelLabels : wideLabels) },
    ...(sideways ? { inverse: true } : {}),
  };
  const valueAxis = {
    type: "value",
    minInterval: 1,
    axisLabel: { color: tokens.colorTextSecondary, hideOverlap: true, ...(valueText ? { formatter: figure } : {}) },
    splitLine: { lineStyle: { color: tokens.colorBorderSecondary } },
  };
  return {
    ...common,
    grid: { left: 8, right: 16, top: title ? 36 : 16, bottom: 40, containLabel: true },
    xAxis: sideways ? valueAxis : categoryAxis,
    yAxis: sideways ? categoryAxis : valueAxis,
    series: series.map((s, i) => ({
      type: kind,
      name: s.name,
      data: s.data,
      itemStyle: { color: colours[i] },
      ...(kind === "bar" ? { barMaxWidth: 28 } : { smooth: true, symbolSize: 6, lineStyle: { color: colours[i] } }),
    })),
  };
}

export default function ReportChart(props: ReportChartProps) {
  const { token } = theme.useToken();
  const element = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  const [width, setWidth] = useState(0);
  const narrow = width > 0 && width < NARROW_WIDTH;
  const height = chartHeight(props.kind, width, props.categories.length);

  // measured before the first paint: the chart appears at its final height, where the placeholder stood
  useLayoutEffect(() => {
    const el = element.current;
    if (!el) return;
    chart.current = echarts.init(el, undefined, { renderer: "canvas" });
    setWidth(el.clientWidth);
    const observer = new ResizeObserver(() => {
      setWidth(el.clientWidth);
      chart.current?.resize();
    });
    observer.observe(el);
    return () => {
      observer.disconnect();
      chart.current?.dispose();
      chart.current = null;
    };
  }, []);

  const { colorPrimary, colorBgContainer, colorText, colorTextSecondary, colorBorderSecondary, colorBgElevated, fontFamily } = token;
  const { kind, categories, categoryColours, series, title, valueText } = props;
  useEffect(() => {
    const tokens = { colorPrimary, colorBgContainer, colorText, colorTextSecondary, colorBorderSecondary, colorBgElevated, fontFamily };
    chart.current?.setOption(chartOption({ kind, categories, categoryColours, series, title, valueText }, tokens, narrow, width), true);
    chart.current?.resize();
  }, [kind, categories, categoryColours, series, title, valueText, narrow, width, height, colorPrimary, colorBgContainer, colorText, colorTextSecondary, colorBorderSecondary, colorBgElevated, fontFamily]);

  return <div ref={element} style={{ width: "100%", height }} data-testid="report-chart" data-kind={props.kind} />;
}
