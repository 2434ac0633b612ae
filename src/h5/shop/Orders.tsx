/**
 * The student's shop orders (h5shoporders) and one order (h5shoporderinfo): its state, its items, and what the payer
 * needs next: the pickup code (8 digits, large) and its QR code while it waits to be collected, the courier's
 * tracking number once sent, paying or cancelling it while unpaid, its after-sales once paid (./AfterSales.tsx). A pickup order waiting is asked again now and
 * then, so that the page says it was collected once the clerk has handed it over.
 */
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from "react";
import { h5call, type ShopOrder } from "../api";
import { BusinessTime, Money, problemOf, ProblemText, type Problem } from "../ui";
import { OrderAfterSales } from "./AfterSales";
import { BackLink } from "./GoodsPage";
import { courierName, orderStatusText, orderStatusTone, Picture, specsText } from "./parts";
import { useShopText } from "./text";

const QrImage = lazy(() => import("../QrImage"));

/** a pickup order waiting is asked again this often while the page is shown, for at most POLL_FOR_MS */
const POLL_MS = 5000;
const POLL_FOR_MS = 10 * 60 * 1000;

type Load<T> = { state: "loading" } | { state: "ready"; value: T } | { state: "problem"; problem: Problem };

function StatusTag({ order }: { order: Pick<ShopOrder, "status" | "delivery" | "refund_status" | "refunded_amount"> }) {
  const { s } = useShopText();
  return (
    <span className="tags">
      <span className={`tag-pill ${orderStatusTone(order.status)}`} data-testid="shop-order-status">
        {orderStatusText(order, s)}
      </span>
      {order.refund_status === "all" ? <span className="tag-pill">{s("refund_all")}</span> : null}
      {order.refund_status === "part" ? (
        <span className="tag-pill">
          <RefundPart amount={order.refunded_amount} />
        </span>
      ) : null}
    </span>
  );
}

function RefundPart({ amount }: { amount: string }) {
  const { s } = useShopText();
  const [before, after] = s("refund_part", { amount: "\u0000" }).split("\u0000");
  return (
    <>
      {before}
      <Money yuan={amount} />
      {after}
    </>
  );
}

/** A FAIL of a call the student's ticket stands behind, with finding the student again. */
function TicketProblem({ problem, testId, onFindAgain, onRetry }: { problem: Problem; testId: string; onFindAgain: () => void; onRetry: () => void }) {
  const { s, t } = useShopText();
  return (
    <section className="card">
      <ProblemText problem={problem} testId={testId} />
      {problem.kind === "network" ? (
        <button type="button" className="btn" onClick={onRetry}>
          {t("retry")}
        </button>
      ) : (
        <button type="button" className="btn" data-testid="shop-find-again" onClick={onFindAgain}>
          {s("find_again")}
        </button>
      )}
    </section>
  );
}

export function OrdersList({ ticket, studentName, onOrder, onBack, onFindAgain }: { ticket: string; studentName: string; onOrder: (id: number) => void; onBack: () => void; onFindAgain: () => void }) {
  const { s, t } = useShopText();
  const [load, setLoad] = useState<Load<ShopOrder[]>>({ state: "loading" });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let cancelled = false;
    setLoad({ state: "loading" });
    h5call("h5shoporders", { ticket }).then(
      (orders) => {
        if (!cancelled) setLoad({ state: "ready", value: Array.isArray(orders) ? orders : [] });
      },
      (err: unknown) => {
        if (!cancelled) setLoad({ state: "problem", problem: problemOf(err) });
      },
    );
    return () => {
      cancelled = true;
    };
  }, [ticket, attempt]);

  return (
    <>
      <BackLink label={s("back_to_shop")} onClick={onBack} />
      <section className="card" aria-labelledby="shop-orders-title">
        <h2 id="shop-orders-title">{s("my_orders")}</h2>
        <p className="muted small">{s("orders_of", { name: studentName })}</p>
        {load.state === "loading" ? <p className="muted center">{t("loading")}</p> : null}
        {load.state === "ready" && load.value.length === 0 ? (
          <>
            <p className="muted" data-testid="shop-orders-none">{s("orders_none")}</p>
            <button type="button" className="btn primary" onClick={onBack}>
              {s("go_shopping")}
            </button>
          </>
        ) : null}
        {load.state === "ready" && load.value.length > 0 ? (
          <ul className="orders" data-testid="shop-orders">
            {load.value.map((order) => (
              <li key={order.id}>
                <button type="button" className="order-card" data-testid={`shop-order-card-${order.id}`} onClick={() => onOrder(order.id)}>
                  <span className="order-top">
                    <span className="muted small">
                      <BusinessTime value={order.created_at} />
                    </span>
                    <StatusTag order={order} />
                  </span>
                  <span className="order-items">
                    {order.items.slice(0, 3).map((item, i) => (
                      <Picture key={i} url={item.image} title={item.title} className="order-img" label="" />
                    ))}
                    <span className="order-names">{order.items.map((item) => `${item.title} ×${item.qty}`).join("，")}</span>
                  </span>
                  <span className="order-bottom">
                    <span className="muted small">{order.order_no}</span>
                    <strong>
                      <Money yuan={order.amount} />
                    </strong>
                  </span>
                </button>
              </li>
            ))}
          </ul>
        ) : null}
      </section>
      {load.state === "problem" ? <TicketProblem problem={load.problem} testId="shop-orders-error" onFindAgain={onFindAgain} onRetry={() => setAttempt((a) => a + 1)} /> : null}
    </>
  );
}

interface OrderProps {
  /** the school's payer-page code: a garment's page is read within its provider */
  code: string;
  ticket: string;
  id: number;
  /** this order's payment, when this page made it: it can be paid again from here */
  canPay: boolean;
  onPay: () => void;
  onCancelled: () => void;
  onBack: () => void;
  onFindAgain: () => void;
}

export function OrderDetail({ code, ticket, id, canPay, onPay, onCancelled, onBack, onFindAgain }: OrderProps) {
  const { s, t } = useShopText();
  const [load, setLoad] = useState<Load<ShopOrder>>({ state: "loading" });
  const [attempt, setAttempt] = useState(0);
  const [confirming, setConfirming] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const [cancelProblem, setCancelProblem] = useState<Problem>();
  const shownAt = useRef(Date.now());

  const ask = useCallback(() => h5call("h5shoporderinfo", { ticket, id }), [ticket, id]);
  useEffect(() => {
    let cancelled = false;
    setLoad((current) => (current.state === "ready" ? current : { state: "loading" }));
    ask().then(
      (order) => {
        if (!cancelled) setLoad({ state: "ready", value: { ...order, items: Array.isArray(order.items) ? order.items : [] } });
      },
      (err: unknown) => {
        if (!cancelled) setLoad({ state: "problem", problem: problemOf(err) });
      },
    );
    return () => {
      cancelled = true;
    };
  }, [ask, attempt]);

  // a pickup order waiting to be collected: asked again while shown, to say when it was handed over
  const waiting = load.state === "ready" && load.value.status === "undelivered" && load.value.delivery === "pickup";
  useEffect(() => {
    if (!waiting) return;
    const timer = window.setInterval(() => {
      if (document.visibilityState === "visible" && Date.now() - shownAt.current < POLL_FOR_MS) setAttempt((a) => a + 1);
    }, POLL_MS);
    return () => window.clearInterval(timer);
  }, [waiting]);

  const cancel = () => {
    setCancelling(true);
    setCancelProblem(undefined);
    h5call("h5shopordercancel", { ticket, id }).then(
      (order) => {
        setCancelling(false);
        setConfirming(false);
        setLoad({ state: "ready", value: { ...order, items: Array.isArray(order.items) ? order.items : [] } });
        onCancelled();
      },
      (err: unknown) => {
        setCancelling(false);
        setCancelProblem(problemOf(err));
        // paid meanwhile, or closed: the order as it stands now
        setAttempt((a) => a + 1);
      },
    );
  };

  return (
    <>
      <BackLink label={s("my_orders")} onClick={onBack} />
      {load.state === "loading" ? <p className="muted center">{t("loading")}</p> : null}
      {load.state === "problem" ? <TicketProblem problem={load.problem} testId="shop-order-error" onFindAgain={onFindAgain} onRetry={() => setAttempt((a) => a + 1)} /> : null}
      {load.state === "ready" ? (
        <Detail order={load.value} pageCode={code} canPay={canPay} onPay={onPay} confirming={confirming} setConfirming={setConfirming} cancelling={cancelling} cancelProblem={cancelProblem} onCancel={cancel} onRefresh={() => setAttempt((a) => a + 1)} />
      ) : null}
      {load.state === "ready" && load.value.status !== "unpaid" ? <OrderAfterSales ticket={ticket} order={load.value} /> : null}
    </>
  );
}

function Detail({
  order,
  pageCode,
  canPay,
  onPay,
  confirming,
  setConfirming,
  cancelling,
  cancelProblem,
  onCancel,
  onRefresh,
}: {
  order: ShopOrder;
  pageCode: string;
  canPay: boolean;
  onPay: () => void;
  confirming: boolean;
  setConfirming: (value: boolean) => void;
  cancelling: boolean;
  cancelProblem?: Problem;
  onCancel: () => void;
  onRefresh: () => void;
}) {
  const { s, t, language } = useShopText();
  const code = order.pickup_code ?? "";
  return (
    <>
      <section className="card order-state" data-testid="shop-order" data-status={order.status}>
        <div className="row">
          <h2>{s("order_title")}</h2>
          <StatusTag order={order} />
        </div>
        {order.status === "completed" && order.delivery === "pickup" ? (
          <p className="done-note" data-testid="shop-collected">
            {s("collected")}
          </p>
        ) : null}
        {order.status === "unpaid" ? <p className="muted small">{s("unpaid_hint")}</p> : null}
        {order.status === "undelivered" && order.delivery === "express" ? <p className="muted small">{s("waiting_dispatch")}</p> : null}
      </section>

      {code ? (
        <section className="card pickup" aria-labelledby="shop-pickup-title">
          <h2 id="shop-pickup-title">{s("pickup_code")}</h2>
          <p className="pickup-code" data-testid="shop-pickup-code" aria-label={code.split("").join(" ")}>
            <span>{code.slice(0, 4)}</span>
            <span>{code.slice(4)}</span>
          </p>
          {order.pickup_token ? (
            <Suspense fallback={<p className="muted center">{t("qr_loading")}</p>}>
              <QrImage value={order.pickup_token} label={s("pickup_qr")} />
            </Suspense>
          ) : null}
          <p className="muted small center">{s("pickup_hint")}</p>
        </section>
      ) : null}

      <section className="card">
        <dl className="facts">
          <dt>{t("order_no")}</dt>
          <dd data-testid="shop-order-no">{order.order_no}</dd>
          <dt>{s("ordered_at")}</dt>
          <dd>
            <BusinessTime value={order.created_at} />
          </dd>
          {order.paid_at ? (
            <>
              <dt>{s("paid_at")}</dt>
              <dd>
                <BusinessTime value={order.paid_at} />
              </dd>
            </>
          ) : null}
          {order.delivery === "pickup" && order.pickup_point ? (
            <>
              <dt>{s("pickup_point")}</dt>
              <dd data-testid="shop-order-point">
                {order.pickup_point.title}
                {order.pickup_point.address ? <span className="muted small block">{order.pickup_point.address}</span> : null}
              </dd>
            </>
          ) : null}
          {order.delivery === "express" ? (
            <>
              <dt>{s("delivery_title")}</dt>
              <dd>{s("delivery_express")}</dd>
            </>
          ) : null}
          {order.tracking_no ? (
            <>
              {order.express_code ? (
                <>
                  <dt>{s("courier")}</dt>
                  <dd data-testid="shop-courier">{courierName(order.express_code, language)}</dd>
                </>
              ) : null}
              <dt>{s("tracking_no")}</dt>
              <dd className="break tracking" data-testid="shop-tracking-no">
                {order.tracking_no}
              </dd>
            </>
          ) : null}
        </dl>
        <h3>{s("items_title")}</h3>
        <ul className="lines compact">
          {order.items.map((item, i) => (
            <li key={i} className="line">
              <Picture url={item.image} title={item.title} className="line-img" label="" />
              <div className="line-body">
                <div className="line-title">{item.title}</div>
                {specsText(item.spec_values) ? <div className="muted small">{specsText(item.spec_values)}</div> : null}
                <div className="line-foot">
                  <span className="muted small">
                    <Money yuan={item.price} /> ×{item.qty}
                  </span>
                  <strong>
                    <Money yuan={item.amount} />
                  </strong>
                </div>
                {item.trace_codes?.length ? (
                  <div className="trace-codes" data-testid={`shop-trace-codes-${i}`}>
                    <span className="muted small">{s("trace_codes")}</span>
                    {item.trace_codes.map((traceCode) => (
                      <a key={traceCode} className="trace-code" href={`/h5/${encodeURIComponent(pageCode)}/trace/${encodeURIComponent(traceCode)}`} data-testid="shop-trace-code">
                        {traceCode}
                      </a>
                    ))}
                  </div>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
        {order.delivery === "express" ? (
          <div className="amount-line" data-testid="shop-order-freight">
            <span>{s("freight")}</span>
            <span>{order.freight && Number(order.freight) > 0 ? <Money yuan={order.freight} /> : s("freight_free")}</span>
          </div>
        ) : null}
        <div className="amount-line total">
          <span>{s("order_total")}</span>
          <strong className="amount" data-testid="shop-order-amount">
            <Money yuan={order.amount} />
          </strong>
        </div>
      </section>

      {order.status === "unpaid" ? (
        <div className="actions">
          {canPay ? (
            <button type="button" className="btn primary" data-testid="shop-pay-again" onClick={onPay}>
              {s("pay_now")}
            </button>
          ) : null}
          {confirming ? (
            <div className="confirm" role="alertdialog" aria-labelledby="shop-cancel-q">
              <p id="shop-cancel-q">{s("cancel_confirm")}</p>
              <div className="confirm-buttons">
                <button type="button" className="btn" disabled={cancelling} onClick={() => setConfirming(false)}>
                  {s("cancel_no")}
                </button>
                <button type="button" className="btn danger" disabled={cancelling} data-testid="shop-cancel-yes" onClick={onCancel}>
                  {cancelling ? s("cancelling") : s("cancel_yes")}
                </button>
              </div>
            </div>
          ) : (
            <button type="button" className="btn" data-testid="shop-cancel" onClick={() => setConfirming(true)}>
              {s("cancel_order")}
            </button>
          )}
        </div>
      ) : null}
      {cancelProblem ? <ProblemText problem={cancelProblem} testId="shop-cancel-error" /> : null}
      <button type="button" className="btn link block" data-testid="shop-order-refresh" onClick={onRefresh}>
        {s("refresh")}
      </button>
    </>
  );
}
