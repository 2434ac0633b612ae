/**
 * Payments (payrecord, v2 provider): the ledger of the money that came in, one record per payment a fee order
 * took, written in the transaction that applies it (server/domains/collection/feeOrders.ts, settleFeeOrder) and
 * never changed: what happened to the order later (refunds) is the order's and the refund ledger's. A duplicate
 * payment is money paid too, and is listed with its flag. Labels in locales/<lang>/collection.json.
 */
import type { CatalogueDomain, EntityDecl } from "../common/catalogue";
import { orderGateways } from "./collectionOrders";
import { schoolField, yesNo } from "./shared";

/** Who reads the payment ledger: the v2 provider (payrecord) */
export const PAYMENT_READERS: readonly string[] = ["servicev2"];

export const paymentEntity: EntityDecl = {
  name: "payment",
  table: "fee_payments",
  scope: "school",
  title: "collection.entity.payment",
  titleField: "pay_no",
  defaultSort: { field: "paid_at", order: "desc" },
  summary: ["amount"],
  // the payments of orders paying bills of several activities (few), which the activity filter looks into
  indexes: [["activity_count", "sch_id", "sysid", "id"]],
  exportOperation: "paymentexport",
  roles: { list: PAYMENT_READERS, info: PAYMENT_READERS },
  fields: [
    { name: "id", type: "int", label: "field.id", detail: true },
    { name: "pay_no", type: "string", label: "collection.field.pay_no", required: true, max: 32, unique: true, list: true, filter: "eq", detail: true },
    { name: "order_id", type: "ref", ref: { entity: "order" }, label: "collection.entity.order", required: true, list: true, filter: "eq", detail: true },
    schoolField,
    { name: "student_id", type: "ref", ref: { entity: "student" }, label: "collection.field.student", required: true, list: true, filter: "eq", detail: true },
    { name: "class_id", type: "ref", ref: { entity: "classes" }, label: "field.classes", required: true, detail: true },
    // its order's first line's activity, and how many its order paid bills of (catalogue/collectionOrders.ts)
    { name: "activity_id", type: "ref", ref: { entity: "activity", countField: "activity_count" }, label: "collection.field.activity", list: true, filter: "eq", detail: true },
    { name: "activity_count", type: "int", label: "collection.field.activity_count", required: true, default: 1, min: 1 },
    { name: "amount", type: "money", label: "collection.field.payment_amount", required: true, list: true, sortable: true, detail: true },
    { name: "paid_at", type: "datetime", label: "collection.field.paid_at", required: true, list: true, filter: "range", sortable: true, detail: true },
    // the channel that took it: none for an order made before orders named their channel and whose school has none
    { name: "paychnl_id", type: "ref", ref: { entity: "paychnl" }, label: "recon.field.paychnl", list: true, filter: "eq", detail: true },
    { name: "gateway", type: "enum", label: "collection.field.gateway", required: true, options: orderGateways, detail: true },
    { name: "transaction_id", type: "string", label: "collection.field.transaction_id", required: true, max: 64, filter: "eq", detail: true },
    { name: "duplicate", type: "yesno", label: "collection.field.duplicate", required: true, default: "N", options: yesNo, list: true, filter: "eq", detail: true },
  ],
};

export const payments: CatalogueDomain = {
  entities: [paymentEntity],
  pages: {
    payrecord: { kind: "list", entity: "payment" },
  },
};
