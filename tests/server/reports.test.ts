/**
 * A school's student reports through /weapi/ (catalogue/reports.ts): students by gender and by class with their
 * figures for a school whose students the test makes, the caller's school only, refused to roles the report
 * does not name, a bad filter answered FAIL naming the field, and the export an .xlsx whose headers are in the
 * caller's language. On both databases.
 */
import ExcelJS from "exceljs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { addDays, businessDay } from "../../common/term";
import { translator } from "../../server/lib/i18n";
import { describeOnDatabases } from "../helpers/db";
import { createTestApp, type TestApp } from "./support";

type Row = Record<string, unknown>;

const zh = translator("zh");
const en = translator("en");
const es = translator("es");

describeOnDatabases("student reports", (kind) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const school: Record<string, number> = {};
  const made: Record<string, number> = {};
  const call = (user: string, method: string, payload: Row = {}, headers?: Record<string, string>) => t.call("adminapiv2", method, payload, { token: tokens[user], headers });
  const exported = (user: string, method: string, payload: Row = {}, headers?: Record<string, string>) => t.exportFile("adminapiv2", method, payload, { token: tokens[user], headers });
  const items = (res: { data?: Row }) => (res.data?.items ?? []) as Row[];
  const item = (res: { data?: Row }) => (res.data?.items ?? {}) as Row;
  const byClass = (rows: Row[]) => new Map(rows.map((row) => [Number(row.class_id), row]));

  async function sheetOf(res: { data?: Row }): Promise<(string | number | null)[][]> {
    expect(res.data?.items).toMatchObject({ mime: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" });
    const { filename, content_base64 } = item(res);
    expect(String(filename)).toMatch(/\.xlsx$/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(String(content_base64), "base64") as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const rows: (string | number | null)[][] = [];
    sheet.eachRow((row) => rows.push((row.values as (string | number | null)[]).slice(1)));
    return rows;
  }

  beforeAll(async () => {
    t = await createTestApp(kind);
    for (const u of ["sysadmin", "svc", "staff", "school", "pickup", "schoolv1", "svcv1"]) tokens[u] = await t.login(u);
    for (const s of items(await call("sysadmin", "schoollist", { limit: 100 }))) {
      const key = { "Sunrise No.1 Primary School": "no1", "Sunrise No.2 Primary School": "no2", "Old Town Middle School": "oldtown" }[String(s.title)];
      if (key) school[key] = Number(s.id);
    }
    const added = async (user: string, method: string, payload: Row) => {
      const res = await call(user, method, payload);
      expect(res.return_code, `${method}: ${res.return_msg}`).toBe("SUCCESS");
      return Number(item(res).id);
    };
    // the school's own grades and classes, one class left empty
    made.grade1 = await added("school", "gradeadd", { sch_id: school.no1, title: "Report grade one", sort: 1 });
    made.grade2 = await added("school", "gradeadd", { sch_id: school.no1, title: "Report grade two", sort: 2 });
    made.class1a = await added("school", "classesadd", { sch_id: school.no1, grade_id: made.grade1, title: "Class A" });
    made.class1b = await added("school", "classesadd", { sch_id: school.no1, grade_id: made.grade1, title: "Class B" });
    made.class2a = await added("school", "classesadd", { sch_id: school.no1, grade_id: made.grade2, title: "Class A" });
    // its students, added by its provider (v2): class 1A two boys and a girl, class 1B a girl and a disabled boy
    let n = 0;
    const student = (grade: number, cls: number, sex: string, status = "1") =>
      added("svc", "studentadd", { sch_id: school.no1, name: `Pupil ${++n}`, student_no: `RPT-${n}`, sex, grade_id: grade, class_id: cls, status });
    await student(made.grade1, made.class1a, "1");
    await student(made.grade1, made.class1a, "1");
    await student(made.grade1, made.class1a, "2");
    await student(made.grade1, made.class1b, "2");
    await student(made.grade1, made.class1b, "1", "0");
    // another school of the same provider, which the school's reports never count
    made.otherGrade = await added("svc", "gradeadd", { sch_id: school.no2, title: "Other report grade" });
    made.otherClass = await added("svc", "classesadd", { sch_id: school.no2, grade_id: made.otherGrade, title: "Other class" });
    await added("svc", "studentadd", { sch_id: school.no2, name: "Elsewhere", student_no: "RPT-OTHER", sex: "1", grade_id: made.otherGrade, class_id: made.otherClass });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("counts the students of each class, boys and girls apart, with every class of the school (an empty one too)", async () => {
    const res = await call("school", "classstatis", { grade_id: made.grade1 });
    expect(res.return_code, res.return_msg).toBe("SUCCESS");
    expect(items(res)).toEqual([
      { class_id: made.class1a, class_title: "Report grade one Class A", students: 3, boys: 2, girls: 1 },
      { class_id: made.class1b, class_title: "Report grade one Class B", students: 2, boys: 1, girls: 1 },
    ]);
    expect(res.data).toMatchObject({ total: 2, sums: { students: 5, boys: 3, girls: 2 } });

    const all = await call("school", "classstatis");
    const rows = byClass(items(all));
    expect(rows.get(made.class2a)).toEqual({ class_id: made.class2a, class_title: "Report grade two Class A", students: 0, boys: 0, girls: 0 });
    // the grades' order: grade one's classes before grade two's
    const ids = items(all).map((row) => Number(row.class_id));
    expect(ids.indexOf(made.class1a)).toBeLessThan(ids.indexOf(made.class1b));
    expect(ids.indexOf(made.class1b)).toBeLessThan(ids.indexOf(made.class2a));
    expect(all.data?.total).toBe(items(all).length);
  });

  it("counts only the caller's school: its classes are the school's list of classes, its students the school's", async () => {
    const all = await call("school", "classstatis");
    const classList = await call("school", "classeslist", { limit: 100 });
    expect(all.data?.total).toBe(Number(classList.data?.total));
    const reported = byClass(items(all));
    expect(items(classList).filter((c) => !reported.has(Number(c.id)))).toEqual([]);
    expect(byClass(items(all)).has(made.otherClass)).toBe(false);
    const studentTotal = Number((await call("svc", "studentlist", { sch_id: school.no1, limit: 1 })).data?.total);
    expect((all.data?.sums as Row).students).toBe(studentTotal);
    const bySex = await call("school", "sexstatis");
    expect((bySex.data?.sums as Row).students).toBe(studentTotal);

    // another school named by the school: refused, revealing nothing
    const foreign = await call("school", "classstatis", { sch_id: school.no2 });
    expect(foreign).toEqual({ return_code: "FAIL", return_msg: zh("api.not_found") });
    // the v1 school sees its own school only
    const v1 = await call("schoolv1", "classstatis");
    expect(v1.return_code, v1.return_msg).toBe("SUCCESS");
    expect(v1.data?.total).toBe(Number((await call("schoolv1", "classeslist", { limit: 1 })).data?.total));
    expect(byClass(items(v1)).has(made.class1a)).toBe(false);
  });

  it("counts students by gender with each one's share, both genders always present, under the filters", async () => {
    const grade = await call("school", "sexstatis", { grade_id: made.grade1 }, { cookie: "language=en" });
    expect(grade.return_code, grade.return_msg).toBe("SUCCESS");
    expect(items(grade)).toEqual([
      { sex: "1", sex_title: en("enum.sex.1"), students: 3, share: 60 },
      { sex: "2", sex_title: en("enum.sex.2"), students: 2, share: 40 },
    ]);
    // in use only: the disabled boy leaves
    const inUse = await call("school", "sexstatis", { grade_id: made.grade1, status: "1" });
    expect(items(inUse).map((row) => [row.sex, row.students, row.share])).toEqual([
      ["1", 2, 50],
      ["2", 2, 50],
    ]);
    const oneClass = await call("school", "sexstatis", { grade_id: made.grade1, class_id: made.class1a });
    expect(items(oneClass).map((row) => [row.students, row.share])).toEqual([
      [2, 66.7],
      [1, 33.3],
    ]);
    // an empty class: both genders with zeros
    const empty = await call("school", "sexstatis", { class_id: made.class2a });
    expect(items(empty).map((row) => [row.sex, row.students, row.share])).toEqual([
      ["1", 0, 0],
      ["2", 0, 0],
    ]);
    // added between two days (the rows' creation time is the database's clock)
    const today = businessDay(new Date());
    const around = await call("school", "sexstatis", { grade_id: made.grade1, created_at_start: addDays(today, -1), created_at_end: addDays(today, 1) });
    expect((around.data?.sums as Row).students).toBe(5);
    const before = await call("school", "sexstatis", { grade_id: made.grade1, created_at_end: "2000-01-01" });
    expect((before.data?.sums as Row).students).toBe(0);
  });

  it("refuses the roles the report does not name", async () => {
    for (const user of ["svc", "staff", "pickup", "sysadmin", "svcv1"]) {
      for (const method of ["classstatis", "classstatisexport", "sexstatis", "sexstatisexport"]) {
        expect(await call(user, method), `${method} as ${user}`).toEqual({ return_code: "FAIL", return_msg: zh("api.no_permission") });
      }
    }
    expect((await t.call("adminapiv2", "classstatis", {})).return_code).toBe("token_error");
  });

  it("answers a bad filter with FAIL naming the field", async () => {
    const cases: [string, Row, string][] = [
      ["classstatis", { grade_id: "abc" }, "grade_id"],
      ["classstatis", { grade_id: -3 }, "grade_id"],
      ["sexstatis", { status: "9" }, "status"],
      ["sexstatis", { class_id: ["1"] }, "class_id"],
      ["sexstatis", { created_at_start: "2026-02-30" }, "created_at_start"],
      ["sexstatisexport", { grade_id: "1; drop table students" }, "grade_id"],
    ];
    for (const [method, payload, field] of cases) {
      const res = await call("school", method, payload);
      expect(res, `${method} ${JSON.stringify(payload)}`).toMatchObject({ return_code: "FAIL", return_msg: zh("api.invalid_params", { field }) });
    }
  });

  it("exports the figures as an .xlsx with the headers in the caller's language and a total row", async () => {
    const english = await sheetOf(await exported("school", "classstatisexport", { grade_id: made.grade1 }, { cookie: "language=en" }));
    expect(english).toEqual([
      [en("reports.dimension.class"), en("reports.measure.students"), en("reports.measure.boys"), en("reports.measure.girls")],
      ["Report grade one Class A", 3, 2, 1],
      ["Report grade one Class B", 2, 1, 1],
      [en("reports.total"), 5, 3, 2],
    ]);
    const chinese = await sheetOf(await exported("school", "classstatisexport", { grade_id: made.grade1 }));
    expect(chinese[0]).toEqual([zh("reports.dimension.class"), zh("reports.measure.students"), zh("reports.measure.boys"), zh("reports.measure.girls")]);
    expect(chinese[3]?.[0]).toBe(zh("reports.total"));

    const spanish = await sheetOf(await exported("school", "sexstatisexport", { grade_id: made.grade1 }, { cookie: "language=es" }));
    expect(spanish).toEqual([
      [es("field.sex"), es("reports.measure.students"), es("reports.share")],
      [es("enum.sex.1"), 3, 0.6],
      [es("enum.sex.2"), 2, 0.4],
      [es("reports.total"), 5, 1],
    ]);
  });
});
