/**
 * A provider's shop settings (the settings page shopdefaultset, catalogue/shopFace.ts), as the shop's calls and jobs
 * read them: the payer page's shop (open, the ways of delivery, the service phone), the order's time to pay, the
 * completion of orders sent, and the after-sale window; and its return addresses, one the default.
 */
import { and, asc, desc, eq, gte, isNull, lte, ne, or, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { shopSettingsDecl, shopThemeDecl } from "../../../catalogue/shopFace";
import { shopColor, SHOP_STYLES, type ShopStyle } from "../../../common/shopThemes";
import type { DbOrTx } from "../../db/client";
import { businessDay } from "../../../common/term";
import { saleAddresses, settingsRecords, shopBanners, shopHelp } from "../../db/schema";
import type { OperationContext } from "../../protocol/registry";
import { actionFieldFailure } from "../../engine/actions";
import type { EntityHooks, Row } from "../../engine/hooks";
import { readSettings } from "../../engine/settings";

export interface ShopSettings {
  /** the shop as a whole: open, and the schools whose parents it stays closed to */
  open: boolean;
  closedSchools: readonly number[];
  pickup: boolean;
  express: boolean;
  /** minutes an unpaid shop order stays payable */
  unpaidMinutes: number;
  /** days after being sent that an order the payer never said was received completes */
  autoCompleteDays: number;
  /** days after an order's completion that its payer may still ask for an after-sale */
  afterSaleDays: number;
  servicePhone: string | null;
}

/** Whether the shop is open to the parents of school `schId`. */
export function openAt(settings: ShopSettings, schId: number): boolean {
  return settings.open && !settings.closedSchools.includes(schId);
}

/** A whole number of a record, or the field's declared default when the record holds none. */
function wholeNumber(value: unknown, field: string): number {
  const n = Number(value);
  if (Number.isInteger(n) && n >= 0) return n;
  return Number(shopSettingsDecl.fields.find((f) => f.name === field)!.default);
}

/** The provider's shop settings as saved, or their defaults. */
export async function shopSettings(db: DbOrTx, sysid: number): Promise<ShopSettings> {
  const record = await readSettings(db, shopSettingsDecl, sysid);
  return {
    open: record.shop_open !== "N",
    closedSchools: Array.isArray(record.closed_sch_ids) ? record.closed_sch_ids.map(Number) : [],
    pickup: record.pickup_enabled !== "N",
    express: record.express_enabled !== "N",
    unpaidMinutes: wholeNumber(record.unpaid_minutes, "unpaid_minutes"),
    autoCompleteDays: wholeNumber(record.auto_complete_days, "auto_complete_days"),
    afterSaleDays: wholeNumber(record.aftersale_days, "aftersale_days"),
    servicePhone: typeof record.service_phone === "string" && record.service_phone !== "" ? record.service_phone : null,
  };
}

/** The days an order of provider `sysid` (a column) completes after being sent, in SQL: its settings' or the default. */
export function autoCompleteDaysSql(sysid: AnyPgColumn): SQL {
  const fallback = wholeNumber(undefined, "auto_complete_days");
  return sql`coalesce((select (${settingsRecords.fields} ->> 'auto_complete_days')::int from ${settingsRecords} where ${settingsRecords.name} = ${shopSettingsDecl.name} and ${settingsRecords.tenantId} = ${sysid}), ${fallback})`;
}

/** A default return address saved makes the provider's others not the default, in the same transaction. */
async function onlyDefault(tx: DbOrTx, row: Row): Promise<void> {
  if (row.is_default !== "Y") return;
  await tx
    .update(saleAddresses)
    .set({ is_default: "N" })
    .where(and(eq(saleAddresses.sysid, Number(row.sysid)), ne(saleAddresses.id, Number(row.id)), eq(saleAddresses.is_default, "Y")));
}

export const saleAddressHooks: EntityHooks = {
  afterAdd: (_ctx, tx, row) => onlyDefault(tx, row),
  afterEdit: (_ctx, tx, _before, after) => onlyDefault(tx, after),
};

/** Where a provider's returned goods go: its default return address, else its newest; none when it keeps none. */
export async function returnAddress(db: DbOrTx, sysid: number): Promise<{ name: string; phone: string; address: string } | null> {
  const [found] = await db
    .select({ name: saleAddresses.name, phone: saleAddresses.phone, address: saleAddresses.address })
    .from(saleAddresses)
    .where(eq(saleAddresses.sysid, sysid))
    .orderBy(desc(saleAddresses.is_default), desc(saleAddresses.id))
    .limit(1);
  return found ?? null;
}

/** the most questions the shop's page shows */
const MAX_HELP = 50;

/** the most banners the shop's page shows at once */
const MAX_BANNERS = 10;

export interface ShopBanner {
  title: string;
  image: string;
  link: { type: "none" } | { type: "goods"; id: number } | { type: "category"; id: number } | { type: "page"; id: number } | { type: "url"; url: string };
}

/** A banner's link as the payer page follows it: a link whose goods, category or page is gone leads nowhere. */
function bannerLink(row: { link_type: string; goods_id: number | null; cate_id: number | null; page_id: number | null; url: string | null }): ShopBanner["link"] {
  if (row.link_type === "goods" && row.goods_id !== null) return { type: "goods", id: row.goods_id };
  if (row.link_type === "category" && row.cate_id !== null) return { type: "category", id: row.cate_id };
  if (row.link_type === "page" && row.page_id !== null) return { type: "page", id: row.page_id };
  if (row.link_type === "url" && row.url) return { type: "url", url: row.url };
  return { type: "none" };
}

/** The shop as its parents see it beside its goods: its look, today's banners and its questions and answers. */
export async function shopFace(
  db: DbOrTx,
  sysid: number,
  now: Date,
): Promise<{ theme: { main: string; dark: string; style: ShopStyle }; banners: ShopBanner[]; help: { question: string; answer: string }[] }> {
  const today = businessDay(now);
  const [record, banners, help] = await Promise.all([
    readSettings(db, shopThemeDecl, sysid),
    db
      .select({ title: shopBanners.title, image: shopBanners.image, link_type: shopBanners.link_type, goods_id: shopBanners.goods_id, cate_id: shopBanners.cate_id, page_id: shopBanners.page_id, url: shopBanners.url })
      .from(shopBanners)
      .where(
        and(
          eq(shopBanners.sysid, sysid),
          eq(shopBanners.status, "1"),
          or(isNull(shopBanners.start_date), lte(shopBanners.start_date, today)),
          or(isNull(shopBanners.end_date), gte(shopBanners.end_date, today)),
        ),
      )
      .orderBy(asc(shopBanners.sort), asc(shopBanners.id))
      .limit(MAX_BANNERS),
    db
      .select({ question: shopHelp.question, answer: shopHelp.answer })
      .from(shopHelp)
      .where(and(eq(shopHelp.sysid, sysid), eq(shopHelp.status, "1")))
      .orderBy(asc(shopHelp.sort), asc(shopHelp.id))
      .limit(MAX_HELP),
  ]);
  const color = shopColor(String(record.main_color)) ?? shopColor("blue")!;
  const style = SHOP_STYLES.find((s) => s === record.style) ?? "rounded";
  return { theme: { main: color.main, dark: color.dark, style }, banners: banners.map((b) => ({ title: b.title, image: b.image, link: bannerLink(b) })), help };
}

/** A banner's last day is not before its first. */
function checkBannerDays(ctx: OperationContext, row: Row): void {
  if (typeof row.start_date === "string" && typeof row.end_date === "string" && row.end_date < row.start_date) {
    throw actionFieldFailure(ctx, "end_date", "retail.banner.end_before_start");
  }
}

export const bannerHooks: EntityHooks = {
  afterAdd: async (ctx, _tx, row) => checkBannerDays(ctx, row),
  afterEdit: async (ctx, _tx, _before, after) => checkBannerDays(ctx, after),
};
