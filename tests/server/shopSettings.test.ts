/**
 * The shop's settings (shopdefaultset, servicev2), tried where parents meet them: a closed shop shows nothing and takes
 * no order; a way of delivery switched off is refused naming the delivery; an unpaid order stays payable the shop's
 * minutes; an order sent completes by itself after the shop's days; an after-sale is asked within the shop's days
 * after completion; the service phone is shown with the goods; a return agreed says where to send the goods, the
 * provider's one default return address; the shop's look and questions are on its page. Each provider's settings and
 * addresses are its own.
 */
import { and, eq, ne } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { goods, goodsSkus, paymentOrders, pickupPoints, providers, saleAddresses, schools, shopHelp, shopOrders, students } from "../../server/db/schema";
import { COMPLETE_DELIVERED_ORDERS } from "../../server/domains/retail/shopOrders";
import { businessDay } from "../../common/term";
import { describeOnEmbedded } from "../helpers/db";
import { confirmSandbox, h5, itemsOf, payerWorld, type PayerWorld, type Row } from "./payerSupport";
import { createTestApp, type TestApp } from "./support";

const DAY_MS = 86_400_000;

describeOnEmbedded("the shop's settings", (kind) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  let world: PayerWorld;
  let ticket: string;
  let northGate: number;
  let skuId: number;
  let runs = 0;

  const call = (user: string, method: string, payload: Row = {}) => t.call("adminapiv2", method, payload, { token: tokens[user], headers: { "accept-language": "en" } });
  const set = async (fields: Row) => {
    const saved = await call("svc", "shopdefaultsetedit", fields);
    expect(saved.return_code, saved.return_msg).toBe("SUCCESS");
  };
  const h5en = (method: string, payload: Row) => t.call("h5api", method, payload, { headers: { "accept-language": "en" } });
  const order = (delivery: "pickup" | "express") =>
    h5en("h5shoporder", {
      ticket,
      items: [{ sku_id: skuId, qty: 1 }],
      delivery,
      ...(delivery === "pickup" ? { pickup_point_id: northGate } : { address: { name: "王芳", phone: "13800138000", province: "31", detail: "1 Sunrise Road, Room 301" } }),
    });

  beforeAll(async () => {
    t = await createTestApp(kind);
    for (const user of ["svc", "harbour"]) tokens[user] = await t.login(user);
    world = await payerWorld(t, tokens.svc);
    const [student] = await t.db.select().from(students).where(and(eq(students.sch_id, world.schId), eq(students.status, "1"))).orderBy(students.id).offset(9).limit(1);
    ticket = String(itemsOf(await h5(t, "h5find", { code: world.code, name: student.name, student_no: student.student_no })).ticket);
    [{ id: northGate }] = await t.db.select({ id: pickupPoints.id }).from(pickupPoints).where(eq(pickupPoints.title, "Sunrise North Gate Pickup"));
    const rows = await t.db.select({ sku: goodsSkus }).from(goodsSkus).innerJoin(goods, eq(goods.id, goodsSkus.goods_id)).where(eq(goods.title, "夏季校服短袖套装"));
    skuId = rows.map((r) => r.sku).find((s) => s.spec_values.尺码 === "150" && s.spec_values.颜色 === "白色")!.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it("opens with its defaults, and a closed shop shows nothing and takes no order", async () => {
    expect(itemsOf(await call("svc", "shopdefaultsetinfo"))).toEqual({
      shop_open: "Y",
      closed_sch_ids: null,
      pickup_enabled: "Y",
      express_enabled: "Y",
      unpaid_minutes: 30,
      auto_complete_days: 10,
      aftersale_days: 7,
      service_phone: null,
    });
    // "contact us": the demo's customer-service account (tests/server/customerService.test.ts)
    const face = { theme: expect.any(Object), banners: expect.any(Array), help: expect.any(Array), contact: { name: "校服客服", url: expect.stringMatching(/^https:\/\/work\.weixin\.qq\.com\//) } };
    expect(itemsOf(await h5en("h5goodslist", { code: world.code })).shop).toEqual({ open: true, pickup: true, express: true, service_phone: null, ...face, home: expect.objectContaining({ title: "商城首页" }) });

    await set({ shop_open: "N", service_phone: "021-55510101" });
    const closed = itemsOf(await h5en("h5goodslist", { code: world.code }));
    expect(closed).toEqual({ categories: [], goods: [], shop: { open: false, pickup: true, express: true, service_phone: "021-55510101", ...face, home: null } });
    expect((await order("pickup")).data?.errors).toEqual([{ field: "items", message: "The school shop is closed at the moment" }]);
    // another provider's shop is its own
    expect(itemsOf(await call("harbour", "shopdefaultsetinfo")).shop_open).toBe("Y");
    await set({ shop_open: "Y" });
    expect((itemsOf(await h5en("h5goodslist", { code: world.code })).goods as Row[]).length).toBeGreaterThan(0);
  });

  it("stays closed to the schools it names, and names only the provider's own", async () => {
    const [another] = await t.db.select({ id: schools.id }).from(schools).where(and(eq(schools.sysid, world.sysid), ne(schools.id, world.schId))).limit(1);
    const [foreign] = await t.db.select({ id: schools.id }).from(schools).where(ne(schools.sysid, world.sysid)).limit(1);
    const refused = await call("svc", "shopdefaultsetedit", { closed_sch_ids: [another.id, foreign.id] });
    expect(refused.data?.errors).toEqual([{ field: "closed_sch_ids", message: expect.stringContaining("Schools whose shop is closed") }]);
    expect(itemsOf(await call("svc", "shopdefaultsetinfo")).closed_sch_ids).toBeNull();

    await set({ closed_sch_ids: [world.schId, another.id] });
    expect(itemsOf(await call("svc", "shopdefaultsetinfo")).closed_sch_ids).toEqual([world.schId, another.id]);
    const closed = itemsOf(await h5en("h5goodslist", { code: world.code }));
    expect(closed.goods).toEqual([]);
    expect((closed.shop as Row).open).toBe(false);
    expect((await order("pickup")).data?.errors).toEqual([{ field: "items", message: "The school shop is closed at the moment" }]);

    await set({ closed_sch_ids: [another.id] });
    expect((itemsOf(await h5en("h5goodslist", { code: world.code })).shop as Row).open).toBe(true);
    await set({ closed_sch_ids: [] });
  });

  it("refuses a way of delivery switched off, and keeps an unpaid order payable its minutes", async () => {
    await set({ express_enabled: "N", unpaid_minutes: 10 });
    expect((await order("express")).data?.errors).toEqual([{ field: "delivery", message: "The shop does not offer this way of delivery at the moment" }]);
    const made = await order("pickup");
    expect(made.return_code, made.return_msg).toBe("SUCCESS");
    const { pay_no } = itemsOf(made) as { pay_no: string };
    const [payment] = await t.db.select().from(paymentOrders).where(eq(paymentOrders.payNo, pay_no));
    expect(payment.expiresAt.getTime() - payment.createdAt.getTime()).toBe(10 * 60_000);
    await set({ express_enabled: "Y", unpaid_minutes: 30 });
  });

  it("completes an order sent after the shop's days, and takes after-sales within its days after completion", async () => {
    await set({ auto_complete_days: 3, aftersale_days: 2 });
    const made = itemsOf(await order("express")) as { id: number; payparam: { code_url: string } };
    expect((await confirmSandbox(t, made.payparam.code_url)).return_code).toBe("SUCCESS");
    expect((await call("svc", "shoporderdeliver", { id: made.id, express_code: "SF", tracking_no: "SF1000000999" })).return_code).toBe("SUCCESS");
    const completeDue = async () => {
      await t.app.jobs.enqueue(COMPLETE_DELIVERED_ORDERS, {}, { uniqueKey: `shop-settings-complete-${++runs}` });
      await t.app.jobs.runDueJobs();
    };
    // sent two days ago: not yet; four days ago: completed, its timeline saying after how many days
    await t.db.update(shopOrders).set({ delivered_at: new Date(t.clock.now().getTime() - 2 * DAY_MS) }).where(eq(shopOrders.id, made.id));
    await completeDue();
    expect((await t.db.select().from(shopOrders).where(eq(shopOrders.id, made.id)))[0].status).toBe("delivered");
    await t.db.update(shopOrders).set({ delivered_at: new Date(t.clock.now().getTime() - 4 * DAY_MS) }).where(eq(shopOrders.id, made.id));
    await completeDue();
    const [completed] = await t.db.select().from(shopOrders).where(eq(shopOrders.id, made.id));
    expect(completed.status).toBe("completed");
    const record = await call("svc", "shoporderinfo", { id: made.id });
    expect(((record.data?.items as Row).timeline as Row[]).find((e) => e.event === "shop_order_auto_completed")?.params).toMatchObject({ days: 3 });

    const info = itemsOf(await h5en("h5shoporderinfo", { ticket, id: made.id })) as { items: { id: number }[] };
    const ask = () => h5en("h5aftersaleadd", { ticket, order_id: made.id, item_id: info.items[0].id, way: "refund", qty: 1, amount: "1.00", reason: "想退" });
    await t.db.update(shopOrders).set({ completed_at: new Date(t.clock.now().getTime() - 3 * DAY_MS) }).where(eq(shopOrders.id, made.id));
    expect((await ask()).data?.errors).toEqual([{ field: "order_id", message: "After-sales are accepted within 2 days of receiving the goods" }]);
    await t.db.update(shopOrders).set({ completed_at: new Date(t.clock.now().getTime() - 1 * DAY_MS) }).where(eq(shopOrders.id, made.id));
    expect((await ask()).return_code).toBe("SUCCESS");
    await set({ auto_complete_days: 10, aftersale_days: 7 });
  });

  it("keeps one default return address, and shows it to a payer sending goods back", async () => {
    const first = await call("svc", "saleaddressadd", { name: "王师傅", phone: "13800138000", address: "上海市浦东新区朝阳路 2 号", is_default: "Y" });
    expect(first.return_code, first.return_msg).toBe("SUCCESS");
    const second = await call("svc", "saleaddressadd", { name: "李老师", phone: "021-55510101", address: "上海市浦东新区朝阳路 3 号", is_default: "Y" });
    const firstId = Number((first.data?.items as Row).id);
    const secondId = Number((second.data?.items as Row).id);
    const defaults = async (sysid: number) => (await t.db.select().from(saleAddresses).where(and(eq(saleAddresses.sysid, sysid), eq(saleAddresses.is_default, "Y")))).map((a) => a.id);
    expect(await defaults(world.sysid)).toEqual([secondId]);
    expect((await call("svc", "saleaddressedit", { id: firstId, is_default: "Y" })).return_code).toBe("SUCCESS");
    expect(await defaults(world.sysid)).toEqual([firstId]);
    // another provider's addresses are its own
    expect((await call("harbour", "saleaddressinfo", { id: firstId })).return_code).toBe("FAIL");
    expect(((await call("harbour", "saleaddresslist")).data?.items as Row[]).map((a) => a.id)).not.toContain(firstId);
    expect((await call("svc", "saleaddressadd", { name: "王师傅", phone: "12345", address: "上海市", is_default: "N" })).data?.errors).toEqual([
      expect.objectContaining({ field: "phone" }),
      expect.objectContaining({ field: "address" }),
    ]);

    // a return agreed: the payer reads where to send it
    const made = itemsOf(await order("express")) as { id: number; payparam: { code_url: string } };
    expect((await confirmSandbox(t, made.payparam.code_url)).return_code).toBe("SUCCESS");
    expect((await call("svc", "shoporderdeliver", { id: made.id, express_code: "SF", tracking_no: "SF1000001999" })).return_code).toBe("SUCCESS");
    const info = itemsOf(await h5en("h5shoporderinfo", { ticket, id: made.id })) as { items: { id: number }[] };
    const asked = itemsOf(await h5en("h5aftersaleadd", { ticket, order_id: made.id, item_id: info.items[0].id, way: "return_refund", qty: 1, amount: "1.00", reason: "尺码偏大" })) as { id: number };
    const followed = async () => (itemsOf(await h5en("h5aftersales", { ticket })) as unknown as Row[]).find((a) => a.id === asked.id)!;
    expect((await followed()).return_address).toBeNull();
    expect((await call("svc", "aftersalereview", { id: asked.id, result: "agree" })).return_code).toBe("SUCCESS");
    expect((await followed()).return_address).toEqual({ name: "王师傅", phone: "13800138000", address: "上海市浦东新区朝阳路 2 号" });
  });

  it("gives the shop's page its look and its questions, each provider its own", async () => {
    const [{ id: harbourSysid }] = await t.db.select({ id: providers.id }).from(providers).where(eq(providers.title, "Harbour Education Services"));
    const shopOf = async () => (itemsOf(await h5en("h5goodslist", { code: world.code })) as { shop: Row }).shop;
    // the page's own blue until the provider chooses
    expect((await shopOf()).theme).toEqual({ main: "#1677ff", dark: "#0958d9", style: "rounded" });
    expect((await call("svc", "shopthemesetedit", { main_color: "pink" })).data?.errors).toEqual([expect.objectContaining({ field: "main_color" })]);
    const themed = await call("svc", "shopthemesetedit", { main_color: "green", style: "square" });
    expect(themed.return_code, themed.return_msg).toBe("SUCCESS");
    // the colours as common/shopThemes.ts gives them: white text on them reads at 4.5:1 or more
    expect((await shopOf()).theme).toEqual({ main: "#0f7b3f", dark: "#0b5e30", style: "square" });

    // the demo's three questions, in their order; one disabled or another provider's is not shown
    const questions = async () => ((await shopOf()).help as { question: string }[]).map((h) => h.question);
    expect(await questions()).toEqual(["校服尺码怎么选？", "尺码不合适可以换吗？", "什么时候可以到自提点取货？"]);
    const added = await call("svc", "shophelpadd", { question: "可以开发票吗？", answer: "可以，付款后联系客服。", sort: 0, status: "1" });
    expect(added.return_code, added.return_msg).toBe("SUCCESS");
    expect((await questions())[0]).toBe("可以开发票吗？");
    expect((await call("svc", "shophelpedit", { id: Number(itemsOf(added).id), status: "0" })).return_code).toBe("SUCCESS");
    expect(await questions()).not.toContain("可以开发票吗？");
    // (Harbour's term has run out in the demo: its question is written as its page would have)
    await t.db.insert(shopHelp).values({ sysid: harbourSysid, question: "Harbour hours?", answer: "8-16", sort: 0, status: "1" });
    expect(await questions()).not.toContain("Harbour hours?");
    expect((await call("svc", "shophelpadd", { question: "", answer: "", sort: 0, status: "1" })).data?.errors).toEqual([expect.objectContaining({ field: "question" }), expect.objectContaining({ field: "answer" })]);
  });

  it("shows today's banners at the top of the shop, each leading where it says", async () => {
    const banners = async () => ((itemsOf(await h5en("h5goodslist", { code: world.code })) as { shop: Row }).shop.banners as Row[]).map((b) => [b.title, b.link]);
    const [uniform] = await t.db.select({ id: goods.id, images: goods.images }).from(goods).where(eq(goods.title, "夏季校服短袖套装"));
    // the demo's two, in their order
    expect(await banners()).toEqual([
      ["夏季校服现已开售", { type: "goods", id: uniform.id }],
      ["新学期教辅资料", { type: "category", id: expect.any(Number) }],
    ]);
    const today = businessDay(t.clock.now());
    const days = (offset: number) => businessDay(new Date(t.clock.now().getTime() + offset * DAY_MS));
    const base = { image: uniform.images![0], sort: 0, status: "1" };
    const add = (fields: Row) => call("svc", "banneradd", { ...base, ...fields });
    expect((await add({ title: "今天起", link_type: "url", url: "https://example.edu/summer", start_date: today })).return_code).toBe("SUCCESS");
    expect((await add({ title: "明天起", link_type: "none", start_date: days(1) })).return_code).toBe("SUCCESS");
    expect((await add({ title: "昨天止", link_type: "none", end_date: days(-1) })).return_code).toBe("SUCCESS");
    expect((await banners())[0]).toEqual(["今天起", { type: "url", url: "https://example.edu/summer" }]);
    expect((await banners()).map(([title]) => title)).not.toContain("明天起");
    expect((await banners()).map(([title]) => title)).not.toContain("昨天止");

    // refused naming the field: days the wrong way round, a page not over https, a link without its goods
    expect((await add({ title: "反了", link_type: "none", start_date: today, end_date: days(-2) })).data?.errors).toEqual([{ field: "end_date", message: "The last day cannot be before the first." }]);
    expect((await add({ title: "网页", link_type: "url", url: "http://example.edu" })).data?.errors).toEqual([{ field: "url", message: expect.stringContaining("https://") }]);
    expect((await add({ title: "商品", link_type: "goods" })).data?.errors).toEqual([expect.objectContaining({ field: "goods_id" })]);
    // another provider's goods are not linked to
    const [harbourGoods] = await t.db.select({ id: goods.id }).from(goods).where(eq(goods.title, "Harbour 运动校服"));
    expect((await add({ title: "别家", link_type: "goods", goods_id: harbourGoods.id })).data?.errors).toEqual([expect.objectContaining({ field: "goods_id" })]);
  });
});
