/**
 * Site settings from getwebsetinfo (spec 1, 7): title, keywords, description, icon, customer-service link.
 * Loaded once; failures are ignored (the console works with its defaults).
 */
import { useEffect, useState } from "react";
import { weapi } from "../../providers/weapi";

export interface SiteSettings {
  title: string;
  keywords: string;
  description: string;
  icon: string;
  kfurl: string;
}

export const DEFAULT_SITE: SiteSettings = { title: "Campus Pay Console", keywords: "", description: "", icon: "", kfurl: "" };

let loading: Promise<SiteSettings> | null = null;

function setMeta(name: string, content: string): void {
  if (!content) return;
  let meta = document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`);
  if (!meta) {
    meta = document.createElement("meta");
    meta.name = name;
    document.head.appendChild(meta);
  }
  meta.content = content;
}

function applyToDocument(site: SiteSettings): void {
  if (site.title) document.title = site.title;
  setMeta("keywords", site.keywords);
  setMeta("description", site.description);
  if (site.icon) {
    let link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
    if (!link) {
      link = document.createElement("link");
      link.rel = "icon";
      document.head.appendChild(link);
    }
    link.href = site.icon;
  }
}

export function loadSiteSettings(): Promise<SiteSettings> {
  loading ??= weapi<{ items?: Partial<SiteSettings> }>("adminapiv2", "getwebsetinfo", {}, { silent: true })
    .then((res) => {
      const site = { ...DEFAULT_SITE, ...(res.return_code === "SUCCESS" ? res.data?.items : {}) };
      applyToDocument(site);
      return site;
    })
    .catch(() => DEFAULT_SITE);
  return loading;
}

export function useSiteSettings(): SiteSettings {
  const [site, setSite] = useState<SiteSettings>(DEFAULT_SITE);
  useEffect(() => {
    let live = true;
    void loadSiteSettings().then((s) => live && setSite(s));
    return () => {
      live = false;
    };
  }, []);
  return site;
}
