/**
 * The payer's pages, /h5/{code}: the school and its open collections, finding the student, choosing the bills
 * (and the size of the goods they carry, a uniform, and how to receive them: BillGoods.tsx), paying (the payment page or its QR code, or inside WeChat WeChat's own payment sheet; the order's state polled)
 * and the e-receipt; and, when the school has goods on sale, its shop (shop/, a chunk loaded when it is opened).
 * One component per step; the steps are entries of the browser's history, and what they hold is kept in
 * sessionStorage (session.ts).
 */
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { h5call, H5Failure, type Bill, type EntryInfo, type FindResult, type GoodsListAnswer, type PayResult, type Receipt } from "./api";
import { FulfilmentCard, GoodsSection, goodsOfBills, goodsPayload, goodsProblem } from "./BillGoods";
import { FindStep } from "./Find";
import { H5_LANGUAGES, I18nContext, initialH5Language, rememberH5Language, translator, useI18n, type H5Language, type I18nValue } from "./i18n";
import { PaymentPanel } from "./Payment";
import { AfterPayActions, answerErrors, answersPayload, earlierAnswers, formsOf, QuestionsSection, questionDomId } from "./Questions";
import { clearState, loadState, moneyText, saveState, toFen, type Go, type GoodsChoice, type PayerState, type ShopRoute, type Step } from "./session";
import { BusinessTime, Money, problemOf, ProblemText, type Problem } from "./ui";
import { forgetWechatToken, insideWechat, keepWechatToken, signInTried, startSignIn, takeReturnedCode, wechatToken } from "./wechat";

// the shop's code and its messages travel apart: a payer of bills never loads them
const Shop = lazy(() => import("./shop/Shop"));
// a garment's public page (its trace-source code), reached from its label or the payer's order
const TracePage = lazy(() => import("./trace/TracePage"));

export { POLL_INTERVAL_MS, POLL_WINDOW_MS } from "./Payment";

function LanguageSwitch() {
  const { language, setLanguage, t } = useI18n();
  return (
    <div className="langs" role="group" aria-label={t("language")}>
      {H5_LANGUAGES.map((lang) => (
        <button
          key={lang}
          type="button"
          className={lang === language ? "lang current" : "lang"}
          aria-pressed={lang === language}
          lang={lang}
          data-testid={`h5-lang-${lang}`}
          onClick={() => setLanguage(lang)}
        >
          {translator(lang)("lang_name")}
        </button>
      ))}
    </div>
  );
}

function Shell({ title, tabs, children }: { title: string; tabs?: ReactNode; children: ReactNode }) {
  return (
    <div className="page">
      <header className="top">
        <h1 data-testid="h5-school-title">{title}</h1>
        <LanguageSwitch />
      </header>
      {tabs}
      <main>{children}</main>
    </div>
  );
}

// ---------------------------------------------------------------------------------------------------------

type EntryLoad = { state: "loading" } | { state: "ready"; info: EntryInfo } | { state: "problem"; problem: Problem };

export function App({ code, traceCode }: { code: string; traceCode?: string }) {
  const [language, setLanguageState] = useState<H5Language>(initialH5Language);
  const i18n = useMemo<I18nValue>(
    () => ({
      language,
      t: translator(language),
      setLanguage: (next) => {
        rememberH5Language(next);
        setLanguageState(next);
      },
    }),
    [language],
  );
  useEffect(() => {
    document.documentElement.lang = language === "zh" ? "zh-CN" : language;
  }, [language]);

  return (
    <I18nContext.Provider value={i18n}>
      {code && traceCode !== undefined ? (
        <Shell title={i18n.t("trace_title")}>
          <Suspense fallback={<p className="muted center">{i18n.t("loading")}</p>}>
            <TracePage code={code} traceCode={traceCode} />
          </Suspense>
        </Shell>
      ) : code ? (
        <PayerPages code={code} />
      ) : (
        <Shell title={i18n.t("app_title")}>
          <p className="alert" data-testid="h5-error">
            {i18n.t("code_missing")}
          </p>
        </Shell>
      )}
    </I18nContext.Provider>
  );
}

function PayerPages({ code }: { code: string }) {
  const { t, language } = useI18n();
  const [entry, setEntry] = useState<EntryLoad>({ state: "loading" });
  const [payer, setPayer] = useState<PayerState>(() => loadState(code));

  const loadEntry = useCallback(() => {
    setEntry({ state: "loading" });
    h5call("h5entry", { code }).then(
      (info) => setEntry({ state: "ready", info: { ...info, activities: Array.isArray(info.activities) ? info.activities : [] } }),
      (err: unknown) => setEntry({ state: "problem", problem: problemOf(err) }),
    );
  }, [code]);
  useEffect(loadEntry, [loadEntry]);
  // a refusal's message comes in the page's language: asked again when the payer switches it
  const entryState = useRef(entry.state);
  entryState.current = entry.state;
  const firstLanguage = useRef(language);
  useEffect(() => {
    if (language !== firstLanguage.current && entryState.current === "problem") loadEntry();
  }, [language, loadEntry]);

  // the current step is this history entry's; going back shows the step before with what it held
  useEffect(() => {
    window.history.replaceState(historyState(payer), "");
    const onPop = (event: PopStateEvent) => {
      const entry = event.state as { h5step?: Step; h5shop?: ShopRoute } | null;
      const step = entry?.h5step ?? "find";
      setPayer((current) => {
        const next = { ...current, step };
        if (step === "shop") next.shop = entry?.h5shop ?? { view: "list" };
        if ((step === "pay" || step === "done") && !current.order) next.step = current.ticket ? "bills" : "find";
        if (step === "bills" && !current.ticket) next.step = "find";
        // a paid order's pay step is its result
        if (step === "pay" && current.receipt) next.step = "done";
        saveState(code, next);
        return next;
      });
    };
    window.addEventListener("popstate", onPop);
    return () => window.removeEventListener("popstate", onPop);
    // registered once: the first replaceState records the step restored from storage
  }, [code]);

  const go = useCallback(
    (next: PayerState, history: "push" | "replace" = "push") => {
      saveState(code, next);
      setPayer(next);
      const state = historyState(next);
      if (history === "push") window.history.pushState(state, "");
      else window.history.replaceState(state, "");
      window.scrollTo(0, 0);
    },
    [code],
  );

  // a change within a step (an answer typed) is kept, without a history entry or a scroll
  const keep = useCallback(
    (next: PayerState) => {
      saveState(code, next);
      setPayer(next);
    },
    [code],
  );

  // inside WeChat, when the school offers it: the payer signed in silently once, to pay on WeChat's own sheet
  const oauth = entry.state === "ready" ? (entry.info.wechat_oauth ?? null) : null;
  const [wxToken, setWxToken] = useState<string>();
  const [signingIn, setSigningIn] = useState(false);
  useEffect(() => {
    if (!oauth || !insideWechat()) return;
    const kept = wechatToken(oauth.appid);
    const returned = takeReturnedCode();
    if (kept) {
      setWxToken(kept);
    } else if (returned) {
      setSigningIn(true);
      h5call("h5oauth", { code, oauth_code: returned })
        .then(
          (answer) => {
            keepWechatToken(oauth.appid, answer.wx_token, answer.expires_in);
            setWxToken(answer.wx_token);
          },
          // not signed in: the payer pays by QR code
          () => undefined,
        )
        .finally(() => setSigningIn(false));
    } else if (!signInTried()) {
      setSigningIn(true);
      startSignIn(oauth);
    }
    // once per app: a new answer of h5entry (the language switched) does not sign in again
  }, [code, oauth?.appid, oauth?.authorize_url]);
  const payByQr = useCallback(() => {
    forgetWechatToken();
    setWxToken(undefined);
  }, []);

  // the school's goods, asked once the page stands: the shop's tab shows when there are some
  const [shopGoods, setShopGoods] = useState<GoodsListAnswer>();
  const entryReady = entry.state === "ready";
  useEffect(() => {
    if (!entryReady) return;
    let cancelled = false;
    h5call("h5goodslist", { code }).then(
      (answer) => {
        if (!cancelled && Array.isArray(answer.goods) && Array.isArray(answer.categories)) setShopGoods(answer);
      },
      // no shop tab: the fee pages are all there is
      () => undefined,
    );
    return () => {
      cancelled = true;
    };
  }, [code, entryReady]);

  const schoolTitle = entry.state === "ready" ? entry.info.school_title : t("app_title");
  useEffect(() => {
    document.title = entry.state === "ready" ? `${entry.info.school_title} · ${t("app_title")}` : t("app_title");
  }, [entry, t]);

  if (entry.state === "loading" || signingIn) {
    return (
      <Shell title={t("app_title")}>
        <p className="muted center" data-testid="h5-loading">{t("loading")}</p>
      </Shell>
    );
  }
  if (entry.state === "problem") {
    return (
      <Shell title={t("app_title")}>
        <section className="card">
          <h2>{t("entry_failed")}</h2>
          <ProblemText problem={entry.problem} testId="h5-error" />
          {entry.problem.kind === "network" ? (
            <button type="button" className="btn primary" data-testid="h5-retry" onClick={loadEntry}>
              {t("retry")}
            </button>
          ) : null}
        </section>
      </Shell>
    );
  }

  const info = entry.info;
  const lookup = info.lookup === "name_and_phone4" ? "name_and_phone4" : "name_and_student_no";
  const restart = () => {
    clearState(code);
    // the address typed for the shop stays; the student's orders and payments go with the student
    go({ step: "find", checkout: payer.checkout });
  };
  const found = (answer: FindResult): PayerState => {
    const bills = answer.bills;
    const selected = bills.filter((bill) => bill.status === "unpaid").map((bill) => String(bill.id));
    return { ...payer, ticket: answer.ticket, student: answer.student, bills, selected, answers: earlierAnswers(bills), order: undefined, orderAt: undefined, receipt: undefined };
  };
  const inShop = payer.step === "shop";
  const hasShop = (shopGoods?.goods.length ?? 0) > 0;
  const tabs =
    hasShop || inShop ? (
      <nav className="tabs" aria-label={t("sections")}>
        <button
          type="button"
          className={inShop ? "tab" : "tab current"}
          aria-current={inShop ? undefined : "page"}
          data-testid="h5-tab-fees"
          onClick={() => {
            if (inShop) go({ ...payer, step: payer.feeStep && payer.feeStep !== "shop" ? payer.feeStep : payer.ticket ? "bills" : "find" });
          }}
        >
          {t("tab_fees")}
        </button>
        <button
          type="button"
          className={inShop ? "tab current" : "tab"}
          aria-current={inShop ? "page" : undefined}
          data-testid="h5-tab-shop"
          onClick={() => go({ ...payer, step: "shop", feeStep: inShop ? payer.feeStep : payer.step, shop: { view: "list" } })}
        >
          {t("tab_shop")}
        </button>
      </nav>
    ) : null;
  let body: ReactNode;
  if (inShop) {
    body = (
      <Suspense fallback={<p className="muted center" data-testid="h5-loading">{t("loading")}</p>}>
        <Shop code={code} lookup={lookup} payer={payer} go={go} keep={keep} goods={shopGoods} found={found} />
      </Suspense>
    );
  } else if (payer.step === "bills" && payer.ticket && payer.student && payer.bills) {
    body = <BillsStep code={code} payer={payer} go={go} keep={keep} onAnotherStudent={restart} wxToken={wxToken} />;
  } else if (payer.step === "pay" && payer.ticket && payer.order) {
    body = <PayStep code={code} payer={payer} go={go} onPayByQr={payByQr} />;
  } else if (payer.step === "done" && payer.ticket && payer.order) {
    body = <DoneStep code={code} payer={payer} go={go} onStartOver={restart} />;
  } else {
    body = (
      <>
        <Activities info={info} />
        <FindStep code={code} lookup={lookup} onFound={(answer) => go({ ...found(answer), step: "bills" })} />
      </>
    );
  }
  return (
    <Shell title={schoolTitle} tabs={tabs}>
      {body}
    </Shell>
  );
}

/** What a history entry holds: the step, and in the shop where in it. */
function historyState(payer: PayerState) {
  return { ...(window.history.state as object | null), h5step: payer.step, h5shop: payer.step === "shop" ? payer.shop : undefined };
}

// ---------------------------------------------------------------------------------------------------------

function Activities({ info }: { info: EntryInfo }) {
  const { t } = useI18n();
  return (
    <section className="card" aria-labelledby="h5-activities">
      <h2 id="h5-activities">{t("activities")}</h2>
      {info.activities.length === 0 ? (
        <p className="muted" data-testid="h5-no-activity">{t("activities_none")}</p>
      ) : (
        <ul className="activities">
          {info.activities.map((activity) => (
            <li key={String(activity.id)} data-testid="h5-activity">
              <span className="activity-title">{activity.title}</span>
              {activity.end_date ? <span className="muted small">{t("activity_until", { date: activity.end_date })}</span> : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}


// ---------------------------------------------------------------------------------------------------------

function StudentCard({ payer, action }: { payer: PayerState; action?: ReactNode }) {
  const { t } = useI18n();
  if (!payer.student) return null;
  return (
    <section className="card student" data-testid="h5-student">
      <div>
        <div className="student-name">{payer.student.name}</div>
        <div className="muted small">
          {t("class_label")}: {payer.student.class_title}
        </div>
      </div>
      {action}
    </section>
  );
}

function statusText(status: string, t: I18nValue["t"]): string {
  if (status === "unpaid") return t("bill_status_unpaid");
  if (status === "paid" || status === "part_refunded") return t("bill_status_paid");
  return t("bill_status_other");
}

function BillsStep({
  code,
  payer,
  go,
  keep,
  onAnotherStudent,
  wxToken,
}: {
  /** the school's code: its pickup points, for bills carrying goods */
  code: string;
  payer: PayerState;
  go: Go;
  keep: (next: PayerState) => void;
  onAnotherStudent: () => void;
  /** signed in inside WeChat: the order is paid on WeChat's sheet */
  wxToken?: string;
}) {
  const { t, language } = useI18n();
  const bills = payer.bills ?? [];
  const payable = bills.filter((bill) => bill.status === "unpaid");
  const selected = new Set((payer.selected ?? []).filter((id) => payable.some((bill) => String(bill.id) === id)));
  const chosen = payable.filter((bill) => selected.has(String(bill.id)));
  const totalFen = chosen.reduce((sum, bill) => sum + toFen(bill.amount), 0);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem>();
  // the questions of the chosen bills' activities, answered before paying
  const forms = formsOf(payable, selected);
  const answers = payer.answers ?? {};
  const [answerProblems, setAnswerProblems] = useState<Record<string, string>>({});
  const answer = (questionId: string, value: string | string[]) => {
    keep({ ...payer, answers: { ...answers, [questionId]: value } });
    if (answerProblems[questionId]) setAnswerProblems(({ [questionId]: _fixed, ...rest }) => rest);
  };
  const showAnswerProblems = (problems: Record<string, string>) => {
    setAnswerProblems(problems);
    const first = forms.flatMap((form) => form.questions).find((q) => problems[String(q.id)]);
    if (first) document.getElementById(questionDomId(first))?.scrollIntoView?.({ block: "center" });
  };

  // the chosen bills' goods (a uniform): a size of each and how to receive them, chosen before paying
  const goods = goodsOfBills(chosen);
  const goodsChoice = payer.goodsChoice ?? { sizes: {} };
  const [goodsError, setGoodsError] = useState<string>();
  const chooseGoods = (next: GoodsChoice) => {
    keep({ ...payer, goodsChoice: next });
    setGoodsError(undefined);
  };

  const choose = (ids: string[]) => go({ ...payer, selected: ids }, "replace");
  const toggle = (bill: Bill) => {
    const id = String(bill.id);
    choose(selected.has(id) ? [...selected].filter((s) => s !== id) : [...selected, id]);
  };

  const pay = () => {
    if (busy || chosen.length === 0 || !payer.ticket) return;
    const unanswered = answerErrors(forms, answers, t);
    if (Object.keys(unanswered).length > 0) {
      showAnswerProblems(unanswered);
      return;
    }
    const goodsMissing = goodsProblem(goods, goodsChoice, t);
    if (goodsMissing) {
      setGoodsError(goodsMissing);
      document.getElementById("h5-goods")?.scrollIntoView?.({ block: "center" });
      return;
    }
    setBusy(true);
    setProblem(undefined);
    setAnswerProblems({});
    const answered = forms.length > 0 ? { answers: answersPayload(forms, answers) } : {};
    h5call("h5pay", { ticket: payer.ticket, bill_ids: chosen.map((bill) => bill.id), ...answered, ...goodsPayload(goods, goodsChoice), ...(wxToken ? { wx_token: wxToken } : {}) }).then(
      (order) => go({ ...payer, step: "pay", order, orderAt: Date.now(), receipt: undefined }),
      (err: unknown) => {
        setBusy(false);
        // a refused answer shows under its question, when the page still asks it
        const asked = err instanceof H5Failure && forms.some((form) => form.questions.some((q) => String(q.id) === err.questionId));
        if (asked) showAnswerProblems({ [err.questionId!]: err.message || t("unknown_error") });
        else setProblem(problemOf(err));
      },
    );
  };

  return (
    <>
      <StudentCard
        payer={payer}
        action={
          <button type="button" className="btn link" data-testid="h5-another-student" onClick={onAnotherStudent}>
            {t("change_student")}
          </button>
        }
      />
      <section className="card" aria-labelledby="h5-bills">
        <div className="row">
          <h2 id="h5-bills">{t("bills_title")}</h2>
          {payable.length > 1 ? (
            <button
              type="button"
              className="btn link"
              data-testid="h5-select-all"
              onClick={() => choose(chosen.length === payable.length ? [] : payable.map((bill) => String(bill.id)))}
            >
              {t("select_all")}
            </button>
          ) : null}
        </div>
        {bills.length === 0 || payable.length === 0 ? <p className="muted" data-testid="h5-no-bills">{t("bills_none")}</p> : null}
        <ul className="bills">
          {bills.map((bill) => {
            const id = String(bill.id);
            const open = bill.status === "unpaid";
            return (
              <li key={id} className={open ? "bill" : "bill closed"} data-testid={`h5-bill-${id}`}>
                <label className="bill-head">
                  <input
                    type="checkbox"
                    checked={open && selected.has(id)}
                    disabled={!open}
                    data-testid={`h5-bill-check-${id}`}
                    onChange={() => toggle(bill)}
                  />
                  <span className="bill-title">{bill.activity_title}</span>
                  <span className="bill-amount">
                    <Money yuan={bill.amount} />
                  </span>
                </label>
                {Array.isArray(bill.items) && bill.items.length > 0 ? (
                  <ul className="items">
                    {bill.items.map((item, i) => (
                      <li key={i}>
                        <span>{item.title}</span>
                        <span>
                          <Money yuan={item.amount} />
                        </span>
                      </li>
                    ))}
                  </ul>
                ) : null}
                {!open ? <span className={`tag ${bill.status === "paid" ? "ok" : ""}`}>{statusText(bill.status, t)}</span> : null}
              </li>
            );
          })}
        </ul>
        {problem ? <ProblemText problem={problem} testId="h5-pay-error" /> : null}
        {problem?.kind === "fail" ? (
          // a refusal that asking again will not change (the ticket expired, a bill was paid meanwhile): look up afresh
          <button type="button" className="btn link block" data-testid="h5-start-over" onClick={onAnotherStudent}>
            {t("start_over")}
          </button>
        ) : null}
      </section>
      <QuestionsSection forms={forms} answers={answers} errors={answerProblems} onChange={answer} />
      <GoodsSection code={code} goods={goods} choice={goodsChoice} onChange={chooseGoods} problem={goodsError} />
      {payable.length > 0 ? (
        <footer className="paybar">
          <div className="paybar-total">
            <span className="muted small">{t("selected_count", { count: chosen.length })}</span>
            <span>
              {t("selected_total")} <strong data-testid="h5-total">{t("currency", { amount: moneyText(totalFen, language) })}</strong>
            </span>
          </div>
          <button type="button" className="btn primary" disabled={busy || chosen.length === 0} data-testid="h5-pay" onClick={pay}>
            {busy ? t("paying") : chosen.length === 0 ? t("choose_bill") : problem?.kind === "network" ? t("retry") : t("pay_submit", { amount: t("currency", { amount: moneyText(totalFen, language) }) })}
          </button>
        </footer>
      ) : null}
    </>
  );
}

// ---------------------------------------------------------------------------------------------------------

function PayStep({ code, payer, go, onPayByQr }: { code: string; payer: PayerState; go: Go; onPayByQr: () => void }) {
  const { t } = useI18n();
  const order = payer.order as PayResult;
  const ticket = payer.ticket as string;
  const payerRef = useRef(payer);
  payerRef.current = payer;

  const check = useCallback(async () => (await h5call("h5checkpay", { ticket, pay_no: order.pay_no })).status, [ticket, order.pay_no]);
  const onPaid = useCallback(() => {
    const current = payerRef.current;
    const paidIds = new Set(current.selected ?? []);
    const bills = (current.bills ?? []).map((bill) => (paidIds.has(String(bill.id)) && bill.status === "unpaid" ? { ...bill, status: "paid" } : bill));
    go({ ...current, step: "done", bills, selected: [] }, "replace");
  }, [go]);
  const backToBills = () => go({ ...payer, step: "bills", order: undefined, orderAt: undefined }, "replace");

  return (
    <>
      <StudentCard payer={payer} />
      <PaymentPanel
        code={code}
        order={order}
        orderAt={payer.orderAt}
        check={check}
        onPaid={onPaid}
        onBack={backToBills}
        backLabel={t("back_to_bills")}
        closedText={t("order_closed")}
        onPayByQr={onPayByQr}
      />
    </>
  );
}

// ---------------------------------------------------------------------------------------------------------

function DoneStep({ code, payer, go, onStartOver }: { code: string; payer: PayerState; go: Go; onStartOver: () => void }) {
  const { t, language } = useI18n();
  const order = payer.order as PayResult;
  const [receipt, setReceipt] = useState<Receipt | undefined>(payer.receipt);
  const [problem, setProblem] = useState<Problem>();
  const [attempt, setAttempt] = useState(0);
  const payerRef = useRef(payer);
  payerRef.current = payer;

  useEffect(() => {
    if (payerRef.current.receipt || !payerRef.current.ticket) return;
    let cancelled = false;
    setProblem(undefined);
    h5call("h5receipt", { ticket: payerRef.current.ticket, pay_no: order.pay_no }).then(
      (answer) => {
        if (cancelled) return;
        setReceipt(answer);
        saveState(code, { ...payerRef.current, receipt: answer });
      },
      (err: unknown) => {
        if (!cancelled) setProblem(problemOf(err));
      },
    );
    return () => {
      cancelled = true;
    };
  }, [code, order.pay_no, attempt, language]);

  const morePayable = (payer.bills ?? []).some((bill) => bill.status === "unpaid");
  return (
    <>
      <section className="card result no-print" data-testid="h5-paid">
        <div className="tick" aria-hidden="true">
          ✓
        </div>
        <h2>{t("paid_title")}</h2>
        <p className="muted">{t("paid_text")}</p>
      </section>
      {receipt?.actions?.length ? <AfterPayActions actions={receipt.actions} /> : null}
      {receipt?.fulfilment ? <FulfilmentCard fulfilment={receipt.fulfilment} /> : null}
      <section className="card receipt" aria-labelledby="h5-receipt-title" data-testid="h5-receipt">
        <h2 id="h5-receipt-title">{t("receipt_title")}</h2>
        {receipt ? (
          <>
            <dl className="facts">
              <dt>{t("receipt_school")}</dt>
              <dd data-testid="h5-receipt-school">{receipt.school_title}</dd>
              <dt>{t("receipt_student")}</dt>
              <dd data-testid="h5-receipt-student">{receipt.student?.name}</dd>
              <dt>{t("receipt_class")}</dt>
              <dd>{receipt.student?.class_title}</dd>
              {receipt.receipt_no ? (
                <>
                  <dt>{t("receipt_no")}</dt>
                  <dd data-testid="h5-receipt-no">{receipt.receipt_no}</dd>
                </>
              ) : null}
              <dt>{t("receipt_paid_at")}</dt>
              <dd data-testid="h5-receipt-paid-at">
                <BusinessTime value={receipt.paid_at} />
              </dd>
              <dt>{t("receipt_transaction")}</dt>
              <dd className="break" data-testid="h5-receipt-transaction">{receipt.transaction_id}</dd>
            </dl>
            <h3>{t("receipt_items")}</h3>
            <ul className="items">
              {(receipt.items ?? []).map((item, i) => (
                <li key={i}>
                  <span>{item.title}</span>
                  <span>
                    <Money yuan={item.amount} />
                  </span>
                </li>
              ))}
            </ul>
            <div className="amount-line total">
              <span>{t("receipt_amount")}</span>
              <strong className="amount" data-testid="h5-receipt-amount">
                <Money yuan={receipt.amount} />
              </strong>
            </div>
          </>
        ) : problem ? (
          <>
            <ProblemText problem={problem} testId="h5-receipt-error" />
            <button type="button" className="btn" data-testid="h5-retry" onClick={() => setAttempt((a) => a + 1)}>
              {t("retry")}
            </button>
          </>
        ) : (
          <p className="muted center">{t("receipt_loading")}</p>
        )}
      </section>
      <div className="actions no-print">
        {receipt ? (
          <button type="button" className="btn primary" data-testid="h5-print" onClick={() => window.print()}>
            {t("print")}
          </button>
        ) : null}
        {morePayable ? (
          <button type="button" className="btn" data-testid="h5-pay-more" onClick={() => go({ ...payer, step: "bills", order: undefined, orderAt: undefined, receipt: undefined })}>
            {t("pay_more")}
          </button>
        ) : null}
        <button type="button" className="btn link block" data-testid="h5-start-over" onClick={onStartOver}>
          {t("start_over")}
        </button>
      </div>
    </>
  );
}
