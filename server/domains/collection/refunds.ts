/**
 * Refunds of fee orders (catalogue/collectionRefunds.ts; docs/architecture.md, "Refunds"), kept to the gateway's
 * rules: the sum of the refunds an order holds back (asked, accepted, done or abnormal) never exceeds what it paid,
 * checked under the order's row lock; at most 50 an order; a refund's number (out_refund_no) is fixed when it is
 * accepted and names every retry; the gateway's answer to a request is acceptance only, and its end comes from its
 * notification or a query, applied once under the refund's row lock. Applying a success gives the money back on the
 * order's lines (a duplicate payment's lines first, then in their order) and on the bills those lines paid.
 *
 * The gateway is called by jobs, never inside a transaction nor while the caller waits: `refunds.send` right after
 * a refund is accepted, and `refunds.sync` every minute for every refund not yet at its end (sending again those
 * the gateway never took, asking after the others).
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { COMMITTED_REFUND_STATES, MAX_REFUNDS_PER_ORDER, refundReview } from "../../../catalogue/collectionRefunds";
import { fenToYuan } from "../../../common/money";
import { hasAnyRole, PROVIDER_ROLES } from "../../../common/roleKeys";
import { writeAudit } from "../../auth/audit";
import { queryRows, type Db, type DbOrTx } from "../../db/client";
import { bills, feeOrderLines, feeOrders, feeRefundShares, feeRefunds, paymentOrders } from "../../db/schema";
import { actionFieldFailure, type ActionEffect } from "../../engine/actions";
import { checkFieldRelations } from "../../engine/fieldRelations";
import type { Row } from "../../engine/hooks";
import type { JobContext, JobServices } from "../../jobs/registry";
import { enqueueJob } from "../../jobs/worker";
import { translator } from "../../lib/i18n";
import { PaymentMismatchError } from "../../payments/apply";
import type { RefundResult } from "../../payments/gateway";
import { gatewayOfOrder, orderPayee, wechatPayNotifyPath } from "../../payments/orders";
import { addOrderEvent } from "./feeOrders";
import { addToFeeDaily } from "./feeDaily";
import { refundNotices } from "../notices";

export const SEND_REFUND = "refunds.send";
export const SYNC_REFUNDS = "refunds.sync";
export const SYNC_REFUNDS_EVERY_SECONDS = 60;
/** refunds asked after per sync run, the oldest first; the rest wait for the next run */
const MAX_REFUNDS_PER_SYNC = 200;

export type FeeRefund = typeof feeRefunds.$inferSelect;

/** What an order's refunds hold back: how many it has (rejected ones apart), their sum, how many are numbered. */
async function refundsOfOrder(tx: DbOrTx, orderId: number): Promise<{ count: number; committed: number; numbered: number }> {
  const committed = sql.join(COMMITTED_REFUND_STATES.map((s) => sql`${s}`), sql`, `);
  const [row] = await queryRows<{ count: string; committed: string; numbered: string }>(
    tx,
    sql`SELECT count(*) FILTER (WHERE status <> 'rejected') AS count,
               coalesce(sum(amount) FILTER (WHERE status IN (${committed})), 0) AS committed,
               count(refund_no) AS numbered
        FROM ${feeRefunds} WHERE order_id = ${orderId}`,
  );
  return { count: Number(row.count), committed: Number(row.committed), numbered: Number(row.numbered) };
}

/**
 * The next refund number of an order (out_refund_no): its pay_no, "R" and the order's count of numbered refunds,
 * taken under the order's row lock, so numbers follow each other and none is given twice.
 */
export function nextRefundNo(payNo: string, numbered: number): string {
  return `${payNo}R${String(numbered + 1).padStart(2, "0")}`;
}

async function lockOrder(tx: DbOrTx, orderId: number) {
  const [order] = await tx.select().from(feeOrders).where(eq(feeOrders.id, orderId)).for("update");
  return order;
}

/** Queues the refund's sending right after the transaction that accepted it commits. */
async function queueSending(tx: DbOrTx, refundId: number, now: Date): Promise<void> {
  await enqueueJob(tx, SEND_REFUND, { refund_id: refundId }, { now, uniqueKey: `${SEND_REFUND}:${refundId}` });
}

/**
 * refundadd on a paid order, locked by the action engine: within what the order still holds, at most 50. The
 * provider's refund is accepted (numbered, queued for the gateway); anyone else's is a request for its decision.
 */
export const refundAddEffect: ActionEffect = async ({ ctx, tx, row: order, input }) => {
  const amount = Number(input.amount);
  const held = await refundsOfOrder(tx, Number(order.id));
  if (held.count >= MAX_REFUNDS_PER_ORDER) throw actionFieldFailure(ctx, "amount", "refunds.errors.count_limit", { max: MAX_REFUNDS_PER_ORDER });
  const remaining = Number(order.amount) - held.committed;
  if (amount > remaining) throw actionFieldFailure(ctx, "amount", "refunds.errors.over_remaining", { remaining: fenToYuan(Math.max(0, remaining)) });
  const auth = ctx.auth!;
  const accepted = hasAnyRole(auth.roles, PROVIDER_ROLES);
  const [refund] = await tx
    .insert(feeRefunds)
    .values({
      order_id: Number(order.id),
      pay_no: String(order.pay_no),
      sch_id: Number(order.sch_id),
      sysid: Number(order.sysid),
      student_id: Number(order.student_id),
      amount,
      reason: String(input.reason),
      status: accepted ? "processing" : "applied",
      kind: "request",
      applied_by: auth.username,
      gateway: String(order.gateway),
      created_at: ctx.now,
      ...(accepted ? { refund_no: nextRefundNo(String(order.pay_no), held.numbered), reviewed_by: auth.username } : {}),
    })
    .returning();
  if (accepted) await queueSending(tx, refund.id, ctx.now);
  return { messageKey: accepted ? "refunds.accepted" : "refunds.requested", messageParams: { amount: fenToYuan(amount), refund_no: refund.refund_no ?? "" } };
};

/** refundreview on a request, locked by the action engine: rejected with its reason, or accepted and queued. */
export const refundReviewEffect: ActionEffect = async ({ ctx, tx, row: refund, input }) => {
  checkFieldRelations(ctx, refundReview.fields ?? [], input);
  const decided = { reviewed_by: ctx.auth!.username, review_reason: (input.reason as string | null) ?? null };
  if (input.result === "reject") return { changes: { ...decided, status: "rejected" }, messageKey: "refunds.rejected" };
  // numbered under the order's lock, as a provider's own refund is; its amount was held back when it was asked
  const order = await lockOrder(tx, Number(refund.order_id));
  const held = await refundsOfOrder(tx, order.id);
  await queueSending(tx, Number(refund.id), ctx.now);
  return { changes: { ...decided, status: "processing", refund_no: nextRefundNo(order.pay_no, held.numbered) }, messageKey: "refunds.approved" };
};

/**
 * The refund of what a duplicate payment paid for bills another order had paid (its unsettled lines), accepted at
 * once and queued, in the transaction that applied the payment. Answers its id, or null when nothing is owed back.
 */
export async function refundDuplicatePayment(tx: DbOrTx, orderId: number, now: Date): Promise<number | null> {
  const order = await lockOrder(tx, orderId);
  const [{ owed }] = await queryRows<{ owed: string }>(tx, sql`SELECT coalesce(sum(amount), 0) AS owed FROM ${feeOrderLines} WHERE order_id = ${orderId} AND settled = 'N'`);
  const held = await refundsOfOrder(tx, orderId);
  const amount = Math.min(Number(owed), order.amount - held.committed);
  if (amount <= 0) return null;
  const [refund] = await tx
    .insert(feeRefunds)
    .values({
      order_id: order.id,
      pay_no: order.pay_no,
      sch_id: order.sch_id,
      sysid: order.sysid,
      student_id: order.student_id,
      amount,
      // what the payer reads at WeChat Pay: in the payers' language
      reason: translator("zh")("refunds.duplicate_reason"),
      status: "processing",
      kind: "duplicate",
      applied_by: "system",
      reviewed_by: "system",
      gateway: order.gateway,
      refund_no: nextRefundNo(order.pay_no, held.numbered),
      created_at: now,
    })
    .returning({ id: feeRefunds.id });
  await writeAudit(tx, { username: "system", action: "refundadd", entity: "refund", entityId: String(refund.id), sysid: order.sysid, schId: order.sch_id, detail: { order_id: order.id, amount, kind: "duplicate" } });
  await queueSending(tx, refund.id, now);
  return refund.id;
}

/**
 * Applies what the gateway says of a refund (a query's answer or a verified notice), once: under the refund's row
 * lock, a refund at its end (done, closed) stays as it is. A success gives the money back on the order, its lines
 * and the bills they paid. Answers the refund as it now stands, or null when no refund has that number.
 */
export async function applyRefundResult(db: Db, result: RefundResult, now: Date, source: "query" | "notification"): Promise<FeeRefund | null> {
  return db.transaction(async (tx) => {
    const [refund] = await tx.select().from(feeRefunds).where(eq(feeRefunds.refund_no, result.refundNo)).for("update");
    if (!refund) return null;
    if (refund.status !== "processing" && refund.status !== "abnormal") return refund;
    if (result.amountFen !== undefined && result.amountFen !== refund.amount) {
      throw new PaymentMismatchError(`refund ${refund.refund_no}: the gateway has ${result.amountFen} fen, we asked ${refund.amount}`);
    }
    const audit = (action: string, detail: Row) =>
      writeAudit(tx, { username: "system", action, entity: "refund", entityId: String(refund.id), sysid: refund.sysid, schId: refund.sch_id, detail: { refund_no: refund.refund_no, source, ...detail } });
    if (result.status === "PROCESSING" || (result.status === "ABNORMAL" && refund.status === "abnormal")) return refund;
    if (result.status === "ABNORMAL" || result.status === "CLOSED") {
      const status = result.status === "ABNORMAL" ? "abnormal" : "closed";
      const [updated] = await tx.update(feeRefunds).set({ status, refund_id: result.refundId ?? refund.refund_id }).where(eq(feeRefunds.id, refund.id)).returning();
      await audit(`refund_${status}`, {});
      return updated;
    }
    const [updated] = await tx
      .update(feeRefunds)
      .set({
        status: "success",
        refund_id: result.refundId ?? refund.refund_id,
        success_time: result.successTime ?? now,
        user_received_account: result.userReceivedAccount?.slice(0, 64) ?? null,
        last_error: null,
      })
      .where(eq(feeRefunds.id, refund.id))
      .returning();
    const shares = await giveBack(tx, refund, now);
    const [order] = await tx
      .select({ class_id: feeOrders.class_id, activity_id: feeOrders.activity_id, activity_count: feeOrders.activity_count, student_id: feeOrders.student_id })
      .from(feeOrders)
      .where(eq(feeOrders.id, refund.order_id));
    for (const share of shares) {
      await addToFeeDaily(tx, { at: updated!.success_time!, sysid: refund.sysid, sch_id: refund.sch_id, class_id: order!.class_id, activity_id: share.activity_id, refunded: share.amount });
    }
    await refundNotices(tx, { sysid: refund.sysid, sch_id: refund.sch_id, student_id: order!.student_id, activity_id: order!.activity_id, activity_count: order!.activity_count, pay_no: refund.pay_no, refund_no: refund.refund_no ?? `id-${refund.id}`, amount: refund.amount, at: updated!.success_time! }, now);
    await audit("refund_success", { amount: refund.amount });
    return updated;
  });
}

/**
 * A done refund's money back on its order: the order's refunded amount and state, its lines' (a duplicate's
 * unsettled lines first, then in their order, each at most what it paid), and the bills the settled lines paid.
 * Answers the money given back by activity (the lines' bills'), kept as the refund's shares when the order pays
 * bills of several activities, for the ledger (migrations 0033, 0035).
 */
async function giveBack(tx: DbOrTx, refund: FeeRefund, now: Date): Promise<{ activity_id: number | null; amount: number }[]> {
  const order = await lockOrder(tx, refund.order_id);
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

/** Notes a failed call on the refund, for the next run to try again and for the people reading it. */
async function noteFailure(db: Db, refund: FeeRefund, err: unknown, countAttempt: boolean): Promise<void> {
  const message = (err instanceof Error ? err.message : String(err)).slice(0, 200);
  await db
    .update(feeRefunds)
    .set({ last_error: message, ...(countAttempt ? { attempts: sql`${feeRefunds.attempts} + 1` } : {}) })
    .where(eq(feeRefunds.id, refund.id));
}

/**
 * Sends a refund the gateway has not taken yet (again under its number, which the gateway answers as the same
 * refund), then asks after it and applies the answer. A failed call is noted on the refund and left for the next
 * run. Answers what happened.
 */
export async function syncRefund(services: JobServices, db: Db, refundId: number, now: Date): Promise<"applied" | "waiting" | "failed" | "skipped"> {
  const [refund] = await db.select().from(feeRefunds).where(and(eq(feeRefunds.id, refundId), inArray(feeRefunds.status, ["processing", "abnormal"])));
  if (!refund?.refund_no) return "skipped";
  const [payment] = await db.select().from(paymentOrders).where(eq(paymentOrders.payNo, refund.pay_no));
  const gateway = payment && (await gatewayOfOrder(services, payment, services.publicUrl ?? ""));
  if (!payment || !gateway) {
    await noteFailure(db, refund, new Error("the order's payment merchant is gone"), true);
    return "failed";
  }
  const payee = orderPayee(payment);
  if (!refund.submitted_at) {
    try {
      // the notification's address: the service provider's for a sub-merchant's order; none without a public address
      const notifyMerchant = payment.spMerchantId || payment.merchantId;
      const taken = await gateway.refund({
        payNo: refund.pay_no,
        refundNo: refund.refund_no,
        amountFen: refund.amount,
        totalFen: payment.totalFeeFen,
        reason: refund.reason,
        notifyUrl: services.publicUrl && payment.gateway === "wechatpay" ? `${services.publicUrl}${wechatPayNotifyPath(notifyMerchant)}/refund` : undefined,
        subMchid: payee?.subMchid,
      });
      await db
        .update(feeRefunds)
        .set({ submitted_at: now, refund_id: taken.refundId ?? null, attempts: sql`${feeRefunds.attempts} + 1`, last_error: null })
        .where(eq(feeRefunds.id, refund.id));
    } catch (err) {
      await noteFailure(db, refund, err, true);
      return "failed";
    }
  }
  let found: RefundResult;
  try {
    found = await gateway.queryRefund(refund.refund_no, payee);
  } catch (err) {
    await noteFailure(db, refund, err, false);
    return "failed";
  }
  const applied = await applyRefundResult(db, found, now, "query");
  return applied && applied.status !== "processing" && applied.status !== refund.status ? "applied" : "waiting";
}

/** `refunds.send` {refund_id}: the refund just accepted, sent and asked after at once. */
export async function sendRefundJob({ services, db, payload, now }: JobContext): Promise<{ outcome: string }> {
  const id = Number(payload.refund_id);
  return { outcome: Number.isSafeInteger(id) ? await syncRefund(services, db, id, now) : "skipped" };
}

/** `refunds.sync` (every minute): every refund not yet at its end, the oldest first. */
export async function syncRefundsJob({ services, db, now }: JobContext): Promise<Record<string, number>> {
  const open = await db
    .select({ id: feeRefunds.id })
    .from(feeRefunds)
    .where(inArray(feeRefunds.status, ["processing", "abnormal"]))
    .orderBy(asc(feeRefunds.id))
    .limit(MAX_REFUNDS_PER_SYNC);
  const counts: Record<string, number> = {};
  for (const { id } of open) {
    const outcome = await syncRefund(services, db, id, now);
    counts[outcome] = (counts[outcome] ?? 0) + 1;
  }
  return counts;
}
