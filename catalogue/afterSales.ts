/**
 * After-sales of the shop's orders (/shop saleslist, shopordersalesinfo, pickuprecsalesinfo; servicev2, and the
 * pickup clerk for the orders of its points): a payer asks for money back on one item of a paid order from the payer
 * page, with the goods returned or not (`way`); the provider agrees or refuses, receives the returned goods or refuses
 * them; the money goes back through the refund path of every payment kind (server/payments/refunds.ts), retried
 * under the same refund number until the gateway ends it, and the stock comes back only where the recorded decision
 * (`restock`) says so, once. The server side is server/domains/retail/afterSales.ts; labels in
 * locales/<lang>/aftersales.json.
 *
 *   applied -> agreed (goods to return) -> returning (sent back) -> received (refund asked) -> completed (refunded)
 *   applied -> refunding (money only, refund asked) -> completed (refunded)
 *   applied -> refused;  returning -> refused_receipt;  applied | agreed | returning -> cancelled (by the payer)
 */
import type { ActionDecl, CatalogueDomain, EntityDecl, FieldDecl, FieldOption, ListPart } from "../common/catalogue";
import { expressCodeField, trackingNoField } from "./fulfilment";
import { GOODS_MANAGERS } from "./goods";
import { anyOf, PICKUP_ROLES } from "../common/roleKeys";
import { schoolField, yesNo } from "./shared";

export const afterSaleStates: FieldOption[] = [
  { value: "applied", label: "aftersales.status.applied", tone: "warning", hint: "aftersales.hint.applied" },
  { value: "agreed", label: "aftersales.status.agreed", tone: "processing", hint: "aftersales.hint.agreed" },
  { value: "returning", label: "aftersales.status.returning", tone: "warning", hint: "aftersales.hint.returning" },
  // the goods back, the refund asked at once: waiting for it, as a refund without return waits in refunding
  { value: "received", label: "aftersales.status.received", tone: "processing", hint: "aftersales.hint.refunding" },
  { value: "refunding", label: "aftersales.status.refunding", tone: "processing", hint: "aftersales.hint.refunding" },
  { value: "completed", label: "aftersales.status.completed", tone: "success" },
  { value: "refused", label: "aftersales.status.refused", tone: "default" },
  { value: "refused_receipt", label: "aftersales.status.refused_receipt", tone: "default" },
  { value: "cancelled", label: "aftersales.status.cancelled", tone: "default" },
];

/** The states of an after-sale still open: its order's pickup waits, and its item takes no other. */
export const OPEN_AFTERSALE_STATES = ["applied", "agreed", "returning", "received", "refunding"] as const;

/** The states waiting for their refund (asked of the gateway): retried until it ends. */
export const REFUNDING_AFTERSALE_STATES = ["received", "refunding"] as const;

/** The states whose amount and quantity count against the item: open, or done. */
export const COUNTED_AFTERSALE_STATES = [...OPEN_AFTERSALE_STATES, "completed"] as const;

export const afterSaleWays: FieldOption[] = [
  { value: "refund", label: "aftersales.way.refund" },
  { value: "return_refund", label: "aftersales.way.return_refund" },
];

/** the longest reason, description, and decision's reason (characters) */
export const AFTERSALE_REASON_MAX = 60;
export const AFTERSALE_DESCRIPTION_MAX = 500;

const reasonField = (requiredFor: string): FieldDecl => ({
  name: "reason",
  type: "string",
  label: "aftersales.field.decision_reason",
  max: AFTERSALE_REASON_MAX,
  requiredWhen: { field: "result", value: requiredFor },
});

const restockField: FieldDecl = {
  name: "restock",
  type: "yesno",
  label: "aftersales.field.restock",
  options: yesNo,
};

/**
 * aftersalereview {id, result, reason, restock}: the provider agrees (money only: refunded at once; with a return:
 * the payer sends the goods back) or refuses with a reason. Whether the stock comes back is decided here or on receipt.
 */
export const afterSaleReview: ActionDecl = {
  name: "aftersalereview",
  label: "aftersales.action.review",
  confirm: "aftersales.action.review_confirm",
  roles: GOODS_MANAGERS,
  from: ["applied"],
  to: ["agreed", "refunding", "refused"],
  waiting: "aftersales",
  fields: [
    {
      name: "result",
      type: "enum",
      label: "aftersales.field.result",
      required: true,
      options: [
        { value: "agree", label: "aftersales.result.agree" },
        { value: "refuse", label: "aftersales.result.refuse" },
      ],
    },
    reasonField("refuse"),
    restockField,
  ],
};

/** aftersalereceive {id, result, reason, restock}: the returned goods received (then refunded at once), or refused with a reason. */
export const afterSaleReceive: ActionDecl = {
  name: "aftersalereceive",
  label: "aftersales.action.receive",
  confirm: "aftersales.action.receive_confirm",
  roles: GOODS_MANAGERS,
  from: ["returning"],
  to: ["received", "refused_receipt"],
  result: { field: "result", to: { receive: "received", refuse: "refused_receipt" } },
  waiting: "aftersales",
  fields: [
    {
      name: "result",
      type: "enum",
      label: "aftersales.field.receive_result",
      required: true,
      options: [
        { value: "receive", label: "aftersales.result.receive" },
        { value: "refuse", label: "aftersales.result.refuse_receipt" },
      ],
    },
    reasonField("refuse"),
    restockField,
  ],
};

/**
 * aftersaleretry {id}: the refund asked of the gateway again now, under its number, where the job would ask within
 * the minute; one the gateway closed is asked anew, under the next number.
 */
export const afterSaleRetry: ActionDecl = {
  name: "aftersaleretry",
  label: "aftersales.action.retry",
  confirm: "aftersales.action.retry_confirm",
  roles: GOODS_MANAGERS,
  from: [...REFUNDING_AFTERSALE_STATES],
  refreshes: ["refund"],
};

/** An after-sale of one item of a shop order: asked on the payer page, moved by the provider's decisions and its refund. */
export const afterSaleEntity: EntityDecl = {
  name: "aftersale",
  table: "aftersales",
  scope: "school",
  // the after-sale of an order collected at a pickup point belongs to that point too: its clerks read those
  tenantColumns: { pickupPoint: "pickup_point_id" },
  title: "aftersales.entity.aftersale",
  titleField: "aftersale_no",
  defaultSort: { field: "id", order: "desc" },
  stateField: "status",
  summary: ["amount"],
  // the after-sales of one item, read under its order's lock when another is asked
  indexes: [["item_id"]],
  roles: { list: anyOf(GOODS_MANAGERS, PICKUP_ROLES), info: anyOf(GOODS_MANAGERS, PICKUP_ROLES) },
  actions: [afterSaleReview, afterSaleReceive, afterSaleRetry],
  related: [{ entity: "refund", field: "aftersale_id", label: "aftersales.related_refunds" }],
  timeline: Object.fromEntries(
    ["aftersale_applied", "aftersalereview", "aftersale_returned", "aftersalereceive", "aftersaleretry", "aftersale_refunded", "aftersale_restocked", "aftersale_cancelled"].map((event) => [event, `aftersales.timeline.${event}`]),
  ),
  fields: [
    { name: "id", type: "int", label: "field.id", sortable: true, detail: true },
    { name: "aftersale_no", type: "string", label: "aftersales.field.aftersale_no", required: true, max: 32, unique: true, list: true, filter: "eq", detail: true },
    { name: "order_id", type: "ref", ref: { entity: "shoporder" }, label: "retail.entity.shoporder", required: true, list: true, filter: "eq", detail: true },
    { name: "item_id", type: "ref", ref: { entity: "shoporderitem" }, label: "aftersales.field.item", required: true, detail: true },
    schoolField,
    { name: "student_id", type: "ref", ref: { entity: "student" }, label: "collection.field.student", required: true, list: true, filter: "eq", detail: true },
    { name: "pickup_point_id", type: "ref", ref: { entity: "pickuppoint" }, label: "retail.entity.pickuppoint", filter: "eq", detail: true },
    // the clerk who handed the order over, as the pickup record names them
    { name: "handed_over_by", type: "string", label: "aftersales.field.handed_over_by", max: 50, detail: true },
    { name: "way", type: "enum", label: "aftersales.field.way", required: true, options: afterSaleWays, list: true, filter: "eq", detail: true },
    // the item as bought, for reading before deciding
    { name: "title", type: "string", label: "retail.field.goods_title", required: true, max: 60, list: true, detail: true },
    { name: "spec_values", type: "specs", label: "retail.field.spec_values", required: true, max: 20, detail: true },
    { name: "qty", type: "int", label: "retail.field.qty", required: true, min: 1, max: 99, list: true, detail: true },
    { name: "amount", type: "money", label: "aftersales.field.amount", required: true, min: 0, list: true, sortable: true, detail: true },
    { name: "reason", type: "string", label: "aftersales.field.reason", required: true, max: AFTERSALE_REASON_MAX, list: true, detail: true },
    { name: "description", type: "text", label: "aftersales.field.description", max: AFTERSALE_DESCRIPTION_MAX, detail: true },
    { name: "images", type: "images", label: "aftersales.field.images", max: 9, detail: true },
    { name: "status", type: "enum", label: "aftersales.field.status", required: true, default: "applied", options: afterSaleStates, list: true, filter: "eq", detail: true },
    // whether the item's stock comes back, as decided on agreeing or receiving; when it came back (once)
    { ...restockField, list: true, detail: true },
    { name: "restocked_at", type: "datetime", label: "aftersales.field.restocked_at", detail: true },
    { ...expressCodeField, required: false, detail: true },
    { ...trackingNoField, required: false, filter: "eq", detail: true },
    { name: "review_reason", type: "string", label: "aftersales.field.review_reason", max: AFTERSALE_REASON_MAX, detail: true },
    { name: "reviewed_by", type: "string", label: "aftersales.field.reviewed_by", max: 50, detail: true },
    { name: "receive_reason", type: "string", label: "aftersales.field.receive_reason", max: AFTERSALE_REASON_MAX, detail: true },
    { name: "received_by", type: "string", label: "aftersales.field.received_by", max: 50, detail: true },
    { name: "created_at", type: "datetime", label: "aftersales.field.applied_at", list: true, filter: "range", sortable: true, detail: true },
    { name: "reviewed_at", type: "datetime", label: "aftersales.field.reviewed_at", detail: true },
    { name: "returned_at", type: "datetime", label: "aftersales.field.returned_at", detail: true },
    { name: "received_at", type: "datetime", label: "aftersales.field.received_at", detail: true },
    { name: "completed_at", type: "datetime", label: "aftersales.field.completed_at", detail: true },
  ],
};

/**
 * The after-sales list (saleslist, in /shop and in /order): what payers ask back, the shop's after-sales and the fee
 * orders' refund requests (refunds someone asked for: a duplicate payment's make themselves, the shop's go through
 * after-sales), each with its states' tabs, its amount, reason and who asked, and its decision on its row.
 */
const salesListParts: ListPart[] = [
  { key: "aftersales", title: "aftersales.part.aftersales", entity: "aftersale", columns: ["aftersale_no", "student_id", "way", "title", "qty", "amount", "reason", "status"] },
  {
    key: "refunds",
    title: "aftersales.part.refunds",
    entity: "refund",
    filters: { payment_kind: "fee", kind: "request" },
    // a fee order's refund has no shop order nor after-sale
    without: ["shop_order_id", "aftersale_id"],
    // a request has no refund number yet: its order first
    columns: ["order_id", "student_id", "amount", "reason", "applied_by", "status"],
  },
];

export const afterSales: CatalogueDomain = {
  entities: [afterSaleEntity],
  pages: {
    // one page from either group, opening on the group's own: the shop's after-sales, the fee orders' refund requests
    "shop/saleslist": { kind: "lists", parts: salesListParts, first: "aftersales" },
    "order/saleslist": { kind: "lists", parts: salesListParts, first: "refunds" },
    shopordersalesinfo: { kind: "info", entity: "aftersale" },
    // the same record read from a pickup record by its clerk (a page of its own: one info page a list)
    pickuprecsalesinfo: { kind: "info", entity: "aftersale", view: "pickup" },
  },
};
