/**
 * The bill import of an activity (billimporttemplate, billimport: server/domains/collection/billImport.ts on the
 * engine's import) through /weapi/: the template's columns are the activity's fee items, in the
 * caller's language; a good file, checked first, creates and updates unpaid bills with the student's own items and
 * amounts, which the payer's h5find then shows, and leaves the other students' bills as they were; a file with bad
 * rows fails whole, naming each row and column, and writes nothing; another provider's activity is not found, a
 * closed one is refused, roles that do not manage fee collection are refused; the import log lists both, audited
 * with the school.
 */
import ExcelJS from "exceljs";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { translator } from "../../server/lib/i18n";
import { auditLog, billItems, bills, classes, students } from "../../server/db/schema";
import { describeOnEmbedded } from "../helpers/db";
import { sheetBase64 } from "../helpers/xlsxParts";
import { h5, itemsOf, payerWorld } from "./payerSupport";
import { createTestApp, type TestApp } from "./support";

type Row = Record<string, unknown>;
const en = translator("en");

interface ImportItems {
  log_id?: number;
  preview?: boolean;
  total: number;
  imported: number;
  error_count: number;
  errors: { row: number; field: string; message: string }[];
  columns: { field: string; label: string }[];
}

interface Pupil {
  id: number;
  name: string;
  student_no: string;
  class_id: number;
}

describeOnEmbedded("bill import", (kind) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  let schId: number;
  let code: string;
  let activityId: number;
  /** in the activity's class with an unpaid bill; in another class with none; switched off; with a paid bill; left out of the files */
  let billed: Pupil;
  let unbilled: Pupil;
  let disabled: Pupil;
  let paid: Pupil;
  let untouched: Pupil;

  const call = (user: string, method: string, payload: Row = {}, language = "en") =>
    t.call("adminapiv2", method, payload, { token: tokens[user], headers: { cookie: `language=${language}` } });
  const answer = (res: { data?: Row }) => res.data?.items as ImportItems;
  const importFile = (user: string, content: string, extra: Row = {}) => call(user, "billimport", { activity_id: activityId, filename: "bills.xlsx", content_base64: content, ...extra });
  const billOf = async (studentId: number) => (await t.db.select().from(bills).where(and(eq(bills.activity_id, activityId), eq(bills.student_id, studentId))))[0];
  const itemsOfBill = async (billId: number) => (await t.db.select().from(billItems).where(eq(billItems.bill_id, billId)).orderBy(billItems.sort)).map((i) => [i.title, Number(i.amount)]);
  const snapshot = async () => (await t.db.select().from(bills).where(eq(bills.activity_id, activityId)).orderBy(bills.id)).map((b) => [b.id, b.student_id, Number(b.amount), b.status]);

  const feeItems = [
    { title: "Tuition", amount: "150.50", amount_mode: "fixed", required: "Y" },
    { title: "Books", amount: "5.00", amount_mode: "fixed", required: "Y" },
    { title: "Donation", amount: "0.00", amount_mode: "open", required: "N" },
    { title: "Uniform", amount: "80.00", amount_mode: "fixed", required: "N" },
  ];
  const EN_HEADER = ["Student number", "Student name", "Tuition", "Books", "Donation", "Uniform"];

  beforeAll(async () => {
    t = await createTestApp(kind);
    for (const u of ["svc", "staff", "school", "harbour", "svcv1"]) tokens[u] = await t.login(u);
    const world = await payerWorld(t, tokens.svc);
    schId = world.schId;
    code = world.code;
    const pupils = await t.db
      .select({ id: students.id, name: students.name, student_no: students.student_no, class_id: students.class_id, status: students.status })
      .from(students)
      .where(eq(students.sch_id, schId))
      .orderBy(students.id);
    const [classA, classB] = await t.db.select({ id: classes.id }).from(classes).where(eq(classes.sch_id, schId)).orderBy(classes.id).limit(2);
    const inA = pupils.filter((p) => p.class_id === classA.id && p.status === "1");
    billed = inA[0];
    paid = inA[1];
    untouched = inA[2];
    unbilled = pupils.find((p) => p.class_id === classB.id && p.status === "1")!;
    disabled = pupils.find((p) => p.status === "0")!;
    expect([billed, paid, untouched, unbilled, disabled].every(Boolean)).toBe(true);

    const added = await call("svc", "activityadd", { sch_id: schId, title: "Autumn fees", start_date: "2026-03-01", end_date: "2026-12-31", target: "classes", class_ids: [classA.id], items: feeItems });
    expect(added.return_code, added.return_msg).toBe("SUCCESS");
    activityId = Number((added.data?.items as Row).id);
    const opened = await call("svc", "activityact", { id: activityId, act: "open" });
    expect(opened.return_code, opened.return_msg).toBe("SUCCESS");
    await t.db.update(bills).set({ status: "paid", paid_amount: 15550 }).where(and(eq(bills.activity_id, activityId), eq(bills.student_id, paid.id)));
  });
  afterAll(async () => {
    await t?.close();
  });

  it("answers a template whose columns are the activity's items, headed in the caller's language", async () => {
    for (const [language, header] of [
      ["en", EN_HEADER],
      ["zh", ["学号", "学生姓名", "Tuition", "Books", "Donation", "Uniform"]],
    ] as const) {
      const res = await call("svc", "billimporttemplate", { activity_id: activityId }, language);
      expect(res.return_code, res.return_msg).toBe("SUCCESS");
      const file = res.data?.items as { filename: string; mime: string; content_base64: string };
      expect(file.mime).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(Buffer.from(file.content_base64, "base64") as never);
      const sheet = book.worksheets[0];
      expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(header);
      // each item says what a blank cell bills
      expect(String(sheet.getCell(1, 3).note ?? "")).toContain("150.50");
      expect(String(sheet.getCell(1, 6).note ?? "")).toContain("0.00");
    }
  });

  it("checks a good file first, then creates and updates unpaid bills with each student's items, shown on the payer page", async () => {
    const before = await billOf(billed.id);
    const untouchedBefore = await billOf(untouched.id);
    expect(Number(before.amount)).toBe(15550);
    expect(await billOf(unbilled.id)).toBeUndefined();
    const file = await sheetBase64(EN_HEADER, [
      // Tuition blank: its amount; Books waived for this student; a donation pledged; Uniform blank: not billed
      [billed.student_no, billed.name, null, 0, "20", null],
      // a reduced tuition; Books blank: its amount
      [unbilled.student_no, "", "100", null, null, null],
    ]);

    const checked = await importFile("svc", file, { preview: true });
    expect(checked.return_code, checked.return_msg).toBe("SUCCESS");
    expect(answer(checked)).toMatchObject({ preview: true, total: 2, imported: 0, error_count: 0 });
    expect(await billOf(unbilled.id)).toBeUndefined();
    expect(Number((await billOf(billed.id)).amount)).toBe(15550);

    const res = await importFile("svc", file);
    expect(res.return_code, res.return_msg).toBe("SUCCESS");
    expect(res.return_msg).toBe(en("import.succeeded", { count: 2 }));
    expect(answer(res)).toMatchObject({ total: 2, imported: 2, error_count: 0, log_id: expect.any(Number) });

    const updated = await billOf(billed.id);
    expect({ id: updated.id, amount: Number(updated.amount), status: updated.status }).toEqual({ id: before.id, amount: 17050, status: "unpaid" });
    expect(await itemsOfBill(updated.id)).toEqual([
      ["Tuition", 15050],
      ["Donation", 2000],
    ]);
    const created = await billOf(unbilled.id);
    expect({ amount: Number(created.amount), status: created.status, class_id: created.class_id, sch_id: created.sch_id }).toEqual({ amount: 10500, status: "unpaid", class_id: unbilled.class_id, sch_id: schId });
    expect(await itemsOfBill(created.id)).toEqual([
      ["Tuition", 10000],
      ["Books", 500],
    ]);
    // students not in the file keep their bills as they were
    expect(await billOf(untouched.id)).toEqual(untouchedBefore);

    // the payer sees the student's own items; a bill opened with the activity shows its required fixed items
    const found = await h5(t, "h5find", { code, name: billed.name, student_no: billed.student_no });
    expect(found.return_code, found.return_msg).toBe("SUCCESS");
    const bill = (itemsOf(found).bills as Row[]).find((b) => b.id === updated.id);
    expect(bill).toMatchObject({
      amount: "170.50",
      status: "unpaid",
      items: [
        { title: "Tuition", amount: "150.50" },
        { title: "Donation", amount: "20.00" },
      ],
    });
    const other = await h5(t, "h5find", { code, name: untouched.name, student_no: untouched.student_no });
    expect((itemsOf(other).bills as Row[]).find((b) => b.activity_id === activityId)).toMatchObject({
      amount: "155.50",
      items: [
        { title: "Tuition", amount: "150.50" },
        { title: "Books", amount: "5.00" },
      ],
    });

    // audited with the school, and the activity imported into
    const [entry] = await t.db.select().from(auditLog).where(and(eq(auditLog.action, "billimport"), eq(auditLog.entityId, String(answer(res).log_id))));
    expect(entry).toMatchObject({ schId, entity: "bill" });
    expect(entry.detail).toMatchObject({ activity_id: activityId, imported: 2 });
  });

  it("fails a file with bad rows whole, naming each row and column, and writes nothing", async () => {
    const before = await snapshot();
    const itemsBefore = await t.db.select().from(billItems);
    const file = await sheetBase64(EN_HEADER, [
      ["NOSUCH001", "", null, null, null, null],
      [paid.student_no, paid.name, null, null, null, null],
      [billed.student_no, billed.name, "abc", null, null, null],
      [unbilled.student_no, unbilled.name, null, null, "2000000", null],
      [disabled.student_no, disabled.name, null, null, null, null],
      [untouched.student_no, untouched.name, null, null, null, null],
      [untouched.student_no, untouched.name, null, null, null, null],
    ]);
    const res = await importFile("svc", file);
    expect(res.return_code).toBe("FAIL");
    const failed = answer(res);
    expect(failed).toMatchObject({ total: 7, imported: 0, log_id: expect.any(Number) });
    const paidBill = await billOf(paid.id);
    expect(failed.errors).toEqual([
      { row: 2, field: "student_no", message: en("import.reference_missing", { label: "Student number", value: "NOSUCH001" }) },
      { row: 3, field: "student_no", message: en("collection.bill_import.bill_settled", { value: paid.student_no, id: paidBill.id, status: "Paid" }) },
      { row: 4, field: expect.stringMatching(/^item_\d+$/), message: en("collection.bill_import.not_amount", { label: "Tuition", value: "abc" }) },
      { row: 5, field: expect.stringMatching(/^item_\d+$/), message: en("api.validation.too_big", { label: "Donation", max: "1000000.00" }) },
      { row: 6, field: "student_no", message: en("collection.bill_import.student_disabled", { label: "Student number", value: disabled.student_no }) },
      { row: 8, field: "student_no", message: en("import.duplicate_in_file", { label: "Student number", value: untouched.student_no, row: 7 }) },
    ]);
    // the columns are named in the caller's language for the dialog and the errors' CSV
    const labels = Object.fromEntries(failed.columns.map((c) => [c.field, c.label]));
    expect(labels[failed.errors[2].field]).toBe("Tuition");
    expect(await snapshot()).toEqual(before);
    expect(await t.db.select().from(billItems)).toEqual(itemsBefore);
  });

  it("refuses an unknown column, a missing student number column, and a row owing nothing", async () => {
    const misspelt = await importFile("svc", await sheetBase64(["Student number", "Tution"], [[billed.student_no, "10"]]));
    expect(misspelt.return_code).toBe("FAIL");
    expect(answer(misspelt).errors).toEqual([{ row: 1, field: "", message: en("collection.bill_import.unknown_column", { label: "Tution", items: "Tuition, Books, Donation, Uniform" }) }]);
    const noNumber = await importFile("svc", await sheetBase64(["Student name", "Tuition"], [[billed.name, "10"]]));
    expect(answer(noNumber).errors).toEqual([{ row: 1, field: "student_no", message: en("import.missing_column", { label: "Student number" }) }]);
    const nothing = await importFile("svc", await sheetBase64(["Student number", "Tuition", "Books"], [[billed.student_no, "0", "0"]]));
    expect(answer(nothing).errors).toEqual([{ row: 2, field: "amount", message: en("collection.bill_import.nothing_due", { label: "Amount due" }) }]);
  });

  it("does not find another provider's activity, refuses a closed one and the roles that do not manage collection", async () => {
    const file = await sheetBase64(EN_HEADER, [[billed.student_no, "", "1", null, null, null]]);
    for (const user of ["harbour", "svcv1"]) expect(await call(user, "billimporttemplate", { activity_id: activityId }), user).toEqual({ return_code: "FAIL", return_msg: en("api.not_found") });
    // harbour's term has expired: it writes nothing anywhere
    expect(await importFile("svcv1", file)).toEqual({ return_code: "FAIL", return_msg: en("api.not_found") });
    for (const user of ["staff", "school"]) {
      expect(await importFile(user, file), user).toEqual({ return_code: "FAIL", return_msg: en("api.no_permission") });
      expect(await call(user, "billimporttemplate", { activity_id: activityId }), user).toEqual({ return_code: "FAIL", return_msg: en("api.no_permission") });
    }
    const added = await call("svc", "activityadd", { sch_id: schId, title: "Closed fees", start_date: "2026-03-01", end_date: "2026-12-31", target: "students", student_ids: [untouched.id], items: feeItems });
    const closedId = Number((added.data?.items as Row).id);
    expect((await call("svc", "activityact", { id: closedId, act: "open" })).return_code).toBe("SUCCESS");
    expect((await call("svc", "activityact", { id: closedId, act: "close" })).return_code).toBe("SUCCESS");
    const refused = await importFile("svc", file, { activity_id: closedId });
    expect(refused).toMatchObject({ return_code: "FAIL", return_msg: en("collection.bill_import.activity_closed"), data: { errors: [{ field: "activity_id" }] } });
    expect((await call("svc", "billimporttemplate", { activity_id: closedId })).return_msg).toBe(en("collection.bill_import.activity_closed"));
    // a bad id names the field
    const bad = await importFile("svc", file, { activity_id: "x" });
    expect(bad.return_code).toBe("FAIL");
    expect(bad.return_msg).toContain("activity_id");
  });

  it("lists the bill imports in the import log of the provider's schools", async () => {
    const res = await call("svc", "schoolimportloglist", { entity: "bill", limit: 100 });
    expect(res.return_code, res.return_msg).toBe("SUCCESS");
    const logs = res.data?.items as Row[];
    expect(logs.length).toBeGreaterThanOrEqual(2);
    expect(logs.every((l) => l.entity === "bill" && l.sch_id === schId)).toBe(true);
    expect(logs.map((l) => l.status)).toEqual(expect.arrayContaining(["succeeded", "failed"]));
    expect(logs.find((l) => l.status === "succeeded")).toMatchObject({ filename: "bills.xlsx", total: 2, imported: 2, username: "svc" });
    // no bill import of another provider shows
    const theirs = await call("harbour", "schoolimportloglist", { entity: "bill", limit: 100 });
    expect(theirs.data?.items).toEqual([]);
  });
});
