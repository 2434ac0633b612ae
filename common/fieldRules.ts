/**
 * Value rules of the field kinds that the SPA and the server both check (phone, image URL, identity card),
 * so a form refuses in the browser exactly what the server refuses.
 */

/** A mainland mobile (11 digits from 1[3-9]) or a landline with its area code, e.g. 010-12345678 or 0755-1234567-89. */
export const PHONE_PATTERN = /^(?:1[3-9]\d{9}|0\d{2,3}-?\d{7,8}(?:-\d{1,6})?|\+\d{6,15})$/;

export function isPhone(value: string): boolean {
  return PHONE_PATTERN.test(value);
}

/** An absolute http(s) URL (an image is shown from it, never uploaded here). */
export function isImageUrl(value: string): boolean {
  if (value.length > 500 || /\s/.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === "https:" || url.protocol === "http:") && url.hostname.length > 0;
  } catch {
    return false;
  }
}

const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const ID_CHECK = "10X98765432";

/** A resident identity card number (GB 11643): 17 digits, a birth date that exists, and its check character. */
export function isIdCard(value: string): boolean {
  const id = value.toUpperCase();
  if (!/^\d{17}[\dX]$/.test(id)) return false;
  const year = Number(id.slice(6, 10));
  const month = Number(id.slice(10, 12));
  const day = Number(id.slice(12, 14));
  const birth = new Date(Date.UTC(year, month - 1, day));
  if (year < 1900 || birth.getUTCFullYear() !== year || birth.getUTCMonth() !== month - 1 || birth.getUTCDate() !== day) return false;
  const sum = ID_WEIGHTS.reduce((acc, w, i) => acc + w * Number(id[i]), 0);
  return ID_CHECK[sum % 11] === id[17];
}

/** An identity card number as lists and exports show it: the region and the check character only. */
export function maskIdCard(value: string): string {
  return value.length < 8 ? "*".repeat(value.length) : `${value.slice(0, 4)}${"*".repeat(value.length - 6)}${value.slice(-2)}`;
}

/** The key beside a reference's id under which lists and records carry the referred record's name: grade_id → grade_title. */
export function refTitleKey(fieldName: string): string {
  return `${fieldName.replace(/_id$/, "")}_title`;
}
