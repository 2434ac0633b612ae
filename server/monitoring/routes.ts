/**
 * What a load balancer and an operator ask the server (docs/operations.md):
 *
 * - GET /healthz: the process is alive and answers (no database read: a slow database must not get every process
 *   restarted at once);
 * - GET /readyz: the process can serve: the database answers, every migration this server knows is applied, the
 *   job worker is running. 503 otherwise, and while the server stops (Fastify answers 503 once closing);
 * - GET /metrics: Prometheus's text (./metrics.ts), only when METRICS_TOKEN is set, to a scraper that sends it as
 *   a bearer token; 404 otherwise, so that the figures of a provider's business never leak by default.
 */
import { timingSafeEqual, createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { MIGRATIONS_FOLDER, queryRows, type DatabaseConnections } from "../db/client";
import type { AppServices } from "../protocol/registry";
import type { JobWorker } from "../jobs";
import { Registry } from "prom-client";
import { databaseMetrics } from "./databaseMetrics";
import { processMetrics } from "./metrics";

export interface MonitoringOptions {
  /** METRICS_TOKEN: GET /metrics answers only with it (as a bearer token); unset, /metrics is not served */
  metricsToken?: string;
  /** the database's connections now; default: unknown (zeros) */
  connections?: () => DatabaseConnections;
}

/** a check that does not answer within this long has failed */
const CHECK_TIMEOUT_MS = 2000;

/** the newest migration this server's code carries (its journal's last entry, as drizzle records it) */
function newestKnownMigration(): number {
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8")) as { entries: { when: number }[] };
  return Math.max(...journal.entries.map((entry) => entry.when));
}

function withinTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error("timed out")), CHECK_TIMEOUT_MS);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

function sameSecret(sent: string, expected: string): boolean {
  // compared as digests: equal lengths, and the time taken tells nothing of the token
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(sent), digest(expected));
}

export function registerMonitoringRoutes(app: FastifyInstance, services: AppServices, jobs: JobWorker, options: MonitoringOptions): void {
  const newestMigration = newestKnownMigration();
  const noStore = { "cache-control": "no-store" };

  app.get("/healthz", async (_request, reply) => reply.headers(noStore).send({ status: "ok" }));

  app.get("/readyz", async (_request, reply) => {
    const checks: Record<string, string> = {};
    try {
      const [applied] = await withinTimeout(
        queryRows<{ newest: string | null }>(services.db, sql`select max(created_at)::text as newest from drizzle.__drizzle_migrations`),
      );
      checks.database = "ok";
      checks.migrations = Number(applied?.newest ?? 0) >= newestMigration ? "ok" : "not applied";
    } catch (err) {
      checks.database = err instanceof Error && err.message === "timed out" ? "timed out" : "unreachable";
      checks.migrations = "unknown";
    }
    checks.jobs = jobs.active ? "ok" : "stopped";
    const ready = Object.values(checks).every((state) => state === "ok");
    return reply.status(ready ? 200 : 503).headers(noStore).send({ status: ready ? "ready" : "not ready", checks });
  });

  const token = options.metricsToken;
  if (!token) return;
  const metrics = Registry.merge([
    processMetrics(),
    databaseMetrics({ db: services.db, connections: options.connections ?? (() => ({ total: 0, idle: 0, waiting: 0 })), now: () => services.clock.now() }),
  ]);
  app.get("/metrics", async (request, reply) => {
    const authorization = request.headers.authorization ?? "";
    const sent = authorization.startsWith("Bearer ") ? authorization.slice("Bearer ".length) : "";
    if (!sent || !sameSecret(sent, token)) {
      return reply.status(401).headers({ ...noStore, "www-authenticate": 'Bearer realm="metrics"' }).send({ status: "unauthorized" });
    }
    return reply.headers({ ...noStore, "content-type": metrics.contentType }).send(await metrics.metrics());
  });
}
