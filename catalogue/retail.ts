/**
 * Retail: a provider's pickup points (distrilist), where payers collect goods and clerks verify their pickup codes.
 * A pickup point is the tenant of a pickup clerk: a clerk reads only the records of the points it verifies at
 * (tenantColumns.pickupPoint, the one tenant filter); every entity a clerk may read declares that column, or the
 * catalogue refuses to load (assemble.ts). Labels in locales/<lang>/retail.json.
 */
import type { CatalogueDomain, EntityDecl, FieldOption, LookupRecordDecl, OperationDecl } from "../common/catalogue";
import { anyOf, PICKUP_ROLES } from "../common/roleKeys";
import { orderKinds } from "./fulfilment";
import { shopOrderStates } from "./shopOrders";
import { statusOptions } from "./shared";

/** who manages pickup points: the v2 provider (spec 2.3, distrilist) */
const POINT_MANAGERS = ["servicev2"];

/** A place where payers collect what they bought, served by the provider's pickup clerks (its verifiers). */
export const pickupPointEntity: EntityDecl = {
  name: "pickuppoint",
  table: "pickup_points",
  scope: "provider",
  // a clerk's points are its tenant: the point's own id
  tenantColumns: { pickupPoint: "id" },
  title: "retail.entity.pickuppoint",
  titleField: "title",
  defaultSort: { field: "id", order: "desc" },
  // a clerk reads its own points (the pickup records' filter names them)
  roles: { list: anyOf(POINT_MANAGERS, PICKUP_ROLES), info: anyOf(POINT_MANAGERS, PICKUP_ROLES), add: POINT_MANAGERS, edit: POINT_MANAGERS },
  fields: [
    { name: "id", type: "int", label: "field.id", list: true, sortable: true, detail: true },
    { name: "title", type: "string", label: "retail.field.point_title", required: true, max: 100, unique: "tenant", list: true, filter: "like", sortable: true, form: true, detail: true },
    { name: "address", type: "string", label: "field.address", required: true, max: 200, list: true, form: true, detail: true },
    { name: "phone", type: "phone", label: "field.phone", max: 20, list: true, form: true, detail: true },
    // as the payer reads it on the shop's pickup choice: "周一至周五 07:30-17:30"
    { name: "opening_hours", type: "string", label: "retail.field.opening_hours", max: 100, list: true, form: true, detail: true },
    // the pickup accounts of the provider that verify codes here
    { name: "verifiers", type: "ref", ref: { entity: "users", where: { user_type: "pickup" } }, multiple: true, label: "retail.field.verifiers", list: true, form: true, detail: true },
    // the schools whose payers may choose it
    { name: "sch_ids", type: "ref", ref: { entity: "school" }, multiple: true, label: "retail.field.sch_ids", required: true, list: true, form: true, detail: true },
    { name: "status", type: "status", label: "field.status", required: true, default: "1", options: statusOptions, list: true, filter: "eq", form: true, detail: true },
    { name: "created_at", type: "datetime", label: "field.created_at", list: true, sortable: true, detail: true },
  ],
};

/** who verifies pickups and reads their records: the v2 provider (all its points) and its clerks (their own) */
const PICKUP_VERIFIERS = anyOf(POINT_MANAGERS, PICKUP_ROLES);

const verifyWays: FieldOption[] = [
  { value: "code", label: "retail.via.code" },
  { value: "scan", label: "retail.via.scan" },
];

/**
 * A pickup verified: the order handed over at a point, by whom (a snapshot of the verifier's name and phone, kept
 * whatever becomes of the account), typed or scanned, when. Written by pickupverify only (server/domains/retail/pickup.ts).
 */
export const pickupRecordEntity: EntityDecl = {
  name: "pickuprec",
  table: "pickup_records",
  scope: "school",
  tenantColumns: { pickupPoint: "pickup_point_id" },
  title: "retail.entity.pickuprec",
  titleField: "order_no",
  defaultSort: { field: "id", order: "desc" },
  summary: ["amount"],
  roles: { list: PICKUP_VERIFIERS, info: PICKUP_VERIFIERS },
  fields: [
    { name: "id", type: "int", label: "field.id", sortable: true, detail: true },
    // the order handed over: a shop order, or a fee order whose items are goods (catalogue/fulfilment.ts)
    { name: "kind", type: "enum", label: "retail.field.order_kind", required: true, default: "shop_order", options: orderKinds, list: true, filter: "eq", detail: true },
    { name: "order_id", type: "ref", ref: { entity: "shoporder" }, label: "retail.entity.shoporder", unique: true, detail: true },
    { name: "fee_order_id", type: "ref", ref: { entity: "order" }, label: "collection.entity.order", unique: true, detail: true },
    { name: "order_no", type: "string", label: "collection.field.order_no", required: true, max: 32, list: true, filter: "eq", detail: true },
    { name: "pickup_point_id", type: "ref", ref: { entity: "pickuppoint" }, label: "retail.entity.pickuppoint", required: true, list: true, filter: "eq", detail: true },
    { name: "sch_id", type: "ref", ref: { entity: "school" }, label: "field.school", required: true, list: true, filter: "eq", detail: true },
    { name: "student_id", type: "ref", ref: { entity: "student" }, label: "collection.field.student", required: true, list: true, detail: true },
    { name: "amount", type: "money", label: "retail.field.order_amount", required: true, list: true, detail: true },
    { name: "verifier_id", type: "ref", ref: { entity: "users" }, label: "retail.field.verifier", required: true, filter: "eq", detail: true },
    { name: "verifier_name", type: "string", label: "retail.field.verifier", required: true, max: 50, list: true, detail: true },
    { name: "verifier_phone", type: "string", label: "retail.field.verifier_phone", max: 20, detail: true },
    { name: "via", type: "enum", label: "retail.field.via", required: true, options: verifyWays, list: true, filter: "eq", detail: true },
    { name: "created_at", type: "datetime", label: "retail.field.verified_at", list: true, filter: "range", sortable: true, detail: true },
  ],
};

const pickupCodeField = { name: "code", type: "string", label: "retail.field.pickup_code_or_qr", required: true, min: 8, max: 32, pattern: "^[0-9A-Za-z_-]+$" } as const;

/** pickupfind {code}: the order a pickup code (the digits, or the QR's token) names, within the caller's points. */
export const pickupFindOperation: OperationDecl = {
  name: "pickupfind",
  roles: PICKUP_VERIFIERS,
  effect: "read",
  title: "menu.pickuprec",
  submit: "retail.action.find",
  fields: [{ ...pickupCodeField }],
};

/** pickupverify {code, via}: the order handed over: collected, with its verification record, once. */
export const pickupVerifyOperation: OperationDecl = {
  name: "pickupverify",
  roles: PICKUP_VERIFIERS,
  effect: "write",
  title: "menu.pickuprec",
  submit: "retail.action.verify",
  invalidates: ["pickuprec", "shoporder", "order"],
  fields: [{ ...pickupCodeField }, { name: "via", type: "enum", label: "retail.field.via", required: true, options: verifyWays }],
};

/**
 * The order pickupfind and pickupverify answer, as the clerk checks it before handing it over (and after): who it is
 * for, where, what it holds in which sizes, paid, and who verified it when.
 */
const pickupOrderShown: LookupRecordDecl = {
  titleField: "order_no",
  status: "status",
  fields: [
    { name: "order_no", type: "string", label: "collection.field.order_no" },
    { name: "status", type: "enum", label: "retail.field.order_status", options: shopOrderStates },
    { name: "kind", type: "enum", label: "retail.field.order_kind", options: orderKinds },
    { name: "student.name", type: "string", label: "collection.field.student" },
    { name: "student.student_no", type: "string", label: "field.student_no" },
    { name: "school_title", type: "string", label: "field.school" },
    { name: "pickup_point", type: "string", label: "retail.entity.pickuppoint" },
    { name: "amount", type: "money", label: "retail.field.order_amount" },
    { name: "paid_at", type: "datetime", label: "collection.field.paid_at" },
    { name: "verified.name", type: "string", label: "retail.field.verifier" },
    { name: "verified.at", type: "datetime", label: "retail.field.verified_at" },
  ],
  items: {
    name: "items",
    label: "retail.field.items",
    titleField: "title",
    fields: [
      { name: "title", type: "string", label: "retail.field.goods_title" },
      { name: "spec_values", type: "specs", label: "retail.field.spec_values" },
      { name: "qty", type: "int", label: "retail.field.qty" },
      { name: "amount", type: "money", label: "retail.field.item_amount" },
    ],
  },
  done: { when: "verified.at", message: "retail.pickup.done_by", params: { name: "verified.name", time: "verified.at" } },
};

export const retail: CatalogueDomain = {
  entities: [pickupPointEntity, pickupRecordEntity],
  operations: [pickupFindOperation, pickupVerifyOperation],
  pages: {
    distrilist: { kind: "list", entity: "pickuppoint" },
    // v2's pickup records, in its shop group and in its order group alike
    pickupreclist: { kind: "list", entity: "pickuprec" },
    pickuprecinfo: { kind: "info", entity: "pickuprec" },
    // the clerk's phone: a code typed or the payer's QR code scanned finds the order, checked, then handed over
    pickuprec: {
      kind: "lookup",
      find: "pickupfind",
      field: "code",
      scan: true,
      numeric: true,
      placeholder: "retail.scan.placeholder",
      hint: "retail.scan.hint",
      scanButton: "retail.scan.open",
      record: pickupOrderShown,
      confirm: {
        operation: "pickupverify",
        success: "retail.pickup.verified",
        via: { field: "via", typed: "code", scanned: "scan" },
        offeredWhen: { field: "status", values: ["undelivered"] },
        unavailable: "retail.pickup.refunded",
        then: "answer",
      },
    },
  },
};
