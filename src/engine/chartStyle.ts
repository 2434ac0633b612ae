/**
 * How a report's chart looks, without echarts (the report page sizes its placeholder with it, before the chart's
 * chunk arrives): its height for a width and a number of rows, and its colours.
 *
 * Colours: a value of a dimension keeps one colour on every chart of the console, whatever its position in an
 * answer. A choice's value takes the colour of its position among the field's declared options; a reference's
 * value (a class, a school) that of a stable hash of the entity and id. A measure that counts one value (boys:
 * the students of sex 1) is drawn in that value's colour; the other measures (all students) in the theme colour,
 * which no value takes.
 */
import type { FieldDecl } from "../../common/catalogue";

/** Below this width a chart is narrow: a bar chart lies on its side, a pie's labels go inside its ring. */
export const NARROW_WIDTH = 600;
/** The height of a row of a bar chart lying on its side. */
const ROW_HEIGHT = 28;

/**
 * The chart's height at a width (0 while unmeasured) for a number of rows (undefined while unknown): a bar chart
 * on its side grows with its rows, the others keep a fixed height.
 */
export function chartHeight(kind: "bar" | "pie" | "line", width: number, rows?: number): number {
  const narrow = width > 0 && width < NARROW_WIDTH;
  if (kind === "bar" && narrow) return Math.max(240, (rows ?? 0) * ROW_HEIGHT + 80);
  return narrow ? 280 : 340;
}

/**
 * Where a series or a slice takes its colour: `theme` (a measure of no particular value), or a value's slot,
 * an index into the values' colours (wrapping round).
 */
export type ColourSlot = "theme" | number;

/** A stable, well-spread hash of a string (FNV-1a, 32 bits). */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The colour slot of a value of a field: a choice by its option's position, a reference by a hash of its id. */
export function valueSlot(field: Pick<FieldDecl, "options" | "ref">, value: unknown): ColourSlot {
  const text = String(value ?? "");
  if (field.options?.length) {
    const index = field.options.findIndex((option) => option.value === text);
    if (index >= 0) return index;
  }
  return hash(`${field.ref?.entity ?? ""}:${text}`);
}

/** Colours a reader tells apart, for values (the theme colour stands for whole measures). */
const VALUE_COLOURS = ["#fa8c16", "#13c2c2", "#eb2f96", "#52c41a", "#722ed1", "#faad14", "#2f54eb", "#a0d911"];

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
 * The theme colour as charts draw it: the theme colour, unless it can hardly be told from the background (the
 * near-black theme colour on the dark theme), when the secondary text colour stands in.
 */
export function seriesColour(primary: string, background: string, fallback: string): string {
  const a = luminance(primary);
  const b = luminance(background);
  if (a === null || b === null) return primary;
  const contrast = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  return contrast < 1.6 ? fallback : primary;
}

/** The values' colours under a theme colour: those a reader tells apart from it (not of a near hue). */
export function valueColours(primary: string): string[] {
  const hue = hueOf(primary);
  const near = (colour: string) => {
    const other = hueOf(colour);
    if (hue === null || other === null) return colour.toLowerCase() === primary.toLowerCase();
    const distance = Math.abs(hue - other);
    return Math.min(distance, 360 - distance) < 30;
  };
  return VALUE_COLOURS.filter((c) => !near(c));
}

/**
 * The colour of each slot under a theme colour (as `seriesColour` gives it). A second measure of no value (the
 * theme colour is taken) borrows a value colour from the end of the list, far from the first options'.
 */
export function slotColours(slots: readonly ColourSlot[], theme: string, primary = theme): string[] {
  const values = valueColours(primary);
  let themed = 0;
  return slots.map((slot) => {
    if (slot !== "theme") return values[slot % values.length]!;
    themed++;
    return themed === 1 ? theme : values[values.length - ((themed - 2) % values.length) - 1]!;
  });
}
