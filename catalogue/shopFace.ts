/**
 * The shop's face (servicev2): what its parents see of it on the payer page. The shop's settings (shopdefaultset):
 * open or closed, which ways of delivery it offers, how long an order may wait unpaid, how many days after being sent
 * an order completes by itself, how many days after completion a payer may ask for an after-sale, and the phone
 * parents call. Read by the shop's calls and jobs (server/domains/retail/shopSettings.ts); labels in
 * locales/<lang>/retail.json `shop_settings`. Its return addresses (saleaddresslist): where returned goods go, one
 * the default, shown to a payer whose return was agreed.
 */
import type { CatalogueDomain, EntityDecl, SettingsDecl } from "../common/catalogue";
import { GOODS_MANAGERS } from "./goods";
import { yesNo } from "./shared";

/** A provider's shop settings: one record per provider, each field its default until saved. */
export const shopSettingsDecl: SettingsDecl = {
  name: "shopdefaultset",
  scope: "provider",
  title: "retail.shop_settings.title",
  roles: { info: GOODS_MANAGERS, edit: GOODS_MANAGERS },
  fields: [
    { name: "shop_open", type: "yesno", label: "retail.shop_settings.shop_open", required: true, default: "Y", options: yesNo },
    { name: "pickup_enabled", type: "yesno", label: "retail.shop_settings.pickup_enabled", required: true, default: "Y", options: yesNo },
    { name: "express_enabled", type: "yesno", label: "retail.shop_settings.express_enabled", required: true, default: "Y", options: yesNo },
    { name: "unpaid_minutes", type: "int", label: "retail.shop_settings.unpaid_minutes", required: true, default: 30, min: 5, max: 1440 },
    { name: "auto_complete_days", type: "int", label: "retail.shop_settings.auto_complete_days", required: true, default: 10, min: 1, max: 60 },
    { name: "aftersale_days", type: "int", label: "retail.shop_settings.aftersale_days", required: true, default: 7, min: 0, max: 90 },
    { name: "service_phone", type: "phone", label: "retail.shop_settings.service_phone" },
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
  entities: [saleAddressEntity],
  settings: [shopSettingsDecl],
  pages: {
    shopdefaultset: { kind: "settings", settings: "shopdefaultset" },
    saleaddresslist: { kind: "list", entity: "saleaddress" },
  },
};
