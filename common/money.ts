/**
 * Money: the database stores integer fen; the API and UI carry yuan strings with two decimals ("365.00").
 */

/** Spec 5 money helper: keep digits and a single dot, no leading dot, at most two decimals. */
export function sanitiseMoneyInput(input: string): string {
  let s = String(input ?? "").replace(/[^\d.]/g, "");
  s = s.replace(/^\.+/, "");
  const dot = s.indexOf(".");
  if (dot >= 0) s = s.slice(0, dot + 1) + s.slice(dot + 1).replace(/\./g, "");
  return s.replace(/^(\d+)\.(\d\d).*$/, "$1.$2");
}

export function fenToYuan(fen: number | bigint): string {
  const n = BigInt(fen);
  const neg = n < 0n;
  const abs = neg ? -n : n;
  const yuan = abs / 100n;
  const cents = (abs % 100n).toString().padStart(2, "0");
  return `${neg ? "-" : ""}${yuan}.${cents}`;
}

/** Parses "365", "365.5" or "365.50" into fen; returns null for anything that is not a non-negative amount. */
export function yuanToFen(yuan: string | number): number | null {
  const s = typeof yuan === "number" ? yuan.toFixed(2) : String(yuan).trim();
  const m = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(s);
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? "").padEnd(2, "0"));
}

/**
 * A number as a language writes it, its thousands always grouped: Intl leaves a Spanish four-digit number
 * ungrouped ("1234,50" beside "12.345,50"), so one column would mix both; here es writes "1.234,50" too.
 */
export function formatNumber(value: number, language: string, fractionDigits = 0): string {
  return value.toLocaleString(language, { minimumFractionDigits: fractionDigits, maximumFractionDigits: fractionDigits, useGrouping: "always" });
}

/** An amount in yuan ("4400.49") as a language writes it ("¥4,400.49", "¥4.400,49"), with the yuan sign the console uses. */
export function formatYuan(yuan: string | number, language: string): string {
  const amount = Number(yuan);
  if (!Number.isFinite(amount)) return `¥${String(yuan)}`;
  return `¥${formatNumber(amount, language, 2)}`;
}
