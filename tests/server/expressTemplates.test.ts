/**
 * Express templates (expresstpl, servicev2) and the freight the checkout charges from them: the charges below are
 * worked out by hand from the demo's templates (server/seed/goods.ts), not by the code under test. Uniforms: free
 * within Shanghai, ¥8 the first piece and ¥2 each further in Jiangsu, Zhejiang and Anhui (free from ¥199), ¥12 and
 * ¥4 elsewhere (free from ¥299). Books by weight (420 g each): free within Shanghai, ¥6 the first 500 g and ¥3 each
 * further 500 g begun in the rest of East China, not sent beyond it.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expressTemplates, goods, goodsSkus, shopOrders, students } from "../../server/db/schema";
import { freightOf, type FreightTemplate } from "../../server/domains/retail/freight";
import { describeOnEmbedded } from "../helpers/db";
import { h5, itemsOf, payerWorld, type PayerWorld, type Row } from "./payerSupport";
import { createTestApp, type TestApp } from "./support";

describe("freightOf", () => {
  const byCount: FreightTemplate = {
    id: 1,
    charge_by: "count",
    rules: [
      { regions: ["31"], first_units: 2, first_price: 500, extra_units: 2, extra_price: 300, free_amount: null, free_count: 5 },
      { regions: null, first_units: 1, first_price: 1000, extra_units: 1, extra_price: 200, free_amount: 10_000, free_count: null },
    ],
  };
  const byWeight: FreightTemplate = { id: 2, charge_by: "weight", rules: [{ regions: ["31", "32"], first_units: 1000, first_price: 800, extra_units: 500, extra_price: 100, free_amount: null, free_count: null }] };
  const templates = new Map([
    [1, byCount],
    [2, byWeight],
  ]);
  const line = (templateId: number | null, qty: number, weight: number, amount: number) => ({ title: `t${templateId}`, templateId, qty, weight, amount });

  // [lines, province, expected fen or the uncovered line's title]
  const table: [ReturnType<typeof line>[], string, number | string][] = [
    [[line(null, 3, 500, 3000)], "11", 0], // no template: sent free
    [[line(1, 1, 0, 1000)], "31", 500], // first 2 pieces
    [[line(1, 3, 0, 3000)], "31", 800], // 500 + one further 2 begun
    [[line(1, 4, 0, 4000)], "31", 800], // 500 + (4-2)/2 = 1
    [[line(1, 5, 0, 5000)], "31", 0], // free from 5 pieces
    [[line(1, 2, 0, 2000), line(1, 2, 0, 2000)], "31", 800], // one template's lines count together: 4 pieces
    [[line(1, 3, 0, 3000)], "44", 1400], // elsewhere: 1000 + 2 x 200
    [[line(1, 3, 0, 10_000)], "44", 0], // free from ¥100
    [[line(2, 2, 400, 800)], "32", 800], // 800 g: first 1000 g
    [[line(2, 3, 400, 1200)], "32", 900], // 1200 g: + one 500 g begun
    [[line(2, 1, 1600, 1200)], "31", 1000], // 1600 g: + two 500 g begun
    [[line(1, 1, 0, 1000), line(2, 1, 400, 800)], "31", 1300], // each template charged: 500 + 800
    [[line(1, 1, 0, 1000), line(2, 1, 400, 800)], "44", "t2"], // the weight template does not send to Guangdong
    [[line(9, 1, 0, 1000)], "31", "t9"], // a template gone sends nowhere
  ];
  it.each(table)("%j to %s", (lines, province, expected) => {
    const charged = freightOf(lines, templates, province);
    expect("freight" in charged ? charged.freight : charged.uncovered.title).toBe(expected);
  });
});

describeOnEmbedded("express templates", (kind) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  let world: PayerWorld;
  let ticket: string;
  let uniform150: number;
  let uniform120: number;
  let book: number;

  const call = (user: string, method: string, payload: Row = {}) => t.call("adminapiv2", method, payload, { token: tokens[user], headers: { "accept-language": "en" } });
  const h5en = (method: string, payload: Row) => t.call("h5api", method, payload, { headers: { "accept-language": "en" } });
  const address = (province?: string) => ({ name: "王芳", phone: "13800138000", ...(province ? { province } : {}), detail: "1 Sunrise Road, Room 301" });
  const firstField = (answer: { data?: { errors?: unknown } }) => (answer.data?.errors as { field: string }[] | undefined)?.[0]?.field;
  const quote = (items: { sku_id: number; qty: number }[], province?: string) => h5en("h5shopfreight", { code: world.code, items, ...(province ? { province } : {}) });

  beforeAll(async () => {
    t = await createTestApp(kind);
    for (const user of ["svc", "harbour"]) tokens[user] = await t.login(user);
    world = await payerWorld(t, tokens.svc);
    const [student] = await t.db.select().from(students).where(and(eq(students.sch_id, world.schId), eq(students.status, "1"))).orderBy(students.id).offset(11).limit(1);
    ticket = String(itemsOf(await h5(t, "h5find", { code: world.code, name: student.name, student_no: student.student_no })).ticket);
    const skus = await t.db.select({ id: goodsSkus.id, specs: goodsSkus.spec_values, title: goods.title }).from(goodsSkus).innerJoin(goods, eq(goods.id, goodsSkus.goods_id));
    const find = (title: string, specs: Record<string, string>) => skus.find((s) => s.title === title && Object.entries(specs).every(([k, v]) => s.specs[k] === v))!.id;
    uniform150 = find("夏季校服短袖套装", { 尺码: "150", 颜色: "藏青" }); // ¥138
    uniform120 = find("夏季校服短袖套装", { 尺码: "120", 颜色: "藏青" }); // ¥128
    book = find("三年级数学同步练习", { 版本: "人教版" }); // ¥32.50, 420 g
  });
  afterAll(async () => {
    await t?.close();
  });

  it("quotes the freight of the province chosen as the templates charge it", async () => {
    const cases: [{ sku_id: number; qty: number }[], string, string][] = [
      [[{ sku_id: uniform150, qty: 2 }], "31", "0.00"],
      [[{ sku_id: uniform150, qty: 1 }], "32", "8.00"],
      [[{ sku_id: uniform150, qty: 1 }, { sku_id: uniform120, qty: 1 }], "33", "0.00"], // ¥266: free from ¥199
      [[{ sku_id: uniform120, qty: 1 }], "11", "12.00"],
      [[{ sku_id: uniform120, qty: 2 }], "11", "16.00"], // ¥256 < ¥299
      [[{ sku_id: uniform120, qty: 3 }], "11", "0.00"], // ¥384: free
      [[{ sku_id: book, qty: 2 }], "32", "9.00"], // 840 g: 6 + 3
      [[{ sku_id: book, qty: 1 }, { sku_id: uniform120, qty: 1 }], "35", "18.00"], // 6 + 12
    ];
    for (const [items, province, freight] of cases) {
      const answer = await quote(items, province);
      expect(answer.return_code, `${JSON.stringify(items)} ${province}: ${answer.return_msg}`).toBe("SUCCESS");
      expect(itemsOf(answer).freight, `${JSON.stringify(items)} to ${province}`).toBe(freight);
    }
  });

  it("charges the order what it quoted, and keeps the freight apart on the order", async () => {
    const items = [{ sku_id: uniform120, qty: 1 }, { sku_id: book, qty: 1 }];
    expect(itemsOf(await quote(items, "32"))).toEqual({ goods_amount: "160.50", freight: "14.00", amount: "174.50" });
    const made = await h5en("h5shoporder", { ticket, items, delivery: "express", address: address("32") });
    expect(made.return_code, made.return_msg).toBe("SUCCESS");
    const id = Number(itemsOf(made).id);
    const [row] = await t.db.select().from(shopOrders).where(eq(shopOrders.id, id));
    expect(row).toMatchObject({ amount: 17_450, freight: 1400, receiver_province: "32" });
    expect(itemsOf(await h5en("h5shoporderinfo", { ticket, id }))).toMatchObject({ amount: "174.50", freight: "14.00" });
    expect(itemsOf(await call("svc", "shoporderinfo", { id }))).toMatchObject({ amount: "174.50", freight: "14.00", receiver_province: "32" });
    // collected at a point: nothing to send
    const collected = await h5en("h5shoporder", { ticket, items: [{ sku_id: uniform120, qty: 1 }], delivery: "pickup", pickup_point_id: (itemsOf(await h5en("h5pickuppoints", { code: world.code })) as unknown as Row[])[0].id });
    const [pickupRow] = await t.db.select().from(shopOrders).where(eq(shopOrders.id, Number(itemsOf(collected).id)));
    expect(pickupRow).toMatchObject({ amount: 12_800, freight: 0 });
  });

  it("refuses a province the goods are not sent to, and an address without one, naming the province", async () => {
    const beyond = await quote([{ sku_id: book, qty: 1 }], "11");
    expect(beyond.return_code).toBe("FAIL");
    expect(beyond.data?.errors).toEqual([{ field: "address.province", message: '"三年级数学同步练习" is not delivered to Beijing.' }]);
    const order = await h5en("h5shoporder", { ticket, items: [{ sku_id: book, qty: 1 }], delivery: "express", address: address("11") });
    expect(firstField(order)).toBe("address.province");
    const none = await h5en("h5shoporder", { ticket, items: [{ sku_id: book, qty: 1 }], delivery: "express", address: address() });
    expect(none.data?.errors).toEqual([{ field: "address.province", message: "Choose the province it goes to." }]);
    const unknown = await quote([{ sku_id: book, qty: 1 }], "99");
    expect(unknown).toMatchObject({ return_code: "FAIL", return_msg: "Invalid parameter: province" });
  });

  it("keeps a template's rules apart: a province in one rule, one rule for every other", async () => {
    const rule = (regions: string[] | null) => ({ regions, first_units: 1, first_price: "5.00", extra_units: 1, extra_price: "1.00" });
    const added = await call("svc", "expresstemplateadd", { title: "大件快递", charge_by: "count", sort: 5, status: "1", rules: [rule(["44", "45"]), rule(null)] });
    expect(added.return_code, added.return_msg).toBe("SUCCESS");
    const id = Number(itemsOf(added).id);
    const info = itemsOf(await call("svc", "expresstemplateinfo", { id }));
    expect((info.rules as Row[]).map((r) => r.regions)).toEqual([["44", "45"], null]);
    // the options' order whatever order they came in
    const reordered = await call("svc", "expresstemplateedit", { id, rules: [rule(["45", "11"]), rule(null)] });
    expect(reordered.return_code, reordered.return_msg).toBe("SUCCESS");
    expect(((itemsOf(await call("svc", "expresstemplateinfo", { id })).rules as Row[])[0] as Row).regions).toEqual(["11", "45"]);

    const twice = await call("svc", "expresstemplateedit", { id, rules: [rule(["44"]), rule(["31", "44"])] });
    expect(twice.data?.errors).toEqual([{ field: "rules.1.regions", message: "Rules 2 and 1 both include Guangdong: a province belongs to one rule only." }]);
    const elsewhere = await call("svc", "expresstemplateedit", { id, rules: [rule(null), rule([])] });
    expect(elsewhere.data?.errors).toEqual([{ field: "rules.1.regions", message: "Rules 2 and 1 both name no province: only one rule may cover every other province." }]);
    const badCode = await call("svc", "expresstemplateedit", { id, rules: [rule(["44", "xx"])] });
    expect(firstField(badCode)).toBe("rules.0.regions");
    const noRules = await call("svc", "expresstemplateedit", { id, rules: [] });
    expect(noRules.return_code).toBe("FAIL");

    // another provider's template is not found, nor listed
    expect((await call("harbour", "expresstemplateinfo", { id })).return_code).toBe("FAIL");
    expect(((await call("harbour", "expresstemplatelist")).data?.items as Row[]).map((r) => r.id)).not.toContain(id);

    // a goods item names an enabled template of its provider; one in use is not deleted
    const [uniformGoods] = await t.db.select({ id: goods.id }).from(goods).where(eq(goods.title, "夏季校服短袖套装"));
    const [uniformPost] = await t.db.select({ id: expressTemplates.id }).from(expressTemplates).where(eq(expressTemplates.title, "校服快递"));
    expect(itemsOf(await call("svc", "goodsinfo", { id: uniformGoods.id })).express_tpl_id).toBe(uniformPost.id);
    expect((await call("svc", "expresstemplatedel", { id: uniformPost.id })).return_code).toBe("FAIL");
    expect((await call("svc", "expresstemplateedit", { id, status: "0" })).return_code).toBe("SUCCESS");
    const disabled = await call("svc", "goodsedit", { id: uniformGoods.id, express_tpl_id: id });
    expect(firstField(disabled)).toBe("express_tpl_id");
    expect((await call("svc", "expresstemplatedel", { id })).return_code).toBe("SUCCESS");
  });
});
