/**
 * Goods statistics (goodsstatis, /datacount goods_statisv2), on both databases: shop orders made on the payer page,
 * paid through the sandbox and refunded through shoporderrefund, then read by school, goods item, SKU, day and month
 * against figures written out by hand here, to the fen: an order of two items refunded in part (the refund split by
 * the items' amounts, the rest of the rounding on the last), an order refunded in full (cancelled, still sold and
 * refunded), one paid the next day and one never paid. The refunds go with the day the order was paid; a top
 * category takes in those within it; an order of several goods counts once in the total; the export holds the same
 * rows; the totals equal the shop order list's summary; another provider and the other roles see none of it.
 */
import ExcelJS from "exceljs";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { fenToYuan, yuanToFen } from "../../common/money";
import { addDays, businessDay } from "../../common/term";
import { goods, goodsCategories, goodsSkus, pickupPoints, shopOrders, students } from "../../server/db/schema";
import { translator } from "../../server/lib/i18n";
import { describeOnDatabases } from "../helpers/db";
import { confirmSandbox, h5, itemsOf, payerWorld, type PayerWorld, type Row } from "./payerSupport";
import { createTestApp, type TestApp } from "./support";

const en = translator("en");
const PAYER_IP = "203.0.113.61";

/** a row's figures in fen: orders, quantity, amount, refunded, net */
type Figures = [orders: number, qty: number, amount: number, refunded: number, net: number];
const figuresOf = (row: Row): Figures => [Number(row.orders), Number(row.qty), yuanToFen(String(row.amount))!, yuanToFen(String(row.refund_amount))!, yuanToFen(String(row.net_amount))!];

describeOnDatabases("goods statistics", (kind) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  let world: PayerWorld;
  let northGate: number;
  let dayOne: string;
  let dayTwo: string;
  const sku: Record<string, number> = {};
  const goodsId: Record<string, number> = {};
  const orders: Record<string, { id: number; pay_no: string }> = {};

  const call = (user: string, method: string, payload: Row = {}, headers?: Record<string, string>) => t.call("adminapiv2", method, payload, { token: tokens[user], headers });
  const loginAll = async () => {
    for (const u of ["svc", "harbour", "staff", "school", "sysadmin"]) tokens[u] = await t.login(u);
  };
  /** the report's rows (dimension value -> figures) and totals, as the provider reads them over the two days */
  async function report(payload: Row = {}, user = "svc"): Promise<{ rows: Map<unknown, Figures>; titles: Map<unknown, unknown>; order: unknown[]; sums: Figures; total: number }> {
    const res = await call(user, "goodsstatis", { paid_at_start: dayOne, paid_at_end: dayTwo, ...payload });
    expect(res.return_code, res.return_msg).toBe("SUCCESS");
    const dimension = String(payload.dimension ?? "sch_id");
    const items = res.data?.items as Row[];
    const titleKey = `${dimension.replace(/_id$/, "")}_title`;
    return {
      rows: new Map(items.map((row) => [row[dimension], figuresOf(row)])),
      titles: new Map(items.map((row) => [row[dimension], row[titleKey]])),
      order: items.map((row) => row[dimension]),
      sums: figuresOf(res.data?.sums as Row),
      total: Number(res.data?.total),
    };
  }

  /** an order made on the payer page by a student of the school, paid (or not) on the sandbox's page */
  async function shopOrder(name: string, studentOffset: number, items: { sku: string; qty: number }[], delivery: "pickup" | "express", pay = true) {
    const [student] = await t.db.select().from(students).where(and(eq(students.sch_id, world.schId), eq(students.status, "1"))).orderBy(students.id).offset(studentOffset).limit(1);
    const found = await h5(t, "h5find", { code: world.code, name: student.name, student_no: student.student_no }, PAYER_IP);
    expect(found.return_code, found.return_msg).toBe("SUCCESS");
    const where = delivery === "pickup" ? { pickup_point_id: northGate } : { address: { name: "王芳", phone: "13800138000", province: "31", detail: "1 Sunrise Road, Room 301" } };
    const made = await h5(t, "h5shoporder", { ticket: String(itemsOf(found).ticket), items: items.map((i) => ({ sku_id: sku[i.sku], qty: i.qty })), delivery, ...where }, PAYER_IP);
    expect(made.return_code, made.return_msg).toBe("SUCCESS");
    const order = itemsOf(made) as { id: number; pay_no: string; payparam: { code_url: string } };
    if (pay) expect((await confirmSandbox(t, order.payparam.code_url)).return_code).toBe("SUCCESS");
    orders[name] = { id: order.id, pay_no: order.pay_no };
  }

  async function refund(name: string, yuan: string) {
    const res = await call("svc", "shoporderrefund", { id: orders[name]!.id, amount: yuan, reason: "退货" });
    expect(res.return_code, res.return_msg).toBe("SUCCESS");
  }

  beforeAll(async () => {
    t = await createTestApp(kind);
    await loginAll();
    world = await payerWorld(t, tokens.svc!);
    [{ id: northGate }] = await t.db.select({ id: pickupPoints.id }).from(pickupPoints).where(eq(pickupPoints.title, "Sunrise North Gate Pickup"));
    const skuRows = await t.db.select({ id: goodsSkus.id, goods_id: goods.id, title: goods.title, specs: goodsSkus.spec_values }).from(goodsSkus).innerJoin(goods, eq(goods.id, goodsSkus.goods_id));
    const skuOf = (title: string, specs: Record<string, string>) => skuRows.find((r) => r.title === title && Object.entries(specs).every(([k, v]) => r.specs[k] === v))!;
    sku.summer130 = skuOf("夏季校服短袖套装", { 尺码: "130", 颜色: "藏青" }).id;
    sku.summer150 = skuOf("夏季校服短袖套装", { 尺码: "150", 颜色: "藏青" }).id;
    sku.winter140 = skuOf("冬季校服冲锋衣", { 尺码: "140" }).id;
    sku.bookPep = skuOf("三年级数学同步练习", { 版本: "人教版" }).id;
    sku.bookBnu = skuOf("三年级数学同步练习", { 版本: "北师大版" }).id;
    goodsId.summer = skuOf("夏季校服短袖套装", { 尺码: "130", 颜色: "藏青" }).goods_id;
    goodsId.winter = skuOf("冬季校服冲锋衣", { 尺码: "140" }).goods_id;
    goodsId.book = skuOf("三年级数学同步练习", { 版本: "人教版" }).goods_id;

    // days of their own, after the demo's orders: the first at 10:00 China time, three days on
    dayOne = addDays(businessDay(t.clock.now()), 3);
    dayTwo = addDays(dayOne, 1);
    t.clock.advance(new Date(`${dayOne}T10:00:00+08:00`).getTime() - t.clock.now().getTime());
    await loginAll();
    // A: two summer uniforms (128.00 each) and a winter jacket (268.00), 524.00, to collect
    await shopOrder("A", 0, [{ sku: "summer130", qty: 2 }, { sku: "winter140", qty: 1 }], "pickup");
    // B: a summer uniform of 150 (138.00) and three exercise books (32.50 each), 235.50, sent
    await shopOrder("B", 1, [{ sku: "summer150", qty: 1 }, { sku: "bookPep", qty: 3 }], "express");

    t.clock.advance(24 * 3_600_000);
    await loginAll();
    // C: two books of the other edition, 65.00, paid the next day; D: never paid
    await shopOrder("C", 2, [{ sku: "bookBnu", qty: 2 }], "express");
    await shopOrder("D", 3, [{ sku: "summer130", qty: 1 }], "pickup", false);
    // A refunded 100.00 of 524.00 on the second day; B refunded whole
    await refund("A", "100.00");
    await refund("B", "235.50");
    await t.app.jobs.runDueJobs();
    const state = async (name: string) => (await t.db.select().from(shopOrders).where(eq(shopOrders.id, orders[name]!.id)))[0]!;
    expect(await state("A")).toMatchObject({ refund_status: "part", refunded_amount: 10_000 });
    expect(await state("B")).toMatchObject({ status: "cancelled", refund_status: "all", refunded_amount: 23_550 });
    expect(await state("D")).toMatchObject({ status: "unpaid", paid_at: null });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  // A's 100.00 by its items: 256.00 / 524.00 of it rounded down on the uniforms (48.85), the rest on the jacket (51.15)
  const SUMMER: Figures = [2, 3, 25_600 + 13_800, 4_885 + 13_800, 39_400 - 18_685];
  const WINTER: Figures = [1, 1, 26_800, 5_115, 21_685];
  const BOOK: Figures = [2, 5, 9_750 + 6_500, 9_750, 6_500];
  // three orders paid (A, B, C), nine pieces, 524.00 + 235.50 + 65.00 sold, 100.00 + 235.50 refunded
  const ALL: Figures = [3, 9, 82_450, 33_550, 48_900];

  it("sums each goods item, each SKU, the school and each day of payment to the fen, the part refund split by the items' amounts", async () => {
    const byGoods = await report({ dimension: "goods_id" });
    expect(byGoods.rows).toEqual(
      new Map([
        [goodsId.summer, SUMMER],
        [goodsId.winter, WINTER],
        [goodsId.book, BOOK],
      ]),
    );
    // the best sellers first; an order of several goods counts once in the total
    expect(byGoods.order).toEqual([goodsId.summer, goodsId.winter, goodsId.book]);
    expect(byGoods.titles.get(goodsId.winter)).toBe("冬季校服冲锋衣");
    expect(byGoods.sums).toEqual(ALL);
    expect(byGoods.total).toBe(3);

    const bySku = await report({ dimension: "sku_id" });
    expect(bySku.rows).toEqual(
      new Map([
        [sku.summer130, [1, 2, 25_600, 4_885, 20_715]],
        [sku.winter140, [1, 1, 26_800, 5_115, 21_685]],
        [sku.summer150, [1, 1, 13_800, 13_800, 0]],
        [sku.bookPep, [1, 3, 9_750, 9_750, 0]],
        [sku.bookBnu, [1, 2, 6_500, 0, 6_500]],
      ]),
    );
    expect(bySku.titles.get(sku.summer130)).toBe("夏季校服短袖套装 (尺码 130 · 颜色 藏青)");
    expect(bySku.titles.get(sku.bookBnu)).toBe("三年级数学同步练习 (版本 北师大版)");
    expect(bySku.sums).toEqual(ALL);

    const bySchool = await report();
    expect(bySchool.rows).toEqual(new Map([[world.schId, ALL]]));
    expect(bySchool.titles.get(world.schId)).toBe("Sunrise No.1 Primary School");

    // the refunds made on the second day go with the first, when their orders were paid
    const byDay = await report({ dimension: "day" });
    expect(byDay.rows).toEqual(
      new Map([
        [dayOne, [2, 7, 75_950, 33_550, 42_400]],
        [dayTwo, [1, 2, 6_500, 0, 6_500]],
      ]),
    );
    expect(byDay.sums).toEqual(ALL);
    const byMonth = await report({ dimension: "month" });
    expect([...byMonth.rows.values()].reduce((sum, f) => sum + f[2], 0)).toBe(ALL[2]);
    expect(byMonth.sums).toEqual(ALL);

    // the second day alone: C only
    const second = await report({ paid_at_start: dayTwo, dimension: "goods_id" });
    expect(second.rows).toEqual(new Map([[goodsId.book, [1, 2, 6_500, 0, 6_500]]]));
  });

  it("narrows by goods item and by category, a top category taking in those within it, with the refunds split as before", async () => {
    const [uniforms] = await t.db.select({ id: goodsCategories.id }).from(goodsCategories).where(eq(goodsCategories.title, "校服"));
    const [winter] = await t.db.select({ id: goodsCategories.id }).from(goodsCategories).where(eq(goodsCategories.title, "冬季校服"));
    const byTop = await report({ dimension: "goods_id", cate_id: uniforms!.id });
    expect(byTop.rows).toEqual(
      new Map([
        [goodsId.summer, SUMMER],
        [goodsId.winter, WINTER],
      ]),
    );
    // A and B hold uniforms: two orders
    expect(byTop.sums).toEqual([2, 4, 66_200, 23_800, 42_400]);
    expect((await report({ dimension: "goods_id", cate_id: winter!.id })).rows).toEqual(new Map([[goodsId.winter, WINTER]]));
    const book = await report({ goods_id: goodsId.book });
    expect(book.rows).toEqual(new Map([[world.schId, BOOK]]));
    expect(book.sums).toEqual(BOOK);
    // a school opens its goods, a goods item its SKUs: the drill's filters
    const summerSkus = await report({ dimension: "sku_id", sch_id: world.schId, goods_id: goodsId.summer });
    expect(summerSkus.sums).toEqual(SUMMER);
    expect([...summerSkus.rows.keys()]).toEqual([sku.summer130, sku.summer150]);
  });

  it("totals what the shop order list sums over the same payments: its amount, its refunds and its paid figure", async () => {
    const listed = async (payload: Row) => {
      const res = await call("svc", "shoporderlist", { limit: 1, paid_at_start: dayOne, paid_at_end: dayTwo, ...payload });
      expect(res.return_code, res.return_msg).toBe("SUCCESS");
      const summary = res.data?.summary as Row;
      return { count: Number(res.data?.total), amount: yuanToFen(String(summary.amount))!, refunded: yuanToFen(String(summary.refunded_amount))!, paid: yuanToFen(String(summary.paid_amount))! };
    };
    const all = await listed({});
    expect([all.count, all.amount, all.refunded]).toEqual([ALL[0], ALL[2], ALL[3]]);
    // the list's paid figure is the money received, as the report's amount: an order refunded in full (B, cancelled)
    // was paid, and counts
    expect(all.paid).toBe(ALL[2]);
    const cancelled = await listed({ status: "cancelled" });
    expect(cancelled.amount).toBe(23_550);
    expect(cancelled.paid).toBe(23_550);
  });

  it("exports the same rows and total, headed in the caller's language", async () => {
    const res = await t.exportFile("adminapiv2", "goodsstatisexport", { paid_at_start: dayOne, paid_at_end: dayTwo, dimension: "goods_id" }, { token: tokens.svc, headers: { "accept-language": "en" } });
    expect(res.return_code, res.return_msg).toBe("SUCCESS");
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(String(itemsOf(res).content_base64), "base64") as unknown as ArrayBuffer);
    const rows: unknown[][] = [];
    workbook.worksheets[0]!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    const yuan = (f: Figures) => [f[0], f[1], Number(fenToYuan(f[2])), Number(fenToYuan(f[3])), Number(fenToYuan(f[4]))];
    expect(rows).toEqual([
      [en("reports.dimension.goods"), en("reports.measure.shop_orders"), en("reports.measure.qty"), en("reports.measure.sales_amount"), en("reports.measure.refund_amount"), en("reports.measure.net_amount")],
      ["夏季校服短袖套装", ...yuan(SUMMER)],
      ["冬季校服冲锋衣", ...yuan(WINTER)],
      ["三年级数学同步练习", ...yuan(BOOK)],
      [en("reports.total"), ...yuan(ALL)],
    ]);
  });

  it("shows another provider none of it, refuses another provider's school, and answers no other role", async () => {
    for (const dimension of ["sch_id", "goods_id", "sku_id", "day"]) {
      const other = await report({ dimension }, "harbour");
      expect(other.total, dimension).toBe(0);
      expect(other.sums, dimension).toEqual([0, 0, 0, 0, 0]);
    }
    // over every day Harbour reads its own demo order alone (two sports uniforms, 318.00), and Sunrise none of it
    const own = await call("harbour", "goodsstatis", { dimension: "goods_id" });
    expect((own.data?.items as Row[]).map((row) => [row.goods_title, ...figuresOf(row)])).toEqual([["Harbour 运动校服", 1, 2, 31_800, 0, 31_800]]);
    const sunrise = await call("svc", "goodsstatis", { dimension: "goods_id" });
    expect((sunrise.data?.items as Row[]).map((row) => row.goods_title)).not.toContain("Harbour 运动校服");
    // Sunrise's goods item asked for by Harbour: nothing
    expect((await report({ goods_id: goodsId.summer }, "harbour")).sums).toEqual([0, 0, 0, 0, 0]);
    expect((await call("harbour", "goodsstatis", { sch_id: world.schId })).return_code).toBe("FAIL");
    for (const user of ["staff", "school", "sysadmin"]) {
      expect((await call(user, "goodsstatis", {})).return_code, user).toBe("FAIL");
      expect((await call(user, "goodsstatisexport", {})).return_code, user).toBe("FAIL");
    }
  });

  it("refuses a dimension or a filter it does not know, naming it", async () => {
    const badDimension = await call("svc", "goodsstatis", { dimension: "class_id" }, { "accept-language": "en" });
    expect(badDimension.return_code).toBe("FAIL");
    expect(badDimension.return_msg).toContain("dimension");
    const badCategory = await call("svc", "goodsstatis", { cate_id: "uniforms" }, { "accept-language": "en" });
    expect(badCategory.return_code).toBe("FAIL");
    expect(badCategory.return_msg).toContain("cate_id");
  });
});
