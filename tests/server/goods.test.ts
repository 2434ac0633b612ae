/**
 * Goods and their categories (catalogue/goods.ts): a v2 provider keeps two levels of categories and goods items sold
 * as SKUs, one per combination of its specs' values; the goods item's price and stock are its SKUs' lowest price and
 * total stock; its description keeps to an allow-list of HTML; what breaks a rule is refused naming its field; each
 * provider sees its own goods and no other role any. On the embedded database (nothing here differs on PostgreSQL).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inArray } from "drizzle-orm";
import { schools, shopOrderItems } from "../../server/db/schema";
import { translator } from "../../server/lib/i18n";
import { describeOnEmbedded } from "../helpers/db";
import { createTestApp, idByTitle, type TestApp } from "./support";
import { combinations } from "../../common/specs";

type Row = Record<string, unknown>;
const EN = { "accept-language": "en" };
const en = translator("en");

describe("the combinations of spec values", () => {
  it("are one value per name, in the names' and values' order", () => {
    expect(combinations(["尺码", "颜色"], { 尺码: ["120", "130"], 颜色: ["藏青", "白色"] })).toEqual([
      { 尺码: "120", 颜色: "藏青" },
      { 尺码: "120", 颜色: "白色" },
      { 尺码: "130", 颜色: "藏青" },
      { 尺码: "130", 颜色: "白色" },
    ]);
    expect(combinations(["尺码"], { 尺码: [] })).toEqual([]);
    expect(combinations([], {})).toEqual([{}]);
  });
});

describeOnEmbedded("goods", (kind) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const call = (user: string, method: string, payload: Row = {}) => t.call("adminapiv2", method, payload, { token: tokens[user], headers: EN });
  const item = (res: { data?: Record<string, unknown> }) => res.data?.items as Row;
  const items = (res: { data?: Record<string, unknown> }) => res.data?.items as Row[];
  const fieldOf = (res: { data?: Record<string, unknown> }) => (res.data?.errors as { field: string }[] | undefined)?.[0]?.field;
  let no1: number;

  beforeAll(async () => {
    t = await createTestApp(kind);
    for (const u of ["svc", "harbour", "svcv1", "pickup", "staff", "school"]) tokens[u] = await t.login(u);
    no1 = await idByTitle(t.db, schools, "Sunrise No.1 Primary School");
  });
  afterAll(async () => {
    await t?.close();
  });

  const sku = (specs: Record<string, string>, price: string, stock: number) => ({ spec_values: specs, price, stock, barcode: "" });

  it("keeps categories to two levels, a sub-category within a top one named once there", async () => {
    const top = item(await call("svc", "goodscateadd", { title: "文具", sort: 5, status: "1" }));
    expect(top).toMatchObject({ title: "文具", level: "1", parent_id: null });
    const sub = await call("svc", "goodscateadd", { title: "笔类", parent_id: top.id, sort: 1, status: "1" });
    expect(sub.return_code, sub.return_msg).toBe("SUCCESS");
    expect(item(sub)).toMatchObject({ level: "2", parent_id: top.id });
    expect(item(await call("svc", "goodscateinfo", { id: item(sub).id }))).toMatchObject({ parent_title: "文具" });

    // not within a sub-category, not twice within one, a top name once per provider
    const third = await call("svc", "goodscateadd", { title: "铅笔", parent_id: item(sub).id, sort: 1, status: "1" });
    // a sub-category is no record the parent may name (the reference's rule), nor is the category itself
    expect(fieldOf(third)).toBe("parent_id");
    expect((await call("svc", "goodscateedit", { id: top.id, parent_id: top.id })).return_msg).toBe(en("retail.errors.parent_not_top"));
    expect(fieldOf(await call("svc", "goodscateadd", { title: "笔类", parent_id: top.id, sort: 2, status: "1" }))).toBe("title");
    expect(fieldOf(await call("svc", "goodscateadd", { title: "文具", sort: 6, status: "1" }))).toBe("title");
    // a top category holding others stays on top
    const other = item(await call("svc", "goodscateadd", { title: "书包", sort: 7, status: "1" }));
    expect((await call("svc", "goodscateedit", { id: top.id, parent_id: other.id })).return_msg).toBe(en("retail.errors.has_children"));

    // the form's parent picker lists the top ones only
    const tops = items(await call("svc", "goodscatelist", { level: "1", pagesize: 100 }));
    expect(tops.map((c) => c.title)).toEqual(expect.arrayContaining(["校服", "文具", "书包"]));
    expect(tops.every((c) => c.level === "1")).toBe(true);
  });

  it("sells a goods item as SKUs of its specs, priced from the lowest and stocked by their sum", async () => {
    const [cate] = items(await call("svc", "goodscatelist", { title: "夏季校服" }));
    const payload = {
      title: "校服 T 恤",
      cate_id: cate.id,
      spec_names: ["尺码", "颜色"],
      skus: [sku({ 尺码: "120", 颜色: "藏青" }, "59.00", 10), sku({ 尺码: "130", 颜色: "藏青" }, "65.50", 5), sku({ 尺码: "130", 颜色: "白色" }, "65.50", 0)],
      delivery: "both",
      sch_scope: "all",
      status: "on",
      sort: 0,
      images: ["https://img.example.com/tee-front.jpg", "https://img.example.com/tee-back.jpg"],
      description: '<p onclick="steal()">纯棉 <strong>透气</strong><script>alert(1)</script><img src="javascript:alert(1)"><a href="https://example.com/size">尺码表</a></p>',
    };
    const added = await call("svc", "goodsadd", payload);
    expect(added.return_code, added.return_msg).toBe("SUCCESS");
    const goods = item(added);
    expect(goods).toMatchObject({ price: "59.00", stock: 15, status: "on", spec_names: ["尺码", "颜色"], images: payload.images });
    expect((goods.skus as Row[]).map((s) => [s.spec_values, s.price, s.stock])).toEqual([
      [{ 尺码: "120", 颜色: "藏青" }, "59.00", 10],
      [{ 尺码: "130", 颜色: "藏青" }, "65.50", 5],
      [{ 尺码: "130", 颜色: "白色" }, "65.50", 0],
    ]);
    // the description keeps its text and allowed tags, never a script, a handler or a script address
    expect(goods.description).toBe('<p>纯棉 <strong>透气</strong><a href="https://example.com/size" target="_blank" rel="noopener noreferrer">尺码表</a></p>');

    // edited: the figures follow the SKUs
    const edited = await call("svc", "goodsedit", { id: goods.id, skus: [sku({ 尺码: "120", 颜色: "藏青" }, "79.00", 3), sku({ 尺码: "130", 颜色: "藏青" }, "69.00", 4)] });
    expect(edited.return_code, edited.return_msg).toBe("SUCCESS");
    expect(item(await call("svc", "goodsinfo", { id: goods.id }))).toMatchObject({ price: "69.00", stock: 7 });
    const listed = items(await call("svc", "goodslist", { title: "校服 T 恤" }));
    expect(listed).toEqual([expect.objectContaining({ id: goods.id, price: "69.00", stock: 7, cate_title: "校服 夏季校服" })]);
  });

  it("refuses SKUs that do not name exactly its specs, the same combination twice, and bad values, naming the field", async () => {
    const [cate] = items(await call("svc", "goodscatelist", { title: "夏季校服" }));
    const base = { title: "校服 短裤", cate_id: cate.id, spec_names: ["尺码"], delivery: "both", sch_scope: "all", status: "off", sort: 0 };
    const missing = await call("svc", "goodsadd", { ...base, spec_names: ["尺码", "颜色"], skus: [sku({ 尺码: "120", 颜色: "藏青" }, "30.00", 1), sku({ 尺码: "130" }, "30.00", 1)] });
    expect(fieldOf(missing)).toBe("skus.1.spec_values");
    expect(missing.return_msg).toBe(en("retail.errors.spec_mismatch", { row: 2, names: "尺码 / 颜色" }));
    const twice = await call("svc", "goodsadd", { ...base, skus: [sku({ 尺码: "120" }, "30.00", 1), sku({ 尺码: "120" }, "31.00", 1)] });
    expect(fieldOf(twice)).toBe("skus.1.spec_values");
    expect(fieldOf(await call("svc", "goodsadd", { ...base, skus: [] }))).toBe("skus");
    expect(fieldOf(await call("svc", "goodsadd", { ...base, skus: [sku({ 尺码: "120" }, "0.00", 1)] }))).toBe("skus.0.price");
    expect(fieldOf(await call("svc", "goodsadd", { ...base, skus: [sku({ 尺码: "120" }, "1.00", -1)] }))).toBe("skus.0.stock");
    expect(fieldOf(await call("svc", "goodsadd", { ...base, spec_names: ["尺码", "尺码"], skus: [sku({ 尺码: "120" }, "1.00", 1)] }))).toBe("spec_names");
    expect(fieldOf(await call("svc", "goodsadd", { ...base, images: ["not an address"], skus: [sku({ 尺码: "120" }, "1.00", 1)] }))).toBe("images");
    const tooMany = await call("svc", "goodsadd", { ...base, images: Array.from({ length: 10 }, (_, i) => `https://img.example.com/${i}.jpg`), skus: [sku({ 尺码: "120" }, "1.00", 1)] });
    expect(tooMany.data?.errors).toEqual([{ field: "images", message: "Images holds at most 9" }]);
    // chosen schools need their schools, of its own provider
    expect(fieldOf(await call("svc", "goodsadd", { ...base, sch_scope: "chosen", skus: [sku({ 尺码: "120" }, "1.00", 1)] }))).toBe("sch_ids");
    const harbourSchool = await idByTitle(t.db, schools, "Harbour Bay School");
    expect(fieldOf(await call("svc", "goodsadd", { ...base, sch_scope: "chosen", sch_ids: [harbourSchool], skus: [sku({ 尺码: "120" }, "1.00", 1)] }))).toBe("sch_ids");
    const chosen = await call("svc", "goodsadd", { ...base, sch_scope: "chosen", sch_ids: [no1], skus: [sku({ 尺码: "120" }, "1.00", 1)] });
    expect(chosen.return_code, chosen.return_msg).toBe("SUCCESS");
    // its schools are forgotten once it is sold to all
    const all = await call("svc", "goodsedit", { id: item(chosen).id, sch_scope: "all" });
    expect(item(all)).toMatchObject({ sch_scope: "all", sch_ids: null });
  });

  it("keeps a SKU that orders and trace-source codes refer to when its goods item is edited: its price and stock change in place", async () => {
    // the demo's jacket: its 140 was ordered for pickup, and trace-source codes were made of its SKUs
    const [jacket] = items(await call("svc", "goodslist", { title: "冬季校服冲锋衣" }));
    const before = item(await call("svc", "goodsinfo", { id: jacket.id }));
    const skus = before.skus as Row[];
    const ordered = await t.db.select({ sku_id: shopOrderItems.sku_id }).from(shopOrderItems).where(inArray(shopOrderItems.sku_id, skus.map((s) => s.id as number)));
    expect(ordered.length).toBeGreaterThan(0);

    // the form sends its rows back with their ids, in another order, one price changed
    const reordered: Row[] = [...skus].reverse().map((s, i) => ({ ...s, price: i === 0 ? "299.00" : s.price }));
    const edited = await call("svc", "goodsedit", { id: jacket.id, skus: reordered });
    expect(edited.return_code, edited.return_msg).toBe("SUCCESS");
    const after = item(await call("svc", "goodsinfo", { id: jacket.id })).skus as Row[];
    expect(after.map((s) => s.id)).toEqual(reordered.map((s) => s.id));
    expect(after[0]).toMatchObject({ spec_values: reordered[0].spec_values, price: "299.00" });

    // rows without their ids (a form that built them again) are the stored rows of their combinations
    const rebuilt = after.map(({ id: _id, ...s }) => ({ ...s, stock: Number(s.stock) + 1 }));
    expect((await call("svc", "goodsedit", { id: jacket.id, skus: rebuilt })).return_code).toBe("SUCCESS");
    const again = item(await call("svc", "goodsinfo", { id: jacket.id })).skus as Row[];
    expect(again.map((s) => [s.id, s.stock])).toEqual(after.map((s) => [s.id, Number(s.stock) + 1]));

    // a SKU an order refers to cannot be dropped: refused, the SKUs as they were
    const orderedId = ordered[0].sku_id;
    const dropped = await call("svc", "goodsedit", { id: jacket.id, skus: again.filter((s) => s.id !== orderedId) });
    expect(dropped.return_code).toBe("FAIL");
    expect((item(await call("svc", "goodsinfo", { id: jacket.id })).skus as Row[]).map((s) => s.id)).toEqual(again.map((s) => s.id));
  });

  it("shows each provider its own goods, and no other role any", async () => {
    const sunrise = items(await call("svc", "goodslist", { pagesize: 100 }));
    expect(sunrise.map((g) => g.title)).toEqual(expect.arrayContaining(["夏季校服短袖套装", "冬季校服冲锋衣", "三年级数学同步练习", "午餐卡（月卡）"]));
    expect(sunrise.some((g) => g.title === "Harbour 运动校服")).toBe(false);
    const harbour = items(await call("harbour", "goodslist", { pagesize: 100 }));
    expect(harbour.map((g) => g.title)).toEqual(["Harbour 运动校服"]);
    const summer = sunrise.find((g) => g.title === "夏季校服短袖套装")!;
    expect((await call("harbour", "goodsinfo", { id: summer.id })).return_msg).toBe(en("api.not_found"));
    for (const user of ["svcv1", "pickup", "staff", "school"]) {
      expect((await call(user, "goodslist")).return_msg, user).toBe(en("api.no_permission"));
      expect((await call(user, "goodscatelist")).return_msg, user).toBe(en("api.no_permission"));
    }
  });
});
