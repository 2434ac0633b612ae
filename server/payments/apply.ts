/**
 * Applying a paid order to the business, exactly once (DESIGN 8): whatever reports the payment (a gateway
 * notification, the sandbox's confirm, a checkpay that queried the gateway) ends here. Under the order's row lock
 * the amount and the merchant are checked against the order, the order moves to SUCCESS and the term it bought is
 * extended, all in one transaction; a second report of the same payment finds SUCCESS and changes nothing.
 */
import { eq } from "drizzle-orm";
import { writeAudit } from "../auth/audit";
import type { Db } from "../db/client";
import { paymentOrders, users } from "../db/schema";
import { extendProviderTerm, extendSchoolTerm, type RenewalActor } from "../domains/renewals/terms";
import type { GatewayName } from "./gateway";

export type PaymentOrder = typeof paymentOrders.$inferSelect;

export type OrderKind = "school_renewal" | "provider_renewal";

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
    // a mismatch is answered after the transaction, so that its audit entry is kept
    if (order.gateway !== report.gateway || order.totalFeeFen !== report.amountFen || order.merchantId !== report.merchantId) return order;
    if (order.status === "SUCCESS") return { applied: false, order, endDate: order.appliedEnd };

    const [creator] = order.createdBy === null ? [] : await tx.select({ username: users.username }).from(users).where(eq(users.id, order.createdBy));
    const actor: RenewalActor = { userId: order.createdBy, username: creator?.username ?? "", ip: report.ip };
    const extension = { way: "pay" as const, title: order.title, months: order.termMonths, feeFen: order.totalFeeFen, payNo: order.payNo };
    const term =
      order.kind === "school_renewal" && order.schId !== null
        ? await extendSchoolTerm(tx, order.schId, extension, actor, now)
        : await extendProviderTerm(tx, order.sysid, extension, actor, now);
    const [paid] = await tx
      .update(paymentOrders)
      .set({ status: "SUCCESS", transactionId: report.transactionId, paidAt: report.paidAt ?? now, appliedEnd: term.newEnd })
      .where(eq(paymentOrders.id, order.id))
      .returning();
    await writeAudit(tx, {
      userId: order.createdBy,
      username: actor.username,
      action: "payment",
      entity: "payment_order",
      entityId: order.payNo,
      ip: report.ip,
      detail: { gateway: report.gateway, amount_fen: report.amountFen, transaction_id: report.transactionId, kind: order.kind, new_end: term.newEnd },
    });
    return { applied: true, order: paid, endDate: term.newEnd };
  });
  if (outcome === null || "applied" in outcome) return outcome;
  await writeAudit(db, {
    action: "payment_mismatch",
    entity: "payment_order",
    entityId: outcome.payNo,
    ip: report.ip,
    detail: {
      gateway: report.gateway,
      amount_fen: report.amountFen,
      expected_fen: outcome.totalFeeFen,
      merchant_id: report.merchantId,
      expected_merchant_id: outcome.merchantId,
      transaction_id: report.transactionId,
    },
  });
  throw new PaymentMismatchError(`payment ${report.payNo} does not match its order`);
}
