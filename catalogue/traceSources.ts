/**
 * Trace-source codes (/goods tracesourcelist; servicev2): the uniform supervision code of each garment (校服监管码,
 * 一物一码), with the facts of its batch that a parent reads when scanning it: the maker, the standard, the fabric and
 * the inspection report. A code is the provider's (unique within it), of one SKU of its goods; it is imported by file
 * per SKU and batch (tracesourceimport, server/domains/retail/traceSources.ts), bound to a shop order's item when the
 * garment is packed or handed over (tracesourcebind, by its code: free -> bound) or voided while free
 * (tracesourcevoid), and shown on the shop order, on the payer's order and on its own public page (h5tracesource).
 * Labels in locales/<lang>/retail.json under `trace`.
 */
import type { ActionDecl, CatalogueDomain, EntityDecl, FieldDecl, FieldOption } from "../common/catalogue";
import { GOODS_MANAGERS } from "./goods";
import { PAID_SHOP_ORDER_STATES } from "./shopOrders";

export const traceSourceStates: FieldOption[] = [
  { value: "free", label: "retail.trace.status.free", tone: "processing" },
  { value: "bound", label: "retail.trace.status.bound", tone: "success" },
  { value: "voided", label: "retail.trace.status.voided", tone: "default" },
];

/** a code as printed on the label: letters, digits and . _ - (an Ecode 10012.1001.xxx, a maker's serial) */
export const TRACE_CODE_PATTERN = "^[0-9A-Za-z][0-9A-Za-z._-]*$";
export const TRACE_CODE_MAX = 64;
/** an inspection report's address: http or https only */
export const REPORT_URL_PATTERN = "^https?://[^\\s<>\"']+$";

export const traceCodeField: FieldDecl = {
  name: "code",
  type: "string",
  label: "retail.trace.field.code",
  required: true,
  max: TRACE_CODE_MAX,
  pattern: TRACE_CODE_PATTERN,
  patternMessage: "retail.trace.errors.code_pattern",
};

/** The facts of a batch, asked by the import for the whole file and kept on each code. */
export const traceBatchFields: FieldDecl[] = [
  { name: "batch_no", type: "string", label: "retail.trace.field.batch_no", required: true, max: 40, list: true, filter: "eq", form: true, detail: true },
  { name: "manufacturer", type: "string", label: "retail.trace.field.manufacturer", max: 100, list: true, filter: "like", form: true, detail: true },
  { name: "standard", type: "string", label: "retail.trace.field.standard", max: 60, form: true, detail: true },
  { name: "fabric", type: "string", label: "retail.trace.field.fabric", max: 200, form: true, detail: true },
  {
    name: "report_url",
    type: "string",
    label: "retail.trace.field.report_url",
    max: 500,
    pattern: REPORT_URL_PATTERN,
    patternMessage: "retail.trace.errors.report_url",
    form: true,
    detail: true,
  },
];

/** tracesourcevoid {id}: a free code voided (a label misprinted or lost); a bound one stays with its garment. */
export const traceSourceVoid: ActionDecl = {
  name: "tracesourcevoid",
  label: "retail.trace.action.void",
  confirm: "retail.trace.action.void_confirm",
  roles: GOODS_MANAGERS,
  from: ["free"],
  to: "voided",
  bulk: true,
  danger: true,
};

/**
 * tracesourcebind {code, order_item_id}: the garment with this code packed or handed over as (one of) the item of a
 * paid shop order: free -> bound, of the item's SKU, at most the item's quantity of codes per item (its effect:
 * server/domains/retail/traceSources.ts). Called by the list's tool with the code scanned, never from a record's
 * button; a bound code says which order holds it.
 */
export const traceSourceBind: ActionDecl = {
  name: "tracesourcebind",
  label: "retail.trace.bind.submit",
  confirm: "retail.trace.bind.hint",
  roles: GOODS_MANAGERS,
  key: "code",
  keyUnknown: "retail.trace.errors.code_unknown",
  from: ["free"],
  to: "bound",
  refuseIn: { bound: "retail.trace.errors.code_bound", voided: "retail.trace.errors.code_voided" },
  fields: [{ name: "order_item_id", type: "ref", ref: { entity: "shoporderitem" }, label: "retail.trace.field.order_item_id", required: true }],
  // the item's order, paid: locked, so that two codes bound to its items follow one another (its items' quantities)
  requires: { field: "order_item_id", states: PAID_SHOP_ORDER_STATES, message: "retail.trace.errors.order_not_paid", unknown: "retail.trace.errors.item_unknown" },
  refreshes: ["shoporder"],
  tool: "tracesourcebind",
};

/** A garment's trace-source code and the facts of its batch; the order item it went with once bound. */
export const traceSourceEntity: EntityDecl = {
  name: "tracesource",
  table: "trace_sources",
  scope: "provider",
  title: "retail.entity.tracesource",
  titleField: "code",
  defaultSort: { field: "id", order: "desc" },
  stateField: "status",
  editableIn: ["free"],
  roles: { list: GOODS_MANAGERS, info: GOODS_MANAGERS, add: GOODS_MANAGERS, edit: GOODS_MANAGERS },
  actions: [traceSourceVoid, traceSourceBind],
  listTools: ["tracesourceimport", "tracesourcebind"],
  indexes: [
    // an order item's codes: the payer's order, and the count of them before a bind
    ["order_item_id"],
  ],
  fields: [
    { name: "id", type: "int", label: "field.id", sortable: true, detail: true },
    { ...traceCodeField, unique: "tenant", list: true, filter: "eq", form: true, detail: true },
    { name: "goods_id", type: "ref", ref: { entity: "goods" }, label: "retail.entity.goods", required: true, list: true, filter: "eq", form: true, detail: true },
    // chosen among the goods item's SKUs
    { name: "sku_id", type: "ref", ref: { entity: "goodssku", narrowBy: "goods_id" }, label: "retail.entity.goodssku", required: true, filter: "eq", form: true },
    // the SKU's specs, kept by the server from the SKU on every save (a garment's size does not change)
    { name: "spec_values", type: "specs", label: "retail.field.spec_values", max: 20, list: true, detail: true },
    ...traceBatchFields,
    { name: "status", type: "enum", label: "retail.trace.field.status", required: true, default: "free", options: traceSourceStates, list: true, filter: "eq", detail: true },
    // the shop order item the garment went with, written by tracesourcebind
    { name: "order_id", type: "ref", ref: { entity: "shoporder" }, label: "retail.entity.shoporder", list: true, filter: "eq", detail: true },
    { name: "order_item_id", type: "int", label: "retail.trace.field.order_item_id", detail: true },
    { name: "bound_at", type: "datetime", label: "retail.trace.field.bound_at", list: true, filter: "range", sortable: true, detail: true },
    { name: "bound_by", type: "string", label: "retail.trace.field.bound_by", max: 50, detail: true },
    { name: "created_at", type: "datetime", label: "field.created_at", sortable: true, detail: true },
  ],
};

export const traceSources: CatalogueDomain = {
  entities: [traceSourceEntity],
  pages: {
    tracesourcelist: { kind: "list", entity: "tracesource" },
  },
};
