/**
 * Fee orders whose activity items are goods (a uniform in a size), fulfilled as shop orders are (the shared
 * fulfilment of server/domains/retail/fulfilment.ts): an activity item names goods of its own provider; the payer
 * chooses a size and how to receive it before paying, its stock taken with the order and given back once when the
 * order closes unpaid; paying gives a pickup order its code, which the clerk finds and verifies at its point only
 * (pickupfind, pickupverify find both kinds); zdorderdeliver and zdorderreceive send and complete an express one;
 * zdorderdeliveryimport imports tracking numbers as the shop's import does, logged as the fee orders' imports.
 */
import ExcelJS from "exceljs";
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activities, classes, feeOrderGoods, feeOrders, goods, goodsSkus, paymentOrders, pickupPoints, pickupRecords, schools, students } from "../../server/db/schema";
import { COMPLETE_DELIVERED_ORDERS, SHOP_AUTO_COMPLETE_DAYS } from "../../server/domains/retail/shopOrders";
import { recordOrderClosed } from "../../server/payments/close";
import { describeOnEmbedded } from "../helpers/db";
import { sheetBase64 } from "../helpers/xlsxParts";
import { confirmSandbox, h5, itemsOf, type Row } from "./payerSupport";
import { createTestApp, type TestApp } from "./support";

const DAY_MS = 86_400_000;
const ADDRESS = { name: "李娜", phone: "13900139000", detail: "上海市黄浦区南京东路 100 号 5 楼" };

describeOnEmbedded("fee orders carrying goods", (kind) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  let schId = 0;
  let uniformId = 0;
  let skus: { id: number; spec_values: Record<string, string>; stock: number }[] = [];
  let harbourGoodsId = 0;
  let northGate = 0;
  let middleShop = 0;
  let activityId = 0;
  let itemId = 0;
  let code = "";
  let pupils: { id: number; name: string; student_no: string }[] = [];
  let payer = 0;

  const call = (user: string, method: string, payload: Row = {}, language = "en") => t.call("adminapiv2", method, payload, { token: tokens[user], headers: { "accept-language": language } });
  const feeOrder = async (id: number) => (await t.db.select().from(feeOrders).where(eq(feeOrders.id, id)))[0];
  const stockOf = async (skuId: number) => (await t.db.select({ stock: goodsSkus.stock }).from(goodsSkus).where(eq(goodsSkus.id, skuId)))[0].stock;
  const sku = (size: string) => skus.find((s) => s.spec_values["尺码"] === size && s.spec_values["颜色"] === "藏青")!.id;

  /** The next pupil's ticket and bill of the uniform activity, from a phone of its own. */
  async function nextPayer() {
    const pupil = pupils[payer++];
    const ip = `198.51.100.${10 + payer}`;
    const found = await h5(t, "h5find", { code, name: pupil.name, student_no: pupil.student_no }, ip);
    expect(found.return_code, found.return_msg).toBe("SUCCESS");
    const items = itemsOf(found) as { ticket: string; bills: { id: number; goods: { item_id: number; skus: { id: number }[] }[] }[] };
    return { ip, ticket: items.ticket, bill: items.bills[0], student: pupil };
  }

  /** A paid (unless told otherwise) fee order of the uniform in a size, by express or at a pickup point. */
  async function uniformOrder(size: string, delivery: "express" | "pickup", options: { pay?: boolean } = {}) {
    const p = await nextPayer();
    const made = await h5(
      t,
      "h5pay",
      { ticket: p.ticket, bill_ids: [p.bill.id], goods: [{ item_id: itemId, sku_id: sku(size) }], delivery, ...(delivery === "pickup" ? { pickup_point_id: northGate } : { address: ADDRESS }) },
      p.ip,
    );
    expect(made.return_code, made.return_msg).toBe("SUCCESS");
    const answer = itemsOf(made) as { pay_no: string; orderid: string; payparam: { code_url: string } };
    if (options.pay !== false) expect((await confirmSandbox(t, answer.payparam.code_url)).return_code).toBe("SUCCESS");
    const [order] = await t.db.select().from(feeOrders).where(eq(feeOrders.pay_no, answer.pay_no));
    return { ...p, order, pay_no: answer.pay_no };
  }

  beforeAll(async () => {
    t = await createTestApp(kind);
    for (const u of ["svc", "pickup", "harbour", "staff", "school", "svcv1"]) tokens[u] = await t.login(u);
    [{ id: schId }] = await t.db.select({ id: schools.id }).from(schools).where(eq(schools.title, "Sunrise No.1 Primary School"));
    [{ id: uniformId }] = await t.db.select({ id: goods.id }).from(goods).where(eq(goods.title, "夏季校服短袖套装"));
    skus = await t.db.select({ id: goodsSkus.id, spec_values: goodsSkus.spec_values, stock: goodsSkus.stock }).from(goodsSkus).where(eq(goodsSkus.goods_id, uniformId));
    const [harbourGoods] = await t.db.select({ id: goods.id, sysid: goods.sysid }).from(goods).innerJoin(schools, eq(schools.sysid, goods.sysid)).where(eq(schools.title, "Harbour Bay School")).limit(1);
    harbourGoodsId = harbourGoods?.id ?? 0;
    [{ id: northGate }] = await t.db.select({ id: pickupPoints.id }).from(pickupPoints).where(eq(pickupPoints.title, "Sunrise North Gate Pickup"));
    [{ id: middleShop }] = await t.db.select({ id: pickupPoints.id }).from(pickupPoints).where(eq(pickupPoints.title, "Sunrise Middle School Shop"));
    const [klass] = await t.db.select({ id: classes.id }).from(classes).where(eq(classes.sch_id, schId)).orderBy(asc(classes.id)).offset(3).limit(1);
    pupils = await t.db
      .select({ id: students.id, name: students.name, student_no: students.student_no })
      .from(students)
      .where(and(eq(students.class_id, klass.id), eq(students.status, "1")))
      .orderBy(asc(students.id));
    const today = t.clock.now();
    const day = (offset: number) => new Date(today.getTime() + offset * DAY_MS).toISOString().slice(0, 10);
    const activity = { sch_id: schId, title: "Uniform order", start_date: day(-1), end_date: day(30), target: "classes", class_ids: [klass.id] };
    const item = { title: "Summer uniform", amount: "128.00", amount_mode: "fixed", required: "Y" };

    // goods of another provider are no goods of the item's
    if (harbourGoodsId) {
      const foreign = await call("svc", "activityadd", { ...activity, items: [{ ...item, goods_id: harbourGoodsId }] });
      expect(foreign.return_code).toBe("FAIL");
      expect((foreign.data?.errors as Row[])[0].field).toBe("items.0.goods_id");
    }
    const added = await call("svc", "activityadd", { ...activity, items: [{ ...item, goods_id: uniformId }] });
    expect(added.return_code, added.return_msg).toBe("SUCCESS");
    activityId = Number(itemsOf(added).id);
    itemId = Number((itemsOf(added).items as Row[])[0].id);
    expect((itemsOf(added).items as Row[])[0]).toMatchObject({ goods_id: uniformId });
    const opened = await call("svc", "activityact", { id: activityId, act: "open" });
    expect(opened.return_code, opened.return_msg).toBe("SUCCESS");
    const qr = await call("svc", "qrchnladd", { sch_id: schId, title: "Uniform poster", activity_id: activityId });
    expect(qr.return_code, qr.return_msg).toBe("SUCCESS");
    code = String(itemsOf(qr).code);
  });
  afterAll(async () => {
    await t?.close();
  });

  describe("the payer's order", () => {
    it("shows each bill's goods with their sizes and what is left of each", async () => {
      const p = await nextPayer();
      expect(p.bill.goods).toEqual([expect.objectContaining({ item_id: itemId, goods_id: uniformId, goods_title: "夏季校服短袖套装", delivery: "both" })]);
      expect(p.bill.goods[0].skus).toHaveLength(skus.length);
      payer--;
    });

    it("refuses a size missing or of other goods, no way to receive it, a point not serving the school or no address, naming the field", async () => {
      const p = await nextPayer();
      const pay = (payload: Row) => h5(t, "h5pay", { ticket: p.ticket, bill_ids: [p.bill.id], ...payload }, p.ip);
      const fieldOf = async (payload: Row) => {
        const res = await pay(payload);
        expect(res.return_code, JSON.stringify(payload)).toBe("FAIL");
        return (res.data?.errors as Row[])[0].field;
      };
      const [otherSku] = await t.db.select({ id: goodsSkus.id }).from(goodsSkus).innerJoin(goods, eq(goods.id, goodsSkus.goods_id)).where(eq(goods.title, "冬季校服冲锋衣")).limit(1);
      expect(await fieldOf({ delivery: "express", address: ADDRESS })).toBe("goods");
      expect(await fieldOf({ goods: [{ item_id: itemId, sku_id: otherSku.id }], delivery: "express", address: ADDRESS })).toBe("goods");
      expect(await fieldOf({ goods: [{ item_id: itemId, sku_id: sku("130") }] })).toBe("delivery");
      expect(await fieldOf({ goods: [{ item_id: itemId, sku_id: sku("130") }], delivery: "pickup", pickup_point_id: middleShop })).toBe("pickup_point_id");
      expect(await fieldOf({ goods: [{ item_id: itemId, sku_id: sku("130") }], delivery: "express" })).toBe("address");
      // a bad value is the payload's own refusal, never a failure of the server
      const bad = await pay({ goods: [{ item_id: "x", sku_id: sku("130") }], delivery: "express", address: ADDRESS });
      expect(bad.return_code).toBe("FAIL");
      expect(await t.db.select().from(feeOrders).where(and(eq(feeOrders.student_id, p.student.id), eq(feeOrders.activity_id, activityId)))).toHaveLength(0);
      payer--;
    });

    it("takes the size's stock with the order, refuses one sold out, and gives it back once when the order closes unpaid", async () => {
      const before = await stockOf(sku("160"));
      const open = await uniformOrder("160", "express", { pay: false });
      expect(await stockOf(sku("160"))).toBe(before - 1);
      expect(open.order).toMatchObject({ status: "unpaid", delivery: "express", fulfil_status: null, receiver_name: ADDRESS.name });
      expect(await t.db.select({ sku_id: feeOrderGoods.sku_id, qty: feeOrderGoods.qty }).from(feeOrderGoods).where(eq(feeOrderGoods.order_id, open.order.id))).toEqual([{ sku_id: sku("160"), qty: 1 }]);
      const [payment] = await t.db.select({ id: paymentOrders.id }).from(paymentOrders).where(eq(paymentOrders.payNo, open.pay_no));
      await recordOrderClosed(t.db, payment.id, t.clock.now());
      await recordOrderClosed(t.db, payment.id, t.clock.now());
      expect(await stockOf(sku("160"))).toBe(before);
      expect((await feeOrder(open.order.id)).status).toBe("closed");

      await t.db.update(goodsSkus).set({ stock: 0 }).where(eq(goodsSkus.id, sku("170")));
      const p = await nextPayer();
      const soldOut = await h5(t, "h5pay", { ticket: p.ticket, bill_ids: [p.bill.id], goods: [{ item_id: itemId, sku_id: sku("170") }], delivery: "express", address: ADDRESS }, p.ip);
      expect(soldOut.return_code).toBe("FAIL");
      expect((soldOut.data?.errors as Row[])[0].field).toBe("goods");
      expect(await stockOf(sku("170"))).toBe(0);
      payer--;
    });
  });

  describe("pickup", () => {
    it("gives a paid pickup order its code and QR token, which the payer reads and the clerk verifies at its point once", async () => {
      const o = await uniformOrder("130", "pickup");
      expect(o.order).toMatchObject({ status: "paid", fulfil_status: "undelivered", pickup_point_id: northGate });
      expect(o.order.pickup_code).toMatch(/^\d{8}$/);
      expect((o.order.pickup_token ?? "").length).toBeGreaterThanOrEqual(22);
      const checked = itemsOf(await h5(t, "h5checkpay", { ticket: o.ticket, pay_no: o.pay_no }, o.ip)) as { fulfilment: Row };
      expect(checked.fulfilment).toMatchObject({ delivery: "pickup", status: "undelivered", pickup_code: o.order.pickup_code, pickup_token: o.order.pickup_token });

      // the school and the provider read the order, never its code nor its token: those are the payer's and the clerk's lookup's
      for (const reader of ["svc", "school", "staff"]) {
        const info = itemsOf(await call(reader, "orderinfo", { id: o.order.id }));
        expect(info, reader).toMatchObject({ delivery: "pickup", fulfil_status: "undelivered" });
        expect(info, reader).not.toHaveProperty("pickup_code");
        expect(info, reader).not.toHaveProperty("pickup_token");
        const listed = (await call(reader, "orderlist", { sch_id: schId, order_no: o.order.order_no })).data?.items as Row[];
        expect(listed, reader).toEqual([expect.not.objectContaining({ pickup_code: expect.anything() })]);
        expect(Object.keys(listed[0]), reader).not.toContain("pickup_token");
      }

      const found = await call("pickup", "pickupfind", { code: o.order.pickup_code });
      expect(found.return_code, found.return_msg).toBe("SUCCESS");
      expect(itemsOf(found)).toMatchObject({ kind: "fee_order", order_no: o.order.order_no, status: "undelivered", pickup_point: "Sunrise North Gate Pickup", verified: null });
      expect((itemsOf(found).items as Row[])[0]).toMatchObject({ title: "夏季校服短袖套装", spec_values: { 尺码: "130", 颜色: "藏青" }, qty: 1 });
      // another provider finds nothing; the staff may not look
      expect((await call("harbour", "pickupfind", { code: o.order.pickup_code })).return_code).toBe("FAIL");
      expect((await call("staff", "pickupfind", { code: o.order.pickup_code })).return_code).toBe("FAIL");

      const handed = await call("pickup", "pickupverify", { code: o.order.pickup_token, via: "scan" });
      expect(handed.return_code, handed.return_msg).toBe("SUCCESS");
      expect(await feeOrder(o.order.id)).toMatchObject({ status: "paid", fulfil_status: "completed" });
      const records = await t.db.select().from(pickupRecords).where(eq(pickupRecords.fee_order_id, o.order.id));
      expect(records).toEqual([expect.objectContaining({ kind: "fee_order", order_id: null, order_no: o.order.order_no, pickup_point_id: northGate, via: "scan" })]);
      const again = await call("svc", "pickupverify", { code: o.order.pickup_code, via: "code" });
      expect(again.return_msg).toMatch(/^Already collected/);
      const listed = (await call("pickup", "pickupreclist", { order_no: o.order.order_no })).data?.items as Row[];
      expect(listed).toEqual([expect.objectContaining({ kind: "fee_order", order_no: o.order.order_no })]);
      // the order's own timeline says it was collected
      const events = (itemsOf(await call("svc", "orderinfo", { id: o.order.id })).events as Row[]).map((e) => e.event);
      expect(events).toContain("collected");
    });

    it("finds the demo's fee order waiting at the clerk's point", async () => {
      const [demo] = await t.db
        .select()
        .from(feeOrders)
        .innerJoin(activities, eq(activities.id, feeOrders.activity_id))
        .where(and(eq(activities.title, "2027 校服征订 Uniform order"), eq(feeOrders.delivery, "pickup")));
      expect(demo.fee_orders.fulfil_status).toBe("undelivered");
      const found = await call("pickup", "pickupfind", { code: demo.fee_orders.pickup_code });
      expect(itemsOf(found)).toMatchObject({ kind: "fee_order", order_no: demo.fee_orders.order_no });
    });
  });

  describe("zdorderdeliver and zdorderreceive", () => {
    it("send a paid express order once, by the provider only, and complete it when received", async () => {
      const o = await uniformOrder("140", "express");
      expect(o.order).toMatchObject({ status: "paid", fulfil_status: "undelivered", pickup_code: null });
      const deliver = (user: string, payload: Row) => call(user, "zdorderdeliver", { id: o.order.id, ...payload });
      expect((await deliver("school", { express_code: "SF", tracking_no: "SF1000000001" })).return_msg).toBe("You are not allowed to do this");
      expect((await deliver("harbour", { express_code: "SF", tracking_no: "SF1000000001" })).return_code).toBe("FAIL");
      const badNumber = await deliver("svc", { express_code: "SF", tracking_no: "12" });
      expect((badNumber.data?.errors as Row[])[0].field).toBe("tracking_no");
      const badCompany = await deliver("svc", { express_code: "MARS", tracking_no: "SF1000000001" });
      expect((badCompany.data?.errors as Row[])[0].field).toBe("express_code");
      expect((await feeOrder(o.order.id)).fulfil_status).toBe("undelivered");

      const sent = await deliver("svc", { express_code: "SF", tracking_no: "SF1000000001" });
      expect(sent.return_code, sent.return_msg).toBe("SUCCESS");
      expect(await feeOrder(o.order.id)).toMatchObject({ status: "paid", fulfil_status: "delivered", express_code: "SF", tracking_no: "SF1000000001" });
      expect((await deliver("svc", { express_code: "SF", tracking_no: "SF1000000002" })).return_code).toBe("FAIL");
      const listed = (await call("svc", "orderlist", { fulfil_status: "delivered", sch_id: schId })).data?.items as Row[];
      expect(listed.map((r) => Number(r.id))).toContain(o.order.id);

      const received = await call("svc", "zdorderreceive", { id: o.order.id });
      expect(received.return_code, received.return_msg).toBe("SUCCESS");
      expect((await feeOrder(o.order.id)).fulfil_status).toBe("completed");
    });

    it("never sends a pickup order, an unpaid one, or an order of fees alone", async () => {
      const pickup = await uniformOrder("150", "pickup");
      const refused = await call("svc", "zdorderdeliver", { id: pickup.order.id, express_code: "SF", tracking_no: "SF1000000003" });
      expect(refused.return_code).toBe("FAIL");
      const unpaid = await uniformOrder("150", "express", { pay: false });
      expect((await call("svc", "zdorderdeliver", { id: unpaid.order.id, express_code: "SF", tracking_no: "SF1000000004" })).return_code).toBe("FAIL");
      const [feesOnly] = await t.db.select().from(feeOrders).where(and(eq(feeOrders.sch_id, schId), eq(feeOrders.status, "paid"))).orderBy(asc(feeOrders.id)).limit(1);
      expect(feesOnly.delivery).toBeNull();
      expect((await call("svc", "zdorderdeliver", { id: feesOnly.id, express_code: "SF", tracking_no: "SF1000000005" })).return_code).toBe("FAIL");
      expect((await feeOrder(feesOnly.id)).tracking_no).toBeNull();
    });
  });

  describe("zdorderdeliveryimport", () => {
    const HEADER = ["订单号", "快递公司", "快递单号", "备注"];

    it("previews, sends each row through zdorderdeliver, logs the import, and changes nothing imported again", async () => {
      const a = await uniformOrder("120", "express");
      const b = await uniformOrder("120", "express");
      const pickup = await uniformOrder("120", "pickup");
      const [feesOnly] = await t.db.select().from(feeOrders).where(and(eq(feeOrders.sch_id, schId), eq(feeOrders.status, "paid"))).orderBy(asc(feeOrders.id)).limit(1);
      const file = await sheetBase64(HEADER, [
        [a.order.order_no, "顺丰速运", "SF2000000001", "第一箱"],
        [b.order.order_no, "yto", "YT2000000002", null],
        [pickup.order.order_no, "SF", "SF2000000003", null],
        [feesOnly.order_no, "SF", "SF2000000004", null],
        ["20990101000000000000", "SF", "SF2000000005", null],
      ]);
      const importOf = (preview: boolean) => call("svc", "zdorderdeliveryimport", { filename: "校服发货.xlsx", content_base64: file, preview }, "zh");

      const previewed = itemsOf(await importOf(true));
      expect(previewed).toMatchObject({ preview: true, total: 5, deliver: 2, failed: 3 });
      expect((previewed.rows as Row[]).map((r) => [r.row, r.outcome, r.message])).toEqual([
        [2, "deliver", ""],
        [3, "deliver", ""],
        [4, "failed", "自提订单无需发货"],
        [5, "failed", "该订单没有需要发货的商品"],
        [6, "failed", "找不到订单 20990101000000000000"],
      ]);
      expect((await feeOrder(a.order.id)).fulfil_status).toBe("undelivered");

      const done = itemsOf(await importOf(false));
      expect(done).toMatchObject({ preview: false, total: 5, delivered: 2, unchanged: 0, failed: 3 });
      expect(await feeOrder(a.order.id)).toMatchObject({ fulfil_status: "delivered", express_code: "SF", tracking_no: "SF2000000001" });
      expect(await feeOrder(b.order.id)).toMatchObject({ fulfil_status: "delivered", express_code: "YTO", tracking_no: "YT2000000002" });
      expect((done.file as Row).filename).toBe("校服发货-结果.xlsx");

      const again = itemsOf(await importOf(false));
      expect(again).toMatchObject({ total: 5, delivered: 0, unchanged: 2, failed: 3 });
      const logs = (await call("svc", "deliveryimportlist", { kind: "fee_order" })).data?.items as Row[];
      expect(logs.slice(0, 2).map((l) => [l.filename, l.delivered, l.unchanged, l.failed])).toEqual([
        ["校服发货.xlsx", 0, 2, 3],
        ["校服发货.xlsx", 2, 0, 3],
      ]);
      // sent and never said received: completed by the shop's job after its days, on the order's own timeline
      await t.db.update(feeOrders).set({ delivered_at: new Date(t.clock.now().getTime() - (SHOP_AUTO_COMPLETE_DAYS * DAY_MS + 60_000)) }).where(eq(feeOrders.id, a.order.id));
      await t.app.jobs.enqueue(COMPLETE_DELIVERED_ORDERS, {}, { uniqueKey: "fee-orders-complete" });
      await t.app.jobs.runDueJobs();
      expect(await feeOrder(a.order.id)).toMatchObject({ fulfil_status: "completed", status: "paid" });
      expect((await feeOrder(b.order.id)).fulfil_status).toBe("delivered");
      expect((itemsOf(await call("svc", "orderinfo", { id: a.order.id })).events as Row[]).at(-1)).toMatchObject({ event: "received" });
      // the shop's import finds no fee order, and the fee orders' import no shop order
      const shop = itemsOf(await call("svc", "orderdeliveryimport", { filename: "shop.xlsx", content_base64: file, preview: true }, "zh"));
      expect((shop.rows as Row[])[0]).toMatchObject({ outcome: "failed", message: `找不到订单 ${a.order.order_no}` });
    });

    it("is the second generation's: the first generation's provider, whose activities sell no goods, exports no delivery column", async () => {
      /** the texts of the exported order list's cells, as the caller's file holds them */
      const exportedTexts = async (user: string) => {
        const file = await t.exportFile("adminapiv2", "orderexport", {}, { token: tokens[user], headers: { "accept-language": "en" } });
        expect(file.return_code, file.return_msg).toBe("SUCCESS");
        const workbook = new ExcelJS.Workbook();
        await workbook.xlsx.load(Buffer.from(String(itemsOf(file).content_base64 ?? ""), "base64") as unknown as ArrayBuffer);
        return workbook.worksheets[0].getSheetValues().flatMap((values) => (Array.isArray(values) ? values.map(String) : []));
      };
      const v2 = await exportedTexts("svc");
      expect(v2).toEqual(expect.arrayContaining(["Order no.", "Delivery status", "Tracking number"]));
      const v1 = await exportedTexts("svcv1");
      expect(v1).toContain("Order no.");
      expect(v1).not.toContain("Delivery status");
      expect(v1).not.toContain("Tracking number");
    });

    it("is the provider's alone: its template and import refuse other roles, and another provider finds none of its orders", async () => {
      expect((await call("svc", "zdorderdeliverytemplate")).return_code).toBe("SUCCESS");
      expect((await call("school", "zdorderdeliverytemplate")).return_msg).toBe("You are not allowed to do this");
      expect((await call("staff", "zdorderdeliveryimport", { filename: "x.xlsx", content_base64: "" })).return_msg).toBe("You are not allowed to do this");
      const { order } = await uniformOrder("130", "express");
      const file = await sheetBase64(HEADER, [[order.order_no, "SF", "SF3000000001", null]]);
      // Harbour (its term over) may send nothing; its orders are its own anyway
      const foreign = await call("harbour", "zdorderdeliveryimport", { filename: "x.xlsx", content_base64: file });
      expect(foreign.return_code).toBe("FAIL");
      expect((await feeOrder(order.id)).tracking_no).toBeNull();
      // a bad tracking number is refused naming the field
      expect((await call("svc", "zdorderdeliver", { id: order.id, express_code: "SF", tracking_no: "bad" })).data?.errors).toEqual([expect.objectContaining({ field: "tracking_no" })]);
      const bad = await call("svc", "zdorderdeliveryimport", { filename: "x.xlsx", content_base64: "not a sheet" });
      expect(bad.return_code).toBe("FAIL");
      expect((bad.data?.errors as Row[] | undefined)?.[0]?.field).toBe("content_base64");
    });
  });
});
