/**
 * `collection.activity_dates` (every ten minutes): an open activity whose end date has passed is closed (its
 * unpaid bills with it); a draft set to open on its start date (`auto_open`) opens once that day has come, if
 * nothing keeps it from opening (no fee items, nothing due, no payment channel: logged, left a draft). Each
 * activity changes in a transaction of its own, under its row lock, its state read again there.
 */
import { and, eq, lt, lte, gte } from "drizzle-orm";
import { businessDay } from "../../../common/term";
import { jobActor, writeAudit } from "../../auth/audit";
import type { DbOrTx } from "../../db/client";
import { activities } from "../../db/schema";
import type { Row } from "../../engine/hooks";
import type { JobContext } from "../../jobs/registry";
import { closeUnpaidBills, issueBills, openRefusal, type SchoolChannelLookup } from "./activities";

export const ACTIVITY_DATES = "collection.activity_dates";
export const ACTIVITY_DATES_EVERY_SECONDS = 600;

export interface ActivityDatesResult {
  opened: number;
  closed: number;
  left: number;
}

async function audit(tx: DbOrTx, activity: Row, action: string, detail: Record<string, unknown>): Promise<void> {
  await writeAudit(tx, jobActor(ACTIVITY_DATES), { action, entity: "activity", entityId: String(activity.id), sysid: Number(activity.sysid), schId: Number(activity.sch_id), detail });
}

export function activityDatesJob(schoolChannel: SchoolChannelLookup) {
  return async ({ db, now, log }: JobContext): Promise<ActivityDatesResult> => {
    const today = businessDay(now);
    const result: ActivityDatesResult = { opened: 0, closed: 0, left: 0 };
    const ended = await db.select({ id: activities.id }).from(activities).where(and(eq(activities.status, "open"), lt(activities.end_date, today)));
    for (const { id } of ended) {
      await db.transaction(async (tx) => {
        const [activity] = (await tx.select().from(activities).where(eq(activities.id, id)).for("update")) as Row[];
        if (activity?.status !== "open" || String(activity.end_date) >= today) return;
        const bills = await closeUnpaidBills(tx, id);
        await tx.update(activities).set({ status: "closed" }).where(eq(activities.id, id));
        await audit(tx, activity, "activityact", { from: "open", to: "closed", by: "end_date", closed_bills: bills });
        result.closed++;
      });
    }
    const starting = await db
      .select({ id: activities.id })
      .from(activities)
      .where(and(eq(activities.status, "draft"), eq(activities.auto_open, "Y"), lte(activities.start_date, today), gte(activities.end_date, today)));
    for (const { id } of starting) {
      await db.transaction(async (tx) => {
        const [activity] = (await tx.select().from(activities).where(eq(activities.id, id)).for("update")) as Row[];
        if (activity?.status !== "draft") return;
        const refusal = await openRefusal(tx, activity, today, schoolChannel);
        if (refusal) {
          log.warn({ activity: id, refusal: refusal.key }, "an activity due to open on its start date cannot open");
          result.left++;
          return;
        }
        const bills = await issueBills(tx, activity, now);
        await tx.update(activities).set({ status: "open" }).where(eq(activities.id, id));
        await audit(tx, activity, "activityact", { from: "draft", to: "open", by: "start_date", issued_bills: bills });
        result.opened++;
      });
    }
    return result;
  };
}
