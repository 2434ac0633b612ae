/**
 * The audit log's two paths (server/auth/audit.ts): writeAudit, an entry written on its own, and auditInsert, the
 * entry a statement writes itself beside what it records (a pickup's hand-over). For the same actor and facts, given
 * as values or as expressions over the statement's rows, both write the same row: an entry reads the same whichever
 * path wrote it.
 */
import { desc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { accountActor, auditInsert, jobActor, payerActor, writeAudit, type AuditActor, type AuditFacts, type AuditFactsOver } from "../../server/auth/audit";
import { auditLog } from "../../server/db/schema";
import { describeOnEmbedded } from "../helpers/db";
import { createTestApp, type TestApp } from "./support";

type Case = { actor: AuditActor; facts: AuditFacts };

const AT = new Date("2026-11-28T01:30:00.000Z");

const CASES: Case[] = [
  {
    actor: accountActor({ userId: 7, username: "pickup" }, "10.0.0.8"),
    facts: { action: "pickupverify", entity: "shoporder", entityId: 4021, sysid: 3, schId: 11, detail: { from: "undelivered", to: "completed", via: "scan", pickup_point_id: 2 } },
  },
  {
    actor: jobActor("retail.complete_delivered_orders"),
    facts: { action: "shoporderreceive", entity: "shoporder", entityId: "77", sysid: 3, schId: null, detail: { nested: { a: [1, "b", null] }, none: null, flag: true, amount: 12.5 }, at: AT },
  },
  // a name from outside past the column's width, no entity, no detail, no tenant
  { actor: accountActor({ userId: null, username: "x".repeat(80) }), facts: { action: "login_failed", sysid: null, schId: null } },
  { actor: payerActor("2001:db8::1"), facts: { action: "h5find", entity: "student", sysid: 5, schId: 9, detail: {} } },
];

/** An entry as read back, without its id (and its time, when the database's clock gave it). */
function shown(row: typeof auditLog.$inferSelect, withTime: boolean): Record<string, unknown> {
  const { id: _id, at, ...rest } = row;
  return withTime ? { ...rest, at: at.toISOString() } : rest;
}

/** The same facts as expressions over a row of the statement (`f`), each of the values the facts give. */
function overRow(facts: AuditFacts): { rows: ReturnType<typeof sql>; facts: AuditFactsOver } {
  const rows = sql`(select ${facts.entity ?? ""}::varchar as entity, ${facts.entityId === undefined ? "" : String(facts.entityId)}::varchar as entity_id,
    ${facts.sysid}::integer as sysid, ${facts.schId}::integer as sch_id, ${JSON.stringify(facts.detail ?? {})}::jsonb as detail) f`;
  const detail = Object.fromEntries(Object.keys(facts.detail ?? {}).map((key, i) => [key, i % 2 === 0 ? sql`f.detail -> ${key}::text` : (facts.detail ?? {})[key]]));
  return {
    rows,
    facts: { action: facts.action, entity: sql`f.entity`, entityId: sql`f.entity_id`, sysid: sql`f.sysid`, schId: sql`f.sch_id`, detail, ...(facts.at ? { at: facts.at } : {}) },
  };
}

describeOnEmbedded("the audit log's two paths", (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(kind, { seed: false });
  });
  afterAll(async () => {
    await t?.close();
  });

  const last = async (action: string) => (await t.db.select().from(auditLog).where(eq(auditLog.action, action)).orderBy(desc(auditLog.id)).limit(1))[0];

  it("writes the same entry through writeAudit and through a statement's auditInsert, values or expressions", async () => {
    for (const { actor, facts } of CASES) {
      await writeAudit(t.db, actor, facts);
      const written = await last(facts.action);
      await t.db.execute(auditInsert(actor, facts, sql`(select 1) one`));
      const inserted = await last(facts.action);
      expect(inserted.id).toBeGreaterThan(written.id);
      expect(shown(inserted, Boolean(facts.at))).toEqual(shown(written, Boolean(facts.at)));
      const over = overRow(facts);
      await t.db.execute(sql`with audited as (${auditInsert(actor, over.facts, over.rows)}) select 1`);
      const computed = await last(facts.action);
      expect(computed.id).toBeGreaterThan(inserted.id);
      expect(shown(computed, Boolean(facts.at))).toEqual(shown(written, Boolean(facts.at)));
    }
  });

  it("writes one entry for each row of the statement, none for none", async () => {
    const actor = accountActor({ userId: 1, username: "svc" }, "10.0.0.1");
    await t.db.execute(sql`with audited as (${auditInsert(actor, { action: "rows_test", entityId: sql`n`, sysid: null, schId: null }, sql`generate_series(1, 3) n`)}) select 1`);
    await t.db.execute(sql`with audited as (${auditInsert(actor, { action: "rows_test", entityId: sql`n`, sysid: null, schId: null }, sql`generate_series(1, 0) n`)}) select 1`);
    const rows = await t.db.select({ entityId: auditLog.entityId }).from(auditLog).where(eq(auditLog.action, "rows_test")).orderBy(auditLog.id);
    expect(rows.map((r) => r.entityId)).toEqual(["1", "2", "3"]);
  });
});
