/**
 * The shop's customer service on enterprise WeChat (servicev2): the provider's enterprise WeChat account (qwkfset: its
 * corp id and the customer-service application's secret, kept encrypted and never answered) and its customer-service
 * accounts (qwkflist: each with the link that opens a chat with it), read from enterprise WeChat or entered by hand.
 * The payer page's "contact us" opens the link of the account chosen in qwkfset. Behaviour in
 * server/domains/retail/customerService.ts; labels in locales/<lang>/qwkf.json.
 */
import type { CatalogueDomain, EntityDecl, OperationDecl, SettingsDecl } from "../common/catalogue";
import { GOODS_MANAGERS } from "./goods";
import { statusOptions, yesNo } from "./shared";

/** The provider's enterprise WeChat account, and the customer-service account parents are sent to. */
export const customerServiceSettingsDecl: SettingsDecl = {
  name: "qwkfset",
  scope: "provider",
  title: "qwkf.settings_title",
  roles: { info: GOODS_MANAGERS, edit: GOODS_MANAGERS },
  fields: [
    { name: "contact_enabled", type: "yesno", label: "qwkf.contact_enabled", required: true, default: "N", options: yesNo },
    { name: "contact_kf_id", type: "ref", ref: { entity: "qwkf" }, label: "qwkf.contact_account" },
    // enterprise WeChat's corp ids begin "ww" (a corp's) or "wx" (an older one's)
    { name: "corp_id", type: "string", label: "qwkf.corp_id", max: 32, pattern: "^w[wx][0-9a-zA-Z]{8,30}$", patternMessage: "qwkf.corp_id_format" },
    // the secret of the customer-service (微信客服) app: encrypted, never answered; sent empty, the stored one stays
    { name: "corp_secret", type: "password", label: "qwkf.corp_secret", max: 64, pattern: "^[0-9A-Za-z_-]{20,64}$", patternMessage: "qwkf.corp_secret_format" },
  ],
};

/**
 * qwkfsync {}: the provider's customer-service accounts read from enterprise WeChat with qwkfset's corp id and
 * secret: those not listed yet added (with their chat link), the names and avatars of those listed updated by
 * open_kfid; an account entered by hand stays. Answers {added, updated, unchanged}.
 */
export const customerServiceSync: OperationDecl = {
  name: "qwkfsync",
  roles: GOODS_MANAGERS,
  effect: "write",
  title: "qwkf.sync.title",
  submit: "qwkf.sync.submit",
  invalidates: ["qwkf"],
  fields: [],
};

/** A customer-service account of the provider's enterprise WeChat and the link that opens a chat with it. */
export const customerServiceEntity: EntityDecl = {
  name: "qwkf",
  table: "qw_kf_accounts",
  scope: "provider",
  title: "qwkf.entity",
  titleField: "name",
  defaultSort: { field: "sort", order: "asc" },
  roles: { list: GOODS_MANAGERS, info: GOODS_MANAGERS, add: GOODS_MANAGERS, edit: GOODS_MANAGERS, del: GOODS_MANAGERS },
  // reading the accounts from enterprise WeChat (qwkfsync)
  listTools: ["qwkfsync"],
  fields: [
    { name: "id", type: "int", label: "field.id", sortable: true, detail: true },
    { name: "name", type: "string", label: "qwkf.name", required: true, max: 30, list: true, filter: "like", form: true, detail: true },
    { name: "avatar", type: "image", label: "qwkf.avatar", list: true, form: true, detail: true },
    // the account's id in enterprise WeChat (open_kfid, "wk..."): what reading the accounts again matches by
    { name: "open_kfid", type: "string", label: "qwkf.open_kfid", required: true, max: 64, pattern: "^wk[0-9A-Za-z_-]{6,62}$", patternMessage: "qwkf.open_kfid_format", unique: "tenant", list: true, filter: "eq", form: "add", detail: true },
    { name: "url", type: "string", label: "qwkf.url", required: true, max: 300, pattern: "^https://work\\.weixin\\.qq\\.com/\\S+$", patternMessage: "qwkf.url_format", list: true, form: true, detail: true },
    { name: "sort", type: "int", label: "field.sort", required: true, default: 0, min: 0, max: 9999, list: true, sortable: true, form: true, detail: true },
    { name: "status", type: "status", label: "field.status", required: true, default: "1", options: statusOptions, list: true, filter: "eq", form: true, detail: true },
    // when enterprise WeChat last named the account; none: entered by hand
    { name: "synced_at", type: "datetime", label: "qwkf.synced_at", list: true, detail: true },
    { name: "created_at", type: "datetime", label: "field.created_at", detail: true },
  ],
};

export const customerService: CatalogueDomain = {
  entities: [customerServiceEntity],
  settings: [customerServiceSettingsDecl],
  operations: [customerServiceSync],
  pages: {
    qwkfset: { kind: "settings", settings: "qwkfset" },
    qwkflist: { kind: "list", entity: "qwkf" },
  },
};
