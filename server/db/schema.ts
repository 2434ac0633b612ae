/**
 * The database schema: the catalogue entities' typed tables (catalogue.generated.ts, written from their
 * declarations by `npm run generate:tables`) and the hand-written tables of accounts, sessions, throttling,
 * audit and the settings pages' records. drizzle-kit reads the exports of this file to generate
 * server/db/migrations; tests fail while the generated tables or the migrations lag behind the catalogue.
 */
import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  pgView,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from "drizzle-orm/pg-core";
import type { CatalogueTable } from "./catalogueTables";
import { catalogueTablesByEntity, devices } from "./catalogue.generated";
import { auditLogByApiName, usersByApiName } from "./referableTables";

export * from "./catalogue.generated";

/**
 * The generic catalogue operations reach every entity's table by the entity's name; the accounts, written by hand,
 * by their columns' API names, for the records that refer to them.
 */
export const catalogueTables: Record<string, CatalogueTable> = { ...catalogueTablesByEntity, users: usersByApiName, auditlog: auditLogByApiName };

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/**
 * Accounts. A username is unique without regard to case and Unicode width: the unique index is on its normalised
 * form (NFKC, lower case), the form logins are matched by (server/auth/usernames.ts).
 */
export const users = pgTable(
  "users",
  {
    id: serial("id").primaryKey(),
    username: varchar("username", { length: 50 }).notNull(),
    passwordHash: text("password_hash").notNull(),
    name: varchar("name", { length: 100 }).notNull().default(""),
    avatar: varchar("avatar", { length: 500 }).notNull().default(""),
    introduction: varchar("introduction", { length: 500 }).notNull().default(""),
    userType: varchar("user_type", { length: 20 }).notNull(),
    /** optional; a pickup record keeps its verifier's as it was when the order was handed over */
    phone: varchar("phone", { length: 20 }),
    /** menu generation of a platform (system) user; other users take their provider's */
    servicerVer: varchar("servicer_ver", { length: 2 }).notNull().default("v2"),
    sysid: integer("sysid"),
    schid: integer("schid"),
    isSuperadmin: varchar("is_superadmin", { length: 1 }).notNull().default("N"),
    /** '1' active, '0' disabled */
    status: varchar("status", { length: 1 }).notNull().default("1"),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    updatedAt: timestamptz("updated_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("users_username_normalised_unique").on(sql`lower(normalize(${t.username}, NFKC))`),
    index("users_sysid_idx").on(t.sysid),
    index("users_schid_idx").on(t.schid),
  ],
);

/**
 * A user's own preferences of the console (server/domains/accounts/preferences.ts), kept on the server so that they
 * follow the user from browser to browser: so far the columns of each list. Small JSON values under a key.
 */
export const userPreferences = pgTable(
  "user_preferences",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    key: varchar("key", { length: 100 }).notNull(),
    value: jsonb("value").notNull(),
    updatedAt: timestamptz("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] })],
);

/** Schools assigned to a provider-side school administrator (service_schadmin). */
export const userSchools = pgTable(
  "user_schools",
  {
    userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    schId: integer("sch_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.schId] }), index("user_schools_sch_id_idx").on(t.schId)],
);

/** Login sessions: only the SHA-256 of the token is stored. */
export const sessions = pgTable(
  "sessions",
  {
    tokenHash: varchar("token_hash", { length: 64 }).primaryKey(),
    userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamptz("created_at").notNull(),
    lastSeenAt: timestamptz("last_seen_at").notNull(),
    revokedAt: timestamptz("revoked_at"),
    ip: varchar("ip", { length: 64 }).notNull().default(""),
    userAgent: varchar("user_agent", { length: 500 }).notNull().default(""),
  },
  (t) => [index("sessions_user_id_idx").on(t.userId)],
);

/**
 * Throttle state per key ("user:{name}", "ip:{address}", "redeem:..."), in the database so that every server
 * process sees the same counts (server/auth/throttle.ts).
 */
export const loginThrottle = pgTable("login_throttle", {
  key: varchar("key", { length: 200 }).primaryKey(),
  /** attempts in the window that failed or are still being checked (each is counted before its check) */
  failures: integer("failures").notNull().default(0),
  windowStart: timestamptz("window_start").notNull(),
  lockedUntil: timestamptz("locked_until"),
  /** how many times the key was locked in a row: each lock lasts twice as long as the last */
  lockCount: integer("lock_count").notNull().default(0),
});

/**
 * Bearer tokens of the open API (server/domains/openapi/), each given to an API client for its calls of a short
 * while; kept as their SHA-256, and gone with the client, its new secret or their time.
 */
export const apiTokens = pgTable(
  "api_tokens",
  {
    tokenHash: varchar("token_hash", { length: 64 }).primaryKey(),
    clientId: integer("client_id")
      .notNull()
      .references(() => catalogueTablesByEntity.client.id, { onDelete: "cascade" }),
    scopes: varchar("scopes", { length: 200 }).notNull(),
    expiresAt: timestamptz("expires_at").notNull(),
  },
  (t) => [index("api_tokens_client_idx").on(t.clientId, t.expiresAt)],
);

/**
 * What WeChat's third-party platform gives the platform itself, shared by every process through the database: the
 * verify ticket WeChat pushes every ten minutes (good for 12 hours: the latest is kept and used until a newer comes)
 * and the component access token made from it (two hours, renewed before it ends by whichever process needs it
 * first). Values sealed with the payment key.
 */
export const miniProgramPlatformState = pgTable("mini_program_platform_state", {
  name: varchar("name", { length: 40 }).primaryKey(),
  value: text("value").notNull(),
  expiresAt: timestamptz("expires_at").notNull(),
  updatedAt: timestamptz("updated_at").notNull(),
});

/** Append-only record of who did what, when and from where. */
export const auditLog = pgTable(
  "audit_log",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    at: timestamptz("at").notNull().defaultNow(),
    userId: integer("user_id"),
    username: varchar("username", { length: 50 }).notNull().default(""),
    action: varchar("action", { length: 50 }).notNull(),
    entity: varchar("entity", { length: 50 }).notNull().default(""),
    entityId: varchar("entity_id", { length: 50 }).notNull().default(""),
    ip: varchar("ip", { length: 64 }).notNull().default(""),
    detail: jsonb("detail").$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    /** the provider the entry concerns; null for platform-only actions */
    sysid: integer("sysid"),
    /** the school the entry concerns; null when it concerns no single school */
    schId: integer("sch_id"),
  },
  (t) => [
    index("audit_log_at_idx").on(t.at),
    index("audit_log_user_idx").on(t.userId),
    index("audit_log_entity_idx").on(t.entity, t.entityId),
    // a provider's or a school's own trail, newest first
    index("audit_log_sysid_at_idx").on(t.sysid, t.at),
    index("audit_log_sch_at_idx").on(t.schId, t.at),
    // the audit log page's filters: by who and by what, in the order it lists
    index("audit_log_username_id_idx").on(t.username, t.id),
    index("audit_log_action_id_idx").on(t.action, t.id),
  ],
);

/**
 * The records of the settings pages (SettingsDecl, server/engine/settings.ts): one row per settings page and
 * tenant, the saved fields in their stored form by field name. `tenantId` is 0 for a platform-wide page, the
 * provider's id (sysid) for a provider's page, the school's id for a school's page.
 */
export const settingsRecords = pgTable(
  "settings_records",
  {
    name: varchar("name", { length: 50 }).notNull(),
    tenantId: integer("tenant_id").notNull(),
    fields: jsonb("fields").$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    updatedAt: timestamptz("updated_at").notNull().defaultNow(),
    updatedBy: integer("updated_by"),
  },
  (t) => [primaryKey({ columns: [t.name, t.tenantId] })],
);

/**
 * Orders paid through a payment gateway (renewals now, fee collection later). `payNo` is the out_trade_no the
 * gateway knows; `orderid` the number shown to the payer. An order is applied to the business exactly once:
 * `status` moves NOTPAY → SUCCESS in the transaction that applies it (server/payments/apply.ts).
 */
export const paymentOrders = pgTable(
  "payment_orders",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    payNo: varchar("pay_no", { length: 32 }).notNull().unique(),
    orderid: varchar("orderid", { length: 32 }).notNull().unique(),
    /** a kind its domain registered (server/payments/kinds.ts): 'school_renewal', 'provider_renewal', 'fee' */
    kind: varchar("kind", { length: 32 }).notNull(),
    /** provider the order belongs to (a school's provider for a school renewal) */
    sysid: integer("sysid").notNull(),
    schId: integer("sch_id"),
    /** renewal package bought, when one was */
    mealId: integer("meal_id"),
    /** what was bought, as shown to the payer */
    title: varchar("title", { length: 100 }).notNull(),
    termMonths: integer("term_months").notNull(),
    totalFeeFen: bigint("total_fee_fen", { mode: "number" }).notNull(),
    /** 'sandbox' | 'wechatpay' */
    gateway: varchar("gateway", { length: 16 }).notNull(),
    /**
     * merchant expected to receive the money (WeChat mchid; a fee order's: the school channel's sub_mchid); empty
     * for a renewal in the sandbox
     */
    merchantId: varchar("merchant_id", { length: 32 }).notNull().default(""),
    /**
     * service-provider mode (a fee paid to a school's sub-merchant): the merchant that took the order as service
     * provider (sp_mchid; "" in the sandbox); null in direct mode (a renewal paid to the platform)
     */
    spMerchantId: varchar("sp_merchant_id", { length: 32 }),
    codeUrl: varchar("code_url", { length: 500 }).notNull().default(""),
    /** TradeState of server/payments/gateway.ts */
    status: varchar("status", { length: 16 }).notNull().default("NOTPAY"),
    transactionId: varchar("transaction_id", { length: 64 }),
    paidAt: timestamptz("paid_at"),
    /** the term end the payment gave, set when it was applied (checkpay tells it) */
    appliedEnd: date("applied_end", { mode: "string" }),
    /** the order's QR code is payable until then */
    expiresAt: timestamptz("expires_at").notNull(),
    /** when a checkpay last asked the gateway about the unpaid order: the pollers of every server process ask once per interval */
    gatewayAskedAt: timestamptz("gateway_asked_at"),
    /** who asked for it on the payer page (a hash of their ticket): the same bills asked again are answered this order */
    payerKey: varchar("payer_key", { length: 64 }),
    createdBy: integer("created_by"),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
  },
  (t) => [
    index("payment_orders_sysid_idx").on(t.sysid, t.createdAt),
    index("payment_orders_sch_id_idx").on(t.schId, t.createdAt),
    index("payment_orders_status_idx").on(t.status, t.expiresAt),
    // reconciliation: a merchant's payments of a day
    index("payment_orders_merchant_paid_idx").on(t.merchantId, t.paidAt),
  ],
);

/**
 * Merchant credentials of a gateway: the platform's (sysid null: renewals are paid to the platform) and each
 * provider's (fee collection). Secrets (the merchant private key and the APIv3 key) are stored encrypted with
 * AES-256-GCM under the server's payment key, never returned by any operation and never logged.
 */
export const paymentMerchants = pgTable(
  "payment_merchants",
  {
    id: serial("id").primaryKey(),
    sysid: integer("sysid"),
    gateway: varchar("gateway", { length: 16 }).notNull(),
    /** WeChat mchid */
    merchantId: varchar("merchant_id", { length: 32 }).notNull(),
    appid: varchar("appid", { length: 32 }).notNull().default(""),
    /** serial number of the merchant's API certificate (the key that signs our requests) */
    merchantSerialNo: varchar("merchant_serial_no", { length: 64 }).notNull().default(""),
    /** encrypted merchant private key (PEM) */
    privateKeyEnc: text("private_key_enc").notNull().default(""),
    /** encrypted APIv3 key (decrypts notification resources) */
    apiV3KeyEnc: text("api_v3_key_enc").notNull().default(""),
    /**
     * encrypted AppSecret of `appid` (an official account): exchanges a payer's WeChat OAuth code for their openid,
     * so that a payer inside WeChat pays by JSAPI (server/payments/wechatpay/oauth.ts); "" when not given
     */
    appSecretEnc: text("app_secret_enc").notNull().default(""),
    /** WeChat Pay public key id (PUB_KEY_ID_...) or platform certificate serial, and its public key (PEM) */
    platformKeyId: varchar("platform_key_id", { length: 64 }).notNull().default(""),
    platformPublicKey: text("platform_public_key").notNull().default(""),
    /** gateway API base, e.g. https://api.mch.weixin.qq.com (tests point it at a loopback fake) */
    apiBase: varchar("api_base", { length: 200 }).notNull().default(""),
    enabled: varchar("enabled", { length: 1 }).notNull().default("Y"),
    updatedAt: timestamptz("updated_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("payment_merchants_owner_unique").on(sql`coalesce(${t.sysid}, 0)`, t.gateway), index("payment_merchants_mchid_idx").on(t.merchantId)],
);

/**
 * Users who receive a provider's daily business report (getdaycountnoticeset): bound by scanning the binding QR
 * code, removed by daycountnoticeunbind. `openid` identifies the messaging-app user within the platform account.
 */
export const dailyReportSubscribers = pgTable(
  "daily_report_subscribers",
  {
    id: serial("id").primaryKey(),
    sysid: integer("sysid").notNull(),
    openid: varchar("openid", { length: 64 }).notNull(),
    nickname: varchar("nickname", { length: 64 }).notNull(),
    headurl: varchar("headurl", { length: 500 }).notNull().default(""),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("daily_report_subscribers_unique").on(t.sysid, t.openid)],
);

/** One-time binding tokens behind the binding QR code: only the SHA-256 is kept, valid for a few minutes. */
export const dailyReportBindTokens = pgTable(
  "daily_report_bind_tokens",
  {
    tokenHash: varchar("token_hash", { length: 64 }).primaryKey(),
    sysid: integer("sysid").notNull(),
    expiresAt: timestamptz("expires_at").notNull(),
  },
  (t) => [index("daily_report_bind_tokens_expires_idx").on(t.expiresAt)],
);

/**
 * Background jobs (server/jobs/): a row per run of a job kind. A worker claims a due row with FOR UPDATE SKIP
 * LOCKED, holds it for a lease (`locked_until`) and finishes it; a run whose lease ran out (a crashed process) is
 * claimed again, until `max_attempts`. `unique_key` names a job that may be queued or running only once at a time
 * (a recurring schedule), whichever process enqueues it.
 */
export const jobs = pgTable(
  "jobs",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    kind: varchar("kind", { length: 64 }).notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    /** 'queued' | 'running' | 'done' | 'failed' */
    status: varchar("status", { length: 16 }).notNull().default("queued"),
    uniqueKey: varchar("unique_key", { length: 128 }),
    runAt: timestamptz("run_at").notNull(),
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull().default(3),
    lockedBy: varchar("locked_by", { length: 100 }),
    lockedUntil: timestamptz("locked_until"),
    /** 0..100 */
    progress: integer("progress").notNull().default(0),
    result: jsonb("result").$type<unknown>(),
    /** the last failure's message */
    error: text("error"),
    createdAt: timestamptz("created_at").notNull(),
    startedAt: timestamptz("started_at"),
    finishedAt: timestamptz("finished_at"),
  },
  (t) => [
    index("jobs_due_idx").on(t.status, t.runAt),
    index("jobs_lease_idx").on(t.status, t.lockedUntil),
    uniqueIndex("jobs_unique_key_active").on(t.uniqueKey).where(sql`${t.status} in ('queued', 'running')`),
  ],
);

/**
 * The money of fee collection, one row per payment (`orders` 1, `paid`) and per refund done (`refunded`, at its
 * success time), with the payment's class, grade, activity and channel: the view of migrations 0030, 0033 and 0035,
 * read by the statistics pages (server/domains/reports/collection.ts). A payment of bills of several activities
 * (`activity_count` above 1) is a row per activity, its lines of that activity's bills (`orders` 1 in its first
 * line's activity only), and its refunds by their shares (`fee_refund_shares`). Money in fen.
 */
export const feeLedger = pgView("fee_ledger", {
  sysid: integer("sysid").notNull(),
  sch_id: integer("sch_id").notNull(),
  student_id: integer("student_id").notNull(),
  class_id: integer("class_id").notNull(),
  grade_id: integer("grade_id").notNull(),
  activity_id: integer("activity_id"),
  paychnl_id: integer("paychnl_id"),
  at: timestamptz("at").notNull(),
  orders: integer("orders").notNull(),
  paid: bigint("paid", { mode: "number" }).notNull(),
  refunded: bigint("refunded", { mode: "number" }).notNull(),
}).existing();

/**
 * A done refund's money by activity, for an order paying bills of several activities (an order of one activity
 * needs none: its refunds are its activity's): what the refund gave back on the lines of each activity's bills,
 * written with the refund's success (server/domains/collection/refunds.ts), so that the ledger puts each part in
 * its activity. Money in fen.
 */
export const feeRefundShares = pgTable(
  "fee_refund_shares",
  {
    refund_id: integer("refund_id").notNull(),
    activity_id: integer("activity_id").notNull(),
    amount: bigint("amount", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.refund_id, t.activity_id] })],
);

/**
 * The ledger's money added up per business day, class and activity (activity 0: none): what the statistics pages
 * read for every dimension above the student, a few rows per class and day however many payments. Kept in the
 * transaction that writes a payment or finishes a refund (server/domains/reports/feeDaily.ts), rebuilt from the
 * ledger by the seeds and migration 0031, so it always equals `fee_ledger` summed. Money in fen.
 */
export const feeDaily = pgTable(
  "fee_daily",
  {
    day: date("day", { mode: "string" }).notNull(),
    sysid: integer("sysid").notNull(),
    sch_id: integer("sch_id").notNull(),
    class_id: integer("class_id").notNull(),
    activity_id: integer("activity_id").notNull().default(0),
    orders: integer("orders").notNull().default(0),
    paid: bigint("paid", { mode: "number" }).notNull().default(0),
    refunded: bigint("refunded", { mode: "number" }).notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.class_id, t.activity_id, t.day] }),
    index("fee_daily_sysid_day_idx").on(t.sysid, t.day),
    index("fee_daily_sch_id_day_idx").on(t.sch_id, t.day),
  ],
);

/** A file's bytes, as node-postgres (Buffer) and PGlite (Uint8Array) give them. */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => "bytea" });

/**
 * The download centre (server/domains/downloads/): an export a user asked for, run as a job (`job_id`; the job's
 * status and progress are the download's) and kept with its file until `expires_at`. `request` is what the job
 * needs to run the export as its caller did: the operation's payload, the caller's authority and roles, language
 * and address. `link_key` signs the file's short-lived links, so any server sharing the database checks them.
 */
export const downloads = pgTable(
  "downloads",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    sysid: integer("sysid"),
    schId: integer("sch_id"),
    operation: varchar("operation", { length: 64 }).notNull(),
    filename: varchar("filename", { length: 200 }).notNull(),
    jobId: bigint("job_id", { mode: "number" }),
    request: jsonb("request").$type<Record<string, unknown>>().notNull(),
    linkKey: varchar("link_key", { length: 64 }).notNull(),
    /** bytes and data rows of the finished file */
    size: bigint("size", { mode: "number" }),
    rows: integer("rows"),
    createdAt: timestamptz("created_at").notNull(),
    expiresAt: timestamptz("expires_at").notNull(),
  },
  (t) => [index("downloads_user_id_idx").on(t.userId, t.id), index("downloads_expires_at_idx").on(t.expiresAt)],
);

/** A download's file in pieces of about a megabyte, written and read in order: a large file never sits whole in memory. */
export const downloadChunks = pgTable(
  "download_chunks",
  {
    downloadId: integer("download_id")
      .notNull()
      .references(() => downloads.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    data: bytea("data").notNull(),
  },
  (t) => [primaryKey({ columns: [t.downloadId, t.seq] })],
);

/**
 * The sandbox gateway's own record of what was paid to it (server/payments/sandbox.ts): a payment confirmed
 * without notifying the console ({"notify": false}) is known here only, as a lost notification leaves a real
 * payment known only to WeChat Pay, until a query finds it.
 */
export const sandboxPayments = pgTable(
  "sandbox_payments",
  {
    payNo: varchar("pay_no", { length: 32 }).primaryKey(),
    transactionId: varchar("transaction_id", { length: 64 }).notNull(),
    amountFen: bigint("amount_fen", { mode: "number" }).notNull(),
    paidAt: timestamptz("paid_at").notNull(),
  },
  // its trade bill: a day's payments
  (t) => [index("sandbox_payments_paid_at_idx").on(t.paidAt)],
);

/**
 * The refunds the sandbox took (server/payments/sandbox.ts), as a gateway keeps them: by our refund number, so a
 * refund asked again under its number is the same refund; done at once, into the payer's change.
 */
export const sandboxRefunds = pgTable(
  "sandbox_refunds",
  {
    refundNo: varchar("refund_no", { length: 64 }).primaryKey(),
    payNo: varchar("pay_no", { length: 32 }).notNull(),
    refundId: varchar("refund_id", { length: 64 }).notNull(),
    amountFen: bigint("amount_fen", { mode: "number" }).notNull(),
    /** RefundState of server/payments/gateway.ts */
    status: varchar("status", { length: 16 }).notNull(),
    createdAt: timestamptz("created_at").notNull(),
    successTime: timestamptz("success_time"),
  },
  (t) => [index("sandbox_refunds_pay_no_idx").on(t.payNo), index("sandbox_refunds_created_at_idx").on(t.createdAt)],
);

/**
 * Payer tickets (server/domains/collection/payerTickets.ts): what the payer page holds after finding a student, a
 * random token of which only the SHA-256 is kept, bound to one student of one school and valid for a short while.
 * Every later call of the payer (pay, check, receipt) names it and reaches that student's bills and orders only.
 */
export const payerTickets = pgTable(
  "payer_tickets",
  {
    tokenHash: varchar("token_hash", { length: 64 }).primaryKey(),
    studentId: integer("student_id").notNull(),
    schId: integer("sch_id").notNull(),
    sysid: integer("sysid").notNull(),
    /** the channel QR code the payer came from */
    qrchnlId: integer("qrchnl_id").notNull(),
    createdAt: timestamptz("created_at").notNull(),
    expiresAt: timestamptz("expires_at").notNull(),
  },
  (t) => [index("payer_tickets_expires_at_idx").on(t.expiresAt)],
);

/**
 * The WeChat identity of a payer inside WeChat: h5oauth exchanges the OAuth code WeChat's redirect brings for the
 * payer's openid in the platform's app, and hands the payer page a token for it (only its SHA-256 is kept, as for
 * tickets); h5pay then orders by JSAPI for that openid. Pruned with the tickets.
 */
export const payerWechatIds = pgTable(
  "payer_wechat_ids",
  {
    tokenHash: varchar("token_hash", { length: 64 }).primaryKey(),
    /** the app the openid belongs to: an openid means nothing in another */
    appid: varchar("appid", { length: 32 }).notNull(),
    openid: varchar("openid", { length: 128 }).notNull(),
    createdAt: timestamptz("created_at").notNull(),
    expiresAt: timestamptz("expires_at").notNull(),
  },
  (t) => [index("payer_wechat_ids_expires_at_idx").on(t.expiresAt)],
);

/**
 * The last payment voucher number given per school and calendar year (Asia/Shanghai): taken with
 * `INSERT ... ON CONFLICT DO UPDATE SET last = last + 1 RETURNING last` in the paying transaction, so the row lock
 * orders concurrent payments of a school, a rolled-back payment gives its number back, and no number is reused
 * (server/domains/collection/receiptNumbers.ts).
 */
export const receiptCounters = pgTable(
  "receipt_counters",
  {
    schId: integer("sch_id").notNull(),
    year: integer("year").notNull(),
    last: integer("last").notNull(),
  },
  (t) => [primaryKey({ columns: [t.schId, t.year] })],
);

/**
 * Every message the notifier sends (server/notify/): a reminder to a guardian, the daily business report to a bound
 * user, a payment's or refund's notice. A row is written `queued` in the transaction of what caused it and sent by
 * the `notices.send` job through the driver of its channel; it keeps the template's parameters (the text is drawn
 * in the reader's language), the outcome and the driver's reference. `dedupe_key` makes a notice that could be
 * caused twice (a daily report, a payment's notice) be written once.
 */
export const notices = pgTable(
  "notices",
  {
    id: serial("id").primaryKey(),
    sysid: integer("sysid").notNull(),
    schId: integer("sch_id"),
    /** reminder | daily_report | payment | refund */
    kind: varchar("kind", { length: 16 }).notNull(),
    /** sms (a mobile number) | wechat (an openid of the platform's official account) */
    channel: varchar("channel", { length: 8 }).notNull(),
    recipient: varchar("recipient", { length: 128 }).notNull(),
    recipientName: varchar("recipient_name", { length: 64 }).notNull().default(""),
    params: jsonb("params").$type<Record<string, string>>().notNull(),
    studentId: integer("student_id"),
    billId: integer("bill_id"),
    dedupeKey: varchar("dedupe_key", { length: 128 }),
    /** queued | sending | sent | failed */
    status: varchar("status", { length: 8 }).notNull().default("queued"),
    attempts: integer("attempts").notNull().default(0),
    lockedUntil: timestamptz("locked_until"),
    driver: varchar("driver", { length: 16 }),
    reference: varchar("reference", { length: 64 }),
    error: varchar("error", { length: 500 }),
    createdBy: varchar("created_by", { length: 64 }).notNull(),
    createdAt: timestamptz("created_at").notNull(),
    sentAt: timestamptz("sent_at"),
  },
  (t) => [
    index("notices_sysid_idx").on(t.sysid, t.id),
    index("notices_sch_id_idx").on(t.schId, t.id),
    // the rate limit: a guardian's last reminders
    index("notices_recipient_idx").on(t.sysid, t.recipient, t.kind, t.createdAt),
    index("notices_bill_id_idx").on(t.billId, t.createdAt).where(sql`${t.billId} is not null`),
    index("notices_queued_idx").on(t.id).where(sql`${t.status} in ('queued', 'sending')`),
    uniqueIndex("notices_dedupe_key_idx").on(t.dedupeKey),
  ],
);

/**
 * A receipt printer's secrets (catalogue/devices.ts): the printer's key and its open platform account's secret,
 * each encrypted under the payment key (server/payments/secrets.ts), apart from the device's row so that no list,
 * record or export of devices can ever carry them.
 */
export const deviceSecrets = pgTable("device_secrets", {
  deviceId: integer("device_id")
    .primaryKey()
    .references(() => devices.id, { onDelete: "cascade" }),
  printerKey: text("printer_key"),
  accountSecret: text("account_secret"),
});
