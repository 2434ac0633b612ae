/**
 * Every message of each language, all namespaces (the server's too), as tests name them: `en.crud.add`,
 * `zh.login.submit`. Typed from the English files so that a misspelt key fails the typecheck.
 */
import { readLocale } from "../../server/lib/locales";

// a type alias, not an interface, so that it still reads as a plain record of namespaces
type Messages = {
  accounts: typeof import("../../locales/en/accounts.json");
  aftersales: typeof import("../../locales/en/aftersales.json");
  api: typeof import("../../locales/en/api.json");
  audit: typeof import("../../locales/en/audit.json");
  clients: typeof import("../../locales/en/clients.json");
  collection: typeof import("../../locales/en/collection.json");
  common: typeof import("../../locales/en/common.json");
  crud: typeof import("../../locales/en/crud.json");
  dashboard: typeof import("../../locales/en/dashboard.json");
  devices: typeof import("../../locales/en/devices.json");
  dialog: typeof import("../../locales/en/dialog.json");
  diy: typeof import("../../locales/en/diy.json");
  downloads: typeof import("../../locales/en/downloads.json");
  entity: typeof import("../../locales/en/entity.json");
  enum: typeof import("../../locales/en/enum.json");
  errors: typeof import("../../locales/en/errors.json");
  fees: typeof import("../../locales/en/fees.json");
  help: typeof import("../../locales/en/help.json");
  field: typeof import("../../locales/en/field.json");
  import: typeof import("../../locales/en/import.json");
  login: typeof import("../../locales/en/login.json");
  menu: typeof import("../../locales/en/menu.json");
  miniapps: typeof import("../../locales/en/miniapps.json");
  notice_bind: typeof import("../../locales/en/notice_bind.json");
  openapi: typeof import("../../locales/en/openapi.json");
  notices: typeof import("../../locales/en/notices.json");
  pages: typeof import("../../locales/en/pages.json");
  photos: typeof import("../../locales/en/photos.json");
  renewal: typeof import("../../locales/en/renewal.json");
  recon: typeof import("../../locales/en/recon.json");
  refunds: typeof import("../../locales/en/refunds.json");
  register: typeof import("../../locales/en/register.json");
  retail: typeof import("../../locales/en/retail.json");
  reports: typeof import("../../locales/en/reports.json");
  sandbox: typeof import("../../locales/en/sandbox.json");
  settings: typeof import("../../locales/en/settings.json");
  settle: typeof import("../../locales/en/settle.json");
  shell: typeof import("../../locales/en/shell.json");
  site: typeof import("../../locales/en/site.json");
  validation: typeof import("../../locales/en/validation.json");
};

// tests/unit/localeKeys.test.ts checks that the three languages hold the same keys
export const en = readLocale("en") as unknown as Messages;
export const zh = readLocale("zh") as unknown as Messages;
export const es = readLocale("es") as unknown as Messages;
