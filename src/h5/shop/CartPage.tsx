/**
 * The cart: each SKU with its picture, specs, price and quantity (changed or removed), refreshed from the goods as
 * they stand now (a price changed, a SKU short of stock or taken off sale is said so), the total, and checking out.
 */
import { useEffect, useRef, useState } from "react";
import { h5call, H5Failure, type GoodsInfo } from "../api";
import { moneyText } from "../session";
import { Money } from "../ui";
import { cartCount, cartTotalFen, commonDeliveries, MAX_QTY, refreshCart, type CartLine } from "./cart";
import { BackLink } from "./GoodsPage";
import { Picture, specsText, Stepper } from "./parts";
import { listText, useShopText } from "./text";

interface Props {
  code: string;
  cart: readonly CartLine[];
  setCart: (lines: CartLine[]) => void;
  onBack: () => void;
  onGoods: (id: number) => void;
  onCheckout: () => void;
}

/** Why the cart cannot be checked out as it is, or undefined. */
export function cartProblem(lines: readonly CartLine[], s: ReturnType<typeof useShopText>["s"], language: ReturnType<typeof useShopText>["language"]): string | undefined {
  if (lines.some((l) => l.gone)) return s("goods_gone");
  const short = lines.find((l) => l.qty > l.stock);
  if (short) return `${short.title}: ${s("stock_short", { count: Math.max(0, short.stock) })}`;
  if (commonDeliveries(lines).length === 0) return s("delivery_conflict", { titles: listText(language, [...new Set(lines.map((l) => l.title))]) });
  return undefined;
}

export function CartPage({ code, cart, setCart, onBack, onGoods, onCheckout }: Props) {
  const { s, t, language } = useShopText();
  const cartRef = useRef(cart);
  cartRef.current = cart;

  // the goods as they stand now, asked once when the cart opens
  const [refreshed, setRefreshed] = useState(false);
  useEffect(() => {
    const ids = [...new Set(cartRef.current.map((l) => l.goods_id))];
    if (ids.length === 0) return;
    let cancelled = false;
    Promise.all(
      ids.map((id) =>
        h5call("h5goodsinfo", { code, id }).then(
          (info): [number, GoodsInfo | null] => [id, info],
          // not found: off sale; a network fault leaves the line as it was
          (err: unknown): [number, GoodsInfo | null] | undefined => (err instanceof H5Failure ? [id, null] : undefined),
        ),
      ),
    ).then((answers) => {
      if (cancelled) return;
      const infos = new Map(answers.filter((a): a is [number, GoodsInfo | null] => a !== undefined));
      setCart(refreshCart(cartRef.current, infos));
      setRefreshed(true);
    });
    return () => {
      cancelled = true;
    };
  }, [code, setCart]);

  const setQty = (skuId: number, qty: number) => setCart(cart.map((l) => (l.sku_id === skuId ? { ...l, qty } : l)));
  const remove = (skuId: number) => setCart(cart.filter((l) => l.sku_id !== skuId));
  const total = cartTotalFen(cart);
  const problem = cartProblem(cart, s, language);

  return (
    <>
      <BackLink label={s("back_to_shop")} onClick={onBack} />
      <section className="card" aria-labelledby="shop-cart-title" data-testid="shop-cart" data-refreshed={refreshed ? "" : undefined}>
        <h2 id="shop-cart-title">{s("cart")}</h2>
        {cart.length === 0 ? (
          <>
            <p className="muted" data-testid="shop-cart-empty">{s("cart_empty")}</p>
            <button type="button" className="btn primary" onClick={onBack}>
              {s("go_shopping")}
            </button>
          </>
        ) : (
          <ul className="lines">
            {cart.map((line) => (
              <li key={line.sku_id} className={line.gone ? "line gone" : "line"} data-testid={`shop-line-${line.sku_id}`}>
                <button type="button" className="line-pic" aria-label={line.title} onClick={() => onGoods(line.goods_id)}>
                  <Picture url={line.image} title={line.title} className="line-img" label="" />
                </button>
                <div className="line-body">
                  <div className="line-title">{line.title}</div>
                  {specsText(line.specs) ? <div className="muted small">{specsText(line.specs)}</div> : null}
                  {line.gone ? <div className="field-error">{s("goods_gone")}</div> : line.qty > line.stock ? <div className="field-error">{s("stock_short", { count: Math.max(0, line.stock) })}</div> : null}
                  <div className="line-foot">
                    <strong className="price">
                      <Money yuan={line.price} />
                    </strong>
                    {line.gone ? null : (
                      <Stepper
                        value={line.qty}
                        max={Math.max(1, Math.min(MAX_QTY, line.stock))}
                        onChange={(qty) => setQty(line.sku_id, qty)}
                        label={s("quantity")}
                        fewer={s("fewer")}
                        more={s("more")}
                        testId={`shop-line-qty-${line.sku_id}`}
                      />
                    )}
                  </div>
                </div>
                <button type="button" className="btn link remove" data-testid={`shop-line-remove-${line.sku_id}`} onClick={() => remove(line.sku_id)}>
                  {s("remove")}
                </button>
              </li>
            ))}
          </ul>
        )}
        {problem && cart.length > 0 ? (
          <p className="alert" role="alert" data-testid="shop-cart-problem">
            {problem}
          </p>
        ) : null}
      </section>
      {cart.length > 0 ? (
        <footer className="paybar">
          <div className="paybar-total">
            <span className="muted small">{s("items_count", { count: cartCount(cart) })}</span>
            <span>
              {t("selected_total")} <strong data-testid="shop-cart-total">{t("currency", { amount: moneyText(total, language) })}</strong>
            </span>
          </div>
          <button type="button" className="btn primary" disabled={problem !== undefined} data-testid="shop-checkout" onClick={onCheckout}>
            {s("checkout")}
          </button>
        </footer>
      ) : null}
    </>
  );
}
