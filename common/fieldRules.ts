/**
 * Value rules of the field kinds that the SPA and the server both check (phone, image URL, identity card),
 * so a form refuses in the browser exactly what the server refuses; and how both name a referred record.
 */
import type { EntityDecl, FieldDecl } from "./catalogue";
import { hasAnyRole } from "./roleKeys";

/**
 * A mainland mobile (11 digits from 1[3-9]), a landline with its area code (010-12345678, 0755-1234567-89), a
 * company's nationwide service number (400-820-1234, 800 8201234) or an international number (+85212345678).
 */
export const PHONE_PATTERN = /^(?:1[3-9]\d{9}|0\d{2,3}-?\d{7,8}(?:-\d{1,6})?|[48]00[- ]?\d{3}[- ]?\d{4}|\+\d{6,15})$/;

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

/** a translation of the SPA's or the server's: a key and its parameters */
type TitleTranslate = (key: string, params: Record<string, string | number>) => string;

/**
 * The first of several records' name with their count: "2027 春季学期收费 等 2 项" (`count`: all of them). One
 * record: its name alone.
 */
export function countedTitle(title: string, count: number, t: TitleTranslate): string {
  return count > 1 ? t("crud.ref_more", { title, count, more: count - 1 }) : title;
}

/**
 * A reference's name as lists, records, exports show it, from the record as lists and records answer it: the
 * referred record's name (`{name}_title`), with the count of the records it stands for where the field has one
 * (FieldRef.countField: an order paying bills of several activities).
 */
export function refShownTitle(field: FieldDecl, record: Readonly<Record<string, unknown>>, t: TitleTranslate): unknown {
  const title = record[refTitleKey(field.name)];
  const countField = field.ref?.countField;
  if (typeof title !== "string" || !countField) return title;
  return countedTitle(title, Number(record[countField] ?? 1), t);
}

/**
 * A record's name where others refer to it (EntityDecl.refTitle), from its own row as its list answers it: a class
 * after its grade ("三年级 1班"), unless `narrowBy` (the referring field's) is that grade; a student before their
 * number in brackets. The server's SQL names them the same (server/engine/references.ts referredTitle).
 */
export function referredTitle(entity: EntityDecl, record: Readonly<Record<string, unknown>>, narrowBy?: string): string {
  let title = String(record[entity.titleField] ?? record.id ?? "");
  const number = entity.refTitle?.number;
  if (number && record[number] !== undefined && record[number] !== null) title = `${title} (${String(record[number])})`;
  const within = entity.refTitle?.within;
  const first = within && within !== narrowBy ? record[refTitleKey(within)] : undefined;
  return first === undefined || first === null || first === "" ? title : `${String(first)} ${title}`;
}

/** Whether a reader of these roles sees the field (FieldDecl.roles): one it names, or any reader when it names none. */
export function fieldSeenBy(field: FieldDecl, roles: readonly string[] | undefined): boolean {
  return !field.roles || hasAnyRole(roles ?? [], field.roles);
}
