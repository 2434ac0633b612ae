/**
 * How the order list names its student and class: the school's and the provider staff's order
 * lists show the student with their number and the class with its grade ("三年级 1班"), and find orders by the
 * student's name or number; the export, the voucher and the payer page name them the same. The student list, whose
 * grade stands in a column of its own, keeps the class's own name (its export imported back finds the same class).
 */
import { and, asc, eq, inArray } from "drizzle-orm";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { classes, feeOrders, grades, students } from "../../server/db/schema";
import { translator } from "../../server/lib/i18n";
import { describeOnEmbedded } from "../helpers/db";
import { h5, itemsOf, payerWorld, type PayerWorld, type Row } from "./payerSupport";
import { createTestApp, type TestApp } from "./support";

const zh = translator("zh");

describeOnEmbedded("the order list's student and class", (kind) => {
  let t: TestApp;
  let world: PayerWorld;
  const tokens: Record<string, string> = {};
  /** a student of the school with a paid order, as the lists should name them */
  let pupil: { id: number; name: string; student_no: string; grade: string; klass: string; classId: number; orderId: number };
  const call = async (user: string, method: string, payload: Row = {}) => {
    const res = await t.call("adminapiv2", method, payload, { token: tokens[user] });
    expect(res.return_code, `${user} ${method}: ${res.return_msg}`).toBe("SUCCESS");
    return res;
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    for (const u of ["svc", "school", "staff"]) tokens[u] = await t.login(u);
    world = await payerWorld(t, tokens.svc);
    const [row] = await t.db
      .select({ id: students.id, name: students.name, student_no: students.student_no, grade: grades.title, klass: classes.title, classId: classes.id, orderId: feeOrders.id })
      .from(feeOrders)
      .innerJoin(students, eq(students.id, feeOrders.student_id))
      .innerJoin(classes, eq(classes.id, feeOrders.class_id))
      .innerJoin(grades, eq(grades.id, classes.grade_id))
      .where(and(eq(feeOrders.sch_id, world.schId), inArray(feeOrders.status, ["paid", "part_refunded"]), eq(students.status, "1"), eq(students.class_id, feeOrders.class_id)))
      .orderBy(asc(feeOrders.id))
      .limit(1);
    pupil = row!;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it("shows the student with their number and the class with its grade to the school and the staff, and finds orders by the student's name or number", async () => {
    const student = `${pupil.name} (${pupil.student_no})`;
    const klass = `${pupil.grade} ${pupil.klass}`;
    for (const user of ["school", "staff"]) {
      for (const search of [pupil.student_no, pupil.name, pupil.student_no.slice(2)]) {
        const rows = (await call(user, "orderlist", { sch_id: world.schId, student_id: search, limit: 100 })).data?.items as Row[];
        const row = rows.find((r) => r.id === pupil.orderId);
        expect(row, `${user} searching ${search}`).toMatchObject({ student_title: student, class_title: klass });
        // every order found is of a student whose name or number holds the text
        const found = await t.db.select({ name: students.name, no: students.student_no }).from(students).where(inArray(students.id, rows.map((r) => Number(r.student_id))));
        expect(found.every((s) => s.name.includes(search) || s.no.includes(search)), `${user} searching ${search}`).toBe(true);
      }
      // a text no student's name or number holds finds nothing
      expect((await call(user, "orderlist", { sch_id: world.schId, student_id: "no such pupil", limit: 5 })).data?.total).toBe(0);
    }
    // the record, as its detail page shows it
    const info = (await call("school", "orderinfo", { id: pupil.orderId })).data?.items as Row;
    expect(info).toMatchObject({ student_title: student, class_title: klass });
  });

  it("names them the same in the export, on the voucher and on the payer page", async () => {
    const exported = await t.exportFile("adminapiv2", "orderexport", { sch_id: world.schId, student_id: pupil.student_no }, { token: tokens.school });
    expect(exported.return_code, exported.return_msg).toBe("SUCCESS");
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(String(itemsOf(exported).content_base64), "base64") as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const header = (sheet.getRow(1).values as unknown[]).map((v) => String(v ?? ""));
    const studentColumn = header.indexOf(zh("collection.field.student"));
    const classColumn = header.indexOf(zh("field.classes"));
    expect(studentColumn).toBeGreaterThan(0);
    expect(classColumn).toBeGreaterThan(0);
    expect(sheet.rowCount).toBeGreaterThan(1);
    sheet.eachRow((row, n) => {
      if (n === 1) return;
      expect(row.getCell(studentColumn).text).toBe(`${pupil.name} (${pupil.student_no})`);
      expect(row.getCell(classColumn).text).toBe(`${pupil.grade} ${pupil.klass}`);
    });

    const voucher = (await call("school", "orderprint", { id: pupil.orderId })).data?.items as Row;
    expect(voucher.class).toBe(`${pupil.grade} ${pupil.klass}`);

    const found = await h5(t, "h5find", { code: world.code, name: pupil.name, student_no: pupil.student_no }, "203.0.113.77");
    expect(found.return_code, found.return_msg).toBe("SUCCESS");
    expect((itemsOf(found).student as Row).class_title).toBe(`${pupil.grade} ${pupil.klass}`);
  });

  it("keeps the class's own name in the student list, where the grade has a column of its own", async () => {
    const rows = (await call("svc", "studentlist", { sch_id: world.schId, class_id: pupil.classId, limit: 1 })).data?.items as Row[];
    expect(rows[0]).toMatchObject({ grade_title: pupil.grade, class_title: pupil.klass });
  });
});
