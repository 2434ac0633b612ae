/**
 * What operators watch, second part: the database's state, read when GET /metrics is scraped (jobs waiting and the
 * age of the oldest due one, notices and print jobs waiting, refunds by state) and this process's connections. The
 * first four are the same from every process, so a query takes one of them (`max`).
 */
import { sql } from "drizzle-orm";
import { Gauge, Registry } from "prom-client";
import { queryRows, type Db, type DatabaseConnections } from "../db/client";

export interface DatabaseMetricsSource {
  db: Db;
  connections(): DatabaseConnections;
  now(): Date;
}

/** A gauge of a table's rows in each status still waiting to go out, 0 for a status with none. */
function waitingGauge(registry: Registry, db: Db, name: string, help: string, table: string, statuses: readonly string[]): void {
  new Gauge({
    name,
    help,
    labelNames: ["status"] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const rows = await queryRows<{ status: string; n: number }>(db, sql`select status, count(*)::int as n from ${sql.identifier(table)} where status in ${statuses} group by status`);
      for (const status of statuses) this.set({ status }, rows.find((row) => row.status === status)?.n ?? 0);
    },
  });
}

/** The database's figures, read at each scrape into a registry of the app's own. */
export function databaseMetrics(source: DatabaseMetricsSource): Registry {
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

  waitingGauge(registry, db, "cpc_notices_waiting", "Notices (reminders, reports, payment notices) not sent yet, by status", "notices", ["queued", "sending"]);
  waitingGauge(registry, db, "cpc_print_jobs_waiting", "Receipts not printed yet, by status", "print_jobs", ["queued", "sent"]);

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
