/**
 * A school's world through /weapi/: schools, grades, classes and students with their references, on both
 * databases. References must lie in the record's own school (and a class within the student's grade), lists
 * carry the names of what they refer to, a grade or class still holding records cannot be deleted, student
 * numbers are unique within a school, and every caller stays inside its own schools. In v2 the school manages
 * its grades and classes and the provider its students (spec 2.3).
 */
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeOnDatabases } from "../helpers/db";
import { createTestApp, type TestApp } from "./support";

type Row = Record<string, unknown>;

describeOnDatabases("school world", (kind) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const school: Record<string, number> = {};
  const call = (user: string, method: string, payload: Row = {}) => t.call("adminapiv2", method, payload, { token: tokens[user] });
  const items = (res: { data?: Row }) => (res.data?.items ?? []) as Row[];
  const item = (res: { data?: Row }) => (res.data?.items ?? {}) as Row;
  const fieldsOf = (res: { data?: Row }) => ((res.data?.errors ?? []) as { field: string }[]).map((e) => e.field);
  /** ids of the records made for this file */
  const made: Record<string, number> = {};

  const student = (overrides: Row = {}): Row => ({
    sch_id: school.no1,
    name: "Li Lei",
    student_no: "T-0001",
    sex: "1",
    grade_id: made.grade1,
    class_id: made.class1a,
    guardian_name: "Li Qiang",
    guardian_phone: "13800138000",
    id_card: "11010519491231002X",
    ...overrides,
  });

  beforeAll(async () => {
    t = await createTestApp(kind);
    for (const u of ["sysadmin", "svc", "staff", "school", "svcv1", "schoolv1"]) tokens[u] = await t.login(u);
    for (const s of items(await call("sysadmin", "schoollist", { limit: 100 }))) {
      const key = { "Sunrise No.1 Primary School": "no1", "Sunrise No.2 Primary School": "no2", "Sunrise Middle School": "middle", "Old Town Middle School": "oldtown" }[String(s.title)];
      if (key) school[key] = Number(s.id);
    }
    const grade = async (sch: number, title: string) => Number(item(await call("school", "gradeadd", { sch_id: sch, title, sort: 1 })).id);
    made.grade1 = await grade(school.no1, "Test grade one");
    made.grade2 = await grade(school.no1, "Test grade two");
    const cls = async (user: string, sch: number, grade: number, title: string) => {
      const res = await call(user, "classesadd", { sch_id: sch, grade_id: grade, title });
      expect(res.return_code, res.return_msg).toBe("SUCCESS");
      return Number(item(res).id);
    };
    made.class1a = await cls("school", school.no1, made.grade1, "Class A");
    made.class2a = await cls("school", school.no1, made.grade2, "Class A");
    // a grade and class of another school, made by its provider
    made.otherGrade = Number(item(await call("svc", "gradeadd", { sch_id: school.no2, title: "Other school grade" })).id);
    made.otherClass = await cls("svc", school.no2, made.otherGrade, "Other class");
  });
  afterAll(async () => {
    await t?.close();
  });

  it("adds a student and lists it with the names of its grade and class, filtered by class", async () => {
    const added = await call("svc", "studentadd", student());
    expect(added.return_code, added.return_msg).toBe("SUCCESS");
    made.student1 = Number(item(added).id);
    await call("svc", "studentadd", student({ student_no: "T-0002", name: "Han Meimei", sex: "2", grade_id: made.grade2, class_id: made.class2a, id_card: "" }));

    const byClass = await call("svc", "studentlist", { sch_id: school.no1, class_id: made.class1a, limit: 100 });
    expect(byClass.return_code).toBe("SUCCESS");
    expect(items(byClass).map((s) => s.student_no)).toEqual(["T-0001"]);
    expect(items(byClass)[0]).toMatchObject({ grade_id: made.grade1, grade_title: "Test grade one", class_id: made.class1a, class_title: "Class A", sex: "1", status: "1" });
    // a list carries the identity card masked; the record read for editing carries it whole (below)
    expect(items(byClass)[0].id_card).toBe("1101************2X");

    const girls = await call("svc", "studentlist", { sch_id: school.no1, sex: "2", name: "Meimei" });
    expect(items(girls).map((s) => s.name)).toEqual(["Han Meimei"]);
    const info = await call("svc", "studentinfo", { id: made.student1, sch_id: school.no1 });
    expect(item(info)).toMatchObject({ name: "Li Lei", class_title: "Class A", id_card: "11010519491231002X" });
  });

  it("refuses bad values with a message naming each field", async () => {
    const cases: [Row, string][] = [
      [{ name: "" }, "name"],
      [{ sex: "3" }, "sex"],
      [{ guardian_phone: "12345" }, "guardian_phone"],
      [{ id_card: "110105194912310021" }, "id_card"],
      [{ student_no: "T 0009" }, "student_no"],
      [{ grade_id: "abc" }, "grade_id"],
    ];
    for (const [overrides, field] of cases) {
      const res = await call("svc", "studentadd", student({ student_no: "T-0100", ...overrides }));
      expect(res.return_code, JSON.stringify(overrides)).toBe("FAIL");
      expect(fieldsOf(res), JSON.stringify(overrides)).toContain(field);
    }
  });

  it("refuses a class outside the student's grade and a grade or class of another school", async () => {
    const wrongGrade = await call("svc", "studentadd", student({ student_no: "T-0200", class_id: made.class2a }));
    expect(wrongGrade.return_code).toBe("FAIL");
    expect(fieldsOf(wrongGrade)).toEqual(["class_id"]);
    const otherSchool = await call("svc", "studentadd", student({ student_no: "T-0201", grade_id: made.otherGrade, class_id: made.otherClass }));
    expect(otherSchool.return_code).toBe("FAIL");
    expect(fieldsOf(otherSchool)).toEqual(["grade_id"]);
    const classOfOther = await call("school", "classesadd", { sch_id: school.no1, grade_id: made.otherGrade, title: "Sneaky" });
    expect(fieldsOf(classOfOther)).toEqual(["grade_id"]);
    // moving a student to another grade must move its class too
    const moved = await call("svc", "studentedit", { id: made.student1, sch_id: school.no1, grade_id: made.grade2 });
    expect(fieldsOf(moved)).toEqual(["class_id"]);
    const both = await call("svc", "studentedit", { id: made.student1, sch_id: school.no1, grade_id: made.grade2, class_id: made.class2a });
    expect(both.return_code, both.return_msg).toBe("SUCCESS");
    await call("svc", "studentedit", { id: made.student1, sch_id: school.no1, grade_id: made.grade1, class_id: made.class1a });
  });

  it("keeps student numbers unique within a school, also when two adds race", async () => {
    const again = await call("svc", "studentadd", student());
    expect(again.return_code).toBe("FAIL");
    expect(fieldsOf(again)).toEqual(["student_no"]);
    // another school may use the same number
    const elsewhere = await call("svc", "studentadd", student({ sch_id: school.no2, grade_id: made.otherGrade, class_id: made.otherClass }));
    expect(elsewhere.return_code, elsewhere.return_msg).toBe("SUCCESS");

    const race = await Promise.all([1, 2, 3].map(() => call("svc", "studentadd", student({ student_no: "T-RACE" }))));
    expect(race.filter((r) => r.return_code === "SUCCESS")).toHaveLength(1);
    for (const r of race.filter((x) => x.return_code !== "SUCCESS")) expect(r.return_code).toBe("FAIL");
  });

  it("refuses to delete a grade or class that still holds records, saying how many", async () => {
    const grade = await call("school", "gradedel", { id: made.grade1, sch_id: school.no1 });
    expect(grade.return_code).toBe("FAIL");
    expect(grade.return_msg).toMatch(/班级|学生/);
    const cls = await call("school", "classesdel", { id: made.class1a, sch_id: school.no1 });
    expect(cls.return_code).toBe("FAIL");
    expect(cls.return_msg).toMatch(/学生/);

    const emptyGrade = Number(item(await call("school", "gradeadd", { sch_id: school.no1, title: "Empty grade" })).id);
    const emptyClass = Number(item(await call("school", "classesadd", { sch_id: school.no1, grade_id: emptyGrade, title: "Empty class" })).id);
    expect((await call("school", "gradedel", { id: emptyGrade, sch_id: school.no1 })).return_code).toBe("FAIL");
    expect((await call("school", "classesdel", { id: emptyClass, sch_id: school.no1 })).return_code).toBe("SUCCESS");
    expect((await call("school", "gradedel", { id: emptyGrade, sch_id: school.no1 })).return_code).toBe("SUCCESS");
  });

  it("keeps every caller inside its own schools", async () => {
    // a school reads nothing of another school
    expect((await call("school", "classeslist", { sch_id: school.no2 })).return_code).toBe("FAIL");
    const sibling = await call("school", "gradelist", { sch_id: school.no2 });
    expect(sibling.return_code).toBe("FAIL");
    // the provider's staff see the grades of their two schools only, and may not manage students
    const staffGrades = await call("staff", "gradelist", { limit: 100 });
    expect(staffGrades.return_code).toBe("SUCCESS");
    expect(new Set(items(staffGrades).map((g) => g.sch_id))).toEqual(new Set([school.no1, school.no2].filter((id) => items(staffGrades).some((g) => g.sch_id === id))));
    expect(items(staffGrades).every((g) => g.sch_id === school.no1 || g.sch_id === school.no2)).toBe(true);
    expect((await call("staff", "gradelist", { sch_id: school.middle })).return_code).toBe("FAIL");
    expect((await call("staff", "studentlist", { sch_id: school.no1 })).return_code).toBe("FAIL");
    // a v1 provider has no student pages (spec 2.2: students are the v1 school's)
    expect((await call("svcv1", "studentlist", { sch_id: school.oldtown })).return_code).toBe("FAIL");
    // another provider's school answers like a missing one
    expect((await call("svc", "studentinfo", { id: made.student1, sch_id: school.oldtown })).return_code).toBe("FAIL");
    expect((await call("schoolv1", "studentinfo", { id: made.student1 })).return_code).toBe("FAIL");
  });

  it("lists every school of every provider for the platform, narrowed by provider, and each provider only its own", async () => {
    const providers = items(await call("sysadmin", "servicelist", { limit: 100 }));
    const sunrise = Number(providers.find((p) => p.title === "Sunrise Campus Services")?.id);
    const all = await call("sysadmin", "schoollist", { limit: 100 });
    expect(new Set(items(all).map((s) => s.sysid)).size).toBeGreaterThan(1);
    expect(items(all).find((s) => s.id === school.no1)).toMatchObject({ sysid_title: "Sunrise Campus Services" });
    const narrowed = await call("sysadmin", "schoollist", { sysid: sunrise, limit: 100 });
    expect(items(narrowed).length).toBeGreaterThan(0);
    expect(items(narrowed).every((s) => s.sysid === sunrise)).toBe(true);
    const own = await call("svc", "schoollist", { limit: 100 });
    expect(items(own).every((s) => s.sysid === sunrise)).toBe(true);
  });

  it("switches a student off and on through its status", async () => {
    expect((await call("svc", "studentedit", { id: made.student1, sch_id: school.no1, status: "0" })).return_code).toBe("SUCCESS");
    expect(item(await call("svc", "studentinfo", { id: made.student1, sch_id: school.no1 })).status).toBe("0");
    expect(fieldsOf(await call("svc", "studentedit", { id: made.student1, sch_id: school.no1, status: "2" }))).toEqual(["status"]);
    await call("svc", "studentedit", { id: made.student1, sch_id: school.no1, status: "1" });
  });

  it("exports the filtered students with grade and class names and masked identity numbers", async () => {
    const res = await t.exportFile("adminapiv2", "studentexport", { sch_id: school.no1, class_id: made.class1a, student_no: "T-0001" }, { token: tokens.svc });
    expect(res.return_code, res.return_msg).toBe("SUCCESS");
    const file = item(res) as { content_base64: string };
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(file.content_base64, "base64") as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    const row = Object.fromEntries(header.map((h, i) => [String(h), sheet.getRow(2).getCell(i + 1).value]));
    expect(sheet.rowCount).toBe(2);
    expect(row).toMatchObject({ 学生姓名: "Li Lei", 年级: "Test grade one", 班级: "Class A", 性别: "男", 身份证号: "1101************2X" });
  });
});

describe("reference titles", () => {
  it("name the key beside each reference after the field", async () => {
    const { refTitleKey } = await import("../../common/fieldRules");
    expect(refTitleKey("grade_id")).toBe("grade_title");
    expect(refTitleKey("class_id")).toBe("class_title");
    expect(refTitleKey("sysid")).toBe("sysid_title");
  });
});
