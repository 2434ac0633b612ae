/**
 * Shop orders (/shop orderlist, shoporderinfo; servicev2): what a payer bought in the school shop of the payer page
 * (server/domains/retail/shop.ts), paid through the school's channel as payment kind `shop_order`. Each order keeps
 * its items as they were bought (title, specs, price: never the live goods row), goes unpaid -> undelivered (paid)
 * -> delivered (sent by express) or completed (collected at its pickup point), or cancelled (closed unpaid, or
 * refunded in full), and is refunded through the refund path of every payment kind (server/payments/refunds.ts).
 * Labels in locales/<lang>/retail.json.
 */
import type { ActionDecl, CatalogueDomain, EntityDecl, FieldOption } from "../common/catalogue";
import { orderGateways, refundRequestFields } from "./collectionOrders";
import { deliverFields, fulfilmentFields, fulfilmentStates, fulfilmentTimes } from "./fulfilment";
import { GOODS_MANAGERS } from "./goods";
import { schoolField } from "./shared";

export const shopOrderStates: FieldOption[] = [
  { value: "unpaid", label: "retail.order_status.unpaid", tone: "warning" },
  // paid: its fulfilment's states, as every order carrying goods has them (catalogue/fulfilment.ts)
  ...fulfilmentStates,
  { value: "cancelled", label: "retail.order_status.cancelled", tone: "default" },
];

/** the states of an order paid for and not refunded in full (then it is cancelled, its `paid_at` still set) */
export const PAID_SHOP_ORDER_STATES = ["undelivered", "delivered", "completed"] as const;

export const shopRefundStates: FieldOption[] = [
  { value: "none", label: "retail.refund_status.none" },
  { value: "part", label: "retail.refund_status.part", tone: "warning" },
  { value: "all", label: "retail.refund_status.all", tone: "default" },
];

/** shoporderdeliver {id, express_code, tracking_no}: a paid express order handed to its express company. */
export const shopOrderDeliver: ActionDecl = {
  name: "shoporderdeliver",
  label: "retail.action.deliver",
  confirm: "retail.action.deliver_confirm",
  roles: GOODS_MANAGERS,
  from: ["undelivered"],
  onlyWhere: { delivery: ["express"] },
  to: "delivered",
  fields: deliverFields,
};

/** shoporderreceive {id}: a delivered order received (the payer said so); a job completes the others after some days. */
export const shopOrderReceive: ActionDecl = {
  name: "shoporderreceive",
  label: "retail.action.receive",
  confirm: "retail.action.receive_confirm",
  roles: GOODS_MANAGERS,
  from: ["delivered"],
  to: "completed",
};

/** shopordercancel {id}: an unpaid order closed at its gateway and here, its stock given back (domain: the gateway is asked). */
export const shopOrderCancel: ActionDecl = {
  name: "shopordercancel",
  label: "retail.action.cancel",
  confirm: "retail.action.cancel_confirm",
  roles: GOODS_MANAGERS,
  from: ["unpaid"],
  to: "cancelled",
  danger: true,
  implementedBy: "domain",
};

/** shoporderrefund {id, amount, reason}: the provider gives money of a paid order back, through its payment's gateway. */
export const shopOrderRefund: ActionDecl = {
  name: "shoporderrefund",
  label: "retail.action.refund",
  confirm: "retail.action.refund_confirm",
  roles: GOODS_MANAGERS,
  from: [...PAID_SHOP_ORDER_STATES],
  creates: "refund",
  fields: refundRequestFields,
};

/** An item of a shop order, as it was bought: the SKU's title, specs and price then, and how many. */
export const shopOrderItemEntity: EntityDecl = {
  name: "shoporderitem",
  table: "shop_order_items",
  scope: "school",
  title: "retail.entity.shoporderitem",
  titleField: "title",
  defaultSort: { field: "sort", order: "asc" },
  roles: {},
  fields: [
    { name: "id", type: "int", label: "field.id" },
    { name: "order_id", type: "ref", ref: { entity: "shoporder" }, label: "retail.entity.shoporder", required: true },
    { name: "sort", type: "int", label: "field.sort", default: 0, min: 0, max: 9999 },
    { name: "goods_id", type: "ref", ref: { entity: "goods" }, label: "retail.entity.goods", required: true },
    { name: "sku_id", type: "ref", ref: { entity: "goodssku" }, label: "retail.entity.goodssku", required: true },
    { name: "title", type: "string", label: "retail.field.goods_title", required: true, max: 60, form: true },
    { name: "spec_values", type: "specs", label: "retail.field.spec_values", required: true, max: 20, form: true },
    { name: "image", type: "image", label: "retail.field.sku_image", form: true },
    { name: "price", type: "money", label: "retail.field.price", required: true, min: 0, form: true },
    { name: "qty", type: "int", label: "retail.field.qty", required: true, min: 1, max: 99, form: true },
    { name: "amount", type: "money", label: "retail.field.item_amount", required: true, min: 0, form: true },
  ],
};

/** A payer's shop order (read-only in the console: made on the payer page, moved by its payment and its actions). */
export const shopOrderEntity: EntityDecl = {
  name: "shoporder",
  table: "shop_orders",
  scope: "school",
  // a pickup order belongs to its pickup point too: a clerk reads those of its points only
  tenantColumns: { pickupPoint: "pickup_point_id" },
  title: "retail.entity.shoporder",
  titleField: "order_no",
  defaultSort: { field: "id", order: "desc" },
  stateField: "status",
  summary: ["amount", "refunded_amount"],
  // the money received, as the fee orders' is: the orders paid, refunded since or not (refunded in full, an order is
  // cancelled like one closed unpaid, but its payment time is set); their refunds are the refunded amount's sum
  summaryInStates: [{ name: "paid_amount", field: "amount", states: PAID_SHOP_ORDER_STATES, orSet: "paid_at", label: "retail.field.received_amount" }],
  // a school's tabs and sums read from the totals kept per school, point, state and payment (a million orders), and
  // per day of making too: a month's tabs, sums and page read from the days' totals and a page's rows a day
  stateTotals: { days: "created_at", idsFollowDays: true },
  indexes: [
    ["sch_id", "status", "id", "sysid", "amount"],
    // the delivered orders the job completes once their days have passed
    ["status", "delivered_at"],
  ],
  roles: { list: GOODS_MANAGERS, info: GOODS_MANAGERS },
  actions: [shopOrderDeliver, shopOrderReceive, shopOrderCancel, shopOrderRefund],
  exportOperation: "shoporderexport",
  children: [{ name: "items", entity: "shoporderitem", parentField: "order_id", label: "retail.field.items", min: 1, max: 20 }],
  related: [
    { entity: "refund", field: "shop_order_id", label: "refunds.related" },
    // the garments' trace-source codes bound to its items
    { entity: "tracesource", field: "order_id", label: "retail.trace.related" },
    // its receipts on the provider's printers, by its number
    { entity: "printjob", field: "order_no", key: "order_no", label: "devices.related.order_jobs" },
  ],
  timeline: Object.fromEntries([
      "shop_order_created",
      "shop_order_paid",
      "shop_order_closed",
      "shoporderdeliver",
      "shoporderreceive",
      "shop_order_auto_completed",
      "shopordercancel",
      "pickupverify",
      // a garment's trace-source code bound to one of its items, at packing or at pickup
      "tracesourcebind",
      "shoporderrefund",
      "shop_order_refunded",
    ].map((event) => [event, `retail.timeline.${event}`])),
  fields: [
    { name: "id", type: "int", label: "field.id", sortable: true, detail: true },
    { name: "order_no", type: "string", label: "collection.field.order_no", required: true, max: 32, unique: true, list: true, filter: "eq", detail: true },
    { name: "pay_no", type: "string", label: "collection.field.pay_no", required: true, max: 32, unique: true, filter: "eq", detail: true },
    schoolField,
    { name: "student_id", type: "ref", ref: { entity: "student" }, label: "collection.field.student", required: true, list: true, filter: "like", detail: true },
    { name: "amount", type: "money", label: "retail.field.order_amount", required: true, list: true, sortable: true, detail: true },
    // of the amount, what sending it costs (its goods' express templates); 0 collected at a point or sent free
    { name: "freight", type: "money", label: "retail.field.freight", required: true, default: "0.00", detail: true },
    { name: "status", type: "enum", label: "retail.field.order_status", required: true, default: "unpaid", options: shopOrderStates, list: true, filter: "eq", detail: true },
    { name: "refund_status", type: "enum", label: "retail.field.refund_status", required: true, default: "none", options: shopRefundStates, list: true, filter: "eq", detail: true },
    { name: "refunded_amount", type: "money", label: "collection.field.refunded_amount", required: true, default: "0.00", list: true, detail: true },
    // how it reaches the payer, shared with every order carrying goods
    ...fulfilmentFields({ deliveryRequired: true }),
    { name: "gateway", type: "enum", label: "collection.field.gateway", required: true, options: orderGateways, detail: true },
    { name: "transaction_id", type: "string", label: "collection.field.transaction_id", max: 64, detail: true },
    { name: "created_at", type: "datetime", label: "field.created_at", list: true, filter: "range", sortable: true, detail: true },
    { name: "paid_at", type: "datetime", label: "collection.field.paid_at", list: true, filter: "range", sortable: true, detail: true },
    ...fulfilmentTimes,
    { name: "cancelled_at", type: "datetime", label: "retail.field.cancelled_at", detail: true },
  ],
};

export const shopOrders: CatalogueDomain = {
  entities: [shopOrderEntity, shopOrderItemEntity],
  pages: {
    // v2's retail orders (v1's orderlist is the fee orders)
    "shop/orderlist": { kind: "list", entity: "shoporder" },
    shoporderinfo: { kind: "info", entity: "shoporder" },
  },
};
