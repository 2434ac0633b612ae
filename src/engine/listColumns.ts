/**
 * Which columns of a list a user shows, and in what order: saved per user and list on the server (userprefset,
 * key `columns:{resource}`), so that they follow the user to any browser, and mirrored in this browser's
 * localStorage so that a list shows them at once; the server's copy, read once per page load (userpreflist),
 * wins. Only the table reads them; a phone's cards show every listed field.
 */
import { useCallback, useEffect, useSyncExternalStore } from "react";
import { storedUserInfo } from "../../providers/session";
import { weapi } from "../../providers/weapi";

export interface ColumnSettings {
  /** field names in the order the user put them */
  order: string[];
  /** field names the user hid */
  hidden: string[];
}

const PREFIX = "campus-pay-console:columns:";
/** the server's key of a list's settings */
const PREFERENCE_PREFIX = "columns:";

function signedInUser(): string | undefined {
  return storedUserInfo()?.username?.toLowerCase();
}

/** The settings' key in this browser: the signed-in user (by username, one account whatever its case) and the list's resource. */
function storageKey(resource: string, username = signedInUser()): string | undefined {
  return username ? `${PREFIX}${username}:${resource}` : undefined;
}

function isNameList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === "string");
}

const cache = new Map<string, ColumnSettings | undefined>();
const listeners = new Set<() => void>();

function settingsOf(value: unknown): ColumnSettings | undefined {
  const stored = value as Partial<ColumnSettings> | null;
  return stored && typeof stored === "object" && isNameList(stored.order) && isNameList(stored.hidden) ? { order: stored.order, hidden: stored.hidden } : undefined;
}

function mirror(key: string, settings: ColumnSettings | undefined): void {
  try {
    if (settings) window.localStorage.setItem(key, JSON.stringify(settings));
    else window.localStorage.removeItem(key);
  } catch {
    // storage unavailable: the settings last for this page only
  }
}

/** the users whose settings were asked of the server in this page load (once each) */
const loadedUsers = new Set<string>();
/** the lists whose settings were changed in this page: newer than anything the server answers meanwhile */
const changedHere = new Set<string>();

/**
 * Reads the signed-in user's saved columns from the server, once per page load: they replace what this browser
 * had (a list the server has no settings for shows the declared columns). A failure leaves this browser's copy.
 */
export async function loadColumnSettings(): Promise<void> {
  const username = signedInUser();
  if (!username || loadedUsers.has(username)) return;
  loadedUsers.add(username);
  let items: { key: string; value: unknown }[];
  try {
    const answer = await weapi<{ items?: unknown }>("adminapiv2", "userpreflist", {}, { silent: true });
    const answered = answer.data?.items;
    // an answer that is not a list of preferences counts as none received
    if (!Array.isArray(answered)) throw new TypeError("userpreflist answered no list");
    items = answered.filter((item): item is { key: string; value: unknown } => typeof (item as { key?: unknown })?.key === "string");
  } catch {
    loadedUsers.delete(username);
    return;
  }
  const saved = new Map(items.filter((item) => item.key.startsWith(PREFERENCE_PREFIX)).map((item) => [item.key.slice(PREFERENCE_PREFIX.length), settingsOf(item.value)]));
  const userPrefix = `${PREFIX}${username}:`;
  const stale = (key: string) => key.startsWith(userPrefix) && !changedHere.has(key);
  for (const key of [...cache.keys()].filter(stale)) cache.delete(key);
  // what this browser had for a list the server does not know is dropped: the server's copy is the user's
  try {
    for (let i = window.localStorage.length - 1; i >= 0; i--) {
      const key = window.localStorage.key(i);
      if (key && stale(key) && !saved.has(key.slice(userPrefix.length))) window.localStorage.removeItem(key);
    }
  } catch {
    // storage unavailable
  }
  for (const [resource, settings] of saved) {
    const key = storageKey(resource, username)!;
    if (changedHere.has(key)) continue;
    cache.set(key, settings);
    mirror(key, settings);
  }
  listeners.forEach((listener) => listener());
}

export function readColumnSettings(resource: string): ColumnSettings | undefined {
  const key = storageKey(resource);
  if (!key) return undefined;
  if (cache.has(key)) return cache.get(key);
  let settings: ColumnSettings | undefined;
  try {
    settings = settingsOf(JSON.parse(window.localStorage.getItem(key) ?? "null"));
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
  changedHere.add(key);
  cache.set(key, settings);
  mirror(key, settings);
  listeners.forEach((listener) => listener());
  // kept for the user's other browsers; if the server cannot be reached the settings still hold here
  void weapi("adminapiv2", "userprefset", { key: `${PREFERENCE_PREFIX}${resource}`, value: settings ?? null }, { silent: true }).catch(() => undefined);
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
  useEffect(() => {
    void loadColumnSettings();
  }, []);
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
