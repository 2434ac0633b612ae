/**
 * The goods the school's payers may buy, by category: a strip of the top categories that hold some (and of the
 * chosen one's sub-categories), the goods as a grid of pictures with their price, and the cart's bar when it holds
 * something.
 */
import type { GoodsCategory, GoodsListAnswer, GoodsSummary } from "../api";
import { Money } from "../ui";
import { Picture } from "./parts";
import { useShopText } from "./text";

interface Props {
  list: GoodsListAnswer;
  /** the category chosen (a top one or a sub-category), or all */
  cate?: number;
  onCategory: (cate: number | undefined) => void;
  onGoods: (id: number) => void;
}

/** The top category of a category (itself when it has no parent). */
function topOf(categories: readonly GoodsCategory[], id: number | null | undefined): number | undefined {
  const found = categories.find((c) => c.id === id);
  if (!found) return undefined;
  return found.parent_id === null ? found.id : found.parent_id;
}

export function GoodsList({ list, cate, onCategory, onGoods }: Props) {
  const { s } = useShopText();
  const { categories, goods } = list;
  // only the categories the school's goods are in
  const used = new Set(goods.map((g) => g.cate_id));
  const tops = categories.filter((c) => c.parent_id === null && (used.has(c.id) || categories.some((sub) => sub.parent_id === c.id && used.has(sub.id))));
  const top = topOf(categories, cate);
  const subs = top === undefined ? [] : categories.filter((c) => c.parent_id === top && used.has(c.id));
  const shown = cate === undefined ? goods : goods.filter((g) => g.cate_id === cate || (cate === top && topOf(categories, g.cate_id) === top));

  if (goods.length === 0) {
    return (
      <section className="card">
        <p className="muted" data-testid="shop-no-goods">{s("goods_none")}</p>
      </section>
    );
  }
  return (
    <>
      {tops.length > 1 ? (
        <nav className="chips-strip" aria-label={s("all")} data-testid="shop-categories">
          <Chip current={cate === undefined} onClick={() => onCategory(undefined)} testId="shop-cate-all">
            {s("all")}
          </Chip>
          {tops.map((c) => (
            <Chip key={c.id} current={top === c.id} onClick={() => onCategory(c.id)} testId={`shop-cate-${c.id}`}>
              {c.title}
            </Chip>
          ))}
        </nav>
      ) : null}
      {subs.length > 1 && top !== undefined ? (
        <nav className="chips-strip sub" aria-label={categories.find((c) => c.id === top)?.title}>
          <Chip current={cate === top} onClick={() => onCategory(top)} testId={`shop-cate-${top}-all`}>
            {s("all")}
          </Chip>
          {subs.map((c) => (
            <Chip key={c.id} current={cate === c.id} onClick={() => onCategory(c.id)} testId={`shop-cate-${c.id}`}>
              {c.title}
            </Chip>
          ))}
        </nav>
      ) : null}
      {shown.length === 0 ? (
        <section className="card">
          <p className="muted">{s("cate_none")}</p>
        </section>
      ) : (
        <ul className="goods-grid" data-testid="shop-goods">
          {shown.map((g) => (
            <GoodsCard key={g.id} goods={g} onOpen={() => onGoods(g.id)} />
          ))}
        </ul>
      )}
    </>
  );
}

function Chip({ current, onClick, testId, children }: { current: boolean; onClick: () => void; testId: string; children: string }) {
  return (
    <button type="button" className={current ? "chip current" : "chip"} aria-pressed={current} data-testid={testId} onClick={onClick}>
      {children}
    </button>
  );
}

/** A goods item in a grid; `testId` tells a DIY page's grid from the goods list (default `shop-goods-{id}`). */
export function GoodsCard({ goods, onOpen, testId }: { goods: GoodsSummary; onOpen: () => void; testId?: string }) {
  const { s } = useShopText();
  const soldOut = (goods.stock ?? 0) <= 0;
  return (
    <li>
      <button type="button" className={soldOut ? "goods-card sold-out" : "goods-card"} data-testid={testId ?? `shop-goods-${goods.id}`} onClick={onOpen}>
        <span className="goods-pic">
          <Picture url={goods.image} title={goods.title} className="goods-img" label="" />
          {soldOut ? <span className="sold-out-mark">{s("sold_out")}</span> : null}
        </span>
        <span className="goods-title">{goods.title}</span>
        <span className="goods-meta">
          <strong className="price">
            <Money yuan={goods.price} />
          </strong>
          <span className="tags">
            {goods.delivery !== "express" ? <span className="mini-tag">{s("tag_pickup")}</span> : null}
            {goods.delivery !== "pickup" ? <span className="mini-tag">{s("tag_express")}</span> : null}
          </span>
        </span>
      </button>
    </li>
  );
}
