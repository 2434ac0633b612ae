/**
 * The public website's content (/homes: syshome, articlelist, articleadd, articleedit; spec 2.2 and 2.3): the home
 * page's words, sections, contact and search-engine fields (the settings page `syshome`), and the articles, kept by
 * the platform's operators. The site itself, server-rendered at /site, is server/domains/site/publicSite.ts.
 * Labels in locales/<lang>/site.json.
 */
import type { CatalogueDomain, EntityDecl, FieldOption, SettingsDecl } from "../common/catalogue";
import { OPERATOR_ROLES } from "../common/roleKeys";
import { EMAIL_PATTERN } from "./shared";

export const homeSettings: SettingsDecl = {
  name: "syshome",
  scope: "platform",
  title: "site.home.title",
  roles: { info: OPERATOR_ROLES, edit: OPERATOR_ROLES },
  fields: [
    { name: "title", type: "string", label: "site.home.site_title", required: true, max: 60, default: "Campus Pay" },
    { name: "slogan", type: "string", label: "site.home.slogan", max: 120 },
    { name: "hero_image", type: "image", label: "site.home.hero_image" },
    { name: "sections", type: "sections", label: "site.home.sections" },
    { name: "contact_phone", type: "phone", label: "site.home.contact_phone" },
    { name: "contact_email", type: "string", label: "site.home.contact_email", max: 100, pattern: EMAIL_PATTERN, patternMessage: "site.validation.email" },
    { name: "contact_address", type: "string", label: "site.home.contact_address", max: 200 },
    { name: "footer", type: "text", label: "site.home.footer", max: 500 },
    // the site's ICP licence number (ICP备案号), which a site served in mainland China shows in its footer
    { name: "icp", type: "string", label: "site.home.icp", max: 50 },
    { name: "seo_title", type: "string", label: "site.home.seo_title", max: 60 },
    { name: "seo_keywords", type: "string", label: "site.home.seo_keywords", max: 200 },
    { name: "seo_description", type: "text", label: "site.home.seo_description", max: 300 },
  ],
};

export const articleStates: FieldOption[] = [
  { value: "draft", label: "site.article.draft", tone: "default" },
  { value: "published", label: "site.article.published", tone: "success" },
];

/**
 * An article of the public site: shown at /site/articles once published and its publishing time has come (a later
 * time holds it back until then); the server stamps the time it is first published at where none is given.
 */
export const articleEntity: EntityDecl = {
  name: "article",
  table: "site_articles",
  scope: "platform",
  title: "site.article.entity",
  titleField: "title",
  defaultSort: { field: "id", order: "desc" },
  stateField: "status",
  roles: { list: OPERATOR_ROLES, info: OPERATOR_ROLES, add: OPERATOR_ROLES, edit: OPERATOR_ROLES, del: OPERATOR_ROLES },
  fields: [
    { name: "id", type: "int", label: "field.id", sortable: true, detail: true },
    { name: "cover", type: "image", label: "site.article.cover", list: true, form: true, detail: true },
    { name: "title", type: "string", label: "site.article.title", required: true, max: 100, list: true, filter: "like", form: true, detail: true },
    { name: "summary", type: "text", label: "site.article.summary", max: 300, form: true, detail: true },
    { name: "content", type: "richtext", label: "site.article.content", required: true, max: 50_000, form: true, detail: true },
    { name: "status", type: "enum", label: "field.status", required: true, default: "draft", options: articleStates, list: true, filter: "eq", form: true, detail: true },
    { name: "published_at", type: "datetime", label: "site.article.published_at", list: true, filter: "range", sortable: true, form: true, detail: true },
    { name: "sort", type: "int", label: "field.sort", required: true, default: 0, min: 0, max: 9999, list: true, sortable: true, form: true, detail: true },
    { name: "updated_at", type: "datetime", label: "field.updated_at", list: true, sortable: true, detail: true },
    { name: "created_at", type: "datetime", label: "field.created_at", detail: true },
  ],
};

export const website: CatalogueDomain = {
  entities: [articleEntity],
  settings: [homeSettings],
  pages: {
    syshome: { kind: "settings", settings: "syshome" },
    articlelist: { kind: "list", entity: "article" },
    articleadd: { kind: "add", entity: "article" },
    articleedit: { kind: "edit", entity: "article" },
  },
};
