/**
 * Guardians' mobile numbers on an activity's board, on both databases: the arrears list shows them masked
 * (138****5678); `guardianphone` answers one whole to a reader of the bill's tenant and writes who saw which
 * student's guardian's number in the audit log; another provider's bill, or no bill at all, is "not found" and
 * leaves no audit entry.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { auditLog, bills, students } from "../../server/db/schema";
import { maskPhone } from "../../server/domains/notices/guardianPhone";
import { translator } from "../../server/lib/i18n";
import { describeOnEmbedded } from "../helpers/db";
import { payerWorld, type PayerWorld, type Row } from "./payerSupport";
import { createTestApp, type TestApp } from "./support";

const zh = translator("zh");

describeOnEmbedded("guardians' mobile numbers on the board", (kind) => {
  let t: TestApp;
  let world: PayerWorld;
  const tokens: Record<string, string> = {};
  const call = (user: string, method: string, payload: Row = {}) => t.call("adminapiv2", method, payload, { token: tokens[user] });
  const revealsOf = (studentId: number) =>
    t.db.select().from(auditLog).where(and(eq(auditLog.action, "guardianphone"), eq(auditLog.entityId, String(studentId))));

  beforeAll(async () => {
    t = await createTestApp(kind);
    for (const u of ["svc", "school", "harbour"]) tokens[u] = await t.login(u);
    world = await payerWorld(t, tokens.svc!);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("masks every guardian's number in the arrears, keeping the first three and last four digits", async () => {
    const res = await call("svc", "arrearslist", { activity_id: world.activityId, sch_id: world.schId, limit: 100 });
    expect(res.return_code, res.return_msg).toBe("SUCCESS");
    const items = res.data?.items as Row[];
    const withPhone = items.filter((row) => row.guardian_phone);
    expect(withPhone.length).toBeGreaterThan(0);
    const stored = await t.db.select({ id: bills.id, phone: students.guardian_phone }).from(bills).innerJoin(students, eq(students.id, bills.student_id)).where(eq(bills.activity_id, world.activityId));
    const phoneOf = new Map(stored.map((row) => [row.id, row.phone]));
    for (const row of withPhone) {
      const whole = phoneOf.get(Number(row.id))!;
      expect(row.guardian_phone).not.toBe(whole);
      expect(row.guardian_phone).toBe(`${whole.slice(0, 3)}${"*".repeat(whole.length - 7)}${whole.slice(-4)}`);
    }
    expect(maskPhone("13812345678")).toBe("138****5678");
  });

  it("shows one number whole on request and audits who saw which student's guardian's number", async () => {
    const [row] = ((await call("svc", "arrearslist", { activity_id: world.activityId, sch_id: world.schId, limit: 100 })).data?.items as Row[]).filter((r) => r.guardian_phone);
    const [student] = await t.db.select().from(students).where(eq(students.id, Number(row!.student_id)));
    expect(await revealsOf(student!.id)).toHaveLength(0);

    const res = await call("svc", "guardianphone", { id: row!.id });
    expect(res.return_code, res.return_msg).toBe("SUCCESS");
    expect((res.data?.items as Row).guardian_phone).toBe(student!.guardian_phone);

    const audited = await revealsOf(student!.id);
    expect(audited).toHaveLength(1);
    expect(audited[0]).toMatchObject({ username: "svc", entity: "student", sysid: world.sysid, schId: world.schId });
    expect(audited[0]!.detail).toMatchObject({ bill_id: Number(row!.id) });

    // the school reads its own bills too, and is audited as itself
    expect((await call("school", "guardianphone", { id: row!.id })).return_code).toBe("SUCCESS");
    expect((await revealsOf(student!.id)).map((entry) => entry.username).sort()).toEqual(["school", "svc"]);
  });

  it("answers another tenant's bill as a missing one and audits nothing", async () => {
    const [bill] = await t.db.select({ id: bills.id, studentId: bills.student_id }).from(bills).where(eq(bills.activity_id, world.activityId)).limit(1);
    const before = (await revealsOf(bill!.studentId)).length;
    expect(await call("harbour", "guardianphone", { id: bill!.id })).toEqual({ return_code: "FAIL", return_msg: zh("api.not_found") });
    expect(await call("svc", "guardianphone", { id: 2_000_000_000 })).toEqual({ return_code: "FAIL", return_msg: zh("api.not_found") });
    expect((await revealsOf(bill!.studentId)).length).toBe(before);
  });
});
