/**
 * The site settings: the platform's record of the settings page "sysset" (catalogue/site.ts), read by
 * getwebsetinfo, getsysinfo and the login answer (kfurl), edited with syssetedit.
 */
import { syssetSettings } from "../../../catalogue/site";
import type { DbOrTx } from "../../db/client";
import { PLATFORM_TENANT, readSettings, writeSettings } from "../../engine/settings";

export interface SiteSettings {
  title: string;
  keywords: string;
  description: string;
  icon: string;
  kfurl: string;
  userManualUrl: string;
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** The site settings as saved (or their defaults), every value a string ("" when not set). */
export async function loadSiteSettings(db: DbOrTx): Promise<SiteSettings> {
  const record = await readSettings(db, syssetSettings, PLATFORM_TENANT);
  return {
    title: text(record.title),
    keywords: text(record.keywords),
    description: text(record.description),
    icon: text(record.icon),
    kfurl: text(record.kfurl),
    userManualUrl: text(record.user_manual_url),
  };
}

/** Saves the site settings given (the seed's; an operator's go through syssetedit and its checks). */
export async function saveSiteSettings(db: DbOrTx, settings: Partial<SiteSettings>): Promise<void> {
  const { userManualUrl, ...rest } = settings;
  await writeSettings(db, syssetSettings, PLATFORM_TENANT, { ...rest, ...(userManualUrl === undefined ? {} : { user_manual_url: userManualUrl }) });
}
