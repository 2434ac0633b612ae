/**
 * A paid order's after-sales on the payer's order page: each item's after-sale as it stands (asked, agreed, on its
 * way back, refunding, refunded, refused), asking for one of an item (h5aftersaleadd: money only, or a return once
 * the goods have reached the payer), sending the goods of an agreed return back with the courier's number
 * (h5aftersalereturn), and withdrawing one not yet refunded (h5aftersalecancel). Photos of what is wrong are uploaded
 * with the student's ticket as they are chosen, and sent with the request. A refusal names the field it is about.
 */
import { useCallback, useEffect, useState } from "react";
import { h5call, uploadPhoto, type AfterSale, type AfterSaleWay, type ShopOrder, type ShopOrderItem } from "../api";
import { toFen } from "../session";
import { BusinessTime, Money, problemOf, ProblemText, type Problem } from "../ui";
import { courierName, COURIER_CODES, shownImageUrl, specsText } from "./parts";
import { useShopText } from "./text";

/** the states in which the payer may still withdraw it: nothing has been refunded yet */
const WITHDRAWABLE = ["applied", "agreed", "returning"];
const OPEN = [...WITHDRAWABLE, "received", "refunding"];
const REASON_MAX = 60;
const DESCRIPTION_MAX = 500;
/** the photos an after-sale keeps, at most (its images field) */
const MAX_PHOTOS = 9;

function statusTone(status: AfterSale["status"]): string {
  if (status === "completed") return "ok";
  if (status === "refused" || status === "refused_receipt" || status === "cancelled") return "";
  return "warn";
}

/** The order's after-sales, and asking for one of an item: shown for an order paid and not refunded in full. */
export function OrderAfterSales({ ticket, order }: { ticket: string; order: ShopOrder }) {
  const { s } = useShopText();
  const [sales, setSales] = useState<AfterSale[]>([]);
  const [problem, setProblem] = useState<Problem>();
  const [asking, setAsking] = useState<ShopOrderItem>();
  const load = useCallback(() => {
    h5call("h5aftersales", { ticket }).then(
      (all) => setSales((Array.isArray(all) ? all : []).filter((sale) => sale.order_id === order.id)),
      (err: unknown) => setProblem(problemOf(err)),
    );
  }, [ticket, order.id]);
  // read again whenever the order is (its page's refresh, its polling)
  useEffect(load, [load, order]);

  const paid = order.status === "undelivered" || order.status === "delivered" || order.status === "completed";
  const openOf = (item: ShopOrderItem) => sales.find((sale) => sale.item_id === item.id && OPEN.includes(sale.status));
  return (
    <section className="card" aria-labelledby="shop-aftersales-title" data-testid="shop-aftersales">
      <h2 id="shop-aftersales-title">{s("aftersales_title")}</h2>
      {sales.length === 0 ? <p className="muted small">{s("aftersales_none")}</p> : null}
      <ul className="aftersale-list">
        {sales.map((sale) => (
          <AfterSaleLine key={sale.id} ticket={ticket} sale={sale} onChanged={load} />
        ))}
      </ul>
      {paid && !asking ? (
        <div className="aftersale-items">
          {order.items.map((item) =>
            openOf(item) ? null : (
              <button key={item.id} type="button" className="btn" data-testid={`shop-aftersale-ask-${item.id}`} onClick={() => setAsking(item)}>
                {s("aftersale_ask", { title: item.title })}
              </button>
            ),
          )}
        </div>
      ) : null}
      {asking ? (
        <AskForm
          ticket={ticket}
          order={order}
          item={asking}
          onDone={() => {
            setAsking(undefined);
            load();
          }}
          onClose={() => setAsking(undefined)}
        />
      ) : null}
      {problem ? <ProblemText problem={problem} testId="shop-aftersales-error" /> : null}
    </section>
  );
}

function AfterSaleLine({ ticket, sale, onChanged }: { ticket: string; sale: AfterSale; onChanged: () => void }) {
  const { s, language } = useShopText();
  const [problem, setProblem] = useState<Problem>();
  const [busy, setBusy] = useState(false);
  const [courier, setCourier] = useState(COURIER_CODES[0]);
  const [trackingNo, setTrackingNo] = useState("");
  const act = (run: () => Promise<unknown>) => {
    setBusy(true);
    setProblem(undefined);
    run().then(
      () => {
        setBusy(false);
        onChanged();
      },
      (err: unknown) => {
        setBusy(false);
        setProblem(problemOf(err));
      },
    );
  };
  return (
    <li className="aftersale" data-testid={`shop-aftersale-${sale.id}`} data-status={sale.status}>
      <div className="row">
        <span className="line-title">{sale.title}</span>
        <span className={`tag-pill ${statusTone(sale.status)}`} data-testid="shop-aftersale-status">
          {s(`aftersale_status_${sale.status}`)}
        </span>
      </div>
      <div className="muted small">{[specsText(sale.spec_values), s(sale.way === "refund" ? "aftersale_way_refund" : "aftersale_way_return"), `×${sale.qty}`].filter(Boolean).join(" · ")}</div>
      <div className="row">
        <span className="muted small">
          {sale.aftersale_no}
          <span className="block">
            <BusinessTime value={sale.created_at} />
          </span>
        </span>
        <strong>
          <Money yuan={sale.amount} />
        </strong>
      </div>
      {sale.receive_reason ?? sale.review_reason ? <p className="small">{sale.receive_reason ?? sale.review_reason}</p> : null}
      {sale.tracking_no ? (
        <div className="muted small">
          {courierName(sale.express_code ?? "", language)} <span className="tracking">{sale.tracking_no}</span>
        </div>
      ) : null}
      {sale.status === "agreed" ? (
        <form
          className="aftersale-return"
          onSubmit={(e) => {
            e.preventDefault();
            act(() => h5call("h5aftersalereturn", { ticket, id: sale.id, express_code: courier, tracking_no: trackingNo.trim() }));
          }}
        >
          <p className="small">{s("aftersale_send_back")}</p>
          {sale.return_address ? (
            <p className="return-address" data-testid="shop-aftersale-address">
              <span className="muted small block">{s("aftersale_send_to")}</span>
              {sale.return_address.name} {sale.return_address.phone}
              <span className="block">{sale.return_address.address}</span>
            </p>
          ) : null}
          <label className="field">
            <span>{s("courier")}</span>
            <select value={courier} data-testid="shop-aftersale-courier" onChange={(e) => setCourier(e.target.value)}>
              {COURIER_CODES.map((code) => (
                <option key={code} value={code}>
                  {courierName(code, language)}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span>{s("tracking_no")}</span>
            <input value={trackingNo} maxLength={40} required data-testid="shop-aftersale-tracking" onChange={(e) => setTrackingNo(e.target.value)} />
          </label>
          <button type="submit" className="btn primary" disabled={busy} data-testid="shop-aftersale-return">
            {s("aftersale_returned")}
          </button>
        </form>
      ) : null}
      {WITHDRAWABLE.includes(sale.status) ? (
        <button type="button" className="btn link" disabled={busy} data-testid="shop-aftersale-cancel" onClick={() => act(() => h5call("h5aftersalecancel", { ticket, id: sale.id }))}>
          {s("aftersale_withdraw")}
        </button>
      ) : null}
      {problem ? <ProblemText problem={problem} testId="shop-aftersale-error" /> : null}
    </li>
  );
}

function AskForm({ ticket, order, item, onDone, onClose }: { ticket: string; order: ShopOrder; item: ShopOrderItem; onDone: () => void; onClose: () => void }) {
  const { s } = useShopText();
  // goods not yet with the payer cannot be sent back
  const canReturn = order.status !== "undelivered";
  const [way, setWay] = useState<AfterSaleWay>(canReturn ? "return_refund" : "refund");
  const [qty, setQty] = useState(item.qty);
  const [amount, setAmount] = useState(item.amount);
  const [reason, setReason] = useState("");
  const [description, setDescription] = useState("");
  const [photos, setPhotos] = useState<string[]>([]);
  const [uploading, setUploading] = useState(0);
  const [problem, setProblem] = useState<Problem>();
  const [busy, setBusy] = useState(false);
  const addPhotos = (files: File[]) => {
    const room = MAX_PHOTOS - photos.length - uploading;
    for (const file of files.slice(0, Math.max(0, room))) {
      setUploading((n) => n + 1);
      uploadPhoto(ticket, file).then(
        (url) => {
          setUploading((n) => n - 1);
          setPhotos((list) => (list.length < MAX_PHOTOS ? [...list, url] : list));
        },
        (err: unknown) => {
          setUploading((n) => n - 1);
          setProblem(problemOf(err));
        },
      );
    }
  };
  const unitFen = Math.floor(toFen(item.amount) / item.qty);
  const submit = () => {
    setBusy(true);
    setProblem(undefined);
    h5call("h5aftersaleadd", { ticket, order_id: order.id, item_id: item.id, way, qty, amount: amount.trim(), reason: reason.trim(), description: description.trim() || undefined, images: photos.length > 0 ? photos : undefined }).then(onDone, (err: unknown) => {
      setBusy(false);
      setProblem(problemOf(err));
    });
  };
  const fieldProblem = (field: string) => (problem?.kind === "fail" && problem.field === field ? <em className="field-error" data-testid={`shop-aftersale-${field}-error`}>{problem.message}</em> : null);
  return (
    <form
      className="aftersale-form"
      data-testid="shop-aftersale-form"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <h3>{s("aftersale_ask", { title: item.title })}</h3>
      <fieldset>
        <legend>{s("aftersale_way")}</legend>
        <label className={way === "refund" ? "option chosen" : "option"}>
          <input type="radio" name="way" checked={way === "refund"} onChange={() => setWay("refund")} /> {s("aftersale_way_refund")}
        </label>
        {canReturn ? (
          <label className={way === "return_refund" ? "option chosen" : "option"}>
            <input type="radio" name="way" checked={way === "return_refund"} onChange={() => setWay("return_refund")} /> {s("aftersale_way_return")}
          </label>
        ) : null}
        {fieldProblem("way")}
      </fieldset>
      <label className="field">
        <span>{s("quantity")}</span>
        <input
          type="number"
          min={1}
          max={item.qty}
          value={qty}
          data-testid="shop-aftersale-qty"
          onChange={(e) => {
            const next = Math.min(item.qty, Math.max(1, Number(e.target.value) || 1));
            setQty(next);
            setAmount(next === item.qty ? item.amount : ((unitFen * next) / 100).toFixed(2));
          }}
        />
        {fieldProblem("qty")}
      </label>
      <label className="field">
        <span>{s("aftersale_amount")}</span>
        <input inputMode="decimal" value={amount} maxLength={12} data-testid="shop-aftersale-amount" onChange={(e) => setAmount(e.target.value)} />
        {fieldProblem("amount")}
      </label>
      <label className="field">
        <span>{s("aftersale_reason")}</span>
        <input value={reason} maxLength={REASON_MAX} required data-testid="shop-aftersale-reason" onChange={(e) => setReason(e.target.value)} />
        {fieldProblem("reason")}
      </label>
      <label className="field">
        <span>{s("aftersale_description")}</span>
        <textarea value={description} maxLength={DESCRIPTION_MAX} rows={3} onChange={(e) => setDescription(e.target.value)} />
      </label>
      <div className="field">
        <span>{s("aftersale_photos", { count: MAX_PHOTOS })}</span>
        <ul className="photo-strip" data-testid="shop-aftersale-photos">
          {photos.map((url, i) => (
            <li key={url}>
              <img src={shownImageUrl(url)} alt={s("aftersale_photo_n", { n: i + 1 })} />
              <button type="button" className="photo-remove" aria-label={s("aftersale_photo_remove", { n: i + 1 })} onClick={() => setPhotos((list) => list.filter((u) => u !== url))}>
                ×
              </button>
            </li>
          ))}
          {Array.from({ length: uploading }, (_, i) => (
            <li key={`uploading-${i}`} className="photo-uploading" aria-live="polite">
              {s("aftersale_photo_uploading")}
            </li>
          ))}
          {photos.length + uploading < MAX_PHOTOS ? (
            <li>
              <label className="photo-add">
                <input
                  type="file"
                  accept="image/jpeg,image/png,image/webp,image/gif"
                  multiple
                  data-testid="shop-aftersale-photo-input"
                  onChange={(e) => {
                    addPhotos(Array.from(e.target.files ?? []));
                    // the same photo may be chosen again after being removed
                    e.target.value = "";
                  }}
                />
                <span aria-hidden="true">+</span>
                <span className="small">{s("aftersale_photo_add")}</span>
              </label>
            </li>
          ) : null}
        </ul>
        {fieldProblem("images")}
      </div>
      {problem && (problem.kind === "network" || !["way", "qty", "amount", "reason", "images"].includes(problem.field ?? "")) ? <ProblemText problem={problem} testId="shop-aftersale-form-error" /> : null}
      <div className="confirm-buttons">
        <button type="button" className="btn" disabled={busy} onClick={onClose}>
          {s("back")}
        </button>
        <button type="submit" className="btn primary" disabled={busy || uploading > 0} data-testid="shop-aftersale-submit">
          {s("aftersale_submit")}
        </button>
      </div>
    </form>
  );
}
