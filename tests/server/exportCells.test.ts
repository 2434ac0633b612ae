/**
 * What a user typed stays text in every exported sheet (OWASP CSV injection): a student's name, a guardian's name
 * or a grade's title starting with `=`, `+`, `-` or `@` is a string cell with the quote-prefix style in the student
 * export and in the report exports, so no spreadsheet program reads it as a formula once the cell is edited, and
 * it shows as typed, without a `'`: the student export imported back gives the same names. The figures stay number
 * cells, days and times are date cells. On both databases.
 */
import ExcelJS from "exceljs";
import { afterAll, beforeAll, expect, it } from "vitest";
import yauzl from "yauzl";
import { translator } from "../../server/lib/i18n";
import { describeOnEmbedded } from "../helpers/db";
import { createTestApp, type TestApp } from "./support";

type Row = Record<string, unknown>;
type Cell = ExcelJS.CellValue;

const HYPERLINK = '=HYPERLINK("http://x","y")';
const zh = translator("zh");

/** the text of each part of an .xlsx by its name */
async function xlsxParts(bytes: Buffer): Promise<Map<string, string>> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) => yauzl.fromBuffer(bytes, { lazyEntries: true }, (err, file) => (err ? reject(err) : resolve(file))));
  const parts = new Map<string, string>();
  await new Promise<void>((resolve, reject) => {
    zip.on("entry", (entry: yauzl.Entry) =>
      zip.openReadStream(entry, (err, stream) => {
        if (err) return reject(err);
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          parts.set(entry.fileName, Buffer.concat(chunks).toString("utf8"));
          zip.readEntry();
        });
      }),
    );
    zip.on("end", resolve);
    zip.on("error", reject);
    zip.readEntry();
  });
  return parts;
}

/**
 * Whether each cell of the first sheet (by its reference, "B2") has the quote-prefix style, read from the file's
 * XML: exceljs reads no quotePrefix back. And whether any cell holds a formula.
 */
async function quotePrefixed(bytes: Buffer): Promise<{ cells: Map<string, boolean>; formulas: number }> {
  const parts = await xlsxParts(bytes);
  const cellXfs = /<cellXfs[^>]*>([\s\S]*?)<\/cellXfs>/.exec(parts.get("xl/styles.xml") ?? "")?.[1] ?? "";
  const styles = [...cellXfs.matchAll(/<xf\b[^>]*>/g)].map((xf) => /\bquotePrefix="(1|true)"/.test(xf[0]));
  const sheet = parts.get("xl/worksheets/sheet1.xml") ?? "";
  const cells = new Map<string, boolean>();
  for (const c of sheet.matchAll(/<c\b([^>]*?)\/?>/g)) {
    const ref = /\br="([A-Z]+\d+)"/.exec(c[1]!)?.[1];
    const style = Number(/\bs="(\d+)"/.exec(c[1]!)?.[1] ?? 0);
    if (ref) cells.set(ref, styles[style] ?? false);
  }
  return { cells, formulas: (sheet.match(/<f[\s>]/g) ?? []).length };
}

/** A1-style reference of a 0-based column and a 1-based row */
const ref = (column: number, row: number) => `${String.fromCharCode(65 + column)}${row}`;

describeOnEmbedded("formula-safe export cells", (kind) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  let no1 = 0;
  const made: Record<string, number> = {};
  const call = (user: string, method: string, payload: Row = {}) => t.call("adminapiv2", method, payload, { token: tokens[user] });
  const exported = (user: string, method: string, payload: Row = {}) => t.exportFile("adminapiv2", method, payload, { token: tokens[user] });
  const item = (res: { data?: Row }) => (res.data?.items ?? {}) as Row;

  const bytesOf = (res: { return_code: string; return_msg: string; data?: Row }) => {
    expect(res.return_code, res.return_msg).toBe("SUCCESS");
    return Buffer.from(String(item(res).content_base64), "base64");
  };

  /** the first sheet's rows, each cell as exceljs reads it back */
  async function sheetOf(res: { return_code: string; return_msg: string; data?: Row }): Promise<Cell[][]> {
    return (await sheetWithFormats(res)).rows;
  }

  /** the first sheet's rows and each cell's number format */
  async function sheetWithFormats(res: { return_code: string; return_msg: string; data?: Row }): Promise<{ rows: Cell[][]; formats: (string | undefined)[][] }> {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytesOf(res) as unknown as ArrayBuffer);
    const rows: Cell[][] = [];
    const formats: (string | undefined)[][] = [];
    workbook.worksheets[0]!.eachRow((row) => {
      rows.push((row.values as Cell[]).slice(1));
      const rowFormats: (string | undefined)[] = [];
      row.eachCell({ includeEmpty: true }, (cell, column) => (rowFormats[column - 1] = cell.numFmt));
      formats.push(rowFormats);
    });
    return { rows, formats };
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

  it("writes a student's texts starting with a formula sign as typed, quote-prefixed, and plain texts as they are", async () => {
    const file = await exported("svc", "studentexport", { sch_id: no1, class_id: made.class, sort: "student_no" });
    const rows = await sheetOf(file);
    const header = rows[0]!.map(String);
    const column = (label: string) => header.indexOf(label);
    const [first, second] = [rows[1]!, rows[2]!];
    expect(first[column("学生姓名")]).toBe(HYPERLINK);
    expect(first[column("监护人")]).toBe("-2+3");
    expect(first[column("年级")]).toBe("@Formula grade");
    expect(first[column("班级")]).toBe("+Class");
    expect(second[column("学生姓名")]).toBe("Plain Name");
    expect(second[column("监护人")]).toBe("@SUM(A1)");
    // every cell of the sheet is a plain value: none a formula
    for (const row of rows) for (const cell of row) expect(typeof cell === "object" && cell !== null ? Object.keys(cell) : []).not.toContain("formula");
    // the cells starting like a formula, and only they, have the quote-prefix style
    const { cells, formulas } = await quotePrefixed(bytesOf(file));
    expect(formulas).toBe(0);
    const prefixed = (label: string, row: number) => cells.get(ref(column(label), row));
    expect([prefixed("学生姓名", 2), prefixed("监护人", 2), prefixed("年级", 2), prefixed("班级", 2), prefixed("学生姓名", 3), prefixed("监护人", 3), prefixed("学号", 2)]).toEqual([true, true, true, true, false, true, false]);
  });

  it("gives back the same names when the student export is imported into another school", async () => {
    const file = await exported("svc", "studentexport", { sch_id: no1, class_id: made.class, sort: "student_no" });
    const added = await call("svc", "schooladd", { title: `Reimport ${kind}`, endtime: "2026-03-10", status: "1" });
    expect(added.return_code, added.return_msg).toBe("SUCCESS");
    const fresh = Number(item(added).id);
    const imported = await call("svc", "studentimport", { sch_id: fresh, filename: "students.xlsx", content_base64: item(file).content_base64 });
    expect(imported.return_code, `${imported.return_msg} ${JSON.stringify(imported.data)}`).toBe("SUCCESS");
    const students = (await call("svc", "studentlist", { sch_id: fresh, limit: 10, sort: "student_no" })).data?.items as Row[];
    expect(students.map((s) => [s.student_no, s.name, s.guardian_name])).toEqual([
      ["CSV-1", HYPERLINK, "-2+3"],
      ["CSV-2", "Plain Name", "@SUM(A1)"],
    ]);
    const grades = (await call("svc", "gradelist", { sch_id: fresh, limit: 10 })).data?.items as Row[];
    expect(grades.map((g) => g.title)).toEqual(["@Formula grade"]);
  });

  it("writes days and times as date cells showing the list's China time", async () => {
    const added = await call("sysadmin", "actcodeadd", { count: 1, target: "service", term_months: 6, expires_on: "2027-03-02" });
    expect(added.return_code, added.return_msg).toBe("SUCCESS");
    const [code] = (await call("sysadmin", "actcodelist", { limit: 1, sort: "-id" })).data?.items as Row[];
    const { rows, formats } = await sheetWithFormats(await exported("sysadmin", "actcodeexport", { batch_no: code!.batch_no }));
    const header = rows[0]!.map(String);
    const expires = header.indexOf(zh("field.expires_on"));
    const created = header.indexOf(zh("field.created_at"));
    expect(rows[1]![expires]).toEqual(new Date("2027-03-02T00:00:00Z"));
    expect(formats[1]![expires]).toBe("yyyy-mm-dd");
    // the creation time as the list shows it (China time), the date cell's fields those figures
    const shown = new Date(new Date(String(code!.created_at)).getTime() + 8 * 3_600_000);
    shown.setUTCMilliseconds(0);
    expect(rows[1]![created]).toEqual(shown);
    expect(formats[1]![created]).toBe("yyyy-mm-dd hh:mm:ss");
  });

  it("writes a report's dimension titles safe and its figures as number cells", async () => {
    const file = await exported("school", "classstatisexport", { grade_id: made.grade });
    const rows = await sheetOf(file);
    expect(rows[1]).toEqual(["@Formula grade +Class", 2, 1, 1]);
    expect((await quotePrefixed(bytesOf(file))).cells.get("A2")).toBe(true);
    expect(rows.at(-1)!.slice(1)).toEqual([2, 1, 1]);
    const sexes = await sheetOf(await exported("school", "sexstatisexport", { grade_id: made.grade }));
    expect(sexes.slice(1, 3).map((row) => row.slice(0, 2))).toEqual([
      ["男", 1],
      ["女", 1],
    ]);
  });
});
