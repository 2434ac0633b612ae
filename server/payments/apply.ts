/**
 * Applying a paid order to the business, exactly once (DESIGN 8): whatever reports the payment (a gateway
 * notification, the sandbox's confirm, a checkpay that queried the gateway, the closing job) ends here. Under the
 * order's row lock the amount and the merchant are checked against the order, the order moves to SUCCESS and its
 * kind (./kinds.ts, registered by its domain) applies it, all in one transaction; a second report of the same
 * payment finds SUCCESS and changes nothing. An order whose kind no domain registered is refused like a mismatch.
 */
import { eq } from "drizzle-orm";
import { accountActor, gatewayActor, writeAudit, type AuditActor } from "../auth/audit";
import type { Db } from "../db/client";
import { paymentOrders, users } from "../db/schema";
import type { GatewayName } from "./gateway";
import { tellPaymentEvent } from "./events";
import { paymentKind, type PaymentOrder } from "./kinds";
import { countPaymentApplied } from "../monitoring/metrics";

export type { PaymentOrder } from "./kinds";

/** A payment as the gateway reported it, already verified. */
export interface PaidReport {
  payNo: string;
  gateway: GatewayName;
  amountFen: number;
  merchantId: string;
  transactionId: string;
  paidAt?: Date;
  /** where the report came from (audit) */
  ip: string;
  /** who applied it when not the gateway's own report (a job that asked the gateway): the audit's actor */
  actor?: AuditActor;
}

export interface AppliedPayment {
  /** false when the order had been applied before (a repeated report) */
  applied: boolean;
  order: PaymentOrder;
  /** the term end the payment gave */
  endDate: string | null;
}

/** The report does not match its order (amount, merchant or gateway): nothing is applied. */
export class PaymentMismatchError extends Error {
  override readonly name = "PaymentMismatchError";
}

/** Applies a paid order; null when no order has this pay_no. */
export async function applyPaidOrder(db: Db, report: PaidReport, now: Date): Promise<AppliedPayment | null> {
  const outcome = await db.transaction(async (tx): Promise<AppliedPayment | PaymentOrder | null> => {
    const [order] = await tx.select().from(paymentOrders).where(eq(paymentOrders.payNo, report.payNo)).for("update");
    if (!order) return null;
    const kind = paymentKind(order.kind);
    // a mismatch is answered after the transaction, so that its audit entry is kept
    if (!kind || order.gateway !== report.gateway || order.totalFeeFen !== report.amountFen || order.merchantId !== report.merchantId) return order;
    if (order.status === "SUCCESS") return { applied: false, order, endDate: order.appliedEnd };

    const [creator] = order.createdBy === null ? [] : await tx.select({ username: users.username }).from(users).where(eq(users.id, order.createdBy));
    const actor = accountActor({ userId: order.createdBy, username: creator?.username ?? "" }, report.ip);
    const term = await kind.applyPaid(tx, order, actor, now, { transactionId: report.transactionId, paidAt: report.paidAt ?? now });
    const [paid] = await tx
      .update(paymentOrders)
      .set({ status: "SUCCESS", transactionId: report.transactionId, paidAt: report.paidAt ?? now, appliedEnd: term.appliedEnd })
      .where(eq(paymentOrders.id, order.id))
      .returning();
    await writeAudit(tx, report.actor ?? actor, {
      action: "payment",
      entity: "payment_order",
      entityId: order.payNo,
      detail: { gateway: report.gateway, amount_fen: report.amountFen, transaction_id: report.transactionId, kind: order.kind, new_end: term.appliedEnd },
      sysid: order.sysid,
      schId: order.schId,
    });
    await tellPaymentEvent(tx, { type: "payment.succeeded", at: now, order: paid });
    return { applied: true, order: paid, endDate: term.appliedEnd };
  });
  if (outcome !== null && "applied" in outcome && outcome.applied) countPaymentApplied(outcome.order.kind, report.gateway);
  if (outcome === null || "applied" in outcome) return outcome;
  await writeAudit(db, gatewayActor(report.ip), {
    action: "payment_mismatch",
    entity: "payment_order",
    entityId: outcome.payNo,
    detail: {
      gateway: report.gateway,
      amount_fen: report.amountFen,
      expected_fen: outcome.totalFeeFen,
      merchant_id: report.merchantId,
      expected_merchant_id: outcome.merchantId,
      transaction_id: report.transactionId,
      ...(paymentKind(outcome.kind) ? {} : { unknown_kind: outcome.kind }),
    },
    sysid: outcome.sysid,
    schId: outcome.schId,
  });
  throw new PaymentMismatchError(`payment ${report.payNo} does not match its order`);
}
