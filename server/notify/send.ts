/**
 * `notices.send` (every minute, and as soon as a notice is queued): takes the queued notices in batches, each claimed
 * for a while (`sending` until `locked_until`, FOR UPDATE SKIP LOCKED), so several server processes never send one
 * twice and a process that stopped mid-batch leaves its notices to the next run. A notice whose driver fails is
 * tried again at the next runs, and after three attempts it is `failed` with the driver's message.
 */
import { and, eq, sql } from "drizzle-orm";
import { queryRows } from "../db/client";
import { notices } from "../db/schema";
import type { JobContext } from "../jobs/registry";
import type { NoticeDrivers } from "./drivers";
import type { NoticeRow } from "./notices";

export const SEND_NOTICES_EVERY_SECONDS = 60;
const NOTICE_MAX_ATTEMPTS = 3;
/** a batch's claim outlasts its sends, each bounded by its driver's timeout (8 s): no other run takes them meanwhile */
const BATCH = 20;
const CLAIM_MS = 300_000;
/** the most one run sends; the rest waits for the next run */
const MAX_PER_RUN = 2000;

interface ClaimedNotice {
  id: number;
}

async function claimBatch(ctx: JobContext): Promise<NoticeRow[]> {
  const until = new Date(ctx.now.getTime() + CLAIM_MS).toISOString();
  const at = ctx.now.toISOString();
  const claimed = await queryRows<ClaimedNotice & Record<string, unknown>>(
    ctx.db,
    sql`UPDATE ${notices} SET status = 'sending', locked_until = ${until}::timestamptz, attempts = attempts + 1
        WHERE id IN (
          SELECT id FROM ${notices}
          WHERE status = 'queued' OR (status = 'sending' AND locked_until < ${at}::timestamptz)
          ORDER BY id LIMIT ${BATCH} FOR UPDATE SKIP LOCKED)
        RETURNING id`,
  );
  if (claimed.length === 0) return [];
  return ctx.db
    .select()
    .from(notices)
    .where(sql`${notices.id} in (${sql.join(claimed.map((c) => sql`${Number(c.id)}`), sql`, `)})`)
    .orderBy(notices.id);
}

export function sendNoticesJob(driversOf: (ctx: JobContext) => Promise<NoticeDrivers>) {
  return async (ctx: JobContext): Promise<{ sent: number; failed: number; retried: number }> => {
    const result = { sent: 0, failed: 0, retried: 0 };
    let drivers: NoticeDrivers | undefined;
    for (let taken = 0; taken < MAX_PER_RUN; ) {
      const batch = await claimBatch(ctx);
      if (batch.length === 0) break;
      taken += batch.length;
      drivers ??= await driversOf(ctx);
      for (const notice of batch) {
        const driver = drivers[notice.channel as keyof NoticeDrivers];
        try {
          if (!driver) throw new Error(`no driver sends ${notice.channel} notices`);
          const { reference } = await driver.send(notice);
          await ctx.db
            .update(notices)
            .set({ status: "sent", sentAt: ctx.now, driver: driver.name, reference, error: null, lockedUntil: null })
            .where(and(eq(notices.id, notice.id), eq(notices.status, "sending")));
          result.sent++;
        } catch (err) {
          const last = notice.attempts >= NOTICE_MAX_ATTEMPTS;
          await ctx.db
            .update(notices)
            .set({ status: last ? "failed" : "queued", driver: driver?.name ?? null, error: String((err as Error).message).slice(0, 500), lockedUntil: null })
            .where(and(eq(notices.id, notice.id), eq(notices.status, "sending")));
          if (last) {
            result.failed++;
            ctx.log.warn({ notice: notice.id, kind: notice.kind, channel: notice.channel, error: (err as Error).message }, "a notice could not be sent");
          } else result.retried++;
        }
      }
      // a notice put back to be tried again waits for the next run
      if (result.retried > 0) break;
    }
    return result;
  };
}
