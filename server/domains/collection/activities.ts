/**
 * A collection activity's life: opening it bills every active student it targets once, for the required fixed
 * items; closing it closes the bills still unpaid; a student who joins a targeted class while it is open gets a
 * bill too. The same functions serve the `activityact` action and the job that opens and closes activities at
 * their dates (./jobs.ts).
 */
import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import { businessDay } from "../../../common/term";
import type { DbOrTx } from "../../db/client";
import { activities, activityItems, bills, students } from "../../db/schema";
import { wrongState } from "../../engine/crud";
import type { ActionCall, ActionEffect, UnlockedCall } from "../../engine/actions";
import type { EntityHooks, Row } from "../../engine/hooks";
import { ApiFailure } from "../../protocol/envelope";
import { closeOrdersOfBill, refuseWhileOrderOpen } from "./feeOrders";

/** Why an activity cannot open: the message of a FAIL. */
export interface OpenRefusal {
  key: string;
  params?: Record<string, string | number>;
}

/** The school's channel for fees, or null; given by the payment-channel domain (server/domains/fees). */
export type SchoolChannelLookup = (db: DbOrTx, schId: number) => Promise<unknown>;

/** The students an activity targets, as conditions on the students table (active students only). */
function targetConditions(activity: Row): SQL[] {
  const conditions: SQL[] = [eq(students.sch_id, Number(activity.sch_id)), eq(students.status, "1")];
  const ids = (name: string) => (Array.isArray(activity[name]) ? (activity[name] as number[]) : []);
  switch (activity.target) {
    case "grades":
      conditions.push(ids("grade_ids").length > 0 ? inArray(students.grade_id, ids("grade_ids")) : sql`false`);
      break;
    case "classes":
      conditions.push(ids("class_ids").length > 0 ? inArray(students.class_id, ids("class_ids")) : sql`false`);
      break;
    case "students":
      conditions.push(ids("student_ids").length > 0 ? inArray(students.id, ids("student_ids")) : sql`false`);
      break;
    default:
      break;
  }
  return conditions;
}

/** Issues the activity's bills to the targeted students who have none yet; answers how many were issued. */
export async function issueBills(tx: DbOrTx, activity: Row, at: Date, only?: SQL): Promise<number> {
  // opened at the app's time: how long a bill has been open is counted from it
  const issued = await tx.execute(sql`
    INSERT INTO ${bills} (activity_id, sch_id, sysid, student_id, class_id, amount, status, created_at)
    SELECT ${Number(activity.id)}, ${students.sch_id}, ${students.sysid}, ${students.id}, ${students.class_id}, ${Number(activity.amount)}, 'unpaid', ${at.toISOString()}::timestamptz
    FROM ${students}
    WHERE ${and(...targetConditions(activity), ...(only ? [only] : []))}
    ON CONFLICT (activity_id, student_id) DO NOTHING
    RETURNING id`);
  return rowCount(issued);
}

function rowCount(result: unknown): number {
  const rows = (result as { rows?: unknown[] }).rows ?? (Array.isArray(result) ? result : []);
  return rows.length;
}

/** Why the activity cannot open now, or null. */
export async function openRefusal(tx: DbOrTx, activity: Row, today: string, schoolChannel: SchoolChannelLookup): Promise<OpenRefusal | null> {
  if (String(activity.end_date) < today) return { key: "collection.errors.ended", params: { end: String(activity.end_date) } };
  const [{ n }] = await tx.select({ n: sql<number>`count(*)` }).from(activityItems).where(eq(activityItems.activity_id, Number(activity.id)));
  if (Number(n) === 0) return { key: "collection.errors.no_items" };
  if (Number(activity.amount) <= 0) return { key: "collection.errors.nothing_due" };
  if (!(await schoolChannel(tx, Number(activity.sch_id)))) return { key: "collection.errors.no_channel" };
  return null;
}

/** Closes the activity's unpaid bills; answers how many. */
export async function closeUnpaidBills(tx: DbOrTx, activityId: number): Promise<number> {
  const closed = await tx
    .update(bills)
    .set({ status: "closed" })
    .where(and(eq(bills.activity_id, activityId), eq(bills.status, "unpaid")))
    .returning({ id: bills.id });
  return closed.length;
}

/** `activityact` {id, act}: open a draft, close an open activity. */
export function activityActEffect(schoolChannel: SchoolChannelLookup): ActionEffect {
  return async ({ ctx, tx, entity, row, input }) => {
    const act = String(input.act);
    if (act === "open") {
      if (row.status !== "draft") throw wrongState(ctx, entity, row.status, "collection.act_open");
      const refusal = await openRefusal(tx, row, businessDay(ctx.now), schoolChannel);
      if (refusal) throw new ApiFailure(refusal.key, refusal.params);
      const count = await issueBills(tx, row, ctx.now);
      return { changes: { status: "open" }, messageKey: "collection.opened", messageParams: { count } };
    }
    if (row.status !== "open") throw wrongState(ctx, entity, row.status, "collection.act_close");
    const count = await closeUnpaidBills(tx, Number(row.id));
    return { changes: { status: "closed" }, messageKey: "collection.closed", messageParams: { count } };
  };
}

/** A student added or moved into a class while an activity targeting it is open gets that activity's bill. */
export const studentBillingHooks: EntityHooks = {
  async afterAdd(ctx, tx, row) {
    await billJoiningStudent(tx, row, ctx.now);
  },
  async afterEdit(ctx, tx, before, after) {
    if (after.status === "1" && (before.class_id !== after.class_id || before.status !== after.status)) await billJoiningStudent(tx, after, ctx.now);
  },
};

async function billJoiningStudent(tx: DbOrTx, student: Row, now: Date): Promise<void> {
  if (student.status !== "1") return;
  const open = (await tx
    .select()
    .from(activities)
    .where(and(eq(activities.sch_id, Number(student.sch_id)), eq(activities.status, "open")))) as Row[];
  for (const activity of open) await issueBills(tx, activity, now, eq(students.id, Number(student.id)));
}

/**
 * A bill's new amount (`billadjust`), kept with its reason. The orders open for it are closed first (at their gateway
 * too): an order holds the amount it was made for, and one paid meanwhile pays the bill and refuses the change.
 */
export const billAdjustEffect: ActionEffect = Object.assign(
  async ({ tx, row, input }: ActionCall) => {
    await refuseWhileOrderOpen(tx, Number(row.id));
    return { changes: { amount: input.amount, remark: input.reason } };
  },
  { beforeLock: ({ ctx, row }: UnlockedCall) => closeOrdersOfBill(ctx, Number(row.id)) },
);

/** A waived bill keeps its reason; its open orders are closed first, as for an adjustment. */
export const billWaiveEffect: ActionEffect = Object.assign(
  async ({ tx, row, input }: ActionCall) => {
    await refuseWhileOrderOpen(tx, Number(row.id));
    return { changes: { remark: input.reason } };
  },
  { beforeLock: ({ ctx, row }: UnlockedCall) => closeOrdersOfBill(ctx, Number(row.id)) },
);

