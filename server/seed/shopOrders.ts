/**
 * Demo shop orders of Sunrise No.1's payers, made and paid the way the payer page makes them (createShopOrder, the
 * sandbox's payment): a uniform waiting to be collected at the North Gate (its pickup code given), an exercise book
 * waiting to be sent, one closed unpaid (its stock given back), and one the pickup clerk handed over at the North Gate
 * (its pickup record); two after-sales, a return on its way back and a refund asked of the collected order. None is left unpaid: an open order would fall due within hours of the seed, as the demo's fee
 * orders never do.
 */
import { and, asc, eq } from "drizzle-orm";
import type { Db, DbOrTx } from "../db/client";
import { accountActor, payerActor, writeAudit } from "../auth/audit";
import { aftersales, deliveryImports, goods, goodsSkus, paymentOrders, pickupPoints, shopOrderItems, shopOrders, students, users } from "../db/schema";
import { recordAfterSale } from "../domains/retail/afterSales";
import { handOver } from "../domains/retail/fulfilment";
import { createShopOrder } from "../domains/retail/shop";
import { recordOrderClosed } from "../payments/close";
import { paidAtSandbox, seedContext } from "./feeOrders";

/** the provider's staff who sent and received the demo orders */
const PROVIDER_STAFF = accountActor({ userId: null, username: "svc" });

const HOUR_MS = 3_600_000;

async function skuOf(tx: DbOrTx, title: string, specs: Record<string, string>): Promise<number> {
  const rows = await tx.select({ id: goodsSkus.id, specs: goodsSkus.spec_values }).from(goodsSkus).innerJoin(goods, eq(goods.id, goodsSkus.goods_id)).where(eq(goods.title, title));
  const found = rows.find((r) => Object.entries(specs).every(([k, v]) => r.specs[k] === v));
  if (!found) throw new Error(`demo SKU ${title} ${JSON.stringify(specs)} is missing`);
  return found.id;
}

export async function seedDemoShopOrders(tx: DbOrTx, school: { sysid: number; schId: number }, now: Date): Promise<void> {
  const pupils = await tx.select({ id: students.id }).from(students).where(and(eq(students.sch_id, school.schId), eq(students.status, "1"))).orderBy(asc(students.id)).limit(6);
  const [point] = await tx.select({ id: pickupPoints.id }).from(pickupPoints).where(and(eq(pickupPoints.sysid, school.sysid), eq(pickupPoints.title, "Sunrise North Gate Pickup")));
  const [clerk] = await tx.select({ id: users.id, username: users.username, name: users.name }).from(users).where(eq(users.username, "pickup"));
  if (pupils.length < 6 || !point || !clerk) return;
  const at = (hoursAgo: number) => new Date(now.getTime() - hoursAgo * HOUR_MS);
  const make = (hoursAgo: number, studentId: number, items: { sku_id: number; qty: number }[], delivery: "pickup" | "express") =>
    createShopOrder(seedContext(tx, at(hoursAgo)), {
      ...school,
      studentId,
      items,
      delivery,
      ...(delivery === "pickup" ? { pickupPointId: point.id } : { address: { name: "王芳", phone: "13800138000", province: "31", detail: "上海市浦东新区朝阳路 1 号 3 栋 301" } }),
    });

  const uniform = await make(30, pupils[0].id, [{ sku_id: await skuOf(tx, "冬季校服冲锋衣", { 尺码: "140" }), qty: 1 }, { sku_id: await skuOf(tx, "夏季校服短袖套装", { 尺码: "140", 颜色: "藏青" }), qty: 2 }], "pickup");
  await paidAtSandbox(tx, uniform.payment, at(29.5));
  const book = await make(20, pupils[1].id, [{ sku_id: await skuOf(tx, "三年级数学同步练习", { 版本: "人教版" }), qty: 1 }], "express");
  await paidAtSandbox(tx, book.payment, at(19.8));
  const closed = await make(50, pupils[3].id, [{ sku_id: await skuOf(tx, "夏季校服短袖套装", { 尺码: "150", 颜色: "藏青" }), qty: 1 }], "pickup");
  const [payment] = await tx.select({ id: paymentOrders.id }).from(paymentOrders).where(eq(paymentOrders.payNo, closed.payment.payNo));
  await recordOrderClosed(tx as Db, payment.id, at(47));
  // collected at the North Gate: the clerk scanned its QR code the next morning
  const collected = await make(70, pupils[2].id, [{ sku_id: await skuOf(tx, "夏季校服短袖套装", { 尺码: "130", 颜色: "白色" }), qty: 1 }], "pickup");
  await paidAtSandbox(tx, collected.payment, at(69.5));
  const [{ token }] = await tx.select({ token: shopOrders.pickup_token }).from(shopOrders).where(eq(shopOrders.id, collected.orderId));
  await handOver(tx, token!, "scan", { userId: clerk.id, username: clerk.username, name: clerk.name, sysid: school.sysid, points: [point.id] }, at(52));

  // sent by express with the provider's import of tracking numbers this morning; one sent last week and received since
  const exercise = await make(20, pupils[4].id, [{ sku_id: await skuOf(tx, "三年级数学同步练习", { 版本: "北师大版" }), qty: 2 }], "express");
  await paidAtSandbox(tx, exercise.payment, at(19.7));
  await sent(tx, exercise, school.sysid, school.schId, { code: "SF", number: "SF1402558812305" }, at(6));
  await tx.insert(deliveryImports).values({
    kind: "shop_order",
    sysid: school.sysid,
    filename: "发货单-练习册.xlsx",
    username: "svc",
    created_at: at(6),
    total: 2,
    delivered: 1,
    unchanged: 0,
    failed: 1,
    errors: JSON.stringify([{ row: 3, order_no: book.payment.orderid, message: "未知的快递公司“火星快递”" }]),
  });
  const received = await make(220, pupils[5].id, [{ sku_id: await skuOf(tx, "夏季校服短袖套装", { 尺码: "150", 颜色: "白色" }), qty: 1 }], "express");
  await paidAtSandbox(tx, received.payment, at(219.5));
  await sent(tx, received, school.sysid, school.schId, { code: "ZTO", number: "78312560094417" }, at(200));
  await tx.update(shopOrders).set({ status: "completed", completed_at: at(120) }).where(eq(shopOrders.id, received.orderId));
  await writeAudit(tx, PROVIDER_STAFF, { action: "shoporderreceive", entity: "shoporder", entityId: String(received.orderId), sysid: school.sysid, schId: school.schId, detail: { from: "delivered", to: "completed" }, at: at(120) });

  // after-sales: the shirt received last week was too small and is on its way back; the collected one has a stain
  await afterSale(tx, received.orderId, { way: "return_refund", reason: "尺码偏小", description: "孩子穿着偏紧，想退货", status: "returning", express: { code: "SF", number: "SF1402558899017" } }, at(30), at(26), at(8));
  await afterSale(tx, collected.orderId, { way: "refund", reason: "衣领有污渍", description: "领口有一块洗不掉的污渍，希望退一半货款", amountShare: 0.5, status: "applied" }, at(3));
}

/**
 * A payer's after-sale of the order's first item, as h5aftersaleadd records it; agreed and sent back as the provider's
 * review and h5aftersalereturn write them, when its state says so.
 */
async function afterSale(
  tx: DbOrTx,
  orderId: number,
  sale: { way: "refund" | "return_refund"; reason: string; description: string; amountShare?: number; status: "applied" | "returning"; express?: { code: string; number: string } },
  asked: Date,
  agreed?: Date,
  returned?: Date,
): Promise<void> {
  const [order] = await tx.select().from(shopOrders).where(eq(shopOrders.id, orderId));
  const [item] = await tx.select().from(shopOrderItems).where(eq(shopOrderItems.order_id, orderId)).orderBy(asc(shopOrderItems.sort)).limit(1);
  const amount = Math.round(item.amount * (sale.amountShare ?? 1));
  const row = await recordAfterSale(tx, order, item, { way: sale.way, qty: item.qty, amount, reason: sale.reason, description: sale.description }, asked, payerActor(""));
  if (!agreed) return;
  const event = (action: string, actor: typeof PROVIDER_STAFF, detail: Record<string, unknown>, when: Date) =>
    writeAudit(tx, actor, { action, entity: "aftersale", entityId: String(row.id), sysid: row.sysid, schId: row.sch_id, detail, at: when });
  await tx.update(aftersales).set({ status: "agreed", reviewed_by: "svc", reviewed_at: agreed }).where(eq(aftersales.id, row.id));
  await event("aftersalereview", PROVIDER_STAFF, { from: "applied", to: "agreed", result: "agree" }, agreed);
  if (!returned || !sale.express) return;
  await tx.update(aftersales).set({ status: "returning", express_code: sale.express.code, tracking_no: sale.express.number, returned_at: returned }).where(eq(aftersales.id, row.id));
  await event("aftersale_returned", payerActor(""), { from: "agreed", to: "returning", express_code: sale.express.code, tracking_no: sale.express.number }, returned);
}
/** An express order sent by the provider's import of tracking numbers, `hoursAgo`, as shoporderdeliver writes it. */
async function sent(tx: DbOrTx, order: { orderId: number }, sysid: number, schId: number, express: { code: string; number: string }, when: Date): Promise<void> {
  await tx.update(shopOrders).set({ status: "delivered", express_code: express.code, tracking_no: express.number, delivered_at: when }).where(eq(shopOrders.id, order.orderId));
  await writeAudit(tx, PROVIDER_STAFF, {
    action: "shoporderdeliver",
    entity: "shoporder",
    entityId: String(order.orderId),
    sysid,
    schId,
    detail: { from: "undelivered", to: "delivered", express_code: express.code, tracking_no: express.number },
    at: when,
  });
}
