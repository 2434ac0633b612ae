/**
 * Settlement (catalogue/settlements.ts): a channel's day per school, from our own records of the day as
 * reconciliation reads them (./channelDay.ts: the payments the channel took, of every kind paid to a school's channel,
 * fees and the shop's orders alike, and the refunds of its payments the gateway took and did not close, both by China
 * time) and the fees: the trade bill's fee column once the day is reconciled (its items carry each payment's and
 * refund's fee), else the channel's rate. A payment belongs to the channel its order was made on (the sub-merchant
 * its payment order was made for), whichever channel the school is bound to now, so a day's gross summed over
 * channels equals the fee ledger's (paystatis) plus the shop's orders paid that day (goodsstatis), and a channel's
 * day equals reconciliation's own figures of it. Written in the transaction that writes the day's reconciliation,
 * again when one of its differences is resolved (a lost payment applied belongs to its day), and every hour for today
 * and yesterday until reconciled.
 */
import { and, eq, gte, inArray, isNotNull, lt, ne, sql } from "drizzle-orm";
import { addDays, businessDay, businessDayStart } from "../../../common/term";
import type { Db, DbOrTx } from "../../db/client";
import { refunds, paymentChannels, paymentOrders, reconBatches, reconItems, settlements } from "../../db/schema";
import { SANDBOX_RATE_PER_MILLE } from "../../payments/tradeBill";
import { settleSummaryOperation, settlementEntity } from "../../../catalogue/settlements";
import { fenToYuan } from "../../../common/money";
import { resolveScope } from "../../auth/scope";
import { entityTenantConditions } from "../../engine/crud";
import { registerDeclared } from "../../engine/declared";
import type { OperationRegistry } from "../../protocol/registry";
import { dayPayments, dayRefunds, paidToSchoolChannels, type ChannelMerchant } from "./channelDay";

/** What settlement needs of a channel: its id and provider, and what its payments were made for. */
export interface SettledChannel extends ChannelMerchant {
  id: number;
  sysid: number;
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
  const rate = (amount: typeof paymentOrders.totalFeeFen | typeof refunds.amount) => sql<string>`coalesce(sum(round(${amount} * ${SANDBOX_RATE_PER_MILLE} / 1000.0)), 0)::text`;
  const paid = await tx
    .select({ schId: paymentOrders.schId, n: sql<number>`count(*)::int`, amount: sql<string>`sum(${paymentOrders.totalFeeFen})::text`, fee: rate(paymentOrders.totalFeeFen) })
    .from(paymentOrders)
    .where(and(dayPayments(channel, from, to), isNotNull(paymentOrders.schId)))
    .groupBy(paymentOrders.schId);
  const refunded = await tx
    .select({ schId: refunds.sch_id, n: sql<number>`count(*)::int`, amount: sql<string>`sum(${refunds.amount})::text`, fee: rate(refunds.amount) })
    .from(refunds)
    .innerJoin(paymentOrders, eq(paymentOrders.payNo, refunds.pay_no))
    .where(and(dayRefunds(channel, from, to), ne(refunds.status, "closed")))
    .groupBy(refunds.sch_id);
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
    Object.assign(school(p.schId!), { orders: p.n, gross: Number(p.amount), rateFee: Number(p.fee) });
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

/**
 * The channels that took or gave back money within [from, to) (./channelDay.ts): each channel with a sub-merchant
 * asked for a payment of the day (its merchant's index of payments by time), and the day's refunds read once with
 * their payments' channels.
 */
async function channelsMoved(db: Db, from: Date, to: Date): Promise<number[]> {
  const candidates = await db
    .select({ id: paymentChannels.id, gateway: paymentChannels.gateway, sub_mchid: paymentChannels.sub_mchid })
    .from(paymentChannels)
    .where(isNotNull(paymentChannels.sub_mchid));
  const moved = new Set<number>();
  for (const channel of candidates) {
    const [paid] = await db.select({ one: sql<number>`1` }).from(paymentOrders).where(dayPayments(channel, from, to)).limit(1);
    if (paid) moved.add(channel.id);
  }
  const refunded = await db
    .selectDistinct({ id: paymentChannels.id })
    .from(refunds)
    .innerJoin(paymentOrders, eq(paymentOrders.payNo, refunds.pay_no))
    .innerJoin(paymentChannels, and(eq(paymentChannels.sub_mchid, paymentOrders.merchantId), eq(paymentChannels.gateway, paymentOrders.gateway)))
    .where(and(gte(refunds.submitted_at, from), lt(refunds.submitted_at, to), paidToSchoolChannels()));
  for (const r of refunded) moved.add(r.id);
  return [...moved].sort((a, b) => a - b);
}

/**
 * Today and yesterday, until yesterday is reconciled, settled anew (pending) for every channel that took or gave back
 * money that day, whatever its state now: the payments of yesterday's last hour are settled even when its
 * reconciliation fails or its channel has no merchant number to reconcile with.
 */
export async function settleOpenDays(db: Db, now: Date): Promise<number> {
  const today = businessDay(now);
  let settled = 0;
  for (const day of [addDays(today, -1), today]) {
    const from = businessDayStart(day);
    const to = businessDayStart(addDays(day, 1));
    const moved = await channelsMoved(db, from, to);
    if (moved.length === 0) continue;
    // a day its reconciliation wrote is the reconciliation's to write again
    const reconciled = new Set(
      (await db.select({ id: reconBatches.paychnl_id }).from(reconBatches).where(and(eq(reconBatches.bill_date, day), ne(reconBatches.status, "failed")))).map((b) => b.id),
    );
    const ids = moved.filter((id) => !reconciled.has(id));
    if (ids.length === 0) continue;
    const channels = await db
      .select({ id: paymentChannels.id, sysid: paymentChannels.sysid, gateway: paymentChannels.gateway, sub_mchid: paymentChannels.sub_mchid })
      .from(paymentChannels)
      .where(inArray(paymentChannels.id, ids));
    for (const channel of channels) {
      await db.transaction((tx) => settleDay(tx, channel, day, false, now));
      settled++;
    }
  }
  return settled;
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
