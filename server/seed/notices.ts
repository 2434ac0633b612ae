/**
 * The demo's notices: two users of Sunrise bound to its daily business report, who got the report of each of the
 * last three evenings, and reminders sent to the guardians of the bills of Sunrise No.1's open activity that have
 * waited longest (one reminded twice), all delivered to the sandbox outbox.
 */
import { and, asc, eq, sql } from "drizzle-orm";
import { addDays, businessDay } from "../../common/term";
import type { DbOrTx } from "../db/client";
import { activities, bills, dailyReportSubscribers, notices } from "../db/schema";
import { dayFigures, remindBills } from "../domains/notices";
import { queueNotices } from "../notify/notices";

const BOUND = [
  { openid: "sandbox-demo-finance-wang", nickname: "王会计 Finance Wang" },
  { openid: "sandbox-demo-principal-zhao", nickname: "赵校长 Principal Zhao" },
];
const REMINDED = 8;
const HOUR = 3_600_000;

export async function seedDemoNotices(tx: DbOrTx, provider: { sysid: number; schId: number }, now: Date): Promise<void> {
  await tx.insert(dailyReportSubscribers).values(BOUND.map((user) => ({ sysid: provider.sysid, ...user })));
  const today = businessDay(now);
  for (let back = 3; back >= 1; back--) {
    const day = addDays(today, -back);
    const figures = await dayFigures(tx, provider.sysid, day);
    const at = new Date(`${day}T20:00:00+08:00`);
    await queueNotices(
      tx,
      BOUND.map((user) => ({ sysid: provider.sysid, kind: "daily_report", channel: "wechat", recipient: user.openid, recipientName: user.nickname, params: figures, dedupeKey: `daily_report:${provider.sysid}:${day}:${user.openid}`, createdBy: "system" })),
      at,
    );
  }

  const [open] = await tx.select({ id: activities.id }).from(activities).where(and(eq(activities.sch_id, provider.schId), eq(activities.status, "open"))).orderBy(asc(activities.id)).limit(1);
  if (open) {
    const waiting = await tx.select({ id: bills.id }).from(bills).where(and(eq(bills.activity_id, open.id), eq(bills.status, "unpaid"))).orderBy(asc(bills.created_at), asc(bills.id)).limit(REMINDED);
    const ids = waiting.map((b) => b.id);
    // two days ago, the first of them again this morning
    await remindBills(tx, ids, new Date(now.getTime() - 50 * HOUR), "svc");
    await remindBills(tx, ids.slice(0, 1), new Date(now.getTime() - 2 * HOUR), "school");
  }
  // the sandbox delivered them when they were written
  await tx
    .update(notices)
    .set({ status: "sent", driver: "sandbox", sentAt: sql`${notices.createdAt}`, reference: sql`'sandbox-' || ${notices.id}`, attempts: 1 })
    .where(eq(notices.status, "queued"));
}
