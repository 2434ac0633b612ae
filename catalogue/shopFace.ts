/**
 * The shop's face (servicev2): what its parents see of it on the payer page. The shop's settings (shopdefaultset):
 * open or closed, which ways of delivery it offers, how long an order may wait unpaid, how many days after being sent
 * an order completes by itself, how many days after completion a payer may ask for an after-sale, and the phone
 * parents call. Read by the shop's calls and jobs (server/domains/retail/shopSettings.ts); labels in
 * locales/<lang>/retail.json `shop_settings`. Its return addresses (saleaddresslist): where returned goods go, one
 * the default, shown to a payer whose return was agreed. Its look (shopthemeset: the main colour and the corners), its
 * banners (bannerlist) and its questions and answers (shophelp), all shown on the shop's page.
 */
import type { CatalogueDomain, EntityDecl, FieldOption, SettingsDecl } from "../common/catalogue";
import { SHOP_COLORS, SHOP_STYLES } from "../common/shopThemes";
import { GOODS_MANAGERS } from "./goods";
import { statusOptions, yesNo } from "./shared";

/** A provider's shop settings: one record per provider, each field its default until saved. */
export const shopSettingsDecl: SettingsDecl = {
  name: "shopdefaultset",
  scope: "provider",
  title: "retail.shop_settings.title",
  roles: { info: GOODS_MANAGERS, edit: GOODS_MANAGERS },
  fields: [
    { name: "shop_open", type: "yesno", label: "retail.shop_settings.shop_open", required: true, default: "Y", options: yesNo },
    // an open shop stays closed to these schools' parents (a school that sells its uniforms itself)
    { name: "closed_sch_ids", type: "ref", ref: { entity: "school" }, multiple: true, label: "retail.shop_settings.closed_schools" },
    { name: "pickup_enabled", type: "yesno", label: "retail.shop_settings.pickup_enabled", required: true, default: "Y", options: yesNo },
    { name: "express_enabled", type: "yesno", label: "retail.shop_settings.express_enabled", required: true, default: "Y", options: yesNo },
    { name: "unpaid_minutes", type: "int", label: "retail.shop_settings.unpaid_minutes", required: true, default: 30, min: 5, max: 1440 },
    { name: "auto_complete_days", type: "int", label: "retail.shop_settings.auto_complete_days", required: true, default: 10, min: 1, max: 60 },
    { name: "aftersale_days", type: "int", label: "retail.shop_settings.aftersale_days", required: true, default: 7, min: 0, max: 90 },
    { name: "service_phone", type: "phone", label: "retail.shop_settings.service_phone" },
  ],
};

/** The shop's look on the payer page (common/shopThemes.ts): its main colour and its corners. */
export const shopThemeDecl: SettingsDecl = {
  name: "shopthemeset",
  scope: "provider",
  title: "retail.theme.title",
  roles: { info: GOODS_MANAGERS, edit: GOODS_MANAGERS },
  fields: [
    { name: "main_color", type: "enum", label: "retail.theme.main_color", required: true, default: "blue", options: SHOP_COLORS.map((c) => ({ value: c.code, label: `retail.theme.color.${c.code}` })) },
    { name: "style", type: "enum", label: "retail.theme.style", required: true, default: "rounded", options: SHOP_STYLES.map((style) => ({ value: style, label: `retail.theme.style_${style}` })) },
  ],
};

/** Where a banner leads when tapped. */
export const bannerLinks: FieldOption[] = [
  { value: "none", label: "retail.banner.link_none" },
  { value: "goods", label: "retail.banner.link_goods" },
  { value: "category", label: "retail.banner.link_category" },
  { value: "page", label: "retail.banner.link_page" },
  { value: "url", label: "retail.banner.link_url" },
];

/** A picture at the top of the shop's page, shown from its first day to its last, leading to goods, a category, a DIY page or a web page. */
export const bannerEntity: EntityDecl = {
  name: "banner",
  table: "shop_banners",
  scope: "provider",
  title: "retail.entity.banner",
  titleField: "title",
  defaultSort: { field: "sort", order: "asc" },
  roles: { list: GOODS_MANAGERS, info: GOODS_MANAGERS, add: GOODS_MANAGERS, edit: GOODS_MANAGERS, del: GOODS_MANAGERS },
  fields: [
    { name: "id", type: "int", label: "field.id", sortable: true, detail: true },
    { name: "image", type: "image", label: "retail.banner.image", required: true, list: true, form: true, detail: true },
    // what a screen reader says of the picture, and the list's name of it
    { name: "title", type: "string", label: "retail.banner.title", required: true, max: 30, list: true, filter: "like", form: true, detail: true },
    { name: "link_type", type: "enum", label: "retail.banner.link", required: true, default: "none", options: bannerLinks, list: true, filter: "eq", form: true, detail: true },
    { name: "goods_id", type: "ref", ref: { entity: "goods" }, label: "retail.entity.goods", form: true, formWhen: { field: "link_type", value: "goods" }, requiredWhen: { field: "link_type", value: "goods" }, detail: true },
    { name: "cate_id", type: "ref", ref: { entity: "goodscate" }, label: "retail.entity.goodscate", form: true, formWhen: { field: "link_type", value: "category" }, requiredWhen: { field: "link_type", value: "category" }, detail: true },
    { name: "page_id", type: "ref", ref: { entity: "shopdiy" }, label: "diy.entity", form: true, formWhen: { field: "link_type", value: "page" }, requiredWhen: { field: "link_type", value: "page" }, detail: true },
    { name: "url", type: "string", label: "retail.banner.url", max: 300, pattern: "^https://[^\\s]+$", patternMessage: "retail.banner.url_https", form: true, formWhen: { field: "link_type", value: "url" }, requiredWhen: { field: "link_type", value: "url" }, detail: true },
    { name: "sort", type: "int", label: "field.sort", required: true, default: 0, min: 0, max: 9999, list: true, sortable: true, form: true, detail: true },
    // shown from its first day to its last, both included (China time); none: from now on, or for good
    { name: "start_date", type: "date", label: "retail.banner.start_date", list: true, form: true, detail: true },
    { name: "end_date", type: "date", label: "retail.banner.end_date", list: true, form: true, detail: true },
    { name: "status", type: "status", label: "field.status", required: true, default: "1", options: statusOptions, list: true, filter: "eq", form: true, detail: true },
    { name: "created_at", type: "datetime", label: "field.created_at", detail: true },
  ],
};

/** A question parents ask of the shop, and its answer, shown under the shop's goods (shophelp). */
export const shopHelpEntity: EntityDecl = {
  name: "shophelp",
  table: "shop_help",
  scope: "provider",
  title: "retail.entity.shophelp",
  titleField: "question",
  defaultSort: { field: "sort", order: "asc" },
  roles: { list: GOODS_MANAGERS, info: GOODS_MANAGERS, add: GOODS_MANAGERS, edit: GOODS_MANAGERS, del: GOODS_MANAGERS },
  fields: [
    { name: "id", type: "int", label: "field.id", sortable: true, detail: true },
    { name: "question", type: "string", label: "retail.field.help_question", required: true, max: 100, list: true, filter: "like", form: true, detail: true },
    { name: "answer", type: "text", label: "retail.field.help_answer", required: true, max: 2000, form: true, detail: true },
    { name: "sort", type: "int", label: "field.sort", required: true, default: 0, min: 0, max: 9999, list: true, sortable: true, form: true, detail: true },
    { name: "status", type: "status", label: "field.status", required: true, default: "1", options: statusOptions, list: true, filter: "eq", form: true, detail: true },
    { name: "created_at", type: "datetime", label: "field.created_at", list: true, detail: true },
  ],
};

/** Where a provider's returned goods go; the default one is shown to a payer whose return was agreed. */
export const saleAddressEntity: EntityDecl = {
  name: "saleaddress",
  table: "sale_addresses",
  scope: "provider",
  title: "retail.entity.saleaddress",
  titleField: "name",
  defaultSort: { field: "id", order: "desc" },
  roles: { list: GOODS_MANAGERS, info: GOODS_MANAGERS, add: GOODS_MANAGERS, edit: GOODS_MANAGERS, del: GOODS_MANAGERS },
  fields: [
    { name: "id", type: "int", label: "field.id", sortable: true, detail: true },
    { name: "name", type: "string", label: "retail.field.return_name", required: true, max: 30, list: true, form: true, detail: true },
    { name: "phone", type: "phone", label: "retail.field.return_phone", required: true, list: true, form: true, detail: true },
    { name: "address", type: "string", label: "retail.field.return_address", required: true, min: 4, max: 200, list: true, form: true, detail: true },
    // one default a provider: saving one as the default makes it the only one (server/domains/retail/shopSettings.ts)
    { name: "is_default", type: "yesno", label: "retail.field.default_address", required: true, default: "N", options: yesNo, list: true, form: true, detail: true },
    { name: "created_at", type: "datetime", label: "field.created_at", list: true, detail: true },
  ],
};

export const shopFace: CatalogueDomain = {
  entities: [saleAddressEntity, shopHelpEntity, bannerEntity],
  settings: [shopSettingsDecl, shopThemeDecl],
  pages: {
    shopdefaultset: { kind: "settings", settings: "shopdefaultset" },
    shopthemeset: { kind: "settings", settings: "shopthemeset" },
    saleaddresslist: { kind: "list", entity: "saleaddress" },
    shophelp: { kind: "list", entity: "shophelp" },
    bannerlist: { kind: "list", entity: "banner" },
  },
};
