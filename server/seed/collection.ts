/**
 * Demo fee collection: each demo school has last term's activity (closed), this term's (open, its bills issued)
 * and an outing for one grade still being drafted, each with its fee items, made with the functions the
 * activities' own actions use.
 */
import { and, asc, eq } from "drizzle-orm";
import { addDays, businessDayStart } from "../../common/term";
import type { DbOrTx } from "../db/client";
import { activities, activityItems, grades } from "../db/schema";
import { closeUnpaidBills, issueBills } from "../domains/collection/activities";
import type { Row } from "../engine/hooks";
import type { WorldSchool } from "./schoolWorld";

interface DemoItem {
  title: string;
  /** fen */
  amount: number;
  amount_mode: "fixed" | "open";
  required: "Y" | "N";
}

const TERM_ITEMS: readonly DemoItem[] = [
  { title: "学费 Tuition", amount: 80000, amount_mode: "fixed", required: "Y" },
  { title: "教材费 Books", amount: 15650, amount_mode: "fixed", required: "Y" },
  { title: "意外保险 Insurance", amount: 10000, amount_mode: "fixed", required: "N" },
  { title: "图书角捐赠 Reading corner donation", amount: 0, amount_mode: "open", required: "N" },
];

const OUTING_ITEMS: readonly DemoItem[] = [
  { title: "春游费用 Spring outing", amount: 12000, amount_mode: "fixed", required: "Y" },
  { title: "午餐 Lunch", amount: 2500, amount_mode: "fixed", required: "N" },
];

async function insertActivity(tx: DbOrTx, school: WorldSchool, values: { title: string; start: string; end: string; target: string; grade_ids?: number[] }, items: readonly DemoItem[]): Promise<Row> {
  const amount = items.filter((i) => i.required === "Y" && i.amount_mode === "fixed").reduce((sum, i) => sum + i.amount, 0);
  const [activity] = (await tx
    .insert(activities)
    .values({ sysid: school.sysid, sch_id: school.id, title: values.title, start_date: values.start, end_date: values.end, target: values.target, grade_ids: values.grade_ids ?? null, amount, status: "draft" })
    .returning()) as Row[];
  await tx.insert(activityItems).values(items.map((item, sort) => ({ ...item, sort, activity_id: Number(activity.id), sysid: school.sysid, sch_id: school.id })));
  return activity;
}

export async function seedCollection(tx: DbOrTx, schools: readonly WorldSchool[], today: string): Promise<void> {
  for (const school of schools) {
    const autumn = await insertActivity(tx, school, { title: "2026 秋季学期收费 Autumn term fees", start: addDays(today, -100), end: addDays(today, -40), target: "school" }, TERM_ITEMS);
    await issueBills(tx, autumn, businessDayStart(String(autumn.start_date)));
    await closeUnpaidBills(tx, Number(autumn.id));
    await tx.update(activities).set({ status: "closed" }).where(eq(activities.id, Number(autumn.id)));

    const spring = await insertActivity(tx, school, { title: "2027 春季学期收费 Spring term fees", start: addDays(today, -10), end: addDays(today, 30), target: "school" }, TERM_ITEMS);
    await issueBills(tx, spring, businessDayStart(String(spring.start_date)));
    await tx.update(activities).set({ status: "open" }).where(eq(activities.id, Number(spring.id)));

    const [firstGrade] = await tx.select({ id: grades.id }).from(grades).where(and(eq(grades.sch_id, school.id))).orderBy(asc(grades.sort), asc(grades.id)).limit(1);
    await insertActivity(tx, school, { title: "春游 Spring outing", start: addDays(today, 5), end: addDays(today, 20), target: "grades", grade_ids: firstGrade ? [firstGrade.id] : [] }, OUTING_ITEMS);
  }
}
