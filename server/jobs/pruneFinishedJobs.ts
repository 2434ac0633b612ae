/**
 * Finished jobs are kept for a while (what ran, its result, a failure's error), then deleted: a recurring kind
 * leaves a row a run, about 1,500 a day for the order closing alone.
 */
import { and, eq, lt, or } from "drizzle-orm";
import { jobs } from "../db/schema";
import type { JobContext } from "./registry";

export const PRUNE_FINISHED_JOBS = "jobs.prune_finished";
export const PRUNE_FINISHED_JOBS_EVERY_SECONDS = 3600;
/** a job done is kept this long */
export const KEEP_DONE_MS = 7 * 86_400_000;
/** a failed job, whose error someone may still look for, this long */
export const KEEP_FAILED_MS = 30 * 86_400_000;

export async function pruneFinishedJobs({ db, now }: JobContext): Promise<{ deleted: number }> {
  const deleted = await db
    .delete(jobs)
    .where(
      or(
        and(eq(jobs.status, "done"), lt(jobs.finishedAt, new Date(now.getTime() - KEEP_DONE_MS))),
        and(eq(jobs.status, "failed"), lt(jobs.finishedAt, new Date(now.getTime() - KEEP_FAILED_MS))),
      ),
    )
    .returning({ id: jobs.id });
  return { deleted: deleted.length };
}
