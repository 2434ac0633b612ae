/**
 * Fee collection, its ground: a provider's payment channels (a sub-merchant of WeChat Pay, or the sandbox) with
 * their onboarding material and review, the channel each school takes payments through, fee projects (reusable fee
 * items of a school, and of a v1 provider for all its schools) and a provider's collection settings. The server
 * side is server/domains/fees/; labels are in locales/<lang>/fees.json.
 *
 * A channel's life: a provider adds it (draft) with its material, submits it; an operator approves it (with the
 * sub-merchant id WeChat Pay gave) or rejects it (with the reason, after which the provider edits and submits
 * again); an approved channel may be disabled and enabled. Only an approved channel takes payments, and it is edited
 * only while draft or rejected.
 */
import "../common/fieldExtras";
import type { ActionDecl, CatalogueDomain, EntityDecl, FieldDecl, FieldOption, OperationDecl, SettingsDecl } from "../common/catalogue";
import { anyOf, OPERATOR_ROLES, PROVIDER_ROLES } from "../common/roleKeys";
import { reconRun } from "./reconciliation";
import { schoolField, statusOptions, yesNo } from "./shared";

/** the most a fee project may ask, in yuan */
export const MAX_PROJECT_YUAN = 1_000_000;

/** Who sees a provider's channels: its own accounts, and the operators who review them. */
const CHANNEL_READERS = anyOf(OPERATOR_ROLES, PROVIDER_ROLES);

export const channelStates: FieldOption[] = [
  { value: "draft", label: "fees.channel_status.draft", tone: "default" },
  { value: "submitted", label: "fees.channel_status.submitted", tone: "processing" },
  { value: "approved", label: "fees.channel_status.approved", tone: "success" },
  { value: "rejected", label: "fees.channel_status.rejected", tone: "error" },
  { value: "disabled", label: "fees.channel_status.disabled", tone: "warning" },
];

export const gatewayOptions: FieldOption[] = [
  { value: "wechatpay", label: "fees.gateway.wechatpay" },
  { value: "sandbox", label: "fees.gateway.sandbox" },
];

/** WeChat Pay's sub-merchant id: digits only */
const SUB_MCHID_PATTERN = "^[0-9]{8,16}$";

const subMchidField: FieldDecl = {
  name: "sub_mchid",
  type: "string",
  label: "fees.field.sub_mchid",
  max: 32,
  pattern: SUB_MCHID_PATTERN,
  patternMessage: "fees.validation.sub_mchid",
};

/**
 * The onboarding material of a channel (a sub-merchant's application): what the operator checks before approving.
 * Optional while a draft is written; submitting asks for every one (server/domains/fees/channels.ts).
 */
export const materialFields: FieldDecl[] = [
  { name: "subject", type: "string", label: "fees.field.subject", max: 100, form: true, detail: true },
  {
    name: "licence_no",
    type: "string",
    label: "fees.field.licence_no",
    max: 18,
    // the unified social credit code (18 characters) or an older registration number (15 digits)
    pattern: "^([0-9A-HJ-NPQRTUWXY]{18}|[0-9]{15})$",
    patternMessage: "fees.validation.licence_no",
    form: true,
    detail: true,
  },
  { name: "legal_person", type: "string", label: "fees.field.legal_person", max: 50, form: true, detail: true },
  { name: "contact_name", type: "string", label: "fees.field.contact_name", max: 50, form: true, detail: true },
  { name: "contact_phone", type: "phone", label: "fees.field.contact_phone", form: true, detail: true },
  { name: "bank_name", type: "string", label: "fees.field.bank_name", max: 100, form: true, detail: true },
  {
    name: "bank_account",
    type: "string",
    label: "fees.field.bank_account",
    max: 32,
    pattern: "^[0-9]{8,30}$",
    patternMessage: "fees.validation.bank_account",
    mask: "account",
    list: true,
    form: true,
    detail: true,
  },
];

/** Submitting a channel's material for review (a draft, or a rejected channel once its material is corrected). */
export const paychnlSubmit: ActionDecl = {
  name: "paychnlsubmit",
  label: "fees.action.submit",
  confirm: "fees.action.submit_confirm",
  roles: PROVIDER_ROLES,
  from: ["draft", "rejected"],
  to: "submitted",
  afterAdd: { hint: "fees.hint.submit_next", label: "fees.action.save_and_submit" },
};

/**
 * An operator's review of a submitted channel: approved with the sub-merchant id WeChat Pay gave (a sandbox channel
 * gets one made up), or rejected with the reason the provider reads.
 */
export const paychnlReview: ActionDecl = {
  name: "paychnlreview",
  label: "fees.action.review",
  confirm: "fees.action.review_confirm",
  roles: OPERATOR_ROLES,
  from: ["submitted"],
  to: ["approved", "rejected"],
  result: { field: "result", to: { approve: "approved", reject: "rejected" } },
  // a submitted channel waits for the platform's operators
  waiting: "channels",
  fields: [
    {
      name: "result",
      type: "enum",
      label: "fees.field.review_result",
      required: true,
      options: [
        { value: "approve", label: "fees.review_result.approve" },
        { value: "reject", label: "fees.review_result.reject" },
      ],
    },
    subMchidField,
    { name: "reason", type: "text", label: "fees.field.reject_reason", max: 200, requiredWhen: { field: "result", value: "reject" } },
  ],
};

/** An approved channel stops taking payments (its schools' payers are turned away until it is enabled). */
export const paychnlDisable: ActionDecl = {
  name: "paychnldisable",
  label: "fees.action.disable",
  confirm: "fees.action.disable_confirm",
  roles: CHANNEL_READERS,
  from: ["approved"],
  to: "disabled",
  danger: true,
};

/** Only the platform's operators enable a channel again: a provider cannot undo an operator's disabling. */
export const paychnlEnable: ActionDecl = {
  name: "paychnlenable",
  label: "fees.action.enable",
  confirm: "fees.action.enable_confirm",
  roles: OPERATOR_ROLES,
  from: ["disabled"],
  to: "approved",
};

/**
 * A provider's payment channel (paychnllist; v1 /pay, v2 the pay group of /sysadminv2): a WeChat Pay sub-merchant
 * (service-provider mode: the platform's sp_mchid and this sub_mchid) or the demo sandbox. Operators see every
 * provider's channels, with the provider as a column and a filter.
 */
export const paychnlEntity: EntityDecl = {
  name: "paychnl",
  table: "payment_channels",
  scope: "provider",
  title: "fees.entity.paychnl",
  titleField: "title",
  defaultSort: { field: "id", order: "desc" },
  exportOperation: "paychnlexport",
  stateField: "status",
  editableIn: ["draft", "rejected"],
  // reconrun: a day of the channel's trade bill, matched now; its reconciled days and their items to resolve are
  // listed on its record page (catalogue/reconciliation.ts)
  actions: [paychnlSubmit, paychnlReview, paychnlDisable, paychnlEnable, reconRun],
  related: [
    { entity: "recon", field: "paychnl_id", label: "recon.related_days" },
    { entity: "reconitem", field: "paychnl_id", label: "recon.related" },
  ],
  roles: {
    list: CHANNEL_READERS,
    info: CHANNEL_READERS,
    add: PROVIDER_ROLES,
    edit: PROVIDER_ROLES,
  },
  fields: [
    { name: "id", type: "int", label: "field.id", sortable: true, detail: true },
    { name: "title", type: "string", label: "fees.field.channel_title", required: true, max: 50, unique: "tenant", list: true, filter: "like", form: true, detail: true },
    // the provider: set from the caller's scope, a column and filter of the operators' list
    { name: "sysid", type: "ref", ref: { entity: "service" }, label: "field.provider", required: true, list: true, filter: "eq", detail: true },
    { name: "gateway", type: "enum", label: "fees.field.gateway", required: true, default: "wechatpay", options: gatewayOptions, list: true, filter: "eq", form: true, detail: true },
    // set by the approval; one sub-merchant takes payments through one channel only
    { ...subMchidField, unique: true, list: true, detail: true },
    { name: "status", type: "enum", label: "fees.field.channel_status", required: true, default: "draft", options: channelStates, list: true, filter: "eq", detail: true },
    { name: "reject_reason", type: "text", label: "fees.field.reject_reason", max: 200, detail: true },
    ...materialFields,
    { name: "reviewed_at", type: "datetime", label: "fees.field.reviewed_at", detail: true },
    { name: "created_at", type: "datetime", label: "field.created_at", list: true, sortable: true, detail: true },
  ],
};

/**
 * The channel a school takes payments through (one per school): set by `schoolpaychnlset`, read by payments as one
 * lookup of the school's row (server/domains/fees/channels.ts schoolChannel).
 */
export const schoolPaychnlEntity: EntityDecl = {
  name: "schoolpaychnl",
  table: "school_channels",
  scope: "school",
  title: "fees.entity.schoolpaychnl",
  titleField: "sch_id",
  defaultSort: { field: "id", order: "desc" },
  roles: { list: PROVIDER_ROLES, info: PROVIDER_ROLES },
  fields: [
    { name: "id", type: "int", label: "field.id", detail: true },
    { ...schoolField, unique: true },
    { name: "paychnl_id", type: "ref", ref: { entity: "paychnl" }, label: "fees.field.paychnl", required: true, list: true, filter: "eq", detail: true },
    { name: "bound_at", type: "datetime", label: "fees.field.bound_at", list: true, detail: true },
    { name: "bound_by", type: "string", label: "fees.field.bound_by", max: 50, list: true, detail: true },
  ],
};

/** Binds a school to an approved channel of its own provider (replacing the channel it had). */
export const schoolPaychnlSetOperation: OperationDecl = {
  name: "schoolpaychnlset",
  roles: PROVIDER_ROLES,
  effect: "write",
  title: "menu.school_paychnllist",
  submit: "fees.bind",
  invalidates: ["schoolpaychnl"],
  fields: [
    { name: "sch_id", type: "ref", ref: { entity: "school" }, label: "field.school", required: true },
    { name: "paychnl_id", type: "ref", ref: { entity: "paychnl" }, label: "fees.field.paychnl", required: true },
  ],
};

export const amountModes: FieldOption[] = [
  { value: "fixed", label: "fees.amount_mode.fixed" },
  { value: "open", label: "fees.amount_mode.open" },
];

/**
 * A fee project's fields: a fixed amount, or an open one the payer chooses between a lowest and a highest amount
 * (both required then, the highest not below the lowest); whether payers must pay it; in use or not.
 */
const projectFields: FieldDecl[] = [
  { name: "title", type: "string", label: "fees.field.project_title", required: true, max: 50, unique: "tenant", list: true, filter: "like", sortable: true, form: true, detail: true },
  { name: "amount_mode", type: "enum", label: "fees.field.amount_mode", required: true, default: "fixed", options: amountModes, list: true, filter: "eq", form: true, detail: true },
  {
    name: "amount",
    type: "money",
    label: "fees.field.amount",
    min: 0.01,
    max: MAX_PROJECT_YUAN,
    requiredWhen: { field: "amount_mode", value: "fixed" },
    formWhen: { field: "amount_mode", value: "fixed" },
    list: true,
    sortable: true,
    form: true,
    detail: true,
  },
  {
    name: "min_amount",
    type: "money",
    label: "fees.field.min_amount",
    min: 0.01,
    max: MAX_PROJECT_YUAN,
    requiredWhen: { field: "amount_mode", value: "open" },
    formWhen: { field: "amount_mode", value: "open" },
    list: true,
    form: true,
    detail: true,
  },
  {
    name: "max_amount",
    type: "money",
    label: "fees.field.max_amount",
    min: 0.01,
    max: MAX_PROJECT_YUAN,
    requiredWhen: { field: "amount_mode", value: "open" },
    atLeast: { field: "min_amount", message: "fees.validation.max_below_min" },
    formWhen: { field: "amount_mode", value: "open" },
    list: true,
    form: true,
    detail: true,
  },
  { name: "required", type: "yesno", label: "fees.field.project_required", required: true, default: "Y", options: yesNo, list: true, form: true, detail: true },
  { name: "status", type: "status", label: "field.status", required: true, default: "1", options: statusOptions, list: true, filter: "eq", form: true, detail: true },
  { name: "remark", type: "text", label: "fees.field.remark", max: 200, form: true, detail: true },
  { name: "created_at", type: "datetime", label: "field.created_at", sortable: true, detail: true },
];

/** A school's fee project (projectlist; v1, the school whose paymode is on): an activity's items may start from it. */
export const projectEntity: EntityDecl = {
  name: "project",
  table: "fee_projects",
  scope: "school",
  title: "fees.entity.project",
  titleField: "title",
  defaultSort: { field: "id", order: "desc" },
  roles: { list: ["paymode"], info: ["paymode"], add: ["paymode"], edit: ["paymode"], del: ["paymode"] },
  fields: [{ name: "id", type: "int", label: "field.id", sortable: true, detail: true }, schoolField, ...projectFields],
};

/**
 * A v1 provider's fee project (service_projectlist, in its goods and data group): one for all its schools, so that
 * a fee every school collects alike (uniforms, insurance) is written once.
 */
export const serviceProjectEntity: EntityDecl = {
  name: "serviceproject",
  table: "provider_fee_projects",
  scope: "provider",
  title: "fees.entity.serviceproject",
  titleField: "title",
  defaultSort: { field: "id", order: "desc" },
  roles: { list: ["service"], info: ["service"], add: ["service"], edit: ["service"], del: ["service"] },
  fields: [{ name: "id", type: "int", label: "field.id", sortable: true, detail: true }, ...projectFields],
};

/** How a payer finds the student on the payer page. */
export const payerLookupOptions: FieldOption[] = [
  { value: "name_and_student_no", label: "fees.payer_lookup.name_and_student_no" },
  { value: "name_and_phone4", label: "fees.payer_lookup.name_and_phone4" },
];

/** A provider's collection settings (agentnoticeset): read by orders, the payer page and the voucher. */
export const agentnoticeSettings: SettingsDecl = {
  name: "agentnoticeset",
  scope: "provider",
  title: "fees.settings.agentnoticeset",
  roles: { info: PROVIDER_ROLES, edit: PROVIDER_ROLES },
  fields: [
    { name: "order_timeout_minutes", type: "int", label: "fees.field.order_timeout_minutes", required: true, default: 120, min: 5, max: 1440 },
    { name: "payer_lookup", type: "enum", label: "fees.field.payer_lookup", required: true, default: "name_and_student_no", options: payerLookupOptions },
    { name: "voucher_title", type: "string", label: "fees.field.voucher_title", max: 60 },
  ],
};

export const fees: CatalogueDomain = {
  entities: [paychnlEntity, schoolPaychnlEntity, projectEntity, serviceProjectEntity],
  operations: [schoolPaychnlSetOperation],
  settings: [agentnoticeSettings],
  pages: {
    paychnllist: { kind: "list", entity: "paychnl" },
    paychnladd: { kind: "add", entity: "paychnl" },
    paychnledit: { kind: "edit", entity: "paychnl" },
    paychnl_info: { kind: "info", entity: "paychnl" },
    // the onboarding review: the material beside the review (v1, the operators' own route); in v2 the route is the
    // provider's, where an operator switched into the provider reviews (the review is the record's action, offered
    // by role as on its row and detail page)
    "pay/paychnlinfo": { kind: "custom", id: "paychnlmaterial", calls: ["paychnlinfo", "paychnlreview"] },
    "sysadminv2/paychnlinfo": { kind: "custom", id: "paychnlmaterial", calls: ["paychnlinfo"] },
    // the material of a channel chosen on the page, with the step it waits for (a provider's submission, a review)
    paychnl_infoadd: { kind: "custom", id: "paychnlmaterial", calls: ["paychnllist", "paychnlinfo"] },
    myaccountinfo: { kind: "custom", id: "myaccountinfo", calls: ["paychnllist", "schoolpaychnllist", "settlesummary"] },
    school_paychnllist: { kind: "custom", id: "schoolpaychnl", calls: ["schoolinfo", "schoolpaychnllist", "paychnllist", "schoolpaychnlset"] },
    projectlist: { kind: "list", entity: "project" },
    projectadd: { kind: "add", entity: "project" },
    projectedit: { kind: "edit", entity: "project" },
    service_projectlist: { kind: "list", entity: "serviceproject" },
    service_projectadd: { kind: "add", entity: "serviceproject" },
    service_projectedit: { kind: "edit", entity: "serviceproject" },
    agentnoticeset: { kind: "settings", settings: "agentnoticeset" },
  },
};
