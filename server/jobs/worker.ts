/**
 * The job queue and its worker (docs/architecture.md, "Background jobs"). Jobs are rows of `jobs`; a worker
 * claims a due one in a short transaction (`FOR UPDATE SKIP LOCKED`, so two processes sharing one PostgreSQL never
 * take the same row, and on PGlite the claims of one process follow each other), holds it for a lease that it
 * renews while the handler runs, and finishes it only while it still holds it. A run that never finishes (a
 * crashed process) lets its lease run out, and the next worker claims the job again, counting the attempt; after
 * `max_attempts` the job fails with its last error. Every time decision reads the app's clock.
 */
import { randomBytes } from "node:crypto";
import os from "node:os";
import { and, asc, eq, inArray, lt, lte, or, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../db/client";
import { jobs } from "../db/schema";
import { jobKinds as defaultJobKinds, type JobKinds, type JobLog, type JobServices } from "./registry";

export type JobRow = typeof jobs.$inferSelect;
export type JobStatus = "queued" | "running" | "done" | "failed";

export interface EnqueueOptions {
  /** the app's clock */
  now: Date;
  /** due from then; default now */
  runAt?: Date;
  /** default: the kind's, else 3 */
  maxAttempts?: number;
  /** while a job with this key is queued or running, another one is not enqueued */
  uniqueKey?: string;
}

/** Enqueues a job; null when its unique key is taken by a queued or running job. */
export async function enqueueJob(db: DbOrTx, kind: string, payload: Record<string, unknown>, options: EnqueueOptions): Promise<number | null> {
  const rows = await db
    .insert(jobs)
    .values({
      kind,
      payload,
      uniqueKey: options.uniqueKey ?? null,
      runAt: options.runAt ?? options.now,
      maxAttempts: options.maxAttempts ?? defaultJobKinds.get(kind)?.maxAttempts ?? 3,
      createdAt: options.now,
    })
    .onConflictDoNothing({ target: jobs.uniqueKey, where: sql`${jobs.status} in ('queued', 'running')` })
    .returning({ id: jobs.id });
  return rows[0]?.id ?? null;
}

export interface JobWorkerOptions {
  services: JobServices;
  /** default: the server's registry (server/jobs/index.ts) */
  kinds?: JobKinds;
  log?: JobLog;
  /** how often the loop looks for due jobs; default 5 s */
  pollIntervalMs?: number;
  /** jobs run per poll before the loop yields; default 20 */
  batch?: number;
  /** names the worker in locked_by; default host:pid:random */
  id?: string;
  /** how long stop() waits for the job in hand before handing it back to the queue; default 10 s */
  stopGraceMs?: number;
}

export const DEFAULT_POLL_INTERVAL_MS = 5000;
export const DEFAULT_STOP_GRACE_MS = 10_000;
const SCHEDULE_CHECK_MS = 60_000;
const MAX_RETRY_DELAY_MS = 3600_000;
const MAX_ERROR_LENGTH = 2000;

const silentLog: JobLog = { info: () => undefined, warn: () => undefined, error: () => undefined };

function errorMessage(err: unknown): string {
  const text = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return text.slice(0, MAX_ERROR_LENGTH);
}

export class JobWorker {
  readonly id: string;
  private readonly db: Db;
  private readonly kinds: JobKinds;
  private readonly log: JobLog;
  private readonly pollIntervalMs: number;
  private readonly batch: number;
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private stopped = false;
  private tickInFlight: Promise<void> | undefined;
  private lastScheduleCheck = Number.NEGATIVE_INFINITY;
  /** woken while a poll was under way: the next poll follows it at once */
  private wokenDuringTick = false;
  /** the job this worker runs now */
  private inHand: JobRow | undefined;

  constructor(private readonly options: JobWorkerOptions) {
    this.db = options.services.db;
    this.kinds = options.kinds ?? defaultJobKinds;
    this.log = options.log ?? silentLog;
    this.pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
    this.batch = options.batch ?? 20;
    this.id = options.id ?? `${os.hostname().slice(0, 60)}:${process.pid}:${randomBytes(4).toString("hex")}`;
  }

  private now(): Date {
    return this.options.services.clock.now();
  }

  /** Starts the polling loop (server/start.ts); stop() ends it. */
  start(): void {
    if (this.running || this.stopped) return;
    this.running = true;
    this.schedule(0);
  }

  /** whether the loop is on: a timer set or a poll under way */
  get active(): boolean {
    return this.timer !== undefined || this.tickInFlight !== undefined;
  }

  /** whether the loop waits for its next poll: on, and no poll under way */
  get betweenPolls(): boolean {
    return this.timer !== undefined && this.tickInFlight === undefined;
  }

  /**
   * Ends the loop; no timer is left. The job in hand is waited for up to the grace (`stopGraceMs`), then handed
   * back to the queue, due at once and its attempt not counted, so that another process takes it over now rather
   * than when its lease runs out (a job's work is safe to run again, as after a crash). Safe to call twice.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const tick = this.tickInFlight;
    if (!tick) return;
    let graceTimer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<"grace over">((resolve) => {
      graceTimer = setTimeout(() => resolve("grace over"), this.options.stopGraceMs ?? DEFAULT_STOP_GRACE_MS);
    });
    const ended = await Promise.race([tick.then(() => "finished" as const), graceOver]);
    clearTimeout(graceTimer);
    if (ended === "finished" || !this.inHand) return;
    const job = this.inHand;
    const handedBack = await this.db
      .update(jobs)
      .set({ status: "queued", attempts: sql`greatest(${jobs.attempts} - 1, 0)`, runAt: this.now(), lockedBy: null, lockedUntil: null })
      .where(and(eq(jobs.id, job.id), eq(jobs.status, "running"), eq(jobs.lockedBy, this.id)))
      .returning({ id: jobs.id });
    if (handedBack.length > 0) this.log.warn({ jobId: job.id, kind: job.kind, worker: this.id }, "the server stopped while a job ran: handed back to the queue");
  }

  /** Looks for due jobs now rather than at the next poll: a job was just enqueued that a user is waiting for. */
  wake(): void {
    if (!this.running) return;
    if (this.tickInFlight) {
      this.wokenDuringTick = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.schedule(0);
  }

  private schedule(delayMs: number): void {
    if (!this.running) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.tickInFlight = this.tick().finally(() => {
        this.tickInFlight = undefined;
      });
    }, delayMs);
  }

  private async tick(): Promise<void> {
    this.wokenDuringTick = false;
    let ran = 0;
    try {
      if (this.now().getTime() - this.lastScheduleCheck >= SCHEDULE_CHECK_MS) await this.ensureSchedules();
      if ((await this.failExpiredLeases()) > 0) await this.ensureSchedules();
      ran = (await this.runDue(this.batch)).length;
    } catch (err) {
      this.log.error({ err: errorMessage(err), worker: this.id }, "the job worker's poll failed");
    }
    // a full batch: more may be due at once
    this.schedule(ran >= this.batch || this.wokenDuringTick ? 0 : this.pollIntervalMs);
  }

  /** Runs every job due now (tests, and whoever cannot wait for the loop); the ids run, in order. */
  async runDueJobs(): Promise<number[]> {
    await this.ensureSchedules();
    if ((await this.failExpiredLeases()) > 0) await this.ensureSchedules();
    return this.runDue(Number.POSITIVE_INFINITY);
  }

  private async runDue(limit: number): Promise<number[]> {
    const ran: number[] = [];
    while (ran.length < limit && !this.stopped) {
      const job = await this.claim();
      if (!job) break;
      this.inHand = job;
      try {
        await this.runClaimed(job);
      } finally {
        this.inHand = undefined;
      }
      ran.push(job.id);
    }
    return ran;
  }

  /** Enqueues a job of one of this worker's kinds (attempts as the kind says); null when its unique key is taken. */
  async enqueue(kind: string, payload: Record<string, unknown> = {}, options: Omit<EnqueueOptions, "now"> & { now?: Date } = {}): Promise<number | null> {
    const registered = this.kinds.get(kind);
    if (!registered) throw new Error(`job kind ${kind} is not registered`);
    return enqueueJob(this.db, kind, payload, { maxAttempts: registered.maxAttempts, ...options, now: options.now ?? this.now() });
  }

  /** Keeps one job of each recurring kind queued or running, whichever processes ask at once. */
  async ensureSchedules(): Promise<void> {
    const now = this.now();
    this.lastScheduleCheck = now.getTime();
    for (const kind of this.kinds.recurring()) {
      await enqueueJob(this.db, kind.kind, {}, { now, uniqueKey: kind.kind, maxAttempts: kind.maxAttempts });
    }
  }

  /** Jobs whose lease ran out on their last allowed attempt fail for good; the number failed. */
  private async failExpiredLeases(): Promise<number> {
    const now = this.now();
    const failed = await this.db
      .update(jobs)
      .set({
        status: "failed",
        error: sql`coalesce(${jobs.error} || E'\n', '') || 'the run did not finish within its lease'`,
        finishedAt: now,
        lockedBy: null,
        lockedUntil: null,
      })
      .where(and(eq(jobs.status, "running"), lte(jobs.lockedUntil, now), sql`${jobs.attempts} >= ${jobs.maxAttempts}`))
      .returning({ id: jobs.id, kind: jobs.kind, attempts: jobs.attempts });
    for (const job of failed) this.log.error({ jobId: job.id, kind: job.kind, attempts: job.attempts, err: "the run did not finish within its lease" }, "job failed");
    return failed.length;
  }

  /**
   * Takes the next due job: a queued one whose time has come, or a running one whose lease ran out (its run
   * crashed) with attempts left. The row is locked while it is marked, and rows other workers hold are skipped.
   */
  async claim(): Promise<JobRow | null> {
    const now = this.now();
    const names = this.kinds.names();
    if (names.length === 0) return null;
    return this.db.transaction(async (tx) => {
      const [due] = await tx
        .select({ id: jobs.id, kind: jobs.kind })
        .from(jobs)
        .where(
          and(
            inArray(jobs.kind, names),
            or(
              and(eq(jobs.status, "queued"), lte(jobs.runAt, now)),
              and(eq(jobs.status, "running"), lte(jobs.lockedUntil, now), lt(jobs.attempts, jobs.maxAttempts)),
            ),
          ),
        )
        .orderBy(asc(jobs.runAt), asc(jobs.id))
        .limit(1)
        .for("update", { skipLocked: true });
      if (!due) return null;
      const kind = this.kinds.get(due.kind)!;
      const [claimed] = await tx
        .update(jobs)
        .set({
          status: "running",
          attempts: sql`${jobs.attempts} + 1`,
          lockedBy: this.id,
          lockedUntil: new Date(now.getTime() + kind.leaseSeconds * 1000),
          startedAt: now,
        })
        .where(eq(jobs.id, due.id))
        .returning();
      return claimed ?? null;
    });
  }

  /** Runs a job this worker claimed and records how it ended (while the worker still holds it). */
  async runClaimed(job: JobRow): Promise<void> {
    const kind = this.kinds.get(job.kind);
    if (!kind) throw new Error(`job kind ${job.kind} is not registered`);
    const leaseMs = kind.leaseSeconds * 1000;
    const mine = and(eq(jobs.id, job.id), eq(jobs.status, "running"), eq(jobs.lockedBy, this.id));
    const renew = async (progress?: number) => {
      await this.db
        .update(jobs)
        .set({ lockedUntil: new Date(this.now().getTime() + leaseMs), ...(progress === undefined ? {} : { progress }) })
        .where(mine);
    };
    // the lease is renewed while the handler runs, so that only a run that stopped lets it run out
    const heartbeat = setInterval(() => void renew().catch(() => undefined), Math.max(1000, Math.floor(leaseMs / 3)));
    heartbeat.unref();
    let outcome: { ok: true; result: unknown } | { ok: false; error: string };
    try {
      const result = await kind.handler({
        db: this.db,
        services: this.options.services,
        payload: job.payload,
        now: this.now(),
        jobId: job.id,
        attempt: job.attempts,
        log: this.log,
        reportProgress: (percent) => renew(Math.max(0, Math.min(100, Math.round(Number.isFinite(percent) ? percent : 0)))),
      });
      outcome = { ok: true, result: result ?? null };
    } catch (err) {
      outcome = { ok: false, error: errorMessage(err) };
    } finally {
      clearInterval(heartbeat);
    }
    const now = this.now();
    const finished = await this.db.transaction(async (tx) => {
      const end = { lockedBy: null, lockedUntil: null };
      let status: JobStatus;
      let kept: { id: number }[];
      if (outcome.ok) {
        status = "done";
        kept = await tx
          .update(jobs)
          .set({ status, progress: 100, result: outcome.result, error: null, finishedAt: now, ...end })
          .where(mine)
          .returning({ id: jobs.id });
      } else if (job.attempts < job.maxAttempts) {
        status = "queued";
        const delay = Math.min(kind.retryDelaySeconds * 1000 * 2 ** (job.attempts - 1), MAX_RETRY_DELAY_MS);
        kept = await tx
          .update(jobs)
          .set({ status, error: outcome.error, runAt: new Date(now.getTime() + delay), ...end })
          .where(mine)
          .returning({ id: jobs.id });
      } else {
        status = "failed";
        kept = await tx.update(jobs).set({ status, error: outcome.error, finishedAt: now, ...end }).where(mine).returning({ id: jobs.id });
      }
      // nothing changed when another worker took the job over after this run's lease ran out
      if (kept.length === 0) return false;
      if (status !== "queued" && kind.everySeconds !== undefined && job.uniqueKey === kind.kind) {
        await enqueueJob(tx, kind.kind, {}, { now, runAt: new Date(now.getTime() + kind.everySeconds * 1000), uniqueKey: kind.kind, maxAttempts: kind.maxAttempts });
      }
      return true;
    });
    if (!outcome.ok) {
      const fields = { jobId: job.id, kind: job.kind, attempt: job.attempts, maxAttempts: job.maxAttempts, err: outcome.error };
      if (job.attempts < job.maxAttempts) this.log.warn(fields, "job run failed, it will be retried");
      else this.log.error(fields, "job failed");
    }
    if (!finished) this.log.warn({ jobId: job.id, kind: job.kind, worker: this.id }, "job was taken over by another worker after its lease ran out");
  }
}
