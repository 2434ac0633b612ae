/**
 * Audit entries name the provider and school they concern (audit_log.sysid, audit_log.sch_id), so that a provider's
 * or a school's own trail can be read out of the one log: CRUD writes carry the written record's tenant (a
 * provider's own record: that provider), exports the checked scope, payments the order's, renewals the school or
 * provider extended, sign-ins the account's, platform-only actions none.
 */
import { and, desc, eq, sql, type SQL } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { tableColumn } from "../../server/db/catalogueTables";
import { activationCodes, auditLog, providers, schools } from "../../server/db/schema";
import { describeOnEmbedded } from "../helpers/db";
import { createTestApp, idByTitle, type TestApp } from "./support";

type Row = Record<string, unknown>;
const EN = { "accept-language": "en" };

describeOnEmbedded("audit entries carry their provider and school", (kind) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};
  const call = (username: string, method: string, payload: Row = {}) => t.call("adminapiv2", method, payload, { token: tokens[username], headers: EN });
  const ok = async (username: string, method: string, payload: Row = {}) => {
    const res = await call(username, method, payload);
    expect(res.return_code, `${method}: ${res.return_msg}`).toBe("SUCCESS");
    return (res.data?.items ?? {}) as Row;
  };
  /** the newest entry of an action (and entity id), as its tenant and author */
  const lastEntry = async (action: string, entityId?: string | number) => {
    const [row] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, action), entityId === undefined ? undefined : eq(auditLog.entityId, String(entityId))))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(row, `an audit entry ${action}`).toBeDefined();
    return { sysid: row.sysid, schId: row.schId, username: row.username };
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    for (const u of ["sysadmin", "svc", "school", "schoolv1"]) tokens[u] = await t.login(u);
    ids.sunrise = await idByTitle(t.db, providers, "Sunrise Campus Services");
    ids.oldTown = await idByTitle(t.db, providers, "Old Town Education");
    ids.no1 = await idByTitle(t.db, schools, "Sunrise No.1 Primary School");
    ids.no2 = await idByTitle(t.db, schools, "Sunrise No.2 Primary School");
    ids.oldTownSchool = await idByTitle(t.db, schools, "Old Town Middle School");
  });
  afterAll(async () => {
    await t?.close();
  });

  it("a sign-in carries the account's provider and school; a platform account's and an unknown name's carry none", async () => {
    const logins = await t.db.select().from(auditLog).where(eq(auditLog.action, "login"));
    const tenantOf = (username: string) => logins.filter((r) => r.username === username).map((r) => ({ sysid: r.sysid, schId: r.schId }));
    expect(tenantOf("school")).toEqual([{ sysid: ids.sunrise, schId: ids.no1 }]);
    expect(tenantOf("schoolv1")).toEqual([{ sysid: ids.oldTown, schId: ids.oldTownSchool }]);
    expect(tenantOf("svc")).toEqual([{ sysid: ids.sunrise, schId: null }]);
    expect(tenantOf("sysadmin")).toEqual([{ sysid: null, schId: null }]);

    // a wrong password is the account's tenant's business; a name nobody has is nobody's
    expect((await t.call("adminapi", "login", { username: "svc", password: "not the password" })).return_code).toBe("FAIL");
    expect(await lastEntry("login_failed")).toEqual({ sysid: ids.sunrise, schId: null, username: "svc" });
    expect((await t.call("adminapi", "login", { username: "nobody-here", password: "not the password" })).return_code).toBe("FAIL");
    expect(await lastEntry("login_failed")).toEqual({ sysid: null, schId: null, username: "nobody-here" });
  });

  it("a school's additions carry its provider and school, and so do a provider's edit and removal of the record", async () => {
    // a (v1) school adds a pupil to its own school
    const oldGrade = await ok("schoolv1", "gradeadd", { sch_id: ids.oldTownSchool, title: "Audit grade", sort: 1 });
    const oldClass = await ok("schoolv1", "classesadd", { sch_id: ids.oldTownSchool, grade_id: oldGrade.id, title: "Audit class" });
    const pupil = await ok("schoolv1", "studentadd", { sch_id: ids.oldTownSchool, name: "Audit Pupil", student_no: "AUD-1", sex: "1", grade_id: oldGrade.id, class_id: oldClass.id });
    expect(await lastEntry("studentadd", Number(pupil.id))).toEqual({ sysid: ids.oldTown, schId: ids.oldTownSchool, username: "schoolv1" });

    const grade = await ok("school", "gradeadd", { sch_id: ids.no1, title: "Audit grade", sort: 1 });
    expect(await lastEntry("gradeadd", Number(grade.id))).toEqual({ sysid: ids.sunrise, schId: ids.no1, username: "school" });
    const cls = await ok("school", "classesadd", { sch_id: ids.no1, grade_id: grade.id, title: "Audit class" });
    // switched off: no open activity bills it, so nothing keeps it from being removed below
    const student = await ok("svc", "studentadd", { sch_id: ids.no1, name: "Audit Pupil", student_no: "AUD-2", sex: "2", grade_id: grade.id, class_id: cls.id, status: "0" });
    expect(await lastEntry("studentadd", Number(student.id))).toEqual({ sysid: ids.sunrise, schId: ids.no1, username: "svc" });
    await ok("svc", "studentedit", { id: student.id, sch_id: ids.no1, name: "Audit Pupil Renamed" });
    expect(await lastEntry("studentedit", Number(student.id))).toEqual({ sysid: ids.sunrise, schId: ids.no1, username: "svc" });
    // the provider acts on all its schools without naming one: the entry still names the record's school
    await ok("svc", "studentdel", { id: student.id });
    expect(await lastEntry("studentdel", Number(student.id))).toEqual({ sysid: ids.sunrise, schId: ids.no1, username: "svc" });
  });

  it("an export carries the checked scope: its provider, and its school when it names exactly one", async () => {
    // an export is audited by its job, with the scope it was asked in
    await ok("svc", "studentexport", { sch_id: ids.no1 });
    await t.runExportJobs();
    expect(await lastEntry("studentexport")).toEqual({ sysid: ids.sunrise, schId: ids.no1, username: "svc" });
    await ok("svc", "studentexport", {});
    await t.runExportJobs();
    expect(await lastEntry("studentexport")).toEqual({ sysid: ids.sunrise, schId: null, username: "svc" });
  });

  it("an operator's edit of a provider carries that provider", async () => {
    await ok("sysadmin", "serviceedit", { id: ids.oldTown, contact: "Audit Contact" });
    expect(await lastEntry("serviceedit", ids.oldTown)).toEqual({ sysid: ids.oldTown, schId: null, username: "sysadmin" });
  });

  it("a renewal payment carries the order's provider and school, and so does the term it extends", async () => {
    const meals = (await call("school", "getsetmeal")).data?.items as Row[];
    const oneYear = Number(meals.find((m) => m.title === "One year")!.id);
    const order = (await ok("school", "get_pay", { setmeal_id: oneYear, sch_id: ids.no1, sysid: ids.sunrise })) as { pay_no: string; payparam: { code_url: string } };
    const paid = await t.app.inject({ method: "POST", url: `${new URL(order.payparam.code_url).pathname}/confirm` });
    expect(paid.json()).toMatchObject({ return_code: "SUCCESS" });
    expect(await lastEntry("payment", order.pay_no)).toMatchObject({ sysid: ids.sunrise, schId: ids.no1 });
    expect(await lastEntry("schoolrenew")).toMatchObject({ sysid: ids.sunrise, schId: ids.no1 });
  });

  it("a code batch carries what its codes are bound to; a redemption, the provider it renews", async () => {
    const unbound = await ok("sysadmin", "actcodeadd", { count: 1, target: "service", term_months: 6, expires_on: "2027-03-02" });
    expect(await lastEntry("actcodeadd", String(unbound.batch_no))).toEqual({ sysid: null, schId: null, username: "sysadmin" });
    const bound = await ok("sysadmin", "actcodeadd", { count: 1, target: "school", term_months: 6, expires_on: "2027-03-02", sch_id: ids.no2 });
    expect(await lastEntry("actcodeadd", String(bound.batch_no))).toEqual({ sysid: ids.sunrise, schId: ids.no2, username: "sysadmin" });

    const [code] = await t.db.select().from(activationCodes).where(eq(tableColumn(activationCodes, "batch_no"), String(unbound.batch_no)));
    await ok("svc", "delay_foractcode", { sysid: ids.sunrise, act_code: String(code.code) });
    expect(await lastEntry("servicedelay")).toEqual({ sysid: ids.sunrise, schId: null, username: "svc" });
    // a refused code is the redeemer's business
    expect((await call("svc", "delay_foractcode", { sysid: ids.sunrise, act_code: "WRNG-0000" })).return_code).toBe("FAIL");
    expect(await lastEntry("actcode_refused")).toEqual({ sysid: ids.sunrise, schId: null, username: "svc" });
  });

  it("reads a school's own trail, newest first, and keeps the log append-only", async () => {
    const trail = await t.db
      .select({ action: auditLog.action, sysid: auditLog.sysid, username: auditLog.username })
      .from(auditLog)
      .where(eq(auditLog.schId, ids.no1))
      .orderBy(desc(auditLog.at), desc(auditLog.id));
    expect(trail.map((r) => r.action)).toEqual(expect.arrayContaining(["login", "gradeadd", "classesadd", "studentadd", "studentedit", "studentdel", "studentexport", "payment", "schoolrenew"]));
    expect(trail.every((r) => r.sysid === ids.sunrise)).toBe(true);
    // another provider's school's entries and a provider's own are not in it
    expect(trail.filter((r) => r.action === "studentadd").map((r) => r.username)).toEqual(["svc"]);
    expect(trail.map((r) => r.action)).not.toContain("serviceedit");

    // the database's refusal, as the driver reports it under the query's error
    const refusal = (query: SQL) =>
      t.db.execute(query).then(
        () => "changed",
        (err: unknown) => String((err as { cause?: unknown }).cause ?? err),
      );
    expect(await refusal(sql`update audit_log set sch_id = null where sch_id = ${ids.no1}`)).toMatch(/audit_log is append-only/);
    expect(await refusal(sql`delete from audit_log where sysid = ${ids.sunrise}`)).toMatch(/audit_log is append-only/);
  });
});
