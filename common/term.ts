/**
 * Calendar days and subscription terms (DESIGN 4: dates are YYYY-MM-DD in the platform's business time zone):
 * days left (spec 4.2) and the end after an extension, used alike by the server that applies a renewal and by
 * the SPA that previews it.
 */
import dayjs from "dayjs";
import { BUSINESS_TIME_ZONE } from "./businessTime";

export { BUSINESS_TIME_ZONE, businessTime } from "./businessTime";

/** the expiry reminder shows under this many days left (spec 4.2) */
export const EXPIRY_THRESHOLD_DAYS = 15;
const DAY_MS = 86_400_000;

const dayFormat = new Intl.DateTimeFormat("en-CA", {
  timeZone: BUSINESS_TIME_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});

/** The calendar day (YYYY-MM-DD) of an instant in the business time zone. */
export function businessDay(at: Date): string {
  return dayFormat.format(at);
}

/**
 * The instant a business day starts. Asia/Shanghai keeps UTC+8 all year (no daylight saving), so the offset is
 * fixed.
 */
export function businessDayStart(day: string): Date {
  return new Date(`${day}T00:00:00+08:00`);
}

/** YYYY-MM-DD plus a number of days (negative goes back). */
export function addDays(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** The days a date may name: years before 1900 are typing errors here, and 9999-12-31 is the calendar's end. */
export const FIRST_DAY = "1900-01-01";
export const LAST_DAY = "9999-12-31";

/** Whether a string is a real calendar day written YYYY-MM-DD, between FIRST_DAY and LAST_DAY. */
export function isCalendarDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || value < FIRST_DAY) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

function utcDay(date: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(date);
  return match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : null;
}

/** Days left of a term ending on `endTime` (a date or a time: its date counts, plus one), null when unreadable. */
export function daysLeft(endTime: string, today: string): number | null {
  const end = utcDay(endTime);
  const start = utcDay(today);
  if (end === null || start === null) return null;
  return Math.round((end - start) / DAY_MS) + 1;
}

/** Whether a term ending on `endTime` has run out by `today`: its last day is before today (false when unreadable). */
export function termExpired(endTime: string | null | undefined, today: string): boolean {
  const days = endTime ? daysLeft(endTime, today) : null;
  return days !== null && days <= 0;
}

export type ExpiryOffer = "none" | "reminder" | "forced";

export function expiryOffer(days: number | null): ExpiryOffer {
  if (days === null || days >= EXPIRY_THRESHOLD_DAYS) return "none";
  return days > 0 ? "reminder" : "forced";
}

/** The term after an extension: months added to the later of today and the current end; null past LAST_DAY. */
export function extendedEnd(currentEnd: string | null | undefined, months: number, today: string): string | null {
  const end = currentEnd?.slice(0, 10);
  const from = end && end > today ? end : today;
  const next = dayjs(from).add(months, "month");
  return next.isValid() && next.year() <= 9999 ? next.format("YYYY-MM-DD") : null;
}
