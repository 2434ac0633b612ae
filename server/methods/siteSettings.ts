/** The site settings row (id 1). */
import { eq } from "drizzle-orm";
import type { DbOrTx } from "../db/client";
import { siteSettings } from "../db/schema";

export const SITE_SETTINGS_ID = 1;

export type SiteSettings = typeof siteSettings.$inferSelect;

export async function loadSiteSettings(db: DbOrTx): Promise<SiteSettings> {
  const [row] = await db.select().from(siteSettings).where(eq(siteSettings.id, SITE_SETTINGS_ID));
  return row ?? { id: SITE_SETTINGS_ID, title: "", keywords: "", description: "", icon: "", kfurl: "", userManualUrl: "" };
}
