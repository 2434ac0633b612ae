/**
 * What each bill covers, as the payer reads it: an imported bill's own items (`billitem`, the student's amounts),
 * any other bill its activity's required fixed items; a bill whose amount was adjusted since gets a last line of
 * the difference, so that the lines always add up to what is owed. Two queries for any number of bills.
 */
import { asc, inArray } from "drizzle-orm";
import { fenToYuan, yuanToFen } from "../../../common/money";
import type { DbOrTx } from "../../db/client";
import { billItems } from "../../db/schema";
import { billedItems } from "./feeOrders";

export interface BillItem {
  title: string;
  amount: string;
}

/** Bill id -> the items it covers; `adjustment` titles the line of an adjusted bill's difference. */
export async function itemsOfBills(db: DbOrTx, bills: readonly { id: number; activity_id: number; amount: number }[], adjustment: string): Promise<Map<number, BillItem[]>> {
  const out = new Map<number, BillItem[]>();
  if (bills.length === 0) return out;
  const own = await db
    .select({ bill_id: billItems.bill_id, title: billItems.title, amount: billItems.amount })
    .from(billItems)
    .where(inArray(billItems.bill_id, bills.map((b) => b.id)))
    .orderBy(asc(billItems.bill_id), asc(billItems.sort), asc(billItems.id));
  for (const item of own) out.set(item.bill_id, [...(out.get(item.bill_id) ?? []), { title: item.title, amount: fenToYuan(Number(item.amount)) }]);
  const others = bills.filter((b) => !out.has(b.id));
  const byActivity = await billedItems(db, [...new Set(others.map((b) => b.activity_id))]);
  for (const bill of others) out.set(bill.id, byActivity.get(bill.activity_id) ?? []);
  for (const bill of bills) {
    const items = out.get(bill.id)!;
    const difference = Number(bill.amount) - items.reduce((sum, item) => sum + (yuanToFen(item.amount) ?? 0), 0);
    if (difference !== 0) out.set(bill.id, [...items, { title: adjustment, amount: fenToYuan(difference) }]);
  }
  return out;
}
