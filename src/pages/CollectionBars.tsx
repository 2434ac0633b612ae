/**
 * The dashboard's 30 days of collection as bars drawn in SVG: the home page every user lands on stays within its
 * bytes budget (DESIGN 10), which the chart library (its own ~190 KB chunk) would exceed; the report pages keep
 * echarts. Each day has a bar for what was paid and one for what was refunded, scaled to the largest; hovering or
 * tapping a day names it with both amounts (an SVG title, read by screen readers too). The highest day is the scale's
 * dashed line, named as such; the days' totals (the payment statistics' over the same days) are under the bars. It
 * is drawn at its box's width, so that its text keeps its size on a phone.
 */
import { theme } from "antd";
import { useLayoutEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { CollectionDay } from "../../common/dashboard";
import { fenToYuan, formatYuan } from "../../common/money";

/** the width drawn before the box is measured */
const FIRST_WIDTH = 600;
const HEIGHT = 200;
const AXIS = 22;
const TOP = 14;
/** the room a day's label (MM-DD) takes under the axis, with a gap */
const LABEL_WIDTH = 40;

/** An amount in fen as it reads: yuan with the language's grouping. */
export function moneyText(fen: number, language: string): string {
  return formatYuan(fenToYuan(fen), language);
}

export function CollectionBars({ days, total }: { days: readonly CollectionDay[]; total: { paid: number; refunded: number } }) {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  const box = useRef<HTMLElement>(null);
  const [width, setWidth] = useState(FIRST_WIDTH);
  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => setWidth(element.clientWidth || FIRST_WIDTH);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  const money = (fen: number) => moneyText(fen, i18n.language);
  const largest = Math.max(0, ...days.map((d) => Math.max(d.paid, d.refunded)));
  const slot = width / Math.max(1, days.length);
  const bar = Math.max(1, slot * 0.36);
  const labelStep = Math.max(5, Math.ceil(LABEL_WIDTH / slot));
  const plot = HEIGHT - AXIS - TOP;
  // days without money draw no bars (nothing to scale by)
  const heightOf = (fen: number) => (largest > 0 ? (fen / largest) * plot : 0);
  const paidColour = token.colorPrimary;
  const refundColour = token.colorWarning;
  return (
    <figure ref={box} style={{ margin: 0 }} data-testid="collection-bars">
      <svg viewBox={`0 0 ${width} ${HEIGHT}`} width="100%" role="img" aria-label={t("dashboard.collection.chart_title")} style={{ display: "block" }}>
        {/* the scale: the highest day's line, named as such, so that it does not read as a total */}
        {largest > 0 && (
          <>
            <line x1={0} x2={width} y1={TOP} y2={TOP} stroke={token.colorBorderSecondary} strokeDasharray="3 3" />
            <text x={0} y={TOP - 3} fontSize={11} fill={token.colorTextSecondary} data-testid="collection-axis-max">
              {t("dashboard.collection.axis_max", { amount: money(largest) })}
            </text>
          </>
        )}
        <line x1={0} x2={width} y1={HEIGHT - AXIS} y2={HEIGHT - AXIS} stroke={token.colorBorderSecondary} />
        {days.map((d, i) => {
          const x = i * slot + (slot - 2 * bar) / 2;
          return (
            <g key={d.day} data-testid={`collection-day-${d.day}`}>
              <title>{`${d.day}  ${t("dashboard.collection.paid")} ${money(d.paid)}  ${t("dashboard.collection.refunded")} ${money(d.refunded)}`}</title>
              {/* the whole slot answers the pointer, not only the bars */}
              <rect x={i * slot} y={TOP} width={slot} height={plot} fill="transparent" />
              <rect x={x} y={HEIGHT - AXIS - heightOf(d.paid)} width={bar} height={heightOf(d.paid)} fill={paidColour} rx={1} />
              <rect x={x + bar} y={HEIGHT - AXIS - heightOf(d.refunded)} width={bar} height={heightOf(d.refunded)} fill={refundColour} rx={1} />
              {/* every fifth day (or more apart when narrow), and the last, named under the axis: no two labels overlap */}
              {((i % labelStep === 0 && (days.length - 1 - i) * slot >= LABEL_WIDTH) || i === days.length - 1) && (
                // the first and the last kept inside the drawing
                <text
                  x={i === 0 ? 0 : i === days.length - 1 ? width : i * slot + slot / 2}
                  y={HEIGHT - 6}
                  fontSize={11}
                  textAnchor={i === 0 ? "start" : i === days.length - 1 ? "end" : "middle"}
                  fill={token.colorTextSecondary}
                >
                  {d.day.slice(5)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <figcaption style={{ display: "flex", flexWrap: "wrap", gap: "4px 16px", fontSize: 12, color: token.colorTextSecondary, marginTop: 4 }}>
        <span>
          <span style={{ display: "inline-block", width: 10, height: 10, background: paidColour, marginRight: 6, borderRadius: 2 }} />
          {t("dashboard.collection.paid")}
        </span>
        <span>
          <span style={{ display: "inline-block", width: 10, height: 10, background: refundColour, marginRight: 6, borderRadius: 2 }} />
          {t("dashboard.collection.refunded")}
        </span>
        <span style={{ marginLeft: "auto", color: token.colorText }} data-testid="collection-total">
          {t("dashboard.collection.total", { paid: money(total.paid), refunded: money(total.refunded) })}
        </span>
      </figcaption>
    </figure>
  );
}
