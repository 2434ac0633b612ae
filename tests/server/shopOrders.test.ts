/**
 * The school shop and its orders, a payment kind of their own (shop_order) on the payment and refund paths of every
 * kind: a payer finds the goods the school may buy and a pickup point, orders SKUs (their stock taken at once, never
 * below zero, even when payers order the last ones together), pays through the school's channel, and sees its pickup
 * code and QR token; an unpaid order closed gives its stock back once; a payment after the close takes the stock
 * again or is refunded whole; the provider refunds a paid order through the refund path of fee orders, under the same
 * number on every retry, and the order records it. On both databases: stock and pickup codes are concurrent writes.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { goods, goodsSkus, paymentOrders, pickupPoints, refunds, shopOrders, students } from "../../server/db/schema";
import { CLOSE_EXPIRED_ORDERS } from "../../server/jobs/closeExpiredOrders";
import { applyPaidOrder } from "../../server/payments/apply";
import { describeOnDatabases } from "../helpers/db";
import { confirmSandbox, h5, itemsOf, payerWorld, type PayerWorld, type Row } from "./payerSupport";
import { createTestApp, type TestApp } from "./support";

describeOnDatabases("the school shop", (kind) => {
  let t: TestApp;
  let svc: string;
  let world: PayerWorld;
  let ticket: string;
  let northGate: number;

  const call = (method: string, payload: Row = {}) => t.call("adminapiv2", method, payload, { token: svc, headers: { "accept-language": "en" } });
  const skuOf = async (title: string, specs: Record<string, string>) => {
    const rows = await t.db.select({ sku: goodsSkus }).from(goodsSkus).innerJoin(goods, eq(goods.id, goodsSkus.goods_id)).where(eq(goods.title, title));
    return rows.map((r) => r.sku).find((s) => Object.entries(specs).every(([k, v]) => s.spec_values[k] === v))!;
  };
  const stockOf = async (skuId: number) => (await t.db.select({ stock: goodsSkus.stock }).from(goodsSkus).where(eq(goodsSkus.id, skuId)))[0].stock;
  // the closing job, run now: the orders past their time are closed
  let closings = 0;
  const closeDueOrders = async () => {
    await t.app.jobs.enqueue(CLOSE_EXPIRED_ORDERS, {}, { uniqueKey: `shop-test-close-${++closings}` });
    await t.app.jobs.runDueJobs();
  };
  // a payment the gateway reports after the order closed here (its notification crossing the close)
  const latePayment = async (payNo: string) => {
    const [payment] = await t.db.select().from(paymentOrders).where(eq(paymentOrders.payNo, payNo));
    await applyPaidOrder(t.db, { payNo, gateway: "sandbox", amountFen: payment.totalFeeFen, merchantId: payment.merchantId, transactionId: `T${payNo}`, ip: "198.51.100.7" }, t.clock.now());
  };
  const orderRow = async (id: number) => (await t.db.select().from(shopOrders).where(eq(shopOrders.id, id)))[0];

  beforeAll(async () => {
    t = await createTestApp(kind);
    svc = await t.login("svc");
    world = await payerWorld(t, svc);
    const [student] = await t.db.select().from(students).where(and(eq(students.sch_id, world.schId), eq(students.status, "1"))).limit(1);
    const found = await h5(t, "h5find", { code: world.code, name: student.name, student_no: student.student_no });
    expect(found.return_code, found.return_msg).toBe("SUCCESS");
    ticket = String(itemsOf(found).ticket);
    [{ id: northGate }] = await t.db.select({ id: pickupPoints.id }).from(pickupPoints).where(eq(pickupPoints.title, "Sunrise North Gate Pickup"));
  });
  afterAll(async () => {
    await t?.close();
  });

  it("shows the payer the goods its school may buy, a goods item's SKUs, and the school's pickup points", async () => {
    const list = itemsOf(await h5(t, "h5goodslist", { code: world.code }));
    const titles = (list.goods as Row[]).map((g) => g.title);
    // on sale, sold to all schools or to this one; never another provider's, never one taken off sale
    expect(titles).toEqual(expect.arrayContaining(["夏季校服短袖套装", "冬季校服冲锋衣", "三年级数学同步练习"]));
    expect(titles).not.toContain("午餐卡（月卡）");
    expect(titles).not.toContain("Harbour 运动校服");
    const summer = (list.goods as Row[]).find((g) => g.title === "夏季校服短袖套装")!;
    const info = itemsOf(await h5(t, "h5goodsinfo", { code: world.code, id: summer.id }));
    expect(info).toMatchObject({ title: "夏季校服短袖套装", spec_names: ["尺码", "颜色"], price: "128.00" });
    expect((info.skus as Row[]).length).toBe(14);
    const points = itemsOf(await h5(t, "h5pickuppoints", { code: world.code })) as unknown as Row[];
    expect(points.map((p) => p.title)).toEqual(["Sunrise North Gate Pickup"]);
    // another school's pickup point is not this school's to choose
    const [middle] = await t.db.select({ id: pickupPoints.id }).from(pickupPoints).where(eq(pickupPoints.title, "Sunrise Middle School Shop"));
    const sku = await skuOf("冬季校服冲锋衣", { 尺码: "130" });
    const wrongPoint = await h5(t, "h5shoporder", { ticket, items: [{ sku_id: sku.id, qty: 1 }], delivery: "pickup", pickup_point_id: middle.id });
    expect(wrongPoint.data?.errors).toEqual([{ field: "pickup_point_id", message: "This pickup point does not serve the school" }]);
    // a pickup-only goods item is not sent by express
    const byExpress = await h5(t, "h5shoporder", { ticket, items: [{ sku_id: sku.id, qty: 1 }], delivery: "express", address: { name: "王芳", phone: "13800138000", province: "31", detail: "1 Sunrise Road, Room 301" } });
    expect((byExpress.data?.errors as Row[])[0].field).toBe("delivery");
  });

  it("takes the stock when an order is made, pays it, gives its pickup code and QR token, and refunds it through the refund path of every kind", async () => {
    const sku = await skuOf("夏季校服短袖套装", { 尺码: "130", 颜色: "藏青" });
    const before = await stockOf(sku.id);
    const made = await h5(t, "h5shoporder", { ticket, items: [{ sku_id: sku.id, qty: 2 }], delivery: "pickup", pickup_point_id: northGate });
    expect(made.return_code, made.return_msg).toBe("SUCCESS");
    const answer = itemsOf(made) as { id: number; order_no: string; pay_no: string; total_fee: string; payparam: { code_url: string } };
    expect(answer.total_fee).toBe("256.00");
    expect(await stockOf(sku.id)).toBe(before - 2);
    const unpaid = itemsOf(await h5(t, "h5shoporderinfo", { ticket, id: answer.id }));
    expect(unpaid).toMatchObject({ status: "unpaid", pickup_code: null, pickup_token: null, items: [{ title: "夏季校服短袖套装", spec_values: { 尺码: "130", 颜色: "藏青" }, qty: 2, amount: "256.00" }] });

    expect((await confirmSandbox(t, answer.payparam.code_url)).return_code).toBe("SUCCESS");
    const paid = itemsOf(await h5(t, "h5shoporderinfo", { ticket, id: answer.id }));
    expect(paid.status).toBe("undelivered");
    expect(paid.pickup_code).toMatch(/^\d{8}$/);
    // the QR carries 128 random bits, not the digits
    expect(Buffer.from(String(paid.pickup_token), "base64url")).toHaveLength(16);
    // the list of the payer's orders never carries them
    expect((itemsOf(await h5(t, "h5shoporders", { ticket })) as unknown as Row[]).find((o) => o.id === answer.id)).not.toHaveProperty("pickup_code");

    // the provider refunds part, then the rest: the refund path of fee orders, numbered per payment
    const part = await call("shoporderrefund", { id: answer.id, amount: "100.00", reason: "尺码不合适" });
    expect(part.return_code, part.return_msg).toBe("SUCCESS");
    expect((await call("shoporderrefund", { id: answer.id, amount: "200.00", reason: "Too much" })).data?.errors).toEqual([
      { field: "amount", message: "The refund is more than what is left: at most ¥156.00 of this order can still be refunded" },
    ]);
    await t.app.jobs.runDueJobs();
    expect(await orderRow(answer.id)).toMatchObject({ status: "undelivered", refund_status: "part", refunded_amount: 10_000 });
    expect((await call("shoporderrefund", { id: answer.id, amount: "156.00", reason: "退货" })).return_code).toBe("SUCCESS");
    await t.app.jobs.runDueJobs();
    const done = await t.db.select().from(refunds).where(eq(refunds.shop_order_id, answer.id));
    expect(done.map((r) => [r.payment_kind, r.refund_no, r.status, r.amount])).toEqual([
      ["shop_order", `${answer.pay_no}R01`, "success", 10_000],
      ["shop_order", `${answer.pay_no}R02`, "success", 15_600],
    ]);
    // refunded in full: cancelled, and its page tells the story
    expect(await orderRow(answer.id)).toMatchObject({ status: "cancelled", refund_status: "all", refunded_amount: 25_600 });
    const record = itemsOf(await call("shoporderinfo", { id: answer.id }));
    expect((record.timeline as Row[]).map((e) => e.event)).toEqual(["shop_order_created", "shop_order_paid", "shoporderrefund", "shop_order_refunded", "shoporderrefund", "shop_order_refunded"]);
    expect((record.timeline as Row[])[2].params).toMatchObject({ amount: "100.00", reason: "尺码不合适" });
    const related = await call("refundlist", { shop_order_id: answer.id });
    expect((related.data?.items as Row[]).length).toBe(2);
  });

  it("sells the last ones once when payers order them together, never below zero", async () => {
    const sku = await skuOf("冬季校服冲锋衣", { 尺码: "120" });
    await t.db.update(goodsSkus).set({ stock: 3 }).where(eq(goodsSkus.id, sku.id));
    const tickets: string[] = [];
    const pupils = await t.db.select().from(students).where(and(eq(students.sch_id, world.schId), eq(students.status, "1"))).limit(8);
    for (const [i, pupil] of pupils.entries()) {
      const found = await h5(t, "h5find", { code: world.code, name: pupil.name, student_no: pupil.student_no }, `203.0.113.${50 + i}`);
      tickets.push(String(itemsOf(found).ticket));
    }
    const answers = await Promise.all(tickets.map((tk, i) => h5(t, "h5shoporder", { ticket: tk, items: [{ sku_id: sku.id, qty: 1 }], delivery: "pickup", pickup_point_id: northGate }, `203.0.113.${50 + i}`)));
    expect(answers.filter((a) => a.return_code === "SUCCESS")).toHaveLength(3);
    const refused = answers.filter((a) => a.return_code === "FAIL");
    expect(refused).toHaveLength(5);
    expect(refused.every((a) => /^冬季校服冲锋衣 \(尺码 120 · 颜色 藏青\) has only \d left$/.test(a.return_msg))).toBe(true);
    expect(await stockOf(sku.id)).toBe(0);
  });

  it("gives an unpaid order's stock back once when it closes or is cancelled, and a payment after that takes it again or goes back", async () => {
    const sku = await skuOf("三年级数学同步练习", { 版本: "人教版" });
    const before = await stockOf(sku.id);
    const express = { delivery: "express", address: { name: "王芳", phone: "13800138000", province: "31", detail: "1 Sunrise Road, Room 301" } };
    const first = itemsOf(await h5(t, "h5shoporder", { ticket, items: [{ sku_id: sku.id, qty: 3 }], ...express })) as { id: number; pay_no: string; payparam: { code_url: string } };
    expect(await stockOf(sku.id)).toBe(before - 3);
    // cancelled by the payer: back once, whatever is asked twice
    expect((await h5(t, "h5shopordercancel", { ticket, id: first.id })).return_code).toBe("SUCCESS");
    expect((await h5(t, "h5shopordercancel", { ticket, id: first.id })).return_msg).toBe("Only an unpaid order can be cancelled");
    expect(await stockOf(sku.id)).toBe(before);
    expect((await orderRow(first.id)).status).toBe("cancelled");

    // closed by its timeout: back once; then paid after all while the stock is there: taken again
    const second = itemsOf(await h5(t, "h5shoporder", { ticket, items: [{ sku_id: sku.id, qty: 1 }], ...express })) as { id: number; pay_no: string };
    await t.db.update(paymentOrders).set({ expiresAt: new Date(t.clock.now().getTime() - 1000) }).where(eq(paymentOrders.payNo, second.pay_no));
    await closeDueOrders();
    expect(await stockOf(sku.id)).toBe(before);
    await latePayment(second.pay_no);
    expect(await orderRow(second.id)).toMatchObject({ status: "undelivered" });
    expect(await stockOf(sku.id)).toBe(before - 1);

    // one more closed, its stock sold meanwhile: the late payment goes back whole, by itself
    const third = itemsOf(await h5(t, "h5shoporder", { ticket, items: [{ sku_id: sku.id, qty: 1 }], ...express })) as { id: number; pay_no: string };
    await t.db.update(paymentOrders).set({ expiresAt: new Date(t.clock.now().getTime() - 1000) }).where(eq(paymentOrders.payNo, third.pay_no));
    await closeDueOrders();
    await t.db.update(goodsSkus).set({ stock: 0 }).where(eq(goodsSkus.id, sku.id));
    await latePayment(third.pay_no);
    await t.app.jobs.runDueJobs();
    expect(await orderRow(third.id)).toMatchObject({ status: "cancelled", refund_status: "all" });
    const [back] = await t.db.select().from(refunds).where(eq(refunds.shop_order_id, third.id));
    expect(back).toMatchObject({ kind: "unavailable", status: "success", applied_by: "system" });
    expect(await stockOf(sku.id)).toBe(0);
  });

  it("keeps each payer to its own orders", async () => {
    const [other] = await t.db.select({ id: shopOrders.id }).from(shopOrders).limit(1);
    const [student] = await t.db.select().from(students).where(eq(students.sch_id, world.schId)).offset(20).limit(1);
    const found = await h5(t, "h5find", { code: world.code, name: student.name, student_no: student.student_no }, "203.0.113.99");
    const stranger = String(itemsOf(found).ticket);
    expect((await h5(t, "h5shoporderinfo", { ticket: stranger, id: other.id }, "203.0.113.99")).return_msg).toBe("Record not found");
    expect((await h5(t, "h5shopordercancel", { ticket: stranger, id: other.id }, "203.0.113.99")).return_msg).toBe("Record not found");
  });
});
