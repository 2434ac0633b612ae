/**
 * A student number is unique within its school, in an import as in a form: an import takes the numbers that
 * other schools use (a sibling school of the same provider, another provider's school), and refuses, naming the
 * row and the field, only the numbers its own school already holds. On both databases.
 */
import { and, eq, ne } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { schools, students } from "../../server/db/schema";
import { translator } from "../../server/lib/i18n";
import { describeOnEmbedded } from "../helpers/db";
import { sheetBase64, type Cell } from "../helpers/xlsxParts";
import { createTestApp, idByTitle, type TestApp } from "./support";

type Row = Record<string, unknown>;

const zh = translator("zh");
const HEADER = ["name", "student_no", "sex", "grade", "class", "guardian_name", "guardian_phone"];

/** An .xlsx of the rows under the header. */
const workbook = (rows: Cell[][]) => sheetBase64(HEADER, rows);

interface ImportItems {
  total: number;
  imported: number;
  errors: { row: number; field: string; message: string }[];
}

describeOnEmbedded("student numbers unique within the school in an import", (kind) => {
  let t: TestApp;
  let token = "";
  let fresh = 0;
  /** a student number of each school the import must not look at */
  const taken: Record<string, string> = {};
  const call = (method: string, payload: Row = {}) => t.call("adminapiv2", method, payload, { token });
  const importRows = async (rows: Cell[][]) => call("studentimport", { sch_id: fresh, filename: "students.xlsx", content_base64: await workbook(rows) });
  /** a student number the school holds, other than `not` */
  const numberOf = async (title: string, not = "") => {
    const schId = await idByTitle(t.db, schools, title);
    const [row] = await t.db
      .select({ no: students.student_no })
      .from(students)
      .where(and(eq(students.sch_id, schId), ne(students.student_no, not)))
      .limit(1);
    return String(row!.no);
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    token = await t.login("svc");
    const added = await call("schooladd", { title: "Uniqueness Test School", endtime: "2026-03-10", status: "1" });
    expect(added.return_code, added.return_msg).toBe("SUCCESS");
    fresh = Number((added.data?.items as Row).id);
    taken.sibling = await numberOf("Sunrise No.1 Primary School");
    taken.otherProvider = await numberOf("Harbour Bay School", taken.sibling);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("imports student numbers that a sibling school and another provider's school already use", async () => {
    const res = await importRows([
      ["Sibling Number", taken.sibling, "1", "一年级", "1班", "Guardian One", "13800138001"],
      ["Other Provider Number", taken.otherProvider, "2", "一年级", "1班", "Guardian Two", "13800138002"],
    ]);
    const items = res.data?.items as ImportItems;
    expect(items?.errors ?? [], res.return_msg).toEqual([]);
    expect(res.return_code, res.return_msg).toBe("SUCCESS");
    expect(items.imported).toBe(2);
    const stored = await t.db.select({ no: students.student_no }).from(students).where(eq(students.sch_id, fresh));
    expect(stored.map((s) => s.no).sort()).toEqual([taken.sibling, taken.otherProvider].sort());
  });

  it("refuses a number its own school already holds, naming the row and student_no, and imports nothing", async () => {
    const res = await importRows([
      ["New Pupil", "UNIQ-NEW-1", "1", "一年级", "1班", "", ""],
      ["Same Number", taken.sibling, "2", "一年级", "1班", "", ""],
    ]);
    expect(res.return_code).toBe("FAIL");
    const items = res.data?.items as ImportItems;
    expect(items.imported).toBe(0);
    expect(items.errors).toEqual([{ row: 3, field: "student_no", message: zh("import.exists", { label: zh("field.student_no"), value: taken.sibling }) }]);
    const stored = await t.db.select({ no: students.student_no }).from(students).where(eq(students.sch_id, fresh));
    expect(stored).toHaveLength(2);
  });
});
