/**
 * The questions the chosen bills' activities ask before paying (their forms), and what the result page offers
 * once paid (after-payment actions: a link, a group's QR code). The answers are kept with the payer's other steps
 * (session.ts) and sent with h5pay; a refused answer shows the server's message under its question.
 */
import type { AfterPayAction, AnswerValue, Bill, BillForm, Question } from "./api";
import { useI18n, type Translate } from "./i18n";

/** the longest text answer the server takes */
export const MAX_ANSWER_LENGTH = 200;

/** The forms of the chosen bills' activities, each once, in the bills' order. */
export function formsOf(bills: readonly Bill[], selected: ReadonlySet<string>): BillForm[] {
  const forms = new Map<string, BillForm>();
  for (const bill of bills) {
    const form = bill.form;
    if (form && Array.isArray(form.questions) && form.questions.length > 0 && selected.has(String(bill.id))) forms.set(String(form.form_id), form);
  }
  return [...forms.values()];
}

/** What the payer answered before, as h5find gives it with each bill's form: the page starts from it. */
export function earlierAnswers(bills: readonly Bill[]): Record<string, AnswerValue> {
  return Object.assign({}, ...bills.map((bill) => bill.form?.answers ?? {})) as Record<string, AnswerValue>;
}

function chosenValues(value: AnswerValue | undefined): string[] {
  return (Array.isArray(value) ? value : value === undefined ? [] : [value]).filter((v) => v.trim() !== "");
}

/** The questions the page itself refuses (a required one unanswered, a text too long), by question id. */
export function answerErrors(forms: readonly BillForm[], answers: Readonly<Record<string, AnswerValue>>, t: Translate): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const question of forms.flatMap((form) => form.questions)) {
    const id = String(question.id);
    const values = chosenValues(answers[id]);
    if (question.required && values.length === 0) errors[id] = t("answer_required");
    else if (question.kind === "text" && [...(values[0] ?? "").trim()].length > MAX_ANSWER_LENGTH) errors[id] = t("answer_too_long", { max: MAX_ANSWER_LENGTH });
  }
  return errors;
}

/** The answers h5pay takes: each question of the forms shown, answered or not (the server says what is missing). */
export function answersPayload(forms: readonly BillForm[], answers: Readonly<Record<string, AnswerValue>>): { question_id: number | string; value: AnswerValue }[] {
  return forms.flatMap((form) =>
    form.questions.map((question) => {
      const value = answers[String(question.id)];
      return { question_id: question.id, value: question.kind === "multi" ? chosenValues(value) : typeof value === "string" ? value.trim() : "" };
    }),
  );
}

export function questionDomId(question: Question): string {
  return `h5-question-${String(question.id)}`;
}

function QuestionField({ question, value, error, onChange }: { question: Question; value: AnswerValue | undefined; error?: string; onChange: (value: AnswerValue) => void }) {
  const { t } = useI18n();
  const id = String(question.id);
  const heading = (
    <span className="question-label">
      {question.label}
      {question.required ? null : <span className="muted small"> {t("answer_optional")}</span>}
    </span>
  );
  const errorText = error ? (
    <em className="field-error" role="alert" data-testid={`h5-question-error-${id}`}>
      {error}
    </em>
  ) : null;
  if (question.kind === "text") {
    return (
      <label className="field" id={questionDomId(question)} data-testid={`h5-question-${id}`}>
        {heading}
        <input
          value={typeof value === "string" ? value : ""}
          maxLength={MAX_ANSWER_LENGTH}
          placeholder={t("answer_placeholder")}
          aria-invalid={error ? true : undefined}
          aria-required={question.required || undefined}
          data-testid={`h5-answer-${id}`}
          onChange={(e) => onChange(e.target.value)}
        />
        {errorText}
      </label>
    );
  }
  const multi = question.kind === "multi";
  const chosen = chosenValues(value);
  const toggle = (option: string) => {
    if (!multi) onChange(option);
    else onChange(chosen.includes(option) ? chosen.filter((o) => o !== option) : question.options.filter((o) => o === option || chosen.includes(o)));
  };
  return (
    <fieldset className="field choices" id={questionDomId(question)} data-testid={`h5-question-${id}`} aria-invalid={error ? true : undefined}>
      <legend>{heading}</legend>
      {question.options.map((option, i) => (
        <label key={option} className={chosen.includes(option) ? "choice chosen" : "choice"}>
          <input
            type={multi ? "checkbox" : "radio"}
            name={`q-${id}`}
            value={option}
            checked={chosen.includes(option)}
            data-testid={`h5-answer-${id}-${i}`}
            onChange={() => toggle(option)}
          />
          <span>{option}</span>
        </label>
      ))}
      {errorText}
    </fieldset>
  );
}

/** The forms of the chosen bills, their questions answered on the page before paying. */
export function QuestionsSection({
  forms,
  answers,
  errors,
  onChange,
}: {
  forms: readonly BillForm[];
  answers: Readonly<Record<string, AnswerValue>>;
  errors: Readonly<Record<string, string>>;
  onChange: (questionId: string, value: AnswerValue) => void;
}) {
  const { t } = useI18n();
  if (forms.length === 0) return null;
  return (
    <section className="card questions" aria-labelledby="h5-questions" data-testid="h5-questions">
      <h2 id="h5-questions">{t("questions_title")}</h2>
      {forms.map((form) => (
        <div key={String(form.form_id)} className="form-block">
          {forms.length > 1 || form.title ? <h3>{form.title}</h3> : null}
          {form.intro ? <p className="muted small">{form.intro}</p> : null}
          {form.questions.map((question) => (
            <QuestionField
              key={String(question.id)}
              question={question}
              value={answers[String(question.id)]}
              error={errors[String(question.id)]}
              onChange={(value) => onChange(String(question.id), value)}
            />
          ))}
        </div>
      ))}
    </section>
  );
}

function isWebAddress(value: string | null | undefined): value is string {
  return typeof value === "string" && /^https?:\/\//i.test(value);
}

/** What the result page offers once paid: a link button, or a group's QR code to long-press. */
export function AfterPayActions({ actions }: { actions: readonly AfterPayAction[] }) {
  const { t } = useI18n();
  const shown = actions.filter((a) => (a.kind === "link" ? isWebAddress(a.url) : isWebAddress(a.image)));
  if (shown.length === 0) return null;
  return (
    <section className="card after-pay no-print" aria-labelledby="h5-after-pay" data-testid="h5-after-pay">
      <h2 id="h5-after-pay">{t("after_pay_title")}</h2>
      {shown.map((action) => (
        <div key={String(action.id)} className="after-pay-action" data-testid={`h5-after-pay-${String(action.id)}`}>
          <h3>{action.title}</h3>
          {action.text ? <p className="muted small">{action.text}</p> : null}
          {action.kind === "link" ? (
            <a className="btn primary" href={action.url ?? undefined} target="_blank" rel="noopener noreferrer" data-testid="h5-after-pay-link">
              {t("after_pay_open")}
            </a>
          ) : (
            <figure className="group-qr">
              <img src={action.image ?? undefined} alt={action.title} width={220} height={220} data-testid="h5-after-pay-qr" />
              <figcaption className="muted small">{t("after_pay_long_press")}</figcaption>
            </figure>
          )}
        </div>
      ))}
    </section>
  );
}
