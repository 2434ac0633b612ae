/**
 * Fee collection, the check of the money: every day, each payment channel's trade bill (the gateway's list of the
 * day's payments and refunds) is matched against our orders and refunds. A batch (`recon`) is one channel's day,
 * with its counts per outcome and the totals of both sides; its items (`reconitem`) are the matches and the
 * differences, and a difference with a guided fix (a payment the gateway has and we missed, a refund the gateway
 * finished) is resolved from its row. `reconrun` is an action of the channel: it reconciles a day now. Both are
 * listed on the channel's record page (paychnl_info), the days and the items to resolve. The server side is
 * server/domains/collection/reconciliation.ts; labels in locales/<lang>/recon.json.
 */
import type { ActionDecl, CatalogueDomain, EntityDecl, FieldOption } from "../common/catalogue";
import { PROVIDER_ROLES } from "../common/roleKeys";

/** Who reconciles: the provider whose channels they are, of either generation. */
export const RECON_ROLES: readonly string[] = PROVIDER_ROLES;

/** how far back a day may be reconciled: WeChat Pay keeps trade bills for three months */
export const RECON_MAX_DAYS_BACK = 90;

export const reconBatchStates: FieldOption[] = [
  { value: "balanced", label: "recon.status.balanced", tone: "success" },
  { value: "differences", label: "recon.status.differences", tone: "error", hint: "recon.hint.differences" },
  { value: "resolved", label: "recon.status.resolved", tone: "processing", hint: "recon.hint.resolved" },
  { value: "failed", label: "recon.status.failed", tone: "warning", hint: "recon.hint.failed" },
];

export const reconOutcomes: FieldOption[] = [
  { value: "matched", label: "recon.outcome.matched", tone: "success" },
  { value: "missing_local", label: "recon.outcome.missing_local", tone: "error", hint: "recon.hint.missing_local" },
  { value: "missing_gateway", label: "recon.outcome.missing_gateway", tone: "error", hint: "recon.hint.missing_gateway" },
  { value: "amount_mismatch", label: "recon.outcome.amount_mismatch", tone: "error", hint: "recon.hint.amount_mismatch" },
  { value: "status_mismatch", label: "recon.outcome.status_mismatch", tone: "warning", hint: "recon.hint.status_mismatch" },
];

/** the outcomes that are differences, in the batch's counts */
export const RECON_DIFFERENCES = ["missing_local", "missing_gateway", "amount_mismatch", "status_mismatch"] as const;

export const reconItemStates: FieldOption[] = [
  { value: "ok", label: "recon.item_status.ok", tone: "success" },
  { value: "open", label: "recon.item_status.open", tone: "error" },
  { value: "resolved", label: "recon.item_status.resolved", tone: "processing" },
];

export const reconItemKinds: FieldOption[] = [
  { value: "payment", label: "recon.kind.payment" },
  { value: "refund", label: "recon.kind.refund" },
];

/**
 * reconrun {paychnl_id, bill_date}: the channel's trade bill of the day, fetched and matched now (a batch made
 * again replaces the day's). Declared on the channel, run by its domain: the bill is fetched before the
 * transaction that writes the batch.
 */
export const reconRun: ActionDecl = {
  name: "reconrun",
  label: "recon.run",
  confirm: "recon.run_confirm",
  roles: RECON_ROLES,
  from: ["approved", "disabled"],
  idField: "paychnl_id",
  creates: "recon",
  implementedBy: "domain",
  // "1 difference": the message leads to it, among the channel's items to resolve
  answerLink: { related: "reconitem", state: "open", when: "open_items", label: "recon.show_differences" },
  fields: [{ name: "bill_date", type: "date", label: "recon.field.bill_date", required: true }],
};

/**
 * reconresolve {id, note}: a difference's guided fix, applied (the gateway is asked first: a payment it has is
 * applied to its order, a refund it finished is finished); a difference no fix can mend (a payment we have never
 * heard of, amounts that differ) is marked checked with the note of what was done.
 */
export const reconResolve: ActionDecl = {
  name: "reconresolve",
  label: "recon.resolve",
  confirm: "recon.resolve_confirm",
  roles: RECON_ROLES,
  from: ["open"],
  to: "resolved",
  bulk: true,
  implementedBy: "domain",
  // the day's counts and state change with it
  refreshes: ["recon"],
  fields: [{ name: "note", type: "string", label: "recon.field.note", max: 200 }],
};

/** One channel's reconciled day. Written by reconciliation only. */
export const reconEntity: EntityDecl = {
  name: "recon",
  table: "recon_batches",
  scope: "provider",
  title: "recon.entity.recon",
  titleField: "bill_date",
  defaultSort: { field: "bill_date", order: "desc" },
  stateField: "status",
  roles: { list: RECON_ROLES, info: RECON_ROLES },
  fields: [
    { name: "id", type: "int", label: "field.id", detail: true },
    { name: "paychnl_id", type: "ref", ref: { entity: "paychnl" }, label: "recon.field.paychnl", required: true, list: true, filter: "eq", detail: true },
    { name: "bill_date", type: "date", label: "recon.field.bill_date", required: true, unique: { within: "paychnl_id" }, list: true, filter: "range", sortable: true, detail: true },
    { name: "status", type: "enum", label: "recon.field.status", required: true, default: "balanced", options: reconBatchStates, list: true, filter: "eq", detail: true },
    { name: "matched", type: "int", label: "recon.outcome.matched", default: 0, min: 0, list: true, detail: true },
    { name: "missing_local", type: "int", label: "recon.outcome.missing_local", default: 0, min: 0, detail: true },
    { name: "missing_gateway", type: "int", label: "recon.outcome.missing_gateway", default: 0, min: 0, detail: true },
    { name: "amount_mismatch", type: "int", label: "recon.outcome.amount_mismatch", default: 0, min: 0, detail: true },
    { name: "status_mismatch", type: "int", label: "recon.outcome.status_mismatch", default: 0, min: 0, detail: true },
    { name: "open_items", type: "int", label: "recon.field.open_items", default: 0, min: 0, list: true, detail: true },
    { name: "bill_count", type: "int", label: "recon.field.bill_count", default: 0, min: 0, detail: true },
    { name: "bill_paid", type: "money", label: "recon.field.bill_paid", default: "0.00", list: true, detail: true },
    { name: "bill_refund", type: "money", label: "recon.field.bill_refund", default: "0.00", list: true, detail: true },
    { name: "bill_fee", type: "money", label: "recon.field.bill_fee", default: "0.00", list: true, detail: true },
    { name: "local_count", type: "int", label: "recon.field.local_count", default: 0, min: 0, detail: true },
    { name: "local_paid", type: "money", label: "recon.field.local_paid", default: "0.00", list: true, detail: true },
    { name: "local_refund", type: "money", label: "recon.field.local_refund", default: "0.00", list: true, detail: true },
    // whether the bill's summary line agrees with its own rows (a bill cut short or altered does not)
    { name: "summary_ok", type: "yesno", label: "recon.field.summary_ok", required: true, default: "Y", options: [{ value: "Y", label: "common.yes" }, { value: "N", label: "common.no" }], detail: true },
    { name: "error", type: "string", label: "recon.field.error", max: 200, detail: true },
    { name: "run_by", type: "string", label: "recon.field.run_by", max: 50, detail: true },
    { name: "run_at", type: "datetime", label: "recon.field.run_at", list: true, sortable: true, detail: true },
  ],
};

/** A match or a difference of a batch: one payment or refund, as the bill and as we have it. */
export const reconItemEntity: EntityDecl = {
  name: "reconitem",
  table: "recon_items",
  scope: "provider",
  title: "recon.entity.reconitem",
  titleField: "pay_no",
  // the latest day's first
  defaultSort: { field: "id", order: "desc" },
  stateField: "status",
  roles: { list: RECON_ROLES, info: RECON_ROLES },
  actions: [reconResolve],
  fields: [
    { name: "id", type: "int", label: "field.id", detail: true },
    { name: "batch_id", type: "ref", ref: { entity: "recon" }, label: "recon.entity.recon", required: true, filter: "eq", detail: true },
    // the batch's channel and day, kept on each item: the channel's page lists its items to resolve
    { name: "paychnl_id", type: "ref", ref: { entity: "paychnl" }, label: "recon.field.paychnl", required: true, filter: "eq", detail: true },
    { name: "bill_date", type: "date", label: "recon.field.bill_date", required: true, list: true, detail: true },
    { name: "kind", type: "enum", label: "recon.field.kind", required: true, options: reconItemKinds, list: true, filter: "eq", detail: true },
    { name: "pay_no", type: "string", label: "collection.field.pay_no", required: true, max: 32, list: true, filter: "eq", detail: true },
    { name: "refund_no", type: "string", label: "refunds.field.refund_no", max: 64, list: true, detail: true },
    { name: "outcome", type: "enum", label: "recon.field.outcome", required: true, options: reconOutcomes, list: true, filter: "eq", detail: true },
    { name: "status", type: "enum", label: "recon.field.item_status", required: true, default: "ok", options: reconItemStates, list: true, filter: "eq", detail: true },
    { name: "bill_amount", type: "money", label: "recon.field.bill_amount", list: true, detail: true },
    { name: "local_amount", type: "money", label: "recon.field.local_amount", list: true, detail: true },
    { name: "bill_state", type: "string", label: "recon.field.bill_state", max: 32, list: true, detail: true },
    { name: "local_state", type: "string", label: "recon.field.local_state", max: 32, list: true, detail: true },
    { name: "fee", type: "money", label: "recon.field.fee", detail: true },
    { name: "sch_id", type: "ref", ref: { entity: "school" }, label: "field.school", detail: true },
    { name: "trade_time", type: "string", label: "recon.field.trade_time", max: 19, detail: true },
    { name: "note", type: "string", label: "recon.field.note", max: 200, detail: true },
    { name: "resolved_by", type: "string", label: "recon.field.resolved_by", max: 50, detail: true },
    { name: "resolved_at", type: "datetime", label: "recon.field.resolved_at", detail: true },
  ],
};

export const reconciliation: CatalogueDomain = {
  entities: [reconEntity, reconItemEntity],
  pages: {},
};
