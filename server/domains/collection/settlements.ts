/**
 * Settlement (catalogue/settlements.ts): a channel's day per school, from our own records of the day (the payments
 * paid, the refunds the gateway took and did not close, both by China time as reconciliation reads them) and the
 * fees: the trade bill's fee column once the day is reconciled (its items carry each payment's and refund's fee),
 * else the channel's rate. Written in the transaction that writes the day's reconciliation, again when one of its
 * differences is resolved (a lost payment applied belongs to its day), and every hour for today, still pending.
 */
import { and, eq, gte, lt, ne, sql } from "drizzle-orm";
import { addDays, businessDayStart } from "../../../common/term";
import type { DbOrTx } from "../../db/client";
import { feeRefunds, paymentOrders, reconBatches, reconItems, settlements } from "../../db/schema";
import { SANDBOX_RATE_PER_MILLE } from "../../payments/tradeBill";
import { settleSummaryOperation, settlementEntity } from "../../../catalogue/settlements";
import { fenToYuan } from "../../../common/money";
import { resolveScope } from "../../auth/scope";
import { entityTenantConditions } from "../../engine/crud";
import { registerDeclared } from "../../engine/declared";
import type { OperationRegistry } from "../../protocol/registry";

/** What settlement needs of a channel. */
export interface SettledChannel {
  id: number;
  sysid: number;
  gateway: string;
  sub_mchid: string | null;
}

interface SchoolDay {
  orders: number;
  gross: number;
  refunds: number;
  refund: number;
  /** the fee at the channel's rate, each payment's and refund's rounded to the fen as the gateway rounds it */
  rateFee: number;
  /** the bill's fees of the school's items, when the day is reconciled */
  billFee?: number;
}

/**
 * Writes the channel's day anew, a row per school that took or gave back money: `settled` when `settled` says
 * the day's reconciliation has no open difference.
 */
export async function settleDay(tx: DbOrTx, channel: SettledChannel, day: string, settled: boolean, now: Date): Promise<void> {
  const from = businessDayStart(day);
  const to = businessDayStart(addDays(day, 1));
  const merchant = channel.sub_mchid ?? "";
  const rate = (amount: typeof paymentOrders.totalFeeFen | typeof feeRefunds.amount) => sql<string>`coalesce(sum(round(${amount} * ${SANDBOX_RATE_PER_MILLE} / 1000.0)), 0)::text`;
  const paid = await tx
    .select({ schId: paymentOrders.schId, n: sql<number>`count(*)::int`, amount: sql<string>`sum(${paymentOrders.totalFeeFen})::text`, fee: rate(paymentOrders.totalFeeFen) })
    .from(paymentOrders)
    .where(and(eq(paymentOrders.merchantId, merchant), eq(paymentOrders.gateway, channel.gateway), eq(paymentOrders.status, "SUCCESS"), gte(paymentOrders.paidAt, from), lt(paymentOrders.paidAt, to)))
    .groupBy(paymentOrders.schId);
  const refunded = await tx
    .select({ schId: feeRefunds.sch_id, n: sql<number>`count(*)::int`, amount: sql<string>`sum(${feeRefunds.amount})::text`, fee: rate(feeRefunds.amount) })
    .from(feeRefunds)
    .innerJoin(paymentOrders, eq(paymentOrders.payNo, feeRefunds.pay_no))
    .where(and(eq(paymentOrders.merchantId, merchant), eq(paymentOrders.gateway, channel.gateway), ne(feeRefunds.status, "closed"), gte(feeRefunds.submitted_at, from), lt(feeRefunds.submitted_at, to)))
    .groupBy(feeRefunds.sch_id);
  const [batch] = await tx
    .select({ id: reconBatches.id, status: reconBatches.status })
    .from(reconBatches)
    .where(and(eq(reconBatches.paychnl_id, channel.id), eq(reconBatches.bill_date, day)));
  const billFees =
    batch && batch.status !== "failed"
      ? await tx
          .select({ schId: reconItems.sch_id, fee: sql<string>`coalesce(sum(${reconItems.fee}), 0)::text` })
          .from(reconItems)
          .where(eq(reconItems.batch_id, batch.id))
          .groupBy(reconItems.sch_id)
      : undefined;

  const bySchool = new Map<number, SchoolDay>();
  const school = (schId: number) => {
    let row = bySchool.get(schId);
    if (!row) bySchool.set(schId, (row = { orders: 0, gross: 0, refunds: 0, refund: 0, rateFee: 0 }));
    return row;
  };
  for (const p of paid) {
    if (p.schId === null) continue;
    Object.assign(school(p.schId), { orders: p.n, gross: Number(p.amount), rateFee: Number(p.fee) });
  }
  for (const r of refunded) {
    const row = school(r.schId);
    row.refunds = r.n;
    row.refund = Number(r.amount);
    row.rateFee -= Number(r.fee);
  }
  for (const f of billFees ?? []) if (f.schId !== null && bySchool.has(f.schId)) school(f.schId).billFee = Number(f.fee);

  await tx.delete(settlements).where(and(eq(settlements.paychnl_id, channel.id), eq(settlements.day, day)));
  const rows = [...bySchool].map(([schId, row]) => {
    const fee = billFees ? (row.billFee ?? 0) : row.rateFee;
    return {
      sch_id: schId,
      sysid: channel.sysid,
      paychnl_id: channel.id,
      day,
      status: settled ? "settled" : "pending",
      orders: row.orders,
      gross: row.gross,
      refunds: row.refunds,
      refund: row.refund,
      fee,
      fee_source: billFees ? "bill" : "rate",
      net: row.gross - row.refund - fee,
      updated_at: now,
    };
  });
  if (rows.length > 0) await tx.insert(settlements).values(rows);
}

/** settlesummary: each channel of the caller's provider with its net settled and pending, all days. */
export function registerSettleSummary(registry: OperationRegistry): void {
  registerDeclared(registry, settleSummaryOperation, async (ctx) => {
    const scope = await resolveScope(ctx.db, ctx.auth!, ctx.payload);
    const rows = await ctx.db
      .select({
        paychnl_id: settlements.paychnl_id,
        settled: sql<string>`coalesce(sum(${settlements.net}) filter (where ${settlements.status} = 'settled'), 0)::text`,
        pending: sql<string>`coalesce(sum(${settlements.net}) filter (where ${settlements.status} = 'pending'), 0)::text`,
      })
      .from(settlements)
      .where(and(...entityTenantConditions(settlementEntity, settlements, ctx, scope)))
      .groupBy(settlements.paychnl_id);
    return { data: { items: rows.map((r) => ({ paychnl_id: r.paychnl_id, settled: fenToYuan(BigInt(r.settled)), pending: fenToYuan(BigInt(r.pending)) })) } };
  });
}
