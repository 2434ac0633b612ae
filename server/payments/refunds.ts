/**
 * Refunds of payment orders of any kind (DESIGN 8; docs/architecture.md, "Refunds"), kept to the gateway's rules: the
 * sum of the refunds a payment holds back (asked, accepted, done or abnormal) never exceeds what it paid, checked
 * under its order's row lock; at most 50 a payment; a refund's number (out_refund_no) is fixed when it is accepted and
 * names every retry; the gateway's answer to a request is acceptance only, and its end comes from its notification or
 * a query, applied once under the refund's row lock. What a refund does to the business is its payment kind's
 * (`PaymentKind.refunds`): a fee order gives the money back on its lines, bills and daily figures; a shop order on its
 * items and stock.
 *
 * The gateway is called by jobs, never inside a transaction nor while the caller waits: `refunds.send` right after
 * a refund is accepted, and `refunds.sync` every minute for every refund not yet at its end (sending again those
 * the gateway never took, asking after the others).
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { COMMITTED_REFUND_STATES, MAX_REFUNDS_PER_ORDER } from "../../catalogue/collectionRefunds";
import { fenToYuan } from "../../common/money";
import { gatewayActor, writeAudit, type AuditActor } from "../auth/audit";
import { queryRows, type Db, type DbOrTx } from "../db/client";
import { paymentOrders, refunds } from "../db/schema";
import type { JobContext, JobServices } from "../jobs/registry";
import { enqueueJob } from "../jobs/worker";
import { PaymentMismatchError } from "./apply";
import { tellPaymentEvent } from "./events";
import type { RefundResult } from "./gateway";
import { paymentKind, type RefundHooks } from "./kinds";
import { gatewayOfOrder, orderPayee, wechatPayNotifyPath } from "./orders";

export const SEND_REFUND = "refunds.send";
export const SYNC_REFUNDS = "refunds.sync";
export const SYNC_REFUNDS_EVERY_SECONDS = 60;
/** refunds asked after per sync run, the oldest first; the rest wait for the next run */
const MAX_REFUNDS_PER_SYNC = 200;

export type Refund = typeof refunds.$inferSelect;

/** A refund refused by the rules of every payment: the message's key and parameters, for the field `amount`. */
export class RefundRefused extends Error {
  override readonly name = "RefundRefused";
  constructor(
    readonly messageKey: string,
    readonly params: Record<string, string | number>,
  ) {
    super(messageKey);
  }
}

/** What a payment's refunds hold back: how many it has (rejected ones apart), their sum, how many are numbered. */
export async function refundsOfPayment(tx: DbOrTx, payNo: string): Promise<{ count: number; committed: number; numbered: number }> {
  const committed = sql.join(COMMITTED_REFUND_STATES.map((s) => sql`${s}`), sql`, `);
  const [row] = await queryRows<{ count: string; committed: string; numbered: string }>(
    tx,
    sql`SELECT count(*) FILTER (WHERE status <> 'rejected') AS count,
               coalesce(sum(amount) FILTER (WHERE status IN (${committed})), 0) AS committed,
               count(refund_no) AS numbered
        FROM ${refunds} WHERE pay_no = ${payNo}`,
  );
  return { count: Number(row.count), committed: Number(row.committed), numbered: Number(row.numbered) };
}

/**
 * The next refund number of a payment (out_refund_no): its pay_no, "R" and the payment's count of numbered refunds,
 * taken under its order's row lock, so numbers follow each other and none is given twice.
 */
export function nextRefundNo(payNo: string, numbered: number): string {
  return `${payNo}R${String(numbered + 1).padStart(2, "0")}`;
}

/** The refund hooks of a payment's kind; a payment of a kind that takes no refunds is a fault of the caller. */
async function hooksOfPayment(tx: DbOrTx, payNo: string): Promise<{ kind: string; hooks: RefundHooks }> {
  const [payment] = await tx.select({ kind: paymentOrders.kind }).from(paymentOrders).where(eq(paymentOrders.payNo, payNo));
  const hooks = payment && paymentKind(payment.kind)?.refunds;
  if (!hooks) throw new Error(`payment ${payNo} takes no refunds (kind ${payment?.kind ?? "none"})`);
  return { kind: payment.kind, hooks };
}

/** Queues the refund's sending (or its asking after, once sent) right after the transaction that accepted it commits. */
export async function queueSending(tx: DbOrTx, refundId: number, now: Date): Promise<void> {
  await enqueueJob(tx, SEND_REFUND, { refund_id: refundId }, { now, uniqueKey: `${SEND_REFUND}:${refundId}` });
}

export interface RefundRequest {
  payNo: string;
  /** fen; with `upToRemaining`, at most this and no more than the payment still holds */
  amount: number;
  upToRemaining?: boolean;
  /** what the payer reads at the gateway */
  reason: string;
  /** why it was made: asked by someone ("request"), a duplicate payment's ("duplicate") */
  cause: string;
  /** who asked for it: an account, or the gateway's answer for one made by itself (a duplicate payment's) */
  appliedBy: AuditActor;
  /** who accepted it: accepted refunds are numbered and sent at once; without it the refund is a request (applied) */
  acceptedBy?: string;
  /** the after-sale of one of the order's items it gives the money back for (catalogue/afterSales.ts) */
  aftersaleId?: number;
}

/**
 * A refund of a paid payment, under its order's row lock: within what the payment still holds, at most 50. Answers
 * the refund, or null when `upToRemaining` leaves nothing to give back; refuses with RefundRefused otherwise.
 */
export async function createRefund(tx: DbOrTx, request: RefundRequest, now: Date): Promise<Refund | null> {
  const { kind, hooks } = await hooksOfPayment(tx, request.payNo);
  const order = await hooks.lockOrder(tx, request.payNo);
  if (!order) throw new Error(`payment ${request.payNo} has no order of its kind ${kind}`);
  const held = await refundsOfPayment(tx, request.payNo);
  const remaining = Math.max(0, order.paidFen - held.committed);
  const amount = request.upToRemaining ? Math.min(request.amount, remaining) : request.amount;
  if (request.upToRemaining && amount <= 0) return null;
  if (held.count >= MAX_REFUNDS_PER_ORDER) throw new RefundRefused("refunds.errors.count_limit", { max: MAX_REFUNDS_PER_ORDER });
  if (amount > remaining) throw new RefundRefused("refunds.errors.over_remaining", { remaining: fenToYuan(remaining) });
  const [refund] = await tx
    .insert(refunds)
    .values({
      payment_kind: kind,
      pay_no: request.payNo,
      ...order.columns,
      aftersale_id: request.aftersaleId ?? null,
      sch_id: order.sch_id,
      sysid: order.sysid,
      student_id: order.student_id,
      gateway: order.gateway,
      amount,
      reason: request.reason,
      status: request.acceptedBy ? "processing" : "applied",
      kind: request.cause,
      applied_by: request.appliedBy.username,
      created_at: now,
      ...(request.acceptedBy ? { refund_no: nextRefundNo(request.payNo, held.numbered), reviewed_by: request.acceptedBy } : {}),
    })
    .returning();
  if (request.acceptedBy) await queueSending(tx, refund.id, now);
  await writeAudit(tx, request.appliedBy, {
    action: "refund_created",
    entity: "refund",
    entityId: String(refund.id),
    sysid: refund.sysid,
    schId: refund.sch_id,
    detail: { to: refund.status, amount: fenToYuan(amount), kind: request.cause, pay_no: request.payNo },
  });
  return refund;
}

/**
 * A request accepted: numbered under its order's lock, as a refund accepted at once is (its amount was held back when
 * it was asked), and queued. Answers its number, which the caller stores with the decision (state processing).
 */
export async function acceptRefund(tx: DbOrTx, refund: { id: number; pay_no: string }, now: Date): Promise<string> {
  const { hooks } = await hooksOfPayment(tx, refund.pay_no);
  await hooks.lockOrder(tx, refund.pay_no);
  const held = await refundsOfPayment(tx, refund.pay_no);
  await queueSending(tx, refund.id, now);
  return nextRefundNo(refund.pay_no, held.numbered);
}

/**
 * Applies what the gateway says of a refund (a query's answer or a verified notice), once: under the refund's row
 * lock, a refund at its end (done, closed) stays as it is. A success is given back by its payment's kind. Answers
 * the refund as it now stands, or null when no refund has that number.
 */
export async function applyRefundResult(db: Db, result: RefundResult, now: Date, source: "query" | "notification"): Promise<Refund | null> {
  return db.transaction(async (tx) => {
    const [refund] = await tx.select().from(refunds).where(eq(refunds.refund_no, result.refundNo)).for("update");
    if (!refund) return null;
    if (refund.status !== "processing" && refund.status !== "abnormal") return refund;
    if (result.amountFen !== undefined && result.amountFen !== refund.amount) {
      throw new PaymentMismatchError(`refund ${refund.refund_no}: the gateway has ${result.amountFen} fen, we asked ${refund.amount}`);
    }
    const audit = (action: string, detail: Record<string, unknown>) =>
      writeAudit(tx, gatewayActor(), { action, entity: "refund", entityId: String(refund.id), sysid: refund.sysid, schId: refund.sch_id, detail: { refund_no: refund.refund_no, source, ...detail } });
    if (result.status === "PROCESSING" || (result.status === "ABNORMAL" && refund.status === "abnormal")) return refund;
    if (result.status === "ABNORMAL" || result.status === "CLOSED") {
      const status = result.status === "ABNORMAL" ? "abnormal" : "closed";
      const [updated] = await tx.update(refunds).set({ status, refund_id: result.refundId ?? refund.refund_id }).where(eq(refunds.id, refund.id)).returning();
      await audit(`refund_${status}`, {});
      return updated;
    }
    const [updated] = await tx
      .update(refunds)
      .set({
        status: "success",
        refund_id: result.refundId ?? refund.refund_id,
        success_time: result.successTime ?? now,
        user_received_account: result.userReceivedAccount?.slice(0, 64) ?? null,
        last_error: null,
      })
      .where(eq(refunds.id, refund.id))
      .returning();
    const { hooks } = await hooksOfPayment(tx, refund.pay_no);
    await hooks.refunded(tx, updated, now);
    await audit("refund_success", { amount: refund.amount });
    await tellPaymentEvent(tx, { type: "refund.succeeded", at: now, refund: updated });
    return updated;
  });
}

/** Notes a failed call on the refund, for the next run to try again and for the people reading it. */
async function noteFailure(db: Db, refund: Refund, err: unknown, countAttempt: boolean): Promise<void> {
  const message = (err instanceof Error ? err.message : String(err)).slice(0, 200);
  await db
    .update(refunds)
    .set({ last_error: message, ...(countAttempt ? { attempts: sql`${refunds.attempts} + 1` } : {}) })
    .where(eq(refunds.id, refund.id));
}

/**
 * Sends a refund the gateway has not taken yet (again under its number, which the gateway answers as the same
 * refund), then asks after it and applies the answer. A failed call is noted on the refund and left for the next
 * run. Answers what happened.
 */
export async function syncRefund(services: JobServices, db: Db, refundId: number, now: Date): Promise<"applied" | "waiting" | "failed" | "skipped"> {
  const [refund] = await db.select().from(refunds).where(and(eq(refunds.id, refundId), inArray(refunds.status, ["processing", "abnormal"])));
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
      await db.transaction(async (tx) => {
        await tx
          .update(refunds)
          .set({ submitted_at: now, refund_id: taken.refundId ?? null, attempts: sql`${refunds.attempts} + 1`, last_error: null })
          .where(eq(refunds.id, refund.id));
        await writeAudit(tx, gatewayActor(), { action: "refund_sent", entity: "refund", entityId: String(refund.id), sysid: refund.sysid, schId: refund.sch_id, detail: { refund_no: refund.refund_no!, attempts: refund.attempts + 1 } });
      });
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
    .select({ id: refunds.id })
    .from(refunds)
    .where(inArray(refunds.status, ["processing", "abnormal"]))
    .orderBy(asc(refunds.id))
    .limit(MAX_REFUNDS_PER_SYNC);
  const counts: Record<string, number> = {};
  for (const { id } of open) {
    const outcome = await syncRefund(services, db, id, now);
    counts[outcome] = (counts[outcome] ?? 0) + 1;
  }
  return counts;
}
