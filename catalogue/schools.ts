/** Schools of a provider; grades, classes and students join them here. */
import type { CatalogueDomain, EntityDecl } from "../common/catalogue";
import { anyOf, OPERATOR_ROLES, PROVIDER_ROLES, PROVIDER_STAFF_ROLES, SCHOOL_ROLES } from "../common/roleKeys";
import { statusOptions, yesNo } from "./shared";

/** School of a provider; its own id is the school id (sch_id) of everything school-scoped. */
export const schoolEntity: EntityDecl = {
  name: "school",
  table: "schools",
  scope: "provider",
  tenantColumns: { sysid: "sysid", schid: "id" },
  title: "entity.school",
  titleField: "title",
  defaultSort: { field: "id", order: "desc" },
  roles: {
    list: anyOf(OPERATOR_ROLES, PROVIDER_ROLES, PROVIDER_STAFF_ROLES, SCHOOL_ROLES),
    // paymode: the v1 school's fee-project switch, whose pages read the school too
    info: anyOf(OPERATOR_ROLES, PROVIDER_ROLES, PROVIDER_STAFF_ROLES, SCHOOL_ROLES, ["paymode"]),
    add: PROVIDER_ROLES,
    edit: PROVIDER_ROLES,
  },
  fields: [
    { name: "id", type: "int", label: "field.id", list: true, sortable: true, detail: true },
    { name: "title", type: "string", label: "field.school_title", required: true, max: 100, list: true, filter: "like", sortable: true, form: true, detail: true },
    { name: "contact", type: "string", label: "field.contact", max: 50, list: true, form: true, detail: true },
    { name: "phone", type: "string", label: "field.phone", max: 20, pattern: "^[0-9+\\- ]{5,20}$", patternMessage: "validation.phone", list: true, form: true, detail: true },
    { name: "address", type: "string", label: "field.address", max: 200, form: true, detail: true },
    // the first term is set with the school; later it moves only by renewal, payment, code or contract maintenance
    { name: "endtime", type: "date", label: "field.endtime", required: true, list: true, filter: "range", sortable: true, form: "add", detail: true },
    { name: "select_paymode", type: "yesno", label: "field.select_paymode", default: "N", options: yesNo, form: true, detail: true },
    { name: "status", type: "enum", label: "field.status", required: true, default: "1", options: statusOptions, list: true, filter: "eq", form: true, detail: true },
    { name: "created_at", type: "datetime", label: "field.created_at", list: true, sortable: true, detail: true },
  ],
};

// no school page is built yet (schoollist, schooladd, schooledit...), so those routes stay out of the sidebar
export const schools: CatalogueDomain = {
  entities: [schoolEntity],
  pages: {},
};
