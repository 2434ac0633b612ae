/**
 * Shop orders as a payment kind (`shop_order`, catalogue/shopOrders.ts): made on the payer page (./shop.ts), paid to
 * the school's channel. Stock is taken when an order is made, by one conditional update per SKU (never below zero),
 * and given back exactly once when the unpaid order closes (the conditional move to cancelled decides who gives it
 * back; both in ./fulfilment.ts, shared by every order carrying goods). Paying moves it to undelivered and gives a
 * pickup order its code (8 digits, unique among the provider's orders of any kind waiting to be collected) and its QR
 * token (128 bits); a payment that comes after the order closed takes the
 * stock again if it is there, else it is refunded whole. A refund (server/payments/refunds.ts) gives the money back on
 * the order: its refunded amount and refund status; refunded in full, it is cancelled.
 */
import { and, asc, eq, inArray, lte, sql } from "drizzle-orm";
import { fenToYuan } from "../../../common/money";
import { shopOrderCancel, shopOrderEntity } from "../../../catalogue/shopOrders";
import { callerActor, gatewayActor, jobActor, writeAudit, type AuditActor } from "../../auth/audit";
import { parseTenantId, resolveScope } from "../../auth/scope";
import type { Db, DbOrTx } from "../../db/client";
import { paymentOrders, shopOrderItems, shopOrders } from "../../db/schema";
import { actionFieldFailure, type ActionEffect, type ActionEffects } from "../../engine/actions";
import { entityTenantConditions, serialiseRow, wrongState } from "../../engine/crud";
import type { Row } from "../../engine/hooks";
import { closeUnpaidOrder, unpaidOrderColumns } from "../../jobs/closeExpiredOrders";
import { jobKinds, registerJobKind, type JobContext, type JobServices } from "../../jobs/registry";
import { translator } from "../../lib/i18n";
import { GatewayRequestError } from "../../payments/gateway";
import { registerPaymentKind, type PaymentKind, type RefundHooks } from "../../payments/kinds";
import { createRefund, RefundRefused } from "../../payments/refunds";
import { ApiFailure, notFound } from "../../protocol/envelope";
import type { OperationContext, OperationRegistry } from "../../protocol/registry";
import { afterSaleRefunded } from "./afterSales";
import { completeDeliveredFeeOrders, giveStockBack, newPickupCode, takeStock } from "./fulfilment";
import { autoCompleteDaysSql, shopSettings } from "./shopSettings";
import { queueReceipts } from "../devices/printing";

export { takeStock };

export const SHOP_ORDER_KIND = "shop_order";

type ShopOrder = typeof shopOrders.$inferSelect;

/** An entry on the order's timeline; by default what the gateway's answer did (a payment, a refund, a close). */
async function orderEvent(tx: DbOrTx, order: Pick<ShopOrder, "id" | "sysid" | "sch_id">, action: string, detail: Record<string, unknown>, actor = gatewayActor()): Promise<void> {
  await writeAudit(tx, actor, { action, entity: "shoporder", entityId: String(order.id), sysid: order.sysid, schId: order.sch_id, detail });
}

/** The order's items: what each took of its SKU's stock. */
async function itemsOf(tx: DbOrTx, orderId: number) {
  return tx.select({ sku_id: shopOrderItems.sku_id, goods_id: shopOrderItems.goods_id, qty: shopOrderItems.qty }).from(shopOrderItems).where(eq(shopOrderItems.order_id, orderId)).orderBy(asc(shopOrderItems.sku_id));
}

const SHOP_PAYMENT: PaymentKind = {
  kind: SHOP_ORDER_KIND,
  payee: "school_channel",
  async applyPaid(tx, payment, _actor, now, paid) {
    const [order] = await tx.select().from(shopOrders).where(eq(shopOrders.pay_no, payment.payNo)).for("update");
    if (!order) throw new Error(`shop payment ${payment.payNo} has no shop order`);
    const pickup = order.delivery === "pickup";
    if (order.status === "cancelled") {
      // paid after it closed: its stock was given back; taken again if it is still there, else the payment goes back
      const lines = await itemsOf(tx, order.id);
      const short = await takeStock(tx, lines);
      if (short !== null) {
        await giveStockBack(tx, lines, short);
        await tx.update(shopOrders).set({ paid_at: paid.paidAt, transaction_id: paid.transactionId }).where(eq(shopOrders.id, order.id));
        await orderEvent(tx, order, "shop_order_paid", { transaction_id: paid.transactionId, late: "Y" });
        await createRefund(
          tx,
          { payNo: order.pay_no, amount: order.amount, reason: translator("zh")("retail.shop.unavailable_refund"), cause: "unavailable", appliedBy: gatewayActor(), acceptedBy: "system" },
          now,
        );
        return { appliedEnd: null };
      }
    }
    await tx
      .update(shopOrders)
      .set({
        status: "undelivered",
        paid_at: paid.paidAt,
        transaction_id: paid.transactionId,
        cancelled_at: null,
        ...(pickup ? await newPickupCode(tx, order.sysid) : {}),
      })
      .where(eq(shopOrders.id, order.id));
    await orderEvent(tx, order, "shop_order_paid", { from: order.status, to: "undelivered", transaction_id: paid.transactionId });
    await queueReceipts(tx, { kind: "shop_order", orderNo: order.order_no, sysid: order.sysid, schId: order.sch_id }, now);
    return { appliedEnd: null };
  },
  async applyClosed(tx, payment, now) {
    // the one move to cancelled gives the stock back: a close told twice finds it cancelled already
    const [closed] = await tx
      .update(shopOrders)
      .set({ status: "cancelled", cancelled_at: now })
      .where(and(eq(shopOrders.pay_no, payment.payNo), eq(shopOrders.status, "unpaid")))
      .returning();
    if (!closed) return;
    await giveStockBack(tx, await itemsOf(tx, closed.id));
    await orderEvent(tx, closed, "shop_order_closed", { from: "unpaid", to: "cancelled" });
  },
  async lines(db, payment) {
    const rows = await db
      .select({ title: shopOrderItems.title, amount: shopOrderItems.amount })
      .from(shopOrderItems)
      .innerJoin(shopOrders, eq(shopOrders.id, shopOrderItems.order_id))
      .where(eq(shopOrders.pay_no, payment.payNo))
      .orderBy(asc(shopOrderItems.sort), asc(shopOrderItems.id));
    return rows.map((row) => ({ title: row.title, amountFen: Number(row.amount) }));
  },
};

/** A shop order's refunds: what it paid, and on success its refunded amount and state (cancelled once all is back). */
export const shopRefundHooks: RefundHooks = {
  async lockOrder(tx, payNo) {
    const [order] = await tx.select().from(shopOrders).where(eq(shopOrders.pay_no, payNo)).for("update");
    return order && { paidFen: order.amount, sysid: order.sysid, sch_id: order.sch_id, student_id: order.student_id, gateway: order.gateway, columns: { shop_order_id: order.id } };
  },
  async refunded(tx, refund, now) {
    const [order] = await tx.select().from(shopOrders).where(eq(shopOrders.pay_no, refund.pay_no)).for("update");
    const refunded = order.refunded_amount + refund.amount;
    const all = refunded >= order.amount;
    await tx
      .update(shopOrders)
      .set({ refunded_amount: refunded, refund_status: all ? "all" : "part", ...(all && order.status !== "cancelled" ? { status: "cancelled", cancelled_at: now } : {}) })
      .where(eq(shopOrders.id, order.id));
    await orderEvent(tx, order, "shop_order_refunded", { amount: fenToYuan(refund.amount), refund_no: refund.refund_no ?? "", ...(all && order.status !== "cancelled" ? { from: order.status, to: "cancelled" } : {}) });
    // the money of one of its items' after-sales: that after-sale is done
    await afterSaleRefunded(tx, refund, now);
  },
};

registerPaymentKind({ ...SHOP_PAYMENT, refunds: shopRefundHooks });

/** shoporderrefund on a paid order, locked by the action engine: the provider's refund, accepted and sent at once. */
const shopOrderRefundEffect: ActionEffect = async ({ ctx, tx, row: order, input }) => {
  try {
    const refund = await createRefund(
      tx,
      { payNo: String(order.pay_no), amount: Number(input.amount), reason: String(input.reason), cause: "request", appliedBy: callerActor(ctx), acceptedBy: ctx.auth!.username },
      ctx.now,
    );
    return { messageKey: "refunds.accepted", messageParams: { amount: fenToYuan(refund!.amount), refund_no: refund!.refund_no ?? "" }, wakeJobs: true };
  } catch (err) {
    if (err instanceof RefundRefused) throw actionFieldFailure(ctx, "amount", err.messageKey, err.params);
    throw err;
  }
};

/** The engine's shop order actions: what each writes beside the state (delivering and receiving: ./fulfilment.ts, shared by every kind). */
export const shopOrderEffects: ActionEffects = {
  shoporderrefund: shopOrderRefundEffect,
};

/**
 * Closes an unpaid shop order at its gateway, which gives its stock back here (the payment kind's applyClosed). The
 * gateway is asked first: an order the payer paid meanwhile is applied, never closed. Answers the order's state
 * after; an unreachable gateway is a failure the caller may retry.
 */
export async function closeShopOrder(services: JobServices, db: Db, payNo: string, actor: AuditActor): Promise<string> {
  const [payment] = await db.select(unpaidOrderColumns).from(paymentOrders).where(eq(paymentOrders.payNo, payNo));
  try {
    await closeUnpaidOrder(services, db, payment, actor);
  } catch (err) {
    if (err instanceof GatewayRequestError) throw new ApiFailure("retail.errors.gateway_close_failed");
    throw err;
  }
  const [after] = await db.select({ status: shopOrders.status }).from(shopOrders).where(eq(shopOrders.pay_no, payNo));
  return after.status;
}

/** shopordercancel {id}: the provider closes an unpaid order of its schools (a payment found meanwhile keeps it). */
async function cancelOperation(ctx: OperationContext) {
  const id = parseTenantId(ctx.payload.id);
  if (id === undefined) throw notFound();
  const scope = await resolveScope(ctx.db, ctx.auth!, ctx.payload);
  const [order] = await ctx.db
    .select()
    .from(shopOrders)
    .where(and(eq(shopOrders.id, id), ...entityTenantConditions(shopOrderEntity, shopOrders, ctx, scope)));
  if (!order) throw notFound();
  if (order.status !== "unpaid") throw wrongState(ctx, shopOrderEntity, order.status, shopOrderCancel.label);
  const actor = callerActor(ctx);
  const status = await closeShopOrder(ctx.services, ctx.db, order.pay_no, actor);
  // paid before it could be closed (the gateway says so): the payment stands
  if (status !== "cancelled") throw new ApiFailure("retail.errors.paid_meanwhile");
  await orderEvent(ctx.db, order, shopOrderCancel.name, { from: "unpaid", to: "cancelled" }, actor);
  const [after] = await ctx.db.select().from(shopOrders).where(eq(shopOrders.id, id));
  return { messageKey: "api.action_done", messageParams: { action: ctx.t(shopOrderCancel.label) }, data: { items: serialiseRow(shopOrderEntity, after as unknown as Row) } };
}

export const COMPLETE_DELIVERED_ORDERS = "retail.complete_delivered_orders";
export const COMPLETE_DELIVERED_ORDERS_EVERY_SECONDS = 3600;

export function registerShopOrderOperations(registry: OperationRegistry): void {
  registry.add({ path: "adminapiv2", method: shopOrderCancel.name, needsToken: true, roles: shopOrderCancel.roles, effect: "write", handler: cancelOperation });
  if (!jobKinds.get(COMPLETE_DELIVERED_ORDERS)) registerJobKind(COMPLETE_DELIVERED_ORDERS, completeDeliveredOrders, { everySeconds: COMPLETE_DELIVERED_ORDERS_EVERY_SECONDS });
}

/** days after its delivery a fee order's goods the payer never said were received complete by themselves (a shop order: its provider's shop settings) */
export const SHOP_AUTO_COMPLETE_DAYS = 10;
/** the fewest days a provider's shop settings may give */
const FEWEST_AUTO_COMPLETE_DAYS = 1;
/** orders completed per run; the rest wait for the next run */
const MAX_COMPLETED_PER_RUN = 500;
const DAY_MS = 86_400_000;

/**
 * Completes the shop orders delivered longer ago than their provider's shop settings say, each audited on its
 * timeline, and the fee orders' goods sent SHOP_AUTO_COMPLETE_DAYS ago (./fulfilment.ts), in the same run.
 */
export async function completeDeliveredOrders({ services }: JobContext): Promise<{ completed: number; fee_orders: number }> {
  const now = services.clock.now();
  const cutoff = new Date(now.getTime() - SHOP_AUTO_COMPLETE_DAYS * DAY_MS);
  const actor = jobActor(COMPLETE_DELIVERED_ORDERS);
  const days = autoCompleteDaysSql(shopOrders.sysid);
  return services.db.transaction(async (tx) => {
    const due = tx
      .select({ id: shopOrders.id })
      .from(shopOrders)
      .where(
        and(
          eq(shopOrders.status, "delivered"),
          // read by the index on state and time up to the fewest days a provider may give, then each by its own
          lte(shopOrders.delivered_at, new Date(now.getTime() - FEWEST_AUTO_COMPLETE_DAYS * DAY_MS)),
          sql`${shopOrders.delivered_at} <= ${now.toISOString()}::timestamptz - ${days} * interval '1 day'`,
        ),
      )
      .orderBy(asc(shopOrders.delivered_at))
      .limit(MAX_COMPLETED_PER_RUN);
    // conditional: an order received or refunded meanwhile is left as it is
    const completed = await tx
      .update(shopOrders)
      .set({ status: "completed", completed_at: now })
      .where(and(inArray(shopOrders.id, due), eq(shopOrders.status, "delivered")))
      .returning();
    const daysOf = new Map<number, number>();
    for (const order of completed) {
      if (!daysOf.has(order.sysid)) daysOf.set(order.sysid, (await shopSettings(tx, order.sysid)).autoCompleteDays);
      await orderEvent(tx, order, "shop_order_auto_completed", { from: "delivered", to: "completed", days: daysOf.get(order.sysid)! }, actor);
    }
    const feeOrdersCompleted = await completeDeliveredFeeOrders(tx, cutoff, now, MAX_COMPLETED_PER_RUN);
    return { completed: completed.length, fee_orders: feeOrdersCompleted };
  });
}
