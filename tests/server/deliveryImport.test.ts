/**
 * Tracking numbers imported from a spreadsheet (orderdeliveryimport): the preview says what each row would do and
 * writes nothing; the import sends each row through shoporderdeliver, a failed row leaving the others; the same
 * file imported again changes nothing; every import is logged with its counts; the result file names each row's
 * outcome. Expected outcomes are written out here row by row, from what a provider's clerk would expect.
 */
import { asc, eq } from "drizzle-orm";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { deliveryImports, goods, goodsSkus, shopOrders, students } from "../../server/db/schema";
import { describeOnEmbedded } from "../helpers/db";
import { sheetBase64 } from "../helpers/xlsxParts";
import { confirmSandbox, h5, itemsOf, payerWorld, type PayerWorld, type Row } from "./payerSupport";
import { createTestApp, type TestApp } from "./support";

describeOnEmbedded("delivery import", (kind) => {
  let t: TestApp;
  let svc: string;
  let world: PayerWorld;
  const orders: Record<"a" | "b" | "c" | "pickup" | "unpaid", { id: number; order_no: string }> = {} as never;

  const call = (method: string, payload: Row = {}) => t.call("adminapiv2", method, payload, { token: svc, headers: { "accept-language": "zh" } });
  const orderRow = async (id: number) => (await t.db.select().from(shopOrders).where(eq(shopOrders.id, id)))[0];
  const HEADER = ["订单号", "快递公司", "快递单号", "备注"];
  const importsOf = (filename: string) => t.db.select().from(deliveryImports).where(eq(deliveryImports.filename, filename)).orderBy(asc(deliveryImports.id));

  let payers = 0;
  async function order(options: { pay?: boolean; pickup?: boolean } = {}) {
    const ip = `198.51.100.${100 + ++payers}`;
    const [student] = await t.db.select().from(students).where(eq(students.sch_id, world.schId)).orderBy(asc(students.id)).offset(40 + payers).limit(1);
    const ticket = String(itemsOf(await h5(t, "h5find", { code: world.code, name: student.name, student_no: student.student_no }, ip)).ticket);
    const title = options.pickup ? "冬季校服冲锋衣" : "三年级数学同步练习";
    const [sku] = await t.db.select({ id: goodsSkus.id }).from(goodsSkus).innerJoin(goods, eq(goods.id, goodsSkus.goods_id)).where(eq(goods.title, title)).orderBy(asc(goodsSkus.id)).limit(1);
    const points = itemsOf(await h5(t, "h5pickuppoints", { code: world.code })) as unknown as Row[];
    const delivery = options.pickup
      ? { delivery: "pickup", pickup_point_id: points[0].id }
      : { delivery: "express", address: { name: "王芳", phone: "13800138000", province: "31", detail: "1 Sunrise Road, Room 301" } };
    const made = await h5(t, "h5shoporder", { ticket, items: [{ sku_id: sku.id, qty: 1 }], ...delivery }, ip);
    expect(made.return_code, made.return_msg).toBe("SUCCESS");
    const answer = itemsOf(made) as { id: number; order_no: string; payparam: { code_url: string } };
    if (options.pay !== false) expect((await confirmSandbox(t, answer.payparam.code_url)).return_code).toBe("SUCCESS");
    return { id: answer.id, order_no: answer.order_no };
  }

  beforeAll(async () => {
    t = await createTestApp(kind);
    svc = await t.login("svc");
    world = await payerWorld(t, svc);
    orders.a = await order();
    orders.b = await order();
    orders.c = await order();
    orders.pickup = await order({ pickup: true });
    orders.unpaid = await order({ pay: false });
  });
  afterAll(async () => {
    await t?.close();
  });

  const file = () =>
    sheetBase64(HEADER, [
      [orders.a.order_no, "顺丰速运", "SF1000000001", "第一箱"],
      // our code in any case, a number with spaces as printed on a label
      [orders.b.order_no, "yto", "YT 2000 0000 02", null],
      [orders.c.order_no, "火星快递", "HX3000000003", null],
      [orders.pickup.order_no, "SF", "SF1000000004", null],
      ["20990101000000000000", "SF", "SF1000000005", null],
      [orders.unpaid.order_no, "SF", "SF1000000006", null],
      [orders.a.order_no, "SF Express", "SF1000000001", "重复行"],
      [orders.b.order_no, "YTO", "YT9999999999", null],
      [orders.c.order_no, "ZTO", "12", null],
    ]);

  it("previews each row's outcome and writes nothing", async () => {
    const res = await call("orderdeliveryimport", { filename: "发货.xlsx", content_base64: await file(), preview: true });
    expect(res.return_code, res.return_msg).toBe("SUCCESS");
    const items = itemsOf(res);
    expect(items).toMatchObject({ preview: true, total: 9, deliver: 2, unchanged: 1, failed: 6 });
    expect((items.rows as Row[]).map((r) => [r.row, r.outcome, r.message])).toEqual([
      [2, "deliver", ""],
      [3, "deliver", ""],
      [4, "failed", "未知的快递公司“火星快递”"],
      [5, "failed", "自提订单无需发货"],
      [6, "failed", "找不到订单 20990101000000000000"],
      [7, "failed", "订单状态为“待支付”，不能发货"],
      [8, "unchanged", "与第 2 行相同"],
      [9, "failed", "与第 3 行是同一订单但快递信息不同"],
      [10, "failed", "快递单号为 6 至 40 位字母、数字或短横线"],
    ]);
    expect((items.rows as Row[])[1]).toMatchObject({ express_code: "YTO", tracking_no: "YT2000000002" });
    expect((await orderRow(orders.a.id)).status).toBe("undelivered");
    expect(await importsOf("发货.xlsx")).toEqual([]);
  });

  it("sends each row through the deliver action, logs the import and answers the result file", async () => {
    const res = await call("orderdeliveryimport", { filename: "发货.xlsx", content_base64: await file() });
    expect(res.return_code, res.return_msg).toBe("SUCCESS");
    expect(res.return_msg).toBe("共 9 行：2 行已发货，1 行无变化，6 行失败");
    const items = itemsOf(res) as Row & { file: { filename: string; content_base64: string } };
    expect(items).toMatchObject({ preview: false, total: 9, delivered: 2, unchanged: 1, failed: 6 });
    expect(await orderRow(orders.a.id)).toMatchObject({ status: "delivered", express_code: "SF", tracking_no: "SF1000000001" });
    expect(await orderRow(orders.b.id)).toMatchObject({ status: "delivered", express_code: "YTO", tracking_no: "YT2000000002" });
    for (const other of [orders.c, orders.pickup, orders.unpaid]) expect((await orderRow(other.id)).tracking_no).toBeNull();
    // the action's own trail: its audit entry on the order's timeline
    const timeline = itemsOf(await call("shoporderinfo", { id: orders.a.id })).timeline as Row[];
    expect(timeline.at(-1)).toMatchObject({ event: "shoporderdeliver", who: "svc", params: { express_code: "SF", tracking_no: "SF1000000001" } });

    const [log] = await importsOf("发货.xlsx");
    expect(log).toMatchObject({ id: items.log_id, kind: "shop_order", filename: "发货.xlsx", username: "svc", total: 9, delivered: 2, unchanged: 1, failed: 6 });
    expect(JSON.parse(log.errors ?? "[]")).toHaveLength(6);
    const listed = await call("deliveryimportlist", { kind: "shop_order" });
    expect((listed.data?.items as Row[])[0]).toMatchObject({ id: log.id, delivered: 2, failed: 6 });

    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Buffer.from(items.file.content_base64, "base64") as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    expect(items.file.filename).toBe("发货-结果.xlsx");
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(["订单号", "快递公司", "快递单号", "备注", "结果", "原因"]);
    expect((sheet.getRow(2).values as unknown[]).slice(1)).toEqual([orders.a.order_no, "顺丰速运", "SF1000000001", "第一箱", "已发货", ""]);
    expect((sheet.getRow(4).values as unknown[]).slice(1)).toEqual([orders.c.order_no, "火星快递", "HX3000000003", "", "失败", "未知的快递公司“火星快递”"]);
  });

  it("changes nothing when the same file is imported again", async () => {
    const sentAt = (await orderRow(orders.a.id)).delivered_at;
    t.clock.advance(60_000);
    const res = await call("orderdeliveryimport", { filename: "发货.xlsx", content_base64: await file() });
    expect(itemsOf(res)).toMatchObject({ total: 9, delivered: 0, unchanged: 3, failed: 6 });
    expect((itemsOf(res).rows as Row[]).slice(0, 2).map((r) => r.message)).toEqual(["已按此快递单号发货", "已按此快递单号发货"]);
    expect((await orderRow(orders.a.id)).delivered_at).toEqual(sentAt);
    expect(await importsOf("发货.xlsx")).toHaveLength(2);
  });

  it("refuses a file without a column it needs, naming the column", async () => {
    const res = await call("orderdeliveryimport", { filename: "x.xlsx", content_base64: await sheetBase64(["订单号", "快递公司"], [[orders.c.order_no, "SF"]]) });
    expect(res.return_code).toBe("FAIL");
    expect(res.data?.errors).toEqual([{ field: "content_base64", message: "文件缺少“快递单号”列" }]);
  });

  it("answers the template with the columns in the reader's language", async () => {
    const res = await t.call("adminapiv2", "orderdeliverytemplate", {}, { token: svc, headers: { "accept-language": "en" } });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Buffer.from(String(itemsOf(res).content_base64), "base64") as unknown as ArrayBuffer);
    expect((book.worksheets[0].getRow(1).values as unknown[]).slice(1)).toEqual(["Order no.", "Express company", "Tracking number", "Remark"]);
  });
});
