// Generated from the catalogue's entity declarations by `npm run generate:tables` (server/db/generateTables.ts).
// Do not edit: change the declaration, run the generator, then `npx drizzle-kit generate`.
import { bigint, date, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex, varchar, type AnyPgColumn } from "drizzle-orm/pg-core";

/** service (entity.service) */
export const providers = pgTable(
  "providers",
  {
    id: serial("id").primaryKey(),
    title: varchar("title", { length: 100 }).notNull(),
    contact: varchar("contact", { length: 50 }),
    phone: varchar("phone", { length: 20 }),
    servicer_ver: varchar("servicer_ver", { length: 32 }).default("v2").notNull(),
    end_time: date("end_time", { mode: "string" }).notNull(),
    year_fee: bigint("year_fee", { mode: "number" }).default(0).notNull(),
    xcx_upload: varchar("xcx_upload", { length: 1 }).default("N").notNull(),
    is_show_fee: varchar("is_show_fee", { length: 1 }).default("N").notNull(),
    open_activity_mode: varchar("open_activity_mode", { length: 32 }).default("1").notNull(),
    status: varchar("status", { length: 32 }).default("1").notNull(),
    remark: text("remark"),
    created_at: timestamp("created_at", { withTimezone: true, mode: "date" }).defaultNow().notNull(),
  },
  (t) => [
    index("providers_phone_idx").on(t.phone),
    index("providers_servicer_ver_idx").on(t.servicer_ver),
    index("providers_end_time_idx").on(t.end_time),
    index("providers_xcx_upload_idx").on(t.xcx_upload),
    index("providers_status_idx").on(t.status),
    index("providers_created_at_idx").on(t.created_at),
    uniqueIndex("providers_title_unique").on(t.title),
  ],
);

/** school (entity.school) */
export const schools = pgTable(
  "schools",
  {
    id: serial("id").primaryKey(),
    title: varchar("title", { length: 100 }).notNull(),
    sysid: integer("sysid").notNull().references((): AnyPgColumn => providers.id),
    contact: varchar("contact", { length: 50 }),
    phone: varchar("phone", { length: 20 }),
    address: varchar("address", { length: 200 }),
    endtime: date("endtime", { mode: "string" }).notNull(),
    select_paymode: varchar("select_paymode", { length: 1 }).default("N").notNull(),
    status: varchar("status", { length: 1 }).default("1").notNull(),
    created_at: timestamp("created_at", { withTimezone: true, mode: "date" }).defaultNow().notNull(),
  },
  (t) => [
    index("schools_sysid_id_idx").on(t.sysid, t.id),
    index("schools_title_idx").on(t.title),
    index("schools_endtime_idx").on(t.endtime),
    index("schools_status_idx").on(t.status),
    index("schools_created_at_idx").on(t.created_at),
  ],
);

/** grade (entity.grade) */
export const grades = pgTable(
  "grades",
  {
    id: serial("id").primaryKey(),
    sch_id: integer("sch_id").notNull().references((): AnyPgColumn => schools.id),
    title: varchar("title", { length: 50 }).notNull(),
    sort: integer("sort").default(0).notNull(),
    created_at: timestamp("created_at", { withTimezone: true, mode: "date" }).defaultNow().notNull(),
    sysid: integer("sysid").notNull(),
  },
  (t) => [
    index("grades_sch_id_sort_id_idx").on(t.sch_id, t.sort, t.id),
    index("grades_sysid_sort_id_idx").on(t.sysid, t.sort, t.id),
    index("grades_sort_idx").on(t.sort),
    uniqueIndex("grades_sch_id_title_unique").on(t.sch_id, t.title),
  ],
);

/** classes (entity.classes) */
export const classes = pgTable(
  "classes",
  {
    id: serial("id").primaryKey(),
    sch_id: integer("sch_id").notNull().references((): AnyPgColumn => schools.id),
    grade_id: integer("grade_id").notNull().references((): AnyPgColumn => grades.id),
    title: varchar("title", { length: 50 }).notNull(),
    created_at: timestamp("created_at", { withTimezone: true, mode: "date" }).defaultNow().notNull(),
    sysid: integer("sysid").notNull(),
  },
  (t) => [
    index("classes_sch_id_grade_id_id_idx").on(t.sch_id, t.grade_id, t.id),
    index("classes_sysid_grade_id_id_idx").on(t.sysid, t.grade_id, t.id),
    index("classes_grade_id_sch_id_sysid_id_idx").on(t.grade_id, t.sch_id, t.sysid, t.id),
    uniqueIndex("classes_grade_id_title_unique").on(t.grade_id, t.title),
  ],
);

/** student (entity.student) */
export const students = pgTable(
  "students",
  {
    id: serial("id").primaryKey(),
    name: varchar("name", { length: 50 }).notNull(),
    sch_id: integer("sch_id").notNull().references((): AnyPgColumn => schools.id),
    student_no: varchar("student_no", { length: 32 }).notNull(),
    sex: varchar("sex", { length: 32 }).notNull(),
    grade_id: integer("grade_id").notNull().references((): AnyPgColumn => grades.id),
    class_id: integer("class_id").notNull().references((): AnyPgColumn => classes.id),
    guardian_name: varchar("guardian_name", { length: 50 }),
    guardian_phone: varchar("guardian_phone", { length: 20 }),
    id_card: varchar("id_card", { length: 18 }),
    status: varchar("status", { length: 1 }).default("1").notNull(),
    created_at: timestamp("created_at", { withTimezone: true, mode: "date" }).defaultNow().notNull(),
    sysid: integer("sysid").notNull(),
  },
  (t) => [
    index("students_sch_id_id_idx").on(t.sch_id, t.id),
    index("students_sysid_id_idx").on(t.sysid, t.id),
    index("students_name_idx").on(t.name),
    index("students_sex_idx").on(t.sex),
    index("students_grade_id_sch_id_sysid_id_idx").on(t.grade_id, t.sch_id, t.sysid, t.id),
    index("students_class_id_sch_id_sysid_id_idx").on(t.class_id, t.sch_id, t.sysid, t.id),
    index("students_guardian_phone_idx").on(t.guardian_phone),
    index("students_status_idx").on(t.status),
    index("students_created_at_idx").on(t.created_at),
    uniqueIndex("students_sch_id_student_no_unique").on(t.sch_id, t.student_no),
  ],
);

/** meal (entity.meal) */
export const mealPackages = pgTable(
  "meal_packages",
  {
    id: serial("id").primaryKey(),
    title: varchar("title", { length: 100 }).notNull(),
    term_months: integer("term_months").notNull(),
    fee: bigint("fee", { mode: "number" }).notNull(),
    status: varchar("status", { length: 32 }).default("1").notNull(),
    sort: integer("sort").default(0).notNull(),
    remark: text("remark"),
    created_at: timestamp("created_at", { withTimezone: true, mode: "date" }).defaultNow().notNull(),
  },
  (t) => [
    index("meal_packages_title_idx").on(t.title),
    index("meal_packages_term_months_idx").on(t.term_months),
    index("meal_packages_fee_idx").on(t.fee),
    index("meal_packages_status_idx").on(t.status),
    index("meal_packages_sort_idx").on(t.sort),
    index("meal_packages_created_at_idx").on(t.created_at),
  ],
);

/** schoolrenew (entity.schoolrenew) */
export const schoolRenewals = pgTable(
  "school_renewals",
  {
    id: serial("id").primaryKey(),
    school_title: varchar("school_title", { length: 100 }).notNull(),
    way: varchar("way", { length: 32 }).notNull(),
    title: varchar("title", { length: 100 }).notNull(),
    term_months: integer("term_months").notNull(),
    fee: bigint("fee", { mode: "number" }).default(0).notNull(),
    old_end: date("old_end", { mode: "string" }),
    new_end: date("new_end", { mode: "string" }).notNull(),
    pay_no: varchar("pay_no", { length: 32 }),
    act_code: varchar("act_code", { length: 24 }),
    remark: text("remark"),
    operator: varchar("operator", { length: 50 }),
    created_at: timestamp("created_at", { withTimezone: true, mode: "date" }).defaultNow().notNull(),
    sysid: integer("sysid").notNull(),
    sch_id: integer("sch_id").notNull(),
  },
  (t) => [
    index("school_renewals_sch_id_created_at_id_idx").on(t.sch_id, t.created_at, t.id),
    index("school_renewals_sysid_created_at_id_idx").on(t.sysid, t.created_at, t.id),
    index("school_renewals_school_title_idx").on(t.school_title),
    index("school_renewals_way_idx").on(t.way),
    index("school_renewals_new_end_idx").on(t.new_end),
    index("school_renewals_pay_no_idx").on(t.pay_no),
    index("school_renewals_act_code_idx").on(t.act_code),
    index("school_renewals_created_at_idx").on(t.created_at),
  ],
);

/** servicedelay (entity.servicedelay) */
export const providerExtensions = pgTable(
  "provider_extensions",
  {
    id: serial("id").primaryKey(),
    service_title: varchar("service_title", { length: 100 }).notNull(),
    way: varchar("way", { length: 32 }).notNull(),
    title: varchar("title", { length: 100 }).notNull(),
    term_months: integer("term_months").notNull(),
    fee: bigint("fee", { mode: "number" }).default(0).notNull(),
    old_end: date("old_end", { mode: "string" }),
    new_end: date("new_end", { mode: "string" }).notNull(),
    pay_no: varchar("pay_no", { length: 32 }),
    act_code: varchar("act_code", { length: 24 }),
    remark: text("remark"),
    operator: varchar("operator", { length: 50 }),
    created_at: timestamp("created_at", { withTimezone: true, mode: "date" }).defaultNow().notNull(),
    sysid: integer("sysid").notNull(),
  },
  (t) => [
    index("provider_extensions_sysid_created_at_id_idx").on(t.sysid, t.created_at, t.id),
    index("provider_extensions_service_title_idx").on(t.service_title),
    index("provider_extensions_way_idx").on(t.way),
    index("provider_extensions_new_end_idx").on(t.new_end),
    index("provider_extensions_pay_no_idx").on(t.pay_no),
    index("provider_extensions_act_code_idx").on(t.act_code),
    index("provider_extensions_created_at_idx").on(t.created_at),
  ],
);

/** actcode (entity.actcode) */
export const activationCodes = pgTable(
  "activation_codes",
  {
    id: serial("id").primaryKey(),
    code: varchar("code", { length: 24 }).notNull(),
    batch_no: varchar("batch_no", { length: 32 }).notNull(),
    target: varchar("target", { length: 32 }).notNull(),
    sysid: integer("sysid"),
    sch_id: integer("sch_id"),
    bound_title: varchar("bound_title", { length: 100 }),
    meal_id: integer("meal_id"),
    title: varchar("title", { length: 100 }).notNull(),
    term_months: integer("term_months").notNull(),
    status: varchar("status", { length: 32 }).default("unused").notNull(),
    expires_on: date("expires_on", { mode: "string" }).notNull(),
    used_at: timestamp("used_at", { withTimezone: true, mode: "date" }),
    used_by: varchar("used_by", { length: 50 }),
    used_sysid: integer("used_sysid"),
    used_sch_id: integer("used_sch_id"),
    remark: text("remark"),
    created_by: varchar("created_by", { length: 50 }),
    created_at: timestamp("created_at", { withTimezone: true, mode: "date" }).defaultNow().notNull(),
  },
  (t) => [
    index("activation_codes_batch_no_idx").on(t.batch_no),
    index("activation_codes_target_idx").on(t.target),
    index("activation_codes_sysid_idx").on(t.sysid),
    index("activation_codes_sch_id_idx").on(t.sch_id),
    index("activation_codes_status_idx").on(t.status),
    index("activation_codes_expires_on_idx").on(t.expires_on),
    index("activation_codes_used_at_idx").on(t.used_at),
    index("activation_codes_created_at_idx").on(t.created_at),
    uniqueIndex("activation_codes_code_unique").on(t.code),
  ],
);

/** registration (register.entity) */
export const providerRegistrations = pgTable(
  "provider_registrations",
  {
    id: serial("id").primaryKey(),
    org: varchar("org", { length: 100 }).notNull(),
    contact: varchar("contact", { length: 50 }).notNull(),
    mobile: varchar("mobile", { length: 20 }).notNull(),
    email: varchar("email", { length: 100 }).notNull(),
    region: varchar("region", { length: 32 }).notNull(),
    licence_images: varchar("licence_images", { length: 500 }).array().notNull(),
    message: text("message"),
    status: varchar("status", { length: 32 }).default("pending").notNull(),
    reject_reason: varchar("reject_reason", { length: 200 }),
    reviewed_by: varchar("reviewed_by", { length: 50 }),
    reviewed_at: timestamp("reviewed_at", { withTimezone: true, mode: "date" }),
    provider_id: integer("provider_id").references((): AnyPgColumn => providers.id),
    username: varchar("username", { length: 50 }),
    ip: varchar("ip", { length: 64 }),
    follow_hash: varchar("follow_hash", { length: 64 }),
    password_hash: varchar("password_hash", { length: 64 }),
    password_expires_at: timestamp("password_expires_at", { withTimezone: true, mode: "date" }),
    password_set_at: timestamp("password_set_at", { withTimezone: true, mode: "date" }),
    created_at: timestamp("created_at", { withTimezone: true, mode: "date" }).defaultNow().notNull(),
  },
  (t) => [
    index("provider_registrations_org_idx").on(t.org),
    index("provider_registrations_mobile_idx").on(t.mobile),
    index("provider_registrations_region_idx").on(t.region),
    index("provider_registrations_status_idx").on(t.status),
    index("provider_registrations_created_at_idx").on(t.created_at),
    uniqueIndex("provider_registrations_follow_hash_unique").on(t.follow_hash),
    uniqueIndex("provider_registrations_password_hash_unique").on(t.password_hash),
  ],
);

/** client (clients.entity) */
export const apiClients = pgTable(
  "api_clients",
  {
    id: serial("id").primaryKey(),
    title: varchar("title", { length: 50 }).notNull(),
    sysid: integer("sysid").notNull().references((): AnyPgColumn => providers.id),
    sch_id: integer("sch_id").references((): AnyPgColumn => schools.id),
    client_id: varchar("client_id", { length: 40 }),
    secret_hash: varchar("secret_hash", { length: 64 }),
    secret_sealed: varchar("secret_sealed", { length: 200 }),
    scopes: varchar("scopes", { length: 32 }).array().notNull(),
    allowed_ips: text("allowed_ips"),
    rate_limit: integer("rate_limit").default(120).notNull(),
    webhook_url: varchar("webhook_url", { length: 300 }),
    status: varchar("status", { length: 1 }).default("1").notNull(),
    last_used_at: timestamp("last_used_at", { withTimezone: true, mode: "date" }),
    remark: text("remark"),
    created_at: timestamp("created_at", { withTimezone: true, mode: "date" }).defaultNow().notNull(),
  },
  (t) => [
    index("api_clients_title_idx").on(t.title),
    index("api_clients_sysid_id_idx").on(t.sysid, t.id),
    index("api_clients_sch_id_id_idx").on(t.sch_id, t.id),
    index("api_clients_status_idx").on(t.status),
    index("api_clients_last_used_at_idx").on(t.last_used_at),
    index("api_clients_created_at_idx").on(t.created_at),
    uniqueIndex("api_clients_client_id_unique").on(t.client_id),
  ],
);

/** miniapp (miniapps.entity) */
export const miniPrograms = pgTable(
  "mini_programs",
  {
    id: serial("id").primaryKey(),
    nickname: varchar("nickname", { length: 50 }).notNull(),
    platform: varchar("platform", { length: 32 }).notNull(),
    appid: varchar("appid", { length: 32 }).notNull(),
    sysid: integer("sysid").references((): AnyPgColumn => providers.id),
    auth_status: varchar("auth_status", { length: 32 }).default("authorized").notNull(),
    ext_json: text("ext_json"),
    publish_status: varchar("publish_status", { length: 32 }).default("none").notNull(),
    exp_version: varchar("exp_version", { length: 64 }),
    exp_qrcode: varchar("exp_qrcode", { length: 500 }),
    audit_id: varchar("audit_id", { length: 32 }),
    audit_reason: text("audit_reason"),
    live_version: varchar("live_version", { length: 64 }),
    previous_version: varchar("previous_version", { length: 64 }),
    released_at: timestamp("released_at", { withTimezone: true, mode: "date" }),
    privacy_dev: text("privacy_dev"),
    privacy_live: text("privacy_live"),
    last_error: varchar("last_error", { length: 300 }),
    auth_refresh_token: text("auth_refresh_token"),
    auth_access_token: text("auth_access_token"),
    auth_token_expires_at: timestamp("auth_token_expires_at", { withTimezone: true, mode: "date" }),
    sandbox_error: varchar("sandbox_error", { length: 8 }),
    sandbox_audit: varchar("sandbox_audit", { length: 220 }),
    created_at: timestamp("created_at", { withTimezone: true, mode: "date" }).defaultNow().notNull(),
  },
  (t) => [
    index("mini_programs_nickname_idx").on(t.nickname),
    index("mini_programs_platform_idx").on(t.platform),
    index("mini_programs_sysid_id_idx").on(t.sysid, t.id),
    index("mini_programs_auth_status_idx").on(t.auth_status),
    index("mini_programs_publish_status_idx").on(t.publish_status),
    index("mini_programs_released_at_idx").on(t.released_at),
    index("mini_programs_created_at_idx").on(t.created_at),
    uniqueIndex("mini_programs_appid_unique").on(t.appid),
  ],
);

/** miniappcall (miniapps.call_entity) */
export const miniProgramCalls = pgTable(
  "mini_program_calls",
  {
    id: serial("id").primaryKey(),
    app_id: integer("app_id").notNull().references((): AnyPgColumn => miniPrograms.id),
    sysid: integer("sysid").notNull().references((): AnyPgColumn => providers.id),
    call: varchar("call", { length: 60 }).notNull(),
    request: text("request"),
    errcode: integer("errcode").default(0).notNull(),
    answer: text("answer"),
    at: timestamp("at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [
    index("mini_program_calls_app_id_id_idx").on(t.app_id, t.id),
    index("mini_program_calls_call_idx").on(t.call),
    index("mini_program_calls_at_idx").on(t.at),
  ],
);

/** article (site.article.entity) */
export const siteArticles = pgTable(
  "site_articles",
  {
    id: serial("id").primaryKey(),
    cover: varchar("cover", { length: 500 }),
    title: varchar("title", { length: 100 }).notNull(),
    summary: text("summary"),
    content: text("content").notNull(),
    status: varchar("status", { length: 32 }).default("draft").notNull(),
    published_at: timestamp("published_at", { withTimezone: true, mode: "date" }),
    sort: integer("sort").default(0).notNull(),
    updated_at: timestamp("updated_at", { withTimezone: true, mode: "date" }),
    created_at: timestamp("created_at", { withTimezone: true, mode: "date" }).defaultNow().notNull(),
  },
  (t) => [
    index("site_articles_title_idx").on(t.title),
    index("site_articles_status_idx").on(t.status),
    index("site_articles_published_at_idx").on(t.published_at),
    index("site_articles_sort_idx").on(t.sort),
    index("site_articles_updated_at_idx").on(t.updated_at),
  ],
);

/** cate (help.entity.cate) */
export const helpCategories = pgTable(
  "help_categories",
  {
    id: serial("id").primaryKey(),
    title: varchar("title", { length: 30 }).notNull(),
    sort: integer("sort").default(0).notNull(),
    status: varchar("status", { length: 1 }).default("1").notNull(),
    created_at: timestamp("created_at", { withTimezone: true, mode: "date" }).defaultNow().notNull(),
  },
  (t) => [
    index("help_categories_sort_idx").on(t.sort),
    index("help_categories_status_idx").on(t.status),
    uniqueIndex("help_categories_title_unique").on(t.title),
  ],
);

/** probl (help.entity.probl) */
export const helpProblems = pgTable(
  "help_problems",
  {
    id: serial("id").primaryKey(),
    title: varchar("title", { length: 100 }).notNull(),
    cate_id: integer("cate_id").notNull().references((): AnyPgColumn => helpCategories.id),
    content: text("content").notNull(),
    roles: varchar("roles", { length: 32 }).array(),
    sort: integer("sort").default(0).notNull(),
    status: varchar("status", { length: 1 }).default("1").notNull(),
    created_at: timestamp("created_at", { withTimezone: true, mode: "date" }).defaultNow().notNull(),
  },
  (t) => [
    index("help_problems_title_idx").on(t.title),
    index("help_problems_cate_id_sort_id_idx").on(t.cate_id, t.sort, t.id),
    index("help_problems_sort_idx").on(t.sort),
    index("help_problems_status_idx").on(t.status),
  ],
);

/** schoolimportlog (import.entity) */
export const schoolImportLogs = pgTable(
  "school_import_logs",
  {
    id: serial("id").primaryKey(),
    entity: varchar("entity", { length: 32 }).notNull(),
    sch_id: integer("sch_id").notNull().references((): AnyPgColumn => schools.id),
    filename: varchar("filename", { length: 255 }).notNull(),
    username: varchar("username", { length: 50 }).notNull(),
    created_at: timestamp("created_at", { withTimezone: true, mode: "date" }).defaultNow().notNull(),
    total: integer("total").default(0).notNull(),
    imported: integer("imported").default(0).notNull(),
    error_count: integer("error_count").default(0).notNull(),
    status: varchar("status", { length: 32 }).notNull(),
    errors: text("errors"),
    sysid: integer("sysid").notNull(),
  },
  (t) => [
    index("school_import_logs_sch_id_created_at_id_idx").on(t.sch_id, t.created_at, t.id),
    index("school_import_logs_sysid_created_at_id_idx").on(t.sysid, t.created_at, t.id),
    index("school_import_logs_entity_idx").on(t.entity),
    index("school_import_logs_created_at_idx").on(t.created_at),
    index("school_import_logs_status_idx").on(t.status),
  ],
);

/** paychnl (fees.entity.paychnl) */
export const paymentChannels = pgTable(
  "payment_channels",
  {
    id: serial("id").primaryKey(),
    title: varchar("title", { length: 50 }).notNull(),
    sysid: integer("sysid").notNull().references((): AnyPgColumn => providers.id),
    gateway: varchar("gateway", { length: 32 }).default("wechatpay").notNull(),
    sub_mchid: varchar("sub_mchid", { length: 32 }),
    status: varchar("status", { length: 32 }).default("draft").notNull(),
    reject_reason: text("reject_reason"),
    subject: varchar("subject", { length: 100 }),
    licence_no: varchar("licence_no", { length: 18 }),
    legal_person: varchar("legal_person", { length: 50 }),
    contact_name: varchar("contact_name", { length: 50 }),
    contact_phone: varchar("contact_phone", { length: 20 }),
    bank_name: varchar("bank_name", { length: 100 }),
    bank_account: varchar("bank_account", { length: 32 }),
    reviewed_at: timestamp("reviewed_at", { withTimezone: true, mode: "date" }),
    created_at: timestamp("created_at", { withTimezone: true, mode: "date" }).defaultNow().notNull(),
  },
  (t) => [
    index("payment_channels_sysid_id_idx").on(t.sysid, t.id),
    index("payment_channels_gateway_idx").on(t.gateway),
    index("payment_channels_status_idx").on(t.status),
    index("payment_channels_created_at_idx").on(t.created_at),
    uniqueIndex("payment_channels_sysid_title_unique").on(t.sysid, t.title),
    uniqueIndex("payment_channels_sub_mchid_unique").on(t.sub_mchid),
  ],
);

/** schoolpaychnl (fees.entity.schoolpaychnl) */
export const schoolChannels = pgTable(
  "school_channels",
  {
    id: serial("id").primaryKey(),
    sch_id: integer("sch_id").notNull().references((): AnyPgColumn => schools.id),
    paychnl_id: integer("paychnl_id").notNull().references((): AnyPgColumn => paymentChannels.id),
    bound_at: timestamp("bound_at", { withTimezone: true, mode: "date" }),
    bound_by: varchar("bound_by", { length: 50 }),
    sysid: integer("sysid").notNull(),
  },
  (t) => [
    index("school_channels_sch_id_id_idx").on(t.sch_id, t.id),
    index("school_channels_sysid_id_idx").on(t.sysid, t.id),
    index("school_channels_paychnl_id_sch_id_sysid_id_idx").on(t.paychnl_id, t.sch_id, t.sysid, t.id),
    uniqueIndex("school_channels_sch_id_unique").on(t.sch_id),
  ],
);

/** project (fees.entity.project) */
export const feeProjects = pgTable(
  "fee_projects",
  {
    id: serial("id").primaryKey(),
    sch_id: integer("sch_id").notNull().references((): AnyPgColumn => schools.id),
    title: varchar("title", { length: 50 }).notNull(),
    amount_mode: varchar("amount_mode", { length: 32 }).default("fixed").notNull(),
    amount: bigint("amount", { mode: "number" }),
    min_amount: bigint("min_amount", { mode: "number" }),
    max_amount: bigint("max_amount", { mode: "number" }),
    required: varchar("required", { length: 1 }).default("Y").notNull(),
    status: varchar("status", { length: 1 }).default("1").notNull(),
    remark: text("remark"),
    created_at: timestamp("created_at", { withTimezone: true, mode: "date" }).defaultNow().notNull(),
    sysid: integer("sysid").notNull(),
  },
  (t) => [
    index("fee_projects_sch_id_id_idx").on(t.sch_id, t.id),
    index("fee_projects_sysid_id_idx").on(t.sysid, t.id),
    index("fee_projects_amount_mode_idx").on(t.amount_mode),
    index("fee_projects_amount_idx").on(t.amount),
    index("fee_projects_status_idx").on(t.status),
    index("fee_projects_created_at_idx").on(t.created_at),
    uniqueIndex("fee_projects_sch_id_title_unique").on(t.sch_id, t.title),
  ],
);

/** serviceproject (fees.entity.serviceproject) */
export const providerFeeProjects = pgTable(
  "provider_fee_projects",
  {
    id: serial("id").primaryKey(),
    title: varchar("title", { length: 50 }).notNull(),
    amount_mode: varchar("amount_mode", { length: 32 }).default("fixed").notNull(),
    amount: bigint("amount", { mode: "number" }),
    min_amount: bigint("min_amount", { mode: "number" }),
    max_amount: bigint("max_amount", { mode: "number" }),
    required: varchar("required", { length: 1 }).default("Y").notNull(),
    status: varchar("status", { length: 1 }).default("1").notNull(),
    remark: text("remark"),
    created_at: timestamp("created_at", { withTimezone: true, mode: "date" }).defaultNow().notNull(),
    sysid: integer("sysid").notNull(),
  },
  (t) => [
    index("provider_fee_projects_sysid_id_idx").on(t.sysid, t.id),
    index("provider_fee_projects_amount_mode_idx").on(t.amount_mode),
    index("provider_fee_projects_amount_idx").on(t.amount),
    index("provider_fee_projects_status_idx").on(t.status),
    index("provider_fee_projects_created_at_idx").on(t.created_at),
    uniqueIndex("provider_fee_projects_sysid_title_unique").on(t.sysid, t.title),
  ],
);

/** activity (collection.entity.activity) */
export const activities = pgTable(
  "activities",
  {
    id: serial("id").primaryKey(),
    title: varchar("title", { length: 100 }).notNull(),
    sch_id: integer("sch_id").notNull().references((): AnyPgColumn => schools.id),
    status: varchar("status", { length: 32 }).default("draft").notNull(),
    start_date: date("start_date", { mode: "string" }).notNull(),
    end_date: date("end_date", { mode: "string" }).notNull(),
    auto_open: varchar("auto_open", { length: 1 }).default("N").notNull(),
    target: varchar("target", { length: 32 }).default("school").notNull(),
    grade_ids: integer("grade_ids").array(),
    class_ids: integer("class_ids").array(),
    student_ids: integer("student_ids").array(),
    amount: bigint("amount", { mode: "number" }).default(0).notNull(),
    created_at: timestamp("created_at", { withTimezone: true, mode: "date" }).defaultNow().notNull(),
    sysid: integer("sysid").notNull(),
  },
  (t) => [
    index("activities_sch_id_id_idx").on(t.sch_id, t.id),
    index("activities_sysid_id_idx").on(t.sysid, t.id),
    index("activities_title_idx").on(t.title),
    index("activities_status_idx").on(t.status),
    index("activities_start_date_idx").on(t.start_date),
    index("activities_end_date_idx").on(t.end_date),
    index("activities_created_at_idx").on(t.created_at),
  ],
);

/** activityitem (collection.entity.activityitem) */
export const activityItems = pgTable(
  "activity_items",
  {
    id: serial("id").primaryKey(),
    activity_id: integer("activity_id").notNull().references((): AnyPgColumn => activities.id),
    sort: integer("sort").default(0).notNull(),
    title: varchar("title", { length: 50 }).notNull(),
    amount: bigint("amount", { mode: "number" }).notNull(),
    amount_mode: varchar("amount_mode", { length: 32 }).default("fixed").notNull(),
    required: varchar("required", { length: 1 }).default("Y").notNull(),
    goods_id: integer("goods_id").references((): AnyPgColumn => goods.id),
    sysid: integer("sysid").notNull(),
    sch_id: integer("sch_id").notNull(),
  },
  (t) => [
    index("activity_items_sch_id_sort_id_idx").on(t.sch_id, t.sort, t.id),
    index("activity_items_sysid_sort_id_idx").on(t.sysid, t.sort, t.id),
    index("activity_items_activity_id_sort_id_idx").on(t.activity_id, t.sort, t.id),
  ],
);

/** bill (collection.entity.bill) */
export const bills = pgTable(
  "bills",
  {
    id: serial("id").primaryKey(),
    activity_id: integer("activity_id").notNull().references((): AnyPgColumn => activities.id),
    sch_id: integer("sch_id").notNull().references((): AnyPgColumn => schools.id),
    student_id: integer("student_id").notNull().references((): AnyPgColumn => students.id),
    class_id: integer("class_id").notNull().references((): AnyPgColumn => classes.id),
    amount: bigint("amount", { mode: "number" }).notNull(),
    paid_amount: bigint("paid_amount", { mode: "number" }).default(0).notNull(),
    refunded_amount: bigint("refunded_amount", { mode: "number" }).default(0).notNull(),
    status: varchar("status", { length: 32 }).default("unpaid").notNull(),
    remark: text("remark"),
    paid_at: timestamp("paid_at", { withTimezone: true, mode: "date" }),
    created_at: timestamp("created_at", { withTimezone: true, mode: "date" }).defaultNow().notNull(),
    sysid: integer("sysid").notNull(),
  },
  (t) => [
    index("bills_sch_id_id_idx").on(t.sch_id, t.id),
    index("bills_sysid_id_idx").on(t.sysid, t.id),
    index("bills_activity_id_sch_id_sysid_id_idx").on(t.activity_id, t.sch_id, t.sysid, t.id),
    index("bills_student_id_sch_id_sysid_id_idx").on(t.student_id, t.sch_id, t.sysid, t.id),
    index("bills_class_id_sch_id_sysid_id_idx").on(t.class_id, t.sch_id, t.sysid, t.id),
    index("bills_amount_idx").on(t.amount),
    index("bills_status_idx").on(t.status),
    index("bills_paid_at_idx").on(t.paid_at),
    uniqueIndex("bills_activity_id_student_id_unique").on(t.activity_id, t.student_id),
  ],
);

/** billitem (collection.bill_import.billitem) */
export const billItems = pgTable(
  "bill_items",
  {
    id: serial("id").primaryKey(),
    bill_id: integer("bill_id").notNull().references((): AnyPgColumn => bills.id),
    sort: integer("sort").default(0).notNull(),
    title: varchar("title", { length: 50 }).notNull(),
    amount: bigint("amount", { mode: "number" }).notNull(),
    sysid: integer("sysid").notNull(),
    sch_id: integer("sch_id").notNull(),
  },
  (t) => [
    index("bill_items_sch_id_sort_id_idx").on(t.sch_id, t.sort, t.id),
    index("bill_items_sysid_sort_id_idx").on(t.sysid, t.sort, t.id),
    index("bill_items_bill_id_sort_id_idx").on(t.bill_id, t.sort, t.id),
  ],
);

/** order (collection.entity.order) */
export const feeOrders = pgTable(
  "fee_orders",
  {
    id: serial("id").primaryKey(),
    order_no: varchar("order_no", { length: 32 }).notNull(),
    pay_no: varchar("pay_no", { length: 32 }).notNull(),
    sch_id: integer("sch_id").notNull().references((): AnyPgColumn => schools.id),
    student_id: integer("student_id").notNull().references((): AnyPgColumn => students.id),
    class_id: integer("class_id").notNull().references((): AnyPgColumn => classes.id),
    activity_id: integer("activity_id").references((): AnyPgColumn => activities.id),
    activity_count: integer("activity_count").default(1).notNull(),
    amount: bigint("amount", { mode: "number" }).notNull(),
    status: varchar("status", { length: 32 }).default("unpaid").notNull(),
    paid_at: timestamp("paid_at", { withTimezone: true, mode: "date" }),
    gateway: varchar("gateway", { length: 32 }).notNull(),
    paychnl_id: integer("paychnl_id").references((): AnyPgColumn => paymentChannels.id),
    transaction_id: varchar("transaction_id", { length: 64 }),
    receipt_no: varchar("receipt_no", { length: 20 }),
    refunded_amount: bigint("refunded_amount", { mode: "number" }).default(0).notNull(),
    duplicate: varchar("duplicate", { length: 1 }).default("N").notNull(),
    created_at: timestamp("created_at", { withTimezone: true, mode: "date" }).defaultNow().notNull(),
    fulfil_status: varchar("fulfil_status", { length: 32 }),
    delivery: varchar("delivery", { length: 32 }),
    pickup_point_id: integer("pickup_point_id").references((): AnyPgColumn => pickupPoints.id),
    pickup_code: varchar("pickup_code", { length: 8 }),
    pickup_token: varchar("pickup_token", { length: 32 }),
    receiver_name: varchar("receiver_name", { length: 30 }),
    receiver_phone: varchar("receiver_phone", { length: 20 }),
    receiver_province: varchar("receiver_province", { length: 32 }),
    receiver_address: varchar("receiver_address", { length: 200 }),
    express_code: varchar("express_code", { length: 32 }),
    tracking_no: varchar("tracking_no", { length: 40 }),
    delivered_at: timestamp("delivered_at", { withTimezone: true, mode: "date" }),
    completed_at: timestamp("completed_at", { withTimezone: true, mode: "date" }),
    sysid: integer("sysid").notNull(),
  },
  (t) => [
    index("fee_orders_sch_id_id_idx").on(t.sch_id, t.id),
    index("fee_orders_sysid_id_idx").on(t.sysid, t.id),
    index("fee_orders_student_id_sch_id_sysid_id_idx").on(t.student_id, t.sch_id, t.sysid, t.id),
    index("fee_orders_activity_id_sch_id_sysid_id_idx").on(t.activity_id, t.sch_id, t.sysid, t.id),
    index("fee_orders_amount_idx").on(t.amount),
    index("fee_orders_status_idx").on(t.status),
    index("fee_orders_paid_at_idx").on(t.paid_at),
    index("fee_orders_transaction_id_idx").on(t.transaction_id),
    index("fee_orders_duplicate_idx").on(t.duplicate),
    index("fee_orders_created_at_idx").on(t.created_at),
    index("fee_orders_fulfil_status_idx").on(t.fulfil_status),
    index("fee_orders_sch_id_status_id_sysid_amount_idx").on(t.sch_id, t.status, t.id, t.sysid, t.amount),
    index("fee_orders_activity_count_sch_id_sysid_id_idx").on(t.activity_count, t.sch_id, t.sysid, t.id),
    uniqueIndex("fee_orders_order_no_unique").on(t.order_no),
    uniqueIndex("fee_orders_pay_no_unique").on(t.pay_no),
    uniqueIndex("fee_orders_sch_id_receipt_no_unique").on(t.sch_id, t.receipt_no),
  ],
);

/** orderline (collection.entity.orderline) */
export const feeOrderLines = pgTable(
  "fee_order_lines",
  {
    id: serial("id").primaryKey(),
    order_id: integer("order_id").notNull().references((): AnyPgColumn => feeOrders.id),
    sort: integer("sort").default(0).notNull(),
    bill_id: integer("bill_id").notNull().references((): AnyPgColumn => bills.id),
    title: varchar("title", { length: 200 }).notNull(),
    amount: bigint("amount", { mode: "number" }).notNull(),
    settled: varchar("settled", { length: 1 }).default("N").notNull(),
    refunded_amount: bigint("refunded_amount", { mode: "number" }).default(0).notNull(),
    sysid: integer("sysid").notNull(),
    sch_id: integer("sch_id").notNull(),
  },
  (t) => [
    index("fee_order_lines_sch_id_sort_id_idx").on(t.sch_id, t.sort, t.id),
    index("fee_order_lines_sysid_sort_id_idx").on(t.sysid, t.sort, t.id),
    index("fee_order_lines_bill_id_sch_id_sysid_sort_id_idx").on(t.bill_id, t.sch_id, t.sysid, t.sort, t.id),
    index("fee_order_lines_order_id_sort_id_idx").on(t.order_id, t.sort, t.id),
  ],
);

/** ordergoods (collection.entity.ordergoods) */
export const feeOrderGoods = pgTable(
  "fee_order_goods",
  {
    id: serial("id").primaryKey(),
    order_id: integer("order_id").notNull().references((): AnyPgColumn => feeOrders.id),
    sort: integer("sort").default(0).notNull(),
    bill_id: integer("bill_id").notNull().references((): AnyPgColumn => bills.id),
    goods_id: integer("goods_id").notNull().references((): AnyPgColumn => goods.id),
    sku_id: integer("sku_id").notNull().references((): AnyPgColumn => goodsSkus.id),
    title: varchar("title", { length: 60 }).notNull(),
    spec_values: jsonb("spec_values").$type<Record<string, string>>().notNull(),
    image: varchar("image", { length: 500 }),
    qty: integer("qty").notNull(),
    sysid: integer("sysid").notNull(),
    sch_id: integer("sch_id").notNull(),
  },
  (t) => [
    index("fee_order_goods_sch_id_sort_id_idx").on(t.sch_id, t.sort, t.id),
    index("fee_order_goods_sysid_sort_id_idx").on(t.sysid, t.sort, t.id),
    index("fee_order_goods_order_id_sort_id_idx").on(t.order_id, t.sort, t.id),
  ],
);

/** orderevent (collection.entity.orderevent) */
export const feeOrderEvents = pgTable(
  "fee_order_events",
  {
    id: serial("id").primaryKey(),
    order_id: integer("order_id").notNull().references((): AnyPgColumn => feeOrders.id),
    sort: integer("sort").default(0).notNull(),
    at: timestamp("at", { withTimezone: true, mode: "date" }).notNull(),
    event: varchar("event", { length: 32 }).notNull(),
    note: varchar("note", { length: 200 }),
    sysid: integer("sysid").notNull(),
    sch_id: integer("sch_id").notNull(),
  },
  (t) => [
    index("fee_order_events_sch_id_sort_id_idx").on(t.sch_id, t.sort, t.id),
    index("fee_order_events_sysid_sort_id_idx").on(t.sysid, t.sort, t.id),
    index("fee_order_events_order_id_sort_id_idx").on(t.order_id, t.sort, t.id),
  ],
);

/** qrchnl (collection.entity.qrchnl) */
export const qrChannels = pgTable(
  "qr_channels",
  {
    id: serial("id").primaryKey(),
    title: varchar("title", { length: 100 }).notNull(),
    sch_id: integer("sch_id").notNull().references((): AnyPgColumn => schools.id),
    activity_id: integer("activity_id").references((): AnyPgColumn => activities.id),
    status: varchar("status", { length: 1 }).default("1").notNull(),
    code: varchar("code", { length: 64 }).notNull(),
    url: varchar("url", { length: 500 }).notNull(),
    created_at: timestamp("created_at", { withTimezone: true, mode: "date" }).defaultNow().notNull(),
    sysid: integer("sysid").notNull(),
  },
  (t) => [
    index("qr_channels_sch_id_id_idx").on(t.sch_id, t.id),
    index("qr_channels_sysid_id_idx").on(t.sysid, t.id),
    index("qr_channels_title_idx").on(t.title),
    index("qr_channels_activity_id_sch_id_sysid_id_idx").on(t.activity_id, t.sch_id, t.sysid, t.id),
    index("qr_channels_status_idx").on(t.status),
    index("qr_channels_created_at_idx").on(t.created_at),
    uniqueIndex("qr_channels_code_unique").on(t.code),
  ],
);

/** activityform (forms.entity.activityform) */
export const activityForms = pgTable(
  "activity_forms",
  {
    id: serial("id").primaryKey(),
    title: varchar("title", { length: 50 }).notNull(),
    intro: text("intro"),
    activity_ids: integer("activity_ids").array(),
    status: varchar("status", { length: 1 }).default("1").notNull(),
    created_at: timestamp("created_at", { withTimezone: true, mode: "date" }).defaultNow().notNull(),
    sysid: integer("sysid").notNull(),
  },
  (t) => [
    index("activity_forms_sysid_id_idx").on(t.sysid, t.id),
    index("activity_forms_title_idx").on(t.title),
    index("activity_forms_status_idx").on(t.status),
    index("activity_forms_created_at_idx").on(t.created_at),
  ],
);

/** formquestion (forms.entity.formquestion) */
export const formQuestions = pgTable(
  "form_questions",
  {
    id: serial("id").primaryKey(),
    form_id: integer("form_id").notNull().references((): AnyPgColumn => activityForms.id),
    sort: integer("sort").default(0).notNull(),
    label: varchar("label", { length: 100 }).notNull(),
    kind: varchar("kind", { length: 32 }).default("text").notNull(),
    options: text("options"),
    required: varchar("required", { length: 1 }).default("Y").notNull(),
    sysid: integer("sysid").notNull(),
  },
  (t) => [
    index("form_questions_sysid_sort_id_idx").on(t.sysid, t.sort, t.id),
    index("form_questions_form_id_sort_id_idx").on(t.form_id, t.sort, t.id),
  ],
);

/** formanswer (forms.entity.formanswer) */
export const formAnswers = pgTable(
  "form_answers",
  {
    id: serial("id").primaryKey(),
    form_id: integer("form_id").notNull().references((): AnyPgColumn => activityForms.id),
    sch_id: integer("sch_id").notNull().references((): AnyPgColumn => schools.id),
    activity_id: integer("activity_id").notNull().references((): AnyPgColumn => activities.id),
    student_id: integer("student_id").notNull().references((): AnyPgColumn => students.id),
    class_id: integer("class_id").notNull().references((): AnyPgColumn => classes.id),
    bill_id: integer("bill_id").notNull().references((): AnyPgColumn => bills.id),
    question: varchar("question", { length: 100 }).notNull(),
    value: text("value"),
    order_id: integer("order_id").references((): AnyPgColumn => feeOrders.id),
    answered_at: timestamp("answered_at", { withTimezone: true, mode: "date" }).notNull(),
    sysid: integer("sysid").notNull(),
  },
  (t) => [
    index("form_answers_sch_id_id_idx").on(t.sch_id, t.id),
    index("form_answers_sysid_id_idx").on(t.sysid, t.id),
    index("form_answers_form_id_sch_id_sysid_id_idx").on(t.form_id, t.sch_id, t.sysid, t.id),
    index("form_answers_activity_id_sch_id_sysid_id_idx").on(t.activity_id, t.sch_id, t.sysid, t.id),
    index("form_answers_student_id_sch_id_sysid_id_idx").on(t.student_id, t.sch_id, t.sysid, t.id),
    index("form_answers_answered_at_idx").on(t.answered_at),
    uniqueIndex("form_answers_bill_id_question_unique").on(t.bill_id, t.question),
  ],
);

/** payendaction (forms.entity.payendaction) */
export const payEndActions = pgTable(
  "pay_end_actions",
  {
    id: serial("id").primaryKey(),
    title: varchar("title", { length: 30 }).notNull(),
    kind: varchar("kind", { length: 32 }).default("link").notNull(),
    url: varchar("url", { length: 500 }),
    image: varchar("image", { length: 500 }),
    text: varchar("text", { length: 100 }),
    activity_ids: integer("activity_ids").array(),
    status: varchar("status", { length: 1 }).default("1").notNull(),
    created_at: timestamp("created_at", { withTimezone: true, mode: "date" }).defaultNow().notNull(),
    sysid: integer("sysid").notNull(),
  },
  (t) => [
    index("pay_end_actions_sysid_id_idx").on(t.sysid, t.id),
    index("pay_end_actions_title_idx").on(t.title),
    index("pay_end_actions_kind_idx").on(t.kind),
    index("pay_end_actions_status_idx").on(t.status),
    index("pay_end_actions_created_at_idx").on(t.created_at),
  ],
);

/** payment (collection.entity.payment) */
export const feePayments = pgTable(
  "fee_payments",
  {
    id: serial("id").primaryKey(),
    pay_no: varchar("pay_no", { length: 32 }).notNull(),
    order_id: integer("order_id").notNull().references((): AnyPgColumn => feeOrders.id),
    sch_id: integer("sch_id").notNull().references((): AnyPgColumn => schools.id),
    student_id: integer("student_id").notNull().references((): AnyPgColumn => students.id),
    class_id: integer("class_id").notNull().references((): AnyPgColumn => classes.id),
    activity_id: integer("activity_id").references((): AnyPgColumn => activities.id),
    activity_count: integer("activity_count").default(1).notNull(),
    amount: bigint("amount", { mode: "number" }).notNull(),
    paid_at: timestamp("paid_at", { withTimezone: true, mode: "date" }).notNull(),
    paychnl_id: integer("paychnl_id").references((): AnyPgColumn => paymentChannels.id),
    gateway: varchar("gateway", { length: 32 }).notNull(),
    transaction_id: varchar("transaction_id", { length: 64 }).notNull(),
    duplicate: varchar("duplicate", { length: 1 }).default("N").notNull(),
    sysid: integer("sysid").notNull(),
  },
  (t) => [
    index("fee_payments_sch_id_paid_at_id_idx").on(t.sch_id, t.paid_at, t.id),
    index("fee_payments_sysid_paid_at_id_idx").on(t.sysid, t.paid_at, t.id),
    index("fee_payments_order_id_sch_id_sysid_paid_at_id_idx").on(t.order_id, t.sch_id, t.sysid, t.paid_at, t.id),
    index("fee_payments_student_id_sch_id_sysid_paid_at_id_idx").on(t.student_id, t.sch_id, t.sysid, t.paid_at, t.id),
    index("fee_payments_activity_id_sch_id_sysid_paid_at_id_idx").on(t.activity_id, t.sch_id, t.sysid, t.paid_at, t.id),
    index("fee_payments_amount_idx").on(t.amount),
    index("fee_payments_paid_at_idx").on(t.paid_at),
    index("fee_payments_paychnl_id_sch_id_sysid_paid_at_id_idx").on(t.paychnl_id, t.sch_id, t.sysid, t.paid_at, t.id),
    index("fee_payments_transaction_id_idx").on(t.transaction_id),
    index("fee_payments_duplicate_idx").on(t.duplicate),
    index("fee_payments_activity_count_sch_id_sysid_id_idx").on(t.activity_count, t.sch_id, t.sysid, t.id),
    uniqueIndex("fee_payments_pay_no_unique").on(t.pay_no),
  ],
);

/** refund (refunds.entity.refund) */
export const refunds = pgTable(
  "refunds",
  {
    id: serial("id").primaryKey(),
    refund_no: varchar("refund_no", { length: 64 }),
    payment_kind: varchar("payment_kind", { length: 32 }).default("fee").notNull(),
    pay_no: varchar("pay_no", { length: 32 }).notNull(),
    order_id: integer("order_id").references((): AnyPgColumn => feeOrders.id),
    shop_order_id: integer("shop_order_id").references((): AnyPgColumn => shopOrders.id),
    aftersale_id: integer("aftersale_id").references((): AnyPgColumn => aftersales.id),
    sch_id: integer("sch_id").notNull().references((): AnyPgColumn => schools.id),
    student_id: integer("student_id").notNull().references((): AnyPgColumn => students.id),
    amount: bigint("amount", { mode: "number" }).notNull(),
    reason: varchar("reason", { length: 26 }).notNull(),
    status: varchar("status", { length: 32 }).default("applied").notNull(),
    kind: varchar("kind", { length: 32 }).default("request").notNull(),
    applied_by: varchar("applied_by", { length: 50 }).notNull(),
    reviewed_by: varchar("reviewed_by", { length: 50 }),
    review_reason: varchar("review_reason", { length: 26 }),
    gateway: varchar("gateway", { length: 32 }).notNull(),
    refund_id: varchar("refund_id", { length: 64 }),
    user_received_account: varchar("user_received_account", { length: 64 }),
    success_time: timestamp("success_time", { withTimezone: true, mode: "date" }),
    submitted_at: timestamp("submitted_at", { withTimezone: true, mode: "date" }),
    attempts: integer("attempts").default(0).notNull(),
    last_error: varchar("last_error", { length: 200 }),
    created_at: timestamp("created_at", { withTimezone: true, mode: "date" }).defaultNow().notNull(),
    sysid: integer("sysid").notNull(),
  },
  (t) => [
    index("refunds_sch_id_id_idx").on(t.sch_id, t.id),
    index("refunds_sysid_id_idx").on(t.sysid, t.id),
    index("refunds_payment_kind_idx").on(t.payment_kind),
    index("refunds_pay_no_idx").on(t.pay_no),
    index("refunds_order_id_sch_id_sysid_id_idx").on(t.order_id, t.sch_id, t.sysid, t.id),
    index("refunds_shop_order_id_sch_id_sysid_id_idx").on(t.shop_order_id, t.sch_id, t.sysid, t.id),
    index("refunds_aftersale_id_sch_id_sysid_id_idx").on(t.aftersale_id, t.sch_id, t.sysid, t.id),
    index("refunds_student_id_sch_id_sysid_id_idx").on(t.student_id, t.sch_id, t.sysid, t.id),
    index("refunds_amount_idx").on(t.amount),
    index("refunds_status_idx").on(t.status),
    index("refunds_kind_idx").on(t.kind),
    index("refunds_success_time_idx").on(t.success_time),
    index("refunds_created_at_idx").on(t.created_at),
    index("refunds_submitted_at_idx").on(t.submitted_at),
    uniqueIndex("refunds_refund_no_unique").on(t.refund_no),
  ],
);

/** recon (recon.entity.recon) */
export const reconBatches = pgTable(
  "recon_batches",
  {
    id: serial("id").primaryKey(),
    paychnl_id: integer("paychnl_id").notNull().references((): AnyPgColumn => paymentChannels.id),
    bill_date: date("bill_date", { mode: "string" }).notNull(),
    status: varchar("status", { length: 32 }).default("balanced").notNull(),
    matched: integer("matched").default(0).notNull(),
    missing_local: integer("missing_local").default(0).notNull(),
    missing_gateway: integer("missing_gateway").default(0).notNull(),
    amount_mismatch: integer("amount_mismatch").default(0).notNull(),
    status_mismatch: integer("status_mismatch").default(0).notNull(),
    open_items: integer("open_items").default(0).notNull(),
    bill_count: integer("bill_count").default(0).notNull(),
    bill_paid: bigint("bill_paid", { mode: "number" }).default(0).notNull(),
    bill_refund: bigint("bill_refund", { mode: "number" }).default(0).notNull(),
    bill_fee: bigint("bill_fee", { mode: "number" }).default(0).notNull(),
    local_count: integer("local_count").default(0).notNull(),
    local_paid: bigint("local_paid", { mode: "number" }).default(0).notNull(),
    local_refund: bigint("local_refund", { mode: "number" }).default(0).notNull(),
    summary_ok: varchar("summary_ok", { length: 1 }).default("Y").notNull(),
    error: varchar("error", { length: 200 }),
    run_by: varchar("run_by", { length: 50 }),
    run_at: timestamp("run_at", { withTimezone: true, mode: "date" }),
    sysid: integer("sysid").notNull(),
  },
  (t) => [
    index("recon_batches_sysid_bill_date_id_idx").on(t.sysid, t.bill_date, t.id),
    index("recon_batches_paychnl_id_sysid_bill_date_id_idx").on(t.paychnl_id, t.sysid, t.bill_date, t.id),
    index("recon_batches_status_idx").on(t.status),
    index("recon_batches_run_at_idx").on(t.run_at),
    uniqueIndex("recon_batches_paychnl_id_bill_date_unique").on(t.paychnl_id, t.bill_date),
  ],
);

/** reconitem (recon.entity.reconitem) */
export const reconItems = pgTable(
  "recon_items",
  {
    id: serial("id").primaryKey(),
    batch_id: integer("batch_id").notNull().references((): AnyPgColumn => reconBatches.id),
    paychnl_id: integer("paychnl_id").notNull().references((): AnyPgColumn => paymentChannels.id),
    bill_date: date("bill_date", { mode: "string" }).notNull(),
    kind: varchar("kind", { length: 32 }).notNull(),
    pay_no: varchar("pay_no", { length: 32 }).notNull(),
    refund_no: varchar("refund_no", { length: 64 }),
    outcome: varchar("outcome", { length: 32 }).notNull(),
    status: varchar("status", { length: 32 }).default("ok").notNull(),
    bill_amount: bigint("bill_amount", { mode: "number" }),
    local_amount: bigint("local_amount", { mode: "number" }),
    bill_state: varchar("bill_state", { length: 32 }),
    local_state: varchar("local_state", { length: 32 }),
    fee: bigint("fee", { mode: "number" }),
    sch_id: integer("sch_id").references((): AnyPgColumn => schools.id),
    trade_time: varchar("trade_time", { length: 19 }),
    note: varchar("note", { length: 200 }),
    resolved_by: varchar("resolved_by", { length: 50 }),
    resolved_at: timestamp("resolved_at", { withTimezone: true, mode: "date" }),
    sysid: integer("sysid").notNull(),
  },
  (t) => [
    index("recon_items_sysid_id_idx").on(t.sysid, t.id),
    index("recon_items_batch_id_sysid_id_idx").on(t.batch_id, t.sysid, t.id),
    index("recon_items_paychnl_id_sysid_id_idx").on(t.paychnl_id, t.sysid, t.id),
    index("recon_items_kind_idx").on(t.kind),
    index("recon_items_pay_no_idx").on(t.pay_no),
    index("recon_items_outcome_idx").on(t.outcome),
    index("recon_items_status_idx").on(t.status),
  ],
);

/** settlement (settle.entity.settlement) */
export const settlements = pgTable(
  "settlements",
  {
    id: serial("id").primaryKey(),
    day: date("day", { mode: "string" }).notNull(),
    sch_id: integer("sch_id").notNull().references((): AnyPgColumn => schools.id),
    paychnl_id: integer("paychnl_id").notNull().references((): AnyPgColumn => paymentChannels.id),
    status: varchar("status", { length: 32 }).default("pending").notNull(),
    orders: integer("orders").default(0).notNull(),
    gross: bigint("gross", { mode: "number" }).default(0).notNull(),
    refunds: integer("refunds").default(0).notNull(),
    refund: bigint("refund", { mode: "number" }).default(0).notNull(),
    fee: bigint("fee", { mode: "number" }).default(0).notNull(),
    fee_source: varchar("fee_source", { length: 32 }).default("rate").notNull(),
    net: bigint("net", { mode: "number" }).default(0).notNull(),
    updated_at: timestamp("updated_at", { withTimezone: true, mode: "date" }),
    sysid: integer("sysid").notNull(),
  },
  (t) => [
    index("settlements_sch_id_day_id_idx").on(t.sch_id, t.day, t.id),
    index("settlements_sysid_day_id_idx").on(t.sysid, t.day, t.id),
    index("settlements_day_idx").on(t.day),
    index("settlements_paychnl_id_sch_id_sysid_day_id_idx").on(t.paychnl_id, t.sch_id, t.sysid, t.day, t.id),
    index("settlements_status_idx").on(t.status),
    index("settlements_gross_idx").on(t.gross),
    index("settlements_net_idx").on(t.net),
    index("settlements_paychnl_id_day_idx").on(t.paychnl_id, t.day),
  ],
);

/** pickuppoint (retail.entity.pickuppoint) */
export const pickupPoints = pgTable(
  "pickup_points",
  {
    id: serial("id").primaryKey(),
    title: varchar("title", { length: 100 }).notNull(),
    address: varchar("address", { length: 200 }).notNull(),
    phone: varchar("phone", { length: 20 }),
    opening_hours: varchar("opening_hours", { length: 100 }),
    verifiers: integer("verifiers").array(),
    sch_ids: integer("sch_ids").array().notNull(),
    status: varchar("status", { length: 1 }).default("1").notNull(),
    created_at: timestamp("created_at", { withTimezone: true, mode: "date" }).defaultNow().notNull(),
    sysid: integer("sysid").notNull(),
  },
  (t) => [
    index("pickup_points_sysid_id_idx").on(t.sysid, t.id),
    index("pickup_points_status_idx").on(t.status),
    index("pickup_points_created_at_idx").on(t.created_at),
    uniqueIndex("pickup_points_sysid_title_unique").on(t.sysid, t.title),
  ],
);

/** pickuprec (retail.entity.pickuprec) */
export const pickupRecords = pgTable(
  "pickup_records",
  {
    id: serial("id").primaryKey(),
    kind: varchar("kind", { length: 32 }).default("shop_order").notNull(),
    order_id: integer("order_id").references((): AnyPgColumn => shopOrders.id),
    fee_order_id: integer("fee_order_id").references((): AnyPgColumn => feeOrders.id),
    order_no: varchar("order_no", { length: 32 }).notNull(),
    pickup_point_id: integer("pickup_point_id").notNull().references((): AnyPgColumn => pickupPoints.id),
    sch_id: integer("sch_id").notNull().references((): AnyPgColumn => schools.id),
    student_id: integer("student_id").notNull().references((): AnyPgColumn => students.id),
    amount: bigint("amount", { mode: "number" }).notNull(),
    verifier_id: integer("verifier_id").notNull(),
    verifier_name: varchar("verifier_name", { length: 50 }).notNull(),
    verifier_phone: varchar("verifier_phone", { length: 20 }),
    via: varchar("via", { length: 32 }).notNull(),
    created_at: timestamp("created_at", { withTimezone: true, mode: "date" }).defaultNow().notNull(),
    sysid: integer("sysid").notNull(),
  },
  (t) => [
    index("pickup_records_sch_id_id_idx").on(t.sch_id, t.id),
    index("pickup_records_sysid_id_idx").on(t.sysid, t.id),
    index("pickup_records_kind_idx").on(t.kind),
    index("pickup_records_order_no_idx").on(t.order_no),
    index("pickup_records_pickup_point_id_sch_id_sysid_id_idx").on(t.pickup_point_id, t.sch_id, t.sysid, t.id),
    index("pickup_records_verifier_id_sch_id_sysid_id_idx").on(t.verifier_id, t.sch_id, t.sysid, t.id),
    index("pickup_records_via_idx").on(t.via),
    index("pickup_records_created_at_idx").on(t.created_at),
    uniqueIndex("pickup_records_order_id_unique").on(t.order_id),
    uniqueIndex("pickup_records_fee_order_id_unique").on(t.fee_order_id),
  ],
);

/** goodscate (retail.entity.goodscate) */
export const goodsCategories = pgTable(
  "goods_categories",
  {
    id: serial("id").primaryKey(),
    title: varchar("title", { length: 30 }).notNull(),
    parent_id: integer("parent_id").references((): AnyPgColumn => goodsCategories.id),
    level: varchar("level", { length: 32 }).default("1").notNull(),
    sort: integer("sort").default(0).notNull(),
    status: varchar("status", { length: 1 }).default("1").notNull(),
    created_at: timestamp("created_at", { withTimezone: true, mode: "date" }).defaultNow().notNull(),
    sysid: integer("sysid").notNull(),
  },
  (t) => [
    index("goods_categories_sysid_sort_id_idx").on(t.sysid, t.sort, t.id),
    index("goods_categories_parent_id_sysid_sort_id_idx").on(t.parent_id, t.sysid, t.sort, t.id),
    index("goods_categories_level_idx").on(t.level),
    index("goods_categories_sort_idx").on(t.sort),
    index("goods_categories_status_idx").on(t.status),
    uniqueIndex("goods_categories_parent_id_title_unique").on(t.parent_id, t.title),
  ],
);

/** goods (retail.entity.goods) */
export const goods = pgTable(
  "goods",
  {
    id: serial("id").primaryKey(),
    images: varchar("images", { length: 500 }).array(),
    title: varchar("title", { length: 60 }).notNull(),
    cate_id: integer("cate_id").notNull().references((): AnyPgColumn => goodsCategories.id),
    spec_names: varchar("spec_names", { length: 10 }).array().notNull(),
    price: bigint("price", { mode: "number" }),
    stock: integer("stock"),
    sales: integer("sales").default(0).notNull(),
    delivery: varchar("delivery", { length: 32 }).default("both").notNull(),
    express_tpl_id: integer("express_tpl_id").references((): AnyPgColumn => expressTemplates.id),
    sch_scope: varchar("sch_scope", { length: 32 }).default("all").notNull(),
    sch_ids: integer("sch_ids").array(),
    status: varchar("status", { length: 32 }).default("off").notNull(),
    sort: integer("sort").default(0).notNull(),
    description: text("description"),
    created_at: timestamp("created_at", { withTimezone: true, mode: "date" }).defaultNow().notNull(),
    sysid: integer("sysid").notNull(),
  },
  (t) => [
    index("goods_sysid_id_idx").on(t.sysid, t.id),
    index("goods_title_idx").on(t.title),
    index("goods_cate_id_sysid_id_idx").on(t.cate_id, t.sysid, t.id),
    index("goods_price_idx").on(t.price),
    index("goods_stock_idx").on(t.stock),
    index("goods_sales_idx").on(t.sales),
    index("goods_delivery_idx").on(t.delivery),
    index("goods_status_idx").on(t.status),
    index("goods_created_at_idx").on(t.created_at),
  ],
);

/** goodssku (retail.entity.goodssku) */
export const goodsSkus = pgTable(
  "goods_skus",
  {
    id: serial("id").primaryKey(),
    goods_id: integer("goods_id").notNull().references((): AnyPgColumn => goods.id),
    sort: integer("sort").default(0).notNull(),
    spec_values: jsonb("spec_values").$type<Record<string, string>>().notNull(),
    price: bigint("price", { mode: "number" }).notNull(),
    stock: integer("stock").default(0).notNull(),
    barcode: varchar("barcode", { length: 32 }),
    image: varchar("image", { length: 500 }),
    weight: integer("weight").default(0).notNull(),
    sysid: integer("sysid").notNull(),
  },
  (t) => [
    index("goods_skus_sysid_sort_id_idx").on(t.sysid, t.sort, t.id),
    index("goods_skus_goods_id_sort_id_idx").on(t.goods_id, t.sort, t.id),
  ],
);

/** spectemplate (retail.entity.spectemplate) */
export const specTemplates = pgTable(
  "spec_templates",
  {
    id: serial("id").primaryKey(),
    title: varchar("title", { length: 30 }).notNull(),
    specs: jsonb("specs").$type<{ name: string; values: string[] }[]>().notNull(),
    sort: integer("sort").default(0).notNull(),
    status: varchar("status", { length: 1 }).default("1").notNull(),
    created_at: timestamp("created_at", { withTimezone: true, mode: "date" }).defaultNow().notNull(),
    sysid: integer("sysid").notNull(),
  },
  (t) => [
    index("spec_templates_sysid_sort_id_idx").on(t.sysid, t.sort, t.id),
    index("spec_templates_sort_idx").on(t.sort),
    index("spec_templates_status_idx").on(t.status),
    index("spec_templates_created_at_idx").on(t.created_at),
    uniqueIndex("spec_templates_sysid_title_unique").on(t.sysid, t.title),
  ],
);

/** goodslog (retail.entity.goodslog) */
export const goodsLogs = pgTable(
  "goods_logs",
  {
    id: serial("id").primaryKey(),
    created_at: timestamp("created_at", { withTimezone: true, mode: "date" }).defaultNow().notNull(),
    kind: varchar("kind", { length: 32 }).notNull(),
    record_id: integer("record_id").notNull(),
    title: varchar("title", { length: 60 }).notNull(),
    specs: varchar("specs", { length: 200 }),
    field: varchar("field", { length: 32 }).notNull(),
    before_value: varchar("before_value", { length: 20 }),
    after_value: varchar("after_value", { length: 20 }),
    user_id: integer("user_id"),
    username: varchar("username", { length: 50 }),
    sysid: integer("sysid").notNull(),
  },
  (t) => [
    index("goods_logs_sysid_created_at_id_idx").on(t.sysid, t.created_at, t.id),
    index("goods_logs_created_at_idx").on(t.created_at),
    index("goods_logs_kind_idx").on(t.kind),
    index("goods_logs_title_idx").on(t.title),
    index("goods_logs_field_idx").on(t.field),
    index("goods_logs_username_idx").on(t.username),
  ],
);

/** shoporder (retail.entity.shoporder) */
export const shopOrders = pgTable(
  "shop_orders",
  {
    id: serial("id").primaryKey(),
    order_no: varchar("order_no", { length: 32 }).notNull(),
    pay_no: varchar("pay_no", { length: 32 }).notNull(),
    sch_id: integer("sch_id").notNull().references((): AnyPgColumn => schools.id),
    student_id: integer("student_id").notNull().references((): AnyPgColumn => students.id),
    amount: bigint("amount", { mode: "number" }).notNull(),
    freight: bigint("freight", { mode: "number" }).default(0).notNull(),
    status: varchar("status", { length: 32 }).default("unpaid").notNull(),
    refund_status: varchar("refund_status", { length: 32 }).default("none").notNull(),
    refunded_amount: bigint("refunded_amount", { mode: "number" }).default(0).notNull(),
    delivery: varchar("delivery", { length: 32 }).notNull(),
    pickup_point_id: integer("pickup_point_id").references((): AnyPgColumn => pickupPoints.id),
    pickup_code: varchar("pickup_code", { length: 8 }),
    pickup_token: varchar("pickup_token", { length: 32 }),
    receiver_name: varchar("receiver_name", { length: 30 }),
    receiver_phone: varchar("receiver_phone", { length: 20 }),
    receiver_province: varchar("receiver_province", { length: 32 }),
    receiver_address: varchar("receiver_address", { length: 200 }),
    express_code: varchar("express_code", { length: 32 }),
    tracking_no: varchar("tracking_no", { length: 40 }),
    gateway: varchar("gateway", { length: 32 }).notNull(),
    transaction_id: varchar("transaction_id", { length: 64 }),
    created_at: timestamp("created_at", { withTimezone: true, mode: "date" }).defaultNow().notNull(),
    paid_at: timestamp("paid_at", { withTimezone: true, mode: "date" }),
    delivered_at: timestamp("delivered_at", { withTimezone: true, mode: "date" }),
    completed_at: timestamp("completed_at", { withTimezone: true, mode: "date" }),
    cancelled_at: timestamp("cancelled_at", { withTimezone: true, mode: "date" }),
    sysid: integer("sysid").notNull(),
  },
  (t) => [
    index("shop_orders_sch_id_id_idx").on(t.sch_id, t.id),
    index("shop_orders_sysid_id_idx").on(t.sysid, t.id),
    index("shop_orders_student_id_sch_id_sysid_id_idx").on(t.student_id, t.sch_id, t.sysid, t.id),
    index("shop_orders_amount_idx").on(t.amount),
    index("shop_orders_status_idx").on(t.status),
    index("shop_orders_refund_status_idx").on(t.refund_status),
    index("shop_orders_delivery_idx").on(t.delivery),
    index("shop_orders_pickup_point_id_sch_id_sysid_id_idx").on(t.pickup_point_id, t.sch_id, t.sysid, t.id),
    index("shop_orders_tracking_no_idx").on(t.tracking_no),
    index("shop_orders_created_at_idx").on(t.created_at),
    index("shop_orders_paid_at_idx").on(t.paid_at),
    index("shop_orders_sch_id_status_id_sysid_amount_idx").on(t.sch_id, t.status, t.id, t.sysid, t.amount),
    index("shop_orders_status_delivered_at_idx").on(t.status, t.delivered_at),
    uniqueIndex("shop_orders_order_no_unique").on(t.order_no),
    uniqueIndex("shop_orders_pay_no_unique").on(t.pay_no),
  ],
);

/** shoporderitem (retail.entity.shoporderitem) */
export const shopOrderItems = pgTable(
  "shop_order_items",
  {
    id: serial("id").primaryKey(),
    order_id: integer("order_id").notNull().references((): AnyPgColumn => shopOrders.id),
    sort: integer("sort").default(0).notNull(),
    goods_id: integer("goods_id").notNull().references((): AnyPgColumn => goods.id),
    sku_id: integer("sku_id").notNull().references((): AnyPgColumn => goodsSkus.id),
    title: varchar("title", { length: 60 }).notNull(),
    spec_values: jsonb("spec_values").$type<Record<string, string>>().notNull(),
    image: varchar("image", { length: 500 }),
    price: bigint("price", { mode: "number" }).notNull(),
    qty: integer("qty").notNull(),
    amount: bigint("amount", { mode: "number" }).notNull(),
    sysid: integer("sysid").notNull(),
    sch_id: integer("sch_id").notNull(),
  },
  (t) => [
    index("shop_order_items_sch_id_sort_id_idx").on(t.sch_id, t.sort, t.id),
    index("shop_order_items_sysid_sort_id_idx").on(t.sysid, t.sort, t.id),
    index("shop_order_items_order_id_sort_id_idx").on(t.order_id, t.sort, t.id),
  ],
);

/** aftersale (aftersales.entity.aftersale) */
export const aftersales = pgTable(
  "aftersales",
  {
    id: serial("id").primaryKey(),
    aftersale_no: varchar("aftersale_no", { length: 32 }).notNull(),
    order_id: integer("order_id").notNull().references((): AnyPgColumn => shopOrders.id),
    item_id: integer("item_id").notNull().references((): AnyPgColumn => shopOrderItems.id),
    sch_id: integer("sch_id").notNull().references((): AnyPgColumn => schools.id),
    student_id: integer("student_id").notNull().references((): AnyPgColumn => students.id),
    pickup_point_id: integer("pickup_point_id").references((): AnyPgColumn => pickupPoints.id),
    handed_over_by: varchar("handed_over_by", { length: 50 }),
    way: varchar("way", { length: 32 }).notNull(),
    title: varchar("title", { length: 60 }).notNull(),
    spec_values: jsonb("spec_values").$type<Record<string, string>>().notNull(),
    qty: integer("qty").notNull(),
    amount: bigint("amount", { mode: "number" }).notNull(),
    reason: varchar("reason", { length: 60 }).notNull(),
    description: text("description"),
    images: varchar("images", { length: 500 }).array(),
    status: varchar("status", { length: 32 }).default("applied").notNull(),
    restock: varchar("restock", { length: 1 }),
    restocked_at: timestamp("restocked_at", { withTimezone: true, mode: "date" }),
    express_code: varchar("express_code", { length: 32 }),
    tracking_no: varchar("tracking_no", { length: 40 }),
    review_reason: varchar("review_reason", { length: 60 }),
    reviewed_by: varchar("reviewed_by", { length: 50 }),
    receive_reason: varchar("receive_reason", { length: 60 }),
    received_by: varchar("received_by", { length: 50 }),
    created_at: timestamp("created_at", { withTimezone: true, mode: "date" }).defaultNow().notNull(),
    reviewed_at: timestamp("reviewed_at", { withTimezone: true, mode: "date" }),
    returned_at: timestamp("returned_at", { withTimezone: true, mode: "date" }),
    received_at: timestamp("received_at", { withTimezone: true, mode: "date" }),
    completed_at: timestamp("completed_at", { withTimezone: true, mode: "date" }),
    sysid: integer("sysid").notNull(),
  },
  (t) => [
    index("aftersales_sch_id_id_idx").on(t.sch_id, t.id),
    index("aftersales_sysid_id_idx").on(t.sysid, t.id),
    index("aftersales_order_id_sch_id_sysid_id_idx").on(t.order_id, t.sch_id, t.sysid, t.id),
    index("aftersales_student_id_sch_id_sysid_id_idx").on(t.student_id, t.sch_id, t.sysid, t.id),
    index("aftersales_pickup_point_id_sch_id_sysid_id_idx").on(t.pickup_point_id, t.sch_id, t.sysid, t.id),
    index("aftersales_way_idx").on(t.way),
    index("aftersales_amount_idx").on(t.amount),
    index("aftersales_status_idx").on(t.status),
    index("aftersales_tracking_no_idx").on(t.tracking_no),
    index("aftersales_created_at_idx").on(t.created_at),
    index("aftersales_item_id_idx").on(t.item_id),
    uniqueIndex("aftersales_aftersale_no_unique").on(t.aftersale_no),
  ],
);

/** saleaddress (retail.entity.saleaddress) */
export const saleAddresses = pgTable(
  "sale_addresses",
  {
    id: serial("id").primaryKey(),
    name: varchar("name", { length: 30 }).notNull(),
    phone: varchar("phone", { length: 20 }).notNull(),
    address: varchar("address", { length: 200 }).notNull(),
    is_default: varchar("is_default", { length: 1 }).default("N").notNull(),
    created_at: timestamp("created_at", { withTimezone: true, mode: "date" }).defaultNow().notNull(),
    sysid: integer("sysid").notNull(),
  },
  (t) => [
    index("sale_addresses_sysid_id_idx").on(t.sysid, t.id),
  ],
);

/** shophelp (retail.entity.shophelp) */
export const shopHelp = pgTable(
  "shop_help",
  {
    id: serial("id").primaryKey(),
    question: varchar("question", { length: 100 }).notNull(),
    answer: text("answer").notNull(),
    sort: integer("sort").default(0).notNull(),
    status: varchar("status", { length: 1 }).default("1").notNull(),
    created_at: timestamp("created_at", { withTimezone: true, mode: "date" }).defaultNow().notNull(),
    sysid: integer("sysid").notNull(),
  },
  (t) => [
    index("shop_help_sysid_sort_id_idx").on(t.sysid, t.sort, t.id),
    index("shop_help_question_idx").on(t.question),
    index("shop_help_sort_idx").on(t.sort),
    index("shop_help_status_idx").on(t.status),
  ],
);

/** banner (retail.entity.banner) */
export const shopBanners = pgTable(
  "shop_banners",
  {
    id: serial("id").primaryKey(),
    image: varchar("image", { length: 500 }).notNull(),
    title: varchar("title", { length: 30 }).notNull(),
    link_type: varchar("link_type", { length: 32 }).default("none").notNull(),
    goods_id: integer("goods_id").references((): AnyPgColumn => goods.id),
    cate_id: integer("cate_id").references((): AnyPgColumn => goodsCategories.id),
    page_id: integer("page_id").references((): AnyPgColumn => shopDiyPages.id),
    url: varchar("url", { length: 300 }),
    sort: integer("sort").default(0).notNull(),
    start_date: date("start_date", { mode: "string" }),
    end_date: date("end_date", { mode: "string" }),
    status: varchar("status", { length: 1 }).default("1").notNull(),
    created_at: timestamp("created_at", { withTimezone: true, mode: "date" }).defaultNow().notNull(),
    sysid: integer("sysid").notNull(),
  },
  (t) => [
    index("shop_banners_sysid_sort_id_idx").on(t.sysid, t.sort, t.id),
    index("shop_banners_title_idx").on(t.title),
    index("shop_banners_link_type_idx").on(t.link_type),
    index("shop_banners_sort_idx").on(t.sort),
    index("shop_banners_status_idx").on(t.status),
  ],
);

/** shopdiy (diy.entity) */
export const shopDiyPages = pgTable(
  "shop_diy_pages",
  {
    id: serial("id").primaryKey(),
    title: varchar("title", { length: 20 }).notNull(),
    is_home: varchar("is_home", { length: 1 }).default("N").notNull(),
    blocks: jsonb("blocks").$type<Record<string, unknown>[]>().notNull(),
    status: varchar("status", { length: 1 }).default("1").notNull(),
    updated_at: timestamp("updated_at", { withTimezone: true, mode: "date" }),
    created_at: timestamp("created_at", { withTimezone: true, mode: "date" }).defaultNow().notNull(),
    sysid: integer("sysid").notNull(),
  },
  (t) => [
    index("shop_diy_pages_sysid_id_idx").on(t.sysid, t.id),
    index("shop_diy_pages_title_idx").on(t.title),
    index("shop_diy_pages_is_home_idx").on(t.is_home),
    index("shop_diy_pages_status_idx").on(t.status),
    index("shop_diy_pages_updated_at_idx").on(t.updated_at),
  ],
);

/** photofolder (photos.folder_entity) */
export const photoFolders = pgTable(
  "photo_folders",
  {
    id: serial("id").primaryKey(),
    title: varchar("title", { length: 20 }).notNull(),
    sort: integer("sort").default(0).notNull(),
    created_at: timestamp("created_at", { withTimezone: true, mode: "date" }).defaultNow().notNull(),
    sysid: integer("sysid").notNull(),
  },
  (t) => [
    index("photo_folders_sysid_sort_id_idx").on(t.sysid, t.sort, t.id),
    index("photo_folders_sort_idx").on(t.sort),
    uniqueIndex("photo_folders_sysid_title_unique").on(t.sysid, t.title),
  ],
);

/** photo (photos.entity) */
export const photos = pgTable(
  "photos",
  {
    id: serial("id").primaryKey(),
    image: varchar("image", { length: 500 }).notNull(),
    title: varchar("title", { length: 60 }).notNull(),
    folder_id: integer("folder_id").references((): AnyPgColumn => photoFolders.id),
    created_at: timestamp("created_at", { withTimezone: true, mode: "date" }).defaultNow().notNull(),
    sysid: integer("sysid").notNull(),
  },
  (t) => [
    index("photos_sysid_id_idx").on(t.sysid, t.id),
    index("photos_title_idx").on(t.title),
    index("photos_folder_id_sysid_id_idx").on(t.folder_id, t.sysid, t.id),
    index("photos_created_at_idx").on(t.created_at),
  ],
);

/** qwkf (qwkf.entity) */
export const qwKfAccounts = pgTable(
  "qw_kf_accounts",
  {
    id: serial("id").primaryKey(),
    name: varchar("name", { length: 30 }).notNull(),
    avatar: varchar("avatar", { length: 500 }),
    open_kfid: varchar("open_kfid", { length: 64 }).notNull(),
    url: varchar("url", { length: 300 }).notNull(),
    sort: integer("sort").default(0).notNull(),
    status: varchar("status", { length: 1 }).default("1").notNull(),
    synced_at: timestamp("synced_at", { withTimezone: true, mode: "date" }),
    created_at: timestamp("created_at", { withTimezone: true, mode: "date" }).defaultNow().notNull(),
    sysid: integer("sysid").notNull(),
  },
  (t) => [
    index("qw_kf_accounts_sysid_sort_id_idx").on(t.sysid, t.sort, t.id),
    index("qw_kf_accounts_name_idx").on(t.name),
    index("qw_kf_accounts_sort_idx").on(t.sort),
    index("qw_kf_accounts_status_idx").on(t.status),
    uniqueIndex("qw_kf_accounts_sysid_open_kfid_unique").on(t.sysid, t.open_kfid),
  ],
);

/** expresstemplate (retail.entity.expresstemplate) */
export const expressTemplates = pgTable(
  "express_templates",
  {
    id: serial("id").primaryKey(),
    title: varchar("title", { length: 30 }).notNull(),
    charge_by: varchar("charge_by", { length: 32 }).default("count").notNull(),
    sort: integer("sort").default(0).notNull(),
    status: varchar("status", { length: 1 }).default("1").notNull(),
    created_at: timestamp("created_at", { withTimezone: true, mode: "date" }).defaultNow().notNull(),
    sysid: integer("sysid").notNull(),
  },
  (t) => [
    index("express_templates_sysid_sort_id_idx").on(t.sysid, t.sort, t.id),
    index("express_templates_charge_by_idx").on(t.charge_by),
    index("express_templates_sort_idx").on(t.sort),
    index("express_templates_status_idx").on(t.status),
    index("express_templates_created_at_idx").on(t.created_at),
    uniqueIndex("express_templates_sysid_title_unique").on(t.sysid, t.title),
  ],
);

/** expressrule (retail.entity.expressrule) */
export const expressRules = pgTable(
  "express_rules",
  {
    id: serial("id").primaryKey(),
    template_id: integer("template_id").notNull().references((): AnyPgColumn => expressTemplates.id),
    sort: integer("sort").default(0).notNull(),
    regions: varchar("regions", { length: 32 }).array(),
    first_units: integer("first_units").default(1).notNull(),
    first_price: bigint("first_price", { mode: "number" }).default(0).notNull(),
    extra_units: integer("extra_units").default(1).notNull(),
    extra_price: bigint("extra_price", { mode: "number" }).default(0).notNull(),
    free_amount: bigint("free_amount", { mode: "number" }),
    free_count: integer("free_count"),
    sysid: integer("sysid").notNull(),
  },
  (t) => [
    index("express_rules_sysid_sort_id_idx").on(t.sysid, t.sort, t.id),
    index("express_rules_template_id_sort_id_idx").on(t.template_id, t.sort, t.id),
  ],
);

/** device (devices.entity.device) */
export const devices = pgTable(
  "devices",
  {
    id: serial("id").primaryKey(),
    title: varchar("title", { length: 30 }).notNull(),
    vendor: varchar("vendor", { length: 32 }).default("sandbox").notNull(),
    sn: varchar("sn", { length: 40 }).notNull(),
    account_user: varchar("account_user", { length: 64 }),
    sch_ids: integer("sch_ids").array().notNull(),
    copies: integer("copies").default(1).notNull(),
    auto_print: varchar("auto_print", { length: 1 }).default("Y").notNull(),
    sandbox_state: varchar("sandbox_state", { length: 32 }).default("online").notNull(),
    status: varchar("status", { length: 32 }).default("unknown").notNull(),
    status_at: timestamp("status_at", { withTimezone: true, mode: "date" }),
    created_at: timestamp("created_at", { withTimezone: true, mode: "date" }).defaultNow().notNull(),
    sysid: integer("sysid").notNull(),
  },
  (t) => [
    index("devices_sysid_id_idx").on(t.sysid, t.id),
    index("devices_title_idx").on(t.title),
    index("devices_vendor_idx").on(t.vendor),
    index("devices_auto_print_idx").on(t.auto_print),
    index("devices_status_idx").on(t.status),
    index("devices_created_at_idx").on(t.created_at),
    uniqueIndex("devices_sysid_sn_unique").on(t.sysid, t.sn),
  ],
);

/** printjob (devices.entity.printjob) */
export const printJobs = pgTable(
  "print_jobs",
  {
    id: serial("id").primaryKey(),
    device_id: integer("device_id").notNull().references((): AnyPgColumn => devices.id),
    sch_id: integer("sch_id").notNull().references((): AnyPgColumn => schools.id),
    order_kind: varchar("order_kind", { length: 32 }).notNull(),
    order_no: varchar("order_no", { length: 32 }).notNull(),
    kind: varchar("kind", { length: 32 }).notNull(),
    status: varchar("status", { length: 32 }).default("queued").notNull(),
    copies: integer("copies").default(1).notNull(),
    attempts: integer("attempts").default(0).notNull(),
    last_error: varchar("last_error", { length: 32 }),
    dedupe_key: varchar("dedupe_key", { length: 32 }).notNull(),
    provider_job_id: varchar("provider_job_id", { length: 64 }),
    preview: text("preview"),
    created_at: timestamp("created_at", { withTimezone: true, mode: "date" }).defaultNow().notNull(),
    sent_at: timestamp("sent_at", { withTimezone: true, mode: "date" }),
    printed_at: timestamp("printed_at", { withTimezone: true, mode: "date" }),
    sysid: integer("sysid").notNull(),
  },
  (t) => [
    index("print_jobs_sch_id_id_idx").on(t.sch_id, t.id),
    index("print_jobs_sysid_id_idx").on(t.sysid, t.id),
    index("print_jobs_device_id_sch_id_sysid_id_idx").on(t.device_id, t.sch_id, t.sysid, t.id),
    index("print_jobs_order_kind_idx").on(t.order_kind),
    index("print_jobs_order_no_idx").on(t.order_no),
    index("print_jobs_kind_idx").on(t.kind),
    index("print_jobs_status_idx").on(t.status),
    index("print_jobs_created_at_idx").on(t.created_at),
    uniqueIndex("print_jobs_dedupe_key_unique").on(t.dedupe_key),
  ],
);

/** deliveryimport (retail.entity.deliveryimport) */
export const deliveryImports = pgTable(
  "delivery_imports",
  {
    id: serial("id").primaryKey(),
    kind: varchar("kind", { length: 32 }).notNull(),
    filename: varchar("filename", { length: 255 }).notNull(),
    username: varchar("username", { length: 50 }).notNull(),
    created_at: timestamp("created_at", { withTimezone: true, mode: "date" }).defaultNow().notNull(),
    total: integer("total").default(0).notNull(),
    delivered: integer("delivered").default(0).notNull(),
    unchanged: integer("unchanged").default(0).notNull(),
    failed: integer("failed").default(0).notNull(),
    errors: text("errors"),
    sysid: integer("sysid").notNull(),
  },
  (t) => [
    index("delivery_imports_sysid_id_idx").on(t.sysid, t.id),
    index("delivery_imports_kind_idx").on(t.kind),
    index("delivery_imports_created_at_idx").on(t.created_at),
  ],
);

/** tracesource (retail.entity.tracesource) */
export const traceSources = pgTable(
  "trace_sources",
  {
    id: serial("id").primaryKey(),
    code: varchar("code", { length: 64 }).notNull(),
    goods_id: integer("goods_id").notNull().references((): AnyPgColumn => goods.id),
    sku_id: integer("sku_id").notNull().references((): AnyPgColumn => goodsSkus.id),
    spec_values: jsonb("spec_values").$type<Record<string, string>>(),
    batch_no: varchar("batch_no", { length: 40 }).notNull(),
    manufacturer: varchar("manufacturer", { length: 100 }),
    standard: varchar("standard", { length: 60 }),
    fabric: varchar("fabric", { length: 200 }),
    report_url: varchar("report_url", { length: 500 }),
    status: varchar("status", { length: 32 }).default("free").notNull(),
    order_id: integer("order_id").references((): AnyPgColumn => shopOrders.id),
    order_item_id: integer("order_item_id"),
    bound_at: timestamp("bound_at", { withTimezone: true, mode: "date" }),
    bound_by: varchar("bound_by", { length: 50 }),
    created_at: timestamp("created_at", { withTimezone: true, mode: "date" }).defaultNow().notNull(),
    sysid: integer("sysid").notNull(),
  },
  (t) => [
    index("trace_sources_sysid_id_idx").on(t.sysid, t.id),
    index("trace_sources_goods_id_sysid_id_idx").on(t.goods_id, t.sysid, t.id),
    index("trace_sources_sku_id_sysid_id_idx").on(t.sku_id, t.sysid, t.id),
    index("trace_sources_batch_no_idx").on(t.batch_no),
    index("trace_sources_manufacturer_idx").on(t.manufacturer),
    index("trace_sources_status_idx").on(t.status),
    index("trace_sources_order_id_sysid_id_idx").on(t.order_id, t.sysid, t.id),
    index("trace_sources_bound_at_idx").on(t.bound_at),
    index("trace_sources_created_at_idx").on(t.created_at),
    index("trace_sources_order_item_id_idx").on(t.order_item_id),
    uniqueIndex("trace_sources_sysid_code_unique").on(t.sysid, t.code),
  ],
);

/** Every catalogue entity's table by entity name. */
export const catalogueTablesByEntity = {
  service: providers,
  school: schools,
  grade: grades,
  classes: classes,
  student: students,
  meal: mealPackages,
  schoolrenew: schoolRenewals,
  servicedelay: providerExtensions,
  actcode: activationCodes,
  registration: providerRegistrations,
  client: apiClients,
  miniapp: miniPrograms,
  miniappcall: miniProgramCalls,
  article: siteArticles,
  cate: helpCategories,
  probl: helpProblems,
  schoolimportlog: schoolImportLogs,
  paychnl: paymentChannels,
  schoolpaychnl: schoolChannels,
  project: feeProjects,
  serviceproject: providerFeeProjects,
  activity: activities,
  activityitem: activityItems,
  bill: bills,
  billitem: billItems,
  order: feeOrders,
  orderline: feeOrderLines,
  ordergoods: feeOrderGoods,
  orderevent: feeOrderEvents,
  qrchnl: qrChannels,
  activityform: activityForms,
  formquestion: formQuestions,
  formanswer: formAnswers,
  payendaction: payEndActions,
  payment: feePayments,
  refund: refunds,
  recon: reconBatches,
  reconitem: reconItems,
  settlement: settlements,
  pickuppoint: pickupPoints,
  pickuprec: pickupRecords,
  goodscate: goodsCategories,
  goods: goods,
  goodssku: goodsSkus,
  spectemplate: specTemplates,
  goodslog: goodsLogs,
  shoporder: shopOrders,
  shoporderitem: shopOrderItems,
  aftersale: aftersales,
  saleaddress: saleAddresses,
  shophelp: shopHelp,
  banner: shopBanners,
  shopdiy: shopDiyPages,
  photofolder: photoFolders,
  photo: photos,
  qwkf: qwKfAccounts,
  expresstemplate: expressTemplates,
  expressrule: expressRules,
  device: devices,
  printjob: printJobs,
  deliveryimport: deliveryImports,
  tracesource: traceSources,
} as const;
