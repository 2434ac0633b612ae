/**
 * The goods a fee bill carries (an activity item that is a uniform): before paying, the payer chooses the size of each
 * and how to receive them, at one of the school's pickup points or by express to an address (h5pay's `goods`,
 * `delivery`, `pickup_point_id`, `address`; the server checks it all again and names the field it refuses). Once paid,
 * the receipt shows them with the pickup code and its QR code while they wait to be collected, or the tracking number.
 */
import { lazy, Suspense, useEffect, useState } from "react";
import { h5call, type Bill, type BillGoods, type Delivery, type Fulfilment, type PickupPoint } from "./api";
import { useI18n, type I18nValue } from "./i18n";
import type { GoodsChoice } from "./session";

const QrImage = lazy(() => import("./QrImage"));

const PHONE = /^1\d{10}$|^0\d{2,3}-?\d{7,8}$/;

/** The goods of the chosen bills, in their order. */
export function goodsOfBills(bills: readonly Bill[]): BillGoods[] {
  return bills.flatMap((bill) => bill.goods ?? []);
}

/** The ways every goods item may be received. */
function waysOf(goods: readonly BillGoods[]): Delivery[] {
  return (["pickup", "express"] as const).filter((way) => goods.every((g) => g.delivery === "both" || g.delivery === way));
}

const specText = (specs: Record<string, string>) => Object.values(specs).join(" / ");

/** What is still missing before paying, in the payer's words; none when all is chosen. */
export function goodsProblem(goods: readonly BillGoods[], choice: GoodsChoice, t: I18nValue["t"]): string | undefined {
  if (goods.length === 0) return undefined;
  const unsized = goods.find((g) => !g.skus.some((s) => s.id === choice.sizes[String(g.item_id)]));
  if (unsized) return t("goods_size_required", { title: unsized.title });
  const delivery = choice.delivery ?? (waysOf(goods).length === 1 ? waysOf(goods)[0] : undefined);
  if (!delivery) return t("goods_delivery_required");
  if (delivery === "pickup" && choice.pointId === undefined) return t("goods_point_required");
  if (delivery === "express" && (!choice.name?.trim() || !PHONE.test(choice.phone?.trim() ?? "") || (choice.detail?.trim().length ?? 0) < 4)) return t("goods_address_required");
  return undefined;
}

/** What h5pay takes of the goods chosen. */
export function goodsPayload(goods: readonly BillGoods[], choice: GoodsChoice) {
  if (goods.length === 0) return {};
  const delivery = choice.delivery ?? waysOf(goods)[0];
  return {
    goods: goods.map((g) => ({ item_id: g.item_id, sku_id: choice.sizes[String(g.item_id)] })),
    delivery,
    ...(delivery === "pickup"
      ? { pickup_point_id: choice.pointId }
      : { address: { name: (choice.name ?? "").trim(), phone: (choice.phone ?? "").trim(), detail: (choice.detail ?? "").trim() } }),
  };
}

export function GoodsSection({ code, goods, choice, onChange, problem }: { code: string; goods: readonly BillGoods[]; choice: GoodsChoice; onChange: (next: GoodsChoice) => void; problem?: string }) {
  const { t } = useI18n();
  const [points, setPoints] = useState<PickupPoint[]>();
  const ways = waysOf(goods);
  const delivery = choice.delivery && ways.includes(choice.delivery) ? choice.delivery : ways.length === 1 ? ways[0] : undefined;
  useEffect(() => {
    if (goods.length === 0 || !ways.includes("pickup")) return;
    let cancelled = false;
    h5call("h5pickuppoints", { code }).then(
      (answer) => {
        if (!cancelled) setPoints(Array.isArray(answer) ? answer : []);
      },
      () => {
        if (!cancelled) setPoints([]);
      },
    );
    return () => {
      cancelled = true;
    };
  }, [code, goods.length, ways.includes("pickup")]);
  if (goods.length === 0) return null;
  const change = (patch: Partial<GoodsChoice>) => onChange({ ...choice, ...patch });
  return (
    <section className="card" aria-labelledby="h5-goods" data-testid="h5-goods">
      <h2 id="h5-goods">{t("goods_title")}</h2>
      {goods.map((g) => (
        <label key={g.item_id} className="field">
          <span>
            {g.title} · {g.goods_title}
          </span>
          <select
            value={String(choice.sizes[String(g.item_id)] ?? "")}
            data-testid={`h5-goods-size-${g.item_id}`}
            onChange={(e) => change({ sizes: { ...choice.sizes, [String(g.item_id)]: Number(e.target.value) } })}
          >
            <option value="">{t("goods_size_choose")}</option>
            {g.skus.map((s) => (
              <option key={s.id} value={s.id} disabled={s.stock <= 0}>
                {specText(s.spec_values)}
                {s.stock <= 0 ? ` (${t("goods_sold_out")})` : ""}
              </option>
            ))}
          </select>
        </label>
      ))}
      <div className="options" role="radiogroup" aria-label={t("goods_delivery")}>
        {ways.map((way) => (
          <label key={way} className={delivery === way ? "option chosen" : "option"}>
            <input type="radio" name="goods-delivery" value={way} checked={delivery === way} data-testid={`h5-goods-delivery-${way}`} onChange={() => change({ delivery: way })} />
            <span>{t(way === "pickup" ? "goods_pickup" : "goods_express")}</span>
          </label>
        ))}
      </div>
      {delivery === "pickup" ? (
        <fieldset className="points">
          <legend>{t("goods_point")}</legend>
          {points === undefined ? <p className="muted">{t("loading")}</p> : null}
          {points?.length === 0 ? <p className="muted">{t("goods_points_none")}</p> : null}
          {(points ?? []).map((p) => (
            <label key={p.id} className={choice.pointId === p.id ? "option point chosen" : "option point"}>
              <input type="radio" name="goods-point" value={p.id} checked={choice.pointId === p.id} data-testid={`h5-goods-point-${p.id}`} onChange={() => change({ pointId: p.id })} />
              <span>
                <span className="point-title">{p.title}</span>
                <span className="muted small block">{p.address}</span>
                {p.opening_hours ? <span className="muted small block">{p.opening_hours}</span> : null}
              </span>
            </label>
          ))}
        </fieldset>
      ) : null}
      {delivery === "express" ? (
        <fieldset className="address">
          <legend>{t("goods_address")}</legend>
          <label className="field">
            <span>{t("goods_receiver")}</span>
            <input name="name" autoComplete="name" value={choice.name ?? ""} maxLength={30} data-testid="h5-goods-name" onChange={(e) => change({ name: e.target.value })} />
          </label>
          <label className="field">
            <span>{t("goods_phone")}</span>
            <input name="phone" type="tel" inputMode="tel" autoComplete="tel" value={choice.phone ?? ""} maxLength={20} data-testid="h5-goods-phone" onChange={(e) => change({ phone: e.target.value.replace(/[^\d-]/g, "") })} />
          </label>
          <label className="field">
            <span>{t("goods_detail")}</span>
            <input name="detail" autoComplete="street-address" value={choice.detail ?? ""} maxLength={200} data-testid="h5-goods-detail" onChange={(e) => change({ detail: e.target.value })} />
          </label>
        </fieldset>
      ) : null}
      {problem ? (
        <em className="field-error" data-testid="h5-goods-error">
          {problem}
        </em>
      ) : null}
    </section>
  );
}

/** A paid order's goods on the receipt: the pickup code and its QR code while waiting to be collected, or the tracking number. */
export function FulfilmentCard({ fulfilment }: { fulfilment: Fulfilment }) {
  const { t } = useI18n();
  const state = fulfilment.status === "completed" ? t("goods_completed") : fulfilment.status === "delivered" ? t("goods_delivered") : fulfilment.status === "undelivered" ? t("goods_undelivered") : "";
  return (
    <section className="card" aria-labelledby="h5-fulfilment" data-testid="h5-fulfilment">
      <h2 id="h5-fulfilment">{t("goods_title")}</h2>
      <ul className="items">
        {fulfilment.goods.map((g, i) => (
          <li key={i}>
            <span>{g.title}</span>
            <span>
              {specText(g.spec_values)} × {g.qty}
            </span>
          </li>
        ))}
      </ul>
      {state ? <p className="muted">{state}</p> : null}
      {fulfilment.delivery === "pickup" && fulfilment.pickup_point ? (
        <p>
          {t("goods_point")}: {fulfilment.pickup_point.title} · <span className="muted">{fulfilment.pickup_point.address}</span>
        </p>
      ) : null}
      {fulfilment.pickup_code ? (
        <>
          <p className="center">
            {t("goods_pickup_code")}: <strong data-testid="h5-goods-pickup-code">{fulfilment.pickup_code}</strong>
          </p>
          {fulfilment.pickup_token ? (
            <Suspense fallback={null}>
              <QrImage value={fulfilment.pickup_token} label={t("goods_pickup_code")} />
            </Suspense>
          ) : null}
        </>
      ) : null}
      {fulfilment.tracking_no ? (
        <p>
          {t("goods_tracking")}: <span data-testid="h5-goods-tracking">{[fulfilment.express_code, fulfilment.tracking_no].filter(Boolean).join(" ")}</span>
        </p>
      ) : null}
    </section>
  );
}
