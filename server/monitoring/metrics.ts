/**
 * What operators watch, in Prometheus's text format (GET /metrics, ./routes.ts), first part: this process's
 * counters (requests and their latency per operation, errors, payments applied), kept in one registry for the
 * process as Prometheus expects: with several processes, a query sums their series. The database's state is read
 * when scraped (./databaseMetrics.ts). Nothing here touches the database, so any module may count.
 */
import type { FastifyInstance } from "fastify";
import { collectDefaultMetrics, Counter, Histogram, Registry } from "prom-client";

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
interface AnsweredRequest {
  operation: string;
  outcome: string;
  seconds: number;
  /** a system error or a 5xx */
  failed: boolean;
}

function countRequest(answered: AnsweredRequest): void {
  requests.inc({ operation: answered.operation, outcome: answered.outcome });
  requestSeconds.observe({ operation: answered.operation }, answered.seconds);
  if (answered.failed) errors.inc({ operation: answered.operation });
}

export function countPaymentApplied(kind: string, gateway: string): void {
  paymentsApplied.inc({ kind, gateway });
}

/** The process's figures, for GET /metrics (./routes.ts merges the database's into them). */
export function processMetrics(): Registry {
  return processRegistry;
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
