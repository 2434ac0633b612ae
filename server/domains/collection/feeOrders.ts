/**
 * Fee orders (catalogue/collectionOrders.ts `order`): a payer's payment of one or several bills of a student, paid
 * to the school's channel. Its payment order (payment_orders, kind `fee`, registered here) carries the gateway's
 * side; the fee order, its lines (the bills) and its timeline carry the school's.
 *
 * Paying (the kind's applyPaid, inside applyPaidOrder's transaction, under the payment order's row lock): the
 * order's bills are locked in id order, each one still unpaid (or closed meanwhile) becomes paid; a bill another
 * order paid first (two payers at once) leaves this order paid but flagged `duplicate` "Y" and audited, for a
 * refund. A line whose amount is no longer its bill's (the bill was adjusted while the order was open) still pays it,
 * with what was paid, but leaves it `amount_differs` for the school to settle by hand: the money is never lost and
 * the board counts it. Either way the order gets the school's next voucher number of the year (receiptNumbers.ts). The other
 * open orders holding the bills just paid are closed at their gateway by a job enqueued in the same transaction (so
 * it exists exactly when the payment committed, and a gateway failure is retried). Nothing here touches a term.
 */
import { and, asc, eq, inArray, ne, sql, type SQL } from "drizzle-orm";
import { fenToYuan } from "../../../common/money";
import { callerActor, jobActor, writeAudit, type AuditActor } from "../../auth/audit";
import { queryRows, type DbOrTx } from "../../db/client";
import { activities, activityItems, bills, feeOrderGoods, feeOrderLines, feeOrders, feePayments, goods, goodsSkus, paymentOrders, schools } from "../../db/schema";
import type { EntityHooks } from "../../engine/hooks";
import { enqueueJob } from "../../jobs/worker";
import type { JobContext } from "../../jobs/registry";
import { closeUnpaidOrder, unpaidOrderColumns } from "../../jobs/closeExpiredOrders";
import { registerPaymentKind, type PaymentKind } from "../../payments/kinds";
import { addToFeeDaily, paymentShares } from "./feeDaily";
import { paymentNotices } from "../notices";
import { createPaymentOrder, type ChannelPayee, type CreatedPaymentOrder, type NewOrder, type OrderContext } from "../../payments/orders";
import type { OperationContext } from "../../protocol/registry";
import { ApiFailure, notFound } from "../../protocol/envelope";
import { collectionSettings, schoolChannel } from "../fees";
import { nextReceiptNo } from "./receiptNumbers";
import { addOrderEvent } from "./orderEvents";
import { feeRefundHooks, refundDuplicatePayment } from "./refunds";
import { chosenDelivery, fieldRefusal, giveStockBack, newPickupCode, takeStock, type Address } from "../retail/fulfilment";
import { queueReceipts } from "../devices/printing";

export const FEE_KIND = "fee";
export const CLOSE_SIBLING_ORDERS = "collection.close_sibling_orders";
/** the states of a payment order the payer may still pay */
const OPEN_PAYMENTS = ["NOTPAY", "USERPAYING"];
/** the most bills one order pays */
export const MAX_BILLS_PER_ORDER = 20;
/** WeChat Pay's description is at most 127 bytes: a title of this many characters stays well within */
const DESCRIPTION_CHARS = 30;

/** The fee order of a payment order, or undefined. */
async function feeOrderOf(tx: DbOrTx, payNo: string) {
  const [row] = await tx.select().from(feeOrders).where(eq(feeOrders.pay_no, payNo));
  return row;
}

/**
 * Settles a paid fee order's bills: the bills still unpaid (or closed while it was open) become paid, or
 * `amount_differs` when the line paid another amount than the bill's own now (paid_amount is what came in); the order
 * is paid, flagged duplicate when any of its bills had been paid by another order, and its payment is recorded in the
 * ledger. Answers the bills it paid.
 */
export async function settleFeeOrder(tx: DbOrTx, payNo: string, paid: { transactionId: string; paidAt: Date }, actor: AuditActor, now: Date): Promise<{ orderId: number; paidBills: number[]; duplicate: boolean }> {
  const order = await feeOrderOf(tx, payNo);
  if (!order) throw new Error(`fee payment ${payNo} has no fee order`);
  // its bills locked in id order: two orders paying the same bill at once follow each other here
  const held = await queryRows<{ id: number; status: string }>(
    tx,
    sql`SELECT b.id, b.status FROM ${bills} b JOIN ${feeOrderLines} l ON l.bill_id = b.id WHERE l.order_id = ${order.id} ORDER BY b.id FOR UPDATE OF b`,
  );
  const paidBills = await queryRows<{ id: number; status: string; amount: number; paid_amount: number }>(
    tx,
    sql`UPDATE ${bills} SET status = CASE WHEN l.amount = ${bills}.amount THEN 'paid' ELSE 'amount_differs' END,
          paid_amount = l.amount, paid_at = ${paid.paidAt.toISOString()}::timestamptz
        FROM ${feeOrderLines} l
        WHERE l.order_id = ${order.id} AND ${bills}.id = l.bill_id AND ${bills}.status IN ('unpaid', 'closed')
        RETURNING ${bills}.id, ${bills}.status, ${bills}.amount, ${bills}.paid_amount`,
  );
  const differing = paidBills.filter((b) => b.status === "amount_differs");
  const duplicate = paidBills.length < held.length;
  // the lines whose bills this order paid; the others (a duplicate payment's) are refunded below
  if (paidBills.length > 0) {
    await tx
      .update(feeOrderLines)
      .set({ settled: "Y" })
      .where(and(eq(feeOrderLines.order_id, order.id), inArray(feeOrderLines.bill_id, paidBills.map((b) => Number(b.id)))));
  }
  // a duplicate is money paid too: it gets its voucher number; taken after the bills' locks, the counter's is held last
  const receiptNo = order.receipt_no ?? (await nextReceiptNo(tx, order.sch_id, paid.paidAt));
  await tx
    .update(feeOrders)
    .set({ status: "paid", paid_at: paid.paidAt, transaction_id: paid.transactionId, duplicate: duplicate ? "Y" : "N", receipt_no: receiptNo })
    .where(eq(feeOrders.id, order.id));
  await addOrderEvent(tx, order, duplicate ? "duplicate" : "paid", now, paid.transactionId);
  if (differing.length > 0) {
    // each bill: what this order paid for it, and what it owes now
    const note = differing.map((b) => `#${b.id} ${fenToYuan(Number(b.paid_amount))}/${fenToYuan(Number(b.amount))}`).join(", ");
    await addOrderEvent(tx, order, "amount_differs", now, note.slice(0, 200));
    await writeAudit(tx, actor, {
      action: "fee_amount_differs",
      entity: "order",
      entityId: String(order.id),
      detail: { pay_no: payNo, bills: differing.map((b) => ({ id: Number(b.id), paid_fen: Number(b.paid_amount), amount_fen: Number(b.amount) })) },
      sysid: order.sysid,
      schId: order.sch_id,
    });
  }
  // the ledger of the money in (payrecord): a duplicate was paid too
  await tx.insert(feePayments).values({
    pay_no: payNo,
    order_id: order.id,
    sch_id: order.sch_id,
    sysid: order.sysid,
    student_id: order.student_id,
    class_id: order.class_id,
    activity_id: order.activity_id,
    activity_count: order.activity_count,
    amount: order.amount,
    paid_at: paid.paidAt,
    paychnl_id: order.paychnl_id,
    gateway: order.gateway,
    transaction_id: paid.transactionId,
    duplicate: duplicate ? "Y" : "N",
  });
  for (const share of await paymentShares(tx, order)) {
    await addToFeeDaily(tx, { at: paid.paidAt, sysid: order.sysid, sch_id: order.sch_id, class_id: order.class_id, activity_id: share.activity_id, orders: share.orders, paid: share.amount });
  }
  await paymentNotices(tx, { sysid: order.sysid, sch_id: order.sch_id, student_id: order.student_id, activity_id: order.activity_id, activity_count: order.activity_count, pay_no: payNo, amount: order.amount, at: paid.paidAt }, now);
  if (duplicate) {
    await writeAudit(tx, actor, {
      action: "fee_duplicate_payment",
      entity: "order",
      entityId: String(order.id),
      detail: { pay_no: payNo, transaction_id: paid.transactionId, bills: held.map((b) => b.id), paid_before: held.filter((b) => !paidBills.some((p) => Number(p.id) === Number(b.id))).map((b) => b.id) },
      sysid: order.sysid,
      schId: order.sch_id,
    });
    // what it paid for bills already paid goes back by itself
    await refundDuplicatePayment(tx, order.id, now);
  }
  const ids = paidBills.map((b) => Number(b.id));
  if (ids.length > 0) {
    // the other open orders for these bills can no longer be paid for them: closed at their gateway after commit
    const siblings = await tx
      .selectDistinct({ payNo: feeOrders.pay_no })
      .from(feeOrderLines)
      .innerJoin(feeOrders, eq(feeOrders.id, feeOrderLines.order_id))
      .where(and(inArray(feeOrderLines.bill_id, ids), ne(feeOrders.id, order.id), eq(feeOrders.status, "unpaid")));
    if (siblings.length > 0) await enqueueJob(tx, CLOSE_SIBLING_ORDERS, { pay_nos: siblings.map((s) => s.payNo).sort() }, { now });
  }
  return { orderId: order.id, paidBills: ids, duplicate };
}

/** The goods a fee order carries: what each took of its SKU's stock. */
function goodsOf(tx: DbOrTx, orderId: number) {
  return tx.select({ sku_id: feeOrderGoods.sku_id, goods_id: feeOrderGoods.goods_id, qty: feeOrderGoods.qty, title: feeOrderGoods.title }).from(feeOrderGoods).where(eq(feeOrderGoods.order_id, orderId)).orderBy(asc(feeOrderGoods.sku_id));
}

/**
 * A paid fee order carrying goods waits for them to be sent or collected (undelivered), a pickup with its code and
 * QR token (free among the provider's open pickup orders of every kind). Paid after it closed, its stock was given
 * back: taken again when there; else the timeline says which goods are short, and the order still waits for them
 * (its fees are paid: the provider restocks and sends them).
 */
async function fulfilPaidOrder(tx: DbOrTx, before: typeof feeOrders.$inferSelect, actor: AuditActor, now: Date): Promise<void> {
  if (before.fulfil_status) return;
  if (before.status === "closed") {
    const lines = await goodsOf(tx, before.id);
    const short = await takeStock(tx, lines);
    if (short !== null) {
      await giveStockBack(tx, lines, short);
      await addOrderEvent(tx, before, "goods_short", now, lines.find((l) => l.sku_id === short)!.title.slice(0, 200));
      await writeAudit(tx, actor, { action: "fee_goods_short", entity: "order", entityId: String(before.id), detail: { sku_id: short }, sysid: before.sysid, schId: before.sch_id });
    }
  }
  await tx
    .update(feeOrders)
    .set({ fulfil_status: "undelivered", ...(before.delivery === "pickup" ? await newPickupCode(tx, before.sysid) : {}) })
    .where(eq(feeOrders.id, before.id));
}

/** A fee: paid to the school's channel; paying settles the order's bills and never touches a term. */
export const FEE_PAYMENT: PaymentKind = {
  kind: FEE_KIND,
  payee: "school_channel",
  async applyPaid(tx, order, actor, now, paid) {
    const before = await feeOrderOf(tx, order.payNo);
    await settleFeeOrder(tx, order.payNo, paid, actor, now);
    if (before?.delivery) await fulfilPaidOrder(tx, before, actor, now);
    if (before) await queueReceipts(tx, { kind: "fee_order", orderNo: before.order_no, sysid: before.sysid, schId: before.sch_id }, now);
    return { appliedEnd: null };
  },
  async applyClosed(tx, order, now, reason) {
    const [closed] = await tx
      .update(feeOrders)
      .set({ status: "closed" })
      .where(and(eq(feeOrders.pay_no, order.payNo), eq(feeOrders.status, "unpaid")))
      .returning();
    if (!closed) return;
    // the one move to closed gives its goods' stock back: a close told twice finds it closed already
    if (closed.delivery) await giveStockBack(tx, await goodsOf(tx, closed.id));
    // closed here only, its merchant removed: the timeline says so, with the merchant's number
    await addOrderEvent(tx, closed, reason ?? "closed", now, reason === "merchant_gone" ? order.spMerchantId || order.merchantId : null);
  },
  refunds: feeRefundHooks,
  async lines(db, order) {
    const rows = await db
      .select({ title: feeOrderLines.title, amount: feeOrderLines.amount })
      .from(feeOrderLines)
      .innerJoin(feeOrders, eq(feeOrders.id, feeOrderLines.order_id))
      .where(eq(feeOrders.pay_no, order.payNo))
      .orderBy(asc(feeOrderLines.sort), asc(feeOrderLines.id));
    return rows.map((row) => ({ title: row.title, amountFen: Number(row.amount) }));
  },
};

registerPaymentKind(FEE_PAYMENT);

/**
 * The activity filter of an order, or of its payment, finds it by any of its lines' activities: its own (the first
 * line's), or, for the few orders paying bills of several activities (their own index), a line's bill of it.
 */
function byAnyActivity(orderId: SQL, activityId: SQL, activityCount: SQL) {
  return (value: unknown): SQL =>
    sql`(${activityId} = ${value} or (${activityCount} > 1 and exists (
          select 1 from ${feeOrderLines} l join ${bills} b on b.id = l.bill_id where l.order_id = ${orderId} and b.activity_id = ${value})))`;
}

export const feeOrderHooks: EntityHooks = {
  filters: { activity_id: byAnyActivity(sql`${feeOrders.id}`, sql`${feeOrders.activity_id}`, sql`${feeOrders.activity_count}`) },
};

export const feePaymentHooks: EntityHooks = {
  filters: { activity_id: byAnyActivity(sql`${feePayments.order_id}`, sql`${feePayments.activity_id}`, sql`${feePayments.activity_count}`) },
};

/** A bill the payer may pay, with what its order line needs. */
interface PayableBill {
  id: number;
  amount: number;
  status: string;
  class_id: number;
  activity_id: number;
  activity_title: string;
  activity_status: string;
}

export interface NewFeeOrder {
  studentId: number;
  schId: number;
  billIds: readonly number[];
  /** the size (SKU) chosen of each goods item of the bills' activities (`item_id`: the activity item naming the goods) */
  goods?: readonly { item_id: number; sku_id: number }[];
  /** how the goods reach the payer, when the bills carry any */
  delivery?: "pickup" | "express";
  pickupPointId?: number;
  address?: Address;
  /** the payer inside WeChat (their openid in an app): a JSAPI order when the school's channel can take one */
  payer?: NewOrder["payer"];
}

/** An activity item that is goods (a uniform): the bills of its activity carry it, in a size the payer chooses. */
export interface GoodsItem {
  item_id: number;
  activity_id: number;
  title: string;
  goods_id: number;
  goods_title: string;
  /** how the goods item may be received: "express", "pickup" or "both" */
  delivery: string;
  images: string[] | null;
}

/** The goods items the bills of these activities carry: their required fixed items that name goods. */
export async function goodsItemsOf(db: DbOrTx, activityIds: readonly number[]): Promise<GoodsItem[]> {
  if (activityIds.length === 0) return [];
  return db
    .select({ item_id: activityItems.id, activity_id: activityItems.activity_id, title: activityItems.title, goods_id: goods.id, goods_title: goods.title, delivery: goods.delivery, images: goods.images })
    .from(activityItems)
    .innerJoin(goods, eq(goods.id, activityItems.goods_id))
    .where(and(inArray(activityItems.activity_id, [...activityIds]), eq(activityItems.required, "Y"), eq(activityItems.amount_mode, "fixed")))
    .orderBy(asc(activityItems.activity_id), asc(activityItems.sort), asc(activityItems.id));
}

/**
 * What an order of bills carrying goods takes: the SKU chosen of each goods item (one of its goods item's, each goods
 * item chosen once), and how it reaches the payer; refused naming the field (`goods`, `delivery`, `pickup_point_id`,
 * `address`) otherwise. None when the bills carry no goods: what was sent of goods is then ignored.
 */
async function chosenGoods(ctx: OrderContext, sysid: number, request: NewFeeOrder, found: readonly { id: number; activity_id: number }[]) {
  const items = await goodsItemsOf(ctx.db, [...new Set(found.map((b) => b.activity_id))]);
  if (items.length === 0) return null;
  const chosen = new Map((request.goods ?? []).map((g) => [g.item_id, g.sku_id]));
  const skuIds = [...new Set(chosen.values())];
  const skus = skuIds.length === 0 ? [] : await ctx.db.select().from(goodsSkus).where(inArray(goodsSkus.id, skuIds));
  const lines = items.map((item, sort) => {
    const sku = skus.find((s) => s.id === chosen.get(item.item_id) && s.goods_id === item.goods_id);
    if (!sku) throw fieldRefusal(ctx.language, "goods", "collection.payer.choose_size", { title: item.title });
    if (item.delivery !== "both" && item.delivery !== request.delivery && request.delivery) throw fieldRefusal(ctx.language, "delivery", "retail.shop.delivery_unavailable", { title: item.goods_title });
    const bill = found.find((b) => b.activity_id === item.activity_id)!;
    return { sort, bill_id: bill.id, goods_id: item.goods_id, sku_id: sku.id, title: item.goods_title.slice(0, 60), spec_values: sku.spec_values, image: sku.image ?? item.images?.[0] ?? null, qty: 1, stock: sku.stock };
  });
  const [school] = await ctx.db.select({ id: schools.id }).from(schools).where(and(eq(schools.id, request.schId), eq(schools.sysid, sysid)));
  if (!school) throw notFound();
  const fulfilment = await chosenDelivery(ctx.db, ctx.language, { sysid, schId: request.schId, delivery: request.delivery, pickupPointId: request.pickupPointId, address: request.address });
  return { lines, fulfilment };
}

/** A size chosen whose stock ran out, named with what is left. */
function soldOut(ctx: OrderContext, line: { title: string; spec_values: Record<string, string>; stock: number }): ApiFailure {
  const specs = Object.entries(line.spec_values)
    .map(([name, value]) => `${name} ${value}`)
    .join(" · ");
  return fieldRefusal(ctx.language, "goods", "retail.shop.sold_out", { title: line.title, specs, stock: line.stock });
}

/**
 * Makes a fee order for bills of one student: only the student's own unpaid bills of open activities (another
 * student's bill is not found; the student's own paid or closed bill is refused as not payable). A bill that has an
 * open order already may get another: the first paid settles it, the other is closed or flagged (settleFeeOrder).
 */
export async function createFeeOrder(ctx: OrderContext, request: NewFeeOrder): Promise<{ payment: CreatedPaymentOrder; orderId: number }> {
  const ids = [...new Set(request.billIds)];
  if (ids.length === 0 || ids.length > MAX_BILLS_PER_ORDER) throw new ApiFailure("collection.payer.bills_invalid");
  const found = (await ctx.db
    .select({
      id: bills.id,
      amount: bills.amount,
      status: bills.status,
      class_id: bills.class_id,
      activity_id: bills.activity_id,
      activity_title: activities.title,
      activity_status: activities.status,
    })
    .from(bills)
    .innerJoin(activities, eq(activities.id, bills.activity_id))
    .where(and(inArray(bills.id, ids), eq(bills.student_id, request.studentId), eq(bills.sch_id, request.schId)))
    .orderBy(asc(bills.id))) as PayableBill[];
  // a bill of anyone else is no bill at all to this payer
  if (found.length !== ids.length) throw notFound();
  if (found.some((b) => b.status !== "unpaid" || b.activity_status !== "open" || b.amount <= 0)) throw new ApiFailure("collection.payer.not_payable");
  const [school] = await ctx.db.select({ sysid: schools.sysid }).from(schools).where(eq(schools.id, request.schId));
  const channel = await schoolChannel(ctx.db, request.schId);
  if (!school || !channel) throw new ApiFailure("collection.payer.no_channel");
  const settings = await collectionSettings(ctx.db, school.sysid);
  // the bills' goods (a uniform): the sizes chosen and how they reach the payer, their stock taken with the order
  const carried = await chosenGoods(ctx, school.sysid, request, found);
  const shortAsRead = carried?.lines.find((l) => l.stock < l.qty);
  if (shortAsRead) throw soldOut(ctx, shortAsRead);
  const total = found.reduce((sum, b) => sum + Number(b.amount), 0);
  const activityIds = new Set(found.map((b) => b.activity_id));
  const title = found[0].activity_title.slice(0, DESCRIPTION_CHARS);
  let orderId = 0;
  const payment = await createPaymentOrder(
    ctx,
    {
      kind: FEE_KIND,
      sysid: school.sysid,
      schId: request.schId,
      mealId: null,
      title,
      termMonths: 0,
      totalFeeFen: total,
      channel: { gateway: channel.gateway, subMchid: channel.sub_mchid } satisfies ChannelPayee,
      payableMs: settings.orderTimeoutMinutes * 60_000,
      payer: request.payer,
      // a total over the ceiling is refused naming the bills, by their activities
      items: found.map((b) => b.activity_title),
    },
    async (tx, row) => {
      // held until the order is recorded: a bill adjusted or waived meanwhile is refused here, and one being adjusted
      // now waits for it and is then refused too (billadjust finds this order open)
      const current = await queryRows<{ id: number; amount: number; status: string }>(
        tx,
        sql`SELECT id, amount, status FROM ${bills} WHERE id IN (${sql.join(ids.map((id) => sql`${id}`), sql`, `)}) ORDER BY id FOR SHARE`,
      );
      const chosen = new Map(found.map((b) => [Number(b.id), Number(b.amount)]));
      if (current.length !== found.length || current.some((b) => b.status !== "unpaid" || Number(b.amount) !== chosen.get(Number(b.id)))) throw new ApiFailure("collection.payer.not_payable");
      const [order] = await tx
        .insert(feeOrders)
        .values({
          order_no: row.orderid,
          pay_no: row.payNo,
          sysid: school.sysid,
          sch_id: request.schId,
          student_id: request.studentId,
          class_id: found[0].class_id,
          // bills of several activities: named by the first line's, with their count
          activity_id: found[0].activity_id,
          activity_count: activityIds.size,
          amount: total,
          status: "unpaid",
          gateway: row.gateway,
          paychnl_id: channel.id,
          created_at: row.createdAt,
          ...(carried?.fulfilment ?? {}),
        })
        .returning({ id: feeOrders.id, sch_id: feeOrders.sch_id, sysid: feeOrders.sysid });
      orderId = order.id;
      if (carried) {
        // one conditional update per SKU, never below zero: of payers choosing the last ones at once, as many succeed as there are
        const shortSku = await takeStock(tx, carried.lines);
        if (shortSku !== null) throw soldOut(ctx, carried.lines.find((l) => l.sku_id === shortSku)!);
        await tx.insert(feeOrderGoods).values(carried.lines.map(({ stock: _stock, ...l }) => ({ ...l, order_id: order.id, sysid: school.sysid, sch_id: request.schId })));
      }
      await tx.insert(feeOrderLines).values(
        found.map((b, sort) => ({ order_id: order.id, sort, bill_id: b.id, title: b.activity_title, amount: Number(b.amount), sysid: school.sysid, sch_id: request.schId })),
      );
      await addOrderEvent(tx, order, "created", row.createdAt);
    },
  );
  return { payment, orderId };
}

/** The fee items each activity bills (its required fixed items), by activity id: what a bill of it covers. */
export async function billedItems(db: DbOrTx, activityIds: readonly number[]): Promise<Map<number, { title: string; amount: string }[]>> {
  const out = new Map<number, { title: string; amount: string }[]>();
  if (activityIds.length === 0) return out;
  const rows = await db
    .select({ activity_id: activityItems.activity_id, title: activityItems.title, amount: activityItems.amount })
    .from(activityItems)
    .where(and(inArray(activityItems.activity_id, [...activityIds]), eq(activityItems.required, "Y"), eq(activityItems.amount_mode, "fixed")))
    .orderBy(asc(activityItems.activity_id), asc(activityItems.sort), asc(activityItems.id));
  for (const row of rows) {
    const list = out.get(row.activity_id) ?? [];
    list.push({ title: row.title, amount: fenToYuan(Number(row.amount)) });
    out.set(row.activity_id, list);
  }
  return out;
}

/**
 * `collection.close_sibling_orders` {pay_nos}: the open orders holding bills another order paid are closed at their
 * gateway, each asked first (one the payer paid meanwhile is applied, and flagged a duplicate). A gateway that cannot
 * be reached fails the run, and the queue tries again later.
 */
export async function closeSiblingOrders(ctx: JobContext): Promise<{ closed: number; applied: number }> {
  const payNos = Array.isArray(ctx.payload.pay_nos) ? ctx.payload.pay_nos.filter((p): p is string => typeof p === "string") : [];
  const result = { closed: 0, applied: 0 };
  if (payNos.length === 0) return result;
  const open = await ctx.db
    .select(unpaidOrderColumns)
    .from(paymentOrders)
    .where(and(inArray(paymentOrders.payNo, payNos), inArray(paymentOrders.status, OPEN_PAYMENTS)));
  let failure: unknown = null;
  const actor = jobActor(CLOSE_SIBLING_ORDERS);
  for (const order of open) {
    try {
      const outcome = await closeUnpaidOrder(ctx.services, ctx.db, order, actor);
      if (outcome === "closed") result.closed++;
      else if (outcome === "applied") result.applied++;
    } catch (err) {
      ctx.log.warn({ payNo: order.payNo, err: err instanceof Error ? err.message : String(err) }, "closing a sibling order failed; retried later");
      failure = err;
    }
  }
  // the orders closed stay closed: the retry finds only those left open
  if (failure) throw failure instanceof Error ? failure : new Error(String(failure));
  return result;
}

/** The open orders holding a bill, as closeUnpaidOrder takes them. */
function openOrdersOfBill(db: DbOrTx, billId: number) {
  return db
    .selectDistinct(unpaidOrderColumns)
    .from(feeOrderLines)
    .innerJoin(feeOrders, eq(feeOrders.id, feeOrderLines.order_id))
    .innerJoin(paymentOrders, eq(paymentOrders.payNo, feeOrders.pay_no))
    .where(and(eq(feeOrderLines.bill_id, billId), eq(feeOrders.status, "unpaid"), inArray(paymentOrders.status, OPEN_PAYMENTS)));
}

/**
 * Before a bill's amount changes or it is waived (billadjust, billwaive), outside its lock: the open orders holding it
 * are closed at their gateway, each asked first. One the payer had paid is applied, and the change is refused: the
 * bill is paid. A gateway that cannot be reached refuses it too, the orders left as they were.
 */
export async function closeOrdersOfBill(ctx: OperationContext, billId: number): Promise<void> {
  const actor = callerActor(ctx);
  let paid = false;
  for (const order of await openOrdersOfBill(ctx.db, billId)) {
    try {
      if ((await closeUnpaidOrder(ctx.services, ctx.db, order, actor)) === "applied") paid = true;
    } catch (err) {
      ctx.log.warn({ payNo: order.payNo, err: err instanceof Error ? err.message : String(err) }, "closing a bill's open order failed");
      throw new ApiFailure("collection.errors.order_not_closed", { pay_no: order.payNo });
    }
  }
  if (paid) throw new ApiFailure("collection.errors.paid_meanwhile");
}

/**
 * Under the bill's lock, just before its amount changes or it is waived: an order opened for it since
 * closeOrdersOfBill refuses the change (its payer pays the amount it holds), to be tried again.
 */
export async function refuseWhileOrderOpen(tx: DbOrTx, billId: number): Promise<void> {
  const [open] = await openOrdersOfBill(tx, billId);
  if (open) throw new ApiFailure("collection.errors.order_open", { pay_no: open.payNo });
}
