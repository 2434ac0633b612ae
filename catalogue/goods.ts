/**
 * A v2 provider's goods (/goods: goodslist, goodscatelist): what parents buy in the school shop (uniforms in sizes,
 * books, lunch cards), in two levels of categories, each goods item sold as SKUs, one per combination of its specs'
 * values (尺码 130 · 颜色 藏青), with its own price, stock and barcode. The goods item's price and stock are its SKUs'
 * lowest price and total stock, kept by the server (server/domains/retail/goods.ts). Labels in
 * locales/<lang>/retail.json.
 */
import type { CatalogueDomain, EntityDecl, FieldOption } from "../common/catalogue";
import { statusOptions } from "./shared";

/** who keeps goods and their categories: the v2 provider (spec 2.3, /goods) */
export const GOODS_MANAGERS = ["servicev2"];

/** a SKU's price, at most, in yuan (a money field's bounds are in yuan) */
const MAX_SKU_PRICE_YUAN = 100_000;
/** the most SKUs a goods item has (a uniform: 12 sizes x 4 colours is 48) */
export const MAX_SKUS = 200;

const categoryLevels: FieldOption[] = [
  { value: "1", label: "retail.level.top" },
  { value: "2", label: "retail.level.sub" },
];

/** A category of goods: a top one (校服) or one within a top one (校服 › 上衣); two levels, no more. */
export const goodsCategoryEntity: EntityDecl = {
  name: "goodscate",
  table: "goods_categories",
  scope: "provider",
  title: "retail.entity.goodscate",
  titleField: "title",
  // a sub-category is named within its top one: "校服 上衣"
  refTitle: { within: "parent_id" },
  defaultSort: { field: "sort", order: "asc" },
  roles: { list: GOODS_MANAGERS, info: GOODS_MANAGERS, add: GOODS_MANAGERS, edit: GOODS_MANAGERS, del: GOODS_MANAGERS },
  fields: [
    { name: "id", type: "int", label: "field.id", sortable: true, detail: true },
    { name: "title", type: "string", label: "retail.field.cate_title", required: true, max: 30, unique: { within: "parent_id" }, list: true, filter: "like", form: true, detail: true },
    // a top category only: the form offers those (level 1), the server refuses any other
    { name: "parent_id", type: "ref", ref: { entity: "goodscate", where: { level: "1" } }, label: "retail.field.parent_cate", list: true, filter: "eq", form: true, detail: true },
    // kept by the server from the parent: 1 top, 2 within a top one
    { name: "level", type: "enum", label: "retail.field.level", required: true, default: "1", options: categoryLevels, list: true, filter: "eq", detail: true },
    { name: "sort", type: "int", label: "field.sort", required: true, default: 0, min: 0, max: 9999, list: true, sortable: true, form: true, detail: true },
    { name: "status", type: "status", label: "field.status", required: true, default: "1", options: statusOptions, list: true, filter: "eq", form: true, detail: true },
    { name: "created_at", type: "datetime", label: "field.created_at", detail: true },
  ],
};

export const goodsStates: FieldOption[] = [
  { value: "on", label: "retail.goods_status.on", tone: "success" },
  { value: "off", label: "retail.goods_status.off", tone: "default" },
];

/** How a goods item reaches the payer: sent by express, collected at a pickup point, or either. */
export const goodsDeliveries: FieldOption[] = [
  { value: "both", label: "retail.delivery.both" },
  { value: "express", label: "retail.delivery.express" },
  { value: "pickup", label: "retail.delivery.pickup" },
];

const schoolScopes: FieldOption[] = [
  { value: "all", label: "retail.sch_scope.all" },
  { value: "chosen", label: "retail.sch_scope.chosen" },
];

/** A goods item's SKU: one combination of its specs' values, priced and stocked on its own. */
export const goodsSkuEntity: EntityDecl = {
  name: "goodssku",
  table: "goods_skus",
  scope: "provider",
  title: "retail.entity.goodssku",
  titleField: "barcode",
  defaultSort: { field: "sort", order: "asc" },
  roles: {},
  fields: [
    { name: "id", type: "int", label: "field.id" },
    { name: "goods_id", type: "ref", ref: { entity: "goods" }, label: "retail.entity.goods", required: true },
    { name: "sort", type: "int", label: "field.sort", default: 0, min: 0, max: 9999 },
    // {"尺码": "130", "颜色": "藏青"}: a value for each of the goods item's spec names, built by its form
    { name: "spec_values", type: "specs", label: "retail.field.spec_values", required: true, max: 20, form: true },
    { name: "price", type: "money", label: "retail.field.price", required: true, min: 0.01, max: MAX_SKU_PRICE_YUAN, form: true },
    { name: "stock", type: "int", label: "retail.field.stock", required: true, default: 0, min: 0, max: 999_999, form: true },
    { name: "barcode", type: "string", label: "retail.field.barcode", max: 32, pattern: "^[0-9A-Za-z-]*$", form: true },
    { name: "image", type: "image", label: "retail.field.sku_image", form: true },
    // what the express template weighs when it charges by weight
    { name: "weight", type: "int", label: "retail.field.weight_grams", required: true, default: 0, min: 0, max: 100_000, form: true },
  ],
};

/** A goods item of the provider's shop, sold to the payers of all its schools or of those chosen. */
export const goodsEntity: EntityDecl = {
  name: "goods",
  table: "goods",
  scope: "provider",
  title: "retail.entity.goods",
  titleField: "title",
  defaultSort: { field: "id", order: "desc" },
  stateField: "status",
  roles: { list: GOODS_MANAGERS, info: GOODS_MANAGERS, add: GOODS_MANAGERS, edit: GOODS_MANAGERS },
  children: [
    {
      name: "skus",
      entity: "goodssku",
      parentField: "goods_id",
      label: "retail.field.skus",
      min: 1,
      max: MAX_SKUS,
      // the rows are the combinations of the values chosen for each spec name: the form builds them, or starts
      // from one of the provider's spec templates
      product: { names: "spec_names", values: "spec_values", template: { entity: "spectemplate", field: "specs" } },
    },
  ],
  fields: [
    { name: "id", type: "int", label: "field.id", sortable: true, detail: true },
    { name: "images", type: "images", label: "retail.field.images", max: 9, list: true, form: true, detail: true },
    { name: "title", type: "string", label: "retail.field.goods_title", required: true, max: 60, list: true, filter: "like", sortable: true, form: true, detail: true },
    { name: "cate_id", type: "ref", ref: { entity: "goodscate" }, label: "retail.entity.goodscate", required: true, list: true, filter: "eq", form: true, detail: true },
    // 尺码, 颜色: each SKU has a value of each
    { name: "spec_names", type: "strings", label: "retail.field.spec_names", required: true, max: 10, form: true, detail: true },
    // the SKUs' lowest price and total stock, kept by the server on every save
    { name: "price", type: "money", label: "retail.field.price_from", list: true, sortable: true, detail: true },
    { name: "stock", type: "int", label: "retail.field.stock_total", list: true, sortable: true, detail: true },
    { name: "sales", type: "int", label: "retail.field.sales", default: 0, list: true, sortable: true, detail: true },
    { name: "delivery", type: "enum", label: "retail.field.delivery", required: true, default: "both", options: goodsDeliveries, list: true, filter: "eq", form: true, detail: true },
    // what sending it by express costs (catalogue/expressTemplates.ts); none: sent free
    { name: "express_tpl_id", type: "ref", ref: { entity: "expresstemplate", where: { status: "1" } }, label: "retail.field.express_tpl", form: true, detail: true },
    { name: "sch_scope", type: "enum", label: "retail.field.sch_scope", required: true, default: "all", options: schoolScopes, form: true, detail: true },
    {
      name: "sch_ids",
      type: "ref",
      ref: { entity: "school" },
      multiple: true,
      label: "retail.field.goods_schools",
      form: true,
      formWhen: { field: "sch_scope", value: "chosen" },
      requiredWhen: { field: "sch_scope", value: "chosen" },
      detail: true,
    },
    { name: "status", type: "enum", label: "retail.field.goods_status", required: true, default: "off", options: goodsStates, list: true, filter: "eq", form: true, detail: true },
    { name: "sort", type: "int", label: "field.sort", required: true, default: 0, min: 0, max: 9999, form: true, detail: true },
    { name: "description", type: "richtext", label: "retail.field.description", max: 20_000, form: true, detail: true },
    { name: "created_at", type: "datetime", label: "field.created_at", list: true, sortable: true, detail: true },
  ],
};

/** who keeps spec templates: the v1 provider (spec 2.2, /specadmin sepclist) */
export const SPEC_TEMPLATE_MANAGERS = ["service"];
/**
 * who reads them besides: the goods form's users, whose form starts from one (the templates a provider kept while on
 * the first generation stay its own when it moves to the second, which has goods but no page of templates)
 */
const SPEC_TEMPLATE_READERS = [...SPEC_TEMPLATE_MANAGERS, ...GOODS_MANAGERS];

/**
 * A provider's spec template (规格模板; sepclist, /specadmin): a named set of spec names and the values each offers
 * (尺码 120 130 140, 颜色 藏青 白色), written once and taken up again when goods are set up. Checked by its field kind
 * (common/specs.ts specGroupsProblem).
 */
export const specTemplateEntity: EntityDecl = {
  name: "spectemplate",
  table: "spec_templates",
  scope: "provider",
  title: "retail.entity.spectemplate",
  titleField: "title",
  defaultSort: { field: "sort", order: "asc" },
  roles: { list: SPEC_TEMPLATE_READERS, info: SPEC_TEMPLATE_READERS, add: SPEC_TEMPLATE_MANAGERS, edit: SPEC_TEMPLATE_MANAGERS, del: SPEC_TEMPLATE_MANAGERS },
  fields: [
    { name: "id", type: "int", label: "field.id", sortable: true, detail: true },
    { name: "title", type: "string", label: "retail.field.template_title", required: true, max: 30, unique: "tenant", list: true, filter: "like", sortable: true, form: true, detail: true },
    // [{"name": "尺码", "values": ["120", "130"]}]: names and values at most 20 characters each
    { name: "specs", type: "specgroups", label: "retail.field.template_specs", required: true, max: 20, list: true, form: true, detail: true },
    { name: "sort", type: "int", label: "field.sort", required: true, default: 0, min: 0, max: 9999, list: true, sortable: true, form: true, detail: true },
    { name: "status", type: "status", label: "field.status", required: true, default: "1", options: statusOptions, list: true, filter: "eq", form: true, detail: true },
    { name: "created_at", type: "datetime", label: "field.created_at", list: true, sortable: true, detail: true },
  ],
};

/** What a price and stock log row is of: a goods item's SKU (v2), or a v1 provider's fee project (its amount). */
export const goodsLogKinds: FieldOption[] = [
  { value: "goodssku", label: "retail.goodslog_kind.goodssku" },
  { value: "serviceproject", label: "retail.goodslog_kind.serviceproject" },
];

export const goodsLogFields: FieldOption[] = [
  { value: "price", label: "retail.goodslog_field.price" },
  { value: "stock", label: "retail.goodslog_field.stock" },
];

/**
 * A change of a price or a stock made by a person (goodslogs): a goods item's SKU's price or stock, or a v1 fee
 * project's amount (its price), with the value before and after, who and when. Written by the goods' and the fee
 * projects' hooks in the transaction of the change (server/domains/retail/goodsLogs.ts); never added or edited.
 * A stock taken by an order is not a person's change and is not logged here.
 */
export const goodsLogEntity: EntityDecl = {
  name: "goodslog",
  table: "goods_logs",
  scope: "provider",
  title: "retail.entity.goodslog",
  titleField: "title",
  defaultSort: { field: "created_at", order: "desc" },
  roles: { list: ["service", "servicev2"], info: ["service", "servicev2"] },
  fields: [
    { name: "id", type: "int", label: "field.id", sortable: true, detail: true },
    { name: "created_at", type: "datetime", label: "retail.field.changed_at", list: true, filter: "range", sortable: true, detail: true },
    { name: "kind", type: "enum", label: "retail.field.log_kind", required: true, options: goodsLogKinds, list: true, filter: "eq", detail: true },
    // the goods item's id (a SKU's own id changes when its goods item is saved) or the fee project's
    { name: "record_id", type: "int", label: "retail.field.log_record_id", required: true, detail: true },
    { name: "title", type: "string", label: "retail.field.log_title", required: true, max: 60, list: true, filter: "like", detail: true },
    // the SKU's specs as text (尺码 130 · 颜色 藏青); empty for a fee project
    { name: "specs", type: "string", label: "retail.field.spec_values", max: 200, list: true, detail: true },
    { name: "field", type: "enum", label: "retail.field.log_field", required: true, options: goodsLogFields, list: true, filter: "eq", detail: true },
    // a price in yuan (128.00), a stock as a count; empty where there was none (a SKU added, an amount left open)
    { name: "before_value", type: "string", label: "retail.field.before_value", max: 20, list: true, detail: true },
    { name: "after_value", type: "string", label: "retail.field.after_value", max: 20, list: true, detail: true },
    { name: "user_id", type: "int", label: "retail.field.changed_by_id", detail: true },
    { name: "username", type: "string", label: "retail.field.changed_by", max: 50, list: true, filter: "eq", detail: true },
  ],
};

export const goods: CatalogueDomain = {
  entities: [goodsCategoryEntity, goodsEntity, goodsSkuEntity, specTemplateEntity, goodsLogEntity],
  pages: {
    goodslist: { kind: "list", entity: "goods" },
    goodsadd: { kind: "add", entity: "goods" },
    goodsedit: { kind: "edit", entity: "goods" },
    goodscatelist: { kind: "list", entity: "goodscate" },
    goodscateadd: { kind: "add", entity: "goodscate" },
    goodscateedit: { kind: "edit", entity: "goodscate" },
    // the v1 provider's: its templates added and edited in place on the list
    sepclist: { kind: "list", entity: "spectemplate" },
    goodslogs: { kind: "list", entity: "goodslog" },
  },
};
