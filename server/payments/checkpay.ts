/**
 * What checkpay (a renewal dialog's) and h5checkpay (the payer page's) do for an order still unpaid here: ask its
 * gateway whether it was paid, as the closing job does, so that a payment whose notification was lost (or whose
 * application a crash cut short) is applied while the payer waits, not hours later. Every open dialog polls every 1
 * to 3 seconds, so the gateway is asked at most once per GATEWAY_ASK_INTERVAL_MS per order: the right to ask is
 * claimed by one conditional update of the order's `gateway_asked_at`, which the pollers of every server process
 * share; a poll within the interval stays the one indexed read. A payment found is applied through applyPaidOrder,
 * once, whatever else reports it.
 */
import { and, eq, gt, inArray, isNull, lte, or } from "drizzle-orm";
import type { Db } from "../db/client";
import { paymentOrders } from "../db/schema";
import { applyGatewayTrade } from "../jobs/closeExpiredOrders";
import type { OperationContext } from "../protocol/registry";
import { PaymentMismatchError } from "./apply";
import { polledOrder, type PolledOrder } from "./orders";

/** the least time between two questions to the gateway about one order */
export const GATEWAY_ASK_INTERVAL_MS = 5_000;

/** the states of an order the payer may still be paying */
const UNPAID = ["NOTPAY", "USERPAYING"];

/** Claims the question for this poll: true when nobody asked about the unpaid order within the interval. */
async function claimQuestion(db: Db, order: PolledOrder, now: Date): Promise<boolean> {
  const since = new Date(now.getTime() - GATEWAY_ASK_INTERVAL_MS);
  // a time beyond the interval ahead (a clock set back, another server's far ahead) does not hold the question off
  const ahead = new Date(now.getTime() + GATEWAY_ASK_INTERVAL_MS);
  const claimed = await db
    .update(paymentOrders)
    .set({ gatewayAskedAt: now })
    .where(
      and(
        eq(paymentOrders.id, order.id),
        inArray(paymentOrders.status, UNPAID),
        or(isNull(paymentOrders.gatewayAskedAt), lte(paymentOrders.gatewayAskedAt, since), gt(paymentOrders.gatewayAskedAt, ahead)),
      ),
    )
    .returning({ id: paymentOrders.id });
  return claimed.length > 0;
}

function askedLately(order: PolledOrder, now: Date): boolean {
  if (order.gatewayAskedAt === null) return false;
  const ago = now.getTime() - order.gatewayAskedAt.getTime();
  return ago < GATEWAY_ASK_INTERVAL_MS && ago >= -GATEWAY_ASK_INTERVAL_MS;
}

/**
 * The order as it stands after asking its gateway, when it is unpaid here and was not asked about within the
 * interval; a gateway that cannot be reached (or a payment that does not match the order, audited) leaves it as it
 * was: the notification may still come, the poll asks again.
 */
export async function askGatewayIfDue(ctx: Pick<OperationContext, "services" | "db" | "now" | "log">, order: PolledOrder): Promise<PolledOrder> {
  if (!UNPAID.includes(order.status) || askedLately(order, ctx.now)) return order;
  if (!(await claimQuestion(ctx.db, order, ctx.now))) return order;
  try {
    if ((await applyGatewayTrade(ctx.services, ctx.db, order)) !== "applied") return order;
  } catch (err) {
    if (err instanceof PaymentMismatchError) ctx.log.error({ payNo: order.payNo, err: err.message }, "a polled order's payment does not match it");
    else ctx.log.warn({ err, payNo: order.payNo }, "asking the payment gateway about a polled order failed");
    return order;
  }
  return (await polledOrder(ctx.db, order.payNo)) ?? order;
}
