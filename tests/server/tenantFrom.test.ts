/**
 * A record whose tenant is its reference's (EntityDecl.tenantFrom: a class or a student in its grade's school),
 * through /weapi/: a provider adding one across its schools names no school and the record lands in its reference's;
 * a reference the caller may not read (another school named beside it, a school outside a staff member's, another
 * provider's) is refused naming the field, as one that does not exist, and nothing is written;
 * an edit cannot move the record into another school through its reference.
 */
import { and, count, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { auditLog, classes, grades, schools, providers, students } from "../../server/db/schema";
import { describeOnEmbedded } from "../helpers/db";
import { createTestApp, idByTitle, type TestApp } from "./support";

type Row = Record<string, unknown>;
const EN = { "accept-language": "en" };

describeOnEmbedded("a record in its reference's tenant", (kind) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};
  const call = (username: string, method: string, payload: Row = {}) => t.call("adminapiv2", method, payload, { token: tokens[username], headers: EN });
  const ok = async (username: string, method: string, payload: Row = {}) => {
    const res = await call(username, method, payload);
    expect(res.return_code, `${method}: ${res.return_msg}`).toBe("SUCCESS");
    return (res.data?.items ?? {}) as Row;
  };
  /** a FAIL naming one field, with the message of a reference not offered */
  const refusedNaming = async (username: string, method: string, payload: Row, field: string, label: string) => {
    const res = await call(username, method, payload);
    expect(res.return_code, `${method} as ${username}`).toBe("FAIL");
    expect(res.data?.errors).toEqual([{ field, message: `${label}: the chosen record does not exist or is not available` }]);
  };
  const gradeOf = async (schId: number) => Number((await t.db.select({ id: grades.id }).from(grades).where(eq(grades.sch_id, schId)).limit(1))[0]!.id);
  const classOf = async (schId: number) => {
    const [row] = await t.db.select({ id: classes.id, grade_id: classes.grade_id }).from(classes).where(eq(classes.sch_id, schId)).limit(1);
    return { id: Number(row!.id), grade_id: Number(row!.grade_id) };
  };
  const classesTitled = async (title: string) => Number((await t.db.select({ n: count() }).from(classes).where(eq(classes.title, title)))[0]!.n);

  beforeAll(async () => {
    t = await createTestApp(kind);
    for (const u of ["svc", "staff", "school", "schoolv1"]) tokens[u] = await t.login(u);
    ids.sunrise = await idByTitle(t.db, providers, "Sunrise Campus Services");
    ids.no1 = await idByTitle(t.db, schools, "Sunrise No.1 Primary School");
    ids.no2 = await idByTitle(t.db, schools, "Sunrise No.2 Primary School");
    ids.middle = await idByTitle(t.db, schools, "Sunrise Middle School");
    ids.oldTownSchool = await idByTitle(t.db, schools, "Old Town Middle School");
  });
  afterAll(async () => {
    await t?.close();
  });

  it("a provider adds a class and a student naming no school: each lands in its reference's school", async () => {
    const grade = await gradeOf(ids.no2);
    const added = await ok("svc", "classesadd", { grade_id: grade, title: "Inherited class" });
    expect(added.sch_id).toBe(ids.no2);
    const [stored] = await t.db.select({ sysid: classes.sysid, sch_id: classes.sch_id }).from(classes).where(eq(classes.id, Number(added.id)));
    expect(stored).toEqual({ sysid: ids.sunrise, sch_id: ids.no2 });

    const pupil = await ok("svc", "studentadd", { name: "Inherited Pupil", student_no: "INH-1", sex: "1", grade_id: grade, class_id: Number(added.id) });
    const [storedPupil] = await t.db.select({ sysid: students.sysid, sch_id: students.sch_id }).from(students).where(eq(students.id, Number(pupil.id)));
    expect(storedPupil).toEqual({ sysid: ids.sunrise, sch_id: ids.no2 });
    // the audit trail files it under that school too
    const [entry] = await t.db.select().from(auditLog).where(and(eq(auditLog.action, "studentadd"), eq(auditLog.entityId, String(pupil.id)))).orderBy(desc(auditLog.id)).limit(1);
    expect({ sysid: entry!.sysid, schId: entry!.schId }).toEqual({ sysid: ids.sunrise, schId: ids.no2 });
  });

  it("a school named beside a reference of another school is refused naming the reference", async () => {
    await refusedNaming("svc", "classesadd", { sch_id: ids.no1, grade_id: await gradeOf(ids.no2), title: "Crossed class" }, "grade_id", "Grade");
    const cls = await classOf(ids.no2);
    await refusedNaming("svc", "studentadd", { sch_id: ids.no1, name: "Crossed Pupil", student_no: "INH-X", sex: "2", grade_id: cls.grade_id, class_id: cls.id }, "grade_id", "Grade");
    expect(await classesTitled("Crossed class")).toBe(0);
  });

  it("a reference outside the caller's schools is refused as unknown, and nothing is written", async () => {
    // the staff member works in No.1 and No.2, not in the middle school
    await refusedNaming("staff", "classesadd", { grade_id: await gradeOf(ids.middle), title: "Outside class" }, "grade_id", "Grade");
    // a school account, with another school's grade
    await refusedNaming("school", "classesadd", { grade_id: await gradeOf(ids.no2), title: "Outside class" }, "grade_id", "Grade");
    // a provider, with another provider's grade and class
    await refusedNaming("svc", "classesadd", { grade_id: await gradeOf(ids.oldTownSchool), title: "Outside class" }, "grade_id", "Grade");
    const foreign = await classOf(ids.oldTownSchool);
    await refusedNaming("svc", "studentadd", { name: "Outside Pupil", student_no: "INH-O", sex: "1", grade_id: foreign.grade_id, class_id: foreign.id }, "grade_id", "Grade");
    // an id nobody has
    await refusedNaming("svc", "classesadd", { grade_id: 987654321, title: "Outside class" }, "grade_id", "Grade");
    expect(await classesTitled("Outside class")).toBe(0);
  });

  it("the staff member adds in a school of theirs by its grade alone", async () => {
    const added = await ok("staff", "classesadd", { grade_id: await gradeOf(ids.no1), title: "Staff class" });
    expect(added.sch_id).toBe(ids.no1);
  });

  it("an edit cannot move a student into another school through their class", async () => {
    const home = await classOf(ids.no1);
    const pupil = await ok("svc", "studentadd", { name: "Staying Pupil", student_no: "INH-2", sex: "2", grade_id: home.grade_id, class_id: home.id });
    const away = await classOf(ids.no2);
    await refusedNaming("svc", "studentedit", { id: pupil.id, grade_id: away.grade_id, class_id: away.id }, "grade_id", "Grade");
    const [stored] = await t.db.select({ sch_id: students.sch_id, class_id: students.class_id }).from(students).where(eq(students.id, Number(pupil.id)));
    expect(stored).toEqual({ sch_id: ids.no1, class_id: home.id });
  });
});
