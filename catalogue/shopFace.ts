/**
 * The shop's face (servicev2): what its parents see of it on the payer page. The shop's settings (shopdefaultset):
 * open or closed, which ways of delivery it offers, how long an order may wait unpaid, how many days after being sent
 * an order completes by itself, how many days after completion a payer may ask for an after-sale, and the phone
 * parents call. Read by the shop's calls and jobs (server/domains/retail/shopSettings.ts); labels in
 * locales/<lang>/retail.json `shop_settings`.
 */
import type { CatalogueDomain, SettingsDecl } from "../common/catalogue";
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

export const shopFace: CatalogueDomain = {
  entities: [],
  settings: [shopSettingsDecl],
  pages: {
    shopdefaultset: { kind: "settings", settings: "shopdefaultset" },
  },
};
