/**
 * Hand-written tables that catalogue records refer to, seen by the engine as it sees a generated table: by the
 * API names of their columns (tableColumn). Only the columns a reference reads: the id, the title, the tenant and
 * what a reference's `where` compares. Kept apart from schema.ts, whose tables drizzle-kit migrates: these are
 * second views of tables declared there.
 */
import { bigserial, integer, jsonb, pgTable, serial, timestamp, varchar } from "drizzle-orm/pg-core";

/** Accounts (schema.ts `users`), referred to by a pickup point's verifiers. */
export const usersByApiName = pgTable("users", {
  id: serial("id").primaryKey(),
  username: varchar("username", { length: 50 }).notNull(),
  name: varchar("name", { length: 100 }).notNull(),
  user_type: varchar("user_type", { length: 20 }).notNull(),
  sysid: integer("sysid"),
  status: varchar("status", { length: 1 }).notNull(),
});

/** The audit log (schema.ts `auditLog`), listed and exported by the generic operations (catalogue/audit.ts). */
export const auditLogByApiName = pgTable("audit_log", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  at: timestamp("at", { withTimezone: true, mode: "date" }).notNull(),
  user_id: integer("user_id"),
  username: varchar("username", { length: 50 }).notNull(),
  action: varchar("action", { length: 50 }).notNull(),
  entity: varchar("entity", { length: 50 }).notNull(),
  entity_id: varchar("entity_id", { length: 50 }).notNull(),
  ip: varchar("ip", { length: 64 }).notNull(),
  detail: jsonb("detail").$type<Record<string, unknown>>().notNull(),
  sysid: integer("sysid"),
  sch_id: integer("sch_id"),
});
