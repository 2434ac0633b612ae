/**
 * Express templates (expresstpl; servicev2): how a provider charges for sending goods by express. A template charges
 * by the count of pieces or by their weight (each SKU's, in grams); each of its rules names the provinces it covers
 * (one rule may name none: every province no other rule names), the first units and their price, each further
 * units and their price, and when delivery is free (the goods of the template reaching an amount, or a count of
 * pieces). A goods item names its template (none: sent free); the checkout charges each template's goods together
 * (server/domains/retail/freight.ts). A province no rule covers is not delivered to. Labels in
 * locales/<lang>/retail.json `express_tpl`.
 */
import type { CatalogueDomain, EntityDecl, FieldOption } from "../common/catalogue";
import { GOODS_MANAGERS } from "./goods";
import { provinceOptions, statusOptions } from "./shared";

/** the most rules of one template */
export const MAX_EXPRESS_RULES = 34;
/** a price of a rule, and the free-above amount, at most (yuan) */
const MAX_FREIGHT_YUAN = 1000;

export const chargeModes: FieldOption[] = [
  { value: "count", label: "retail.express_tpl.by_count" },
  { value: "weight", label: "retail.express_tpl.by_weight" },
];

/** A rule of a template: the provinces it covers and what it charges there. */
export const expressRuleEntity: EntityDecl = {
  name: "expressrule",
  table: "express_rules",
  scope: "provider",
  title: "retail.entity.expressrule",
  titleField: "id",
  defaultSort: { field: "sort", order: "asc" },
  roles: {},
  fields: [
    { name: "id", type: "int", label: "field.id" },
    { name: "template_id", type: "ref", ref: { entity: "expresstemplate" }, label: "retail.entity.expresstemplate", required: true },
    { name: "sort", type: "int", label: "field.sort", default: 0, min: 0, max: 9999 },
    // none: every province that no other rule of the template names
    { name: "regions", type: "enums", label: "retail.express_tpl.regions", options: provinceOptions, form: true },
    // pieces, or grams when the template charges by weight
    { name: "first_units", type: "int", label: "retail.express_tpl.first_units", required: true, default: 1, min: 1, max: 100_000, form: true },
    { name: "first_price", type: "money", label: "retail.express_tpl.first_price", required: true, default: "0.00", min: 0, max: MAX_FREIGHT_YUAN, form: true },
    { name: "extra_units", type: "int", label: "retail.express_tpl.extra_units", required: true, default: 1, min: 1, max: 100_000, form: true },
    { name: "extra_price", type: "money", label: "retail.express_tpl.extra_price", required: true, default: "0.00", min: 0, max: MAX_FREIGHT_YUAN, form: true },
    // free once the template's goods of the order come to this amount, or to this many pieces
    { name: "free_amount", type: "money", label: "retail.express_tpl.free_amount", min: 0.01, max: 100_000, form: true },
    { name: "free_count", type: "int", label: "retail.express_tpl.free_count", min: 1, max: 999, form: true },
  ],
};

export const expressTemplateEntity: EntityDecl = {
  name: "expresstemplate",
  table: "express_templates",
  scope: "provider",
  title: "retail.entity.expresstemplate",
  titleField: "title",
  defaultSort: { field: "sort", order: "asc" },
  roles: { list: GOODS_MANAGERS, info: GOODS_MANAGERS, add: GOODS_MANAGERS, edit: GOODS_MANAGERS, del: GOODS_MANAGERS },
  children: [{ name: "rules", entity: "expressrule", parentField: "template_id", label: "retail.express_tpl.rules", min: 1, max: MAX_EXPRESS_RULES }],
  fields: [
    { name: "id", type: "int", label: "field.id", sortable: true, detail: true },
    { name: "title", type: "string", label: "retail.express_tpl.title", required: true, max: 30, unique: "tenant", list: true, filter: "like", form: true, detail: true },
    { name: "charge_by", type: "enum", label: "retail.express_tpl.charge_by", required: true, default: "count", options: chargeModes, list: true, filter: "eq", form: true, detail: true },
    { name: "sort", type: "int", label: "field.sort", required: true, default: 0, min: 0, max: 9999, list: true, sortable: true, form: true, detail: true },
    { name: "status", type: "status", label: "field.status", required: true, default: "1", options: statusOptions, list: true, filter: "eq", form: true, detail: true },
    { name: "created_at", type: "datetime", label: "field.created_at", list: true, sortable: true, detail: true },
  ],
};

export const expressTemplates: CatalogueDomain = {
  entities: [expressTemplateEntity, expressRuleEntity],
  pages: {
    expresstpl: { kind: "list", entity: "expresstemplate" },
  },
};
