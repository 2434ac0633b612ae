/**
 * Term arithmetic on dates (YYYY-MM-DD) in the platform's business time zone: days left (spec 4.2) and the
 * end after an extension (contract of issue 3).
 */
import dayjs from "dayjs";

export const EXPIRY_THRESHOLD_DAYS = 15;
const BUSINESS_TIME_ZONE = "Asia/Shanghai";
const DAY_MS = 86_400_000;

/** Today's date (YYYY-MM-DD) in the platform's business time zone. */
export function businessToday(now: Date): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: BUSINESS_TIME_ZONE, year: "numeric", month: "2-digit", day: "2-digit" }).format(now);
}

function utcDay(date: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(date);
  return match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : null;
}

/** Days left of a term ending on `endTime` (a date or a time: its date counts), null when unreadable. */
export function daysLeft(endTime: string, today: string): number | null {
  const end = utcDay(endTime);
  const start = utcDay(today);
  if (end === null || start === null) return null;
  return Math.round((end - start) / DAY_MS) + 1;
}

export type ExpiryOffer = "none" | "reminder" | "forced";

export function expiryOffer(days: number | null): ExpiryOffer {
  if (days === null || days >= EXPIRY_THRESHOLD_DAYS) return "none";
  return days > 0 ? "reminder" : "forced";
}

/** The term after an extension: months added to the later of today and the current end. */
export function extendedEnd(currentEnd: string | undefined, months: number, today: string): string {
  const end = currentEnd?.slice(0, 10);
  const from = end && end > today ? end : today;
  return dayjs(from).add(months, "month").format("YYYY-MM-DD");
}
