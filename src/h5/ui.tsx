/**
 * Small pieces the payer's pages share, the fee steps (App.tsx) and the school shop (shop/) alike: a refusal or a
 * network fault as the payer reads it, money in the page's language, and a time in China time.
 */
import { H5Failure } from "./api";
import { useI18n } from "./i18n";
import { BUSINESS_ZONE_LABEL, instantOf, readerOutsideBusinessZone, timeText } from "../../common/businessTime";
import { moneyText, toFen } from "./session";

export type Problem = { kind: "fail"; message: string; field?: string } | { kind: "network" };

export function problemOf(err: unknown): Problem {
  if (err instanceof H5Failure) return err.field ? { kind: "fail", message: err.message, field: err.field } : { kind: "fail", message: err.message };
  return { kind: "network" };
}

export function ProblemText({ problem, testId }: { problem: Problem; testId: string }) {
  const { t } = useI18n();
  return (
    <p className="alert" role="alert" data-testid={testId}>
      {problem.kind === "fail" ? problem.message || t("unknown_error") : t("network_error")}
    </p>
  );
}

/**
 * A time the server sends, as China time (the platform's business time) whatever the phone's zone: "2026-11-25
 * 17:02:11". Where the phone's clock reads it otherwise, a small "UTC+8" follows it (drawn by the style sheet).
 */
export function BusinessTime({ value }: { value: string | null | undefined }) {
  const { t } = useI18n();
  const at = instantOf(value);
  if (!at) return <>{timeText(value)}</>;
  return (
    <time className="business-time" dateTime={at.toISOString()} title={t("china_time")} data-zone={readerOutsideBusinessZone(at) ? BUSINESS_ZONE_LABEL : undefined}>
      {timeText(at)}
    </time>
  );
}

/** An amount the server sends as a two-decimal yuan string, written as the page's language writes money. */
export function Money({ yuan }: { yuan: string }) {
  const { language, t } = useI18n();
  return <>{t("currency", { amount: moneyText(toFen(yuan), language) })}</>;
}
