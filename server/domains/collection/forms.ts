/**
 * Activity forms and after-payment actions (catalogue/collectionForms.ts): the checks of a form's questions and of
 * its activities (an activity answers one form at most), the binding of an after-payment action to activities
 * (payendactionbind), and what the payer API needs: the questions of the activities a payer pays, the check of the
 * answers given, their storage per bill and question (the newest replaces the earlier), and the actions a paid
 * order's activities offer.
 */
import { and, asc, eq, inArray, ne, sql } from "drizzle-orm";
import { CHOICE_SEPARATOR, MAX_ANSWER_LENGTH, MAX_OPTION_LENGTH, MAX_OPTIONS, payEndActionBindOperation, payEndActionEntity } from "../../../catalogue/collectionForms";
import { resolveScope } from "../../auth/scope";
import { auditCall } from "../../auth/audit";
import type { DbOrTx } from "../../db/client";
import { activities, activityForms, formAnswers, formQuestions, payEndActions } from "../../db/schema";
import { entityTenantConditions } from "../../engine/crud";
import { registerDeclared } from "../../engine/declared";
import type { EntityHooks, Row } from "../../engine/hooks";
import { ApiFailure, notFound } from "../../protocol/envelope";
import type { OperationContext, OperationRegistry } from "../../protocol/registry";

/** first key of pg_advisory_xact_lock(key, sysid): writes binding a provider's activities to forms, one at a time */
const FORM_BINDING_LOCK_SPACE = 7_301;

/** A choice's options as stored: one per line, trimmed, blank lines dropped. */
export function optionList(options: string | null | undefined): string[] {
  return (options ?? "")
    .split(/\r?\n/)
    .map((o) => o.trim())
    .filter((o) => o !== "");
}

function refused(field: string, message: string): ApiFailure {
  return new ApiFailure("api.invalid_params", { field }, { errors: [{ field, message }] });
}

/**
 * A form as it will be stored: each choice with 2 to 20 different options (a text question keeps none), no two
 * questions of one label, and none of its activities bound to another form of the provider. Runs after the engine
 * wrote the record and its questions, in the same transaction: a refusal writes nothing.
 */
async function checkForm(ctx: OperationContext, tx: DbOrTx, form: Row): Promise<void> {
  const formId = Number(form.id);
  const questions = await tx.select().from(formQuestions).where(eq(formQuestions.form_id, formId)).orderBy(asc(formQuestions.sort), asc(formQuestions.id));
  const labels = new Set<string>();
  for (const [i, q] of questions.entries()) {
    const label = q.label.trim();
    if (labels.has(label)) throw refused(`questions.${i}.label`, ctx.t("forms.check.label_twice", { label }));
    labels.add(label);
    const options = optionList(q.options);
    if (q.kind === "text") {
      if (q.options !== null) await tx.update(formQuestions).set({ options: null }).where(eq(formQuestions.id, q.id));
      continue;
    }
    const usable = options.length >= 2 && options.length <= MAX_OPTIONS && new Set(options).size === options.length && options.every((o) => o.length <= MAX_OPTION_LENGTH && !o.includes(CHOICE_SEPARATOR.trim()));
    if (!usable) throw refused(`questions.${i}.options`, ctx.t("forms.check.options_needed", { label, max: MAX_OPTIONS, length: MAX_OPTION_LENGTH }));
    const stored = options.join("\n");
    if (stored !== q.options) await tx.update(formQuestions).set({ options: stored }).where(eq(formQuestions.id, q.id));
  }
  const activityIds = Array.isArray(form.activity_ids) ? (form.activity_ids as number[]) : [];
  if (activityIds.length === 0) return;
  const sysid = Number(form.sysid);
  // two forms saved at once cannot both take one activity
  await tx.execute(sql`select pg_advisory_xact_lock(${FORM_BINDING_LOCK_SPACE}::integer, ${sysid}::integer)`);
  const ids = sql`array[${sql.join(activityIds.map((id) => sql`${id}::integer`), sql`, `)}]`;
  const [taken] = await tx
    .select({ form: activityForms.title, activity: activities.title })
    .from(activityForms)
    .innerJoin(activities, sql`${activities.id} = any(${activityForms.activity_ids})`)
    .where(and(eq(activityForms.sysid, sysid), ne(activityForms.id, formId), sql`${activityForms.activity_ids} && ${ids}`, inArray(activities.id, activityIds)))
    .limit(1);
  if (taken) throw refused("activity_ids", ctx.t("forms.check.activity_bound", { activity: taken.activity, form: taken.form }));
}

export const activityFormHooks: EntityHooks = {
  afterAdd: (ctx, tx, row) => checkForm(ctx, tx, row),
  afterEdit: (ctx, tx, _before, after) => checkForm(ctx, tx, after),
};

/** payendactionbind {id, activity_ids}: the action's activities, each of the provider's schools (none: unbound). */
export function registerPayEndActionBind(registry: OperationRegistry): void {
  registerDeclared<{ id: number; activity_ids: number[] | null }>(registry, payEndActionBindOperation, async (ctx, payload) => {
    const scope = await resolveScope(ctx.db, ctx.auth!, ctx.payload);
    const activityIds = payload.activity_ids ?? [];
    const row = await ctx.db.transaction(async (tx) => {
      const [action] = await tx
        .select()
        .from(payEndActions)
        .where(and(eq(payEndActions.id, payload.id), ...entityTenantConditions(payEndActionEntity, payEndActions, ctx, scope)))
        .for("update");
      if (!action) throw notFound();
      if (activityIds.length > 0) {
        const [{ n }] = await tx
          .select({ n: sql<number>`count(*)::int` })
          .from(activities)
          .where(and(inArray(activities.id, activityIds), eq(activities.sysid, action.sysid)));
        if (Number(n) !== activityIds.length) throw refused("activity_ids", ctx.t("api.validation.reference", { label: ctx.t("forms.field.activities") }));
      }
      const [updated] = await tx.update(payEndActions).set({ activity_ids: activityIds }).where(eq(payEndActions.id, action.id)).returning();
      await auditCall(tx, ctx, {
        action: payEndActionBindOperation.name,
        entity: payEndActionEntity.name,
        entityId: String(action.id),
        detail: { from: action.activity_ids ?? [], to: activityIds },
        sysid: action.sysid,
        schId: null,
      });
      return updated;
    });
    return { data: { items: { id: row.id, activity_ids: row.activity_ids ?? [] } } };
  });
}

// ---------------------------------------------------------------------------------------------------------
// The payer's side

export type QuestionKind = "text" | "choice" | "multi";

export interface PayerQuestion {
  id: number;
  label: string;
  kind: QuestionKind;
  options: string[];
  required: boolean;
}

export interface PayerForm {
  form_id: number;
  title: string;
  intro: string;
  questions: PayerQuestion[];
}

/** The form in use of each activity (by activity id) of the provider, with its questions in order: two queries. */
export async function formsOfActivities(db: DbOrTx, sysid: number, activityIds: readonly number[]): Promise<Map<number, PayerForm>> {
  const out = new Map<number, PayerForm>();
  if (activityIds.length === 0) return out;
  const ids = sql`array[${sql.join(activityIds.map((id) => sql`${id}::integer`), sql`, `)}]`;
  const forms = await db
    .select({ id: activityForms.id, title: activityForms.title, intro: activityForms.intro, activity_ids: activityForms.activity_ids })
    .from(activityForms)
    .where(and(eq(activityForms.sysid, sysid), eq(activityForms.status, "1"), sql`${activityForms.activity_ids} && ${ids}`));
  if (forms.length === 0) return out;
  const questions = await db
    .select()
    .from(formQuestions)
    .where(inArray(formQuestions.form_id, forms.map((f) => f.id)))
    .orderBy(asc(formQuestions.form_id), asc(formQuestions.sort), asc(formQuestions.id));
  for (const form of forms) {
    const payerForm: PayerForm = {
      form_id: form.id,
      title: form.title,
      intro: form.intro ?? "",
      questions: questions
        .filter((q) => q.form_id === form.id)
        .map((q) => ({ id: q.id, label: q.label, kind: q.kind as QuestionKind, options: q.kind === "text" ? [] : optionList(q.options), required: q.required === "Y" })),
    };
    for (const activityId of form.activity_ids ?? []) if (activityIds.includes(activityId)) out.set(activityId, payerForm);
  }
  return out;
}

/** The answers a payer gave earlier to a bill's questions, by bill id and question label: the page offers them again. */
export async function earlierAnswers(db: DbOrTx, billIds: readonly number[]): Promise<Map<number, Map<string, string>>> {
  const out = new Map<number, Map<string, string>>();
  if (billIds.length === 0) return out;
  const rows = await db.select({ bill_id: formAnswers.bill_id, question: formAnswers.question, value: formAnswers.value }).from(formAnswers).where(inArray(formAnswers.bill_id, [...billIds]));
  for (const row of rows) {
    const byLabel = out.get(row.bill_id) ?? new Map<string, string>();
    byLabel.set(row.question, row.value ?? "");
    out.set(row.bill_id, byLabel);
  }
  return out;
}

/** A question's earlier answer in the form the payer page edits: a multiple choice as its chosen options. */
function answerForPage(question: PayerQuestion, stored: string | undefined): string | string[] | undefined {
  if (stored === undefined) return undefined;
  if (question.kind === "multi") return stored.split(CHOICE_SEPARATOR).filter((o) => question.options.includes(o));
  if (question.kind === "choice" && !question.options.includes(stored)) return undefined;
  return stored;
}

/** A bill's form as the payer page gets it: with the answers given before (by label) under the questions' ids. */
export function formForPage(form: PayerForm, earlier: Map<string, string> | undefined): PayerForm & { answers: Record<number, string | string[]> } {
  const answers: Record<number, string | string[]> = {};
  for (const question of form.questions) {
    const value = answerForPage(question, earlier?.get(question.label));
    if (value !== undefined) answers[question.id] = value;
  }
  return { ...form, answers };
}

export interface GivenAnswer {
  question_id: number;
  value?: string | string[] | null;
}

/** An answer checked, as it is stored: the question's label as asked and the value. */
export interface CheckedAnswer {
  formId: number;
  question: string;
  value: string;
}

function payerRefusal(ctx: OperationContext, questionId: number, key: string, params: Record<string, string | number>): ApiFailure {
  const message = ctx.t(key, params);
  return new ApiFailure(key, params, { errors: [{ field: `answers.${questionId}`, question_id: questionId, message }] });
}

/**
 * The answers to the questions of the bills' forms (by activity), checked: a question of another form (or none) is refused, a required
 * one must be answered, a choice among its options, a text at most MAX_ANSWER_LENGTH characters. FAIL names the
 * question (`data.errors[0].question_id`) with a message naming its label.
 */
export function checkAnswers(ctx: OperationContext, formsByActivity: Map<number, PayerForm>, given: readonly GivenAnswer[]): Map<number, CheckedAnswer[]> {
  // several activities may share a form: asked once
  const forms = [...new Map([...formsByActivity.values()].map((form) => [form.form_id, form])).values()];
  const questions = new Map(forms.flatMap((form) => form.questions.map((q) => [q.id, { form, q }] as const)));
  const byQuestion = new Map<number, GivenAnswer["value"]>();
  for (const answer of given) {
    if (!questions.has(answer.question_id)) throw payerRefusal(ctx, answer.question_id, "forms.payer.answer_unknown", {});
    byQuestion.set(answer.question_id, answer.value);
  }
  const out = new Map<number, CheckedAnswer[]>();
  for (const form of forms) {
    const checked: CheckedAnswer[] = [];
    for (const q of form.questions) {
      const raw = byQuestion.get(q.id);
      const chosen = (Array.isArray(raw) ? raw : typeof raw === "string" ? [raw] : []).map((v) => v.trim()).filter((v) => v !== "");
      const label = q.label;
      if (chosen.length === 0) {
        if (q.required) throw payerRefusal(ctx, q.id, "forms.payer.answer_required", { label });
        continue;
      }
      let value: string;
      if (q.kind === "text") {
        if (Array.isArray(raw)) throw payerRefusal(ctx, q.id, "forms.payer.answer_required", { label });
        value = chosen[0];
        if ([...value].length > MAX_ANSWER_LENGTH) throw payerRefusal(ctx, q.id, "forms.payer.answer_too_long", { label, max: MAX_ANSWER_LENGTH });
      } else {
        const distinct = [...new Set(chosen)];
        if ((q.kind === "choice" && distinct.length > 1) || distinct.some((v) => !q.options.includes(v))) throw payerRefusal(ctx, q.id, "forms.payer.answer_not_option", { label });
        // in the options' order, whatever order they were ticked in
        value = q.options.filter((o) => distinct.includes(o)).join(CHOICE_SEPARATOR);
      }
      checked.push({ formId: form.form_id, question: label, value });
    }
    out.set(form.form_id, checked);
  }
  return out;
}

export interface AnsweredBill {
  id: number;
  activity_id: number;
  class_id: number;
}

/**
 * Stores the checked answers of each bill's form with the order, per bill and question: an answer given again
 * replaces the earlier one; the questions left unanswered keep what was answered before. One statement.
 */
export async function storeAnswers(
  db: DbOrTx,
  who: { sysid: number; schId: number; studentId: number; orderId: number; at: Date },
  bills: readonly AnsweredBill[],
  formOf: Map<number, PayerForm>,
  answers: Map<number, CheckedAnswer[]>,
): Promise<void> {
  const rows = bills.flatMap((bill) => {
    const form = formOf.get(bill.activity_id);
    return (form ? (answers.get(form.form_id) ?? []) : []).map((a) => ({
      form_id: a.formId,
      sysid: who.sysid,
      sch_id: who.schId,
      activity_id: bill.activity_id,
      student_id: who.studentId,
      class_id: bill.class_id,
      bill_id: bill.id,
      question: a.question,
      value: a.value,
      order_id: who.orderId,
      answered_at: who.at,
    }));
  });
  if (rows.length === 0) return;
  await db
    .insert(formAnswers)
    .values(rows)
    .onConflictDoUpdate({
      target: [formAnswers.bill_id, formAnswers.question],
      set: { value: sql`excluded.value`, order_id: sql`excluded.order_id`, answered_at: sql`excluded.answered_at`, form_id: sql`excluded.form_id`, class_id: sql`excluded.class_id` },
    });
}

export interface PayerAction {
  id: number;
  kind: "link" | "group_qr";
  title: string;
  text: string;
  url: string | null;
  image: string | null;
}

/** The after-payment actions in use bound to any of the activities, oldest first: one query. */
export async function actionsOfActivities(db: DbOrTx, sysid: number, activityIds: readonly number[]): Promise<PayerAction[]> {
  if (activityIds.length === 0) return [];
  const ids = sql`array[${sql.join(activityIds.map((id) => sql`${id}::integer`), sql`, `)}]`;
  const rows = await db
    .select()
    .from(payEndActions)
    .where(and(eq(payEndActions.sysid, sysid), eq(payEndActions.status, "1"), sql`${payEndActions.activity_ids} && ${ids}`))
    .orderBy(asc(payEndActions.id))
    .limit(10);
  // only web addresses reach the payer, whatever was stored before the rules
  const web = (value: string | null) => (value && /^https?:\/\//i.test(value) ? value : null);
  return rows
    .map((r) => ({ id: r.id, kind: r.kind as PayerAction["kind"], title: r.title, text: r.text ?? "", url: r.kind === "link" ? web(r.url) : null, image: r.kind === "group_qr" ? web(r.image) : null }))
    .filter((a) => a.url !== null || a.image !== null);
}
