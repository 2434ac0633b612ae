/**
 * The student import through /weapi/ (the import page kind of the engine, server/engine/imports.ts), on both
 * databases: the template in the caller's language; headers in any language or by field name; the gender by its
 * label in any language; grades and classes found by title and created when missing; every row checked before
 * anything is written, all or nothing, with errors naming row and field; files that are no workbook refused
 * naming content_base64; the roles and schools allowed; two imports of the same student numbers at once; and the
 * import log, narrowed to each caller's schools.
 */
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { translator } from "../../server/lib/i18n";
import { describeOnDatabases } from "../helpers/db";
import { sheetBase64, type Cell } from "../helpers/xlsxParts";
import { createTestApp, type TestApp } from "./support";

type Row = Record<string, unknown>;

const zh = translator("zh");
const en = translator("en");

const EN_HEADER = ["Student name", "Student number", "Gender", "Grade", "Class", "Guardian", "Guardian's phone", "ID card number"];
const ZH_HEADER = ["学生姓名", "学号", "性别", "年级", "班级", "监护人", "监护人电话", "身份证号"];
const NAME_HEADER = ["name", "student_no", "sex", "grade", "class", "guardian_name", "guardian_phone", "id_card"];

const workbook = sheetBase64;

interface ImportItems {
  log_id: number;
  total: number;
  imported: number;
  error_count: number;
  errors: { row: number; field: string; message: string }[];
}

describeOnDatabases("student import", (kind) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const school: Record<string, number> = {};
  const call = (user: string, method: string, payload: Row = {}, language?: string) =>
    t.call("adminapiv2", method, payload, { token: tokens[user], headers: language ? { cookie: `language=${language}` } : {} });
  const items = (res: { data?: Row }) => (res.data?.items ?? []) as Row[];
  const answer = (res: { data?: Row }) => res.data?.items as ImportItems;
  const importFile = async (user: string, sch: number, content: string, filename = "students.xlsx", language?: string) =>
    call(user, "studentimport", { sch_id: sch, filename, content_base64: content }, language);
  const students = async (sch: number) => items(await call("svc", "studentlist", { sch_id: sch, limit: 100 }));
  const grades = async (sch: number) => items(await call("svc", "gradelist", { sch_id: sch, limit: 100 }));
  const classes = async (sch: number) => items(await call("svc", "classeslist", { sch_id: sch, limit: 100 }));
  const newSchool = async (title: string) => {
    const res = await call("svc", "schooladd", { title, endtime: "2026-03-10", status: "1" });
    expect(res.return_code, res.return_msg).toBe("SUCCESS");
    return Number((res.data?.items as Row).id);
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    for (const u of ["sysadmin", "svc", "staff", "school", "svcv1", "schoolv1", "harbour"]) tokens[u] = await t.login(u);
    for (const s of items(await call("sysadmin", "schoollist", { limit: 100 }))) {
      const key = { "Sunrise No.1 Primary School": "no1", "Sunrise No.2 Primary School": "no2", "Old Town Middle School": "oldtown" }[String(s.title)];
      if (key) school[key] = Number(s.id);
    }
    expect(Object.keys(school).sort()).toEqual(["no1", "no2", "oldtown"]);
    school.fresh = await newSchool("Import Test School");
    school.race = await newSchool("Import Race School");
    // a grade the imports find by its title
    const grade = await call("svc", "gradeadd", { sch_id: school.fresh, title: "一年级", sort: 1 });
    expect(grade.return_code, grade.return_msg).toBe("SUCCESS");
  });
  afterAll(async () => {
    await t?.close();
  });

  describe("template", () => {
    it("is an .xlsx whose header row is the columns' labels in the caller's language", async () => {
      for (const [language, header] of [["en", EN_HEADER], ["zh", ZH_HEADER]] as const) {
        const res = await call("svc", "studenttemplate", {}, language);
        expect(res.return_code, res.return_msg).toBe("SUCCESS");
        const file = res.data?.items as { filename: string; mime: string; content_base64: string };
        expect(file.filename).toMatch(/\.xlsx$/);
        expect(file.mime).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
        const book = new ExcelJS.Workbook();
        await book.xlsx.load(Buffer.from(file.content_base64, "base64") as unknown as ArrayBuffer);
        const values = (book.worksheets[0].getRow(1).values as unknown[]).slice(1);
        expect(values, language).toEqual(header);
      }
    });

    it("is refused to a role that may not add students", async () => {
      const res = await call("staff", "studenttemplate", {});
      expect(res).toEqual({ return_code: "FAIL", return_msg: zh("api.no_permission") });
    });
  });

  describe("import", () => {
    it("reads English headers and genders, creating the missing grade and class", async () => {
      const content = await workbook(EN_HEADER, [
        ["Ada Lovelace", "IMP-0001", "Female", "Grade Seven", "Class A", "Byron", "13800138001", "11010519491231002X"],
        ["Alan Turing", "IMP-0002", "male", "Grade Seven", "Class B", null, null, null],
      ]);
      const res = await importFile("svc", school.fresh, content, "english.xlsx", "en");
      expect(res.return_code, res.return_msg).toBe("SUCCESS");
      expect(res.return_msg).toBe(en("import.succeeded", { count: 2 }));
      expect(answer(res)).toMatchObject({ total: 2, imported: 2, errors: [] });
      expect(answer(res).log_id).toBeGreaterThan(0);

      const stored = await students(school.fresh);
      const ada = stored.find((s) => s.student_no === "IMP-0001")!;
      expect(ada).toMatchObject({ name: "Ada Lovelace", sex: "2", grade_title: "Grade Seven", class_title: "Class A", guardian_phone: "13800138001", status: "1" });
      expect(stored.find((s) => s.student_no === "IMP-0002")).toMatchObject({ sex: "1", grade_title: "Grade Seven", class_title: "Class B" });
      expect((await grades(school.fresh)).filter((g) => g.title === "Grade Seven")).toHaveLength(1);
      expect((await classes(school.fresh)).filter((c) => c.grade_title === "Grade Seven").map((c) => c.title).sort()).toEqual(["Class A", "Class B"]);
    });

    it("reads Chinese headers and finds an existing grade by its title", async () => {
      const before = (await grades(school.fresh)).length;
      const content = await workbook(ZH_HEADER, [
        ["张三", "IMP-0101", "男", "一年级", "1班", "张父", "13900139000", null],
        ["李四", "IMP-0102", "女", "一年级", "1班", null, null, null],
        // a class of the same title in another grade is another class
        ["王五", "IMP-0103", "女", "Grade Seven", "1班", null, null, null],
      ]);
      const res = await importFile("svc", school.fresh, content, "中文.xlsx");
      expect(res.return_code, res.return_msg).toBe("SUCCESS");
      expect(res.return_msg).toBe(zh("import.succeeded", { count: 3 }));
      expect((await grades(school.fresh)).length).toBe(before);
      const stored = await students(school.fresh);
      expect(stored.find((s) => s.student_no === "IMP-0101")).toMatchObject({ sex: "1", grade_title: "一年级", class_title: "1班" });
      expect(stored.find((s) => s.student_no === "IMP-0102")).toMatchObject({ sex: "2", grade_title: "一年级", class_title: "1班" });
      const classOne = (await classes(school.fresh)).filter((c) => c.title === "1班");
      expect(classOne.map((c) => c.grade_title).sort()).toEqual(["Grade Seven", "一年级"]);
      const wang = stored.find((s) => s.student_no === "IMP-0103")!;
      expect(classOne.find((c) => c.id === wang.class_id)?.grade_title).toBe("Grade Seven");
    });

    it("reads headers by field name, genders by value or by their Spanish label, whatever the columns' order", async () => {
      const header = [...NAME_HEADER].reverse();
      const rows: Cell[][] = [
        ["Carmen", "IMP-0201", "Femenino", "Segundo", "A", null, null, null],
        ["Pablo", "IMP-0202", "Masculino", "Segundo", "A", null, null, null],
        ["Lucía", "IMP-0203", "2", "Segundo", "B", null, null, null],
      ].map((r) => [...r].reverse());
      const res = await importFile("svc", school.fresh, await workbook(header, rows), "nombres.xlsx", "es");
      expect(res.return_code, res.return_msg).toBe("SUCCESS");
      expect(answer(res)).toMatchObject({ total: 3, imported: 3 });
      const stored = await students(school.fresh);
      expect(stored.filter((s) => String(s.student_no).startsWith("IMP-020")).map((s) => [s.student_no, s.sex, s.grade_title, s.class_title]).sort()).toEqual([
        ["IMP-0201", "2", "Segundo", "A"],
        ["IMP-0202", "1", "Segundo", "A"],
        ["IMP-0203", "2", "Segundo", "B"],
      ]);
    });

    it("imports nothing when a row fails, naming each failing row (as the sheet numbers it) and field", async () => {
      const before = await students(school.fresh);
      const gradesBefore = await grades(school.fresh);
      const content = await workbook(EN_HEADER, [
        ["Fine", "IMP-0301", "Male", "Grade Nine", "Class Z", null, null, null],
        ["Bad phone", "IMP-0302", "Male", "Grade Nine", "Class Z", null, "12345", null],
        ["Twice", "IMP-0301", "Female", "Grade Nine", "Class Z", null, null, null],
        ["Stored", "IMP-0001", "Female", "Grade Nine", "Class Z", null, null, null],
        [null, "IMP-0305", "Unknown", "", "Class Z", null, null, null],
      ]);
      const res = await importFile("svc", school.fresh, content, "bad.xlsx", "en");
      expect(res.return_code).toBe("FAIL");
      const result = answer(res);
      expect(result).toMatchObject({ total: 5, imported: 0 });
      const named = result.errors.map((e) => `${e.row}:${e.field}`);
      expect(named).toEqual(expect.arrayContaining(["3:guardian_phone", "4:student_no", "5:student_no", "6:name", "6:sex", "6:grade_id"]));
      expect(named).not.toContain("2:student_no");
      expect(result.error_count).toBe(result.errors.length);
      expect(res.return_msg).toBe(en("import.failed", { count: result.errors.length }));
      const message = (key: string) => result.errors.find((e) => `${e.row}:${e.field}` === key)?.message;
      expect(message("3:guardian_phone")).toBe(en("api.validation.phone", { label: "Guardian's phone" }));
      expect(message("4:student_no")).toBe(en("import.duplicate_in_file", { label: "Student number", value: "IMP-0301", row: 2 }));
      expect(message("5:student_no")).toBe(en("import.exists", { label: "Student number", value: "IMP-0001" }));
      // nothing written: no student, and not the grade the file named
      expect((await students(school.fresh)).length).toBe(before.length);
      expect((await grades(school.fresh)).length).toBe(gradesBefore.length);
    });

    it("names a choice's accepted values in the caller's language when a row gives another", async () => {
      const content = await workbook(EN_HEADER, [["Unsure", "IMP-0401", "Unknown", "Grade Nine", "Class Z", null, null, null]]);
      const res = await importFile("svc", school.fresh, content, "choice.xlsx", "en");
      expect(answer(res).errors).toEqual([{ row: 2, field: "sex", message: en("import.choice_invalid", { label: "Gender", value: "Unknown", values: "Male, Female" }) }]);
    });

    it("checks a file without writing when asked for a preview: the rows, the grades and classes it would create, each choice's values", async () => {
      const studentsBefore = (await students(school.fresh)).length;
      const gradesBefore = (await grades(school.fresh)).length;
      const logsBefore = items(await call("svc", "schoolimportloglist", { sch_id: school.fresh, limit: 100 })).length;
      const content = await workbook(EN_HEADER, [
        ["Preview One", "IMP-0501", "Female", "Grade Eleven", "Class P", null, null, null],
        ["Preview Two", "IMP-0502", "Male", "Grade Eleven", "Class Q", null, null, null],
        // an existing grade and class: nothing to create for this row
        ["Preview Three", "IMP-0503", "Male", "一年级", "1班", null, null, null],
        ["Preview Four", "IMP-0504", "Male", "一年级", "New Class", null, null, null],
      ]);
      const res = await call("svc", "studentimport", { sch_id: school.fresh, filename: "preview.xlsx", content_base64: content, preview: true }, "en");
      expect(res.return_code, res.return_msg).toBe("SUCCESS");
      expect(res.return_msg).toBe(en("import.checked", { count: 4 }));
      expect(res.data?.items).toEqual({
        preview: true,
        total: 4,
        imported: 0,
        error_count: 0,
        errors: [],
        creates: [
          { field: "grade_id", entity: "grade", titles: ["Grade Eleven"] },
          { field: "class_id", entity: "classes", titles: ["Grade Eleven / Class P", "Grade Eleven / Class Q", "一年级 / New Class"] },
        ],
        choices: [{ field: "sex", values: ["Male", "Female"] }],
      });
      // nothing written, nothing logged
      expect((await students(school.fresh)).length).toBe(studentsBefore);
      expect((await grades(school.fresh)).length).toBe(gradesBefore);
      expect(items(await call("svc", "schoolimportloglist", { sch_id: school.fresh, limit: 100 })).length).toBe(logsBefore);

      // the import itself answers what it created
      const done = await importFile("svc", school.fresh, content, "preview.xlsx", "en");
      expect(done.return_code, done.return_msg).toBe("SUCCESS");
      expect(answer(done)).toMatchObject({ total: 4, imported: 4, creates: (res.data?.items as { creates: unknown }).creates });
    });

    it("says which column the header row lacks", async () => {
      const res = await importFile("svc", school.fresh, await workbook(["Student name", "Gender", "Grade", "Class"], [["No number", "Male", "G", "C"]]), "short.xlsx", "en");
      expect(res.return_code).toBe("FAIL");
      // only the header's fault: every row would repeat it
      expect(answer(res).errors).toEqual([{ row: 1, field: "student_no", message: en("import.missing_column", { label: "Student number" }) }]);
    });

    it("refuses a file that is no .xlsx workbook, naming content_base64", async () => {
      const notXlsx = [Buffer.from("name,student_no\nA,1\n").toString("base64"), "%%% not base64 %%%", "", Buffer.from("PK\u0003\u0004 broken zip").toString("base64")];
      for (const content of notXlsx) {
        const res = await importFile("svc", school.fresh, content);
        expect(res.return_code, content).toBe("FAIL");
        expect(res.return_msg, content).toContain("content_base64");
        expect(res.return_msg, content).toBe(zh("import.bad_file"));
        expect(res.data?.errors).toEqual([{ field: "content_base64", message: zh("import.bad_file") }]);
      }
      const empty = await importFile("svc", school.fresh, await workbook(ZH_HEADER, []));
      expect(empty.return_code).toBe("FAIL");
      expect(empty.return_msg).toBe(zh("import.empty_file"));
      expect(empty.return_msg).toContain("content_base64");
      const rows: Cell[][] = Array.from({ length: 10_001 }, (_, i) => [`Many ${i}`, `MANY-${i}`, "男", "一年级", "1班", null, null, null]);
      const tooMany = await importFile("svc", school.fresh, await workbook(ZH_HEADER, rows));
      expect(tooMany.return_code).toBe("FAIL");
      expect(tooMany.return_msg).toBe(zh("import.too_many_rows", { max: 10_000 }));
      expect(tooMany.return_msg).toContain("content_base64");
      const missing = await call("svc", "studentimport", { sch_id: school.fresh, filename: "x.xlsx" });
      expect(missing).toEqual({ return_code: "FAIL", return_msg: zh("api.invalid_params", { field: "content_base64" }) });
    });

    it("needs one school, and only those of the caller's authority", async () => {
      const content = await workbook(ZH_HEADER, [["甲", "IMP-0401", "男", "一年级", "1班", null, null, null]]);
      expect(await call("svc", "studentimport", { content_base64: content })).toEqual({ return_code: "FAIL", return_msg: zh("api.school_required") });
      // another provider's school
      expect(await importFile("svc", school.oldtown, content)).toEqual({ return_code: "FAIL", return_msg: zh("api.not_found") });
      expect(await importFile("schoolv1", school.no1, content)).toEqual({ return_code: "FAIL", return_msg: zh("api.not_found") });
    });

    it("is refused to roles that may not add students (the provider's staff, the v2 school, the v1 provider)", async () => {
      const content = await workbook(ZH_HEADER, [["甲", "IMP-0501", "男", "一年级", "1班", null, null, null]]);
      for (const user of ["staff", "school", "svcv1"]) {
        // the staff's own school and a school outside its assignment alike
        for (const sch of [school.no1, school.fresh]) {
          expect(await importFile(user, sch, content), `${user} ${sch}`).toEqual({ return_code: "FAIL", return_msg: zh("api.no_permission") });
        }
      }
      // an expired provider may read but not import
      expect(await call("harbour", "studentimport", { content_base64: content })).toEqual({ return_code: "FAIL", return_msg: zh("api.term_expired") });
    });

    it("lets the v1 school import into its own school", async () => {
      const content = await workbook(ZH_HEADER, [["老城学生", "IMP-0601", "女", "初一", "1班", null, null, null]]);
      const res = await importFile("schoolv1", school.oldtown, content, "oldtown.xlsx");
      expect(res.return_code, res.return_msg).toBe("SUCCESS");
      expect(answer(res).imported).toBe(1);
    });

    it("runs two imports of the same student numbers into one school one after the other: one succeeds, the other imports nothing", async () => {
      const rows: Cell[][] = Array.from({ length: 300 }, (_, i) => [`Racer ${i}`, `RACE-${String(i).padStart(4, "0")}`, i % 2 ? "男" : "女", "Race grade", `Race class ${i % 3}`, null, null, null]);
      const content = await workbook(ZH_HEADER, rows);
      const [first, second] = await Promise.all([importFile("svc", school.race, content, "first.xlsx"), importFile("svc", school.race, content, "second.xlsx")]);
      const codes = [first.return_code, second.return_code].sort();
      expect(codes).toEqual(["FAIL", "SUCCESS"]);
      const failed = first.return_code === "FAIL" ? first : second;
      expect(failed.return_msg).not.toBe(zh("api.system_error"));
      expect(answer(failed)).toMatchObject({ total: 300, imported: 0, error_count: 300 });
      expect(answer(failed).errors[0]).toEqual({ row: 2, field: "student_no", message: zh("import.exists", { label: zh("field.student_no"), value: "RACE-0000" }) });
      const stored = items(await call("svc", "studentlist", { sch_id: school.race, limit: 1 }));
      expect(stored).toHaveLength(1);
      expect((await call("svc", "studentlist", { sch_id: school.race })).data?.total).toBe(300);
      expect((await grades(school.race)).map((g) => g.title)).toEqual(["Race grade"]);
      expect((await classes(school.race)).length).toBe(3);
    });
  });

  describe("import log", () => {
    it("lists every import of a school, succeeded or failed, with its counts, file, importer and school", async () => {
      const res = await call("svc", "schoolimportloglist", { sch_id: school.race, limit: 100 });
      expect(res.return_code, res.return_msg).toBe("SUCCESS");
      const logs = items(res);
      expect(logs).toHaveLength(2);
      expect(logs.map((l) => l.status).sort()).toEqual(["failed", "succeeded"]);
      for (const log of logs) {
        expect(log).toMatchObject({ entity: "student", sch_id: school.race, sch_title: "Import Race School", username: "svc", total: 300 });
        expect(["first.xlsx", "second.xlsx"]).toContain(log.filename);
      }
      expect(logs.find((l) => l.status === "succeeded")).toMatchObject({ imported: 300, error_count: 0 });
      const failed = logs.find((l) => l.status === "failed")!;
      expect(failed).toMatchObject({ imported: 0, error_count: 300 });
      const detail = await call("svc", "schoolimportloginfo", { id: failed.id });
      expect(detail.return_code, detail.return_msg).toBe("SUCCESS");
      const errors = JSON.parse(String((detail.data?.items as Row).errors)) as { row: number; field: string }[];
      expect(errors[0]).toMatchObject({ row: 2, field: "student_no" });

      const fresh = items(await call("svc", "schoolimportloglist", { sch_id: school.fresh, limit: 100 }));
      expect(fresh.map((l) => `${String(l.filename)}:${String(l.status)}`)).toEqual(
        expect.arrayContaining(["english.xlsx:succeeded", "中文.xlsx:succeeded", "nombres.xlsx:succeeded", "bad.xlsx:failed", "short.xlsx:failed"]),
      );
      expect(fresh.find((l) => l.filename === "bad.xlsx")).toMatchObject({ total: 5, imported: 0 });
    });

    it("is narrowed to each caller's schools", async () => {
      // an import into a school assigned to the staff
      const content = await workbook(ZH_HEADER, [["一号", "IMP-0701", "男", "Import grade", "Import class", null, null, null]]);
      expect((await importFile("svc", school.no1, content, "no1.xlsx")).return_code).toBe("SUCCESS");

      const svcLogs = items(await call("svc", "schoolimportloglist", { limit: 100 }));
      expect(new Set(svcLogs.map((l) => l.sch_id))).toEqual(new Set([school.fresh, school.race, school.no1]));

      const staffLogs = items(await call("staff", "schoolimportloglist", { limit: 100 }));
      expect(staffLogs.map((l) => l.filename)).toEqual(["no1.xlsx"]);
      expect(await call("staff", "schoolimportloglist", { sch_id: school.race })).toEqual({ return_code: "FAIL", return_msg: zh("api.not_found") });

      const v1Logs = items(await call("svcv1", "schoolimportloglist", { limit: 100 }));
      expect(v1Logs.map((l) => [l.filename, l.sch_id])).toEqual([["oldtown.xlsx", school.oldtown]]);

      for (const user of ["school", "schoolv1"]) {
        expect(await call(user, "schoolimportloglist", {}), user).toEqual({ return_code: "FAIL", return_msg: zh("api.no_permission") });
      }
    });
  });
});
