/**
 * A shop order's way to the payer after it is paid: the provider ships an express order (shoporderdeliver: a company
 * of our table and a tracking number, never for a pickup order), marks it received (shoporderreceive), or the job
 * completes it some days after shipping; an unpaid order is cancelled by the provider (shopordercancel: closed at its
 * gateway, its stock back); each step is on the order's timeline, and the list is exported. The actions are the
 * engine's: the same on both databases, so this runs on the embedded one.
 */
import { asc, eq } from "drizzle-orm";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { goods, goodsSkus, shopOrders, students } from "../../server/db/schema";
import { COMPLETE_DELIVERED_ORDERS, SHOP_AUTO_COMPLETE_DAYS } from "../../server/domains/retail/shopOrders";
import { describeOnEmbedded } from "../helpers/db";
import { confirmSandbox, h5, itemsOf, payerWorld, type PayerWorld, type Row } from "./payerSupport";
import { createTestApp, type TestApp } from "./support";

describeOnEmbedded("shop order fulfilment", (kind) => {
  let t: TestApp;
  let svc: string;
  let world: PayerWorld;

  const call = (method: string, payload: Row = {}, token = svc) => t.call("adminapiv2", method, payload, { token, headers: { "accept-language": "en" } });
  const orderRow = async (id: number) => (await t.db.select().from(shopOrders).where(eq(shopOrders.id, id)))[0];
  const express = { delivery: "express", address: { name: "王芳", phone: "13800138000", province: "31", detail: "1 Sunrise Road, Room 301" } };
  const skuOf = async (title: string) =>
    (await t.db.select({ id: goodsSkus.id, stock: goodsSkus.stock }).from(goodsSkus).innerJoin(goods, eq(goods.id, goodsSkus.goods_id)).where(eq(goods.title, title)).orderBy(asc(goodsSkus.id)))[0];
  /** an order made on the payer page (a book sent by express, a jacket collected), paid unless said otherwise */
  // each order by another payer: a payer makes a few orders an hour at most
  let payers = 0;
  const order = async (options: { pay?: boolean; pickup?: number } = {}) => {
    const ip = `198.51.100.${++payers}`;
    const [student] = await t.db.select().from(students).where(eq(students.sch_id, world.schId)).orderBy(asc(students.id)).offset(payers).limit(1);
    const ticket = String(itemsOf(await h5(t, "h5find", { code: world.code, name: student.name, student_no: student.student_no }, ip)).ticket);
    const sku = await skuOf(options.pickup ? "冬季校服冲锋衣" : "三年级数学同步练习");
    const delivery = options.pickup ? { delivery: "pickup", pickup_point_id: options.pickup } : express;
    const answer = await h5(t, "h5shoporder", { ticket, items: [{ sku_id: sku.id, qty: 1 }], ...delivery }, ip);
    expect(answer.return_code, answer.return_msg).toBe("SUCCESS");
    const made = itemsOf(answer) as { id: number; pay_no: string; payparam: { code_url: string } };
    if (options.pay !== false) expect((await confirmSandbox(t, made.payparam.code_url)).return_code).toBe("SUCCESS");
    return made;
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    svc = await t.login("svc");
    world = await payerWorld(t, svc);
  });
  afterAll(async () => {
    await t?.close();
  });

  describe("shipping", () => {
    it("ships a paid express order with a company of the table and a tracking number, once", async () => {
      const { id } = await order();
      expect((await call("shoporderdeliver", { id, express_code: "SFX", tracking_no: "SF1234567890" })).data?.errors).toEqual([
        { field: "express_code", message: expect.stringContaining("Express company") },
      ]);
      expect((await call("shoporderdeliver", { id, express_code: "SF", tracking_no: "SF 12" })).data?.errors).toEqual([
        { field: "tracking_no", message: "A tracking number has 6 to 40 letters, digits or dashes" },
      ]);
      expect((await call("shoporderdeliver", { id, express_code: "SF" })).data?.errors).toEqual([{ field: "tracking_no", message: expect.any(String) }]);
      const shipped = await call("shoporderdeliver", { id, express_code: "SF", tracking_no: "SF1234567890" });
      expect(shipped.return_code, shipped.return_msg).toBe("SUCCESS");
      expect(await orderRow(id)).toMatchObject({ status: "delivered", express_code: "SF", tracking_no: "SF1234567890", delivered_at: t.clock.now() });
      expect((await call("shoporderdeliver", { id, express_code: "YTO", tracking_no: "YT0000000001" })).return_msg).toBe("“Send” is not possible: the record is Sent");
      const timeline = itemsOf(await call("shoporderinfo", { id })).timeline as Row[];
      expect(timeline.map((e) => e.event)).toEqual(["shop_order_created", "shop_order_paid", "shoporderdeliver"]);
      expect(timeline[2]).toMatchObject({ who: "svc", from: "undelivered", to: "delivered", params: { express_code: "SF", tracking_no: "SF1234567890" } });
    });

    it("never ships a pickup order, nor an unpaid one", async () => {
      const [point] = (itemsOf(await h5(t, "h5pickuppoints", { code: world.code })) as unknown as Row[]).map((p) => Number(p.id));
      const pickup = await order({ pickup: point });
      expect((await call("shoporderdeliver", { id: pickup.id, express_code: "SF", tracking_no: "SF1234567891" })).return_msg).toBe(
        "“Send” is not possible: the record's Delivery is Pickup",
      );
      const unpaid = await order({ pay: false });
      expect((await call("shoporderdeliver", { id: unpaid.id, express_code: "SF", tracking_no: "SF1234567892" })).return_msg).toBe("“Send” is not possible: the record is Unpaid");
      expect(await orderRow(pickup.id)).toMatchObject({ status: "undelivered", tracking_no: null });
    });

    it("is not another provider's to ship", async () => {
      const { id } = await order();
      const other = await t.login("harbour");
      expect((await call("shoporderdeliver", { id, express_code: "SF", tracking_no: "SF1234567893" }, other)).return_code).toBe("FAIL");
      expect((await orderRow(id)).status).toBe("undelivered");
    });
  });

  describe("completion", () => {
    it("completes a shipped order when its receipt is confirmed, and by itself the given days after shipping", async () => {
      const received = await order();
      const late = await order();
      const recent = await order();
      for (const { id } of [received, late, recent]) expect((await call("shoporderdeliver", { id, express_code: "ZTO", tracking_no: `ZT${id}000000` })).return_code).toBe("SUCCESS");
      expect((await call("shoporderreceive", { id: received.id })).return_code).toBe("SUCCESS");
      expect(await orderRow(received.id)).toMatchObject({ status: "completed", completed_at: t.clock.now() });

      const day = 86_400_000;
      await t.db.update(shopOrders).set({ delivered_at: new Date(t.clock.now().getTime() - (SHOP_AUTO_COMPLETE_DAYS * day + 60_000)) }).where(eq(shopOrders.id, late.id));
      await t.db.update(shopOrders).set({ delivered_at: new Date(t.clock.now().getTime() - (SHOP_AUTO_COMPLETE_DAYS - 1) * day) }).where(eq(shopOrders.id, recent.id));
      await t.app.jobs.enqueue(COMPLETE_DELIVERED_ORDERS, {}, { uniqueKey: "fulfilment-test-complete" });
      await t.app.jobs.runDueJobs();
      expect((await orderRow(late.id)).status).toBe("completed");
      expect((await orderRow(recent.id)).status).toBe("delivered");
      const timeline = itemsOf(await call("shoporderinfo", { id: late.id })).timeline as Row[];
      expect(timeline.at(-1)).toMatchObject({ event: "shop_order_auto_completed", who: `job:${COMPLETE_DELIVERED_ORDERS}`, params: { days: SHOP_AUTO_COMPLETE_DAYS } });
      expect((await call("shoporderreceive", { id: late.id })).return_msg).toBe("“Confirm receipt” is not possible: the record is Completed");
    });
  });

  describe("cancelling", () => {
    it("cancels an unpaid order at its gateway and gives its stock back; a paid one stays", async () => {
      const before = (await skuOf("三年级数学同步练习")).stock;
      const unpaid = await order({ pay: false });
      expect((await skuOf("三年级数学同步练习")).stock).toBe(before - 1);
      const cancelled = await call("shopordercancel", { id: unpaid.id });
      expect(cancelled.return_code, cancelled.return_msg).toBe("SUCCESS");
      expect(await orderRow(unpaid.id)).toMatchObject({ status: "cancelled" });
      expect((await skuOf("三年级数学同步练习")).stock).toBe(before);
      expect((await call("shopordercancel", { id: unpaid.id })).return_msg).toBe("“Cancel order” is not possible: the record is Cancelled");
      const events = (itemsOf(await call("shoporderinfo", { id: unpaid.id })).timeline as Row[]).map((e) => [e.event, e.who]);
      expect(events).toEqual([
        ["shop_order_created", expect.any(String)],
        ["shop_order_closed", "system"],
        ["shopordercancel", "svc"],
      ]);
      const paid = await order();
      expect((await call("shopordercancel", { id: paid.id })).return_msg).toBe("“Cancel order” is not possible: the record is To deliver");
    });
  });

  it("exports the list as it is filtered, with the company's name and the tracking number", async () => {
    const [shipped] = await t.db.select().from(shopOrders).where(eq(shopOrders.tracking_no, "SF1234567890"));
    const file = await t.exportFile("adminapiv2", "shoporderexport", { status: "delivered" }, { token: svc, headers: { "accept-language": "zh" } });
    expect(file.return_code, file.return_msg).toBe("SUCCESS");
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(String(itemsOf(file).content_base64 ?? ""), "base64") as unknown as ArrayBuffer);
    const rows = workbook.worksheets[0]
      .getSheetValues()
      .filter((values) => Array.isArray(values))
      .map((values) => values.map(String));
    const row = rows.find((r) => r.includes(shipped.order_no));
    expect(row).toEqual(expect.arrayContaining(["顺丰速运", "SF1234567890"]));
  });
});
