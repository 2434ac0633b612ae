/**
 * The statistics pages' figures, on both databases: the money of a period is the same whichever page and
 * dimension reads it (school, day, month, grade, class, student, activity) and equals what payrecord and
 * refundrecord sum over the same days; a drill-down's rows add up to the row they open; the collection rate is paid
 * bills over bills; a paged table keeps its totals over every row; the students owing all owe; a school sees its
 * own school only; a bad dimension or filter is refused naming it.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { yuanToFen } from "../../common/money";
import { addDays, businessDay } from "../../common/term";
import { users } from "../../server/db/schema";
import { translator } from "../../server/lib/i18n";
import { describeOnDatabases } from "../helpers/db";
import { createTestApp, type TestApp } from "./support";

type Row = Record<string, unknown>;
const zh = translator("zh");
const MONEY = ["paid_amount", "refund_amount", "net_amount", "unpaid_amount"];

describeOnDatabases("statistics pages", (kind) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  let period: Row;
  const call = (user: string, method: string, payload: Row = {}) => t.call("adminapiv2", method, payload, { token: tokens[user] });

  /** a report's rows and totals, every figure in its stored form (money in fen) */
  async function figures(user: string, report: string, payload: Row = {}): Promise<{ items: Row[]; total: number; sums: Row }> {
    const res = await call(user, report, { ...period, ...payload });
    expect(res.return_code, `${report}: ${res.return_msg}`).toBe("SUCCESS");
    const stored = (row: Row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, MONEY.includes(k) ? yuanToFen(String(v)) : v]));
    // the totals, also under the name a list gives them
    expect(res.data?.summary).toEqual(res.data?.sums);
    return { items: (res.data?.items as Row[]).map(stored), total: Number(res.data?.total), sums: stored(res.data?.sums as Row) };
  }
  const sumOf = (rows: Row[], key: string) => rows.reduce((sum, row) => sum + Number(row[key]), 0);
  const listed = async (method: string, payload: Row) => {
    const res = await call("svc", method, { limit: 1, ...payload });
    expect(res.return_code, res.return_msg).toBe("SUCCESS");
    return { total: Number(res.data?.total), amount: yuanToFen(String((res.data?.summary as Row).amount)) };
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    for (const u of ["svc", "staff", "school", "sysadmin", "svcv1", "schoolv1"]) tokens[u] = await t.login(u);
    const today = businessDay(t.clock.now());
    // the demo's payments and refunds of the last two months
    period = { at_start: addDays(today, -60), at_end: today };
  });
  afterAll(async () => {
    await t?.close();
  });

  it("answers the same money on every page and dimension, equal to the payment and refund records", async () => {
    const bySchool = await figures("svc", "paystatis");
    expect(bySchool.items.length).toBeGreaterThan(0);
    const paid = await listed("paymentlist", { paid_at_start: period.at_start, paid_at_end: period.at_end });
    const refunded = await listed("refundlist", { status: "success", success_time_start: period.at_start, success_time_end: period.at_end });
    expect(bySchool.sums).toMatchObject({ orders: paid.total, paid_amount: paid.amount, refund_amount: refunded.amount, net_amount: paid.amount! - refunded.amount! });
    expect(paid.amount!).toBeGreaterThan(0);
    expect(refunded.amount!).toBeGreaterThan(0);
    for (const key of ["orders", "paid_amount", "refund_amount", "net_amount"]) expect(sumOf(bySchool.items, key), key).toBe(bySchool.sums[key]);

    const money = (sums: Row) => ({ orders: sums.orders, paid_amount: sums.paid_amount, refund_amount: sums.refund_amount, net_amount: sums.net_amount });
    for (const [report, dimension] of [
      ["paystatis", "day"],
      ["paystatis", "month"],
      ["payservicestatis", "day"],
      ["payservicestatis", "month"],
      ["payservicestatis", "sysid"],
      ["schoolstatis", "sch_id"],
      ["schoolstatis", "grade_id"],
      ["schoolstatis", "class_id"],
      ["schoolstatis", "student_id"],
    ] as const) {
      const other = await figures("svc", report, { dimension });
      expect(money(other.sums), `${report} by ${dimension}`).toEqual(money(bySchool.sums));
      expect(sumOf(other.items, "paid_amount"), `${report} by ${dimension}`).toBe(bySchool.sums.paid_amount);
    }
    // days in order, each a business day of the period
    const days = (await figures("svc", "paystatis", { dimension: "day" })).items.map((row) => String(row.day));
    expect(days).toEqual([...days].sort());
    expect(days.every((day) => day >= String(period.at_start) && day <= String(period.at_end))).toBe(true);
  });

  it("drills from a school to its grades, a grade to its classes, a class to its students, each level adding up to its row", async () => {
    const schools = await figures("svc", "schoolstatis");
    const school = schools.items.find((row) => Number(row.bills) > 0)!;
    expect(school.sch_title).toBeTruthy();
    const keys = ["orders", "paid_amount", "refund_amount", "bills", "paid_bills", "unpaid_amount"];
    const grades = await figures("svc", "schoolstatis", { dimension: "grade_id", sch_id: school.sch_id });
    for (const key of keys) expect(grades.sums[key], `grades' ${key}`).toBe(school[key]);
    const grade = grades.items.find((row) => Number(row.bills) > 0)!;
    const classes = await figures("svc", "schoolstatis", { dimension: "class_id", sch_id: school.sch_id, grade_id: grade.grade_id });
    for (const key of keys) expect(classes.sums[key], `classes' ${key}`).toBe(grade[key]);
    expect(String(classes.items[0]!.class_title)).toContain(" / ");
    const klass = classes.items.find((row) => Number(row.bills) > 0)!;
    const pupils = await figures("svc", "schoolstatis", { dimension: "student_id", sch_id: school.sch_id, class_id: klass.class_id });
    for (const key of keys) expect(pupils.sums[key], `students' ${key}`).toBe(klass[key]);

    // the collection rate: paid bills over bills, per row and in the totals
    for (const row of [...schools.items, schools.sums]) {
      const bills = Number(row.bills);
      expect(row.collection_rate).toBe(bills > 0 ? Math.round((Number(row.paid_bills) * 1000) / bills) / 10 : 0);
    }
    // the students owing: every one of them owes, and they are all who owe
    const owing = await figures("svc", "schoolstatis", { dimension: "student_id", sch_id: school.sch_id, class_id: klass.class_id, owing: "Y" });
    expect(owing.items.every((row) => Number(row.unpaid_amount) > 0)).toBe(true);
    expect(owing.total).toBe(pupils.items.filter((row) => Number(row.unpaid_amount) > 0).length);
  });

  it("gives a school its own figures on each of its pages, the same totals whichever it reads, a page of students at a time", async () => {
    const pages = ["activitystatis", "gradestatis", "classesstatis", "studentstatis", "classinfostatis"];
    const all = await Promise.all(pages.map((report) => figures("school", report)));
    for (const [i, page] of all.entries()) expect(page.sums, pages[i]).toEqual(all[0]!.sums);
    expect(Number(all[0]!.sums.bills)).toBeGreaterThan(0);
    // the provider's figures of that school are the school's
    const [account] = await t.db.select({ schid: users.schid }).from(users).where(eq(users.username, "school"));
    const seenByProvider = await figures("svc", "schoolstatis", { sch_id: account!.schid });
    expect(seenByProvider.sums).toEqual(all[0]!.sums);

    const students = all[3]!;
    const page = await figures("school", "studentstatis", { page: 2, limit: 10 });
    expect(page.items).toHaveLength(Math.min(10, Math.max(0, students.total - 10)));
    expect(page.total).toBe(students.total);
    expect(page.sums).toEqual(students.sums);
    expect(page.items).toEqual(students.items.slice(10, 20));
    // a class's students: the class's row
    const klass = (await figures("school", "classesstatis")).items.find((row) => Number(row.bills) > 0)!;
    const info = await figures("school", "classinfostatis", { class_id: klass.class_id });
    expect(info.sums.bills).toBe(klass.bills);
    expect(info.sums.paid_amount).toBe(klass.paid_amount);
  });

  it("refuses an unknown dimension, a bad filter, and the roles a page does not name", async () => {
    expect(await call("svc", "paystatis", { dimension: "planet" })).toEqual({ return_code: "FAIL", return_msg: zh("api.invalid_params", { field: "dimension" }) });
    expect(await call("svc", "schoolstatis", { owing: "maybe" })).toEqual({ return_code: "FAIL", return_msg: zh("api.invalid_params", { field: "owing" }) });
    expect(await call("svc", "paystatis", { at_start: "2026-02-30" })).toEqual({ return_code: "FAIL", return_msg: zh("api.invalid_params", { field: "at_start" }) });
    expect(await call("school", "schoolstatis")).toEqual({ return_code: "FAIL", return_msg: zh("api.no_permission") });
    expect(await call("svc", "gradestatis")).toEqual({ return_code: "FAIL", return_msg: zh("api.no_permission") });
    expect(await call("schoolv1", "paystatis")).toMatchObject({ return_code: "SUCCESS" });
  });
});
