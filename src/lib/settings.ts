/**
 * Layout settings (spec 3, 9; DESIGN 7): theme colour, dark mode, tags view, fixed header, sidebar logo persist
 * in localStorage; the UI size in the `size` cookie.
 */
import { useSyncExternalStore } from "react";
import { getCookie, setCookie } from "../../providers/session";

/** The eight predefined theme colours; the first is the default. */
export const THEME_COLOURS = ["#1890ff", "#304156", "#11a983", "#13c2c2", "#6959cd", "#f5222d", "#fa8c16", "#212121"] as const;

export type UiSize = "default" | "medium" | "small" | "mini";
export const UI_SIZES: readonly UiSize[] = ["default", "medium", "small", "mini"];

export interface LayoutSettings {
  themeColour: string;
  dark: boolean;
  tagsView: boolean;
  fixedHeader: boolean;
  sidebarLogo: boolean;
  size: UiSize;
}

/** Spec 9 defaults: blue, tag bar on, fixed header off, sidebar logo off, size medium. */
export const DEFAULT_SETTINGS: LayoutSettings = {
  themeColour: THEME_COLOURS[0],
  dark: false,
  tagsView: true,
  fixedHeader: false,
  sidebarLogo: false,
  size: "medium",
};

const STORAGE_KEY = "campus-pay-console:settings";

function readSettings(): LayoutSettings {
  let stored: Partial<LayoutSettings> = {};
  try {
    stored = JSON.parse(window.localStorage.getItem(STORAGE_KEY) ?? "{}") as Partial<LayoutSettings>;
  } catch {
    stored = {};
  }
  const size = getCookie("size") as UiSize;
  return { ...DEFAULT_SETTINGS, ...stored, size: UI_SIZES.includes(size) ? size : DEFAULT_SETTINGS.size };
}

let current: LayoutSettings = readSettings();
const listeners = new Set<() => void>();

export function settings(): LayoutSettings {
  return current;
}

export function updateSettings(change: Partial<LayoutSettings>): void {
  current = { ...current, ...change };
  const { size, ...persisted } = current;
  try {
    window.localStorage.setItem(STORAGE_KEY, JSON.stringify(persisted));
  } catch {
    // storage unavailable: settings last for this page only
  }
  setCookie("size", size);
  listeners.forEach((l) => l());
}

export function useSettings(): LayoutSettings {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => current,
  );
}

/** DESIGN 7: default, medium, small, mini map to antd large, middle, small, and small with compact. */
export function antdSize(size: UiSize): { componentSize: "large" | "middle" | "small"; compact: boolean } {
  switch (size) {
    case "default":
      return { componentSize: "large", compact: false };
    case "small":
      return { componentSize: "small", compact: false };
    case "mini":
      return { componentSize: "small", compact: true };
    default:
      return { componentSize: "middle", compact: false };
  }
}
