/**
 * What a user typed stays text in every exported sheet (OWASP CSV injection): a student's name, a guardian's name
 * or a grade's title starting with `=`, `+`, `-` or `@` is written with a single quote before it in the student
 * export and in the report exports, so no spreadsheet program reads it as a formula once the cell is edited or
 * the sheet saved as CSV; the figures stay number cells. On both databases.
 */
import ExcelJS from "exceljs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeOnDatabases } from "../helpers/db";
import { createTestApp, type TestApp } from "./support";

type Row = Record<string, unknown>;
type Cell = ExcelJS.CellValue;

const HYPERLINK = '=HYPERLINK("http://x","y")';

describeOnDatabases("formula-safe export cells", (kind) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  let no1 = 0;
  const made: Record<string, number> = {};
  const call = (user: string, method: string, payload: Row = {}) => t.call("adminapiv2", method, payload, { token: tokens[user] });
  const exported = (user: string, method: string, payload: Row = {}) => t.exportFile("adminapiv2", method, payload, { token: tokens[user] });
  const item = (res: { data?: Row }) => (res.data?.items ?? {}) as Row;

  /** the first sheet's rows, each cell as exceljs reads it back */
  async function sheetOf(res: { return_code: string; return_msg: string; data?: Row }): Promise<Cell[][]> {
    expect(res.return_code, res.return_msg).toBe("SUCCESS");
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(String(item(res).content_base64), "base64") as unknown as ArrayBuffer);
    const rows: Cell[][] = [];
    workbook.worksheets[0]!.eachRow((row) => rows.push((row.values as Cell[]).slice(1)));
    return rows;
  }

  beforeAll(async () => {
    t = await createTestApp(kind);
    for (const u of ["sysadmin", "svc", "school"]) tokens[u] = await t.login(u);
    const schools = (await call("sysadmin", "schoollist", { limit: 100, title: "Sunrise No.1" })).data?.items as Row[];
    no1 = Number(schools.find((s) => s.title === "Sunrise No.1 Primary School")?.id);
    const added = async (user: string, method: string, payload: Row) => {
      const res = await call(user, method, payload);
      expect(res.return_code, `${method}: ${res.return_msg}`).toBe("SUCCESS");
      return Number(item(res).id);
    };
    made.grade = await added("school", "gradeadd", { sch_id: no1, title: "@Formula grade", sort: 1 });
    made.class = await added("school", "classesadd", { sch_id: no1, grade_id: made.grade, title: "+Class" });
    await added("svc", "studentadd", {
      sch_id: no1,
      name: HYPERLINK,
      student_no: "CSV-1",
      sex: "1",
      grade_id: made.grade,
      class_id: made.class,
      guardian_name: "-2+3",
    });
    await added("svc", "studentadd", { sch_id: no1, name: "Plain Name", student_no: "CSV-2", sex: "2", grade_id: made.grade, class_id: made.class, guardian_name: "@SUM(A1)" });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("writes a student's texts starting with a formula sign behind a single quote, and plain texts as they are", async () => {
    const rows = await sheetOf(await exported("svc", "studentexport", { sch_id: no1, class_id: made.class, sort: "student_no" }));
    const header = rows[0]!.map(String);
    const column = (label: string) => header.indexOf(label);
    const [first, second] = [rows[1]!, rows[2]!];
    expect(first[column("学生姓名")]).toBe(`'${HYPERLINK}`);
    expect(first[column("监护人")]).toBe("'-2+3");
    expect(first[column("年级")]).toBe("'@Formula grade");
    expect(first[column("班级")]).toBe("'+Class");
    expect(second[column("学生姓名")]).toBe("Plain Name");
    expect(second[column("监护人")]).toBe("'@SUM(A1)");
    // every cell of the sheet is a plain value: none a formula
    for (const row of rows) for (const cell of row) expect(typeof cell === "object" && cell !== null ? Object.keys(cell) : []).not.toContain("formula");
  });

  it("writes a report's dimension titles safe and its figures as number cells", async () => {
    const rows = await sheetOf(await exported("school", "classstatisexport", { grade_id: made.grade }));
    expect(rows[1]).toEqual(["'@Formula grade / +Class", 2, 1, 1]);
    expect(rows.at(-1)!.slice(1)).toEqual([2, 1, 1]);
    const sexes = await sheetOf(await exported("school", "sexstatisexport", { grade_id: made.grade }));
    expect(sexes.slice(1, 3).map((row) => row.slice(0, 2))).toEqual([
      ["男", 1],
      ["女", 1],
    ]);
  });
});
