/**
 * A provider's shop settings (the settings page shopdefaultset, catalogue/shopFace.ts), as the shop's calls and jobs
 * read them: the payer page's shop (open, the ways of delivery, the service phone), the order's time to pay, the
 * completion of orders sent, and the after-sale window; and its return addresses, one the default.
 */
import { and, asc, desc, eq, ne, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { shopSettingsDecl, shopThemeDecl } from "../../../catalogue/shopFace";
import { shopColor, SHOP_STYLES, type ShopStyle } from "../../../common/shopThemes";
import type { DbOrTx } from "../../db/client";
import { saleAddresses, settingsRecords, shopHelp } from "../../db/schema";
import type { EntityHooks, Row } from "../../engine/hooks";
import { readSettings } from "../../engine/settings";

export interface ShopSettings {
  open: boolean;
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

/** The shop as its parents see it beside its goods: its look and its questions and answers. */
export async function shopFace(db: DbOrTx, sysid: number): Promise<{ theme: { main: string; dark: string; style: ShopStyle }; help: { question: string; answer: string }[] }> {
  const [record, help] = await Promise.all([
    readSettings(db, shopThemeDecl, sysid),
    db
      .select({ question: shopHelp.question, answer: shopHelp.answer })
      .from(shopHelp)
      .where(and(eq(shopHelp.sysid, sysid), eq(shopHelp.status, "1")))
      .orderBy(asc(shopHelp.sort), asc(shopHelp.id))
      .limit(MAX_HELP),
  ]);
  const color = shopColor(String(record.main_color)) ?? shopColor("blue")!;
  const style = SHOP_STYLES.find((s) => s === record.style) ?? "rounded";
  return { theme: { main: color.main, dark: color.dark, style }, help };
}
