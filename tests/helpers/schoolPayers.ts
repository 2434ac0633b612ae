/** The unpaid payers of a demo school, read from its database (no test runner here: the bench uses it too). */
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../../server/db/client";
import { activities, bills, schools, students } from "../../server/db/schema";

/**
 * The unpaid pupils of the school's first open activity, first by bill, as a payer types them in: for tests that
 * drive a server of their own (its database read beside it) rather than a TestApp, and for the bench.
 */
export async function openActivityPayers(db: Db, schoolTitle: string, limit: number): Promise<{ schId: number; payers: { name: string; student_no: string; billId: number }[] }> {
  const [school] = await db.select({ id: schools.id }).from(schools).where(eq(schools.title, schoolTitle));
  const [activity] = await db
    .select({ id: activities.id })
    .from(activities)
    .where(and(eq(activities.sch_id, school.id), eq(activities.status, "open")))
    .orderBy(asc(activities.id));
  const payers = await db
    .select({ name: students.name, student_no: students.student_no, billId: bills.id })
    .from(bills)
    .innerJoin(students, eq(students.id, bills.student_id))
    .where(and(eq(bills.activity_id, activity.id), eq(bills.status, "unpaid"), eq(students.status, "1")))
    .orderBy(asc(bills.id))
    .limit(limit);
  return { schId: school.id, payers };
}
