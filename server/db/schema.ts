/**
 * The database schema: catalogue entity tables (generated from resources.config.ts) and the hand-written
 * tables of accounts, sessions, throttling, audit and site settings. drizzle-kit reads the exports of this file
 * to generate server/db/migrations: every catalogue entity's table must be exported here by name (a test checks
 * it) and `npx drizzle-kit generate` run after changing the catalogue.
 */
import { sql } from "drizzle-orm";
import {
  bigserial,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  varchar,
} from "drizzle-orm/pg-core";
import { entities } from "../../resources.config";
import { catalogueTable, type CatalogueTable } from "./catalogueTables";

export const catalogueTables: Record<string, CatalogueTable> = Object.fromEntries(
  entities.map((e) => [e.name, catalogueTable(e)]),
);

/** Service providers (entity "service"). */
export const providers = catalogueTables.service;
/** Schools (entity "school"). */
export const schools = catalogueTables.school;

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

export const users = pgTable(
  "users",
  {
    id: serial("id").primaryKey(),
    username: varchar("username", { length: 50 }).notNull().unique(),
    passwordHash: text("password_hash").notNull(),
    name: varchar("name", { length: 100 }).notNull().default(""),
    avatar: varchar("avatar", { length: 500 }).notNull().default(""),
    introduction: varchar("introduction", { length: 500 }).notNull().default(""),
    userType: varchar("user_type", { length: 20 }).notNull(),
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
  (t) => [index("users_sysid_idx").on(t.sysid), index("users_schid_idx").on(t.schid)],
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

export const pickupPoints = pgTable(
  "pickup_points",
  {
    id: serial("id").primaryKey(),
    sysid: integer("sysid").notNull(),
    title: varchar("title", { length: 100 }).notNull(),
    address: varchar("address", { length: 200 }).notNull().default(""),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
  },
  (t) => [index("pickup_points_sysid_idx").on(t.sysid)],
);

/** Pickup clerks (pickup users) and the points they serve. */
export const pickupPointUsers = pgTable(
  "pickup_point_users",
  {
    userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    pickupPointId: integer("pickup_point_id").notNull().references(() => pickupPoints.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.pickupPointId] }), index("pickup_point_users_point_idx").on(t.pickupPointId)],
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
 * Login throttle state per key ("user:{name}" or "ip:{address}"), in the database so that every server process
 * sees the same counts.
 */
export const loginThrottle = pgTable("login_throttle", {
  key: varchar("key", { length: 200 }).primaryKey(),
  failures: integer("failures").notNull().default(0),
  windowStart: timestamptz("window_start").notNull(),
  lockedUntil: timestamptz("locked_until"),
  /** how many times the key was locked in a row: each lock lasts twice as long as the last */
  lockCount: integer("lock_count").notNull().default(0),
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
  },
  (t) => [index("audit_log_at_idx").on(t.at), index("audit_log_user_idx").on(t.userId), index("audit_log_entity_idx").on(t.entity, t.entityId)],
);

/** The single row (id 1) of site settings: getwebsetinfo and getsysinfo. */
export const siteSettings = pgTable("site_settings", {
  id: integer("id").primaryKey(),
  title: varchar("title", { length: 100 }).notNull().default(""),
  keywords: varchar("keywords", { length: 300 }).notNull().default(""),
  description: varchar("description", { length: 500 }).notNull().default(""),
  icon: varchar("icon", { length: 500 }).notNull().default(""),
  kfurl: varchar("kfurl", { length: 500 }).notNull().default(""),
  userManualUrl: varchar("user_manual_url", { length: 500 }).notNull().default(""),
});
