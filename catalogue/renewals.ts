/**
 * Renewals: the packages a school buys, the activation codes, and the records of every term extension of a school
 * or a provider (by payment, code or contract maintenance). The server side is server/domains/renewals/.
 */
import type { ActionDecl, CatalogueDomain, EntityDecl, OperationDecl } from "../common/catalogue";
import { MAX_CODES_PER_BATCH, MAX_TERM_MONTHS, REMARK_MAX_LENGTH } from "../common/renewalLimits";
import { OPERATOR_ROLES } from "../common/roleKeys";
import { statusOptions } from "./shared";

/** Renewal package a school buys by QR payment (spec 4.3; getsetmeal lists the enabled ones). */
export const mealEntity: EntityDecl = {
  name: "meal",
  table: "meal_packages",
  scope: "platform",
  title: "entity.meal",
  titleField: "title",
  defaultSort: { field: "sort", order: "asc" },
  roles: {
    list: OPERATOR_ROLES,
    info: OPERATOR_ROLES,
    add: OPERATOR_ROLES,
    edit: OPERATOR_ROLES,
  },
  fields: [
    { name: "id", type: "int", label: "field.id", list: true, sortable: true, detail: true },
    { name: "title", type: "string", label: "field.meal_title", required: true, max: 100, list: true, filter: "like", sortable: true, form: true, detail: true },
    { name: "term_months", type: "int", label: "field.term_months", required: true, min: 1, max: MAX_TERM_MONTHS, list: true, sortable: true, form: true, detail: true },
    { name: "fee", type: "money", label: "field.fee", required: true, min: 0.01, max: 1000000, list: true, sortable: true, form: true, detail: true },
    { name: "status", type: "enum", label: "field.status", required: true, default: "1", options: statusOptions, list: true, filter: "eq", form: true, detail: true },
    { name: "sort", type: "int", label: "field.sort", default: 0, min: 0, max: 9999, list: true, sortable: true, form: true, detail: true },
    { name: "remark", type: "text", label: "field.remark", max: REMARK_MAX_LENGTH, form: true, detail: true },
    { name: "created_at", type: "datetime", label: "field.created_at", list: true, sortable: true, detail: true },
  ],
};

const renewWays = [
  { value: "pay", label: "enum.renew_way.pay" },
  { value: "code", label: "enum.renew_way.code" },
  { value: "manual", label: "enum.renew_way.manual" },
];

/**
 * Fields every renewal record carries (school renewals and provider extensions): how the term was extended,
 * by how much, for what, and the term before and after. Written by the renewal operations, never edited.
 */
const renewalRecordFields: EntityDecl["fields"] = [
  { name: "way", type: "enum", label: "field.renew_way", required: true, options: renewWays, list: true, filter: "eq", detail: true },
  { name: "title", type: "string", label: "field.renew_title", required: true, max: 100, list: true, detail: true },
  { name: "term_months", type: "int", label: "field.term_months", required: true, list: true, detail: true },
  { name: "fee", type: "money", label: "field.fee", default: "0.00", list: true, detail: true },
  { name: "old_end", type: "date", label: "field.old_end", list: true, detail: true },
  { name: "new_end", type: "date", label: "field.new_end", required: true, list: true, filter: "range", sortable: true, detail: true },
  { name: "pay_no", type: "string", label: "field.pay_no", max: 32, filter: "eq", detail: true },
  { name: "act_code", type: "string", label: "field.act_code", max: 24, filter: "eq", detail: true },
  { name: "remark", type: "text", label: "field.remark", max: REMARK_MAX_LENGTH, detail: true },
  { name: "operator", type: "string", label: "field.operator", max: 50, list: true, detail: true },
  { name: "created_at", type: "datetime", label: "field.renewed_at", list: true, filter: "range", sortable: true, detail: true },
];

/** A school's subscription renewal (schoolrenewlist / schoolrenewinfo; spec 4.2: every renewal is recorded). */
export const schoolRenewEntity: EntityDecl = {
  name: "schoolrenew",
  table: "school_renewals",
  scope: "school",
  title: "entity.schoolrenew",
  titleField: "title",
  defaultSort: { field: "created_at", order: "desc" },
  // what the filtered renewals brought in
  summary: ["fee"],
  roles: {
    list: ["system", "systemv2", "service", "servicev2", "school", "schoolv2"],
    info: ["system", "systemv2", "service", "servicev2", "school", "schoolv2"],
  },
  fields: [
    { name: "id", type: "int", label: "field.id", list: true, detail: true },
    { name: "school_title", type: "string", label: "field.school_title", required: true, max: 100, list: true, filter: "like", detail: true },
    ...renewalRecordFields,
  ],
};

/** A provider's term extension (servicedelaylist; written by servicedelay, get_sysdelay_pay and delay_foractcode). */
export const serviceDelayEntity: EntityDecl = {
  name: "servicedelay",
  table: "provider_extensions",
  scope: "provider",
  title: "entity.servicedelay",
  titleField: "title",
  defaultSort: { field: "created_at", order: "desc" },
  roles: {
    list: OPERATOR_ROLES,
    info: OPERATOR_ROLES,
  },
  fields: [
    { name: "id", type: "int", label: "field.id", list: true, detail: true },
    { name: "service_title", type: "string", label: "field.service_title", required: true, max: 100, list: true, filter: "like", detail: true },
    ...renewalRecordFields,
  ],
};

/** Voiding an unused code (a batch made by mistake, a code that leaked): it can then no longer be redeemed. */
export const actcodeVoid: ActionDecl = {
  name: "actcodevoid",
  label: "renewal.void_code",
  confirm: "renewal.void_code_confirm",
  roles: OPERATOR_ROLES,
  from: ["unused"],
  to: "void",
  bulk: true,
  danger: true,
};

/**
 * Activation code (spec 4.3, 4.4): generated in batches by actcodeadd, redeemed once by renew (schools) or
 * delay_foractcode (providers). `sysid` / `sch_id` bind a code to a provider or school (empty: anyone of its
 * target may use it); a provider sees the codes bound to it.
 */
export const actcodeEntity: EntityDecl = {
  name: "actcode",
  table: "activation_codes",
  scope: "platform",
  // a provider sees the codes bound to it
  providerColumn: "sysid",
  title: "entity.actcode",
  titleField: "code",
  defaultSort: { field: "id", order: "desc" },
  exportOperation: "actcodeexport",
  stateField: "status",
  actions: [actcodeVoid],
  roles: {
    list: ["system", "systemv2", "service", "servicev2"],
    info: ["system", "systemv2", "service", "servicev2"],
  },
  fields: [
    { name: "id", type: "int", label: "field.id", sortable: true, detail: true },
    { name: "code", type: "string", label: "field.act_code", required: true, max: 24, unique: true, list: true, filter: "like", detail: true },
    { name: "batch_no", type: "string", label: "field.batch_no", required: true, max: 32, list: true, filter: "eq", detail: true },
    { name: "target", type: "enum", label: "field.code_target", required: true, options: [{ value: "school", label: "enum.code_target.school" }, { value: "service", label: "enum.code_target.service" }], list: true, filter: "eq", detail: true },
    { name: "sysid", type: "int", label: "field.bound_sysid", filter: "eq", detail: true },
    { name: "sch_id", type: "int", label: "field.bound_sch_id", filter: "eq", detail: true },
    // the provider or school the code is bound to, by name (empty: anyone of its target)
    { name: "bound_title", type: "string", label: "field.bound_title", max: 100, list: true, detail: true },
    { name: "meal_id", type: "int", label: "field.meal_id", detail: true },
    { name: "title", type: "string", label: "field.renew_title", required: true, max: 100, list: true, detail: true },
    { name: "term_months", type: "int", label: "field.term_months", required: true, detail: true },
    { name: "status", type: "enum", label: "field.code_status", required: true, default: "unused", options: [{ value: "unused", label: "enum.code_status.unused", tone: "processing" }, { value: "used", label: "enum.code_status.used", tone: "success" }, { value: "void", label: "enum.code_status.void", tone: "default" }], list: true, filter: "eq", detail: true },
    { name: "expires_on", type: "date", label: "field.expires_on", required: true, list: true, filter: "range", sortable: true, detail: true },
    { name: "used_at", type: "datetime", label: "field.used_at", list: true, sortable: true, detail: true },
    { name: "used_by", type: "string", label: "field.used_by", max: 50, list: true, detail: true },
    { name: "used_sysid", type: "int", label: "field.used_sysid", detail: true },
    { name: "used_sch_id", type: "int", label: "field.used_sch_id", detail: true },
    { name: "remark", type: "text", label: "field.remark", max: REMARK_MAX_LENGTH, detail: true },
    { name: "created_by", type: "string", label: "field.created_by", max: 50, detail: true },
    { name: "created_at", type: "datetime", label: "field.created_at", list: true, filter: "range", sortable: true, detail: true },
  ],
};

/**
 * A batch of activation codes (custom page actcodeadd): a package (`meal_id`) or a number of months, never both,
 * optionally bound to a provider (`sysid`) or one of its schools (`sch_id`).
 */
export const actcodeAddOperation: OperationDecl = {
  name: "actcodeadd",
  roles: OPERATOR_ROLES,
  effect: "write",
  title: "menu.actcodeadd",
  submit: "renewal.generate",
  invalidates: ["actcode"],
  fields: [
    { name: "count", type: "int", label: "renewal.code_count", required: true, min: 1, max: MAX_CODES_PER_BATCH },
    {
      name: "target",
      type: "enum",
      label: "renewal.code_target",
      required: true,
      options: [
        { value: "school", label: "renewal.target_school" },
        { value: "service", label: "renewal.target_service" },
      ],
    },
    { name: "meal_id", type: "int", label: "renewal.package", min: 1 },
    { name: "term_months", type: "int", label: "renewal.term_months", min: 1, max: MAX_TERM_MONTHS },
    { name: "expires_on", type: "date", label: "renewal.expires_on", required: true },
    { name: "sysid", type: "int", label: "renewal.bound_provider", min: 1 },
    { name: "sch_id", type: "int", label: "renewal.bound_school", min: 1 },
    { name: "remark", type: "text", label: "renewal.remark", max: REMARK_MAX_LENGTH },
  ],
};

/** Contract maintenance (custom page servicedelayv2): a provider's term extended by hand, with the fee agreed. */
export const serviceDelayOperation: OperationDecl = {
  name: "servicedelay",
  roles: OPERATOR_ROLES,
  effect: "write",
  title: "menu.servicedelayv2",
  submit: "renewal.extend",
  invalidates: ["servicedelay", "service"],
  fields: [
    { name: "sysid", type: "int", label: "renewal.provider", required: true, min: 1 },
    { name: "term_months", type: "int", label: "renewal.term_months", required: true, min: 1, max: MAX_TERM_MONTHS },
    { name: "fee", type: "money", label: "renewal.fee", min: 0, max: 100_000_000 },
    { name: "remark", type: "text", label: "renewal.remark", max: REMARK_MAX_LENGTH },
  ],
};

export const renewals: CatalogueDomain = {
  entities: [mealEntity, schoolRenewEntity, serviceDelayEntity, actcodeEntity],
  operations: [actcodeAddOperation, serviceDelayOperation],
  pages: {
    meallist: { kind: "list", entity: "meal" },
    mealadd: { kind: "add", entity: "meal" },
    mealedit: { kind: "edit", entity: "meal" },
    recharge: { kind: "custom", id: "recharge", calls: ["schoolinfo", "schoollist", "getsetmeal", "get_pay", "checkpay", "renew"] },
    schoolrenewlist: { kind: "list", entity: "schoolrenew" },
    schoolrenewinfo: { kind: "info", entity: "schoolrenew" },
    actcodelist: { kind: "list", entity: "actcode" },
    actcodeadd: { kind: "custom", id: "actcodeadd", calls: ["actcodeadd", "servicelist", "schoollist"] },
    // contract maintenance of the provider of the row it is opened from
    servicedelayv2: { kind: "custom", id: "servicedelayv2", calls: ["serviceinfo", "servicelist", "servicedelay"] },
    // the codes generated for the provider of the row it is opened from
    serviceactcode: { kind: "list", entity: "actcode", filters: { target: "service" }, recordFilter: "sysid" },
    servicedelaylist: { kind: "list", entity: "servicedelay" },
  },
};
