/**
 * The shop's DIY pages (shopdiylist, shopdiy, shopdiyedit; servicev2): a page is an ordered list of blocks (the
 * banners, a goods grid by category or by choice, a notice, an image with its link, a spacer; common/shopDiy.ts),
 * edited beside a phone's preview of it, one page the shop's home, which the payer page shows above its goods. A banner
 * or an image block may lead to another page. Behaviour in server/domains/retail/shopPages.ts; labels in
 * locales/<lang>/diy.json.
 */
import type { CatalogueDomain, EntityDecl } from "../common/catalogue";
import { MAX_DIY_TITLE } from "../common/shopDiy";
import { GOODS_MANAGERS } from "./goods";
import { statusOptions, yesNo } from "./shared";

export const shopPageEntity: EntityDecl = {
  name: "shopdiy",
  table: "shop_diy_pages",
  scope: "provider",
  title: "diy.entity",
  titleField: "title",
  defaultSort: { field: "id", order: "desc" },
  roles: { list: GOODS_MANAGERS, info: GOODS_MANAGERS, add: GOODS_MANAGERS, edit: GOODS_MANAGERS, del: GOODS_MANAGERS },
  fields: [
    { name: "id", type: "int", label: "field.id", sortable: true, detail: true },
    { name: "title", type: "string", label: "diy.title", required: true, max: MAX_DIY_TITLE, list: true, filter: "like", form: true, detail: true },
    // the shop's home: one a provider (saving one makes it the only one); shown while it is in use
    { name: "is_home", type: "yesno", label: "diy.is_home", required: true, default: "N", options: yesNo, list: true, filter: "eq", form: true, detail: true },
    { name: "blocks", type: "blocks", label: "diy.blocks", required: true, form: true, detail: true },
    { name: "status", type: "status", label: "field.status", required: true, default: "1", options: statusOptions, list: true, filter: "eq", form: true, detail: true },
    { name: "updated_at", type: "datetime", label: "field.updated_at", list: true, sortable: true, detail: true },
    { name: "created_at", type: "datetime", label: "field.created_at", detail: true },
  ],
};

export const shopPages: CatalogueDomain = {
  entities: [shopPageEntity],
  pages: {
    shopdiylist: { kind: "list", entity: "shopdiy" },
    shopdiy: { kind: "add", entity: "shopdiy" },
    shopdiyedit: { kind: "edit", entity: "shopdiy" },
  },
};
