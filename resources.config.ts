/**
 * The catalogue: every entity with its fields, tenant scope and roles, and every page and menu entry of both
 * menu generations (spec 2.2, 2.3). Server tables, validation and CRUD operations and the SPA's resources,
 * lists, forms and menus all come from here: a field list is never written twice.
 */
import type { Catalogue, EntityDecl, MenuEntry, MenuGroup, PageRef, RowAction } from "./common/catalogue";
import { MAX_TERM_MONTHS, REMARK_MAX_LENGTH } from "./common/renewalLimits";
import { OPERATOR_ROLES } from "./common/roleKeys";

const yesNo = [
  { value: "Y", label: "common.yes" },
  { value: "N", label: "common.no" },
];

/** Service provider (spec: serviceinfo gives title, end_time, open_activity_mode, xcx_upload). */
export const serviceEntity: EntityDecl = {
  name: "service",
  table: "providers",
  scope: "platform",
  title: "entity.service",
  titleField: "title",
  defaultSort: { field: "id", order: "desc" },
  roles: {
    list: OPERATOR_ROLES,
    // a provider reads its own record (top bar, renewal); the server narrows it to the caller's provider
    info: ["system", "systemv2", "service", "servicev2", "service_schadminv2", "pickup", "school", "schoolv2", "paymode"],
    add: OPERATOR_ROLES,
    edit: OPERATOR_ROLES,
  },
  fields: [
    { name: "id", type: "int", label: "field.id", list: true, sortable: true, detail: true },
    { name: "title", type: "string", label: "field.service_title", required: true, max: 100, unique: true, list: true, filter: "like", sortable: true, form: true, detail: true },
    { name: "contact", type: "string", label: "field.contact", max: 50, list: true, form: true, detail: true },
    { name: "phone", type: "string", label: "field.phone", max: 20, pattern: "^[0-9+\\- ]{5,20}$", patternMessage: "validation.phone", list: true, filter: "like", form: true, detail: true },
    { name: "servicer_ver", type: "enum", label: "field.servicer_ver", required: true, default: "v2", options: [{ value: "v1", label: "enum.ver.v1" }, { value: "v2", label: "enum.ver.v2" }], list: true, filter: "eq", form: true, detail: true },
    { name: "end_time", type: "date", label: "field.end_time", required: true, list: true, filter: "range", sortable: true, form: true, detail: true },
    { name: "year_fee", type: "money", label: "field.year_fee", default: "0.00", max: 100000000, form: true, detail: true },
    { name: "xcx_upload", type: "yesno", label: "field.xcx_upload", default: "N", options: yesNo, list: true, filter: "eq", form: true, detail: true },
    { name: "is_show_fee", type: "yesno", label: "field.is_show_fee", default: "N", options: yesNo, form: true, detail: true },
    { name: "open_activity_mode", type: "enum", label: "field.open_activity_mode", default: "1", options: [{ value: "1", label: "enum.activity_mode.1" }, { value: "2", label: "enum.activity_mode.2" }], form: true, detail: true },
    { name: "status", type: "enum", label: "field.status", required: true, default: "1", options: [{ value: "1", label: "enum.status.1" }, { value: "0", label: "enum.status.0" }], list: true, filter: "eq", form: true, detail: true },
    { name: "remark", type: "text", label: "field.remark", max: 500, form: true, detail: true },
    // the provider's first administrator account, created with the provider
    { name: "username", type: "string", label: "field.admin_username", required: true, min: 3, max: 50, pattern: "^[A-Za-z0-9_.@-]+$", patternMessage: "validation.username", form: "add", virtual: true },
    { name: "password", type: "password", label: "field.admin_password", required: true, min: 6, max: 64, form: "add", virtual: true },
    { name: "created_at", type: "datetime", label: "field.created_at", list: true, sortable: true, detail: true },
  ],
};

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
    list: ["system", "systemv2", "service", "servicev2", "service_schadminv2", "school", "schoolv2"],
    info: ["system", "systemv2", "service", "servicev2", "service_schadminv2", "school", "schoolv2", "paymode"],
    add: ["service", "servicev2"],
    edit: ["service", "servicev2"],
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
    { name: "status", type: "enum", label: "field.status", required: true, default: "1", options: [{ value: "1", label: "enum.status.1" }, { value: "0", label: "enum.status.0" }], list: true, filter: "eq", form: true, detail: true },
    { name: "created_at", type: "datetime", label: "field.created_at", list: true, sortable: true, detail: true },
  ],
};

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
    { name: "status", type: "enum", label: "field.status", required: true, default: "1", options: [{ value: "1", label: "enum.status.1" }, { value: "0", label: "enum.status.0" }], list: true, filter: "eq", form: true, detail: true },
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
export const actcodeVoid: RowAction = {
  operation: "actcodevoid",
  label: "renewal.void_code",
  confirm: "renewal.void_code_confirm",
  roles: OPERATOR_ROLES,
  when: { field: "status", value: "unused" },
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
  title: "entity.actcode",
  titleField: "code",
  defaultSort: { field: "id", order: "desc" },
  exportOperation: "actcodeexport",
  rowActions: [actcodeVoid],
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
    { name: "term_months", type: "int", label: "field.term_months", required: true, list: true, detail: true },
    { name: "status", type: "enum", label: "field.code_status", required: true, default: "unused", options: [{ value: "unused", label: "enum.code_status.unused" }, { value: "used", label: "enum.code_status.used" }, { value: "void", label: "enum.code_status.void" }], list: true, filter: "eq", detail: true },
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

export const entities: EntityDecl[] = [serviceEntity, schoolEntity, mealEntity, schoolRenewEntity, serviceDelayEntity, actcodeEntity];

/** A menu entry shown in the sidebar, titled menu.{name} unless a title is given. */
function item(name: string, icon: string, roles?: string[], extra: Partial<MenuEntry> = {}): MenuEntry {
  return { name, title: `menu.${name}`, icon, ...(roles ? { roles } : {}), ...extra };
}

/**
 * A hidden route opened from the list `from` (which stays highlighted); `record: true` when it names a record
 * (path parameter :id).
 */
function sub(name: string, from: string, roles?: string[], extra: Partial<MenuEntry> & { record?: boolean } = {}): MenuEntry {
  const { record, ...rest } = extra;
  return {
    name,
    title: `menu.${name}`,
    hidden: true,
    activeMenu: from,
    ...(record ? { params: [":id"] } : {}),
    ...(roles ? { roles } : {}),
    ...rest,
  };
}

const serviceList: PageRef = { kind: "list", entity: "service" };
const serviceAdd: PageRef = { kind: "add", entity: "service" };
const serviceEdit: PageRef = { kind: "edit", entity: "service" };
const mealList: PageRef = { kind: "list", entity: "meal" };
const mealAdd: PageRef = { kind: "add", entity: "meal" };
const mealEdit: PageRef = { kind: "edit", entity: "meal" };
const schoolRenewList: PageRef = { kind: "list", entity: "schoolrenew" };
const schoolRenewInfo: PageRef = { kind: "info", entity: "schoolrenew" };
const actcodeList: PageRef = { kind: "list", entity: "actcode" };
const recharge: PageRef = { kind: "custom", id: "recharge" };
const actcodeAdd: PageRef = { kind: "custom", id: "actcodeadd" };

/** Older generation (spec 2.2). */
const v1Menus: MenuGroup[] = [
  {
    path: "service",
    generation: "v1",
    title: "menu.group.service",
    icon: "ShopOutlined",
    roles: ["system"],
    children: [
      item("servicelist", "UnorderedListOutlined", undefined, { page: serviceList }),
      sub("serviceadd", "servicelist", undefined, { page: serviceAdd }),
      sub("serviceedit", "servicelist", undefined, { record: true, page: serviceEdit }),
    ],
  },
  {
    path: "activity",
    generation: "v1",
    title: "menu.group.activity",
    icon: "CalendarOutlined",
    roles: ["school", "paymode"],
    children: [
      item("activitylist", "CalendarOutlined", ["school"]),
      sub("activityadd", "activitylist", ["school"]),
      sub("activityedit", "activitylist", ["school"], { record: true }),
      item("studentlist", "TeamOutlined", ["school"]),
      sub("studentadd", "studentlist", ["school"]),
      sub("studentedit", "studentlist", ["school"], { record: true }),
      item("projectlist", "ProjectOutlined", ["paymode"]),
      sub("projectadd", "projectlist", ["paymode"]),
      sub("projectedit", "projectlist", ["paymode"], { record: true }),
    ],
  },
  {
    path: "school",
    generation: "v1",
    title: "menu.group.school",
    icon: "BankOutlined",
    roles: ["service", "school"],
    children: [
      item("schoollist", "BankOutlined", ["service"]),
      sub("schooladd", "schoollist", ["service"]),
      sub("schooledit", "schoollist", ["service"], { record: true }),
      sub("school_paychnllist", "schoollist", ["service"], { record: true }),
      item("devicelist", "PrinterOutlined", ["service"]),
      sub("deviceadd", "devicelist", ["service"]),
      sub("deviceedit", "devicelist", ["service"], { record: true }),
      item("schoolimportlog", "ImportOutlined", ["service"]),
      item("recharge", "WalletOutlined", ["service", "school"], { page: recharge }),
      item("schoolrenewlist", "HistoryOutlined", ["service", "school"], { page: schoolRenewList }),
      sub("schoolrenewinfo", "schoolrenewlist", ["service", "school"], { record: true, page: schoolRenewInfo }),
      item("gradelist", "ApartmentOutlined", ["school"]),
      sub("gradeadd", "gradelist", ["school"]),
      sub("gradeedit", "gradelist", ["school"], { record: true }),
      item("classeslist", "ClusterOutlined", ["school"]),
      sub("classesadd", "classeslist", ["school"]),
      sub("classesedit", "classeslist", ["school"], { record: true }),
    ],
  },
  {
    path: "order",
    generation: "v1",
    title: "menu.group.order",
    icon: "ProfileOutlined",
    roles: ["service", "school"],
    children: [
      item("orderlist", "ProfileOutlined"),
      sub("orderinfo", "orderlist", undefined, { record: true }),
      sub("orderprints", "orderlist", undefined, { record: true }),
    ],
  },
  {
    // the spec names this group without a path
    path: "datacount",
    generation: "v1",
    title: "menu.group.datacount",
    icon: "BarChartOutlined",
    roles: ["system", "service", "school"],
    children: [
      item("paycount_service", "FundOutlined", ["system", "service"]),
      item("paycount", "AccountBookOutlined", ["system", "service", "school"]),
      item("schoolcount", "BankOutlined", ["service"]),
      item("activitycount", "CalendarOutlined", ["school"]),
      item("gradecount", "ApartmentOutlined", ["school"]),
      item("classescount", "ClusterOutlined", ["school"]),
      sub("classescount_info", "classescount", ["school"], { record: true }),
      item("studentcount", "TeamOutlined", ["school"]),
      item("class_statis", "PieChartOutlined", ["school"]),
      item("sex_statis", "PieChartOutlined", ["school"]),
    ],
  },
  {
    path: "pay",
    generation: "v1",
    title: "menu.group.pay",
    icon: "PayCircleOutlined",
    roles: ["system", "service"],
    children: [
      item("paychnllist", "PayCircleOutlined", ["system", "service"]),
      sub("paychnlinfo", "paychnllist", ["system"], { record: true }),
      sub("paychnl_info", "paychnllist", ["system", "service"], { record: true }),
      sub("paychnl_infoadd", "paychnllist", ["system", "service"]),
      sub("paychnladd", "paychnllist", ["service"]),
      sub("paychnledit", "paychnllist", ["service"], { record: true }),
    ],
  },
  {
    path: "help",
    generation: "v1",
    title: "menu.group.help",
    icon: "QuestionCircleOutlined",
    roles: ["system"],
    children: [
      item("catelist", "FolderOutlined"),
      sub("cateadd", "catelist"),
      sub("cateedit", "catelist", undefined, { record: true }),
      item("probllist", "QuestionCircleOutlined"),
      sub("probladd", "probllist"),
      sub("probledit", "probllist", undefined, { record: true }),
    ],
  },
  {
    path: "meal",
    generation: "v1",
    title: "menu.group.meal",
    icon: "GiftOutlined",
    roles: ["system"],
    children: [
      item("meallist", "GiftOutlined", undefined, { page: mealList }),
      sub("mealadd", "meallist", undefined, { page: mealAdd }),
      sub("mealedit", "meallist", undefined, { record: true, page: mealEdit }),
    ],
  },
  {
    path: "actcode",
    generation: "v1",
    title: "menu.group.actcode",
    icon: "KeyOutlined",
    roles: ["system", "service"],
    children: [
      item("actcodelist", "KeyOutlined", ["system", "service"], { page: actcodeList }),
      sub("actcodeadd", "actcodelist", ["system"], { page: actcodeAdd }),
    ],
  },
  {
    path: "users",
    generation: "v1",
    title: "menu.group.users",
    icon: "UserOutlined",
    roles: ["system", "service", "superadmin"],
    children: [
      item("users_adminlist", "CrownOutlined", ["superadmin"]),
      sub("users_adminadd", "users_adminlist", ["superadmin"]),
      item("userslist", "UserOutlined", ["system", "service"]),
      sub("usersadd", "userslist", ["system", "service"]),
      sub("usersedit", "userslist", ["system", "service"], { record: true }),
    ],
  },
  {
    path: "homes",
    generation: "v1",
    title: "menu.group.homes",
    icon: "GlobalOutlined",
    roles: ["system"],
    children: [
      item("syshome", "HomeOutlined"),
      item("articlelist", "ReadOutlined"),
      sub("articleadd", "articlelist"),
      sub("articleedit", "articlelist", undefined, { record: true }),
    ],
  },
  {
    path: "sysadmin",
    generation: "v1",
    title: "menu.group.sysadmin",
    icon: "SettingOutlined",
    roles: ["system", "service", "xcxupload"],
    children: [
      item("sysset", "SettingOutlined", ["system"]),
      item("agentnoticeset", "NotificationOutlined", ["service"]),
      item("microappset", "AppstoreOutlined", ["system", "xcxupload"]),
    ],
  },
  {
    path: "specadmin",
    generation: "v1",
    title: "menu.group.specadmin",
    icon: "TagsOutlined",
    roles: ["service"],
    children: [item("sepclist", "TagsOutlined")],
  },
  {
    path: "client",
    generation: "v1",
    title: "menu.group.client",
    icon: "ContactsOutlined",
    roles: ["system"],
    children: [item("clientlist", "ContactsOutlined")],
  },
  {
    // the spec names this group without a path
    path: "goodsdata",
    generation: "v1",
    title: "menu.group.goodsdata",
    icon: "ShoppingOutlined",
    roles: ["service"],
    children: [
      item("service_activitylist", "CalendarOutlined"),
      sub("service_activityadd", "service_activitylist"),
      sub("service_activityedit", "service_activitylist", undefined, { record: true }),
      item("service_projectlist", "ProjectOutlined"),
      sub("service_projectadd", "service_projectlist"),
      sub("service_projectedit", "service_projectlist", undefined, { record: true }),
      item("goodslogs", "TruckOutlined"),
    ],
  },
  {
    path: "registeradmin",
    generation: "v1",
    title: "menu.group.registeradmin",
    icon: "FormOutlined",
    roles: ["system"],
    children: [item("registeradmin", "FormOutlined")],
  },
];

/** Newer generation (spec 2.3). */
const v2Menus: MenuGroup[] = [
  {
    path: "servicev2",
    generation: "v2",
    title: "menu.group.service",
    icon: "ShopOutlined",
    roles: ["systemv2"],
    children: [
      item("servicelist", "UnorderedListOutlined", undefined, { page: serviceList }),
      sub("serviceadd", "servicelist", undefined, { page: serviceAdd }),
      sub("serviceedit", "servicelist", undefined, { record: true, page: serviceEdit }),
      sub("servicedelayv2", "servicelist", undefined, { record: true, page: { kind: "custom", id: "servicedelayv2" } }),
      // the codes generated for the provider of the row it is opened from
      sub("serviceactcode", "servicelist", undefined, { record: true, page: { kind: "list", entity: "actcode", filters: { target: "service" }, recordFilter: "sysid" } }),
      item("servicedelaylist", "HistoryOutlined", undefined, { page: { kind: "list", entity: "servicedelay" } }),
    ],
  },
  {
    path: "schoolv2",
    generation: "v2",
    title: "menu.group.school",
    icon: "BankOutlined",
    roles: ["systemv2", "servicev2", "schoolv2", "service_schadminv2"],
    children: [
      item("schoollists", "BankOutlined", ["systemv2"]),
      item("schoollist", "BankOutlined", ["servicev2", "schoolv2", "service_schadminv2"]),
      sub("schooladd", "schoollist", ["servicev2"]),
      sub("schooledit", "schoollist", ["servicev2"], { record: true }),
      sub("school_paychnllist", "schoollist", ["servicev2"], { record: true }),
      item("gradelist", "ApartmentOutlined", ["servicev2", "schoolv2", "service_schadminv2"]),
      item("classeslist", "ClusterOutlined", ["servicev2", "schoolv2", "service_schadminv2"]),
      item("recharge", "WalletOutlined", ["servicev2", "schoolv2"], { page: recharge }),
      item("schoolrenewlist", "HistoryOutlined", ["servicev2", "schoolv2"], { page: schoolRenewList }),
      sub("schoolrenewinfo", "schoolrenewlist", ["servicev2", "schoolv2"], { record: true, page: schoolRenewInfo }),
      item("schoolimportlog", "ImportOutlined", ["servicev2", "service_schadminv2"]),
      item("meallist", "GiftOutlined", ["systemv2"], { page: mealList }),
      sub("mealadd", "meallist", ["systemv2"], { page: mealAdd }),
      sub("mealedit", "meallist", ["systemv2"], { record: true, page: mealEdit }),
      item("actcodelist", "KeyOutlined", ["systemv2", "servicev2"], { page: actcodeList }),
      sub("actcodeadd", "actcodelist", ["systemv2"], { page: actcodeAdd }),
    ],
  },
  {
    path: "goods",
    generation: "v2",
    title: "menu.group.goods",
    icon: "ShoppingOutlined",
    roles: ["servicev2"],
    children: [
      item("goodslist", "ShoppingOutlined"),
      sub("goodsadd", "goodslist"),
      sub("goodsedit", "goodslist", undefined, { record: true }),
      item("goodscatelist", "AppstoreOutlined"),
      sub("goodscateadd", "goodscatelist"),
      sub("goodscateedit", "goodscatelist", undefined, { record: true }),
      item("tracesourcelist", "BarcodeOutlined"),
    ],
  },
  {
    path: "shop",
    generation: "v2",
    title: "menu.group.shop",
    icon: "ShoppingCartOutlined",
    roles: ["servicev2", "pickup"],
    children: [
      // retail orders, not the subscription orders of /order
      item("orderlist", "ShoppingCartOutlined", ["servicev2"], { title: "menu.shop_orderlist" }),
      sub("shoporderinfo", "orderlist", ["servicev2"], { record: true }),
      item("orderdeliveryimportlog", "ImportOutlined", ["servicev2"]),
      item("saleslist", "RollbackOutlined", ["servicev2"]),
      sub("shopordersalesinfo", "saleslist", ["servicev2"], { record: true }),
      item("pickuprec", "ScanOutlined", ["servicev2", "pickup"]),
      item("pickupreclist", "CarryOutOutlined", ["servicev2", "pickup"]),
      sub("pickuprecinfo", "pickupreclist", ["servicev2", "pickup"], { record: true }),
      sub("pickuprecsalesinfo", "pickupreclist", ["servicev2", "pickup"], { record: true }),
    ],
  },
  {
    path: "activity",
    generation: "v2",
    title: "menu.group.activity",
    icon: "CalendarOutlined",
    roles: ["servicev2", "service_schadminv2"],
    children: [
      item("activitylist", "CalendarOutlined", ["servicev2", "service_schadminv2"]),
      item("payendaction", "GiftOutlined", ["servicev2"]),
      sub("payendactionadd", "payendaction", ["servicev2"]),
      sub("payendactionedit", "payendaction", ["servicev2"], { record: true }),
      sub("payendactionbind", "payendaction", ["servicev2"], { record: true }),
      sub("activityact", "activitylist", ["servicev2"], { record: true }),
      item("studentlist", "TeamOutlined", ["servicev2"]),
      sub("studentadd", "studentlist", ["servicev2"]),
      sub("studentedit", "studentlist", ["servicev2"], { record: true }),
      item("activityimportlog", "ImportOutlined", ["servicev2"]),
      item("qrchnllist", "QrcodeOutlined", ["servicev2"]),
      sub("qrchnladd", "qrchnllist", ["servicev2"]),
      sub("qrchnledit", "qrchnllist", ["servicev2"], { record: true }),
    ],
  },
  {
    path: "order",
    generation: "v2",
    title: "menu.group.order",
    icon: "ProfileOutlined",
    roles: ["servicev2", "schoolv2", "service_schadminv2", "pickup"],
    children: [
      item("orderlistv2", "ProfileOutlined", ["servicev2", "schoolv2", "service_schadminv2"]),
      sub("orderinfov2", "orderlistv2", ["servicev2", "schoolv2", "service_schadminv2"], { record: true }),
      sub("orderprintsv2", "orderlistv2", ["servicev2", "schoolv2", "service_schadminv2"], { record: true }),
      item("pickuprec", "ScanOutlined", ["servicev2", "pickup"]),
      item("pickupreclist", "CarryOutOutlined", ["servicev2", "pickup"]),
      item("saleslist", "RollbackOutlined", ["servicev2"]),
      item("zdorderdeliveryimportlog", "ImportOutlined", ["servicev2"]),
    ],
  },
  {
    path: "help",
    generation: "v2",
    title: "menu.group.help",
    icon: "QuestionCircleOutlined",
    roles: ["systemv2"],
    children: [
      item("catelist", "FolderOutlined"),
      sub("cateadd", "catelist"),
      sub("cateedit", "catelist", undefined, { record: true }),
      item("probllist", "QuestionCircleOutlined"),
      sub("probladd", "probllist"),
      sub("probledit", "probllist", undefined, { record: true }),
    ],
  },
  {
    // the spec's "pay group" is kept flat inside this group (menu groups do not nest)
    path: "sysadminv2",
    generation: "v2",
    title: "menu.group.sysadmin",
    icon: "SettingOutlined",
    roles: ["systemv2", "servicev2", "xcxuploadv2"],
    children: [
      item("sysset", "SettingOutlined", ["systemv2"]),
      item("notifyset", "BellOutlined", ["servicev2"]),
      item("agentnoticeset", "NotificationOutlined", ["servicev2"]),
      item("shopdefaultset", "ShopOutlined", ["servicev2"]),
      item("distrilist", "EnvironmentOutlined", ["servicev2"]),
      item("expresstpl", "TruckOutlined", ["servicev2"]),
      item("shopthemeset", "SkinOutlined", ["servicev2"]),
      item("bannerlist", "PictureOutlined", ["servicev2"]),
      item("shopdiylist", "LayoutOutlined", ["servicev2"]),
      sub("shopdiy", "shopdiylist", ["servicev2"]),
      sub("shopdiyedit", "shopdiylist", ["servicev2"], { record: true }),
      item("saleaddresslist", "EnvironmentOutlined", ["servicev2"]),
      item("photolist", "FileImageOutlined", ["servicev2"]),
      item("qwkfset", "CustomerServiceOutlined", ["servicev2"]),
      item("qwkflist", "WechatWorkOutlined", ["servicev2"]),
      item("devicelist", "PrinterOutlined", ["servicev2"]),
      item("devicemtprint", "PrinterOutlined", ["servicev2"]),
      sub("deviceadd", "devicelist", ["servicev2"]),
      sub("deviceedit", "devicelist", ["servicev2"], { record: true }),
      item("shophelp", "QuestionCircleOutlined", ["servicev2"]),
      item("acvitifyformlist", "FormOutlined", ["servicev2"]),
      sub("activityformact", "acvitifyformlist", ["servicev2"], { record: true }),
      item("paychnllist", "PayCircleOutlined", ["servicev2"]),
      sub("paychnlinfo", "paychnllist", ["servicev2"], { record: true }),
      sub("paychnl_info", "paychnllist", ["servicev2"], { record: true }),
      sub("paychnl_infoadd", "paychnllist", ["servicev2"]),
      sub("paychnladd", "paychnllist", ["servicev2"]),
      sub("paychnledit", "paychnllist", ["servicev2"], { record: true }),
      item("myaccountinfo", "WalletOutlined", ["servicev2"]),
      // the spec lists "payment accounts" in the pay group without a route name
      item("payaccountlist", "CreditCardOutlined", ["servicev2"]),
      item("channellist", "ApiOutlined", ["systemv2", "xcxuploadv2"]),
      sub("chnlset", "channellist", ["systemv2", "xcxuploadv2"], { record: true }),
      item("wxprivacy", "SafetyOutlined", ["systemv2", "xcxuploadv2"]),
      item("wxxcxinfo", "WechatOutlined", ["systemv2", "xcxuploadv2"]),
      item("wxpublish", "CloudUploadOutlined", ["systemv2", "xcxuploadv2"]),
      item("aliprivacy", "SafetyOutlined", ["systemv2", "xcxuploadv2"]),
      item("alixcxinfo", "AlipayOutlined", ["systemv2", "xcxuploadv2"]),
      item("alipublish", "CloudUploadOutlined", ["systemv2", "xcxuploadv2"]),
      item("microappset", "AppstoreOutlined", ["systemv2", "xcxuploadv2"]),
      item("wechatxcxmanages", "WechatOutlined", ["systemv2"]),
    ],
  },
  {
    path: "usersv2",
    generation: "v2",
    title: "menu.group.users",
    icon: "UserOutlined",
    roles: ["systemv2", "servicev2", "superadminv2"],
    children: [
      item("users_adminlist", "CrownOutlined", ["superadminv2"]),
      sub("users_adminadd", "users_adminlist", ["superadminv2"]),
      item("userslist", "UserOutlined"),
      sub("usersadd", "userslist"),
      sub("usersedit", "userslist", undefined, { record: true }),
    ],
  },
  {
    path: "datacount",
    generation: "v2",
    title: "menu.group.datacount",
    icon: "BarChartOutlined",
    roles: ["servicev2", "service_schadminv2", "schoolv2"],
    children: [
      item("paycount_servicev2", "FundOutlined", ["servicev2", "service_schadminv2"]),
      item("paycountv2", "AccountBookOutlined", ["servicev2", "service_schadminv2"]),
      item("schoolcountv2", "BankOutlined", ["servicev2", "service_schadminv2"]),
      item("activitycountv2", "CalendarOutlined", ["schoolv2"]),
      item("gradecountv2", "ApartmentOutlined", ["schoolv2"]),
      item("classescountv2", "ClusterOutlined", ["schoolv2"]),
      sub("classescount_infov2", "classescountv2", ["schoolv2"], { record: true }),
      item("class_statisv2", "PieChartOutlined", ["schoolv2"]),
      item("goods_statisv2", "ShoppingOutlined", ["servicev2"]),
      item("payrecord", "TransactionOutlined", ["servicev2"]),
      item("refundrecord", "RollbackOutlined", ["servicev2"]),
      item("settlerecord", "ReconciliationOutlined", ["servicev2"]),
    ],
  },
  {
    path: "clientv2",
    generation: "v2",
    title: "menu.group.client",
    icon: "ContactsOutlined",
    roles: ["systemv2"],
    children: [item("clientlist", "ContactsOutlined")],
  },
  {
    path: "registeradminv2",
    generation: "v2",
    title: "menu.group.registeradmin",
    icon: "FormOutlined",
    roles: ["systemv2"],
    children: [item("registeradmin", "FormOutlined")],
  },
  {
    path: "homesv2",
    generation: "v2",
    title: "menu.group.homes",
    icon: "GlobalOutlined",
    roles: ["systemv2"],
    children: [
      item("syshome", "HomeOutlined"),
      item("articlelist", "ReadOutlined"),
      sub("articleadd", "articlelist"),
      sub("articleedit", "articlelist", undefined, { record: true }),
    ],
  },
];

export const menus: MenuGroup[] = [...v1Menus, ...v2Menus];

export const catalogue: Catalogue = { entities, menus };

export function entityByName(name: string): EntityDecl | undefined {
  return entities.find((e) => e.name === name);
}
