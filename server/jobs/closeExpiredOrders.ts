/**
 * Closing unpaid payment orders after their timeout (ORDER_PAYABLE_MS, two hours: the QR code's time_expire).
 * The gateway is asked first: an order it reports paid (its notification lost) is applied exactly as a
 * notification would apply it, once; only an order it reports unpaid is closed there and then marked CLOSED here.
 * A notification that still arrives for a closed order applies it (apply.ts looks only for SUCCESS). An order whose
 * merchant was removed cannot be asked or closed at its gateway: it is closed here, once, with that reason. What a
 * job applies or closes is audited with the job as its actor.
 */
import { and, asc, inArray, lte } from "drizzle-orm";
import { writeAudit, type AuditActor, jobActor } from "../auth/audit";
import type { Db } from "../db/client";
import { paymentOrders } from "../db/schema";
import { recordOrderClosed } from "../payments/close";
import type { PaymentOrder } from "../payments/kinds";
import { applyPaidOrder, PaymentMismatchError } from "../payments/apply";
import type { GatewayName, PaymentGateway, TradeQuery } from "../payments/gateway";
import { GatewayRequestError } from "../payments/gateway";
import { gatewayOfOrder, orderPayee } from "../payments/orders";
import type { JobContext } from "./registry";

export const CLOSE_EXPIRED_ORDERS = "payments.close_expired_orders";
/** how often the job runs */
export const CLOSE_EXPIRED_ORDERS_EVERY_SECONDS = 60;
/** orders looked at per run; the rest wait for the next run */
const MAX_ORDERS_PER_RUN = 500;

const UNPAID = ["NOTPAY", "USERPAYING"];

export interface CloseExpiredOrdersResult {
  due: number;
  closed: number;
  applied: number;
  /** closed here only: their merchant was removed */
  gone: number;
  failed: number;
}

function paid(trade: TradeQuery): boolean {
  return (trade.state === "SUCCESS" || trade.state === "REFUND") && trade.amountFen !== undefined;
}

/** What an unpaid order needs for its gateway to be asked and told. */
export type UnpaidOrderRef = Pick<PaymentOrder, "id" | "payNo" | "gateway" | "merchantId" | "spMerchantId" | "sysid" | "schId">;

/** The columns of an UnpaidOrderRef, to select one. */
export const unpaidOrderColumns = {
  id: paymentOrders.id,
  payNo: paymentOrders.payNo,
  gateway: paymentOrders.gateway,
  merchantId: paymentOrders.merchantId,
  spMerchantId: paymentOrders.spMerchantId,
  sysid: paymentOrders.sysid,
  schId: paymentOrders.schId,
};

/** Applies a payment the gateway reports, once, as its notification would; `actor` asked the gateway. */
async function applyTrade(services: JobContext["services"], db: Db, order: UnpaidOrderRef, trade: TradeQuery, actor?: AuditActor): Promise<"applied"> {
  await applyPaidOrder(
    db,
    {
      payNo: order.payNo,
      gateway: order.gateway as GatewayName,
      amountFen: trade.amountFen!,
      merchantId: trade.merchantId ?? "",
      transactionId: trade.transactionId ?? "",
      paidAt: trade.paidAt,
      ip: "",
      actor,
    },
    services.clock.now(),
  );
  return "applied";
}

/**
 * Asks the gateway about an order and applies the payment it reports (reconciliation's fix of a payment whose
 * notification was lost); answers "unpaid" when it reports none, "gone" when the order's merchant is gone.
 */
export async function applyGatewayTrade(services: JobContext["services"], db: Db, order: UnpaidOrderRef): Promise<"applied" | "unpaid" | "gone"> {
  const gateway = await gatewayOfOrder(services, order, services.publicUrl ?? "");
  if (!gateway) return "gone";
  const trade = await gateway.query(order.payNo, orderPayee(order));
  return paid(trade) ? applyTrade(services, db, order, trade) : "unpaid";
}

/**
 * Closes one unpaid order at its gateway, asking first: an order the gateway reports paid is applied (once, as a
 * notification would), never closed; one it reports unpaid is closed there and here (a close refused because the
 * payer paid meanwhile is answered by querying again and applying). An order whose merchant was removed is closed
 * here only, with that reason ("gone"). `actor` is who closes it (a job, a user): the audit names them. Throws when
 * the gateway cannot be reached or the payment does not match, so that the caller tries again later.
 */
export async function closeUnpaidOrder(services: JobContext["services"], db: Db, order: UnpaidOrderRef, actor: AuditActor): Promise<"applied" | "closed" | "gone"> {
  const gateway: PaymentGateway | null = await gatewayOfOrder(services, order, services.publicUrl ?? "");
  if (!gateway) {
    // no merchant to ask or close it at: closed here, so that it is not looked at again (a payment that still comes
    // for it, once the merchant is back, applies it after all)
    if (await recordOrderClosed(db, order.id, services.clock.now(), "merchant_gone")) {
      await writeAudit(db, actor, {
        action: "payment_closed",
        entity: "payment_order",
        entityId: order.payNo,
        detail: { reason: "merchant_gone", gateway: order.gateway, merchant_id: order.spMerchantId || order.merchantId },
        sysid: order.sysid,
        schId: order.schId,
      });
    }
    return "gone";
  }
  const apply = (trade: TradeQuery) => applyTrade(services, db, order, trade, actor);
  const payee = orderPayee(order);
  let trade: TradeQuery | null;
  try {
    trade = await gateway.query(order.payNo, payee);
  } catch (err) {
    // never created at the gateway: nothing to close there
    if (!(err instanceof GatewayRequestError && err.code === "ORDER_NOT_EXIST")) throw err;
    trade = null;
  }
  if (trade && paid(trade)) return apply(trade);
  if (trade) {
    try {
      await gateway.close(order.payNo, payee);
    } catch (err) {
      // paid between the query and the close: apply it; otherwise try again later
      const again = await gateway.query(order.payNo, payee);
      if (paid(again)) return apply(again);
      throw err;
    }
  }
  // (a payment applied meanwhile stays SUCCESS)
  await recordOrderClosed(db, order.id, services.clock.now());
  return "closed";
}

export async function closeExpiredOrders(ctx: JobContext): Promise<CloseExpiredOrdersResult> {
  const { db, services, now, log } = ctx;
  const due = await db
    .select(unpaidOrderColumns)
    .from(paymentOrders)
    .where(and(inArray(paymentOrders.status, UNPAID), lte(paymentOrders.expiresAt, now)))
    .orderBy(asc(paymentOrders.expiresAt), asc(paymentOrders.id))
    .limit(MAX_ORDERS_PER_RUN);
  const result: CloseExpiredOrdersResult = { due: due.length, closed: 0, applied: 0, gone: 0, failed: 0 };
  const actor = jobActor(CLOSE_EXPIRED_ORDERS);

  for (const [index, order] of due.entries()) {
    try {
      const outcome = await closeUnpaidOrder(services, db, order, actor);
      // said once: the order is closed now, and no later run looks at it
      if (outcome === "gone") log.warn({ payNo: order.payNo, gateway: order.gateway, merchantId: order.spMerchantId || order.merchantId }, "an expired order's merchant is gone; closed here");
      result[outcome]++;
    } catch (err) {
      result.failed++;
      const message = err instanceof Error ? err.message : String(err);
      if (err instanceof PaymentMismatchError) log.error({ payNo: order.payNo, err: message }, "an expired order's payment does not match it");
      else log.warn({ payNo: order.payNo, err: message }, "closing an expired order failed; the next run tries again");
    } finally {
      await ctx.reportProgress(((index + 1) * 100) / due.length);
    }
  }
  return result;
}
