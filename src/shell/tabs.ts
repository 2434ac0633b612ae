/**
 * Visited-page tabs (spec 2.4, DESIGN 7): one tab per visited page, the dashboard affixed, kept across reloads
 * in localStorage. `version` re-mounts a single page on refresh.
 */
import { useSyncExternalStore } from "react";
import { sessionUser, subscribeSession, TABS_STORAGE_KEY } from "../../providers/session";
import { HOME_PATH } from "./routes";

export interface TabView {
  /** pathname: one tab per page */
  key: string;
  /** pathname with query, reopened on click */
  path: string;
  /** translation key */
  title: string;
  affix: boolean;
  /** bumped by refresh to re-mount the page */
  version: number;
}

const HOME_TAB: TabView = { key: HOME_PATH, path: HOME_PATH, title: "shell.dashboard", affix: true, version: 0 };

function withHome(tabs: TabView[]): TabView[] {
  return tabs.some((t) => t.key === HOME_PATH) ? tabs : [HOME_TAB, ...tabs];
}

function read(): TabView[] {
  try {
    const stored = JSON.parse(window.localStorage.getItem(TABS_STORAGE_KEY) ?? "[]") as TabView[];
    return withHome(Array.isArray(stored) ? stored.filter((t) => typeof t.key === "string" && typeof t.path === "string") : []);
  } catch {
    return [HOME_TAB];
  }
}

let tabs: TabView[] = read();
const listeners = new Set<() => void>();

function write(next: TabView[]): void {
  tabs = withHome(next);
  try {
    window.localStorage.setItem(TABS_STORAGE_KEY, JSON.stringify(tabs));
  } catch {
    // storage unavailable: tabs last for this page only
  }
  listeners.forEach((l) => l());
}

// a session that ends (logout, reset token) takes its tabs with it; the next user starts from the dashboard
subscribeSession(() => {
  if (!sessionUser() && tabs.length > 1) write([HOME_TAB]);
});

export function currentTabs(): TabView[] {
  return tabs;
}

export function useTabs(): TabView[] {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => tabs,
  );
}

/** Opens (or updates the query of) the tab of a page. */
export function openTab(key: string, path: string, title: string, affix = false): void {
  const existing = tabs.find((t) => t.key === key);
  if (existing) {
    if (existing.path !== path || existing.title !== title) {
      write(tabs.map((t) => (t.key === key ? { ...t, path, title } : t)));
    }
    return;
  }
  write([...tabs, { key, path, title, affix, version: 0 }]);
}

/** Closes a tab (affixed ones stay); answers the tabs left. */
export function closeTab(key: string): TabView[] {
  write(tabs.filter((t) => t.affix || t.key !== key));
  return tabs;
}

export function closeOtherTabs(key: string): void {
  write(tabs.filter((t) => t.affix || t.key === key));
}

export function closeAllTabs(): void {
  write(tabs.filter((t) => t.affix));
}

export function refreshTab(key: string): void {
  write(tabs.map((t) => (t.key === key ? { ...t, version: t.version + 1 } : t)));
}

/** After a role switch the other role's pages may be out of reach: start again from the dashboard. */
export function resetTabs(): void {
  write([HOME_TAB]);
}
