/**
 * The database behind one drizzle `Db`: embedded PGlite (default; a data directory, or in memory for tests)
 * or PostgreSQL through a node-postgres Pool when a URL is given. Migrations are applied on open.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { PGlite } from "@electric-sql/pglite";
import type { SQL } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import * as schema from "./schema";
import { acquireDataDirLock, type DataDirLock } from "./lock";
import { keepPreparedStatements } from "./pgliteStatements";
import { takeTurns } from "./pgliteTurns";
import { PipelinedReads } from "./pipelinedReads";
import { createPlannerStatistics } from "./plannerStatistics";
import { installStateTotals } from "./stateTotals";
import { entities } from "../../resources.config";

export type Schema = typeof schema;
/** The drizzle database used by all server code, whichever driver is underneath. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction or the database itself. */
export type DbOrTx = Parameters<Parameters<Db["transaction"]>[0]>[0] | Db;

/**
 * A read whose rows come as arrays of the database's text (the statement casts every value to text), neither parsed
 * nor made objects: a list's page, which server/engine/listPage.ts writes into the answer's JSON. Prepared by name
 * on PostgreSQL and sent on pipelined connections (pipelinedReads.ts), kept by its text on PGlite
 * (pgliteStatements.ts).
 */
export type TextRowsReader = (name: string, text: string, params: unknown[]) => Promise<(string | null)[][]>;
const textRowsReaders = new WeakMap<object, TextRowsReader>();

/** The database's reader of text rows; none for a transaction, whose reads go through its own connection. */
export function textRowsReader(db: DbOrTx): TextRowsReader | undefined {
  return textRowsReaders.get(db);
}

export const MIGRATIONS_FOLDER = fileURLToPath(new URL("./migrations", import.meta.url));

export type DatabaseTarget =
  | { kind: "pglite"; dataDir: string }
  /** in memory; `image`: started from a data directory image (dumpDataDir's tarball) instead of an empty one */
  | { kind: "memory"; image?: Blob }
  /**
   * `pooler: "transaction"`: the URL is a pooler in transaction mode (PgBouncer), which gives each transaction
   * whichever server connection is free: statements are sent unnamed (a named one prepared on one connection is
   * unknown on the next), and the list pages read through the pool instead of pipelined connections of their own
   */
  | { kind: "postgres"; url: string; poolSize?: number; pooler?: "transaction" };

export interface Database {
  db: Db;
  driver: "pglite" | "postgres";
  /** where the data lives, for messages (a directory, "memory" or the URL without its password) */
  location: string;
  close(): Promise<void>;
  /** the embedded database's data directory as a tarball, which `{kind: "memory", image}` starts from (PGlite only) */
  dumpDataDir?(): Promise<Blob>;
  /** the connections to the database now (GET /metrics) */
  connections(): DatabaseConnections;
}

/**
 * PostgreSQL: the pool's connections (the list pages' pipelined ones apart); embedded: its one connection, and the
 * statements waiting for their turn on it.
 */
export interface DatabaseConnections {
  total: number;
  idle: number;
  /** queries waiting for a connection */
  waiting: number;
}

/** Drops the name of every statement the connection is asked to prepare (drizzle's prepared queries). */
function sendStatementsUnnamed(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((config: unknown, ...rest: unknown[]) => {
    if (typeof config === "object" && config !== null && "name" in config) {
      const { name: _name, ...unnamed } = config as Record<string, unknown>;
      return query(unnamed, ...rest);
    }
    return query(config, ...rest);
  }) as typeof client.query;
}

function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "postgres";
  }
}

export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  if (target.kind === "postgres") {
    const pool = new pg.Pool({ connectionString: target.url, max: target.poolSize ?? 10 });
    // an idle connection that breaks (database restart, terminated backend) leaves the pool, and the next query
    // opens a new one; without a listener the error would end the process
    pool.on("error", () => undefined);
    if (target.pooler === "transaction") pool.on("connect", sendStatementsUnnamed);
    const db = drizzlePg(pool, { schema });
    try {
      await migratePg(db, { migrationsFolder: MIGRATIONS_FOLDER });
      await createPlannerStatistics(db);
      await installStateTotals(db, entities);
    } catch (err) {
      await pool.end();
      throw err;
    }
    const reads = target.pooler === "transaction" ? undefined : new PipelinedReads(target.url);
    textRowsReaders.set(
      db,
      reads
        ? (name, text, params) => reads.read(name, text, params)
        : async (_name, text, params) => (await pool.query<(string | null)[]>({ text, values: params, rowMode: "array" })).rows,
    );
    const close = async () => {
      await reads?.close();
      await pool.end();
    };
    const connections = () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount });
    return { db, driver: "postgres", location: redactUrl(target.url), close, connections };
  }

  let lock: DataDirLock | undefined;
  let client: PGlite;
  if (target.kind === "pglite") {
    const dataDir = path.resolve(target.dataDir);
    lock = acquireDataDirLock(dataDir);
    try {
      const pgdata = path.join(dataDir, "pgdata");
      await initialiseDataDir(pgdata);
      client = await PGlite.create({ dataDir: pgdata });
    } catch (err) {
      lock.release();
      throw err;
    }
  } else {
    client = await PGlite.create(target.image ? { loadDataDir: target.image } : {});
  }
  keepPreparedStatements(client);
  const turns = takeTurns(client);
  const db = drizzlePglite(client, { schema });
  const close = async () => {
    try {
      await client.close();
    } finally {
      lock?.release();
    }
  };
  try {
    await migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER });
    await createPlannerStatistics(db);
    await installStateTotals(db, entities);
  } catch (err) {
    await close();
    throw err;
  }
  textRowsReaders.set(db, async (_name, text, params) => (await client.query<(string | null)[]>(text, params, { rowMode: "array" })).rows);
  return {
    db,
    driver: "pglite",
    location: target.kind === "pglite" ? path.resolve(target.dataDir) : "memory",
    close,
    dumpDataDir: () => client.dumpDataDir("none"),
    connections: () => ({ total: 1, idle: turns.waiting() === 0 ? 1 : 0, waiting: turns.waiting() }),
  };
}

const PGLITE_MODULE = createRequire(import.meta.url).resolve("@electric-sql/pglite");
const INITDB_SCRIPT = `
const { PGlite } = require(process.argv[1]);
PGlite.create({ dataDir: process.argv[2] })
  .then((db) => db.close())
  .catch((err) => { console.error(err); process.exit(1); });
`;

/**
 * A new data directory is made by initdb, a WebAssembly program of its own whose memory (over 400 MB) would stay
 * with the process that ran it for its whole life. So it runs in a short-lived child process, and the server opens
 * the initialised directory with nothing of initdb in its memory.
 */
async function initialiseDataDir(pgdata: string): Promise<void> {
  if (fs.existsSync(path.join(pgdata, "PG_VERSION"))) return;
  try {
    await promisify(execFile)(process.execPath, ["-e", INITDB_SCRIPT, PGLITE_MODULE, pgdata], { timeout: 300_000 });
  } catch (err) {
    const stderr = (err as { stderr?: string }).stderr?.trim();
    throw new Error(`could not initialise the embedded database in ${pgdata}${stderr ? `: ${stderr}` : ""}`, { cause: err });
  }
}

/** Rows of a raw SQL query, whichever driver runs it (both answer with `rows`). */
export async function queryRows<T extends Record<string, unknown>>(db: DbOrTx, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as { rows: T[] };
  return result.rows;
}
