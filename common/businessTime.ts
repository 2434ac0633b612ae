/**
 * Times as people read them (DESIGN 8): the platform's business day is China time (Asia/Shanghai), and every time
 * the console, the payer page, vouchers, exports and notices show is China time, whatever the reader's own zone.
 * Asia/Shanghai keeps UTC+8 all year (no daylight saving), so the offset is fixed. No imports: the payer's page
 * reads times through this module too.
 */
export const BUSINESS_TIME_ZONE = "Asia/Shanghai";
/** minutes east of UTC */
const BUSINESS_OFFSET_MINUTES = 8 * 60;
/** how a time names its zone where a reader could take it for their own: the zone's offset, the same in every language */
export const BUSINESS_ZONE_LABEL = "UTC+8";

/** An instant as the business time zone reads it, YYYY-MM-DD HH:mm:ss. */
export function businessTime(at: Date): string {
  return new Date(at.getTime() + BUSINESS_OFFSET_MINUTES * 60_000).toISOString().slice(0, 19).replace("T", " ");
}

/** an instant as the API writes it: ISO 8601 with its offset (the server writes UTC, "…Z") */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/** The instant a value names (an ISO 8601 time with its offset, or a Date), else null. */
export function instantOf(value: unknown): Date | null {
  const at = value instanceof Date ? value : typeof value === "string" && INSTANT.test(value.trim()) ? new Date(value.trim()) : null;
  return at && !Number.isNaN(at.getTime()) ? at : null;
}

/**
 * A time as the console and the payer page show it: China time, "2026-11-25 17:02:11" (or to the minute,
 * "2026-11-25 17:02"). A value that names no instant (a day, a text) is shown as it came.
 */
export function timeText(value: unknown, unit: "second" | "minute" = "second"): string {
  const at = instantOf(value);
  if (!at) return value === null || value === undefined ? "" : String(value);
  const text = businessTime(at);
  return unit === "minute" ? text.slice(0, 16) : text;
}

/** Whether the reader's clock (the browser's zone) reads an instant otherwise than China time: then a shown time says its zone. */
export function readerOutsideBusinessZone(at: Date): boolean {
  return -at.getTimezoneOffset() !== BUSINESS_OFFSET_MINUTES;
}
