/**
 * The price and stock log (goodslog, catalogue/goods.ts): every change of a price or a stock a person makes, written
 * in the transaction of the change by the hooks of the goods (its SKUs' prices and stocks, compared before and after
 * the save, which replaces the SKU rows) and of a v1 provider's fee projects (the amount, a project's price). A SKU
 * is known by its specs within its goods item, as its own id changes with every save of the item. Stock taken or
 * given back by orders goes through no hook and is not logged.
 */
import { asc, eq } from "drizzle-orm";
import { fenToYuan } from "../../../common/money";
import type { DbOrTx } from "../../db/client";
import { goodsLogs, goodsSkus } from "../../db/schema";
import type { EntityHooks, Row } from "../../engine/hooks";
import type { OperationContext } from "../../protocol/registry";
import { specsText } from "./traceSources";

type LogRow = typeof goodsLogs.$inferInsert;

interface SkuFigures {
  specs: Record<string, string>;
  price: number;
  stock: number;
}

const price = (fen: unknown): string | null => (fen === null || fen === undefined ? null : fenToYuan(Number(fen)));
const count = (n: unknown): string | null => (n === null || n === undefined ? null : String(n));

/** A SKU's specs as a key that does not depend on the order of the names. */
const specsKey = (specs: Record<string, string>) => JSON.stringify(Object.entries(specs).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

function who(ctx: OperationContext): Pick<LogRow, "user_id" | "username"> {
  return { user_id: ctx.auth?.userId ?? null, username: ctx.auth?.username ?? null };
}

async function skusOf(tx: DbOrTx, goodsId: number): Promise<SkuFigures[]> {
  const rows = await tx
    .select({ specs: goodsSkus.spec_values, price: goodsSkus.price, stock: goodsSkus.stock })
    .from(goodsSkus)
    .where(eq(goodsSkus.goods_id, goodsId))
    .orderBy(asc(goodsSkus.sort), asc(goodsSkus.id));
  return rows.map((r) => ({ specs: r.specs, price: Number(r.price), stock: Number(r.stock) }));
}

/**
 * The log rows of a goods item's SKUs going from `before` to `after`: a changed price or stock of a SKU kept, the
 * price and stock of a SKU added (from nothing) or removed (to nothing).
 */
export function skuChanges(before: readonly SkuFigures[], after: readonly SkuFigures[]): { specs: string; field: "price" | "stock"; before: string | null; after: string | null }[] {
  const changes: { specs: string; field: "price" | "stock"; before: string | null; after: string | null }[] = [];
  const old = new Map(before.map((s) => [specsKey(s.specs), s]));
  const compare = (b: SkuFigures | undefined, a: SkuFigures | undefined) => {
    const specs = specsText((a ?? b)!.specs);
    const prices = [price(b?.price), price(a?.price)] as const;
    const stocks = [count(b?.stock), count(a?.stock)] as const;
    if (prices[0] !== prices[1]) changes.push({ specs, field: "price", before: prices[0], after: prices[1] });
    if (stocks[0] !== stocks[1]) changes.push({ specs, field: "stock", before: stocks[0], after: stocks[1] });
  };
  for (const sku of after) {
    const key = specsKey(sku.specs);
    compare(old.get(key), sku);
    old.delete(key);
  }
  for (const gone of old.values()) compare(gone, undefined);
  return changes;
}

async function logSkus(ctx: OperationContext, tx: DbOrTx, row: Row, before: readonly SkuFigures[]): Promise<void> {
  const changes = skuChanges(before, await skusOf(tx, Number(row.id)));
  if (changes.length === 0) return;
  await tx.insert(goodsLogs).values(
    changes.map(
      (c): LogRow => ({
        sysid: Number(row.sysid),
        kind: "goodssku",
        record_id: Number(row.id),
        title: String(row.title),
        specs: c.specs,
        field: c.field,
        before_value: c.before,
        after_value: c.after,
        ...who(ctx),
        created_at: ctx.now,
      }),
    ),
  );
}

/** The SKUs a goods item had before an edit, by the row its edit's hooks are given. */
const skusBefore = new WeakMap<Row, SkuFigures[]>();

/** The goods' part of the log, to run beside the goods' own hooks (server/domains/retail/goods.ts). */
export const goodsLogHooks: Required<Pick<EntityHooks, "beforeEdit" | "afterAdd" | "afterEdit">> = {
  beforeEdit: async (_ctx, tx, before) => {
    skusBefore.set(before, await skusOf(tx, Number(before.id)));
  },
  afterAdd: (ctx, tx, row) => logSkus(ctx, tx, row, []),
  afterEdit: async (ctx, tx, before, after) => {
    const skus = skusBefore.get(before);
    skusBefore.delete(before);
    // the goods item's edit read its SKUs before saving them (beforeEdit); without that reading nothing is compared
    if (skus) await logSkus(ctx, tx, after, skus);
  },
};

async function logAmount(ctx: OperationContext, tx: DbOrTx, before: Row | null, after: Row): Promise<void> {
  const was = before ? price(before.amount) : null;
  const now = price(after.amount);
  if (was === now) return;
  await tx.insert(goodsLogs).values({
    sysid: Number(after.sysid),
    kind: "serviceproject",
    record_id: Number(after.id),
    title: String(after.title),
    specs: null,
    field: "price",
    before_value: was,
    after_value: now,
    ...who(ctx),
    created_at: ctx.now,
  });
}

/** A v1 provider's fee project: its amount is its price. */
export const serviceProjectLogHooks: EntityHooks = {
  afterAdd: (ctx, tx, row) => logAmount(ctx, tx, null, row),
  afterEdit: (ctx, tx, before, after) => logAmount(ctx, tx, before, after),
};
