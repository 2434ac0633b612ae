/**
 * Paying an order on the payer's page, whatever it pays for (bills, a shop order): the amount, the payment page or
 * its QR code (or inside WeChat, WeChat's own payment sheet), and the order's state asked every 2 s, one question at a
 * time, until it is paid or closed, for at most 10 minutes after it was made. How the state is asked is the caller's.
 */
import { lazy, Suspense, useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import type { JsapiPayParams, PayResult, PayStatus } from "./api";
import { useI18n } from "./i18n";
import { Money, problemOf, ProblemText, type Problem } from "./ui";
import { openPaySheet, type SheetResult } from "./wechat";

const QrImage = lazy(() => import("./QrImage"));

/** the order's state asked every 2 s while it is open, for at most 10 minutes after it was made */
export const POLL_INTERVAL_MS = 2000;
export const POLL_WINDOW_MS = 10 * 60 * 1000;

type Poll = { state: "waiting" } | { state: "checking" } | { state: "expired" } | { state: "closed" } | { state: "problem"; problem: Problem };

function isWebPage(url: string): boolean {
  return /^https?:\/\//i.test(url);
}

export interface PaymentPanelProps {
  /** the school's code: the sandbox's payment page brings the payer back to /h5/{code} */
  code: string;
  order: PayResult;
  /** when the order was made (ms) */
  orderAt?: number;
  /** the order's state now, as the server tells it */
  check: () => Promise<PayStatus>;
  onPaid: () => void;
  /** leaves the payment (the order stays as it is) */
  onBack: () => void;
  backLabel: string;
  /** what to say of an order closed unpaid */
  closedText: string;
  /** WeChat's sheet failed: pay by QR code instead */
  onPayByQr?: () => void;
  /** shown under the amount: what the order is for */
  children?: ReactNode;
}

export function PaymentPanel({ code, order, orderAt, check, onPaid, onBack, backLabel, closedText, onPayByQr, children }: PaymentPanelProps) {
  const { t } = useI18n();
  // paid on WeChat's own sheet, opened through its JS bridge
  const jsapi = order.trade_type === "JSAPI";
  const [sheet, setSheet] = useState<SheetResult | "opening">();
  const codeUrl = order.payparam?.code_url ?? "";
  const webPage = isWebPage(codeUrl);
  const sandbox = order.sandbox === true || /\/pay\/sandbox\//.test(codeUrl);
  const deadline = (orderAt ?? Date.now()) + POLL_WINDOW_MS;
  const [poll, setPoll] = useState<Poll>({ state: "waiting" });
  const inFlight = useRef(false);
  const handlers = useRef({ check, onPaid });
  handlers.current = { check, onPaid };

  /** one question; true when polling should stop */
  const checkOnce = useCallback(async (): Promise<boolean> => {
    if (inFlight.current) return false;
    inFlight.current = true;
    try {
      const status = await handlers.current.check();
      if (status === "paid") {
        handlers.current.onPaid();
        return true;
      }
      if (status === "closed") {
        setPoll({ state: "closed" });
        return true;
      }
      return false;
    } catch (err) {
      const problem = problemOf(err);
      setPoll({ state: "problem", problem });
      // a FAIL (an expired ticket, an unknown order) will not change by asking again; the network may
      return problem.kind === "fail";
    } finally {
      inFlight.current = false;
    }
  }, []);

  const [round, setRound] = useState(0);
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const schedule = () => {
      if (!stopped) timer = setTimeout(tick, POLL_INTERVAL_MS);
    };
    const tick = async () => {
      if (stopped) return;
      if (Date.now() > deadline) {
        setPoll({ state: "expired" });
        return;
      }
      // a page in the background (the payer is on the payment page) asks when it is shown again
      if (document.visibilityState === "hidden") return;
      const done = await checkOnce();
      if (done) stopped = true;
      else schedule();
    };
    const onVisible = () => {
      if (document.visibilityState === "visible" && !stopped) {
        if (timer) clearTimeout(timer);
        void tick();
      }
    };
    document.addEventListener("visibilitychange", onVisible);
    window.addEventListener("pageshow", onVisible);
    void tick();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      document.removeEventListener("visibilitychange", onVisible);
      window.removeEventListener("pageshow", onVisible);
    };
  }, [checkOnce, deadline, round, order.pay_no]);

  const checkNow = async () => {
    setPoll({ state: "checking" });
    const done = await checkOnce();
    if (!done) {
      if (Date.now() > deadline) setPoll({ state: "expired" });
      else {
        setPoll({ state: "waiting" });
        setRound((r) => r + 1);
      }
    }
  };

  const payByQr = () => {
    onPayByQr?.();
    onBack();
  };

  const openSheet = useCallback(async () => {
    setSheet("opening");
    const result = await openPaySheet(order.payparam as JsapiPayParams);
    setSheet(result);
    // WeChat says paid: the server hears it from WeChat Pay, asked now rather than at the next round
    if (result === "ok") await checkOnce();
  }, [order.payparam, checkOnce]);
  // the sheet opens by itself when the order is made
  const sheetOpened = useRef(false);
  useEffect(() => {
    if (!jsapi || sheetOpened.current) return;
    sheetOpened.current = true;
    void openSheet();
  }, [jsapi, openSheet]);

  return (
    <section className="card pay" aria-labelledby="h5-pay-title">
      <h2 id="h5-pay-title">{t("pay_title")}</h2>
      <div className="amount-line">
        <span className="muted">{t("pay_amount")}</span>
        <strong className="amount" data-testid="h5-pay-amount">
          <Money yuan={order.total_fee} />
        </strong>
      </div>
      <div className="muted small">
        {t("order_no")}: <span data-testid="h5-pay-no">{order.pay_no}</span>
      </div>
      {children}
      {sandbox ? <p className="note" data-testid="h5-sandbox-note">{t("test_payment_note")}</p> : null}
      {poll.state === "closed" ? (
        <>
          <p className="alert" data-testid="h5-order-closed">{closedText}</p>
          <button type="button" className="btn primary" data-testid="h5-back-to-bills" onClick={onBack}>
            {backLabel}
          </button>
        </>
      ) : (
        <>
          {jsapi ? (
            <>
              <button type="button" className="btn primary" disabled={sheet === "opening"} data-testid="h5-wechat-pay" onClick={() => void openSheet()}>
                {t("wechat_pay")}
              </button>
              {sheet === "cancel" ? <p className="note" data-testid="h5-wechat-cancelled">{t("wechat_cancelled")}</p> : null}
              {sheet === "fail" ? (
                <>
                  <p className="alert" data-testid="h5-wechat-failed">{t("wechat_failed")}</p>
                  {onPayByQr ? (
                    <button type="button" className="btn" data-testid="h5-pay-by-qr" onClick={payByQr}>
                      {t("pay_by_qr")}
                    </button>
                  ) : null}
                </>
              ) : null}
            </>
          ) : (
            <>
              {webPage ? (
                // the sandbox's page brings the payer straight back here once paid
                <a className="btn primary" href={`${codeUrl}?return=${encodeURIComponent(`/h5/${code}`)}`} data-testid="h5-open-pay-page">
                  {t("open_pay_page")}
                </a>
              ) : null}
              <p className="muted small center">{webPage ? t("qr_other_phone") : t("qr_scan")}</p>
              <Suspense fallback={<p className="muted center">{t("qr_loading")}</p>}>
                <QrImage value={codeUrl} label={t("qr_scan")} />
              </Suspense>
            </>
          )}
          <div className="status" aria-live="polite" data-testid="h5-pay-status">
            {poll.state === "waiting" ? <span className="spinner" aria-hidden="true" /> : null}
            {poll.state === "waiting" || poll.state === "checking" ? <span>{poll.state === "checking" ? t("checking") : t("waiting")}</span> : null}
            {poll.state === "expired" ? <span>{t("wait_expired")}</span> : null}
            {poll.state === "problem" ? (
              poll.problem.kind === "network" ? <span>{t("check_error")}</span> : <ProblemText problem={poll.problem} testId="h5-check-error" />
            ) : null}
          </div>
          <button type="button" className="btn" disabled={poll.state === "checking"} data-testid="h5-check-now" onClick={() => void checkNow()}>
            {t("check_now")}
          </button>
          <button type="button" className="btn link block" data-testid="h5-back-to-bills" onClick={onBack}>
            {backLabel}
          </button>
        </>
      )}
    </section>
  );
}
