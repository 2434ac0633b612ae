/**
 * Closing unpaid payment orders after their timeout (ORDER_PAYABLE_MS, two hours: the QR code's time_expire).
 * The gateway is asked first: an order it reports paid (its notification lost) is applied exactly as a
 * notification would apply it, once; only an order it reports unpaid is closed there and then marked CLOSED here.
 * A notification that still arrives for a closed order applies it (apply.ts looks only for SUCCESS).
 */
import { and, asc, eq, inArray, lte } from "drizzle-orm";
import { paymentOrders } from "../db/schema";
import { applyPaidOrder, PaymentMismatchError } from "../payments/apply";
import type { GatewayName, PaymentGateway, TradeQuery } from "../payments/gateway";
import { GatewayRequestError } from "../payments/gateway";
import { gatewayOfOrder } from "../payments/orders";
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
  failed: number;
}

function paid(trade: TradeQuery): boolean {
  return (trade.state === "SUCCESS" || trade.state === "REFUND") && trade.amountFen !== undefined;
}

export async function closeExpiredOrders(ctx: JobContext): Promise<CloseExpiredOrdersResult> {
  const { db, services, now, log } = ctx;
  const due = await db
    .select({ id: paymentOrders.id, payNo: paymentOrders.payNo, gateway: paymentOrders.gateway, merchantId: paymentOrders.merchantId })
    .from(paymentOrders)
    .where(and(inArray(paymentOrders.status, UNPAID), lte(paymentOrders.expiresAt, now)))
    .orderBy(asc(paymentOrders.expiresAt), asc(paymentOrders.id))
    .limit(MAX_ORDERS_PER_RUN);
  const result: CloseExpiredOrdersResult = { due: due.length, closed: 0, applied: 0, failed: 0 };

  const apply = async (order: (typeof due)[number], trade: TradeQuery) => {
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
      },
      services.clock.now(),
    );
    result.applied++;
  };

  for (const [index, order] of due.entries()) {
    try {
      const gateway: PaymentGateway | null = await gatewayOfOrder(services, order, services.publicUrl ?? "");
      if (!gateway) {
        // its merchant is gone: nobody can say whether it was paid
        log.warn({ payNo: order.payNo, gateway: order.gateway }, "an expired order's merchant is gone; it stays open");
        result.failed++;
        continue;
      }
      let trade: TradeQuery | null;
      try {
        trade = await gateway.query(order.payNo);
      } catch (err) {
        // never created at the gateway: nothing to close there
        if (!(err instanceof GatewayRequestError && err.code === "ORDER_NOT_EXIST")) throw err;
        trade = null;
      }
      if (trade && paid(trade)) {
        await apply(order, trade);
        continue;
      }
      if (trade) {
        try {
          await gateway.close(order.payNo);
        } catch (err) {
          // paid between the query and the close: apply it; otherwise try again next run
          const again = await gateway.query(order.payNo);
          if (paid(again)) {
            await apply(order, again);
            continue;
          }
          throw err;
        }
      }
      const closed = await db
        .update(paymentOrders)
        .set({ status: "CLOSED" })
        // (the sandbox's close marks it itself; a payment applied meanwhile stays SUCCESS)
        .where(and(eq(paymentOrders.id, order.id), inArray(paymentOrders.status, [...UNPAID, "CLOSED"])))
        .returning({ id: paymentOrders.id });
      result.closed += closed.length;
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
