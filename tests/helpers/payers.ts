/**
 * A payer of a demo school for the payer page's browser tests: the school's provider (svc) makes a payer QR code for
 * it, and a student with an unpaid bill of its open activity is the one the parent looks up.
 */
import { and, asc, eq } from "drizzle-orm";
import { expect } from "vitest";
import { fenToYuan } from "../../common/money";
import { activities, bills, schools, students } from "../../server/db/schema";
import { DEMO_PASSWORD, type BrowserSuite } from "./browser";
import { api } from "./server";

export interface DemoPayer {
  schId: number;
  /** the QR code's code: the payer page is /h5/{code} */
  code: string;
  activityTitle: string;
  name: string;
  studentNo: string;
  billId: number;
  /** yuan, as the page shows it */
  amount: string;
}

export async function demoPayer(suite: BrowserSuite, schoolTitle: string, qrTitle: string): Promise<DemoPayer> {
  const db = suite.server.server.database.db;
  const [school] = await db.select({ id: schools.id }).from(schools).where(eq(schools.title, schoolTitle));
  const login = await api(suite.url, "adminapi", "login", { username: "svc", password: DEMO_PASSWORD });
  expect(login.return_code, login.return_msg).toBe("SUCCESS");
  const added = await api(suite.url, "adminapiv2", "qrchnladd", { sch_id: school.id, title: qrTitle }, String(login.data?.token));
  expect(added.return_code, added.return_msg).toBe("SUCCESS");
  const [unpaid] = await db
    .select({ billId: bills.id, amount: bills.amount, name: students.name, studentNo: students.student_no, activityTitle: activities.title })
    .from(bills)
    .innerJoin(students, eq(students.id, bills.student_id))
    .innerJoin(activities, eq(activities.id, bills.activity_id))
    .where(and(eq(bills.sch_id, school.id), eq(bills.status, "unpaid"), eq(activities.status, "open"), eq(students.status, "1")))
    .orderBy(asc(bills.id))
    .limit(1);
  expect(unpaid, `an unpaid bill of an open activity of ${schoolTitle}`).toBeDefined();
  return {
    schId: school.id,
    code: String((added.data?.items as { code: string }).code),
    activityTitle: unpaid.activityTitle,
    name: unpaid.name,
    studentNo: String(unpaid.studentNo),
    billId: unpaid.billId,
    amount: fenToYuan(Number(unpaid.amount)),
  };
}
