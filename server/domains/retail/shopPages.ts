/**
 * The shop's DIY pages (catalogue/shopPages.ts): saved only when every goods item, category and page their blocks
 * name is the provider's own (the block at fault named), one page the shop's home; and shown, each block with what it
 * needs, on the payer page (the home page with the goods list, another page by h5shoppage) and in the console's
 * preview (shopdiypreview, with the banners and colour the page wears), which show the same blocks from the same goods.
 */
import { and, asc, desc, eq, inArray, ne, or, sql } from "drizzle-orm";
import { z } from "zod";
import { diyBlocks, diyReferences, type DiyBlock, type DiyGoodsCard, type ShownDiyBlock } from "../../../common/shopDiy";
import { fenToYuan } from "../../../common/money";
import { resolveScope } from "../../auth/scope";
import type { DbOrTx } from "../../db/client";
import { goods, goodsCategories, shopDiyPages } from "../../db/schema";
import { actionFieldFailure } from "../../engine/actions";
import type { EntityHooks, Row } from "../../engine/hooks";
import { ApiFailure, notFound } from "../../protocol/envelope";
import type { OperationContext, OperationRegistry } from "../../protocol/registry";
import { PAYER_API_PATH, qrCodeOf } from "../collection/payerApi";
import { shopFace } from "./shopSettings";

/** The first block (counted from 1) naming a record outside `known`, or none. */
function blockNaming(blocks: readonly DiyBlock[], known: { goods: Set<number>; categories: Set<number>; pages: Set<number> }): number | undefined {
  const index = blocks.findIndex((block) => {
    const named = diyReferences([block]);
    return named.goods.some((id) => !known.goods.has(id)) || named.categories.some((id) => !known.categories.has(id)) || named.pages.some((id) => !known.pages.has(id));
  });
  return index < 0 ? undefined : index + 1;
}

/** Which of the records the blocks name are the provider's own: one small read per kind of record. */
async function ownIds(db: DbOrTx, sysid: number, blocks: readonly DiyBlock[]) {
  const named = diyReferences(blocks);
  const ids = (rows: { id: number }[]) => new Set(rows.map((r) => r.id));
  const [goodsIds, categoryIds, pageIds] = await Promise.all([
    named.goods.length === 0 ? [] : db.select({ id: goods.id }).from(goods).where(and(eq(goods.sysid, sysid), inArray(goods.id, named.goods))),
    named.categories.length === 0 ? [] : db.select({ id: goodsCategories.id }).from(goodsCategories).where(and(eq(goodsCategories.sysid, sysid), inArray(goodsCategories.id, named.categories))),
    named.pages.length === 0 ? [] : db.select({ id: shopDiyPages.id }).from(shopDiyPages).where(and(eq(shopDiyPages.sysid, sysid), inArray(shopDiyPages.id, named.pages))),
  ]);
  return { goods: ids(goodsIds), categories: ids(categoryIds), pages: ids(pageIds) };
}

/** A page as saved: its blocks name only the provider's records, it is the only home if it is one, stamped as changed. */
async function saved(ctx: OperationContext, tx: DbOrTx, row: Row): Promise<void> {
  const sysid = Number(row.sysid);
  const id = Number(row.id);
  const blocks = row.blocks as DiyBlock[];
  const index = blockNaming(blocks, await ownIds(tx, sysid, blocks));
  if (index !== undefined) throw actionFieldFailure(ctx, "blocks", "diy.errors.block_names_unknown", { index });
  if (row.is_home === "Y") {
    await tx.update(shopDiyPages).set({ is_home: "N" }).where(and(eq(shopDiyPages.sysid, sysid), ne(shopDiyPages.id, id), eq(shopDiyPages.is_home, "Y")));
  }
  await tx.update(shopDiyPages).set({ updated_at: ctx.now }).where(eq(shopDiyPages.id, id));
}

export const shopPageHooks: EntityHooks = {
  afterAdd: (ctx, tx, row) => saved(ctx, tx, row),
  afterEdit: (ctx, tx, _before, after) => saved(ctx, tx, after),
};

/** the most goods a page's grids show together (MAX_DIY_BLOCKS grids of MAX_DIY_GOODS would be more than a phone needs) */
const MAX_PAGE_GOODS = 200;

/**
 * The blocks as a payer sees them: each goods grid with its goods on sale (to school `schId`, or, for the console's
 * preview, to any school), the chosen ones in their order, a category's first `count` in the shop's order; a grid left
 * with no goods is not shown; an image's link to a page that is gone leads nowhere. Two reads, whatever the blocks.
 */
export async function shownBlocks(db: DbOrTx, sysid: number, schId: number | null, blocks: readonly DiyBlock[]): Promise<ShownDiyBlock[]> {
  const named = diyReferences(blocks);
  const onSale = and(eq(goods.sysid, sysid), eq(goods.status, "on"), schId === null ? undefined : or(eq(goods.sch_scope, "all"), sql`${schId} = any(${goods.sch_ids})`));
  const wanted = or(
    named.goods.length > 0 ? inArray(goods.id, named.goods) : undefined,
    named.categories.length > 0 ? or(inArray(goods.cate_id, named.categories), sql`${goods.cate_id} in (select id from ${goodsCategories} where ${inArray(goodsCategories.parent_id, named.categories)})`) : undefined,
  );
  const [rows, parents, pages] = await Promise.all([
    named.goods.length + named.categories.length === 0
      ? []
      : db
          .select({ id: goods.id, title: goods.title, cate_id: goods.cate_id, images: goods.images, price: goods.price, stock: goods.stock, delivery: goods.delivery })
          .from(goods)
          .where(and(onSale, wanted))
          .orderBy(asc(goods.sort), desc(goods.id))
          .limit(MAX_PAGE_GOODS),
    named.categories.length === 0 ? [] : db.select({ id: goodsCategories.id, parent_id: goodsCategories.parent_id }).from(goodsCategories).where(inArray(goodsCategories.parent_id, named.categories)),
    named.pages.length === 0 ? [] : db.select({ id: shopDiyPages.id }).from(shopDiyPages).where(and(eq(shopDiyPages.sysid, sysid), eq(shopDiyPages.status, "1"), inArray(shopDiyPages.id, named.pages))),
  ]);
  const card = (g: (typeof rows)[number]): DiyGoodsCard => ({ id: g.id, title: g.title, cate_id: g.cate_id, image: g.images?.[0] ?? null, price: fenToYuan(g.price ?? 0), stock: g.stock ?? 0, delivery: g.delivery as DiyGoodsCard["delivery"] });
  const byId = new Map(rows.map((g) => [g.id, g]));
  const parentOf = new Map(parents.map((c) => [c.id, c.parent_id]));
  const livePages = new Set(pages.map((p) => p.id));
  const shown: ShownDiyBlock[] = [];
  for (const block of blocks) {
    if (block.kind === "goods") {
      const cards =
        block.source === "chosen"
          ? block.goods_ids.flatMap((id) => (byId.has(id) ? [card(byId.get(id)!)] : []))
          : rows
              .filter((g) => g.cate_id === block.cate_id || parentOf.get(g.cate_id) === block.cate_id)
              .slice(0, block.count)
              .map(card);
      if (cards.length > 0) shown.push({ kind: "goods", title: block.title, columns: block.columns, goods: cards, ...(block.source === "category" ? { cate_id: block.cate_id } : {}) });
    } else if (block.kind === "image" && block.link.type === "page" && !livePages.has(block.link.page_id!)) {
      shown.push({ ...block, link: { type: "none" } });
    } else {
      shown.push(block);
    }
  }
  return shown;
}

export interface ShownPage {
  id: number;
  title: string;
  blocks: ShownDiyBlock[];
}

/** The provider's home page in use, as a payer of school `schId` sees it; none when it has none. */
export async function homePage(db: DbOrTx, sysid: number, schId: number): Promise<ShownPage | null> {
  const [page] = await db
    .select({ id: shopDiyPages.id, title: shopDiyPages.title, blocks: shopDiyPages.blocks })
    .from(shopDiyPages)
    .where(and(eq(shopDiyPages.sysid, sysid), eq(shopDiyPages.is_home, "Y"), eq(shopDiyPages.status, "1")))
    .limit(1);
  return page ? { id: page.id, title: page.title, blocks: await shownBlocks(db, sysid, schId, page.blocks as DiyBlock[]) } : null;
}

const ID = z.union([z.number().int().positive().max(2_147_483_647), z.string().regex(/^\d{1,10}$/).transform(Number)]);

export function registerShopPageOperations(registry: OperationRegistry): void {
  // a page a banner or an image leads to, in use, of the code's provider
  registry.add({
    path: PAYER_API_PATH,
    method: "h5shoppage",
    needsToken: false,
    schema: z.object({ code: z.string().trim().min(1).max(64), id: ID }),
    async handler(ctx) {
      const qr = await qrCodeOf(ctx.db, String(ctx.payload.code));
      if (!qr) throw new ApiFailure("collection.payer.code_unknown");
      const [page] = await ctx.db
        .select({ id: shopDiyPages.id, title: shopDiyPages.title, blocks: shopDiyPages.blocks })
        .from(shopDiyPages)
        .where(and(eq(shopDiyPages.id, Number(ctx.payload.id)), eq(shopDiyPages.sysid, qr.sysid), eq(shopDiyPages.status, "1")));
      if (!page) throw notFound();
      return { data: { items: { id: page.id, title: page.title, blocks: await shownBlocks(ctx.db, qr.sysid, qr.sch_id, page.blocks as DiyBlock[]) } } };
    },
  });

  // the editor's phone preview: the blocks being edited, unsaved, as a payer would see them
  registry.add({
    path: "adminapiv2",
    method: "shopdiypreview",
    needsToken: true,
    roles: ["servicev2"],
    effect: "read",
    schema: z.object({ blocks: z.unknown() }),
    async handler(ctx) {
      const { sysid } = await resolveScope(ctx.db, ctx.auth!, ctx.payload);
      if (sysid === null) throw new ApiFailure("api.scope_required");
      const checked = diyBlocks(ctx.payload.blocks);
      if (!("blocks" in checked)) {
        throw actionFieldFailure(ctx, "blocks", checked.problem === "over_count" ? "diy.errors.over_count" : "diy.errors.block_invalid", checked.problem === "block" ? { index: checked.index } : {});
      }
      const [blocks, face] = await Promise.all([shownBlocks(ctx.db, sysid, null, checked.blocks), shopFace(ctx.db, sysid, ctx.now)]);
      return { data: { items: { blocks, banners: face.banners, theme: face.theme } } };
    },
  });
}
