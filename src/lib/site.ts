/**
 * Site settings from getwebsetinfo (spec 1, 7): title, keywords, description, icon, customer-service link.
 * Read once per load of the console (every answer of /weapi/ is no-store, so a reload reads what was saved
 * last), and again when the site settings page ("sysset") saves; a value not set falls back to the console's
 * own, and failures are ignored (the console works with its defaults).
 */
import { useEffect, useSyncExternalStore } from "react";
import { weapi } from "../../providers/weapi";
import { onSettingsSaved } from "./settingsSaved";

export interface SiteSettings {
  title: string;
  keywords: string;
  description: string;
  icon: string;
  kfurl: string;
}

/** The settings page whose record getwebsetinfo answers (catalogue/site.ts). */
export const SITE_SETTINGS_PAGE = "sysset";

export const DEFAULT_SITE: SiteSettings = { title: "Campus Pay Console", keywords: "", description: "", icon: "/favicon.svg", kfurl: "" };

let current: SiteSettings = DEFAULT_SITE;
let loading: Promise<SiteSettings> | null = null;
const subscribers = new Set<() => void>();

function setMeta(name: string, content: string): void {
  let meta = document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`);
  if (!content) {
    meta?.remove();
    return;
  }
  if (!meta) {
    meta = document.createElement("meta");
    meta.name = name;
    document.head.appendChild(meta);
  }
  meta.content = content;
}

function applyToDocument(site: SiteSettings): void {
  document.title = site.title;
  setMeta("keywords", site.keywords);
  setMeta("description", site.description);
  let link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (!link) {
    link = document.createElement("link");
    link.rel = "icon";
    document.head.appendChild(link);
  }
  // the type of the built-in icon (svg) says nothing of another
  if (link.getAttribute("href") !== site.icon) link.removeAttribute("type");
  link.href = site.icon;
}

/** The answer's values over the defaults: an empty or missing value keeps the default. */
export function siteFrom(items: Partial<Record<keyof SiteSettings, unknown>> | undefined): SiteSettings {
  const site = { ...DEFAULT_SITE };
  for (const key of Object.keys(DEFAULT_SITE) as (keyof SiteSettings)[]) {
    const value = items?.[key];
    if (typeof value === "string" && value.trim() !== "") site[key] = value;
  }
  return site;
}

function publish(site: SiteSettings): SiteSettings {
  current = site;
  applyToDocument(site);
  for (const notify of [...subscribers]) notify();
  return site;
}

function fetchSite(): Promise<SiteSettings> {
  return weapi<{ items?: Partial<SiteSettings> }>("adminapiv2", "getwebsetinfo", {}, { silent: true })
    .then((res) => (res.return_code === "SUCCESS" ? publish(siteFrom(res.data?.items)) : current))
    .catch(() => current);
}

/** The site settings, read once per load of the console. */
export function loadSiteSettings(): Promise<SiteSettings> {
  loading ??= fetchSite();
  return loading;
}

/** Reads the site settings again (after they were saved); every component showing them follows. */
export function refreshSiteSettings(): Promise<SiteSettings> {
  loading = fetchSite();
  return loading;
}

onSettingsSaved((name) => {
  if (name === SITE_SETTINGS_PAGE) void refreshSiteSettings();
});

function subscribe(notify: () => void): () => void {
  subscribers.add(notify);
  return () => void subscribers.delete(notify);
}

export function useSiteSettings(): SiteSettings {
  const site = useSyncExternalStore(subscribe, () => current);
  useEffect(() => {
    void loadSiteSettings();
  }, []);
  return site;
}
