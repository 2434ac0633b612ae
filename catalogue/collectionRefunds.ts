/**
 * Fee collection, the money out: refunds of paid fee orders through the gateway that took them. A provider refunds
 * (its request is accepted at once); a school or the provider's staff asks, and the provider approves or rejects
 * (on the after-sales list, saleslist: catalogue/afterSales.ts). An accepted refund gets its refund number (the
 * gateway's out_refund_no, fixed then and used for every retry) and is sent by a job; the gateway's notification or
 * a query takes it to its end. A duplicate payment (two payers paying one bill) is refunded by itself. The server
 * side is server/domains/collection/refunds.ts; labels in locales/<lang>/refunds.json.
 */
import type { ActionDecl, CatalogueDomain, EntityDecl, FieldOption } from "../common/catalogue";
import { PROVIDER_ROLES } from "../common/roleKeys";
import { ORDER_READERS, orderGateways, REFUND_REASON_MAX } from "./collectionOrders";
import { schoolField } from "./shared";

/** refunds an order may have at most, rejected requests apart (WeChat Pay's limit) */
export const MAX_REFUNDS_PER_ORDER = 50;

export const refundStates: FieldOption[] = [
  { value: "applied", label: "refunds.status.applied", tone: "warning", hint: "refunds.hint.applied" },
  { value: "rejected", label: "refunds.status.rejected", tone: "default" },
  { value: "processing", label: "refunds.status.processing", tone: "processing", hint: "refunds.hint.processing" },
  { value: "success", label: "refunds.status.success", tone: "success" },
  { value: "closed", label: "refunds.status.closed", tone: "default", hint: "refunds.hint.closed" },
  { value: "abnormal", label: "refunds.status.abnormal", tone: "error", hint: "refunds.hint.abnormal" },
];

/** The states of a refund that hold money back from the order: accepted, or waiting for a decision. */
export const COMMITTED_REFUND_STATES = ["applied", "processing", "success", "abnormal"] as const;

/** Why a refund was made: someone asked for it, or the order paid a bill another order had paid. */
export const refundKinds: FieldOption[] = [
  { value: "request", label: "refunds.kind.request" },
  { value: "duplicate", label: "refunds.kind.duplicate" },
  // paid after its order closed, when what it bought was no longer there: the payment goes back whole
  { value: "unavailable", label: "refunds.kind.unavailable" },
  // an after-sale of one of a shop order's items, agreed (money only) or its goods received back
  { value: "aftersale", label: "refunds.kind.aftersale" },
];

/** refundreview {id, result, reason}: the provider approves a request (it is then sent) or rejects it. */
export const refundReview: ActionDecl = {
  name: "refundreview",
  label: "refunds.review",
  confirm: "refunds.review_confirm",
  roles: PROVIDER_ROLES,
  from: ["applied"],
  to: ["processing", "rejected"],
  result: { field: "result", to: { approve: "processing", reject: "rejected" } },
  bulk: true,
  // a request waits for its provider: counted on its menu entry and home page
  waiting: "refunds",
  // the order's paid and refunded amounts beside the amount asked, its reason and who asked
  context: "refundreview",
  fields: [
    {
      name: "result",
      type: "enum",
      label: "refunds.field.result",
      required: true,
      options: [
        { value: "approve", label: "refunds.result.approve" },
        { value: "reject", label: "refunds.result.reject" },
      ],
    },
    { name: "reason", type: "string", label: "refunds.field.review_reason", max: REFUND_REASON_MAX, requiredWhen: { field: "result", value: "reject" } },
  ],
};

/** What a refund gives money back for: the payment kind of its payment order (server/payments/kinds.ts). */
export const refundPaymentKinds: FieldOption[] = [
  { value: "fee", label: "refunds.payment_kind.fee" },
  { value: "shop_order", label: "refunds.payment_kind.shop_order" },
];

/**
 * A refund of a payment order of any kind (refundlist / refundinfo): read-only, moved by its actions, its job and
 * the gateway. It names its payment (`pay_no`) and, by the column of its kind, the kind's own order.
 */
export const refundEntity: EntityDecl = {
  name: "refund",
  table: "refunds",
  scope: "school",
  title: "refunds.entity.refund",
  // a request has no number yet: a refund is named by its order
  titleField: "order_id",
  defaultSort: { field: "id", order: "desc" },
  stateField: "status",
  summary: ["amount"],
  exportOperation: "refundexport",
  // reconciliation: the refunds the gateway took on a day
  indexes: [["submitted_at"]],
  roles: { list: ORDER_READERS, info: ORDER_READERS },
  actions: [refundReview],
  // asked or made, decided, sent, and ended by the gateway
  timeline: Object.fromEntries(["refund_created", "refundreview", "refund_sent", "refund_success", "refund_closed", "refund_abnormal"].map((event) => [event, `refunds.timeline.${event}`])),
  fields: [
    { name: "id", type: "int", label: "field.id", sortable: true, detail: true },
    // given when the refund is accepted, never changed: every retry at the gateway names it
    { name: "refund_no", type: "string", label: "refunds.field.refund_no", max: 64, unique: true, list: true, filter: "eq", detail: true },
    { name: "payment_kind", type: "enum", label: "refunds.field.payment_kind", required: true, default: "fee", options: refundPaymentKinds, filter: "eq", detail: true },
    { name: "pay_no", type: "string", label: "collection.field.pay_no", required: true, max: 32, filter: "eq", detail: true },
    // the fee order refunded, for a refund of a fee
    { name: "order_id", type: "ref", ref: { entity: "order" }, label: "refunds.field.order", list: true, filter: "eq", detail: true },
    // the shop order refunded, for a refund of a shop order
    { name: "shop_order_id", type: "ref", ref: { entity: "shoporder" }, label: "retail.entity.shoporder", filter: "eq", detail: true },
    // the after-sale of one of its items it gives the money back for (catalogue/afterSales.ts)
    { name: "aftersale_id", type: "ref", ref: { entity: "aftersale" }, label: "aftersales.entity.aftersale", filter: "eq", detail: true },
    schoolField,
    { name: "student_id", type: "ref", ref: { entity: "student" }, label: "collection.field.student", required: true, list: true, filter: "eq", detail: true },
    { name: "amount", type: "money", label: "refunds.field.amount", required: true, list: true, sortable: true, detail: true },
    { name: "reason", type: "string", label: "refunds.field.reason", required: true, max: REFUND_REASON_MAX, list: true, detail: true },
    { name: "status", type: "enum", label: "refunds.field.status", required: true, default: "applied", options: refundStates, list: true, filter: "eq", detail: true },
    { name: "kind", type: "enum", label: "refunds.field.kind", required: true, default: "request", options: refundKinds, list: true, filter: "eq", detail: true },
    { name: "applied_by", type: "string", label: "refunds.field.applied_by", required: true, max: 50, list: true, detail: true },
    { name: "reviewed_by", type: "string", label: "refunds.field.reviewed_by", max: 50, detail: true },
    { name: "review_reason", type: "string", label: "refunds.field.review_reason", max: REFUND_REASON_MAX, detail: true },
    { name: "gateway", type: "enum", label: "collection.field.gateway", required: true, options: orderGateways, detail: true },
    { name: "refund_id", type: "string", label: "refunds.field.refund_id", max: 64, detail: true },
    // where the money went back: "招商银行信用卡0403", "支付用户零钱"
    { name: "user_received_account", type: "string", label: "refunds.field.user_received_account", max: 64, list: true, detail: true },
    { name: "success_time", type: "datetime", label: "refunds.field.success_time", list: true, filter: "range", sortable: true, detail: true },
    // when the gateway took the request; none yet: the job sends it (again, under the same number)
    { name: "submitted_at", type: "datetime", label: "refunds.field.submitted_at", detail: true },
    { name: "attempts", type: "int", label: "refunds.field.attempts", default: 0, min: 0, detail: true },
    { name: "last_error", type: "string", label: "refunds.field.last_error", max: 200, detail: true },
    { name: "created_at", type: "datetime", label: "field.created_at", list: true, filter: "range", sortable: true, detail: true },
  ],
};

export const refunds: CatalogueDomain = {
  entities: [refundEntity],
  pages: {
    // every refund, with its number, amount, state and times
    refundrecord: { kind: "list", entity: "refund" },
  },
};
