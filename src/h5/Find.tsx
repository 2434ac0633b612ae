/**
 * Finding the student by name and student number (or the guardian phone's last four digits, as the school asks):
 * the ticket h5find answers stands for that student in the calls after it, the bills' and the shop's.
 */
import { useState, type FormEvent } from "react";
import { h5call, type FindResult, type Lookup } from "./api";
import { useI18n } from "./i18n";
import { problemOf, ProblemText, type Problem } from "./ui";

export function FindStep({ code, lookup, onFound, title, hint, submitLabel }: { code: string; lookup: Lookup; onFound: (found: FindResult) => void; title?: string; hint?: string; submitLabel?: string }) {
  const { t } = useI18n();
  const [name, setName] = useState("");
  const [second, setSecond] = useState("");
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem>();
  const byPhone = lookup === "name_and_phone4";
  const nameError = touched && !name.trim() ? t("field_required") : undefined;
  const secondError = !touched ? undefined : !second.trim() ? t("field_required") : byPhone && !/^\d{4}$/.test(second.trim()) ? t("phone4_invalid") : undefined;

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    setTouched(true);
    if (busy || !name.trim() || !second.trim() || (byPhone && !/^\d{4}$/.test(second.trim()))) return;
    setBusy(true);
    setProblem(undefined);
    const payload = byPhone ? { code, name: name.trim(), phone4: second.trim() } : { code, name: name.trim(), student_no: second.trim() };
    h5call("h5find", payload).then(
      (found) => onFound({ ...found, bills: Array.isArray(found.bills) ? found.bills : [] }),
      (err: unknown) => {
        setBusy(false);
        setProblem(problemOf(err));
      },
    );
  };

  return (
    <section className="card" aria-labelledby="h5-find">
      <h2 id="h5-find">{title ?? t("find_title")}</h2>
      {hint ? <p className="muted">{hint}</p> : null}
      <p className="muted">{byPhone ? t("find_hint_phone4") : t("find_hint_student_no")}</p>
      <form onSubmit={submit} noValidate>
        <label className="field">
          <span>{t("field_name")}</span>
          <input
            name="name"
            autoComplete="off"
            placeholder={t("field_name_placeholder")}
            value={name}
            maxLength={50}
            aria-invalid={nameError ? true : undefined}
            data-testid="h5-find-name"
            onChange={(e) => setName(e.target.value)}
          />
          {nameError ? <em className="field-error">{nameError}</em> : null}
        </label>
        {byPhone ? (
          <label className="field">
            <span>{t("field_phone4")}</span>
            <input
              name="phone4"
              inputMode="numeric"
              pattern="[0-9]*"
              maxLength={4}
              autoComplete="off"
              placeholder={t("field_phone4_placeholder")}
              value={second}
              aria-invalid={secondError ? true : undefined}
              data-testid="h5-find-phone4"
              onChange={(e) => setSecond(e.target.value.replace(/\D/g, ""))}
            />
            {secondError ? <em className="field-error">{secondError}</em> : null}
          </label>
        ) : (
          <label className="field">
            <span>{t("field_student_no")}</span>
            <input
              name="student_no"
              autoComplete="off"
              autoCapitalize="off"
              placeholder={t("field_student_no_placeholder")}
              value={second}
              maxLength={50}
              aria-invalid={secondError ? true : undefined}
              data-testid="h5-find-student-no"
              onChange={(e) => setSecond(e.target.value)}
            />
            {secondError ? <em className="field-error">{secondError}</em> : null}
          </label>
        )}
        {problem ? <ProblemText problem={problem} testId="h5-find-error" /> : null}
        <button type="submit" className="btn primary" disabled={busy} data-testid="h5-find-submit">
          {busy ? t("finding") : problem?.kind === "network" ? t("retry") : (submitLabel ?? t("find_submit"))}
        </button>
      </form>
    </section>
  );
}
