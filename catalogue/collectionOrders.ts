/**
 * Fee collection, the money in: the fee orders payers make from a school's payer page (read-only in the console,
 * with their lines and the timeline of their states) and the channel QR codes that open that page. Part of the
 * collection domain (catalogue/collection.ts binds the pages); the server side is server/domains/collection/
 * (feeOrders.ts, payerApi.ts, qrChannels.ts); labels in locales/<lang>/collection.json.
 */
import type { ActionDecl, EntityDecl, FieldDecl, FieldOption } from "../common/catalogue";
import { anyOf, PROVIDER_STAFF_ROLES, SCHOOL_ROLES } from "../common/roleKeys";
import { deliverFields, fulfilmentFields, fulfilmentStates, fulfilmentTimes } from "./fulfilment";
import { GOODS_MANAGERS } from "./goods";
import { schoolField, statusOptions, yesNo } from "./shared";

/** Who reads a school's fee orders: the v1 provider and school, the v2 provider, its staff and the v2 school. */
export const ORDER_READERS = anyOf(["school", "service"], ["servicev2"], PROVIDER_STAFF_ROLES, SCHOOL_ROLES);

/** Who reads a fee order's goods fulfilment: the second generation's readers, the only ones whose activities sell goods. */
const FULFILMENT_READERS = ORDER_READERS.filter((role) => role !== "school" && role !== "service");

export const orderStates: FieldOption[] = [
  { value: "unpaid", label: "collection.order_status.unpaid", tone: "warning" },
  { value: "paid", label: "collection.order_status.paid", tone: "success" },
  { value: "part_refunded", label: "collection.order_status.part_refunded", tone: "processing" },
  { value: "refunded", label: "collection.order_status.refunded", tone: "default" },
  { value: "closed", label: "collection.order_status.closed", tone: "default" },
];

/** The states of an order that was paid: it has a payment voucher whatever was refunded later. */
export const PAID_ORDER_STATES = ["paid", "part_refunded", "refunded"] as const;

export const orderGateways: FieldOption[] = [
  { value: "sandbox", label: "collection.gateway.sandbox" },
  { value: "wechatpay", label: "collection.gateway.wechatpay" },
];

/** What happened to an order, in its timeline. */
export const orderEventKinds: FieldOption[] = [
  { value: "created", label: "collection.order_event.created" },
  { value: "paid", label: "collection.order_event.paid" },
  { value: "duplicate", label: "collection.order_event.duplicate" },
  { value: "closed", label: "collection.order_event.closed" },
  { value: "refunded", label: "collection.order_event.refunded" },
  // its payment differed from a bill's amount now (the note: each bill, paid/owed)
  { value: "amount_differs", label: "collection.order_event.amount_differs" },
  // closed here only: its merchant was removed (the note: the merchant's number)
  { value: "merchant_gone", label: "collection.order_event.merchant_gone" },
  // its goods (activity items that are goods): sent by express (the note: company and number), received, collected
  // at a pickup point (the note: the point), or short of stock when paid after it closed (the note: the goods)
  { value: "delivered", label: "collection.order_event.delivered" },
  { value: "received", label: "collection.order_event.received" },
  { value: "collected", label: "collection.order_event.collected" },
  { value: "goods_short", label: "collection.order_event.goods_short" },
];

/** The states of the paid orders whose goods may be sent or collected: refunded in full, nothing is handed over. */
export const FULFILLABLE_ORDER_STATES = ["paid", "part_refunded"] as const;

/**
 * zdorderdeliver {id, express_code, tracking_no}: a paid fee order's goods handed to its express company, as a shop
 * order's are (shoporderdeliver); only an order carrying goods, by express, not yet sent.
 */
export const feeOrderDeliver: ActionDecl = {
  name: "zdorderdeliver",
  label: "retail.action.deliver",
  confirm: "retail.action.deliver_confirm",
  roles: GOODS_MANAGERS,
  from: [...FULFILLABLE_ORDER_STATES],
  onlyWhere: { delivery: ["express"], fulfil_status: ["undelivered"] },
  fields: deliverFields,
};

/** zdorderreceive {id}: a fee order's goods sent by express were received. */
export const feeOrderReceive: ActionDecl = {
  name: "zdorderreceive",
  label: "retail.action.receive",
  confirm: "retail.action.receive_confirm",
  roles: GOODS_MANAGERS,
  from: [...FULFILLABLE_ORDER_STATES],
  onlyWhere: { fulfil_status: ["delivered"] },
};

/** a refund's reason as the gateway takes it: WeChat Pay allows 80 bytes, which 26 Chinese characters fill */
export const REFUND_REASON_MAX = 26;
/** the most one refund may be, in yuan: far above any order, a bound on what a client may send */
const MAX_REFUND_YUAN = 100_000_000;

/**
 * What a refund of an order asks: the amount, started at what the order paid less what its refunds gave back (the
 * server checks it against what they hold back), and the reason the payer reads at the gateway.
 */
export const refundRequestFields: FieldDecl[] = [
  { name: "amount", type: "money", label: "refunds.field.amount", required: true, min: 0.01, max: MAX_REFUND_YUAN, prefill: { field: "amount", less: "refunded_amount" } },
  { name: "reason", type: "string", label: "refunds.field.reason", required: true, max: REFUND_REASON_MAX },
];

/**
 * refundadd {order_id, amount, reason}: on a paid order's row, record page or a selection, a refund of it
 * (catalogue/collectionRefunds.ts). The provider's refund is accepted at once; a school's or the staff's waits for
 * the provider's decision.
 */
export const refundAdd: ActionDecl = {
  name: "refundadd",
  label: "refunds.add",
  confirm: "refunds.add_confirm",
  roles: ORDER_READERS,
  from: ["paid", "part_refunded"],
  idField: "order_id",
  creates: "refund",
  bulk: true,
  fields: refundRequestFields,
};

/** A bill an order pays: a child record written with the order, never edited. */
export const orderLineEntity: EntityDecl = {
  name: "orderline",
  table: "fee_order_lines",
  scope: "school",
  title: "collection.entity.orderline",
  titleField: "title",
  defaultSort: { field: "sort", order: "asc" },
  // reached only through its order
  roles: {},
  fields: [
    { name: "id", type: "int", label: "field.id" },
    { name: "order_id", type: "ref", ref: { entity: "order" }, label: "collection.entity.order", required: true },
    { name: "sort", type: "int", label: "field.sort", default: 0, min: 0, max: 9999 },
    // the other orders holding a bill are found by it (sibling orders, closed once the bill is paid)
    { name: "bill_id", type: "ref", ref: { entity: "bill" }, label: "collection.entity.bill", required: true, filter: "eq", form: true },
    { name: "title", type: "string", label: "collection.field.line_title", required: true, max: 200, form: true },
    { name: "amount", type: "money", label: "collection.field.line_amount", required: true, min: 0, form: true },
    // "Y": the order paid this line's bill; "N": another order had paid it first (a duplicate payment's line)
    { name: "settled", type: "yesno", label: "collection.field.line_settled", required: true, default: "N", options: yesNo },
    // what the order's refunds gave back of this line (duplicate lines first, then in line order)
    { name: "refunded_amount", type: "money", label: "collection.field.refunded_amount", default: "0.00" },
  ],
};

/**
 * A goods item a fee order carries: an item of its bill's activity that names goods (a uniform), in the size (SKU)
 * the payer chose, as it was then (title and specs: never the live goods row). Its stock was taken when the order was
 * made, and given back if it closed unpaid. A child record written with the order, never edited.
 */
export const orderGoodsEntity: EntityDecl = {
  name: "ordergoods",
  table: "fee_order_goods",
  scope: "school",
  title: "collection.entity.ordergoods",
  titleField: "title",
  defaultSort: { field: "sort", order: "asc" },
  roles: {},
  fields: [
    { name: "id", type: "int", label: "field.id" },
    { name: "order_id", type: "ref", ref: { entity: "order" }, label: "collection.entity.order", required: true },
    { name: "sort", type: "int", label: "field.sort", default: 0, min: 0, max: 9999 },
    { name: "bill_id", type: "ref", ref: { entity: "bill" }, label: "collection.entity.bill", required: true },
    { name: "goods_id", type: "ref", ref: { entity: "goods" }, label: "retail.entity.goods", required: true },
    { name: "sku_id", type: "ref", ref: { entity: "goodssku" }, label: "retail.entity.goodssku", required: true },
    { name: "title", type: "string", label: "retail.field.goods_title", required: true, max: 60, form: true },
    { name: "spec_values", type: "specs", label: "retail.field.spec_values", required: true, max: 20, form: true },
    { name: "image", type: "image", label: "retail.field.sku_image", form: true },
    { name: "qty", type: "int", label: "retail.field.qty", required: true, min: 1, max: 99, form: true },
  ],
};

/** A change of an order's state (its timeline): a child record written by the payment code, never edited. */
export const orderEventEntity: EntityDecl = {
  name: "orderevent",
  table: "fee_order_events",
  scope: "school",
  title: "collection.entity.orderevent",
  titleField: "event",
  defaultSort: { field: "sort", order: "asc" },
  roles: {},
  fields: [
    { name: "id", type: "int", label: "field.id" },
    { name: "order_id", type: "ref", ref: { entity: "order" }, label: "collection.entity.order", required: true },
    { name: "sort", type: "int", label: "field.sort", default: 0, min: 0, max: 9999 },
    { name: "at", type: "datetime", label: "collection.field.event_at", required: true, form: true },
    { name: "event", type: "enum", label: "collection.field.event", required: true, options: orderEventKinds, form: true },
    { name: "note", type: "string", label: "collection.field.event_note", max: 200, form: true },
  ],
};

/**
 * A payer's fee order (orderlist / orderinfo, v1 and v2): the bills it pays (lines), its payment at the school's
 * channel and its timeline. Read-only: orders are made by payers (server/domains/collection/payerApi.ts) and moved
 * by payments (applyPaidOrder) and the closing job. `duplicate` "Y": it paid a bill another order had paid (two
 * payers at once), to be refunded.
 */
export const orderEntity: EntityDecl = {
  name: "order",
  table: "fee_orders",
  scope: "school",
  title: "collection.entity.order",
  titleField: "order_no",
  defaultSort: { field: "id", order: "desc" },
  stateField: "status",
  summary: ["amount"],
  // the amount alone counts the orders closed unpaid too: the money received is the paid orders', refunded since or not
  summaryInStates: [{ name: "paid_amount", field: "amount", states: PAID_ORDER_STATES, label: "collection.field.received_amount" }],
  indexes: [
    // a school's orders in one state, newest first, read from this index; the tabs' counts and the summary's sum
    // from the state totals the database keeps per school and state
    ["sch_id", "status", "id", "sysid", "amount"],
    // the orders paying bills of several activities (few), which the activity filter looks into
    ["activity_count", "sch_id", "sysid", "id"],
  ],
  // and per day of payment: a range of days' tabs, sums and page read from the days' totals and a page's rows a day
  stateTotals: { days: "paid_at" },
  exportOperation: "orderexport",
  roles: { list: ORDER_READERS, info: ORDER_READERS },
  actions: [refundAdd, feeOrderDeliver, feeOrderReceive],
  related: [
    { entity: "refund", field: "order_id", label: "refunds.related" },
    // its receipts on the provider's printers, by its number
    { entity: "printjob", field: "order_no", key: "order_no", label: "devices.related.order_jobs" },
  ],
  children: [
    { name: "lines", entity: "orderline", parentField: "order_id", label: "collection.field.lines", max: 50 },
    // the goods its bills' activity items name, each in the size the payer chose (none for most orders)
    { name: "goods", entity: "ordergoods", parentField: "order_id", label: "collection.field.order_goods", max: 20 },
    { name: "events", entity: "orderevent", parentField: "order_id", label: "collection.field.timeline", max: 50 },
  ],
  fields: [
    { name: "id", type: "int", label: "field.id", sortable: true, detail: true },
    { name: "order_no", type: "string", label: "collection.field.order_no", required: true, max: 32, unique: true, list: true, filter: "eq", detail: true },
    { name: "pay_no", type: "string", label: "collection.field.pay_no", required: true, max: 32, unique: true, filter: "eq", detail: true },
    schoolField,
    // named with their number, and searched by their name or number (the school and the staff pick no student)
    { name: "student_id", type: "ref", ref: { entity: "student" }, label: "collection.field.student", required: true, list: true, filter: "like", detail: true },
    { name: "class_id", type: "ref", ref: { entity: "classes" }, label: "field.classes", required: true, list: true, detail: true },
    // the activity of its first line's bill; an order paying bills of several activities is named by it and their
    // count ("春季学期收费 等 2 项"), and the activity filter finds it by any of its lines' (server/domains/collection)
    { name: "activity_id", type: "ref", ref: { entity: "activity", countField: "activity_count" }, label: "collection.field.activity", list: true, filter: "eq", detail: true },
    { name: "activity_count", type: "int", label: "collection.field.activity_count", required: true, default: 1, min: 1 },
    { name: "amount", type: "money", label: "collection.field.order_amount", required: true, list: true, sortable: true, detail: true },
    { name: "status", type: "enum", label: "collection.field.order_status", required: true, default: "unpaid", options: orderStates, list: true, filter: "eq", detail: true },
    { name: "paid_at", type: "datetime", label: "collection.field.paid_at", list: true, filter: "range", sortable: true, detail: true },
    { name: "gateway", type: "enum", label: "collection.field.gateway", required: true, options: orderGateways, detail: true },
    // the school's channel when the order was made, which takes its payment; none for orders older than the field
    { name: "paychnl_id", type: "ref", ref: { entity: "paychnl" }, label: "recon.field.paychnl", detail: true },
    { name: "transaction_id", type: "string", label: "collection.field.transaction_id", max: 64, filter: "eq", detail: true },
    // the payment voucher's number, given when the order is paid: per school and calendar year, never reused
    { name: "receipt_no", type: "string", label: "collection.field.receipt_no", max: 20, unique: "tenant", list: true, filter: "eq", detail: true },
    { name: "refunded_amount", type: "money", label: "collection.field.refunded_amount", default: "0.00", detail: true },
    { name: "duplicate", type: "yesno", label: "collection.field.duplicate", required: true, default: "N", options: yesNo, list: true, filter: "eq", detail: true },
    { name: "created_at", type: "datetime", label: "field.created_at", list: true, sortable: true, detail: true },
    // its goods' fulfilment (catalogue/fulfilment.ts), as a shop order's: none for an order of fees alone; once paid,
    // undelivered until sent or collected
    { name: "fulfil_status", type: "enum", label: "retail.field.fulfil_status", options: fulfilmentStates, list: true, filter: "eq", detail: true, roles: FULFILMENT_READERS },
    // how, where and by whom: detail only, the list shows the state (and filters by it); the pickup code and its
    // token never leave the server but to the payer (the school and the staff read these orders, and must not be
    // able to hand a code to a clerk)
    ...fulfilmentFields({ deliveryRequired: false, codesSecret: true }).map(({ list: _list, filter: _filter, ...field }) => ({ ...field, roles: FULFILMENT_READERS })),
    ...fulfilmentTimes.map((field) => ({ ...field, roles: FULFILMENT_READERS })),
  ],
};

/**
 * A channel QR code (qrchnllist, v2 provider): printed for a school (one activity, or every open one), it opens the
 * payer page `{PUBLIC_URL}/h5/{code}`. The code is made by the server (128 random bits, url-safe), never typed.
 */
export const qrChannelEntity: EntityDecl = {
  name: "qrchnl",
  table: "qr_channels",
  scope: "school",
  title: "collection.entity.qrchnl",
  titleField: "title",
  defaultSort: { field: "id", order: "desc" },
  roles: { list: ["servicev2"], info: ["servicev2"], add: ["servicev2"], edit: ["servicev2"], del: ["servicev2"] },
  // an A4 poster of the code to print or download
  recordTools: ["qrposter"],
  fields: [
    { name: "id", type: "int", label: "field.id", sortable: true, detail: true },
    { name: "title", type: "string", label: "collection.field.qrchnl_title", required: true, max: 100, list: true, filter: "like", form: true, detail: true },
    schoolField,
    // none: every open activity of the school
    { name: "activity_id", type: "ref", ref: { entity: "activity" }, label: "collection.field.qrchnl_activity", list: true, filter: "eq", form: true, detail: true },
    { name: "status", type: "status", label: "field.status", required: true, default: "1", options: statusOptions, list: true, filter: "eq", form: true, detail: true },
    { name: "code", type: "string", label: "collection.field.qrchnl_code", required: true, max: 64, unique: true, detail: true },
    { name: "url", type: "string", label: "collection.field.qrchnl_url", required: true, max: 500, list: true, detail: true },
    { name: "created_at", type: "datetime", label: "field.created_at", list: true, sortable: true, detail: true },
  ],
};
