/** What the fee payment tests share: a school's payer QR code, its students with unpaid bills and the payer's calls. */
import { and, asc, eq, sql, type SQL } from "drizzle-orm";
import { expect } from "vitest";
import { queryRows } from "../../server/db/client";
import { activities, bills, classes, feeOrders, paymentOrders, schools, students } from "../../server/db/schema";
import type { Envelope } from "../../server/protocol/envelope";
import type { TestApp } from "./support";

export type Row = Record<string, unknown>;

export interface PayerStudent {
  id: number;
  name: string;
  student_no: string;
  guardian_phone: string | null;
  class_id: number;
  /** the student's unpaid bill of the school's open activity */
  billId: number;
  billAmountFen: number;
}

export interface PayerWorld {
  schId: number;
  sysid: number;
  activityId: number;
  code: string;
}

/** POST /weapi/h5api from a given client address (each payer's phone has its own). */
export async function h5(t: TestApp, method: string, payload: Row, ip = "203.0.113.10"): Promise<Envelope> {
  const res = await t.app.inject({
    method: "POST",
    url: "/weapi/h5api",
    headers: { "content-type": "application/json", "accept-language": "en" },
    payload: JSON.stringify({ method, ...payload }),
    remoteAddress: ip,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Envelope>();
}

export const itemsOf = (res: Envelope) => (res.data?.items ?? {}) as Row;

/** Pays a sandbox order as the payer's phone would ({"notify": false}: paid there, the console not told). */
export async function confirmSandbox(t: TestApp, codeUrl: string, options: { notify?: boolean; ip?: string } = {}) {
  const res = await t.app.inject({
    method: "POST",
    url: `${new URL(codeUrl).pathname}/confirm`,
    headers: { "content-type": "application/json" },
    payload: JSON.stringify(options.notify === false ? { notify: false } : {}),
    remoteAddress: options.ip ?? "198.51.100.7",
  });
  return res.json<{ return_code: string; return_msg: string }>();
}

/** The demo school's open activity and a payer QR code made for the school by its provider (svc). */
export async function payerWorld(t: TestApp, svcToken: string, schoolTitle = "Sunrise No.1 Primary School"): Promise<PayerWorld> {
  const [school] = await t.db.select({ id: schools.id, sysid: schools.sysid }).from(schools).where(eq(schools.title, schoolTitle));
  const [activity] = await t.db
    .select({ id: activities.id })
    .from(activities)
    .where(and(eq(activities.sch_id, school.id), eq(activities.status, "open")))
    .orderBy(asc(activities.id));
  const added = await t.call("adminapiv2", "qrchnladd", { sch_id: school.id, title: "Front gate poster" }, { token: svcToken });
  expect(added.return_code, added.return_msg).toBe("SUCCESS");
  return { schId: school.id, sysid: school.sysid, activityId: activity.id, code: String(itemsOf(added).code) };
}

/** Students of the school (of one class when given) with an unpaid bill of the activity, first by id. */
export async function unpaidStudents(t: TestApp, world: PayerWorld, count: number, classId?: number): Promise<PayerStudent[]> {
  const rows = await t.db
    .select({
      id: students.id,
      name: students.name,
      student_no: students.student_no,
      guardian_phone: students.guardian_phone,
      class_id: students.class_id,
      billId: bills.id,
      billAmountFen: bills.amount,
    })
    .from(bills)
    .innerJoin(students, eq(students.id, bills.student_id))
    .where(and(eq(bills.activity_id, world.activityId), eq(bills.status, "unpaid"), eq(students.status, "1"), ...(classId ? [eq(bills.class_id, classId)] : [])))
    .orderBy(asc(bills.id))
    .limit(count);
  return rows.map((r) => ({ ...r, billAmountFen: Number(r.billAmountFen) }));
}

/** The class of the school with the most unpaid bills of the activity. */
export async function largestClass(t: TestApp, world: PayerWorld): Promise<number> {
  const rows = await t.db.select({ id: classes.id }).from(classes).where(eq(classes.sch_id, world.schId));
  let best = { id: rows[0].id, n: -1 };
  for (const { id } of rows) {
    const n = (await unpaidStudents(t, world, 100, id)).length;
    if (n > best.n) best = { id, n };
  }
  return best.id;
}

/** h5find for the student, answered SUCCESS: the ticket. */
export async function findStudent(t: TestApp, world: PayerWorld, student: PayerStudent, ip?: string): Promise<string> {
  const res = await h5(t, "h5find", { code: world.code, name: student.name, student_no: student.student_no }, ip);
  expect(res.return_code, res.return_msg).toBe("SUCCESS");
  return String(itemsOf(res).ticket);
}

/** h5pay of the bills, answered SUCCESS: the order as the payer page gets it. */
export async function payBills(t: TestApp, ticket: string, billIds: number[], ip?: string): Promise<{ pay_no: string; orderid: string; total_fee: string; payparam: { code_url: string } }> {
  const res = await h5(t, "h5pay", { ticket, bill_ids: billIds }, ip);
  expect(res.return_code, res.return_msg).toBe("SUCCESS");
  return itemsOf(res) as never;
}

export async function feeOrderOf(t: TestApp, payNo: string) {
  const [order] = await t.db.select().from(feeOrders).where(eq(feeOrders.pay_no, payNo));
  return order;
}

export async function paymentOrderOf(t: TestApp, payNo: string) {
  const [order] = await t.db.select().from(paymentOrders).where(eq(paymentOrders.payNo, payNo));
  return order;
}

export async function billOf(t: TestApp, billId: number) {
  const [bill] = await t.db.select().from(bills).where(eq(bills.id, billId));
  return bill;
}

/**
 * The statistics' daily figures (`fee_daily`) against the ledger they add up (`fee_ledger`), per business day, class
 * and activity: both as rows "day class activity orders paid refunded", sorted.
 */
export async function dailyFiguresAndLedger(t: TestApp): Promise<{ daily: string[]; ledger: string[] }> {
  const rowsOf = async (query: SQL) =>
    (await queryRows(t.db, query)).map((r) => `${String(r.day)} ${String(r.class_id)} ${String(r.activity_id)} ${String(r.orders)} ${String(r.paid)} ${String(r.refunded)}`).sort();
  const daily = await rowsOf(sql`SELECT day::text AS day, class_id, activity_id, orders, paid, refunded FROM fee_daily WHERE orders <> 0 OR paid <> 0 OR refunded <> 0`);
  const ledger = await rowsOf(
    sql`SELECT (at AT TIME ZONE 'Asia/Shanghai')::date::text AS day, class_id, coalesce(activity_id, 0) AS activity_id, sum(orders) AS orders, sum(paid) AS paid, sum(refunded) AS refunded FROM fee_ledger GROUP BY 1, 2, 3`,
  );
  return { daily, ledger };
}
