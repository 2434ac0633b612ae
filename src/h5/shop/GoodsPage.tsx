/**
 * One goods item: its pictures (swiped, or chosen by their thumbnails), its price and stock, a chip per value of
 * each spec (a value no SKU in stock has with the values already chosen is disabled), the quantity, and adding the
 * chosen SKU to the cart. The description is the HTML the server keeps to its allow-list.
 */
import { useEffect, useMemo, useRef, useState } from "react";
import { h5call, type GoodsInfo, type Sku } from "../api";
import { moneyText, toFen } from "../session";
import { Money, problemOf, ProblemText, type Problem } from "../ui";
import { addToCart, MAX_QTY, type CartLine } from "./cart";
import { Picture, Stepper } from "./parts";
import { listText, useShopText } from "./text";

interface Props {
  code: string;
  id: number;
  cart: readonly CartLine[];
  setCart: (lines: CartLine[]) => void;
  onCart: () => void;
  onBack: () => void;
}

type Load = { state: "loading" } | { state: "ready"; info: GoodsInfo } | { state: "problem"; problem: Problem };

/** the values of each spec name, in the order its SKUs give them */
function specValues(info: GoodsInfo): Record<string, string[]> {
  const values: Record<string, string[]> = {};
  for (const name of info.spec_names) values[name] = [];
  for (const sku of info.skus) {
    for (const name of info.spec_names) {
      const value = sku.spec_values[name];
      if (value !== undefined && !values[name].includes(value)) values[name].push(value);
    }
  }
  return values;
}

function matches(sku: Sku, chosen: Record<string, string>): boolean {
  return Object.entries(chosen).every(([name, value]) => sku.spec_values[name] === value);
}

export function GoodsPage({ code, id, cart, setCart, onCart, onBack }: Props) {
  const { s, t, language } = useShopText();
  const [load, setLoad] = useState<Load>({ state: "loading" });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let cancelled = false;
    setLoad({ state: "loading" });
    h5call("h5goodsinfo", { code, id }).then(
      (info) => {
        if (!cancelled) setLoad({ state: "ready", info: { ...info, images: info.images ?? [], spec_names: info.spec_names ?? [], skus: info.skus ?? [] } });
      },
      (err: unknown) => {
        if (!cancelled) setLoad({ state: "problem", problem: problemOf(err) });
      },
    );
    return () => {
      cancelled = true;
    };
  }, [code, id, attempt]);

  return (
    <>
      <BackLink label={s("back_to_shop")} onClick={onBack} />
      {load.state === "loading" ? <p className="muted center">{t("loading")}</p> : null}
      {load.state === "problem" ? (
        <section className="card">
          <ProblemText problem={load.problem} testId="shop-goods-error" />
          {load.problem.kind === "network" ? (
            <button type="button" className="btn" onClick={() => setAttempt((a) => a + 1)}>
              {t("retry")}
            </button>
          ) : null}
        </section>
      ) : null}
      {load.state === "ready" ? <GoodsDetail key={load.info.id} info={load.info} cart={cart} setCart={setCart} onCart={onCart} language={language} /> : null}
    </>
  );
}

export function BackLink({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <button type="button" className="btn link back" data-testid="shop-back" onClick={onClick}>
      <span aria-hidden="true">‹</span> {label}
    </button>
  );
}

function GoodsDetail({ info, cart, setCart, onCart, language }: { info: GoodsInfo; cart: readonly CartLine[]; setCart: (lines: CartLine[]) => void; onCart: () => void; language: "zh" | "en" | "es" }) {
  const { s, t } = useShopText();
  const values = useMemo(() => specValues(info), [info]);
  // a spec of one value is chosen already
  const [chosen, setChosen] = useState<Record<string, string>>(() => Object.fromEntries(info.spec_names.filter((n) => values[n].length === 1).map((n) => [n, values[n][0]])));
  const [qty, setQty] = useState(1);
  const [missing, setMissing] = useState<string[]>([]);
  const [added, setAdded] = useState(false);

  const complete = info.spec_names.every((name) => chosen[name] !== undefined);
  const sku = complete ? info.skus.find((k) => matches(k, chosen)) : info.skus.length === 1 && info.spec_names.length === 0 ? info.skus[0] : undefined;
  const inCart = sku ? (cart.find((l) => l.sku_id === sku.id)?.qty ?? 0) : 0;
  const most = sku ? Math.max(0, Math.min(MAX_QTY, sku.stock) - inCart) : MAX_QTY;
  const stockAll = info.skus.reduce((sum, k) => sum + Math.max(0, k.stock), 0);

  /** a value some SKU in stock has together with the other values chosen */
  const available = (name: string, value: string) => {
    const others = Object.fromEntries(Object.entries(chosen).filter(([n]) => n !== name));
    return info.skus.some((k) => k.stock > 0 && k.spec_values[name] === value && matches(k, others));
  };
  const choose = (name: string, value: string) => {
    setAdded(false);
    setMissing((m) => m.filter((n) => n !== name));
    setChosen((current) => {
      if (current[name] === value) {
        const { [name]: _dropped, ...rest } = current;
        return rest;
      }
      return { ...current, [name]: value };
    });
  };
  useEffect(() => {
    setQty((q) => Math.max(1, Math.min(q, Math.max(1, most))));
  }, [most]);

  const add = () => {
    if (!sku) {
      setMissing(info.spec_names.filter((name) => chosen[name] === undefined));
      return;
    }
    if (most <= 0) return;
    setCart(addToCart(cart, { sku_id: sku.id, goods_id: info.id, title: info.title, specs: sku.spec_values, price: sku.price, image: sku.image ?? info.images[0] ?? null, stock: sku.stock, delivery: info.delivery }, Math.min(qty, most)));
    setAdded(true);
    setQty(1);
  };

  const prices = info.skus.map((k) => toFen(k.price));
  const low = prices.length ? Math.min(...prices) : toFen(info.price);
  const high = prices.length ? Math.max(...prices) : low;
  const money = (fen: number) => t("currency", { amount: moneyText(fen, language) });
  const soldOut = sku ? sku.stock <= 0 : stockAll <= 0;
  const count = cart.reduce((sum, l) => sum + l.qty, 0);
  const ways = [info.delivery !== "express" ? s("delivery_pickup") : null, info.delivery !== "pickup" ? s("delivery_express") : null].filter((w): w is string => w !== null);

  return (
    <>
      <Gallery images={sku?.image ? [sku.image, ...info.images.filter((i) => i !== sku.image)] : info.images} title={info.title} />
      <section className="card goods-head">
        <h2 data-testid="shop-goods-title">{info.title}</h2>
        <div className="price-line">
          <strong className="price big" data-testid="shop-price">
            {sku ? <Money yuan={sku.price} /> : low === high ? money(low) : `${money(low)} – ${money(high)}`}
          </strong>
          <span className="muted small" data-testid="shop-stock">
            {soldOut ? s("sold_out") : s("stock_left", { count: sku ? sku.stock : stockAll })}
          </span>
        </div>
        <p className="muted small">{s("delivery_ways", { ways: listText(language, ways) })}</p>
      </section>
      {info.spec_names.length > 0 ? (
        <section className="card specs" aria-label={listText(language, info.spec_names)}>
          {info.spec_names.map((name) => (
            <div key={name} className={missing.includes(name) ? "spec missing" : "spec"} role="group" aria-labelledby={`spec-${name}`}>
              <div className="spec-name" id={`spec-${name}`}>
                {name}
              </div>
              <div className="spec-values">
                {values[name].map((value) => {
                  const ok = available(name, value);
                  const current = chosen[name] === value;
                  return (
                    <button
                      key={value}
                      type="button"
                      className={current ? "chip current" : ok ? "chip" : "chip unavailable"}
                      aria-pressed={current}
                      disabled={!ok && !current}
                      title={!ok ? s("sold_out") : undefined}
                      data-testid={`shop-spec-${name}-${value}`}
                      onClick={() => choose(name, value)}
                    >
                      {value}
                    </button>
                  );
                })}
              </div>
            </div>
          ))}
          <div className="qty-line">
            <span className="spec-name">{s("quantity")}</span>
            <Stepper value={qty} max={Math.max(1, most)} onChange={setQty} label={s("quantity")} fewer={s("fewer")} more={s("more")} testId="shop-qty" />
          </div>
        </section>
      ) : (
        <section className="card specs">
          <div className="qty-line">
            <span className="spec-name">{s("quantity")}</span>
            <Stepper value={qty} max={Math.max(1, most)} onChange={setQty} label={s("quantity")} fewer={s("fewer")} more={s("more")} testId="shop-qty" />
          </div>
        </section>
      )}
      {info.description ? (
        <section className="card" aria-labelledby="shop-details">
          <h3 id="shop-details" className="first">
            {s("details")}
          </h3>
          {/* the server keeps a goods description to an allow-list of tags and attributes */}
          <div className="rich" dangerouslySetInnerHTML={{ __html: info.description }} />
        </section>
      ) : null}
      <footer className="paybar shop-bar">
        <button type="button" className="cart-button" aria-label={s("cart_items", { count })} data-testid="shop-cart-button" onClick={onCart}>
          <CartIcon />
          {count > 0 ? <span className="badge" data-testid="shop-cart-count">{count}</span> : null}
        </button>
        <div className="paybar-total">
          {added ? (
            <span className="added" role="status" data-testid="shop-added">
              {s("added")}
            </span>
          ) : missing.length > 0 ? (
            <span className="field-error" role="alert" data-testid="shop-spec-missing">
              {s("choose_spec", { names: listText(language, missing) })}
            </span>
          ) : sku ? (
            <span className="muted small">{s("chosen", { specs: Object.values(sku.spec_values).join(" / ") || info.title })}</span>
          ) : null}
        </div>
        {added ? (
          <button type="button" className="btn primary" data-testid="shop-go-cart" onClick={onCart}>
            {s("checkout")}
          </button>
        ) : (
          <button type="button" className="btn primary" disabled={soldOut || (sku !== undefined && most <= 0)} data-testid="shop-add" onClick={add}>
            {soldOut ? s("sold_out") : s("add_to_cart")}
          </button>
        )}
      </footer>
    </>
  );
}

export function CartIcon() {
  return (
    <svg viewBox="0 0 24 24" width="26" height="26" aria-hidden="true" focusable="false">
      <path fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" d="M3 4h2.2l2.1 10.2a1.6 1.6 0 0 0 1.6 1.3h8.4a1.6 1.6 0 0 0 1.6-1.2L20.5 8H6.3" />
      <circle cx="9.5" cy="19.5" r="1.4" fill="currentColor" />
      <circle cx="17" cy="19.5" r="1.4" fill="currentColor" />
    </svg>
  );
}

/** The pictures, one screen wide each, swiped (scroll snapping) or chosen by their thumbnails. */
function Gallery({ images, title }: { images: string[]; title: string }) {
  const { s } = useShopText();
  const track = useRef<HTMLDivElement>(null);
  const [index, setIndex] = useState(0);
  const onScroll = () => {
    const el = track.current;
    if (el && el.clientWidth > 0) setIndex(Math.round(el.scrollLeft / el.clientWidth));
  };
  const show = (i: number) => {
    const el = track.current;
    if (el) el.scrollTo({ left: i * el.clientWidth, behavior: "smooth" });
    setIndex(i);
  };
  if (images.length === 0) {
    return (
      <div className="gallery" data-testid="shop-gallery">
        <Picture url={null} title={title} className="gallery-img" label={s("no_picture")} />
      </div>
    );
  }
  return (
    <div className="gallery" data-testid="shop-gallery" aria-roledescription="carousel" aria-label={s("pictures")}>
      <div className="gallery-track" ref={track} onScroll={onScroll}>
        {images.map((url, i) => (
          <Picture key={url} url={url} title={title} className="gallery-img" label={s("picture_n", { n: i + 1, total: images.length })} />
        ))}
      </div>
      {images.length > 1 ? (
        <>
          <span className="gallery-count" aria-hidden="true">
            {index + 1}/{images.length}
          </span>
          <div className="thumbs">
            {images.map((url, i) => (
              <button key={url} type="button" className={i === index ? "thumb current" : "thumb"} aria-label={s("picture_n", { n: i + 1, total: images.length })} aria-current={i === index ? true : undefined} onClick={() => show(i)}>
                <Picture url={url} title={title} className="thumb-img" label="" />
              </button>
            ))}
          </div>
        </>
      ) : null}
    </div>
  );
}
