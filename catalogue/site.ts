/**
 * The site's own settings (spec 3: site settings; spec 7: getwebsetinfo, getsysinfo): the console's title,
 * keywords, description and icon, the customer-service link and the user manual's address, edited by the
 * platform's operators on the settings page "sysset" (syssetinfo / syssetedit).
 */
import type { CatalogueDomain, SettingsDecl } from "../common/catalogue";
import { OPERATOR_ROLES } from "../common/roleKeys";

/** An absolute http(s) address without spaces. */
const LINK_PATTERN = "^https?://[^\\s/?#]+[^\\s]*$";

export const syssetSettings: SettingsDecl = {
  name: "sysset",
  scope: "platform",
  title: "site.sysset",
  roles: { info: OPERATOR_ROLES, edit: OPERATOR_ROLES },
  fields: [
    { name: "title", type: "string", label: "site.field.title", required: true, max: 100, default: "Campus Pay Console" },
    { name: "keywords", type: "string", label: "site.field.keywords", max: 300 },
    { name: "description", type: "text", label: "site.field.description", max: 500 },
    { name: "icon", type: "image", label: "site.field.icon", max: 500 },
    { name: "kfurl", type: "string", label: "site.field.kfurl", max: 500, pattern: LINK_PATTERN, patternMessage: "site.validation.link" },
    { name: "user_manual_url", type: "string", label: "site.field.user_manual_url", max: 500, pattern: LINK_PATTERN, patternMessage: "site.validation.link" },
  ],
};

export const site: CatalogueDomain = {
  entities: [],
  pages: { sysset: { kind: "settings", settings: "sysset" } },
  settings: [syssetSettings],
};
