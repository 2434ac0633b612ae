/**
 * Fee collection around the payment: a provider's activity forms (questions the payer answers before paying, bound
 * to activities of its schools), the answers payers gave (per student and activity, exported), and the actions the
 * payer's result page offers after paying (a link or a group QR code image, bound to activities). The server side is
 * server/domains/collection/forms.ts and the payer API (payerApi.ts); labels are in locales/<lang>/forms.json.
 */
import type { CatalogueDomain, EntityDecl, FieldOption, OperationDecl } from "../common/catalogue";
import { schoolField, statusOptions, yesNo } from "./shared";

/** The provider's own pages (the menus give these routes to servicev2 only). */
const FORM_MANAGERS = ["servicev2"] as const;

/** the most questions a form asks, and options a choice offers */
export const MAX_QUESTIONS = 20;
export const MAX_OPTIONS = 20;
/** the longest option, and the longest answer a payer may give */
export const MAX_OPTION_LENGTH = 50;
export const MAX_ANSWER_LENGTH = 200;
/** how several chosen options of a multiple choice are stored in one answer (an option may not hold it) */
export const CHOICE_SEPARATOR = "; ";

export const questionKinds: FieldOption[] = [
  { value: "text", label: "forms.kind.text" },
  { value: "choice", label: "forms.kind.choice" },
  { value: "multi", label: "forms.kind.multi" },
];

/** A question of a form: a child record edited in the form's dialog. A choice's options are one per line. */
export const formQuestionEntity: EntityDecl = {
  name: "formquestion",
  table: "form_questions",
  scope: "provider",
  title: "forms.entity.formquestion",
  titleField: "label",
  defaultSort: { field: "sort", order: "asc" },
  // reached only through its form
  roles: {},
  fields: [
    { name: "id", type: "int", label: "field.id" },
    { name: "form_id", type: "ref", ref: { entity: "activityform" }, label: "forms.entity.activityform", required: true },
    { name: "sort", type: "int", label: "field.sort", default: 0, min: 0, max: 9999 },
    { name: "label", type: "string", label: "forms.field.question", required: true, max: 100, form: true },
    { name: "kind", type: "enum", label: "forms.field.kind", required: true, default: "text", options: questionKinds, form: true },
    { name: "options", type: "text", label: "forms.field.options", max: 1000, form: true, requiredWhen: { field: "kind", value: "choice" } },
    { name: "required", type: "yesno", label: "forms.field.required", required: true, default: "Y", options: yesNo, form: true },
  ],
};

/**
 * An activity form (acvitifyformlist, edited in a dialog; activityformact lists its answers): its questions and
 * the activities of the provider's schools whose payers answer it. An activity is bound to one form at most.
 */
export const activityFormEntity: EntityDecl = {
  name: "activityform",
  table: "activity_forms",
  scope: "provider",
  title: "forms.entity.activityform",
  titleField: "title",
  defaultSort: { field: "id", order: "desc" },
  roles: { list: FORM_MANAGERS, info: FORM_MANAGERS, add: FORM_MANAGERS, edit: FORM_MANAGERS, del: FORM_MANAGERS },
  children: [{ name: "questions", entity: "formquestion", parentField: "form_id", label: "forms.field.questions", min: 1, max: MAX_QUESTIONS }],
  fields: [
    { name: "id", type: "int", label: "field.id", sortable: true, detail: true },
    { name: "title", type: "string", label: "forms.field.form_title", required: true, max: 50, list: true, filter: "like", form: true, detail: true },
    { name: "intro", type: "text", label: "forms.field.intro", max: 200, form: true, detail: true },
    { name: "activity_ids", type: "ref", ref: { entity: "activity" }, multiple: true, label: "forms.field.activities", list: true, form: true, detail: true },
    { name: "status", type: "status", label: "field.status", required: true, default: "1", options: statusOptions, list: true, filter: "eq", form: true, detail: true },
    { name: "created_at", type: "datetime", label: "field.created_at", list: true, sortable: true, detail: true },
  ],
};

/**
 * A payer's answer to one question of a form, for one student's bill of an activity (activityformact, read-only):
 * written by h5pay, the newest answer replacing the earlier one to the same question (its label as asked then,
 * kept so that an answer outlives a question edited later).
 */
export const formAnswerEntity: EntityDecl = {
  name: "formanswer",
  table: "form_answers",
  scope: "school",
  title: "forms.entity.formanswer",
  titleField: "question",
  defaultSort: { field: "id", order: "desc" },
  exportOperation: "formanswerexport",
  roles: { list: FORM_MANAGERS, info: FORM_MANAGERS },
  fields: [
    { name: "id", type: "int", label: "field.id", sortable: true },
    { name: "form_id", type: "ref", ref: { entity: "activityform" }, label: "forms.entity.activityform", required: true, filter: "eq" },
    schoolField,
    { name: "activity_id", type: "ref", ref: { entity: "activity" }, label: "forms.field.activity", required: true, list: true, filter: "eq", detail: true },
    { name: "student_id", type: "ref", ref: { entity: "student" }, label: "forms.field.student", required: true, list: true, filter: "eq", detail: true },
    { name: "class_id", type: "ref", ref: { entity: "classes" }, label: "field.classes", required: true, list: true, detail: true },
    { name: "bill_id", type: "ref", ref: { entity: "bill" }, label: "forms.field.bill", required: true },
    // one answer per bill and question: the newest replaces the earlier
    { name: "question", type: "string", label: "forms.field.question", required: true, max: 100, unique: { within: "bill_id" }, list: true, detail: true },
    { name: "value", type: "text", label: "forms.field.answer", max: 1000, list: true, detail: true },
    { name: "order_id", type: "ref", ref: { entity: "order" }, label: "forms.field.order", detail: true },
    { name: "answered_at", type: "datetime", label: "forms.field.answered_at", required: true, list: true, sortable: true, detail: true },
  ],
};

export const payEndActionKinds: FieldOption[] = [
  { value: "link", label: "forms.action_kind.link" },
  { value: "group_qr", label: "forms.action_kind.group_qr" },
];

/** an absolute http(s) address: nothing else is offered to a payer to open */
export const HTTP_URL_PATTERN = "^https?://[^\\s/?#]+[^\\s]*$";

/**
 * An after-payment action (payendaction, community marketing): what the payer's result page offers once paid, a
 * link button or a group's QR code image with a short text, for the activities `payendactionbind` binds it to.
 */
export const payEndActionEntity: EntityDecl = {
  name: "payendaction",
  table: "pay_end_actions",
  scope: "provider",
  title: "forms.entity.payendaction",
  titleField: "title",
  defaultSort: { field: "id", order: "desc" },
  roles: { list: FORM_MANAGERS, info: FORM_MANAGERS, add: FORM_MANAGERS, edit: FORM_MANAGERS, del: FORM_MANAGERS },
  fields: [
    { name: "id", type: "int", label: "field.id", sortable: true, detail: true },
    { name: "title", type: "string", label: "forms.field.action_title", required: true, max: 30, list: true, filter: "like", form: true, detail: true },
    { name: "kind", type: "enum", label: "forms.field.action_kind", required: true, default: "link", options: payEndActionKinds, list: true, filter: "eq", form: true, detail: true },
    {
      name: "url",
      type: "string",
      label: "forms.field.url",
      max: 500,
      pattern: HTTP_URL_PATTERN,
      patternMessage: "forms.url_invalid",
      form: true,
      formWhen: { field: "kind", value: "link" },
      requiredWhen: { field: "kind", value: "link" },
      detail: true,
    },
    { name: "image", type: "image", label: "forms.field.qr_image", form: true, formWhen: { field: "kind", value: "group_qr" }, requiredWhen: { field: "kind", value: "group_qr" }, list: true, detail: true },
    { name: "text", type: "string", label: "forms.field.action_text", max: 100, form: true, detail: true },
    // bound by payendactionbind, not in the add and edit forms
    { name: "activity_ids", type: "ref", ref: { entity: "activity" }, multiple: true, label: "forms.field.activities", list: true, detail: true },
    { name: "status", type: "status", label: "field.status", required: true, default: "1", options: statusOptions, list: true, filter: "eq", form: true, detail: true },
    { name: "created_at", type: "datetime", label: "field.created_at", list: true, sortable: true, detail: true },
  ],
};

/** Binds an after-payment action to activities of the provider's schools (the record route payendactionbind). */
export const payEndActionBindOperation: OperationDecl = {
  name: "payendactionbind",
  roles: FORM_MANAGERS,
  effect: "write",
  title: "menu.payendactionbind",
  submit: "crud.save",
  invalidates: ["payendaction"],
  fields: [
    { name: "id", type: "int", label: "forms.entity.payendaction", required: true, min: 1 },
    { name: "activity_ids", type: "ref", ref: { entity: "activity" }, multiple: true, label: "forms.field.activities" },
  ],
};

export const forms: CatalogueDomain = {
  entities: [activityFormEntity, formQuestionEntity, formAnswerEntity, payEndActionEntity],
  operations: [payEndActionBindOperation],
  pages: {
    acvitifyformlist: { kind: "list", entity: "activityform" },
    // a form's answers: its record route lists them
    activityformact: { kind: "list", entity: "formanswer", recordFilter: "form_id" },
    payendaction: { kind: "list", entity: "payendaction" },
    payendactionadd: { kind: "add", entity: "payendaction" },
    payendactionedit: { kind: "edit", entity: "payendaction" },
    payendactionbind: { kind: "custom", id: "payendactionbind", calls: ["payendactioninfo", "payendactionbind"] },
  },
};
