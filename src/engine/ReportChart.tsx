/**
 * A report's chart (bar, pie or line) drawn by echarts through its modular core: only these charts, components
 * and the canvas renderer are bundled, and only into the report pages' lazy chunk. Colours follow the theme
 * (the chosen theme colour first, text and lines from the light or dark tokens); the chart fills its width and
 * follows it, and on a narrow screen a bar chart lies on its side so that long class names stay readable.
 */
import { useEffect, useRef, useState } from "react";
import { theme } from "antd";
import * as echarts from "echarts/core";
import { BarChart, LineChart, PieChart } from "echarts/charts";
import { GridComponent, LegendComponent, TitleComponent, TooltipComponent } from "echarts/components";
import { CanvasRenderer } from "echarts/renderers";
import type { EChartsCoreOption } from "echarts/core";

echarts.use([BarChart, LineChart, PieChart, GridComponent, LegendComponent, TitleComponent, TooltipComponent, CanvasRenderer]);

export interface ChartSeries {
  name: string;
  data: number[];
}

export interface ReportChartProps {
  kind: "bar" | "pie" | "line";
  /** one label per row (a pie's slices, the bars' or points' categories) */
  categories: string[];
  /** one series per measure; a pie draws the first */
  series: ChartSeries[];
  /** shown above the chart (a pie's measure) */
  title?: string;
}

/** Below this width a bar chart lies on its side. */
const NARROW_WIDTH = 600;
const ROW_HEIGHT = 28;

/** Colours after the theme colour, for the further series and slices. */
const FURTHER_COLOURS = ["#fa8c16", "#13c2c2", "#eb2f96", "#52c41a", "#722ed1", "#faad14", "#2f54eb"];

/** The hue (0-360) of a #rrggbb colour, null for a grey or an unreadable one. */
function hueOf(hex: string): number | null {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) return null;
  const [r, g, b] = [m[1], m[2], m[3]].map((x) => parseInt(x!, 16) / 255) as [number, number, number];
  const max = Math.max(r, g, b);
  const delta = max - Math.min(r, g, b);
  if (delta < 0.15) return null;
  const h = max === r ? ((g - b) / delta) % 6 : max === g ? (b - r) / delta + 2 : (r - g) / delta + 4;
  return (h * 60 + 360) % 360;
}

/** Relative luminance (WCAG) of a #rrggbb colour; null when unreadable. */
function luminance(hex: string): number | null {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) return null;
  const [r, g, b] = [m[1], m[2], m[3]].map((x) => {
    const c = parseInt(x!, 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/**
 * The colour the first series is drawn in: the theme colour, unless it can hardly be told from the background
 * (the near-black theme colour on the dark theme), when the secondary text colour stands in.
 */
export function seriesColour(primary: string, background: string, fallback: string): string {
  const a = luminance(primary);
  const b = luminance(background);
  if (a === null || b === null) return primary;
  const contrast = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  return contrast < 1.6 ? fallback : primary;
}

/** The theme colour first, then further colours that a reader tells apart from it (not of a near hue). */
export function palette(primary: string): string[] {
  const hue = hueOf(primary);
  const near = (colour: string) => {
    const other = hueOf(colour);
    if (hue === null || other === null) return colour.toLowerCase() === primary.toLowerCase();
    const distance = Math.abs(hue - other);
    return Math.min(distance, 360 - distance) < 30;
  };
  return [primary, ...FURTHER_COLOURS.filter((c) => !near(c))];
}

interface Tokens {
  colorPrimary: string;
  colorBgContainer: string;
  colorText: string;
  colorTextSecondary: string;
  colorBorderSecondary: string;
  colorBgElevated: string;
  fontFamily: string;
}

export function chartOption({ kind, categories, series, title }: ReportChartProps, tokens: Tokens, narrow: boolean): EChartsCoreOption {
  const text = { color: tokens.colorText, fontFamily: tokens.fontFamily };
  const common = {
    color: palette(seriesColour(tokens.colorPrimary, tokens.colorBgContainer, tokens.colorTextSecondary)),
    backgroundColor: "transparent",
    textStyle: text,
    animationDuration: 300,
    title: title ? { text: title, left: "center", top: 0, textStyle: { ...text, fontSize: 14, fontWeight: 500 } } : undefined,
    tooltip: {
      trigger: kind === "pie" ? "item" : "axis",
      backgroundColor: tokens.colorBgElevated,
      borderColor: tokens.colorBorderSecondary,
      textStyle: text,
      confine: true,
    },
    legend: { bottom: 0, textStyle: text, type: "scroll" },
  };
  if (kind === "pie") {
    const first = series[0];
    return {
      ...common,
      tooltip: { ...common.tooltip, formatter: "{b}: {c} ({d}%)" },
      series: [
        {
          type: "pie",
          name: first?.name,
          radius: narrow ? ["30%", "58%"] : ["38%", "66%"],
          center: ["50%", "50%"],
          itemStyle: { borderColor: tokens.colorBgElevated, borderWidth: 2 },
          label: { color: tokens.colorText, formatter: "{b}\n{c} ({d}%)" },
          data: categories.map((name, i) => ({ name, value: first?.data[i] ?? 0 })),
        },
      ],
    };
  }
  const sideways = kind === "bar" && narrow;
  const categoryAxis = {
    type: "category",
    data: categories,
    axisLine: { lineStyle: { color: tokens.colorBorderSecondary } },
    axisTick: { alignWithLabel: true },
    axisLabel: { color: tokens.colorTextSecondary, hideOverlap: true, ...(sideways ? { width: 110, overflow: "truncate" } : { rotate: categories.length > 6 ? 30 : 0 }) },
    ...(sideways ? { inverse: true } : {}),
  };
  const valueAxis = {
    type: "value",
    minInterval: 1,
    axisLabel: { color: tokens.colorTextSecondary },
    splitLine: { lineStyle: { color: tokens.colorBorderSecondary } },
  };
  return {
    ...common,
    grid: { left: 8, right: 16, top: title ? 36 : 16, bottom: 40, containLabel: true },
    xAxis: sideways ? valueAxis : categoryAxis,
    yAxis: sideways ? categoryAxis : valueAxis,
    series: series.map((s) => ({
      type: kind,
      name: s.name,
      data: s.data,
      ...(kind === "bar" ? { barMaxWidth: 28 } : { smooth: true, symbolSize: 6 }),
    })),
  };
}

export default function ReportChart(props: ReportChartProps) {
  const { token } = theme.useToken();
  const element = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  const [width, setWidth] = useState(0);
  const narrow = width > 0 && width < NARROW_WIDTH;
  const sideways = props.kind === "bar" && narrow;
  const height = sideways ? Math.max(240, props.categories.length * ROW_HEIGHT + 80) : narrow ? 280 : 340;

  useEffect(() => {
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
  const { kind, categories, series, title } = props;
  useEffect(() => {
    const tokens = { colorPrimary, colorBgContainer, colorText, colorTextSecondary, colorBorderSecondary, colorBgElevated, fontFamily };
    chart.current?.setOption(chartOption({ kind, categories, series, title }, tokens, narrow), true);
    chart.current?.resize();
  }, [kind, categories, series, title, narrow, height, colorPrimary, colorBgContainer, colorText, colorTextSecondary, colorBorderSecondary, colorBgElevated, fontFamily]);

  return <div ref={element} style={{ width: "100%", height }} data-testid="report-chart" data-kind={props.kind} />;
}
