/**
 * Job kinds: what a background job of a kind does (its handler) and how it is run (attempts, lease, retry delay,
 * and for a recurring kind its period). `registerJobKind` adds a kind to the registry the server's worker runs;
 * tests build registries of their own.
 */
import type { Db } from "../db/client";
import type { AppServices } from "../protocol/registry";

/** What a job's handler may use of the server. */
export type JobServices = Pick<AppServices, "db" | "clock" | "paymentSecrets" | "publicUrl"> & Partial<Pick<AppServices, "notify" | "wechatOAuth" | "printerClouds">>;

export interface JobLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface JobContext {
  db: Db;
  services: JobServices;
  payload: Record<string, unknown>;
  /** stores the job's progress (0..100, rounded and clamped) and extends its lease */
  reportProgress(percent: number): Promise<void>;
  /** the app's clock when the run started */
  now: Date;
  jobId: number;
  /** 1 for the first run, 2 for the first retry... */
  attempt: number;
  log: JobLog;
}

/** Returns the job's result (stored as JSON); throws to fail the run. */
export type JobHandler = (ctx: JobContext) => Promise<unknown>;

export interface JobKindOptions {
  /** a recurring kind: one job of it is kept queued, due this many seconds after the previous run finished */
  everySeconds?: number;
  /** runs before the job is failed for good (a run whose lease ran out counts); default 3 */
  maxAttempts?: number;
  /** how long a run holds its job before another worker may take it over; default 300 s, renewed while it runs */
  leaseSeconds?: number;
  /** delay before the first retry, doubled at each further one (at most an hour); default 10 s */
  retryDelaySeconds?: number;
}

export interface JobKind extends Required<Omit<JobKindOptions, "everySeconds">> {
  kind: string;
  handler: JobHandler;
  everySeconds?: number;
}

export const DEFAULT_MAX_ATTEMPTS = 3;
export const DEFAULT_LEASE_SECONDS = 300;
export const DEFAULT_RETRY_DELAY_SECONDS = 10;

export class JobKinds {
  private readonly kinds = new Map<string, JobKind>();

  register(kind: string, handler: JobHandler, options: JobKindOptions = {}): void {
    if (!/^[a-z][a-z0-9_.]{0,63}$/.test(kind)) throw new Error(`job kind ${kind}: lower-case letters, digits, '.' and '_', at most 64`);
    if (this.kinds.has(kind)) throw new Error(`job kind ${kind} is registered twice`);
    if (options.everySeconds !== undefined && !(options.everySeconds > 0)) throw new Error(`job kind ${kind}: everySeconds must be positive`);
    this.kinds.set(kind, {
      kind,
      handler,
      everySeconds: options.everySeconds,
      maxAttempts: options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
      leaseSeconds: options.leaseSeconds ?? DEFAULT_LEASE_SECONDS,
      retryDelaySeconds: options.retryDelaySeconds ?? DEFAULT_RETRY_DELAY_SECONDS,
    });
  }

  get(kind: string): JobKind | undefined {
    return this.kinds.get(kind);
  }

  names(): string[] {
    return [...this.kinds.keys()];
  }

  recurring(): JobKind[] {
    return [...this.kinds.values()].filter((k) => k.everySeconds !== undefined);
  }
}

/** The kinds the server's worker runs (server/jobs/index.ts registers the built-in ones). */
export const jobKinds = new JobKinds();

export function registerJobKind(kind: string, handler: JobHandler, options?: JobKindOptions): void {
  jobKinds.register(kind, handler, options);
}
