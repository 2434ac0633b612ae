/**
 * What operators watch, in Prometheus's text format (GET /metrics, ./routes.ts). Two kinds of figures:
 *
 * - this process's counters (requests and their latency per operation, errors, payments applied), kept in one
 *   registry for the process as Prometheus expects: with several processes, a query sums their series;
 * - the database's state, read when scraped (jobs waiting and the age of the oldest due one, notices and print
 *   jobs waiting, refunds by state, the connections): the same from every process, so a query takes one (`max`).
 */
import type { FastifyInstance } from "fastify";
import { sql } from "drizzle-orm";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { queryRows, type Db, type DatabaseConnections } from "../db/client";

const processRegistry = new Registry();
// the process's memory, CPU, event loop lag and handles, under Prometheus's usual names
collectDefaultMetrics({ register: processRegistry });

/** `operation`: a /weapi/ call's `path.method`, else the route's pattern; `outcome`: the envelope's or the status's */
const requests = new Counter({
  name: "cpc_requests_total",
  help: "Requests answered, by operation and outcome (the envelope's return_code for /weapi/, the status class elsewhere)",
  labelNames: ["operation", "outcome"] as const,
  registers: [processRegistry],
});

const requestSeconds = new Histogram({
  name: "cpc_request_duration_seconds",
  help: "Time from a request's arrival to its answer, by operation",
  labelNames: ["operation"] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.2, 0.5, 1, 2.5, 5, 10],
  registers: [processRegistry],
});

const errors = new Counter({
  name: "cpc_errors_total",
  help: "Requests that failed inside the server (a system error answered, or a status of 500 and above), by operation",
  labelNames: ["operation"] as const,
  registers: [processRegistry],
});

const paymentsApplied = new Counter({
  name: "cpc_payments_applied_total",
  help: "Payments applied to their orders by this process, by payment kind and gateway",
  labelNames: ["kind", "gateway"] as const,
  registers: [processRegistry],
});

/** How a request ended, for the counters. */
export interface AnsweredRequest {
  operation: string;
  outcome: string;
  seconds: number;
  /** a system error or a 5xx */
  failed: boolean;
}

export function countRequest(answered: AnsweredRequest): void {
  requests.inc({ operation: answered.operation, outcome: answered.outcome });
  requestSeconds.observe({ operation: answered.operation }, answered.seconds);
  if (answered.failed) errors.inc({ operation: answered.operation });
}

export function countPaymentApplied(kind: string, gateway: string): void {
  paymentsApplied.inc({ kind, gateway });
}

export interface DatabaseMetricsSource {
  db: Db;
  connections(): DatabaseConnections;
  now(): Date;
}

/** The database's figures, read at each scrape into a registry of the app's own. */
function databaseRegistry(source: DatabaseMetricsSource): Registry {
  const registry = new Registry();
  const { db } = source;

  new Gauge({
    name: "cpc_jobs",
    help: "Background jobs queued, running or failed (a failed one is kept thirty days), by kind and status",
    labelNames: ["kind", "status"] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const rows = await queryRows<{ kind: string; status: string; n: number }>(
        db,
        sql`select kind, status, count(*)::int as n from jobs where status in ('queued', 'running', 'failed') group by kind, status`,
      );
      for (const row of rows) this.set({ kind: row.kind, status: row.status }, row.n);
    },
  });

  new Gauge({
    name: "cpc_jobs_oldest_due_seconds",
    help: "How long the oldest due job has waited to be run, by kind (0 when none waits)",
    labelNames: ["kind"] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const now = source.now();
      const rows = await queryRows<{ kind: string; oldest: string | Date }>(
        db,
        sql`select kind, min(run_at) as oldest from jobs where status = 'queued' and run_at <= ${now} group by kind`,
      );
      for (const row of rows) this.set({ kind: row.kind }, Math.max(0, (now.getTime() - new Date(row.oldest).getTime()) / 1000));
    },
  });

  new Gauge({
    name: "cpc_notices_waiting",
    help: "Notices (reminders, reports, payment notices) not sent yet, by status",
    labelNames: ["status"] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const rows = await queryRows<{ status: string; n: number }>(db, sql`select status, count(*)::int as n from notices where status in ('queued', 'sending') group by status`);
      for (const status of ["queued", "sending"]) this.set({ status }, rows.find((row) => row.status === status)?.n ?? 0);
    },
  });

  new Gauge({
    name: "cpc_print_jobs_waiting",
    help: "Receipts not printed yet, by status",
    labelNames: ["status"] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const rows = await queryRows<{ status: string; n: number }>(db, sql`select status, count(*)::int as n from print_jobs where status in ('queued', 'sent') group by status`);
      for (const status of ["queued", "sent"]) this.set({ status }, rows.find((row) => row.status === status)?.n ?? 0);
    },
  });

  new Gauge({
    name: "cpc_refunds",
    help: "Refunds by status",
    labelNames: ["status"] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const rows = await queryRows<{ status: string; n: number }>(db, sql`select status, count(*)::int as n from refunds group by status`);
      for (const row of rows) this.set({ status: row.status }, row.n);
    },
  });

  new Gauge({
    name: "cpc_database_connections",
    help: "This process's connections to the database (idle, in all) and the queries waiting for one",
    labelNames: ["state"] as const,
    registers: [registry],
    collect() {
      const connections = source.connections();
      this.set({ state: "total" }, connections.total);
      this.set({ state: "idle" }, connections.idle);
      this.set({ state: "waiting" }, connections.waiting);
    },
  });

  return registry;
}

/** The text GET /metrics answers: the process's figures and the database's, read now. */
export function metricsReader(source: DatabaseMetricsSource): { contentType: string; read(): Promise<string> } {
  const merged = Registry.merge([processRegistry, databaseRegistry(source)]);
  return { contentType: merged.contentType, read: () => merged.metrics() };
}

declare module "fastify" {
  interface FastifyRequest {
    /** what the request counters name it by and how it ended, when the handler knows better than the route */
    answered?: { operation: string; outcome: string; failed: boolean };
  }
}

/** Counts every request when it is answered (its route's pattern, or what its handler set on `answered`). */
export function countRequests(app: FastifyInstance): void {
  app.decorateRequest("answered", undefined);
  app.addHook("onResponse", (request, reply, done) => {
    const status = reply.statusCode;
    const answered = request.answered;
    countRequest({
      operation: answered?.operation ?? request.routeOptions.url ?? "unrouted",
      outcome: answered?.outcome ?? `${Math.floor(status / 100)}xx`,
      seconds: reply.elapsedTime / 1000,
      failed: (answered?.failed ?? false) || status >= 500,
    });
    done();
  });
}
