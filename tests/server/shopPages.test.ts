/**
 * The shop's DIY pages (shopdiylist, shopdiy, shopdiyedit; servicev2) as a provider saves them and a parent meets
 * them: blocks stored as checked (common/shopDiy.ts, its own table in tests/unit/shopDiy.test.ts), a block naming
 * another provider's goods refused naming the block, one home page, and on the payer page the home page's grids with
 * the goods on sale at the school (a category's first ones, the chosen ones in their order), another page by
 * h5shoppage, a link to a page gone leading nowhere; the editor's preview shows the same blocks.
 */
import { and, eq, ne } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { goods, goodsCategories, shopBanners, shopDiyPages } from "../../server/db/schema";
import { describeOnEmbedded } from "../helpers/db";
import { h5, itemsOf, payerWorld, type PayerWorld, type Row } from "./payerSupport";
import { createTestApp, type TestApp } from "./support";

const IMAGE = "https://img.example.com/new-term.jpg";

describeOnEmbedded("the shop's DIY pages", (kind) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  let world: PayerWorld;
  let own: Record<string, number>;
  let uniforms: number;
  let harbourGoods: number;

  const call = (user: string, method: string, payload: Row = {}) => t.call("adminapiv2", method, payload, { token: tokens[user], headers: { "accept-language": "en" } });
  const shop = async () => itemsOf(await h5(t, "h5goodslist", { code: world.code })).shop as Row;

  beforeAll(async () => {
    t = await createTestApp(kind);
    for (const user of ["svc", "harbour"]) tokens[user] = await t.login(user);
    world = await payerWorld(t, tokens.svc);
    const rows = await t.db.select({ id: goods.id, title: goods.title }).from(goods).where(eq(goods.sysid, world.sysid));
    own = Object.fromEntries(rows.map((r) => [r.title, r.id]));
    [{ id: uniforms }] = await t.db.select({ id: goodsCategories.id }).from(goodsCategories).where(and(eq(goodsCategories.sysid, world.sysid), eq(goodsCategories.title, "校服")));
    [{ id: harbourGoods }] = await t.db.select({ id: goods.id }).from(goods).where(ne(goods.sysid, world.sysid)).limit(1);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("shows the demo's home page above the goods: the banners, a notice, the uniforms on sale, a picture to the new-term page", async () => {
    const home = (await shop()).home as { title: string; blocks: Row[] };
    expect(home.title).toBe("商城首页");
    expect(home.blocks.map((b) => b.kind)).toEqual(["banners", "notice", "goods", "spacer", "image"]);
    const grid = home.blocks[2] as { title: string; cate_id: number; goods: Row[] };
    // the uniforms' category holds the summer and winter uniforms (in its sub-categories); the lunch card is no uniform
    expect(grid.cate_id).toBe(uniforms);
    expect(grid.goods.map((g) => g.title).sort()).toEqual(["冬季校服冲锋衣", "夏季校服短袖套装"]);
    expect(grid.goods[0]).toEqual({ id: expect.any(Number), title: expect.any(String), cate_id: expect.any(Number), image: expect.any(String), price: expect.stringMatching(/^\d+\.\d\d$/), stock: expect.any(Number), delivery: expect.any(String) });

    const link = (home.blocks[4] as { link: { type: string; page_id: number } }).link;
    expect(link.type).toBe("page");
    const page = itemsOf(await h5(t, "h5shoppage", { code: world.code, id: link.page_id }));
    expect(page.title).toBe("新学期专区");
    // the chosen goods in the order chosen: the exercise book, then the winter uniform
    expect(((page.blocks as Row[])[1].goods as Row[]).map((g) => g.title)).toEqual(["三年级数学同步练习", "冬季校服冲锋衣"]);
  });

  it("stores the blocks as checked, and refuses a block at fault naming it", async () => {
    const added = await call("svc", "shopdiyadd", {
      title: " 运动会 ",
      blocks: [
        { kind: "notice", text: " 运动会当天校门口售卖 ", extra: "dropped" },
        { kind: "goods", title: "运动装备", source: "chosen", goods_ids: [own["冬季校服冲锋衣"]], columns: 1 },
      ],
    });
    expect(added.return_code, added.return_msg).toBe("SUCCESS");
    const id = Number(itemsOf(added).id);
    const [stored] = await t.db.select().from(shopDiyPages).where(eq(shopDiyPages.id, id));
    expect(stored.blocks).toEqual([
      { kind: "notice", text: "运动会当天校门口售卖" },
      { kind: "goods", title: "运动装备", source: "chosen", goods_ids: [own["冬季校服冲锋衣"]], columns: 1 },
    ]);
    expect(stored.updated_at).not.toBeNull();

    const bad = await call("svc", "shopdiyedit", { id, blocks: [{ kind: "spacer", height: 8 }, { kind: "notice", text: "" }] });
    expect(bad.data?.errors).toEqual([{ field: "blocks", message: "Blocks: block 2 is incomplete or invalid" }]);
    const many = await call("svc", "shopdiyedit", { id, blocks: Array.from({ length: 31 }, () => ({ kind: "spacer", height: 8 })) });
    expect(many.data?.errors).toEqual([{ field: "blocks", message: "Blocks holds at most 30" }]);
    // another provider's goods item, as if it were not there at all
    const foreign = await call("svc", "shopdiyedit", { id, blocks: [{ kind: "spacer", height: 8 }, { kind: "goods", title: "", source: "chosen", goods_ids: [harbourGoods], columns: 2 }] });
    expect(foreign.data?.errors).toEqual([{ field: "blocks", message: "Block 2 names a goods item, category or page that does not exist" }]);
    const [still] = await t.db.select({ blocks: shopDiyPages.blocks }).from(shopDiyPages).where(eq(shopDiyPages.id, id));
    expect(still.blocks).toEqual(stored.blocks);
  });

  it("keeps one home page a provider, and shows only goods on sale at the payer's school", async () => {
    const made = await call("svc", "shopdiyadd", {
      title: "Sports day",
      is_home: "Y",
      blocks: [{ kind: "goods", title: "", source: "chosen", goods_ids: [own["午餐卡（月卡）"], own["夏季校服短袖套装"]], columns: 2 }],
    });
    expect(made.return_code, made.return_msg).toBe("SUCCESS");
    const homes = await t.db.select({ title: shopDiyPages.title }).from(shopDiyPages).where(and(eq(shopDiyPages.sysid, world.sysid), eq(shopDiyPages.is_home, "Y")));
    expect(homes).toEqual([{ title: "Sports day" }]);
    // the lunch card is off sale: the grid shows the uniform alone
    const home = (await shop()).home as { blocks: { goods: Row[] }[] };
    expect(home.blocks[0].goods.map((g) => g.title)).toEqual(["夏季校服短袖套装"]);
    // a grid left with nothing on sale is not shown
    await call("svc", "shopdiyedit", { id: Number(itemsOf(made).id), blocks: [{ kind: "goods", title: "", source: "chosen", goods_ids: [own["午餐卡（月卡）"]], columns: 2 }, { kind: "spacer", height: 8 }] });
    expect(((await shop()).home as { blocks: Row[] }).blocks).toEqual([{ kind: "spacer", height: 8 }]);
    // disabled, the shop has no home page
    await call("svc", "shopdiyedit", { id: Number(itemsOf(made).id), status: "0" });
    expect((await shop()).home).toBeNull();
  });

  it("leads nowhere from a link to a page disabled, and answers such a page or another provider's as not found", async () => {
    const [newTerm] = await t.db.select({ id: shopDiyPages.id }).from(shopDiyPages).where(eq(shopDiyPages.title, "新学期专区"));
    const linking = await call("svc", "shopdiyadd", { title: "Linking", is_home: "Y", blocks: [{ kind: "image", image: IMAGE, link: { type: "page", page_id: newTerm.id } }] });
    expect(linking.return_code, linking.return_msg).toBe("SUCCESS");
    expect(((await shop()).home as { blocks: Row[] }).blocks[0]).toEqual({ kind: "image", image: IMAGE, link: { type: "page", page_id: newTerm.id } });
    await call("svc", "shopdiyedit", { id: newTerm.id, status: "0" });
    expect(((await shop()).home as { blocks: Row[] }).blocks[0]).toEqual({ kind: "image", image: IMAGE, link: { type: "none" } });
    expect((await h5(t, "h5shoppage", { code: world.code, id: newTerm.id })).return_code).toBe("FAIL");
    const [harbourPage] = await t.db.select({ id: shopDiyPages.id }).from(shopDiyPages).where(ne(shopDiyPages.sysid, world.sysid));
    await t.db.update(shopDiyPages).set({ status: "1" }).where(eq(shopDiyPages.id, harbourPage.id));
    expect((await h5(t, "h5shoppage", { code: world.code, id: harbourPage.id })).return_code).toBe("FAIL");
    // a banner may lead to a page, its own provider's only
    const banner = await call("svc", "banneradd", { title: "Sports day", image: IMAGE, link_type: "page", page_id: harbourPage.id });
    expect((banner.data?.errors as { field: string }[])[0].field).toBe("page_id");
    const ok = await call("svc", "banneradd", { title: "Sports day", image: IMAGE, link_type: "page", page_id: Number(itemsOf(linking).id), sort: 0 });
    expect(ok.return_code, ok.return_msg).toBe("SUCCESS");
    const banners = (await shop()).banners as Row[];
    expect(banners.find((b) => b.title === "Sports day")?.link).toEqual({ type: "page", id: Number(itemsOf(linking).id) });
    await t.db.delete(shopBanners).where(eq(shopBanners.title, "Sports day"));
  });

  it("previews unsaved blocks as a payer would see them, with the shop's banners and colour", async () => {
    const preview = await call("svc", "shopdiypreview", { blocks: [{ kind: "banners" }, { kind: "goods", title: "", source: "category", cate_id: uniforms, count: 1, columns: 2 }] });
    expect(preview.return_code, preview.return_msg).toBe("SUCCESS");
    const items = itemsOf(preview) as { blocks: Row[]; banners: Row[]; theme: Row };
    expect(items.blocks[0]).toEqual({ kind: "banners" });
    expect((items.blocks[1].goods as Row[]).length).toBe(1);
    expect(items.banners.length).toBeGreaterThan(0);
    expect(items.theme.main).toMatch(/^#[0-9a-f]{6}$/);
    const refused = await call("svc", "shopdiypreview", { blocks: [{ kind: "notice", text: "" }] });
    expect(refused.data?.errors).toEqual([{ field: "blocks", message: "Block 1 is incomplete or invalid" }]);
    // another provider's preview reads its own goods only
    const harbour = await call("harbour", "shopdiypreview", { blocks: [{ kind: "goods", title: "", source: "chosen", goods_ids: [own["夏季校服短袖套装"]], columns: 2 }] });
    expect((itemsOf(harbour) as { blocks: Row[] }).blocks).toEqual([]);
  });
});
