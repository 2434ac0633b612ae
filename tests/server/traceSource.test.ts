/**
 * Trace-source codes (tracesourcelist): the demo's codes as each provider reads them; the import by file per SKU and
 * batch (a preview writing nothing, each row's outcome, codes already there left alone, the same file again adding
 * nothing); binding a code to a paid order item at packing or pickup (tracesourcebind: its SKU, at most the item's
 * quantity, never a voided or bound code) and voiding a free one; another provider reading or binding none of them;
 * the payer's order showing the item's codes and the public page showing the garment's facts and nothing private.
 * Expected outcomes are written out here, from what a provider's clerk and a parent would expect.
 */
import { and, asc, eq, inArray } from "drizzle-orm";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { auditLog, goods, goodsSkus, providers, shopOrderItems, shopOrders, students, traceSources } from "../../server/db/schema";
import { describeOnEmbedded } from "../helpers/db";
import { sheetBase64 } from "../helpers/xlsxParts";
import { h5, itemsOf, payerWorld, type PayerWorld, type Row } from "./payerSupport";
import { createTestApp, type TestApp } from "./support";

describeOnEmbedded("trace-source codes", (kind) => {
  let t: TestApp;
  let svc: string;
  let harbour: string;
  let world: PayerWorld;
  let sunriseSysid: number;
  let harbourSysid: number;

  const call = (method: string, payload: Row = {}, token = svc) => t.call("adminapiv2", method, payload, { token, headers: { "accept-language": "en" } });
  const HEADER = ["监管码", "SKU", "生产批次", "生产企业", "执行标准", "面料成分", "检验报告"];
  const skuOf = async (sysid: number, title: string, specs: Record<string, string>) => {
    const rows = await t.db
      .select({ id: goodsSkus.id, goods_id: goodsSkus.goods_id, barcode: goodsSkus.barcode, spec_values: goodsSkus.spec_values })
      .from(goodsSkus)
      .innerJoin(goods, eq(goods.id, goodsSkus.goods_id))
      .where(and(eq(goods.sysid, sysid), eq(goods.title, title)));
    const found = rows.find((r) => Object.entries(specs).every(([k, v]) => r.spec_values[k] === v));
    if (!found) throw new Error(`no SKU ${title} ${JSON.stringify(specs)}`);
    return found;
  };
  const codeRow = async (code: string, sysid = sunriseSysid) => (await t.db.select().from(traceSources).where(and(eq(traceSources.sysid, sysid), eq(traceSources.code, code))))[0];
  const freeCodes = async (skuId: number) =>
    (await t.db.select({ code: traceSources.code }).from(traceSources).where(and(eq(traceSources.sku_id, skuId), eq(traceSources.status, "free"))).orderBy(asc(traceSources.id))).map((r) => r.code);

  beforeAll(async () => {
    t = await createTestApp(kind);
    svc = await t.login("svc");
    harbour = await t.login("harbour");
    world = await payerWorld(t, svc);
    sunriseSysid = world.sysid;
    [{ id: harbourSysid }] = await t.db.select({ id: providers.id }).from(providers).where(eq(providers.title, "Harbour Education Services"));
    // Harbour's term is over in the demo (its writes refused for that); renewed here, so that its refusals below are its tenancy's
    await t.db.update(providers).set({ end_time: "2099-12-31" }).where(eq(providers.id, harbourSysid));
  });
  afterAll(async () => {
    await t?.close();
  });

  it("lists each provider's own demo codes: free, bound to its orders' items, voided", async () => {
    const res = await call("tracesourcelist", { page: 1, limit: 100 });
    expect(res.return_code, res.return_msg).toBe("SUCCESS");
    const rows = res.data?.items as Row[];
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.every((r) => String(r.code).startsWith("CG24"))).toBe(true);
    expect(new Set(rows.map((r) => r.status))).toEqual(new Set(["free", "bound", "voided"]));
    const bound = rows.find((r) => r.status === "bound")!;
    expect(bound).toMatchObject({ goods_title: expect.stringMatching(/校服/), order_title: expect.stringMatching(/^\d+$/), spec_values: expect.objectContaining({ 尺码: expect.any(String) }), bound_by: "svc" });
    const theirs = await call("tracesourcelist", { page: 1, limit: 100 }, harbour);
    expect((theirs.data?.items as Row[]).map((r) => String(r.code).slice(0, 2))).toEqual(expect.arrayContaining(["HB"]));
    expect((theirs.data?.items as Row[]).some((r) => String(r.code).startsWith("CG"))).toBe(false);
    // another provider's record: not found, as any id that is not there
    expect((await call("tracesourceinfo", { id: bound.id }, harbour)).return_msg).toBe("Record not found");
  });

  it("imports a file of codes per SKU and batch: a preview first, a result for each row, nothing twice", async () => {
    const jacket = await skuOf(sunriseSysid, "冬季校服冲锋衣", { 尺码: "160" });
    const summer = await skuOf(sunriseSysid, "夏季校服短袖套装", { 尺码: "170", 颜色: "白色" });
    const harbourSku = await skuOf(harbourSysid, "Harbour 运动校服", { 尺码: "M" });
    const batch = { sku_id: jacket.id, batch_no: "CG2411-W02", manufacturer: "江苏晨光服饰有限公司", standard: "GB/T 31888-2015", fabric: "100% 聚酯纤维", report_url: "https://www.example.com/reports/CG2411-W02.pdf" };
    const file = await sheetBase64(HEADER, [
      ["CG2411W00001", null, null, null, null, null, null],
      ["CG2411W00002", null, null, null, null, null, null],
      // a row of its own SKU (by barcode) and batch
      ["CG2411S00001", summer.barcode, "CG2411-S02", "晨光", null, "65% 聚酯纤维 35% 棉", null],
      // already the demo's, of another SKU and batch
      ["CG2409S00001", null, null, null, null, null, null],
      ["CG2411W00003", "NOPE-1", null, null, null, null, null],
      // another provider's SKU is no SKU of ours
      ["CG2411W00004", harbourSku.barcode, null, null, null, null, null],
      ["CG2411W00001", null, null, null, null, null, null],
      ["CG2411W00002", null, "CG2411-W09", null, null, null, null],
      ["bad code!", null, null, null, null, null, null],
      ["CG2411W00005", null, null, null, null, null, "javascript:alert(1)"],
    ]);
    const preview = await call("tracesourceimport", { filename: "监管码.xlsx", content_base64: file, preview: true, ...batch });
    expect(preview.return_code, preview.return_msg).toBe("SUCCESS");
    expect(itemsOf(preview)).toMatchObject({ preview: true, total: 10, add: 3, unchanged: 1, failed: 6 });
    expect((itemsOf(preview).rows as Row[]).map((r) => [r.row, r.outcome, r.message])).toEqual([
      [2, "add", ""],
      [3, "add", ""],
      [4, "add", ""],
      [5, "failed", "Code CG2409S00001 already exists (another SKU or batch)"],
      [6, "failed", "Unknown SKU “NOPE-1”"],
      [7, "failed", `Unknown SKU “${harbourSku.barcode}”`],
      [8, "unchanged", "The same as row 2"],
      [9, "failed", "The same code as row 3 with other facts"],
      [10, "failed", "A code has letters, digits and . _ - only, and starts with a letter or digit"],
      [11, "failed", "The inspection report must be an http or https link"],
    ]);
    expect((itemsOf(preview).rows as Row[])[2]).toMatchObject({ sku_id: summer.id, sku: "夏季校服短袖套装 · 尺码 170 · 颜色 白色", batch_no: "CG2411-S02", manufacturer: "晨光", standard: "GB/T 31888-2015" });
    expect(await codeRow("CG2411W00001")).toBeUndefined();

    const done = await call("tracesourceimport", { filename: "监管码.xlsx", content_base64: file, ...batch });
    expect(done.return_code, done.return_msg).toBe("SUCCESS");
    expect(done.return_msg).toBe("10 rows: 3 imported, 1 unchanged, 6 failed");
    expect(itemsOf(done)).toMatchObject({ preview: false, added: 3, unchanged: 1, failed: 6 });
    expect(await codeRow("CG2411W00001")).toMatchObject({ sku_id: jacket.id, goods_id: jacket.goods_id, spec_values: { 尺码: "160", 颜色: "藏青" }, batch_no: "CG2411-W02", report_url: batch.report_url, status: "free", order_id: null });
    expect(await codeRow("CG2411S00001")).toMatchObject({ sku_id: summer.id, batch_no: "CG2411-S02", manufacturer: "晨光", standard: "GB/T 31888-2015", fabric: "65% 聚酯纤维 35% 棉" });
    // the demo's code is as it was
    expect(await codeRow("CG2409S00001")).toMatchObject({ batch_no: "CG2409-S01" });
    // the result file names each row's outcome
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(String((itemsOf(done).file as Row).content_base64), "base64") as never);
    const sheet = workbook.worksheets[0];
    expect(sheet.getRow(2).values).toEqual(expect.arrayContaining(["CG2411W00001", "Imported"]));
    expect(sheet.rowCount).toBe(11);

    // the same file again adds nothing
    const again = await call("tracesourceimport", { filename: "监管码.xlsx", content_base64: file, ...batch });
    expect(itemsOf(again)).toMatchObject({ added: 0, unchanged: 4, failed: 6 });
    expect((await t.db.select({ id: traceSources.id }).from(traceSources).where(inArray(traceSources.code, ["CG2411W00001", "CG2411W00002", "CG2411S00001"]))).length).toBe(3);
  });

  it("refuses a bad import naming the field, never a 500", async () => {
    const file = await sheetBase64(HEADER, [["CG2411W00009", null, null, null, null, null, null]]);
    const harbourSku = await skuOf(harbourSysid, "Harbour 运动校服", { 尺码: "M" });
    const foreign = await call("tracesourceimport", { content_base64: file, preview: true, sku_id: harbourSku.id, batch_no: "X" });
    expect(foreign.return_code).toBe("FAIL");
    expect(foreign.data?.errors).toEqual([{ field: "sku_id", message: `No such SKU: ${harbourSku.id}` }]);
    const badUrl = await call("tracesourceimport", { content_base64: file, preview: true, report_url: "ftp://example.com/r.pdf" });
    expect(badUrl.return_code).toBe("FAIL");
    expect(badUrl.return_msg).toContain("report_url");
    const noSku = await call("tracesourceimport", { content_base64: file, preview: true, batch_no: "X" });
    expect((itemsOf(noSku).rows as Row[])[0]).toMatchObject({ outcome: "failed", message: "No SKU: choose one or give it in the file" });
    const noColumn = await call("tracesourceimport", { content_base64: await sheetBase64(["SKU"], [["1"]]), preview: true });
    expect(noColumn.data?.errors).toEqual([{ field: "content_base64", message: "The file has no “Code” column" }]);
    const notAFile = await call("tracesourceimport", { content_base64: "bm90IGEgemlw", preview: true });
    expect(notAFile.return_code).toBe("FAIL");
  });

  it("binds codes of the item's SKU to a paid order item, at most its quantity, never a voided or bound one", async () => {
    // the demo's pickup order waiting at the North Gate: its two summer sets not packed with their codes yet
    const sku = await skuOf(sunriseSysid, "夏季校服短袖套装", { 尺码: "140", 颜色: "藏青" });
    const [item] = await t.db
      .select({ id: shopOrderItems.id, order_id: shopOrderItems.order_id, qty: shopOrderItems.qty, title: shopOrderItems.title, order_no: shopOrders.order_no, sch_id: shopOrders.sch_id })
      .from(shopOrderItems)
      .innerJoin(shopOrders, eq(shopOrders.id, shopOrderItems.order_id))
      .where(and(eq(shopOrderItems.sku_id, sku.id), eq(shopOrders.status, "undelivered")));
    expect(item.qty).toBe(2);
    const [first, second, third] = await freeCodes(sku.id);
    const otherSku = (await freeCodes((await skuOf(sunriseSysid, "夏季校服短袖套装", { 尺码: "130", 颜色: "藏青" })).id))[0];
    const voided = (await t.db.select({ code: traceSources.code }).from(traceSources).where(and(eq(traceSources.sysid, sunriseSysid), eq(traceSources.status, "voided"))))[0].code;

    const ok = await call("tracesourcebind", { code: first, order_item_id: item.id });
    expect(ok.return_code, ok.return_msg).toBe("SUCCESS");
    expect(ok.return_msg).toBe(`Code ${first} bound to order ${item.order_no} (1/2)`);
    expect(await codeRow(first)).toMatchObject({ status: "bound", order_id: item.order_id, order_item_id: item.id, bound_by: "svc", bound_at: expect.any(Date) });
    // audited on the code (the order and item it went with, the order's school) and on the order's timeline
    const audited = (entity: string, id: unknown) => t.db.select().from(auditLog).where(and(eq(auditLog.action, "tracesourcebind"), eq(auditLog.entity, entity), eq(auditLog.entityId, String(id))));
    expect(await audited("tracesource", (await codeRow(first))!.id)).toEqual([
      expect.objectContaining({ username: "svc", sysid: sunriseSysid, schId: item.sch_id, detail: { code: first, order_no: item.order_no, order_item_id: item.id, from: "free", to: "bound" } }),
    ]);
    expect((await audited("shoporder", item.order_id)).filter((e) => e.detail.code === first)).toEqual([
      expect.objectContaining({ username: "svc", sysid: sunriseSysid, schId: item.sch_id, detail: { code: first, title: item.title } }),
    ]);

    const refusal = async (payload: Row, field: string, message: string) => {
      const res = await call("tracesourcebind", payload);
      expect(res.return_code, JSON.stringify(payload)).toBe("FAIL");
      expect(res.data?.errors).toEqual([{ field, message }]);
    };
    await refusal({ code: first, order_item_id: item.id }, "code", `Code ${first} is already bound to order ${item.order_no}`);
    await refusal({ code: voided, order_item_id: item.id }, "code", `Code ${voided} is voided`);
    await refusal({ code: otherSku, order_item_id: item.id }, "code", `Code ${otherSku} is of another SKU than the item “夏季校服短袖套装”`);
    await refusal({ code: "CG0000X99999", order_item_id: item.id }, "code", "No code CG0000X99999");
    expect((await call("tracesourcebind", { code: second, order_item_id: item.id })).return_code).toBe("SUCCESS");
    await refusal({ code: third, order_item_id: item.id }, "order_item_id", "This item already has its 2 codes, as many as were bought");
    expect((await codeRow(third)).status).toBe("free");
    // bad input names its field
    for (const payload of [{ code: first, order_item_id: "abc" }, { order_item_id: item.id }, { code: "<script>", order_item_id: item.id }, { code: first, order_item_id: 0 }]) {
      const res = await call("tracesourcebind", payload);
      expect(res.return_code).toBe("FAIL");
      expect((res.data?.errors as Row[])[0].field).toBe("code" in payload && payload.code === first ? "order_item_id" : "code");
    }

    // the order's timeline tells who bound which code
    const info = await call("shoporderinfo", { id: item.order_id });
    expect((info.data?.items as { timeline: Row[] }).timeline.filter((e) => e.event === "tracesourcebind").map((e) => [e.who, (e.params as Row).code])).toEqual([
      // the winter jacket's, when it was packed (the demo), then these two
      ["svc", expect.stringMatching(/^CG2410W/)],
      ["svc", first],
      ["svc", second],
    ]);
    // the shop order's page lists the codes of its items
    const related = await call("tracesourcelist", { order_id: item.order_id, page: 1, limit: 20 });
    expect((related.data?.items as Row[]).map((r) => r.code)).toEqual(expect.arrayContaining([first, second]));
  });

  it("refuses a code for an unpaid order", async () => {
    const [unpaid] = await t.db
      .select({ id: shopOrderItems.id, sku_id: shopOrderItems.sku_id })
      .from(shopOrderItems)
      .innerJoin(shopOrders, eq(shopOrders.id, shopOrderItems.order_id))
      .where(and(eq(shopOrders.sysid, sunriseSysid), eq(shopOrders.status, "cancelled")));
    const res = await call("tracesourcebind", { code: (await freeCodes(unpaid.sku_id))[0] ?? "CG2409S00001", order_item_id: unpaid.id });
    expect(res.data?.errors).toEqual([{ field: "order_item_id", message: "The order is Cancelled: no code can be bound to it" }]);
  });

  it("adds and edits a code by hand, its SKU one of its goods item's and its specs kept from the SKU", async () => {
    const jacket = await skuOf(sunriseSysid, "冬季校服冲锋衣", { 尺码: "120" });
    const summer = await skuOf(sunriseSysid, "夏季校服短袖套装", { 尺码: "120", 颜色: "白色" });
    const added = await call("tracesourceadd", { code: "CG2411W09999", goods_id: jacket.goods_id, sku_id: jacket.id, batch_no: "CG2411-W02", report_url: "https://www.example.com/r.pdf" });
    expect(added.return_code, added.return_msg).toBe("SUCCESS");
    expect(await codeRow("CG2411W09999")).toMatchObject({ sku_id: jacket.id, spec_values: { 尺码: "120", 颜色: "藏青" }, status: "free" });
    const id = (await codeRow("CG2411W09999"))!.id;
    // a SKU of another goods item than the one named
    expect(((await call("tracesourceedit", { id, goods_id: jacket.goods_id, sku_id: summer.id })).data?.errors as Row[])[0].field).toBe("sku_id");
    expect((await call("tracesourceedit", { id, goods_id: summer.goods_id, sku_id: summer.id })).return_code).toBe("SUCCESS");
    expect(await codeRow("CG2411W09999")).toMatchObject({ sku_id: summer.id, spec_values: { 尺码: "120", 颜色: "白色" } });
    // the same code twice in a provider, a link that is not http(s): refused naming the field
    expect(((await call("tracesourceadd", { code: "CG2411W09999", goods_id: jacket.goods_id, sku_id: jacket.id, batch_no: "X" })).data?.errors as Row[])[0].field).toBe("code");
    expect(((await call("tracesourceadd", { code: "CG2411W09998", goods_id: jacket.goods_id, sku_id: jacket.id, batch_no: "X", report_url: "javascript:alert(1)" })).data?.errors as Row[])[0].field).toBe("report_url");
  });

  it("voids a free code only", async () => {
    const free = (await codeRow("CG2411W00002"))!;
    const voided = await call("tracesourcevoid", { id: free.id });
    expect(voided.return_code, voided.return_msg).toBe("SUCCESS");
    expect((await codeRow("CG2411W00002")).status).toBe("voided");
    const [bound] = await t.db.select({ id: traceSources.id }).from(traceSources).where(and(eq(traceSources.sysid, sunriseSysid), eq(traceSources.status, "bound")));
    const refused = await call("tracesourcevoid", { id: bound.id });
    expect(refused.return_code).toBe("FAIL");
    expect((await t.db.select().from(traceSources).where(eq(traceSources.id, bound.id)))[0].status).toBe("bound");
    // a bound code is no longer edited
    expect((await call("tracesourceedit", { id: bound.id, batch_no: "X" })).return_code).toBe("FAIL");
  });

  it("lets another provider neither bind, void nor import into this one", async () => {
    const sunriseCode = (await freeCodes((await skuOf(sunriseSysid, "冬季校服冲锋衣", { 尺码: "160" })).id))[0];
    const [harbourItem] = await t.db
      .select({ id: shopOrderItems.id })
      .from(shopOrderItems)
      .innerJoin(shopOrders, eq(shopOrders.id, shopOrderItems.order_id))
      .where(eq(shopOrders.sysid, harbourSysid));
    const [sunriseItem] = await t.db
      .select({ id: shopOrderItems.id })
      .from(shopOrderItems)
      .innerJoin(shopOrders, eq(shopOrders.id, shopOrderItems.order_id))
      .where(and(eq(shopOrders.sysid, sunriseSysid), eq(shopOrders.status, "undelivered")));
    const harbourCode = (await t.db.select({ code: traceSources.code }).from(traceSources).where(and(eq(traceSources.sysid, harbourSysid), eq(traceSources.status, "free"))))[0].code;
    // Sunrise's code to Harbour's own item: no such code of Harbour's
    expect((await call("tracesourcebind", { code: sunriseCode, order_item_id: harbourItem.id }, harbour)).data?.errors).toEqual([{ field: "code", message: `No code ${sunriseCode}` }]);
    // Harbour's code to Sunrise's item: no such item of Harbour's
    expect((await call("tracesourcebind", { code: harbourCode, order_item_id: sunriseItem.id }, harbour)).data?.errors).toEqual([{ field: "order_item_id", message: "No such order item" }]);
    const sunriseRow = (await codeRow(sunriseCode))!;
    expect((await call("tracesourcevoid", { id: sunriseRow.id }, harbour)).return_code).toBe("FAIL");
    expect((await call("tracesourceedit", { id: sunriseRow.id, batch_no: "HB" }, harbour)).return_code).toBe("FAIL");
    expect(await codeRow(sunriseCode)).toMatchObject({ status: "free", batch_no: "CG2411-W02" });
    // a school account, a clerk and a signed-out caller may not call them at all
    for (const username of ["school", "pickup", "staff"]) {
      const token = await t.login(username);
      expect((await call("tracesourcelist", {}, token)).return_code).toBe("FAIL");
      expect((await call("tracesourcebind", { code: sunriseCode, order_item_id: sunriseItem.id }, token)).return_code).toBe("FAIL");
    }
    expect((await t.call("adminapiv2", "tracesourceimport", { content_base64: "" })).return_code).toBe("token_error");
  });

  it("shows the payer the item's codes, and the garment's public facts with nothing private", async () => {
    // the demo order collected at the North Gate: its summer set's code bound when it was handed over
    const [collected] = await t.db
      .select({ item: shopOrderItems.id, order_id: shopOrders.id, order_no: shopOrders.order_no, student_id: shopOrders.student_id })
      .from(shopOrderItems)
      .innerJoin(shopOrders, eq(shopOrders.id, shopOrderItems.order_id))
      .where(and(eq(shopOrders.sch_id, world.schId), eq(shopOrders.status, "completed"), eq(shopOrders.delivery, "pickup")));
    const [student] = await t.db.select().from(students).where(eq(students.id, collected.student_id));
    const ticket = String(itemsOf(await h5(t, "h5find", { code: world.code, name: student.name, student_no: student.student_no }, "198.51.100.201")).ticket);
    const order = itemsOf(await h5(t, "h5shoporderinfo", { ticket, id: collected.order_id }, "198.51.100.201"));
    const [line] = order.items as Row[];
    expect(line.trace_codes).toEqual([expect.stringMatching(/^CG2409S\d{5}$/)]);
    const code = (line.trace_codes as string[])[0];

    const [{ skuPicture }] = await t.db.select({ skuPicture: goodsSkus.image }).from(traceSources).innerJoin(goodsSkus, eq(goodsSkus.id, traceSources.sku_id)).where(eq(traceSources.code, code));
    expect(skuPicture).toMatch(/\/files\/img\/[0-9a-f]{64}_480\.webp$/);
    const facts = await h5(t, "h5tracesource", { code: world.code, trace_code: code }, "198.51.100.202");
    expect(facts.return_code, facts.return_msg).toBe("SUCCESS");
    expect(itemsOf(facts)).toEqual({
      code,
      goods_title: "夏季校服短袖套装",
      spec_values: expect.objectContaining({ 尺码: "130" }),
      // the picture of the garment's own colour, where its goods item has one per colour
      image: skuPicture,
      batch_no: "CG2409-S01",
      manufacturer: "江苏晨光服饰有限公司",
      standard: "GB/T 31888-2015 中小学生校服",
      fabric: "面料：65% 聚酯纤维 35% 棉；里料：100% 棉",
      report_url: "https://www.example.com/reports/CG2409-S01.pdf",
      voided: false,
    });
    const text = JSON.stringify(facts);
    // exactly the facts above: no id of the order, and none of these texts
    for (const secret of [student.name, student.student_no, collected.order_no, "svc", "sysid", "sch_id", "order", "bound"]) expect(text).not.toContain(secret);

    // Harbour's code is not read through a Sunrise school's page; an unknown code says so
    const harbourCode = (await t.db.select({ code: traceSources.code }).from(traceSources).where(eq(traceSources.sysid, harbourSysid)))[0].code;
    for (const traceCode of [harbourCode, "NOPE"]) {
      const res = await h5(t, "h5tracesource", { code: world.code, trace_code: traceCode }, "198.51.100.203");
      expect(res.return_code).toBe("FAIL");
      expect(res.return_msg).toBe("This code was not found. Check it and try again.");
    }
    const noPage = await h5(t, "h5tracesource", { code: "nope", trace_code: code }, "198.51.100.203");
    expect(noPage.return_code).toBe("FAIL");
    const bad = await h5(t, "h5tracesource", { code: world.code, trace_code: "x".repeat(500) }, "198.51.100.203");
    expect(bad.return_code).toBe("FAIL");
  });
});
