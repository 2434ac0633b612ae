/**
 * Refunds of fee orders (catalogue/collectionRefunds.ts; docs/architecture.md, "Refunds"): the actions that make and
 * decide them, the refund of a duplicate payment, and what a done refund gives back on a fee order (its lines, the
 * bills they paid, the daily figures, the payer's notice). Numbering, sending and the gateway's answers are every
 * payment kind's, in server/payments/refunds.ts.
 */
import { asc, eq, inArray, sql } from "drizzle-orm";
import { fenToYuan } from "../../../common/money";
import { hasAnyRole, PROVIDER_ROLES } from "../../../common/roleKeys";
import { callerActor, gatewayActor } from "../../auth/audit";
import { queryRows, type DbOrTx } from "../../db/client";
import { bills, feeOrderLines, feeOrders, feeRefundShares } from "../../db/schema";
import { actionFieldFailure, type ActionEffect } from "../../engine/actions";
import { translator } from "../../lib/i18n";
import type { RefundHooks } from "../../payments/kinds";
import { acceptRefund, createRefund, RefundRefused, type Refund } from "../../payments/refunds";
import { addOrderEvent } from "./orderEvents";
import { addToFeeDaily } from "./feeDaily";
import { refundNotices } from "../notices";

/**
 * refundadd on a paid order, locked by the action engine: within what the order still holds, at most 50. The
 * provider's refund is accepted (numbered, queued for the gateway); anyone else's is a request for its decision.
 */
export const refundAddEffect: ActionEffect = async ({ ctx, tx, row: order, input }) => {
  const auth = ctx.auth!;
  const accepted = hasAnyRole(auth.roles, PROVIDER_ROLES);
  let refund: Refund | null;
  try {
    refund = await createRefund(
      tx,
      { payNo: String(order.pay_no), amount: Number(input.amount), reason: String(input.reason), cause: "request", appliedBy: callerActor(ctx), acceptedBy: accepted ? auth.username : undefined },
      ctx.now,
    );
  } catch (err) {
    if (err instanceof RefundRefused) throw actionFieldFailure(ctx, "amount", err.messageKey, err.params);
    throw err;
  }
  return { messageKey: accepted ? "refunds.accepted" : "refunds.requested", messageParams: { amount: fenToYuan(refund!.amount), refund_no: refund!.refund_no ?? "" }, wakeJobs: accepted };
};

/** refundreview on a request, locked by the action engine (which sets the state its decision leads to): rejected with its reason, or accepted, numbered and queued. */
export const refundReviewEffect: ActionEffect = async ({ ctx, tx, row: refund, input }) => {
  const decided = { reviewed_by: ctx.auth!.username, review_reason: (input.reason as string | null) ?? null };
  if (input.result === "reject") return { changes: decided, messageKey: "refunds.rejected" };
  const refundNo = await acceptRefund(tx, { id: Number(refund.id), pay_no: String(refund.pay_no) }, ctx.now);
  return { changes: { ...decided, refund_no: refundNo }, messageKey: "refunds.approved", wakeJobs: true };
};

async function lockOrder(tx: DbOrTx, where: { id: number } | { payNo: string }) {
  const [order] = await tx
    .select()
    .from(feeOrders)
    .where("id" in where ? eq(feeOrders.id, where.id) : eq(feeOrders.pay_no, where.payNo))
    .for("update");
  return order;
}

/**
 * The refund of what a duplicate payment paid for bills another order had paid (its unsettled lines), accepted at
 * once and queued, in the transaction that applied the payment. Answers its id, or null when nothing is owed back.
 */
export async function refundDuplicatePayment(tx: DbOrTx, orderId: number, now: Date): Promise<number | null> {
  const order = await lockOrder(tx, { id: orderId });
  const [{ owed }] = await queryRows<{ owed: string }>(tx, sql`SELECT coalesce(sum(amount), 0) AS owed FROM ${feeOrderLines} WHERE order_id = ${orderId} AND settled = 'N'`);
  const refund = await createRefund(
    tx,
    // what the payer reads at WeChat Pay: in the payers' language
    { payNo: order.pay_no, amount: Number(owed), upToRemaining: true, reason: translator("zh")("refunds.duplicate_reason"), cause: "duplicate", appliedBy: gatewayActor(), acceptedBy: "system" },
    now,
  );
  return refund?.id ?? null;
}

/** A fee order's refunds: what it paid, and on success its money back on lines, bills, daily figures and the payer's notice. */
export const feeRefundHooks: RefundHooks = {
  async lockOrder(tx, payNo) {
    const order = await lockOrder(tx, { payNo });
    return order && { paidFen: order.amount, sysid: order.sysid, sch_id: order.sch_id, student_id: order.student_id, gateway: order.gateway, columns: { order_id: order.id } };
  },
  async refunded(tx, refund, now) {
    const shares = await giveBack(tx, refund, now);
    const [order] = await tx
      .select({ class_id: feeOrders.class_id, activity_id: feeOrders.activity_id, activity_count: feeOrders.activity_count, student_id: feeOrders.student_id })
      .from(feeOrders)
      .where(eq(feeOrders.pay_no, refund.pay_no));
    const at = refund.success_time ?? now;
    for (const share of shares) {
      await addToFeeDaily(tx, { at, sysid: refund.sysid, sch_id: refund.sch_id, class_id: order!.class_id, activity_id: share.activity_id, refunded: share.amount });
    }
    await refundNotices(tx, { sysid: refund.sysid, sch_id: refund.sch_id, student_id: order!.student_id, activity_id: order!.activity_id, activity_count: order!.activity_count, pay_no: refund.pay_no, refund_no: refund.refund_no ?? `id-${refund.id}`, amount: refund.amount, at }, now);
  },
};

/**
 * A done refund's money back on its order: the order's refunded amount and state, its lines' (a duplicate's
 * unsettled lines first, then in their order, each at most what it paid), and the bills the settled lines paid.
 * Answers the money given back by activity (the lines' bills'), kept as the refund's shares when the order pays
 * bills of several activities, for the ledger (migrations 0033, 0035).
 */
async function giveBack(tx: DbOrTx, refund: Refund, now: Date): Promise<{ activity_id: number | null; amount: number }[]> {
  const order = await lockOrder(tx, { payNo: refund.pay_no });
  const lines = await tx
    .select({ line: feeOrderLines, activity_id: bills.activity_id })
    .from(feeOrderLines)
    .innerJoin(bills, eq(bills.id, feeOrderLines.bill_id))
    .where(eq(feeOrderLines.order_id, order.id))
    .orderBy(asc(feeOrderLines.settled), asc(feeOrderLines.sort), asc(feeOrderLines.id));
  let left = refund.amount;
  const billParts = new Map<number, number>();
  const activityParts = new Map<number, number>();
  for (const { line, activity_id } of lines) {
    const part = Math.min(left, line.amount - line.refunded_amount);
    if (part <= 0) continue;
    left -= part;
    await tx.update(feeOrderLines).set({ refunded_amount: line.refunded_amount + part }).where(eq(feeOrderLines.id, line.id));
    if (line.settled === "Y") billParts.set(line.bill_id, (billParts.get(line.bill_id) ?? 0) + part);
    activityParts.set(activity_id, (activityParts.get(activity_id) ?? 0) + part);
    if (left === 0) break;
  }
  if (billParts.size > 0) {
    const ids = [...billParts.keys()].sort((a, b) => a - b);
    const held = await tx.select().from(bills).where(inArray(bills.id, ids)).orderBy(asc(bills.id)).for("update");
    for (const bill of held) {
      const refunded = bill.refunded_amount + (billParts.get(bill.id) ?? 0);
      await tx
        .update(bills)
        .set({ refunded_amount: refunded, status: refunded >= bill.paid_amount ? "refunded" : "part_refunded" })
        .where(eq(bills.id, bill.id));
    }
  }
  const refunded = order.refunded_amount + refund.amount;
  await tx
    .update(feeOrders)
    .set({ refunded_amount: refunded, status: refunded >= order.amount ? "refunded" : "part_refunded" })
    .where(eq(feeOrders.id, order.id));
  await addOrderEvent(tx, order, "refunded", now, `${refund.refund_no} ${fenToYuan(refund.amount)}`);
  if (order.activity_count <= 1) return [{ activity_id: order.activity_id, amount: refund.amount }];
  const shares = [...activityParts].map(([activity_id, amount]) => ({ refund_id: refund.id, activity_id, amount }));
  if (shares.length > 0) await tx.insert(feeRefundShares).values(shares);
  return shares;
}
