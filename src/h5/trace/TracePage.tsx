/**
 * A garment's public page (/h5/{code}/trace/{trace_code}, a chunk of its own): what h5tracesource answers of the
 * garment's trace-source code within the school's provider, the goods item, its specs, the batch, the maker, the
 * standard, the fabric and a link to the inspection report; nothing of an order or a student is asked or shown.
 */
import { useEffect, useState } from "react";
import { h5call, type TraceFacts } from "../api";
import { useI18n } from "../i18n";
import { problemOf, ProblemText, type Problem } from "../ui";
import { traceMessages, type TraceMessageKey } from "./messages";
import "./trace.css";

type Load = { state: "loading" } | { state: "ready"; facts: TraceFacts } | { state: "problem"; problem: Problem };

const specsText = (specs: Record<string, string> | null) =>
  Object.entries(specs ?? {})
    .map(([name, value]) => `${name} ${value}`)
    .join(" · ");

/** the report's address, when it is a web address (the server keeps to http and https) */
const reportHref = (url: string | null) => (url && /^https?:\/\//i.test(url) ? url : null);

export default function TracePage({ code, traceCode }: { code: string; traceCode: string }) {
  const { t, language } = useI18n();
  const m = (key: TraceMessageKey) => traceMessages[language][key];
  const [load, setLoad] = useState<Load>({ state: "loading" });
  const goodsTitle = load.state === "ready" ? load.facts.goods_title : "";
  useEffect(() => {
    document.title = goodsTitle ? `${goodsTitle} · ${t("trace_title")}` : t("trace_title");
  }, [goodsTitle, t]);
  useEffect(() => {
    let cancelled = false;
    setLoad({ state: "loading" });
    h5call("h5tracesource", { code, trace_code: traceCode }).then(
      (facts) => !cancelled && setLoad({ state: "ready", facts }),
      (err: unknown) => !cancelled && setLoad({ state: "problem", problem: problemOf(err) }),
    );
    return () => {
      cancelled = true;
    };
    // the server's message follows the language chosen
  }, [code, traceCode, language]);

  if (load.state === "loading") return <p className="muted center">{t("loading")}</p>;
  if (load.state === "problem")
    return (
      <section className="card">
        <ProblemText problem={load.problem} testId="trace-error" />
      </section>
    );
  const f = load.facts;
  const href = reportHref(f.report_url);
  const row = (label: TraceMessageKey, value: string | null | undefined, testId: string) => (
    <>
      <dt>{m(label)}</dt>
      <dd data-testid={testId} className={value ? undefined : "muted"}>
        {value || m("none")}
      </dd>
    </>
  );
  return (
    <section className="card trace" data-testid="trace-page">
      <div className="trace-head">
        {f.image ? <img className="trace-img" src={f.image} alt={f.goods_title} /> : <div className="trace-img trace-img-none" aria-hidden="true">{[...f.goods_title.trim()][0] ?? "?"}</div>}
        <div>
          <h2 className="trace-title" data-testid="trace-goods">
            {f.goods_title}
          </h2>
          {specsText(f.spec_values) ? <div className="muted">{specsText(f.spec_values)}</div> : null}
        </div>
      </div>
      {f.voided ? (
        <p className="alert" data-testid="trace-voided">
          {m("voided")}
        </p>
      ) : (
        <p className="muted small">{m("intro")}</p>
      )}
      <dl className="facts trace-facts">
        {row("code", f.code, "trace-code")}
        {row("batch", f.batch_no, "trace-batch")}
        {row("manufacturer", f.manufacturer, "trace-manufacturer")}
        {row("standard", f.standard, "trace-standard")}
        {row("fabric", f.fabric, "trace-fabric")}
      </dl>
      {href ? (
        <a className="btn block trace-report" href={href} target="_blank" rel="noopener noreferrer nofollow" data-testid="trace-report">
          {m("report_open")}
        </a>
      ) : null}
    </section>
  );
}
