/**
 * Fulfilment, shared by every kind of order that carries goods (a shop order, a fee order whose activity items are
 * goods: a uniform in a size): how it reaches the payer (by express, with a company and a tracking number, to a
 * receiver; or collected at a pickup point, with an 8-digit code and a QR token), its states (undelivered ->
 * delivered -> completed) and their times. The order entities spread these declarations, so that every kind has the
 * same columns and rules; server/domains/retail/fulfilment.ts delivers, verifies pickups and imports tracking numbers
 * for every kind alike. The imports of tracking numbers (orderdeliveryimportlog for shop orders,
 * zdorderdeliveryimportlog for fee orders) are logged here, one log of both kinds. Labels in locales/<lang>/retail.json.
 */
import type { CatalogueDomain, EntityDecl, FieldDecl, FieldOption } from "../common/catalogue";
import { EXPRESS_COMPANIES, expressNameKey, TRACKING_NO_PATTERN } from "../common/expressCompanies";
import { GOODS_MANAGERS } from "./goods";
import { provinceOptions } from "./shared";

/** How an order's goods reach the payer. */
export const deliveries: FieldOption[] = [
  { value: "express", label: "retail.delivery.express" },
  { value: "pickup", label: "retail.delivery.pickup" },
];

/** The states of an order's fulfilment, once paid: the same for every kind of order. */
export const fulfilmentStates: FieldOption[] = [
  { value: "undelivered", label: "retail.order_status.undelivered", tone: "processing", hint: "retail.order_hint.undelivered" },
  { value: "delivered", label: "retail.order_status.delivered", tone: "processing" },
  { value: "completed", label: "retail.order_status.completed", tone: "success" },
];

/** The express companies (common/expressCompanies.ts), by our code. */
export const expressCompanyOptions: FieldOption[] = EXPRESS_COMPANIES.map((c) => ({ value: c.code, label: expressNameKey(c.code) }));

export const expressCodeField: FieldDecl = { name: "express_code", type: "enum", label: "retail.field.express_company", required: true, options: expressCompanyOptions };
export const trackingNoField: FieldDecl = {
  name: "tracking_no",
  type: "string",
  label: "retail.field.tracking_no",
  required: true,
  max: 40,
  pattern: TRACKING_NO_PATTERN,
  patternMessage: "retail.errors.tracking_no",
};

/** What a deliver action asks: the company and the tracking number. */
export const deliverFields: FieldDecl[] = [expressCodeField, trackingNoField];

/**
 * The fulfilment columns of an order carrying goods, in order: how (`delivery`), where it is collected (the point, its
 * code and QR token) or where it is sent (the receiver), and by whom it was sent. `delivery` is required of an order
 * that always carries goods (a shop order); a fee order carries none unless its items are goods.
 */
export function fulfilmentFields(options: { deliveryRequired: boolean; codesSecret?: boolean }): FieldDecl[] {
  // where the order's readers are more than those who verify its pickups, its code and token are never answered
  const codes = options.codesSecret ? { secret: true, detail: false } : {};
  return [
    { name: "delivery", type: "enum", label: "retail.field.delivery", required: options.deliveryRequired, options: deliveries, list: true, filter: "eq", detail: true },
    { name: "pickup_point_id", type: "ref", ref: { entity: "pickuppoint" }, label: "retail.entity.pickuppoint", list: true, filter: "eq", detail: true },
    // 8 digits the clerk types; given when the order is paid, unique among the provider's orders of any kind waiting to be collected
    { name: "pickup_code", type: "string", label: "retail.field.pickup_code", max: 8, detail: true, ...codes },
    // the payer's QR code: an opaque token of 128 bits, not the digits
    { name: "pickup_token", type: "string", label: "retail.field.pickup_token", max: 32, ...codes },
    { name: "receiver_name", type: "string", label: "retail.field.receiver_name", max: 30, detail: true, exported: true },
    { name: "receiver_phone", type: "phone", label: "retail.field.receiver_phone", detail: true, exported: true },
    { name: "receiver_province", type: "enum", label: "retail.field.receiver_province", options: provinceOptions, detail: true, exported: true },
    { name: "receiver_address", type: "string", label: "retail.field.receiver_address", max: 200, detail: true, exported: true },
    { ...expressCodeField, required: false, detail: true, exported: true },
    { ...trackingNoField, required: false, filter: "eq", detail: true, exported: true },
  ];
}

/** When the goods were sent, and when the payer had them (received, or collected at the point). */
export const fulfilmentTimes: FieldDecl[] = [
  { name: "delivered_at", type: "datetime", label: "retail.field.delivered_at", detail: true, exported: true },
  { name: "completed_at", type: "datetime", label: "retail.field.completed_at", detail: true, exported: true },
];

/** the kinds of orders that carry goods: whose deliveries are imported, whose pickups are verified */
export const orderKinds: FieldOption[] = [
  { value: "shop_order", label: "retail.entity.shoporder" },
  { value: "fee_order", label: "collection.entity.order" },
];

/** One import of tracking numbers: who sent which file, when, and how its rows went. */
export const deliveryImportEntity: EntityDecl = {
  name: "deliveryimport",
  table: "delivery_imports",
  scope: "provider",
  title: "retail.entity.deliveryimport",
  titleField: "filename",
  defaultSort: { field: "id", order: "desc" },
  roles: { list: GOODS_MANAGERS, info: GOODS_MANAGERS },
  // the import itself, beside its log
  listTools: ["deliveryimport"],
  fields: [
    { name: "id", type: "int", label: "field.id", sortable: true, detail: true },
    { name: "kind", type: "enum", label: "retail.field.import_kind", required: true, options: orderKinds, filter: "eq", detail: true },
    { name: "filename", type: "string", label: "import.field.filename", required: true, max: 255, list: true, detail: true },
    { name: "username", type: "string", label: "import.field.username", required: true, max: 50, list: true, detail: true },
    { name: "created_at", type: "datetime", label: "import.field.created_at", list: true, filter: "range", sortable: true, detail: true },
    { name: "total", type: "int", label: "import.field.total", required: true, default: 0, list: true, detail: true },
    { name: "delivered", type: "int", label: "retail.field.import_delivered", required: true, default: 0, list: true, detail: true },
    { name: "unchanged", type: "int", label: "retail.field.import_unchanged", required: true, default: 0, list: true, detail: true },
    { name: "failed", type: "int", label: "retail.field.import_failed", required: true, default: 0, list: true, detail: true },
    // the rows that failed as JSON [{row, order_no, message}] (at most the answer's cap), in the importer's language
    { name: "errors", type: "text", label: "import.field.errors", detail: true },
  ],
};

export const fulfilment: CatalogueDomain = {
  entities: [deliveryImportEntity],
  pages: {
    orderdeliveryimportlog: { kind: "list", entity: "deliveryimport", filters: { kind: "shop_order" } },
    // the fee orders whose activity items are goods (the /order group's subscription orders)
    zdorderdeliveryimportlog: { kind: "list", entity: "deliveryimport", filters: { kind: "fee_order" } },
  },
};
