/**
 * After-sales of shop order items (catalogue/afterSales.ts): asked, returned, cancelled and followed on the payer page
 * (h5aftersaleadd, h5aftersalereturn, h5aftersalecancel, h5aftersales, with the ticket of the order's student), decided
 * in the console (aftersalereview, aftersalereceive, aftersaleretry). The money goes back as a refund of the order's
 * payment (server/payments/refunds.ts, kind `aftersale`, naming the after-sale), accepted when the provider agrees to
 * a refund without return or receives the goods; the refunds job sends it and asks after it under the same number
 * until the gateway ends it, and its success completes the after-sale (`afterSaleRefunded`, called by the shop
 * order's refund hooks). The item's stock comes back when the recorded decision says so, on agreeing or receiving,
 * once (`restocked_at`). An open after-sale holds its order's pickup back (./fulfilment.ts).
 *
 * One after-sale of an item is open at a time, and together they never ask more than the item's quantity and what it
 * paid: both checked under the order's row lock, which every after-sale of the order and every refund of its payment
 * take first.
 */
import { randomInt } from "node:crypto";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { AFTERSALE_DESCRIPTION_MAX, AFTERSALE_REASON_MAX, afterSaleEntity, afterSaleWays, COUNTED_AFTERSALE_STATES, OPEN_AFTERSALE_STATES, REFUNDING_AFTERSALE_STATES } from "../../../catalogue/afterSales";
import { expressCodeField, trackingNoField } from "../../../catalogue/fulfilment";
import { PAID_SHOP_ORDER_STATES } from "../../../catalogue/shopOrders";
import type { FieldDecl } from "../../../common/catalogue";
import { fenToYuan } from "../../../common/money";
import { callerActor, gatewayActor, payerActor, writeAudit, type AuditActor } from "../../auth/audit";
import { releaseAttempts, reserveAttempts, type ThrottleKey, type ThrottleRule } from "../../auth/throttle";
import type { DbOrTx } from "../../db/client";
import { aftersales, pickupRecords, refunds, shopOrderItems, shopOrders } from "../../db/schema";
import { actionFieldFailure, type ActionEffect, type ActionEffects, type ActionOutcome } from "../../engine/actions";
import { checkPayload } from "../../engine/declared";
import type { Row } from "../../engine/hooks";
import { translator } from "../../lib/i18n";
import { createRefund, queueSending, RefundRefused, refundsOfPayment, type Refund } from "../../payments/refunds";
import { ApiFailure, notFound } from "../../protocol/envelope";
import type { OperationContext, OperationRegistry } from "../../protocol/registry";
import { PAYER_API_PATH } from "../collection/payerApi";
import { ticketOf, type PayerTicket } from "../collection/payerTickets";
import { giveStockBack } from "./fulfilment";
import { returnAddress, shopSettings } from "./shopSettings";

type AfterSale = typeof aftersales.$inferSelect;

const DAY_MS = 86_400_000;
/** the payer's after-sales answered, newest first */
const MAX_PAYER_AFTERSALES = 50;

/** An entry on the after-sale's timeline. */
async function afterSaleEvent(tx: DbOrTx, sale: Pick<AfterSale, "id" | "sysid" | "sch_id">, action: string, detail: Record<string, unknown>, actor: AuditActor): Promise<void> {
  await writeAudit(tx, actor, { action, entity: afterSaleEntity.name, entityId: String(sale.id), sysid: sale.sysid, schId: sale.sch_id, detail });
}

/** A new after-sale's number: "AS", the business second it was asked (China time) and six random digits. */
function newAfterSaleNo(now: Date): string {
  const stamp = new Date(now.getTime() + 8 * 3_600_000).toISOString().replace(/\D/g, "").slice(0, 14);
  return `AS${stamp}${String(randomInt(1_000_000)).padStart(6, "0")}`;
}

// ---------------------------------------------------------------------------------------------------------------
// the money and the stock

/**
 * The after-sale's refund, accepted at once (a refund of the order's payment, kind `aftersale`): refused in the
 * words of the refund rules (what the payment still holds), naming the amount.
 */
async function refundAfterSale(ctx: OperationContext, tx: DbOrTx, sale: Row): Promise<Refund> {
  const [order] = await tx.select({ pay_no: shopOrders.pay_no }).from(shopOrders).where(eq(shopOrders.id, Number(sale.order_id)));
  try {
    const refund = await createRefund(
      tx,
      {
        payNo: order.pay_no,
        amount: Number(sale.amount),
        reason: translator("zh")("aftersales.refund_reason", { no: String(sale.aftersale_no) }),
        cause: "aftersale",
        appliedBy: callerActor(ctx),
        acceptedBy: ctx.auth!.username,
        aftersaleId: Number(sale.id),
      },
      ctx.now,
    );
    return refund!;
  } catch (err) {
    if (err instanceof RefundRefused) throw actionFieldFailure(ctx, "result", err.messageKey, err.params);
    throw err;
  }
}

/** The item's stock given back, once: the first to set `restocked_at` gives it. Answers whether this call did. */
async function restockOnce(tx: DbOrTx, saleId: number, now: Date): Promise<boolean> {
  const [taken] = await tx
    .update(aftersales)
    .set({ restocked_at: now })
    .where(and(eq(aftersales.id, saleId), eq(aftersales.restock, "Y"), sql`${aftersales.restocked_at} is null`))
    .returning({ item_id: aftersales.item_id, qty: aftersales.qty });
  if (!taken) return false;
  const [item] = await tx.select({ sku_id: shopOrderItems.sku_id, goods_id: shopOrderItems.goods_id }).from(shopOrderItems).where(eq(shopOrderItems.id, taken.item_id));
  await giveStockBack(tx, [{ ...item, qty: taken.qty }]);
  return true;
}

/**
 * A refund of an after-sale done at the gateway (the shop order's refund hooks call it in the transaction recording
 * the success): the after-sale completed, once.
 */
export async function afterSaleRefunded(tx: DbOrTx, refund: Refund, now: Date): Promise<void> {
  if (refund.aftersale_id === null) return;
  const [before] = await tx.select({ status: aftersales.status }).from(aftersales).where(eq(aftersales.id, refund.aftersale_id)).for("update");
  const [done] = await tx
    .update(aftersales)
    .set({ status: "completed", completed_at: now })
    .where(and(eq(aftersales.id, refund.aftersale_id), inArray(aftersales.status, [...REFUNDING_AFTERSALE_STATES])))
    .returning();
  if (!done) return;
  await afterSaleEvent(tx, done, "aftersale_refunded", { from: before.status, to: "completed", amount: fenToYuan(refund.amount), refund_no: refund.refund_no ?? "" }, gatewayActor());
}

// ---------------------------------------------------------------------------------------------------------------
// the provider's decisions

/** The restock decision the provider sent, if any. */
function decided(input: Row): "Y" | "N" | null {
  return input.restock === "Y" || input.restock === "N" ? input.restock : null;
}

/**
 * The restock decision recorded, the stock given back if it says so (once), and the refund accepted: what agreeing
 * to a refund without return and receiving returned goods both do. Answers the action's outcome.
 */
async function restockAndRefund(ctx: OperationContext, tx: DbOrTx, row: Row, restock: "Y" | "N", changes: Row): Promise<ActionOutcome> {
  await tx.update(aftersales).set({ restock }).where(eq(aftersales.id, Number(row.id)));
  const restocked = await restockOnce(tx, Number(row.id), ctx.now);
  const refund = await refundAfterSale(ctx, tx, row);
  return {
    changes: { ...changes, restock },
    messageKey: "aftersales.refund_accepted",
    messageParams: { amount: fenToYuan(refund.amount), refund_no: refund.refund_no ?? "" },
    audit: { detail: { refund_no: refund.refund_no, restocked } },
    wakeJobs: true,
  };
}

/**
 * aftersalereview: agreed, a refund without return is refunded at once (its stock back only if decided so: the goods
 * never left, or the payer keeps them); a return waits for the goods; refused, it ends with the reason.
 */
const reviewEffect: ActionEffect = async ({ ctx, tx, row, input }) => {
  const who = { reviewed_by: ctx.auth!.username, reviewed_at: ctx.now, review_reason: input.reason ?? null };
  if (input.result !== "agree") return { changes: { ...who, status: "refused" } };
  if (row.way === "return_refund") return { changes: { ...who, status: "agreed", restock: decided(input) } };
  return restockAndRefund(ctx, tx, row, decided(input) ?? "N", { ...who, status: "refunding" });
};

/** aftersalereceive: the goods back, refunded at once (back in stock unless decided otherwise); refused, it ends with the reason. */
const receiveEffect: ActionEffect = async ({ ctx, tx, row, input }) => {
  const who = { received_by: ctx.auth!.username, received_at: ctx.now, receive_reason: input.reason ?? null };
  if (input.result !== "receive") return { changes: who };
  // decided now, or as decided when agreeing, or yes: the goods are here
  return restockAndRefund(ctx, tx, row, decided(input) ?? (row.restock === "N" ? "N" : "Y"), who);
};

/**
 * aftersaleretry: the after-sale's refund asked of the gateway now, under its number (sent again if the gateway never
 * took it); one the gateway closed without paying is asked anew, under the payment's next number.
 */
const retryEffect: ActionEffect = async ({ ctx, tx, row }): Promise<ActionOutcome> => {
  const [refund] = await tx.select().from(refunds).where(eq(refunds.aftersale_id, Number(row.id))).orderBy(desc(refunds.id)).limit(1);
  if (refund && (refund.status === "processing" || refund.status === "abnormal")) {
    await queueSending(tx, refund.id, ctx.now);
    return { messageKey: "aftersales.retry_queued", messageParams: { refund_no: refund.refund_no ?? "" }, audit: { detail: { refund_no: refund.refund_no } }, wakeJobs: true };
  }
  if (refund?.status === "success") throw new ApiFailure("aftersales.errors.already_refunded");
  const asked = await refundAfterSale(ctx, tx, row);
  return { messageKey: "aftersales.refund_accepted", messageParams: { amount: fenToYuan(asked.amount), refund_no: asked.refund_no ?? "" }, audit: { detail: { refund_no: asked.refund_no } }, wakeJobs: true };
};

export const afterSaleEffects: ActionEffects = {
  aftersalereview: reviewEffect,
  aftersalereceive: receiveEffect,
  aftersaleretry: retryEffect,
};

// ---------------------------------------------------------------------------------------------------------------
// the payer page

const ticketField: FieldDecl = { name: "ticket", type: "string", label: "aftersales.field.ticket", required: true, max: 100 };
const idField = (name: string, label: string): FieldDecl => ({ name, type: "int", label, required: true, min: 1, max: 2_147_483_647 });

/** h5aftersaleadd {ticket, order_id, item_id, way, qty, amount, reason, description, images} */
const applyFields: FieldDecl[] = [
  ticketField,
  idField("order_id", "retail.entity.shoporder"),
  idField("item_id", "aftersales.field.item"),
  { name: "way", type: "enum", label: "aftersales.field.way", required: true, options: afterSaleWays },
  { name: "qty", type: "int", label: "retail.field.qty", required: true, min: 1, max: 99 },
  { name: "amount", type: "money", label: "aftersales.field.amount", required: true, min: 0.01 },
  { name: "reason", type: "string", label: "aftersales.field.reason", required: true, max: AFTERSALE_REASON_MAX },
  { name: "description", type: "text", label: "aftersales.field.description", max: AFTERSALE_DESCRIPTION_MAX },
  { name: "images", type: "images", label: "aftersales.field.images", max: 9 },
];
/** h5aftersalereturn {ticket, id, express_code, tracking_no} */
const returnFields: FieldDecl[] = [ticketField, idField("id", "aftersales.entity.aftersale"), expressCodeField, trackingNoField];
/** h5aftersalecancel {ticket, id} */
const cancelFields: FieldDecl[] = [ticketField, idField("id", "aftersales.entity.aftersale")];
/** h5aftersales {ticket} */
const listFields: FieldDecl[] = [ticketField];

type ReturnAddress = Awaited<ReturnType<typeof returnAddress>>;

/** An after-sale as the payer follows it; one whose goods are to be sent back says where. */
function payerAnswer(sale: AfterSale, sendTo: ReturnAddress = null) {
  return {
    id: sale.id,
    aftersale_no: sale.aftersale_no,
    order_id: sale.order_id,
    item_id: sale.item_id,
    title: sale.title,
    spec_values: sale.spec_values,
    way: sale.way,
    qty: sale.qty,
    amount: fenToYuan(sale.amount),
    reason: sale.reason,
    description: sale.description,
    images: sale.images ?? [],
    status: sale.status,
    review_reason: sale.review_reason,
    receive_reason: sale.receive_reason,
    express_code: sale.express_code,
    tracking_no: sale.tracking_no,
    created_at: sale.created_at.toISOString(),
    completed_at: sale.completed_at?.toISOString() ?? null,
    return_address: sale.status === "agreed" || sale.status === "returning" ? sendTo : null,
  };
}

/** The ticket's student's after-sale with this id, locked; not found for anyone else's. */
async function ticketAfterSale(tx: DbOrTx, ticket: { studentId: number; schId: number }, id: number): Promise<AfterSale> {
  const [sale] = await tx
    .select()
    .from(aftersales)
    .where(and(eq(aftersales.id, id), eq(aftersales.student_id, ticket.studentId), eq(aftersales.sch_id, ticket.schId)))
    .for("update");
  if (!sale) throw notFound();
  return sale;
}

/** What a payer asks of an item. */
export interface AfterSaleAsked {
  way: AfterSale["way"];
  qty: number;
  /** fen */
  amount: number;
  reason: string;
  description: string | null;
  images?: string[] | null;
}

/**
 * A new after-sale of the order's item, asked (the payer's call, and the demo's), with the first entry of its
 * timeline; an order collected at a pickup point names the clerk who handed it over. The rules are the caller's.
 */
export async function recordAfterSale(
  tx: DbOrTx,
  order: typeof shopOrders.$inferSelect,
  item: typeof shopOrderItems.$inferSelect,
  asked: AfterSaleAsked,
  now: Date,
  actor: AuditActor,
): Promise<AfterSale> {
  const [handed] = await tx.select({ name: pickupRecords.verifier_name }).from(pickupRecords).where(eq(pickupRecords.order_id, order.id));
  const [sale] = await tx
    .insert(aftersales)
    .values({
      aftersale_no: newAfterSaleNo(now),
      order_id: order.id,
      item_id: item.id,
      sch_id: order.sch_id,
      sysid: order.sysid,
      student_id: order.student_id,
      pickup_point_id: order.pickup_point_id,
      handed_over_by: handed?.name ?? null,
      title: item.title,
      spec_values: item.spec_values,
      ...asked,
      images: asked.images ?? null,
      status: "applied",
      created_at: now,
    })
    .returning();
  await writeAudit(tx, actor, {
    action: "aftersale_applied",
    entity: afterSaleEntity.name,
    entityId: String(sale.id),
    sysid: sale.sysid,
    schId: sale.sch_id,
    detail: { to: "applied", way: sale.way, qty: sale.qty, amount: fenToYuan(sale.amount), order_no: order.order_no },
    at: now,
  });
  return sale;
}

/** After-sales asked from one address (a school's parents may share one) and for one student, within ten minutes. */
const AFTERSALES_PER_IP: ThrottleRule = { maxFailures: 30, windowMs: 10 * 60_000, firstLockMs: 10 * 60_000, maxLockMs: 60 * 60_000 };
export const AFTERSALES_PER_STUDENT: ThrottleRule = { maxFailures: 10, windowMs: 10 * 60_000, firstLockMs: 10 * 60_000, maxLockMs: 60 * 60_000 };

/**
 * h5aftersaleadd: an after-sale of one item of the ticket's student's paid order, within the shop's days after the
 * order completed; goods to return must have reached the payer. Within the item's quantity and what it paid, less what its
 * other after-sales ask or got, and within what the payment still holds.
 */
async function apply(ctx: OperationContext) {
  const input = checkPayload(ctx, applyFields);
  const ticket = await ticketOf(ctx.db, input.ticket, ctx.now);
  // each asked counts against the address and the student; one refused is given back
  const asked: ThrottleKey[] = [
    { key: `h5aftersale:ip:${ctx.ip}`, rule: AFTERSALES_PER_IP },
    { key: `h5aftersale:student:${ticket.studentId}`, rule: AFTERSALES_PER_STUDENT },
  ];
  const lockedMs = await reserveAttempts(ctx.db, asked, ctx.now);
  if (lockedMs > 0) throw new ApiFailure("collection.payer.throttled", { minutes: Math.max(1, Math.ceil(lockedMs / 60_000)) });
  const answered = await applyChecked(ctx, input, ticket).catch(async (err: unknown) => {
    await releaseAttempts(ctx.db, asked.map((k) => k.key));
    throw err;
  });
  return { messageKey: "aftersales.applied", data: { items: answered } };
}

async function applyChecked(ctx: OperationContext, input: Row, ticket: PayerTicket) {
  return ctx.db.transaction(async (tx) => {
    const [order] = await tx
      .select()
      .from(shopOrders)
      .where(and(eq(shopOrders.id, Number(input.order_id)), eq(shopOrders.student_id, ticket.studentId), eq(shopOrders.sch_id, ticket.schId)))
      .for("update");
    if (!order) throw notFound();
    if (!(PAID_SHOP_ORDER_STATES as readonly string[]).includes(order.status)) throw actionFieldFailure(ctx, "order_id", "aftersales.errors.order_not_paid");
    if (input.way === "return_refund" && order.status === "undelivered") throw actionFieldFailure(ctx, "way", "aftersales.errors.nothing_to_return");
    const { afterSaleDays } = await shopSettings(tx, order.sysid);
    if (order.status === "completed" && order.completed_at && ctx.now.getTime() - order.completed_at.getTime() > afterSaleDays * DAY_MS) {
      throw actionFieldFailure(ctx, "order_id", "aftersales.errors.window_passed", { days: afterSaleDays });
    }
    const [item] = await tx.select().from(shopOrderItems).where(and(eq(shopOrderItems.id, Number(input.item_id)), eq(shopOrderItems.order_id, order.id)));
    if (!item) throw actionFieldFailure(ctx, "item_id", "aftersales.errors.item_unknown");
    const others = await tx.select().from(aftersales).where(eq(aftersales.item_id, item.id));
    const open = others.find((other) => (OPEN_AFTERSALE_STATES as readonly string[]).includes(other.status));
    if (open) throw actionFieldFailure(ctx, "item_id", "aftersales.errors.open_exists", { aftersale_no: open.aftersale_no });
    const counted = others.filter((other) => (COUNTED_AFTERSALE_STATES as readonly string[]).includes(other.status));
    const qtyLeft = item.qty - counted.reduce((sum, other) => sum + other.qty, 0);
    if (Number(input.qty) > qtyLeft) throw actionFieldFailure(ctx, "qty", "aftersales.errors.qty_over", { max: Math.max(0, qtyLeft) });
    // what the item paid less its other after-sales, and what the payment still holds (a refund by the provider too)
    const { committed } = await refundsOfPayment(tx, order.pay_no);
    const amountLeft = Math.min(item.amount - counted.reduce((sum, other) => sum + other.amount, 0), order.amount - committed);
    if (Number(input.amount) > amountLeft) throw actionFieldFailure(ctx, "amount", "aftersales.errors.amount_over", { max: fenToYuan(Math.max(0, amountLeft)) });
    const sale = await recordAfterSale(
      tx,
      order,
      item,
      { way: input.way as AfterSale["way"], qty: Number(input.qty), amount: Number(input.amount), reason: String(input.reason), description: (input.description as string | null) ?? null, images: (input.images as string[] | null) ?? null },
      ctx.now,
      payerActor(ctx.ip),
    );
    return payerAnswer(sale);
  });
}

/** h5aftersalereturn: the goods of an agreed return sent back, with the express company and tracking number. */
async function sendBack(ctx: OperationContext) {
  const input = checkPayload(ctx, returnFields);
  const ticket = await ticketOf(ctx.db, input.ticket, ctx.now);
  const answered = await ctx.db.transaction(async (tx) => {
    const sale = await ticketAfterSale(tx, ticket, Number(input.id));
    if (sale.status !== "agreed") throw actionFieldFailure(ctx, "id", "aftersales.errors.not_agreed");
    const [returned] = await tx
      .update(aftersales)
      .set({ status: "returning", express_code: String(input.express_code), tracking_no: String(input.tracking_no), returned_at: ctx.now })
      .where(eq(aftersales.id, sale.id))
      .returning();
    await afterSaleEvent(tx, returned, "aftersale_returned", { from: "agreed", to: "returning", express_code: returned.express_code, tracking_no: returned.tracking_no }, payerActor(ctx.ip));
    return payerAnswer(returned);
  });
  return { data: { items: answered } };
}

/** h5aftersalecancel: an after-sale withdrawn while nothing was refunded yet (asked, agreed, or on its way back). */
async function cancel(ctx: OperationContext) {
  const input = checkPayload(ctx, cancelFields);
  const ticket = await ticketOf(ctx.db, input.ticket, ctx.now);
  const answered = await ctx.db.transaction(async (tx) => {
    const sale = await ticketAfterSale(tx, ticket, Number(input.id));
    if (!["applied", "agreed", "returning"].includes(sale.status)) throw actionFieldFailure(ctx, "id", "aftersales.errors.not_cancellable");
    const [cancelled] = await tx.update(aftersales).set({ status: "cancelled" }).where(eq(aftersales.id, sale.id)).returning();
    await afterSaleEvent(tx, cancelled, "aftersale_cancelled", { from: sale.status, to: "cancelled" }, payerActor(ctx.ip));
    return payerAnswer(cancelled);
  });
  return { data: { items: answered } };
}

/** h5aftersales: the ticket's student's after-sales, newest first. */
async function list(ctx: OperationContext) {
  const input = checkPayload(ctx, listFields);
  const ticket = await ticketOf(ctx.db, input.ticket, ctx.now);
  const rows = await ctx.db
    .select()
    .from(aftersales)
    .where(and(eq(aftersales.student_id, ticket.studentId), eq(aftersales.sch_id, ticket.schId)))
    .orderBy(desc(aftersales.id))
    .limit(MAX_PAYER_AFTERSALES);
  const sendTo = rows.some((sale) => sale.status === "agreed" || sale.status === "returning") ? await returnAddress(ctx.db, ticket.sysid) : null;
  return { data: { items: rows.map((sale) => payerAnswer(sale, sendTo)) } };
}

export function registerAfterSaleApi(registry: OperationRegistry): void {
  registry.add({ path: PAYER_API_PATH, method: "h5aftersaleadd", needsToken: false, handler: apply });
  registry.add({ path: PAYER_API_PATH, method: "h5aftersalereturn", needsToken: false, handler: sendBack });
  registry.add({ path: PAYER_API_PATH, method: "h5aftersalecancel", needsToken: false, handler: cancel });
  registry.add({ path: PAYER_API_PATH, method: "h5aftersales", needsToken: false, handler: list });
}

