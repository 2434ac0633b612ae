/**
 * The help centre (/help: catelist, probllist; spec 2.2 and 2.3): the platform's categories of questions and the
 * questions with their answers, kept by its operators. Every signed-in user reads those meant for its kind of
 * account on the help page (`helpcenter`, server/domains/help/), opened from the header's help icon and the search.
 * Labels in locales/<lang>/help.json.
 */
import type { CatalogueDomain, EntityDecl, FieldOption } from "../common/catalogue";
import { OPERATOR_ROLES } from "../common/roleKeys";
import { statusOptions } from "./shared";

/** the kinds of account a question may be meant for (none chosen: every account) */
export const helpAudiences: FieldOption[] = [
  { value: "system", label: "help.audience.system" },
  { value: "service", label: "help.audience.service" },
  { value: "service_schadmin", label: "help.audience.service_schadmin" },
  { value: "school", label: "help.audience.school" },
  { value: "pickup", label: "help.audience.pickup" },
];

/** the longest answer, in characters of its HTML */
export const HELP_CONTENT_MAX = 20_000;

/** A category of the help centre (退款, 账号与登录); its questions are read under it in its order. */
export const helpCategoryEntity: EntityDecl = {
  name: "cate",
  table: "help_categories",
  scope: "platform",
  title: "help.entity.cate",
  titleField: "title",
  defaultSort: { field: "sort", order: "asc" },
  roles: { list: OPERATOR_ROLES, info: OPERATOR_ROLES, add: OPERATOR_ROLES, edit: OPERATOR_ROLES, del: OPERATOR_ROLES },
  fields: [
    { name: "id", type: "int", label: "field.id", sortable: true, detail: true },
    { name: "title", type: "string", label: "help.field.cate_title", required: true, max: 30, unique: true, list: true, filter: "like", form: true, detail: true },
    { name: "sort", type: "int", label: "field.sort", required: true, default: 0, min: 0, max: 9999, list: true, sortable: true, form: true, detail: true },
    { name: "status", type: "status", label: "field.status", required: true, default: "1", options: statusOptions, list: true, filter: "eq", form: true, detail: true },
    { name: "created_at", type: "datetime", label: "field.created_at", list: true, detail: true },
  ],
};

/** A question of the help centre and its answer (rich text kept to the server's allow-list). */
export const helpProblemEntity: EntityDecl = {
  name: "probl",
  table: "help_problems",
  scope: "platform",
  title: "help.entity.probl",
  titleField: "title",
  defaultSort: { field: "sort", order: "asc" },
  roles: { list: OPERATOR_ROLES, info: OPERATOR_ROLES, add: OPERATOR_ROLES, edit: OPERATOR_ROLES, del: OPERATOR_ROLES },
  fields: [
    { name: "id", type: "int", label: "field.id", sortable: true, detail: true },
    { name: "title", type: "string", label: "help.field.probl_title", required: true, max: 100, list: true, filter: "like", form: true, detail: true },
    { name: "cate_id", type: "ref", ref: { entity: "cate" }, label: "help.entity.cate", required: true, list: true, filter: "eq", form: true, detail: true },
    { name: "content", type: "richtext", label: "help.field.content", required: true, max: HELP_CONTENT_MAX, form: true, detail: true },
    // who reads it on the help page: none chosen, every account
    { name: "roles", type: "enums", label: "help.field.roles", options: helpAudiences, list: true, form: true, detail: true },
    { name: "sort", type: "int", label: "field.sort", required: true, default: 0, min: 0, max: 9999, list: true, sortable: true, form: true, detail: true },
    { name: "status", type: "status", label: "field.status", required: true, default: "1", options: statusOptions, list: true, filter: "eq", form: true, detail: true },
    { name: "created_at", type: "datetime", label: "field.created_at", list: true, detail: true },
  ],
};

export const help: CatalogueDomain = {
  entities: [helpCategoryEntity, helpProblemEntity],
  pages: {
    catelist: { kind: "list", entity: "cate" },
    cateadd: { kind: "add", entity: "cate" },
    cateedit: { kind: "edit", entity: "cate" },
    probllist: { kind: "list", entity: "probl" },
    probladd: { kind: "add", entity: "probl" },
    probledit: { kind: "edit", entity: "probl" },
  },
};
