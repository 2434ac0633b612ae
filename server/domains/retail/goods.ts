/**
 * Goods and their categories (catalogue/goods.ts), beyond what the engine checks: categories keep to two levels (a
 * category goes only within a top one, and one that holds others stays on top), a top category's name is its
 * provider's once; a goods item's SKUs each name a value of exactly its spec names, no two alike, and the goods
 * item's price and stock are its SKUs' lowest price and total stock, written in the transaction that saves them,
 * with the SKUs' price and stock changes logged (./goodsLogs.ts).
 */
import { and, asc, eq, isNull, ne, sql } from "drizzle-orm";
import { goodsCategoryEntity, goodsEntity } from "../../../catalogue/goods";
import type { DbOrTx } from "../../db/client";
import { goods, goodsCategories, goodsSkus } from "../../db/schema";
import type { EntityHooks, EntityHooksByName, Row } from "../../engine/hooks";
import { labelText } from "../../lib/i18n";
import { ApiFailure } from "../../protocol/envelope";
import type { OperationContext } from "../../protocol/registry";
import { goodsLogHooks } from "./goodsLogs";

function refused(ctx: OperationContext, field: string, key: string, params: Record<string, string | number> = {}): ApiFailure {
  const message = ctx.t(key, params);
  return new ApiFailure(key, params, { errors: [{ field, message }] });
}

/** A category's place: within a top category only; a top one holding others stays on top; a top name once. */
async function checkCategory(ctx: OperationContext, tx: DbOrTx, row: Row): Promise<void> {
  const id = Number(row.id);
  const parentId = row.parent_id === null || row.parent_id === undefined ? null : Number(row.parent_id);
  if (parentId !== null) {
    const [parent] = await tx.select({ parent_id: goodsCategories.parent_id }).from(goodsCategories).where(eq(goodsCategories.id, parentId));
    if (!parent || parent.parent_id !== null || parentId === id) throw refused(ctx, "parent_id", "retail.errors.parent_not_top");
    const [child] = await tx.select({ id: goodsCategories.id }).from(goodsCategories).where(eq(goodsCategories.parent_id, id)).limit(1);
    if (child) throw refused(ctx, "parent_id", "retail.errors.has_children");
  } else {
    // a sub-category's name is unique within its parent (the engine's check); a top one's within its provider
    const [clash] = await tx
      .select({ id: goodsCategories.id })
      .from(goodsCategories)
      .where(and(eq(goodsCategories.sysid, Number(row.sysid)), isNull(goodsCategories.parent_id), eq(goodsCategories.title, String(row.title)), ne(goodsCategories.id, id)))
      .limit(1);
    if (clash) {
      const label = labelText(ctx.t, goodsCategoryEntity.fields.find((f) => f.name === "title")!.label, "title");
      throw refused(ctx, "title", "api.duplicate", { label });
    }
  }
  const level = parentId === null ? "1" : "2";
  if (row.level !== level) {
    await tx.update(goodsCategories).set({ level }).where(eq(goodsCategories.id, id));
    row.level = level;
  }
}

const categoryHooks: EntityHooks = {
  afterAdd: (ctx, tx, row) => checkCategory(ctx, tx, row),
  afterEdit: (ctx, tx, _before, after) => checkCategory(ctx, tx, after),
};

/**
 * The goods item's SKUs as saved: each names a value of exactly its spec names, no two the same combination; then
 * its price and stock from them (the row answered is updated in place).
 */
async function checkSkus(ctx: OperationContext, tx: DbOrTx, row: Row): Promise<void> {
  const id = Number(row.id);
  const names = [...((row.spec_names as string[] | null) ?? [])].sort();
  const skus = await tx.select({ spec_values: goodsSkus.spec_values }).from(goodsSkus).where(eq(goodsSkus.goods_id, id)).orderBy(asc(goodsSkus.sort), asc(goodsSkus.id));
  const seen = new Map<string, number>();
  skus.forEach((sku, i) => {
    const keys = Object.keys(sku.spec_values).sort();
    if (keys.length !== names.length || keys.some((k, j) => k !== names[j])) {
      throw refused(ctx, `skus.${i}.spec_values`, "retail.errors.spec_mismatch", { row: i + 1, names: names.join(" / ") });
    }
    const combination = JSON.stringify(keys.map((k) => sku.spec_values[k]));
    const other = seen.get(combination);
    if (other !== undefined) throw refused(ctx, `skus.${i}.spec_values`, "retail.errors.spec_twice", { row: i + 1, other: other + 1 });
    seen.set(combination, i);
  });
  const [figures] = await tx
    .update(goods)
    .set({
      price: sql`(SELECT min(${goodsSkus.price}) FROM ${goodsSkus} WHERE ${goodsSkus.goods_id} = ${id})`,
      stock: sql`(SELECT coalesce(sum(${goodsSkus.stock}), 0) FROM ${goodsSkus} WHERE ${goodsSkus.goods_id} = ${id})`,
    })
    .where(eq(goods.id, id))
    .returning({ price: goods.price, stock: goods.stock });
  Object.assign(row, figures);
}

// the SKUs' price and stock changes go to the price and stock log (./goodsLogs.ts) once the SKUs are checked
const goodsHooks: EntityHooks = {
  beforeEdit: goodsLogHooks.beforeEdit,
  afterAdd: async (ctx, tx, row, virtual) => {
    await checkSkus(ctx, tx, row);
    await goodsLogHooks.afterAdd(ctx, tx, row, virtual);
  },
  afterEdit: async (ctx, tx, before, after) => {
    await checkSkus(ctx, tx, after);
    await goodsLogHooks.afterEdit(ctx, tx, before, after);
  },
};

export const goodsHooksByEntity: EntityHooksByName = {
  [goodsCategoryEntity.name]: categoryHooks,
  [goodsEntity.name]: goodsHooks,
};
