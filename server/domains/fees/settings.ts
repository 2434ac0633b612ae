/**
 * A provider's collection settings (the settings page agentnoticeset, catalogue/fees.ts): how long an order may be
 * paid, how a payer finds the student, the voucher's title line. Read by orders, the payer page and vouchers.
 */
import { agentnoticeSettings } from "../../../catalogue/fees";
import type { DbOrTx } from "../../db/client";
import { readSettings } from "../../engine/settings";

export type PayerLookup = "name_and_student_no" | "name_and_phone4";

export interface CollectionSettings {
  /** minutes an unpaid order stays payable (5 .. 1440; 120 until the provider sets it) */
  orderTimeoutMinutes: number;
  /** what a payer gives besides the student's name: the student number, or the guardian phone's last four digits */
  payerLookup: PayerLookup;
  /** the voucher's title line; "" when none is set (the school's name stands alone) */
  voucherTitle: string;
}

/** The provider's collection settings as saved, or their defaults. */
export async function collectionSettings(db: DbOrTx, sysid: number): Promise<CollectionSettings> {
  const record = await readSettings(db, agentnoticeSettings, sysid);
  const minutes = Number(record.order_timeout_minutes);
  return {
    orderTimeoutMinutes: Number.isInteger(minutes) && minutes > 0 ? minutes : 120,
    payerLookup: record.payer_lookup === "name_and_phone4" ? "name_and_phone4" : "name_and_student_no",
    voucherTitle: typeof record.voucher_title === "string" ? record.voucher_title : "",
  };
}
