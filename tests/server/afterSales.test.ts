/**
 * After-sales of shop order items (catalogue/afterSales.ts): a parent returns a uniform of the wrong size from the
 * payer page and gets the money back once the provider receives it, even when the first refund call failed (retried
 * under the same refund number, by the job and by the button); a refund without return; the stock back only where
 * the decision says so, once; a pickup held back while an after-sale of its order is open; the after-sale of a
 * collected order naming the clerk who handed it over; the limits of what may be asked, and by whom. On both
 * databases: asked or decided twice at once, one after-sale opens and one refund is asked.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { aftersales, goods, goodsSkus, pickupPoints, refunds, sandboxRefunds, shopOrders, students, users } from "../../server/db/schema";
import { BUSY_MS, releaseAttempts, reserveAttempts } from "../../server/auth/throttle";
import { ticketOf as payerTicketOf } from "../../server/domains/collection/payerTickets";
import { AFTERSALES_PER_STUDENT } from "../../server/domains/retail/afterSales";
import { describeOnDatabases } from "../helpers/db";
import { confirmSandbox, h5, itemsOf, payerWorld, type PayerWorld, type Row } from "./payerSupport";
import { createTestApp, type TestApp } from "./support";

describeOnDatabases("after-sales", (kind) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  let world: PayerWorld;
  let ticket: string;
  let otherTicket: string;
  let northGate: number;

  const call = (user: string, method: string, payload: Row = {}) => t.call("adminapiv2", method, payload, { token: tokens[user], headers: { "accept-language": "en" } });
  const skuOf = async (title: string, specs: Record<string, string>) => {
    const rows = await t.db.select({ sku: goodsSkus }).from(goodsSkus).innerJoin(goods, eq(goods.id, goodsSkus.goods_id)).where(eq(goods.title, title));
    return rows.map((r) => r.sku).find((s) => Object.entries(specs).every(([k, v]) => s.spec_values[k] === v))!;
  };
  const stockOf = async (skuId: number) => (await t.db.select({ stock: goodsSkus.stock }).from(goodsSkus).where(eq(goodsSkus.id, skuId)))[0].stock;
  const orderRow = async (id: number) => (await t.db.select().from(shopOrders).where(eq(shopOrders.id, id)))[0];
  const saleRow = async (id: number) => (await t.db.select().from(aftersales).where(eq(aftersales.id, id)))[0];
  const refundsOfSale = (id: number) => t.db.select().from(refunds).where(eq(refunds.aftersale_id, id)).orderBy(refunds.id);
  const english = { "accept-language": "en" };
  const h5en = (method: string, payload: Row) => t.call("h5api", method, payload, { headers: english });

  /** A paid order of the ticket's student: its id, pay number and items (id, sku). */
  async function paidOrder(lines: { sku_id: number; qty: number }[], delivery: "pickup" | "express", as = ticket) {
    const where = delivery === "pickup" ? { pickup_point_id: northGate } : { address: { name: "王芳", phone: "13800138000", province: "31", detail: "1 Sunrise Road, Room 301" } };
    const made = await h5(t, "h5shoporder", { ticket: as, items: lines, delivery, ...where });
    expect(made.return_code, made.return_msg).toBe("SUCCESS");
    const answer = itemsOf(made) as { id: number; pay_no: string; payparam: { code_url: string } };
    expect((await confirmSandbox(t, answer.payparam.code_url)).return_code).toBe("SUCCESS");
    const info = itemsOf(await h5(t, "h5shoporderinfo", { ticket: as, id: answer.id }));
    return { id: answer.id, pay_no: answer.pay_no, code: String(info.pickup_code), items: info.items as { id: number; amount: string; qty: number }[] };
  }

  beforeAll(async () => {
    t = await createTestApp(kind);
    for (const user of ["svc", "pickup", "harbour"]) tokens[user] = await t.login(user);
    world = await payerWorld(t, tokens.svc);
    const pupils = await t.db.select().from(students).where(and(eq(students.sch_id, world.schId), eq(students.status, "1"))).orderBy(students.id).limit(8);
    const ticketOf = async (student: (typeof pupils)[number]) => String(itemsOf(await h5(t, "h5find", { code: world.code, name: student.name, student_no: student.student_no })).ticket);
    ticket = await ticketOf(pupils[6]);
    otherTicket = await ticketOf(pupils[7]);
    [{ id: northGate }] = await t.db.select({ id: pickupPoints.id }).from(pickupPoints).where(eq(pickupPoints.title, "Sunrise North Gate Pickup"));
  });
  afterAll(async () => {
    await t?.close();
  });

  it("takes a returned uniform back and refunds it once received, retrying a failed refund under the same number", async () => {
    const small = await skuOf("夏季校服短袖套装", { 尺码: "130", 颜色: "藏青" });
    const book = await skuOf("三年级数学同步练习", { 版本: "人教版" });
    const order = await paidOrder([{ sku_id: small.id, qty: 2 }, { sku_id: book.id, qty: 1 }], "express");
    const shirts = order.items[0];
    expect((await call("svc", "shoporderdeliver", { id: order.id, express_code: "SF", tracking_no: "SF1000000777" })).return_code).toBe("SUCCESS");
    const stock = await stockOf(small.id);

    // one of the two shirts, its price back
    const asked = await h5en("h5aftersaleadd", { ticket, order_id: order.id, item_id: shirts.id, way: "return_refund", qty: 1, amount: "128.00", reason: "尺码偏小", description: "Too tight" });
    expect(asked.return_code, asked.return_msg).toBe("SUCCESS");
    const sale = itemsOf(asked) as { id: number; aftersale_no: string; status: string };
    expect(sale).toMatchObject({ status: "applied", way: "return_refund", qty: 1, amount: "128.00", title: "夏季校服短袖套装" });
    expect(sale.aftersale_no).toMatch(/^AS\d{20}$/);
    expect((itemsOf(await h5en("h5aftersales", { ticket })) as unknown as Row[]).map((s) => s.id)).toContain(sale.id);
    // one open after-sale an item: the second shirt waits
    const again = await h5en("h5aftersaleadd", { ticket, order_id: order.id, item_id: shirts.id, way: "return_refund", qty: 1, amount: "128.00", reason: "尺码偏小" });
    expect(again.data?.errors).toEqual([{ field: "item_id", message: `After-sale ${sale.aftersale_no} of this item is still open` }]);

    // the provider reads it and agrees; the goods are to come back first
    const listed = await call("svc", "aftersalelist", { status: "applied" });
    expect((listed.data?.items as Row[]).find((r) => r.id === sale.id)).toMatchObject({ amount: "128.00", reason: "尺码偏小", way: "return_refund" });
    expect((await call("svc", "aftersalereview", { id: sale.id, result: "agree" })).return_code).toBe("SUCCESS");
    expect(await saleRow(sale.id)).toMatchObject({ status: "agreed", reviewed_by: "svc", restock: null });
    expect(await refundsOfSale(sale.id)).toEqual([]);
    const sentBack = await h5en("h5aftersalereturn", { ticket, id: sale.id, express_code: "SF", tracking_no: "SF1000000888" });
    expect(sentBack.return_code, sentBack.return_msg).toBe("SUCCESS");
    expect(await saleRow(sale.id)).toMatchObject({ status: "returning", express_code: "SF", tracking_no: "SF1000000888" });

    // the payment channel will refuse the first call: a refund of that number it holds for another amount
    const refundNo = `${order.pay_no}R01`;
    await t.db.insert(sandboxRefunds).values({ refundNo, payNo: order.pay_no, refundId: "SANDBOXR-clash", amountFen: 1, status: "SUCCESS", createdAt: t.clock.now() });
    const received = await call("svc", "aftersalereceive", { id: sale.id, result: "receive" });
    expect(received.return_code, received.return_msg).toBe("SUCCESS");
    expect(received.return_msg).toBe(`Refund ${refundNo} (¥128.00) accepted: the money is going back the way it was paid`);
    // the shirt is back on the shelf at once (received, restocked by default), once
    expect(await stockOf(small.id)).toBe(stock + 1);
    await t.app.jobs.runDueJobs();
    const [failed] = await refundsOfSale(sale.id);
    expect(failed).toMatchObject({ refund_no: refundNo, kind: "aftersale", payment_kind: "shop_order", shop_order_id: order.id, amount: 12_800, status: "processing", submitted_at: null });
    expect(failed.last_error).toContain("refund number is taken");
    expect(await saleRow(sale.id)).toMatchObject({ status: "received", restock: "Y", received_by: "svc" });

    // the channel's clash cleared: the button asks again, under the same number
    await t.db.delete(sandboxRefunds).where(eq(sandboxRefunds.refundNo, refundNo));
    const retried = await call("svc", "aftersaleretry", { id: sale.id });
    expect(retried.return_msg).toBe(`Refund ${refundNo} is being asked of the payment channel again, under the same number`);
    await t.app.jobs.runDueJobs();
    const done = await refundsOfSale(sale.id);
    expect(done.map((r) => [r.refund_no, r.status])).toEqual([[refundNo, "success"]]);
    expect(await saleRow(sale.id)).toMatchObject({ status: "completed" });
    expect(await orderRow(order.id)).toMatchObject({ status: "delivered", refund_status: "part", refunded_amount: 12_800 });
    expect(await stockOf(small.id)).toBe(stock + 1);
    // a done after-sale is asked nothing more
    expect((await call("svc", "aftersaleretry", { id: sale.id })).return_code).toBe("FAIL");

    // its page tells the story, and lists its refund
    const record = await call("svc", "aftersaleinfo", { id: sale.id });
    expect(((record.data?.items as Row).timeline as Row[]).map((e) => e.event)).toEqual([
      "aftersale_applied",
      "aftersalereview",
      "aftersale_returned",
      "aftersalereceive",
      "aftersaleretry",
      "aftersale_refunded",
    ]);
    expect(((await call("svc", "refundlist", { aftersale_id: sale.id })).data?.items as Row[]).map((r) => r.refund_no)).toEqual([refundNo]);

    // the second shirt now; what the item paid less the first one's is the most
    const second = await h5en("h5aftersaleadd", { ticket, order_id: order.id, item_id: shirts.id, way: "refund", qty: 1, amount: "128.01", reason: "不需要了" });
    expect(second.data?.errors).toEqual([{ field: "amount", message: "At most ¥128.00 can still be refunded for this item" }]);
    const third = await h5en("h5aftersaleadd", { ticket, order_id: order.id, item_id: shirts.id, way: "refund", qty: 2, amount: "1.00", reason: "不需要了" });
    expect(third.data?.errors).toEqual([{ field: "qty", message: "At most 1 of this item can still be returned" }]);
  });

  it("refunds without a return at once, the stock staying unless decided, and holds the pickup back while it is open", async () => {
    const jacket = await skuOf("冬季校服冲锋衣", { 尺码: "140" });
    const summer = await skuOf("夏季校服短袖套装", { 尺码: "140", 颜色: "白色" });
    const order = await paidOrder([{ sku_id: jacket.id, qty: 1 }, { sku_id: summer.id, qty: 1 }], "pickup");
    // not handed over yet: nothing to send back
    const returned = await h5en("h5aftersaleadd", { ticket, order_id: order.id, item_id: order.items[0].id, way: "return_refund", qty: 1, amount: "1.00", reason: "尺码偏大" });
    expect(returned.data?.errors).toEqual([{ field: "way", message: "The goods have not been sent yet: ask for a refund only" }]);
    const asked = itemsOf(await h5en("h5aftersaleadd", { ticket, order_id: order.id, item_id: order.items[0].id, way: "refund", qty: 1, amount: order.items[0].amount, reason: "不要了" })) as { id: number; aftersale_no: string };

    // the clerk cannot hand it over meanwhile, and is told why
    const held = await call("pickup", "pickupverify", { code: order.code, via: "code" });
    expect(held.return_msg).toBe(`After-sale ${asked.aftersale_no} of this order is open: hand it over once it ends`);
    expect((await orderRow(order.id)).status).toBe("undelivered");
    // the clerk of its point reads it; another provider finds nothing
    expect((await call("pickup", "aftersaleinfo", { id: asked.id })).return_code).toBe("SUCCESS");
    expect((await call("harbour", "aftersaleinfo", { id: asked.id })).return_code).toBe("FAIL");

    const stock = await stockOf(jacket.id);
    expect((await call("svc", "aftersalereview", { id: asked.id, result: "agree" })).return_code).toBe("SUCCESS");
    expect(await saleRow(asked.id)).toMatchObject({ status: "refunding", restock: "N", restocked_at: null });
    await t.app.jobs.runDueJobs();
    expect(await saleRow(asked.id)).toMatchObject({ status: "completed" });
    expect(await stockOf(jacket.id)).toBe(stock);
    expect(await orderRow(order.id)).toMatchObject({ status: "undelivered", refund_status: "part" });

    // ended: the rest is handed over, and an after-sale of it names the clerk
    expect((await call("pickup", "pickupverify", { code: order.code, via: "code" })).return_code).toBe("SUCCESS");
    const later = itemsOf(await h5en("h5aftersaleadd", { ticket, order_id: order.id, item_id: order.items[1].id, way: "return_refund", qty: 1, amount: "10.00", reason: "开线" })) as { id: number };
    const [clerk] = await t.db.select({ name: users.name }).from(users).where(eq(users.username, "pickup"));
    expect(await saleRow(later.id)).toMatchObject({ handed_over_by: clerk.name, pickup_point_id: northGate });

    // agreed with the stock decided back: it comes back on receipt, once, whatever the receipt says
    const agreed = await call("svc", "aftersalereview", { id: later.id, result: "agree", restock: "N" });
    expect(agreed.return_code, agreed.return_msg).toBe("SUCCESS");
    expect((await h5en("h5aftersalereturn", { ticket, id: later.id, express_code: "YTO", tracking_no: "YT7000000001" })).return_code).toBe("SUCCESS");
    const before = await stockOf(summer.id);
    expect((await call("svc", "aftersalereceive", { id: later.id, result: "receive" })).return_code).toBe("SUCCESS");
    expect(await stockOf(summer.id)).toBe(before);
    expect((await saleRow(later.id)).restock).toBe("N");
  });

  it("opens one after-sale of an item asked twice at once, and asks one refund of goods received twice at once", async () => {
    const summer = await skuOf("夏季校服短袖套装", { 尺码: "120", 颜色: "藏青" });
    const order = await paidOrder([{ sku_id: summer.id, qty: 1 }], "express");
    const ask = () => h5en("h5aftersaleadd", { ticket, order_id: order.id, item_id: order.items[0].id, way: "refund", qty: 1, amount: "3.00", reason: "想退" });
    const asked = await Promise.all([ask(), ask(), ask()]);
    expect(asked.map((r) => r.return_code).sort()).toEqual(["FAIL", "FAIL", "SUCCESS"]);
    expect(await t.db.select().from(aftersales).where(eq(aftersales.order_id, order.id))).toHaveLength(1);
    const { id } = itemsOf(asked.find((r) => r.return_code === "SUCCESS")!) as { id: number };
    const decisions = await Promise.all([call("svc", "aftersalereview", { id, result: "agree" }), call("svc", "aftersalereview", { id, result: "agree" })]);
    expect(decisions.map((r) => r.return_code).sort()).toEqual(["FAIL", "SUCCESS"]);
    expect((await refundsOfSale(id)).map((r) => r.amount)).toEqual([300]);
  });

  it("refuses, lets the payer withdraw, and keeps each payer to their own after-sales", async () => {
    const summer = await skuOf("夏季校服短袖套装", { 尺码: "150", 颜色: "藏青" });
    const order = await paidOrder([{ sku_id: summer.id, qty: 1 }], "express");
    const item = order.items[0].id;
    const ask = () => h5en("h5aftersaleadd", { ticket, order_id: order.id, item_id: item, way: "refund", qty: 1, amount: "5.00", reason: "想退" });

    // refused with a reason, which is required
    const first = itemsOf(await ask()) as { id: number };
    const noReason = await call("svc", "aftersalereview", { id: first.id, result: "refuse" });
    expect(noReason.return_code).toBe("FAIL");
    expect((noReason.data?.errors as Row[])[0].field).toBe("reason");
    expect((await call("svc", "aftersalereview", { id: first.id, result: "refuse", reason: "已过洗涤" })).return_code).toBe("SUCCESS");
    expect(itemsOf(await h5en("h5aftersales", { ticket })) as unknown as Row[]).toEqual(expect.arrayContaining([expect.objectContaining({ id: first.id, status: "refused", review_reason: "已过洗涤" })]));

    // asked again, and withdrawn by the payer; another payer can neither see nor withdraw it
    const second = itemsOf(await ask()) as { id: number };
    expect((await h5en("h5aftersalecancel", { ticket: otherTicket, id: second.id })).return_code).toBe("FAIL");
    expect((itemsOf(await h5en("h5aftersales", { ticket: otherTicket })) as unknown as Row[]).map((s) => s.id)).not.toContain(second.id);
    expect(await h5en("h5aftersaleadd", { ticket: otherTicket, order_id: order.id, item_id: item, way: "refund", qty: 1, amount: "5.00", reason: "想退" })).toMatchObject({ return_code: "FAIL" });
    expect((await h5en("h5aftersalecancel", { ticket, id: second.id })).return_code).toBe("SUCCESS");
    expect((await saleRow(second.id)).status).toBe("cancelled");
    expect((await h5en("h5aftersalecancel", { ticket, id: second.id })).data?.errors).toEqual([{ field: "id", message: "This after-sale can no longer be withdrawn" }]);

    // a bad value is named; past the window after completion, nothing more is asked
    expect((await h5en("h5aftersaleadd", { ticket, order_id: order.id, item_id: item, way: "swap", qty: 1, amount: "5.00", reason: "想退" })).data?.errors).toEqual([
      expect.objectContaining({ field: "way" }),
    ]);
    await t.db.update(shopOrders).set({ status: "completed", completed_at: new Date(t.clock.now().getTime() - 8 * 86_400_000) }).where(eq(shopOrders.id, order.id));
    expect((await ask()).data?.errors).toEqual([{ field: "order_id", message: "After-sales are accepted within 7 days of receiving the goods" }]);
  });

  it("holds back a student's after-sales asked too often, counting those made only", async () => {
    const summer = await skuOf("夏季校服短袖套装", { 尺码: "160", 颜色: "藏青" });
    const order = await paidOrder([{ sku_id: summer.id, qty: 1 }], "express");
    const ask = (amount: string) => h5en("h5aftersaleadd", { ticket, order_id: order.id, item_id: order.items[0].id, way: "refund", qty: 1, amount, reason: "想退" });
    const { studentId } = await payerTicketOf(t.db, ticket, t.clock.now());
    const key = { key: `h5aftersale:student:${studentId}`, rule: AFTERSALES_PER_STUDENT };
    // the student's after-sales made lately use up all but one of its room (those of the tests above count too)
    let reserved = 0;
    while ((await reserveAttempts(t.db, [key], t.clock.now())) === 0) reserved++;
    expect(reserved).toBeLessThanOrEqual(AFTERSALES_PER_STUDENT.maxFailures);
    await releaseAttempts(t.db, [key.key]);
    // past the moment the full count held the last try back
    t.clock.advance(BUSY_MS + 1);
    // a refused one (too much asked) is given back, so the last one is still taken
    expect((await ask("999.00")).data?.errors).toEqual([expect.objectContaining({ field: "amount" })]);
    const last = itemsOf(await ask("1.00")) as { id: number };
    expect((await saleRow(last.id)).status).toBe("applied");
    expect((await h5en("h5aftersalecancel", { ticket, id: last.id })).return_code).toBe("SUCCESS");
    // the next within the ten minutes waits
    const held = await ask("1.00");
    expect(held.return_code).toBe("FAIL");
    expect(held.return_msg).toMatch(/^Too many attempts/);
  });
});
