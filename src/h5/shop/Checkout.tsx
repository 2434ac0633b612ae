/**
 * Checking out the cart for the student found: how it reaches the payer (a pickup point of the school, or a courier
 * to an address, as every item allows), the address checked as the server checks it with a message under each
 * field, the freight of the province chosen as the server charges it (h5shopfreight), and the order made
 * (h5shoporder) before it is paid.
 */
import { useEffect, useRef, useState, type FormEvent } from "react";
import { PROVINCES } from "../../../common/provinces";
import { h5call, type Delivery, type FreightQuote, type PickupPoint, type ShopFace, type ShopOrderMade } from "../api";
import { moneyText, toFen, type CheckoutForm, type PayerState } from "../session";
import { Money, problemOf, ProblemText, type Problem } from "../ui";
import { cartTotalFen, commonDeliveries, type CartLine } from "./cart";
import { cartProblem } from "./CartPage";
import { BackLink } from "./GoodsPage";
import { specsText } from "./parts";
import { useShopText, type ShopTranslate } from "./text";

/** the server's rules of an address (server/domains/retail/shop.ts) */
const NAME_MAX = 30;
const PHONE = /^1\d{10}$|^0\d{2,3}-?\d{7,8}$/;
const DETAIL_MIN = 4;
const DETAIL_MAX = 200;

type AddressField = "name" | "phone" | "province" | "detail";
type Errors = Partial<Record<AddressField | "delivery" | "point", string>>;

export function addressErrors(form: CheckoutForm, s: ShopTranslate): Errors {
  const errors: Errors = {};
  const name = form.name.trim();
  const phone = form.phone.trim();
  const detail = form.detail.trim();
  if (!name) errors.name = s("name_required");
  else if ([...name].length > NAME_MAX) errors.name = s("name_too_long");
  if (!phone) errors.phone = s("phone_required");
  else if (!PHONE.test(phone)) errors.phone = s("phone_invalid");
  if (!form.province) errors.province = s("province_required");
  if (!detail) errors.detail = s("address_required");
  else if ([...detail].length < DETAIL_MIN) errors.detail = s("address_too_short");
  else if ([...detail].length > DETAIL_MAX) errors.detail = s("address_too_long");
  return errors;
}

/** the field of the form a refusal names */
function fieldOf(serverField: string | undefined): keyof Errors | undefined {
  if (serverField === "address.name") return "name";
  if (serverField === "address.phone") return "phone";
  if (serverField === "address.province") return "province";
  if (serverField === "address" || serverField === "address.detail") return "detail";
  if (serverField === "pickup_point_id") return "point";
  if (serverField === "delivery") return "delivery";
  return undefined;
}

type Points = { state: "loading" } | { state: "ready"; points: PickupPoint[] } | { state: "problem"; problem: Problem };
/** the freight of the province chosen, for the lines of the cart it was asked for */
type Quote = { key: string; quote?: FreightQuote };

interface Props {
  code: string;
  payer: PayerState;
  cart: readonly CartLine[];
  form: CheckoutForm;
  onForm: (form: CheckoutForm) => void;
  onMade: (made: ShopOrderMade) => void;
  onBack: () => void;
  onAnotherStudent: () => void;
  /** the shop's settings, once read: the ways of delivery it offers */
  shop?: ShopFace;
}

export function Checkout({ code, payer, cart, form, onForm, onMade, onBack, onAnotherStudent, shop }: Props) {
  const { s, t, language } = useShopText();
  const lines = cart.filter((l) => !l.gone);
  const ways = commonDeliveries(lines).filter((way) => shop?.[way] !== false);
  const [points, setPoints] = useState<Points>({ state: "loading" });
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem>();
  const formRef = useRef<HTMLFormElement>(null);
  const [quote, setQuote] = useState<Quote>();

  useEffect(() => {
    let cancelled = false;
    h5call("h5pickuppoints", { code }).then(
      (answer) => {
        if (!cancelled) setPoints({ state: "ready", points: Array.isArray(answer) ? answer : [] });
      },
      (err: unknown) => {
        if (!cancelled) setPoints({ state: "problem", problem: problemOf(err) });
      },
    );
    return () => {
      cancelled = true;
    };
  }, [code]);

  const pointList = points.state === "ready" ? points.points : [];
  const pickupOpen = ways.includes("pickup") && (points.state !== "ready" || pointList.length > 0);
  // one way, or one point: chosen already
  const delivery: Delivery | undefined = form.delivery && ways.includes(form.delivery) ? form.delivery : ways.length === 1 ? ways[0] : undefined;
  const pointId = pointList.some((p) => p.id === form.pointId) ? form.pointId : pointList.length === 1 ? pointList[0].id : undefined;
  const change = (patch: Partial<CheckoutForm>) => {
    onForm({ ...form, ...patch });
    // another way of delivery: the other way's messages go
    if (patch.delivery !== undefined && patch.delivery !== delivery) {
      setErrors({});
      return;
    }
    const touched = Object.keys(patch).map((k) => (k === "pointId" ? "point" : k));
    if (touched.some((k) => k in errors)) setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !touched.includes(k))));
  };

  const blocked = cartProblem(cart, s, language);
  // what sending the cart to the province costs, asked again whenever the cart or the province changes
  const province = delivery === "express" ? (form.province ?? "") : "";
  const items = lines.map((l) => ({ sku_id: l.sku_id, qty: l.qty }));
  const quoteKey = province ? JSON.stringify([province, items]) : "";
  useEffect(() => {
    if (!quoteKey) return;
    let cancelled = false;
    const [wanted, cartItems] = JSON.parse(quoteKey) as [string, { sku_id: number; qty: number }[]];
    h5call("h5shopfreight", { code, items: cartItems, province: wanted }).then(
      (answer) => {
        if (!cancelled) setQuote({ key: quoteKey, quote: answer });
      },
      (err: unknown) => {
        if (cancelled) return;
        setQuote({ key: quoteKey });
        // a province the goods are not sent to is said under the province; anything else when the order is made
        const refused = problemOf(err);
        if (refused.kind === "fail" && fieldOf(refused.field) === "province") setErrors((e) => ({ ...e, province: refused.message }));
      },
    );
    return () => {
      cancelled = true;
    };
  }, [code, quoteKey]);
  const freight = delivery === "express" && quote?.key === quoteKey ? quote.quote?.freight : undefined;
  const total = cartTotalFen(lines) + (freight ? toFen(freight) : 0);

  const showErrors = (found: Errors) => {
    setErrors(found);
    // the first field refused comes into view
    window.setTimeout(() => formRef.current?.querySelector<HTMLElement>("[aria-invalid='true'], .field-error")?.scrollIntoView?.({ block: "center" }), 0);
  };

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (busy || blocked || lines.length === 0 || !payer.ticket) return;
    const found: Errors = {};
    if (!delivery) found.delivery = s("delivery_required");
    if (delivery === "pickup" && pointId === undefined) found.point = s("point_required");
    if (delivery === "express") Object.assign(found, addressErrors(form, s));
    if (Object.keys(found).length > 0) {
      setProblem(undefined);
      showErrors(found);
      return;
    }
    setBusy(true);
    setProblem(undefined);
    setErrors({});
    const request =
      delivery === "pickup"
        ? { ticket: payer.ticket, items, delivery, pickup_point_id: pointId }
        : { ticket: payer.ticket, items, delivery: "express" as const, address: { name: form.name.trim(), phone: form.phone.trim(), province, detail: form.detail.trim() } };
    h5call("h5shoporder", request).then(onMade, (err: unknown) => {
      setBusy(false);
      const refused = problemOf(err);
      const field = refused.kind === "fail" ? fieldOf(refused.field) : undefined;
      if (field && refused.kind === "fail") showErrors({ [field]: refused.message });
      else setProblem(refused);
    });
  };

  const fieldError = (name: AddressField) =>
    errors[name] ? (
      <em className="field-error" id={`shop-address-${name}-error`} data-testid={`shop-address-${name}-error`}>
        {errors[name]}
      </em>
    ) : null;

  return (
    <>
      <BackLink label={s("cart")} onClick={onBack} />
      <form ref={formRef} onSubmit={submit} noValidate className="checkout">
        <section className="card" aria-labelledby="shop-checkout-title">
          <h2 id="shop-checkout-title">{s("checkout_title")}</h2>
          <div className="student">
            <div>
              <div className="muted small">{s("order_for")}</div>
              <div className="student-name" data-testid="shop-student">
                {payer.student?.name}
              </div>
              <div className="muted small">{payer.student?.class_title}</div>
            </div>
            <button type="button" className="btn link" data-testid="shop-another-student" onClick={onAnotherStudent}>
              {t("change_student")}
            </button>
          </div>
          <ul className="summary">
            {lines.map((l) => (
              <li key={l.sku_id}>
                <span>
                  {l.title}
                  {specsText(l.specs) ? <span className="muted small block">{specsText(l.specs)}</span> : null}
                </span>
                <span className="nowrap">
                  <span className="muted small">×{l.qty}</span> <Money yuan={l.price} />
                </span>
              </li>
            ))}
          </ul>
          {delivery === "express" ? (
            <p className="freight" data-testid="shop-freight">
              <span>{s("freight")}</span>
              <span className="nowrap">
                {!province ? <span className="muted small">{s("freight_after_province")}</span> : freight === undefined ? "…" : toFen(freight) === 0 ? s("freight_free") : <Money yuan={freight} />}
              </span>
            </p>
          ) : null}
          {blocked ? <p className="alert">{blocked}</p> : null}
        </section>

        <section className="card" aria-labelledby="shop-delivery-title">
          <h2 id="shop-delivery-title">{s("delivery_title")}</h2>
          <div className="options" role="radiogroup" aria-labelledby="shop-delivery-title" aria-invalid={errors.delivery ? true : undefined}>
            {ways.includes("pickup") ? (
              <label className={delivery === "pickup" ? "option chosen" : "option"}>
                <input type="radio" name="delivery" value="pickup" checked={delivery === "pickup"} disabled={!pickupOpen} data-testid="shop-delivery-pickup" onChange={() => change({ delivery: "pickup" })} />
                <span>{s("delivery_pickup")}</span>
              </label>
            ) : null}
            {ways.includes("express") ? (
              <label className={delivery === "express" ? "option chosen" : "option"}>
                <input type="radio" name="delivery" value="express" checked={delivery === "express"} data-testid="shop-delivery-express" onChange={() => change({ delivery: "express" })} />
                <span>{s("delivery_express")}</span>
              </label>
            ) : null}
          </div>
          {errors.delivery ? (
            <em className="field-error" data-testid="shop-delivery-error">
              {errors.delivery}
            </em>
          ) : null}

          {delivery === "pickup" ? (
            <fieldset className="points" aria-invalid={errors.point ? true : undefined}>
              <legend>{s("pickup_point")}</legend>
              {points.state === "loading" ? <p className="muted">{t("loading")}</p> : null}
              {points.state === "problem" ? <ProblemText problem={points.problem} testId="shop-points-error" /> : null}
              {points.state === "ready" && pointList.length === 0 ? <p className="muted">{s("points_none")}</p> : null}
              {pointList.map((p) => (
                <label key={p.id} className={pointId === p.id ? "option point chosen" : "option point"}>
                  <input type="radio" name="point" value={p.id} checked={pointId === p.id} data-testid={`shop-point-${p.id}`} onChange={() => change({ pointId: p.id })} />
                  <span>
                    <span className="point-title">{p.title}</span>
                    <span className="muted small block">{p.address}</span>
                    {p.opening_hours ? (
                      <span className="muted small block">
                        {s("opening_hours")}: {p.opening_hours}
                      </span>
                    ) : null}
                    {p.phone ? <span className="muted small block">☎ {p.phone}</span> : null}
                  </span>
                </label>
              ))}
              {errors.point ? (
                <em className="field-error" data-testid="shop-point-error">
                  {errors.point}
                </em>
              ) : null}
            </fieldset>
          ) : null}

          {delivery === "express" ? (
            <fieldset className="address">
              <legend>{s("address_title")}</legend>
              <label className="field">
                <span>{s("receiver_name")}</span>
                <input
                  name="name"
                  autoComplete="name"
                  placeholder={s("receiver_name_placeholder")}
                  value={form.name}
                  maxLength={NAME_MAX + 10}
                  aria-invalid={errors.name ? true : undefined}
                  aria-describedby={errors.name ? "shop-address-name-error" : undefined}
                  data-testid="shop-address-name"
                  onChange={(e) => change({ name: e.target.value })}
                />
                {fieldError("name")}
              </label>
              <label className="field">
                <span>{s("receiver_phone")}</span>
                <input
                  name="phone"
                  type="tel"
                  inputMode="tel"
                  autoComplete="tel"
                  placeholder={s("receiver_phone_placeholder")}
                  value={form.phone}
                  maxLength={20}
                  aria-invalid={errors.phone ? true : undefined}
                  aria-describedby={errors.phone ? "shop-address-phone-error" : undefined}
                  data-testid="shop-address-phone"
                  onChange={(e) => change({ phone: e.target.value.replace(/[^\d-]/g, "") })}
                />
                {fieldError("phone")}
              </label>
              <label className="field">
                <span>{s("province")}</span>
                <select
                  name="province"
                  autoComplete="address-level1"
                  value={province}
                  aria-invalid={errors.province ? true : undefined}
                  aria-describedby={errors.province ? "shop-address-province-error" : undefined}
                  data-testid="shop-address-province"
                  onChange={(e) => change({ province: e.target.value })}
                >
                  <option value="">{s("province_placeholder")}</option>
                  {PROVINCES.map((p) => (
                    <option key={p.code} value={p.code}>
                      {p[language]}
                    </option>
                  ))}
                </select>
                {fieldError("province")}
              </label>
              <label className="field">
                <span>{s("receiver_address")}</span>
                <textarea
                  name="address"
                  autoComplete="street-address"
                  rows={3}
                  placeholder={s("receiver_address_placeholder")}
                  value={form.detail}
                  maxLength={DETAIL_MAX + 20}
                  aria-invalid={errors.detail ? true : undefined}
                  aria-describedby={errors.detail ? "shop-address-detail-error" : undefined}
                  data-testid="shop-address-detail"
                  onChange={(e) => change({ detail: e.target.value })}
                />
                {fieldError("detail")}
              </label>
            </fieldset>
          ) : null}
        </section>

        {Object.keys(errors).length > 0 ? (
          <p className="alert" role="alert" data-testid="shop-checkout-invalid">
            {s("fix_fields")}
          </p>
        ) : null}
        {problem ? <ProblemText problem={problem} testId="shop-order-error" /> : null}
        {problem?.kind === "fail" && !problem.field ? (
          // a refusal the student's ticket is behind (it expired): find the student again
          <button type="button" className="btn link block" data-testid="shop-find-again" onClick={onAnotherStudent}>
            {s("find_again")}
          </button>
        ) : null}
        {problem?.kind === "fail" && problem.field === "items" ? (
          <button type="button" className="btn link block" onClick={onBack}>
            {s("cart")}
          </button>
        ) : null}

        <footer className="paybar">
          <div className="paybar-total">
            <span className="muted small">{s("items_count", { count: lines.reduce((sum, l) => sum + l.qty, 0) })}</span>
            <span>
              {t("selected_total")} <strong data-testid="shop-checkout-total">{t("currency", { amount: moneyText(total, language) })}</strong>
            </span>
          </div>
          <button type="submit" className="btn primary" disabled={busy || blocked !== undefined || lines.length === 0} data-testid="shop-submit">
            {busy ? s("submitting") : problem?.kind === "network" ? t("retry") : s("submit_order")}
          </button>
        </footer>
      </form>
    </>
  );
}
