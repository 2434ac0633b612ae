/**
 * The demo shop's face beyond its banners: Sunrise's home page (its banners, a notice, the uniforms by category, a
 * picture leading to its new-term page of chosen goods) and Harbour's one page; each provider's photo library with its
 * goods' pictures in folders; and their enterprise WeChat customer-service accounts, Sunrise's shown to its parents.
 */
import { and, eq } from "drizzle-orm";
import type { DiyBlock } from "../../common/shopDiy";
import type { DbOrTx } from "../db/client";
import { goods, goodsCategories, photoFolders, photos, qwKfAccounts, shopDiyPages } from "../db/schema";
import { customerServiceSettingsDecl } from "../../catalogue/customerService";
import { writeSettings } from "../engine/settings";

async function goodsOf(tx: DbOrTx, sysid: number) {
  return tx.select({ id: goods.id, title: goods.title, images: goods.images }).from(goods).where(eq(goods.sysid, sysid));
}

export async function seedDemoShopFace(tx: DbOrTx, sunrise: number, harbour: number, now: Date): Promise<void> {
  const sunriseGoods = await goodsOf(tx, sunrise);
  const byTitle = (title: string) => sunriseGoods.find((g) => g.title === title)!;
  const [uniforms] = await tx.select({ id: goodsCategories.id }).from(goodsCategories).where(and(eq(goodsCategories.sysid, sunrise), eq(goodsCategories.title, "校服")));
  const book = byTitle("三年级数学同步练习");

  const newTermBlocks: DiyBlock[] = [
    { kind: "notice", text: "新学期教辅与冬季校服已上架，付款后到北门自提点凭取货码领取。" },
    { kind: "goods", title: "开学必备", source: "chosen", goods_ids: [book.id, byTitle("冬季校服冲锋衣").id], columns: 2 },
  ];
  const [newTerm] = await tx.insert(shopDiyPages).values({ sysid: sunrise, title: "新学期专区", blocks: newTermBlocks, updated_at: now }).returning({ id: shopDiyPages.id });
  const homeBlocks: DiyBlock[] = [
    { kind: "banners" },
    { kind: "notice", text: "校服每周一、三、五到货，北门自提点周一至周五 07:30-17:30 开放。" },
    { kind: "goods", title: "校服", source: "category", cate_id: uniforms.id, count: 4, columns: 2 },
    { kind: "spacer", height: 8 },
    { kind: "image", image: book.images![0]!, link: { type: "page", page_id: newTerm.id } },
  ];
  const harbourGoods = await goodsOf(tx, harbour);
  await tx.insert(shopDiyPages).values([
    { sysid: sunrise, title: "商城首页", is_home: "Y", blocks: homeBlocks, updated_at: now },
    { sysid: harbour, title: "Harbour shop", blocks: [{ kind: "goods", title: "Uniforms", source: "chosen", goods_ids: harbourGoods.slice(0, 1).map((g) => g.id), columns: 2 }], status: "0", updated_at: now },
  ]);

  // the photo library: each goods item's pictures, the uniforms' in a folder of their own, and Sunrise's empty folder
  // for its banners
  for (const [sysid, items, title] of [
    [sunrise, sunriseGoods, "校服"],
    [harbour, harbourGoods, "Uniforms"],
  ] as const) {
    const [folder] = await tx.insert(photoFolders).values({ sysid, title, sort: 1 }).returning({ id: photoFolders.id });
    const rows = items.flatMap((g) => (g.images ?? []).map((image, i) => ({ sysid, image, title: i === 0 ? g.title : `${g.title} ${i + 1}`, folder_id: g.title.includes("校服") ? folder.id : null })));
    if (rows.length > 0) await tx.insert(photos).values(rows);
  }
  await tx.insert(photoFolders).values({ sysid: sunrise, title: "轮播图", sort: 2 });

  // customer service: Sunrise's two accounts, its parents sent to the first; Harbour's one, not shown
  const [frontDesk] = await tx
    .insert(qwKfAccounts)
    .values([
      { sysid: sunrise, name: "校服客服", open_kfid: "wkSunriseUniform01", url: "https://work.weixin.qq.com/kfid/kfc8a1b2c3d4e5f6a7b", sort: 1, synced_at: now },
      { sysid: sunrise, name: "售后客服", open_kfid: "wkSunriseAfterSale02", url: "https://work.weixin.qq.com/kfid/kfc0f1e2d3c4b5a6978", sort: 2, synced_at: now },
    ])
    .returning({ id: qwKfAccounts.id });
  await tx.insert(qwKfAccounts).values({ sysid: harbour, name: "Harbour Help", open_kfid: "wkHarbourHelp0001", url: "https://work.weixin.qq.com/kfid/kfc1122334455667788", sort: 1 });
  await writeSettings(tx, customerServiceSettingsDecl, sunrise, { contact_enabled: "Y", contact_kf_id: frontDesk.id, corp_id: "ww6a1d2b3c4e5f6071" });
}
