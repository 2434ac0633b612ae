/**
 * Which columns of a list a user shows, and in what order: saved per user and list in this browser's
 * localStorage (the console keeps no preference on the server), restored when the user comes back to the list.
 * Only the table reads them; a phone's cards show every listed field.
 */
import { useCallback, useSyncExternalStore } from "react";
import { storedUserInfo } from "../../providers/session";

export interface ColumnSettings {
  /** field names in the order the user put them */
  order: string[];
  /** field names the user hid */
  hidden: string[];
}

const PREFIX = "campus-pay-console:columns:";

/** The settings' key: the signed-in user (by username, one account whatever its case) and the list's resource. */
function storageKey(resource: string): string | undefined {
  const username = storedUserInfo()?.username;
  return username ? `${PREFIX}${username.toLowerCase()}:${resource}` : undefined;
}

function isNameList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === "string");
}

const cache = new Map<string, ColumnSettings | undefined>();
const listeners = new Set<() => void>();

export function readColumnSettings(resource: string): ColumnSettings | undefined {
  const key = storageKey(resource);
  if (!key) return undefined;
  if (cache.has(key)) return cache.get(key);
  let settings: ColumnSettings | undefined;
  try {
    const stored = JSON.parse(window.localStorage.getItem(key) ?? "null") as Partial<ColumnSettings> | null;
    if (stored && isNameList(stored.order) && isNameList(stored.hidden)) settings = { order: stored.order, hidden: stored.hidden };
  } catch {
    settings = undefined;
  }
  cache.set(key, settings);
  return settings;
}

/** Saves the user's settings of a list; undefined forgets them (the declared columns again). */
export function saveColumnSettings(resource: string, settings: ColumnSettings | undefined): void {
  const key = storageKey(resource);
  if (!key) return;
  cache.set(key, settings);
  try {
    if (settings) window.localStorage.setItem(key, JSON.stringify(settings));
    else window.localStorage.removeItem(key);
  } catch {
    // storage unavailable: the settings last for this page only
  }
  listeners.forEach((listener) => listener());
}

/** The user's settings of a list and their setter; every list of the resource open at once follows them. */
export function useColumnSettings(resource: string): [ColumnSettings | undefined, (settings: ColumnSettings | undefined) => void] {
  const settings = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => readColumnSettings(resource),
  );
  const save = useCallback((next: ColumnSettings | undefined) => saveColumnSettings(resource, next), [resource]);
  return [settings, save];
}

/**
 * The fields in the user's order (those the settings do not name, a field declared since, keep their declared
 * place among the others), each with whether it shows; a setting that would hide every column shows them all.
 */
export function arrangeColumns<F extends { name: string }>(fields: readonly F[], settings: ColumnSettings | undefined): { field: F; shown: boolean }[] {
  if (!settings) return fields.map((field) => ({ field, shown: true }));
  const rank = new Map(settings.order.map((name, i) => [name, i]));
  // a field the settings do not name sorts right after the field declared before it
  let last = -1;
  const keyed = fields.map((field, declared) => {
    const saved = rank.get(field.name);
    if (saved !== undefined) last = saved;
    return { field, key: saved ?? last + 0.5, declared };
  });
  keyed.sort((a, b) => a.key - b.key || a.declared - b.declared);
  const hidden = new Set(settings.hidden);
  const arranged = keyed.map(({ field }) => ({ field, shown: !hidden.has(field.name) }));
  return arranged.some((column) => column.shown) ? arranged : arranged.map((column) => ({ ...column, shown: true }));
}
