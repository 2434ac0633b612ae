/**
 * The school shop on the payer's page (a chunk of its own, loaded when the payer opens it): the goods by category,
 * a goods item, the cart, checking out for the student found, paying (the fee pages' payment panel, the order's
 * state asked with h5shoporderinfo), and the student's orders. Where the payer is lives in the payer's state
 * (session.ts) and the browser's history, like the fee steps; the cart lives in localStorage per school (cart.ts).
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { h5call, type FindResult, type GoodsListAnswer, type Lookup, type PayStatus, type ShopOrderMade } from "../api";
import { FindStep } from "../Find";
import { PaymentPanel } from "../Payment";
import { moneyText, type CheckoutForm, type Go, type PayerState, type ShopPayment, type ShopRoute } from "../session";
import { problemOf, ProblemText, type Problem } from "../ui";
import { cartCount, cartTotalFen, loadCart, saveCart, type CartLine } from "./cart";
import { Banners } from "./Banners";
import { DiyBlocks, DiyPageView, type DiyLinks } from "./DiyPage";
import { CartPage } from "./CartPage";
import { Checkout } from "./Checkout";
import { GoodsList } from "./GoodsList";
import { BackLink, CartIcon, GoodsPage } from "./GoodsPage";
import { OrderDetail, OrdersList } from "./Orders";
import { specsText } from "./parts";
import { useShopText } from "./text";
import "./shop.css";

export interface ShopProps {
  code: string;
  lookup: Lookup;
  payer: PayerState;
  go: Go;
  keep: (next: PayerState) => void;
  /** the goods list the page asked for already */
  goods?: GoodsListAnswer;
  /** the payer's state with the student found */
  found: (answer: FindResult) => PayerState;
}

const EMPTY_FORM: CheckoutForm = { name: "", phone: "", province: "", detail: "" };

type ListLoad = { state: "loading" } | { state: "ready"; list: GoodsListAnswer } | { state: "problem"; problem: Problem };

export default function Shop({ code, lookup, payer, go, keep, goods, found }: ShopProps) {
  const { s, t, language } = useShopText();
  const route: ShopRoute = payer.shop ?? { view: "list" };
  const payerRef = useRef(payer);
  payerRef.current = payer;

  const to = useCallback(
    (next: ShopRoute, history: "push" | "replace" = "push", patch: Partial<PayerState> = {}) => go({ ...payerRef.current, ...patch, step: "shop", shop: next }, history),
    [go],
  );

  const [cart, setCartState] = useState<CartLine[]>(() => loadCart(code));
  const setCart = useCallback(
    (lines: CartLine[]) => {
      saveCart(code, lines);
      setCartState(lines);
    },
    [code],
  );

  // the goods list: the page's, or asked here (a reload straight into the shop)
  const [list, setList] = useState<ListLoad>(goods ? { state: "ready", list: goods } : { state: "loading" });
  const [listAttempt, setListAttempt] = useState(0);
  useEffect(() => {
    if (goods) {
      setList({ state: "ready", list: goods });
      return;
    }
    let cancelled = false;
    h5call("h5goodslist", { code }).then(
      (answer) => {
        if (!cancelled) setList({ state: "ready", list: { categories: answer.categories ?? [], goods: answer.goods ?? [], shop: answer.shop } });
      },
      (err: unknown) => {
        if (!cancelled) setList({ state: "problem", problem: problemOf(err) });
      },
    );
    return () => {
      cancelled = true;
    };
  }, [code, goods, listAttempt]);

  const hasStudent = Boolean(payer.ticket && payer.student);
  const ticket = payer.ticket ?? "";
  const findAgain = (next: "checkout" | "orders") => () => to({ view: "find", next });

  // a view that needs the student, asked for first
  // the provider's look of its shop, on the whole page while the shop is open
  const theme = list.state === "ready" ? list.list.shop?.theme : undefined;
  useEffect(() => {
    if (!theme) return;
    const root = document.documentElement;
    root.style.setProperty("--blue", theme.main);
    root.style.setProperty("--blue-dark", theme.dark);
    root.classList.toggle("shop-square", theme.style === "square");
    return () => {
      root.style.removeProperty("--blue");
      root.style.removeProperty("--blue-dark");
      root.classList.remove("shop-square");
    };
  }, [theme?.main, theme?.dark, theme?.style]);

  let view = route;
  if (!hasStudent && (view.view === "checkout" || view.view === "orders" || view.view === "order" || view.view === "pay")) view = { view: "find", next: view.view === "checkout" ? "checkout" : "orders" };
  if (view.view === "pay" && !payer.shopPay) view = { view: "orders" };

  const banners = list.state === "ready" ? (list.list.shop?.banners ?? []) : [];
  const links: DiyLinks = {
    onGoods: (id) => to({ view: "goods", id }),
    onCategory: (cate) => to({ view: "list", cate }, view.view === "list" ? "replace" : "push"),
    onPage: (id) => to({ view: "page", id }),
  };

  switch (view.view) {
    case "page":
      return <DiyPageView key={view.id} code={code} id={view.id} banners={banners} links={links} onBack={() => to({ view: "list" })} />;
    case "goods":
      return <GoodsPage code={code} id={view.id} cart={cart} setCart={setCart} onCart={() => to({ view: "cart" })} onBack={() => to({ view: "list" })} />;
    case "cart":
      return <CartPage code={code} cart={cart} setCart={setCart} onBack={() => to({ view: "list" })} onGoods={(id) => to({ view: "goods", id })} onCheckout={() => to({ view: "checkout" })} />;
    case "find": {
      const next = view.next;
      return (
        <>
          <BackLink label={next === "checkout" ? s("cart") : s("back_to_shop")} onClick={() => to(next === "checkout" ? { view: "cart" } : { view: "list" })} />
          <FindStep
            code={code}
            lookup={lookup}
            hint={s("find_for_order")}
            submitLabel={s("find_student")}
            onFound={(answer) => go({ ...found(answer), step: "shop", shop: next === "checkout" ? { view: "checkout" } : { view: "orders" }, shopPay: undefined }, "replace")}
          />
        </>
      );
    }
    case "checkout":
      return (
        <Checkout
          code={code}
          payer={payer}
          cart={cart}
          form={payer.checkout ?? EMPTY_FORM}
          onForm={(form) => keep({ ...payerRef.current, checkout: form })}
          onMade={(made: ShopOrderMade) => {
            setCart([]);
            const shopPay: ShopPayment = { id: made.id, order_no: made.order_no, order: made, orderAt: Date.now() };
            to({ view: "pay" }, "replace", { shopPay });
          }}
          onBack={() => to({ view: "cart" })}
          onAnotherStudent={findAgain("checkout")}
          shop={list.state === "ready" ? list.list.shop : undefined}
        />
      );
    case "pay":
      return <ShopPay code={code} ticket={ticket} pay={payer.shopPay!} onPaid={(id) => to({ view: "order", id }, "replace", { shopPay: undefined })} onOrders={() => to({ view: "orders" }, "replace")} />;
    case "orders":
      return <OrdersList ticket={ticket} studentName={payer.student?.name ?? ""} onOrder={(id) => to({ view: "order", id })} onBack={() => to({ view: "list" })} onFindAgain={findAgain("orders")} />;
    case "order":
      return (
        <OrderDetail
          key={view.id}
          code={code}
          ticket={ticket}
          id={view.id}
          canPay={payer.shopPay?.id === view.id}
          onPay={() => to({ view: "pay" })}
          onCancelled={() => {
            if (payerRef.current.shopPay?.id === view.id) keep({ ...payerRef.current, shopPay: undefined });
          }}
          onBack={() => to({ view: "orders" })}
          onFindAgain={findAgain("orders")}
        />
      );
    default: {
      const count = cartCount(cart);
      return (
        <>
          <div className="shop-tools">
            <button type="button" className="pill" data-testid="shop-orders-button" onClick={() => to({ view: "orders" })}>
              {s("my_orders")}
            </button>
            <button type="button" className="pill" aria-label={s("cart_items", { count })} data-testid="shop-cart-top" onClick={() => to({ view: "cart" })}>
              <CartIcon />
              <span>{s("cart")}</span>
              {count > 0 ? <span className="badge inline">{count}</span> : null}
            </button>
          </div>
          {list.state === "loading" ? <p className="muted center">{t("loading")}</p> : null}
          {list.state === "problem" ? (
            <section className="card">
              <ProblemText problem={list.problem} testId="shop-list-error" />
              <button type="button" className="btn" onClick={() => setListAttempt((a) => a + 1)}>
                {t("retry")}
              </button>
            </section>
          ) : null}
          {list.state === "ready" && list.list.shop?.open === false ? (
            <p className="muted center" data-testid="shop-closed">
              {s("shop_closed")}
            </p>
          ) : null}
          {/* the shop's home page, its banners where it places them; else the banners alone */}
          {list.state === "ready" && list.list.shop?.open !== false && list.list.shop?.home ? <DiyBlocks blocks={list.list.shop.home.blocks} banners={banners} links={links} /> : null}
          {list.state === "ready" && list.list.shop?.open !== false && !list.list.shop?.home ? <Banners banners={banners} {...links} /> : null}
          {list.state === "ready" && list.list.shop?.open !== false && list.list.shop?.home && list.list.goods.length > 0 ? (
            <h2 className="section-title" data-testid="shop-all-goods">
              {s("all_goods")}
            </h2>
          ) : null}
          {list.state === "ready" && list.list.shop?.open !== false ? <GoodsList list={list.list} cate={view.cate} onCategory={(cate) => to({ view: "list", cate }, "replace")} onGoods={(id) => to({ view: "goods", id })} /> : null}
          {list.state === "ready" && list.list.shop?.open !== false && list.list.shop?.help?.length ? (
            <section className="card shop-help" aria-labelledby="shop-help-title" data-testid="shop-help">
              <h2 id="shop-help-title">{s("help_title")}</h2>
              {list.list.shop.help.map((item, i) => (
                <details key={i} data-testid="shop-help-item">
                  <summary>{item.question}</summary>
                  <p>{item.answer}</p>
                </details>
              ))}
            </section>
          ) : null}
          {/* "contact us": a chat with the provider's enterprise WeChat customer service, in a page of its own */}
          {list.state === "ready" && list.list.shop?.contact ? (
            <a className="btn" href={list.list.shop.contact.url} target="_blank" rel="noopener noreferrer" title={list.list.shop.contact.name} data-testid="shop-contact">
              {s("contact_us")}
            </a>
          ) : null}
          {list.state === "ready" && list.list.shop?.service_phone ? (
            <p className="muted small center" data-testid="shop-service-phone">
              {s("service_phone")} <a href={`tel:${list.list.shop.service_phone}`}>{list.list.shop.service_phone}</a>
            </p>
          ) : null}
          {count > 0 ? (
            <footer className="paybar">
              <div className="paybar-total">
                <span className="muted small">{s("items_count", { count })}</span>
                <span>
                  {t("selected_total")} <strong data-testid="shop-bar-total">{t("currency", { amount: moneyText(cartTotalFen(cart), language) })}</strong>
                </span>
              </div>
              <button type="button" className="btn primary" data-testid="shop-bar-cart" onClick={() => to({ view: "cart" })}>
                {s("checkout")}
              </button>
            </footer>
          ) : null}
        </>
      );
    }
  }
}

/** Paying a shop order: the fee pages' panel, its state asked with h5shoporderinfo. */
function ShopPay({ code, ticket, pay, onPaid, onOrders }: { code: string; ticket: string; pay: ShopPayment; onPaid: (id: number) => void; onOrders: () => void }) {
  const { s } = useShopText();
  const [lines, setLines] = useState<string>();
  const check = useCallback(async (): Promise<PayStatus> => {
    const order = await h5call("h5shoporderinfo", { ticket, id: pay.id });
    if (!lines && Array.isArray(order.items)) setLines(order.items.map((i) => [i.title, specsText(i.spec_values), `×${i.qty}`].filter(Boolean).join(" ")).join("；"));
    if (order.status === "unpaid") return "unpaid";
    // closed unpaid; an order paid and refunded since has its time paid
    return order.status === "cancelled" && !order.paid_at ? "closed" : "paid";
  }, [ticket, pay.id, lines]);
  return (
    <PaymentPanel code={code} order={pay.order} orderAt={pay.orderAt} check={check} onPaid={() => onPaid(pay.id)} onBack={onOrders} backLabel={s("to_my_orders")} closedText={s("pay_closed")}>
      <p className="muted small pay-for" data-testid="shop-pay-for">
        {s("shop_order", { order_no: pay.order_no })}
        {lines ? <span className="block">{lines}</span> : null}
      </p>
    </PaymentPanel>
  );
}
