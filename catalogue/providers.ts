/** Service providers: the platform's tenants, each with its version, term and first administrator. */
import type { CatalogueDomain, EntityDecl } from "../common/catalogue";
import { anyOf, OPERATOR_ROLES, PICKUP_ROLES, PROVIDER_ROLES, PROVIDER_STAFF_ROLES, SCHOOL_ROLES } from "../common/roleKeys";
import { statusOptions, yesNo } from "./shared";

/** Service provider (spec: serviceinfo gives title, end_time, open_activity_mode, xcx_upload). */
export const serviceEntity: EntityDecl = {
  name: "service",
  table: "providers",
  scope: "platform",
  // a provider reads its own record
  providerColumn: "id",
  title: "entity.service",
  titleField: "title",
  defaultSort: { field: "id", order: "desc" },
  roles: {
    list: OPERATOR_ROLES,
    // a provider reads its own record (top bar, renewal); the server narrows it to the caller's provider
    info: anyOf(OPERATOR_ROLES, PROVIDER_ROLES, PROVIDER_STAFF_ROLES, PICKUP_ROLES, SCHOOL_ROLES, ["paymode"]),
    add: OPERATOR_ROLES,
    edit: OPERATOR_ROLES,
  },
  fields: [
    { name: "id", type: "int", label: "field.id", list: true, sortable: true, detail: true },
    { name: "title", type: "string", label: "field.service_title", required: true, max: 100, unique: true, list: true, filter: "like", sortable: true, form: true, detail: true },
    { name: "contact", type: "string", label: "field.contact", max: 50, list: true, form: true, detail: true },
    { name: "phone", type: "string", label: "field.phone", max: 20, pattern: "^[0-9+\\- ]{5,20}$", patternMessage: "validation.phone", list: true, filter: "like", form: true, detail: true },
    { name: "servicer_ver", type: "enum", label: "field.servicer_ver", required: true, default: "v2", options: [{ value: "v1", label: "enum.ver.v1" }, { value: "v2", label: "enum.ver.v2" }], list: true, filter: "eq", form: true, detail: true },
    { name: "end_time", type: "date", label: "field.end_time", required: true, termEnd: true, list: true, filter: "range", sortable: true, form: true, detail: true },
    { name: "year_fee", type: "money", label: "field.year_fee", default: "0.00", max: 100000000, form: true, detail: true },
    { name: "xcx_upload", type: "yesno", label: "field.xcx_upload", default: "N", options: yesNo, list: true, filter: "eq", form: true, detail: true },
    { name: "is_show_fee", type: "yesno", label: "field.is_show_fee", default: "N", options: yesNo, form: true, detail: true },
    { name: "open_activity_mode", type: "enum", label: "field.open_activity_mode", default: "1", options: [{ value: "1", label: "enum.activity_mode.1" }, { value: "2", label: "enum.activity_mode.2" }], form: true, detail: true },
    { name: "status", type: "enum", label: "field.status", required: true, default: "1", options: statusOptions, list: true, filter: "eq", form: true, detail: true },
    { name: "remark", type: "text", label: "field.remark", max: 500, form: true, detail: true },
    // the provider's first administrator account, created with the provider
    { name: "username", type: "string", label: "field.admin_username", required: true, min: 3, max: 50, pattern: "^[A-Za-z0-9_.@-]+$", patternMessage: "validation.username", form: "add", virtual: true },
    { name: "password", type: "password", label: "field.admin_password", required: true, min: 6, max: 64, form: "add", virtual: true },
    { name: "created_at", type: "datetime", label: "field.created_at", list: true, sortable: true, detail: true },
  ],
};

export const providers: CatalogueDomain = {
  entities: [serviceEntity],
  pages: {
    servicelist: { kind: "list", entity: "service" },
    serviceadd: { kind: "add", entity: "service" },
    serviceedit: { kind: "edit", entity: "service" },
  },
};
