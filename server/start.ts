/**
 * Starting and stopping the whole server: database (with migrations and, on a new embedded database, the demo
 * seed), the app, and the listening socket. server/main.ts and the tests' startTestServer both use it.
 */
import type { FastifyInstance } from "fastify";
import { PasswordHasher } from "./auth/passwords";
import { openDatabase, type Database, type DatabaseTarget } from "./db/client";
import { buildApp, type AppOptions } from "./protocol/app";
import { systemClock } from "./lib/clock";
import { hasDemoAccounts, seedDemo, userCount } from "./seed/demo";
import { storeDemoPictures } from "./seed/goodsImages";

export interface ServerOptions extends Omit<AppOptions, "db"> {
  database: DatabaseTarget;
  port: number;
  host: string;
  /** seed the demo data when there are no users yet; default: on for the embedded database, off for PostgreSQL */
  seedDemo?: boolean;
}

export interface RunningServer {
  app: FastifyInstance;
  database: Database;
  /** the address the server listens on, e.g. http://127.0.0.1:8080 */
  url: string;
  /** PUBLIC_URL, or `url` */
  publicUrl: string;
  /** whether this start seeded the demo data */
  seeded: boolean;
  /** whether the demo accounts exist (seeded now or before) */
  demoAccounts: boolean;
  /** closes the app, then the database (releasing the data directory lock); safe to call twice */
  close(): Promise<void>;
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const database = await openDatabase(options.database);
  let app: FastifyInstance | undefined;
  try {
    const clock = options.clock ?? systemClock;
    const shouldSeed = options.seedDemo ?? options.database.kind !== "postgres";
    let seeded = false;
    if (shouldSeed && (await userCount(database.db)) === 0) {
      await seedDemo(database.db, { hasher: new PasswordHasher(options.passwordCost), now: clock.now() });
      seeded = true;
    }
    const demoAccounts = seeded || (await hasDemoAccounts(database.db));
    // the embedded database keeps its payment key file beside its data unless PAYMENT_KEY is given
    const keyFileDir = options.database.kind === "pglite" ? options.database.dataDir : undefined;
    app = await buildApp({ ...options, db: database.db, clock, paymentKey: { keyFileDir, ...options.paymentKey }, databaseConnections: database.connections });
    // the demo goods' pictures in this server's upload store: seeded now, or a copy of the demo's data whose store
    // lacks them (those there already are left as they are)
    if (demoAccounts) await storeDemoPictures(app.uploadStorage);
    await app.listen({ port: options.port, host: options.host });
    // background jobs (closing unpaid orders...): stopped by app.close()
    if (options.jobs?.poll !== false) app.jobs.start();
    const address = app.server.address();
    const port = typeof address === "object" && address ? address.port : options.port;
    const shownHost = options.host === "0.0.0.0" || options.host === "::" ? "localhost" : options.host;
    const url = `http://${shownHost.includes(":") ? `[${shownHost}]` : shownHost}:${port}`;
    let closing: Promise<void> | undefined;
    const running: RunningServer = {
      app,
      database,
      url,
      publicUrl: options.publicUrl ?? url,
      seeded,
      demoAccounts,
      close() {
        closing ??= (async () => {
          try {
            await running.app.close();
          } finally {
            await database.close();
          }
        })();
        return closing;
      },
    };
    return running;
  } catch (err) {
    await app?.close();
    await database.close();
    throw err;
  }
}
