/**
 * Demo goods: Sunrise's shop (summer and winter uniforms in sizes and colours, an exercise book for one school, a
 * lunch card taken off sale) in two levels of categories, and one of Harbour's, so that each provider sees its own.
 * The goods items' price and stock are their SKUs' lowest price and total stock, as the server keeps them. Each has
 * its pictures (./goodsImages.ts, stored as uploaded images are), and a SKU of a colour or an edition the picture of
 * its own. Sunrise sends uniforms and books by its express templates: free within Shanghai, charged by the piece or by
 * the weight beyond it, books within East China only.
 */
import { eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../db/client";
import { expressRules, expressTemplates, goods, goodsCategories, goodsSkus } from "../db/schema";
import { combinations } from "../../common/specs";
import type { DemoPicture } from "./goodsImages";

/** each demo picture's address */
export type DemoPictures = Record<DemoPicture, string>;

interface DemoGoods {
  title: string;
  cate: number;
  specs: Record<string, string[]>;
  /** fen, by the SKU's specs */
  price: (specs: Record<string, string>) => number;
  stock: (specs: Record<string, string>, i: number) => number;
  delivery: "both" | "express" | "pickup";
  status: "on" | "off";
  schIds?: number[];
  description: string;
  /** the goods item's pictures, in order */
  images: DemoPicture[];
  /** a SKU's own picture, by its specs (a colour's, an edition's) */
  skuImage?: (specs: Record<string, string>) => DemoPicture;
  /** its express template, and a piece's weight in grams */
  template?: number;
  weight?: number;
}

async function category(tx: DbOrTx, sysid: number, title: string, sort: number, parentId: number | null = null): Promise<number> {
  const [row] = await tx
    .insert(goodsCategories)
    .values({ sysid, title, sort, parent_id: parentId, level: parentId === null ? "1" : "2" })
    .returning({ id: goodsCategories.id });
  return row.id;
}

async function addGoods(tx: DbOrTx, sysid: number, item: DemoGoods, sort: number, pictures: DemoPictures): Promise<void> {
  const names = Object.keys(item.specs);
  const [row] = await tx
    .insert(goods)
    .values({
      sysid,
      title: item.title,
      images: item.images.map((name) => pictures[name]),
      cate_id: item.cate,
      spec_names: names,
      delivery: item.delivery,
      status: item.status,
      sch_scope: item.schIds ? "chosen" : "all",
      sch_ids: item.schIds ?? null,
      express_tpl_id: item.template ?? null,
      sort,
      description: item.description,
    })
    .returning({ id: goods.id });
  const skus = combinations(names, item.specs).map((specs, i) => ({
    sysid,
    goods_id: row.id,
    sort: i,
    spec_values: specs,
    price: item.price(specs),
    stock: item.stock(specs, i),
    barcode: `69${String(row.id).padStart(4, "0")}${String(i + 1).padStart(3, "0")}`,
    image: item.skuImage ? pictures[item.skuImage(specs)] : null,
    weight: item.weight ?? 0,
  }));
  await tx.insert(goodsSkus).values(skus);
  await tx
    .update(goods)
    .set({
      price: sql`(SELECT min(price) FROM ${goodsSkus} WHERE goods_id = ${row.id})`,
      stock: sql`(SELECT sum(stock) FROM ${goodsSkus} WHERE goods_id = ${row.id})`,
    })
    .where(eq(goods.id, row.id));
}

type DemoRule = Omit<typeof expressRules.$inferInsert, "sysid" | "template_id">;

async function expressTemplate(tx: DbOrTx, sysid: number, title: string, chargeBy: "count" | "weight", sort: number, rules: DemoRule[]): Promise<number> {
  const [row] = await tx.insert(expressTemplates).values({ sysid, title, charge_by: chargeBy, sort }).returning({ id: expressTemplates.id });
  await tx.insert(expressRules).values(rules.map((rule, i) => ({ ...rule, sysid, template_id: row.id, sort: i })));
  return row.id;
}

export async function seedDemoGoods(tx: DbOrTx, sunrise: { sysid: number; no1: number }, harbour: { sysid: number }, pictures: DemoPictures): Promise<void> {
  const uniformPost = await expressTemplate(tx, sunrise.sysid, "校服快递", "count", 1, [
    { regions: ["31"], first_units: 1, first_price: 0, extra_units: 1, extra_price: 0 },
    { regions: ["32", "33", "34"], first_units: 1, first_price: 800, extra_units: 1, extra_price: 200, free_amount: 19_900 },
    { regions: null, first_units: 1, first_price: 1200, extra_units: 1, extra_price: 400, free_amount: 29_900 },
  ]);
  const bookPost = await expressTemplate(tx, sunrise.sysid, "书本快递（华东）", "weight", 2, [
    { regions: ["31"], first_units: 1000, first_price: 0, extra_units: 1000, extra_price: 0 },
    { regions: ["32", "33", "34", "35", "36", "37"], first_units: 500, first_price: 600, extra_units: 500, extra_price: 300 },
  ]);
  const uniforms = await category(tx, sunrise.sysid, "校服", 1);
  const summer = await category(tx, sunrise.sysid, "夏季校服", 1, uniforms);
  const winter = await category(tx, sunrise.sysid, "冬季校服", 2, uniforms);
  const books = await category(tx, sunrise.sysid, "教辅资料", 2);
  const cards = await category(tx, sunrise.sysid, "餐卡", 3);
  const sizes = ["110", "120", "130", "140", "150", "160", "170"];
  const items: DemoGoods[] = [
    {
      title: "夏季校服短袖套装",
      cate: summer,
      specs: { 尺码: sizes, 颜色: ["藏青", "白色"] },
      price: (s) => (Number(s["尺码"]) >= 150 ? 13_800 : 12_800),
      // the smallest white size is sold out
      stock: (s, i) => (s["尺码"] === "110" && s["颜色"] === "白色" ? 0 : 20 + ((i * 7) % 30)),
      delivery: "both",
      status: "on",
      template: uniformPost,
      weight: 350,
      images: ["polo-navy", "polo-white", "shorts-navy"],
      skuImage: (s) => (s["颜色"] === "白色" ? "polo-white" : "polo-navy"),
      description: "<p>纯棉面料，透气吸汗。<strong>请按身高选择尺码</strong>：110 适合身高 105-115 cm，以此类推。</p><ul><li>短袖 POLO 衫一件</li><li>短裤（裙）一条</li></ul>",
    },
    {
      title: "冬季校服冲锋衣",
      cate: winter,
      specs: { 尺码: sizes.slice(1), 颜色: ["藏青"] },
      price: () => 26_800,
      stock: (_s, i) => 12 + i * 3,
      delivery: "pickup",
      status: "on",
      images: ["jacket-navy", "jacket-open"],
      description: "<p>三合一冲锋衣，内胆可拆，防风防水。</p>",
    },
    {
      title: "三年级数学同步练习",
      cate: books,
      specs: { 版本: ["人教版", "北师大版"] },
      price: () => 3_250,
      stock: () => 80,
      delivery: "express",
      status: "on",
      schIds: [sunrise.no1],
      template: bookPost,
      weight: 420,
      images: ["book-green", "book-blue"],
      skuImage: (s) => (s["版本"] === "北师大版" ? "book-blue" : "book-green"),
      description: "<p>与课本同步的练习册，含答案。</p>",
    },
    {
      title: "午餐卡（月卡）",
      cate: cards,
      specs: { 月份: ["九月", "十月"] },
      price: () => 30_000,
      stock: () => 200,
      delivery: "pickup",
      status: "off",
      images: ["card-orange"],
      skuImage: (s) => (s["月份"] === "十月" ? "card-red" : "card-orange"),
      description: "<p>每月 20 个工作日午餐，下月起售。</p>",
    },
  ];
  for (const [i, item] of items.entries()) await addGoods(tx, sunrise.sysid, item, i, pictures);

  const harbourUniforms = await category(tx, harbour.sysid, "校服", 1);
  await addGoods(
    tx,
    harbour.sysid,
    { title: "Harbour 运动校服", cate: harbourUniforms, specs: { 尺码: ["S", "M", "L"] }, price: () => 15_900, stock: () => 30, delivery: "both", status: "on", description: "<p>Sports uniform.</p>", images: ["sports-teal"] },
    0,
    pictures,
  );
}
