/**
 * The server process: config from the environment, start, print the address (and the demo accounts when
 * present), and shut down cleanly on SIGINT/SIGTERM (or when the npm that started it is gone).
 */
import { configFromEnv } from "./config";
import { DataDirLockedError } from "./db/lock";
import { demoAccountsTable } from "./seed/demo";
import { startServer } from "./start";

const STOP_TIMEOUT_MS = 30_000;

async function main(): Promise<void> {
  const config = configFromEnv();
  let server;
  try {
    server = await startServer({
      database: config.database,
      port: config.port,
      host: config.host,
      publicUrl: config.publicUrl,
      sessionLifetime: { idleMinutes: config.sessionIdleMinutes, maxHours: config.sessionMaxHours },
      logger: { level: config.logLevel },
      trustProxy: config.trustProxy,
      paymentKey: { key: config.paymentKey },
      paymentSandbox: config.paymentSandbox,
      orderMaxFen: config.orderMaxFen,
      notify: config.notify,
      wechatOAuth: config.wechatOAuth,
      printerClouds: config.printerClouds,
      workWechatOrigin: config.workWechatOrigin,
      alipayGateway: config.alipayGateway,
      metricsToken: config.metricsToken,
    });
  } catch (err) {
    if (err instanceof DataDirLockedError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  const running = server;
  console.log(`Campus Pay Console is running on ${running.publicUrl} (database: ${running.database.driver}, ${running.database.location})`);
  if (running.seeded) console.log("Seeded the demo data.");
  if (running.demoAccounts) console.log(`Demo accounts:\n${demoAccountsTable()}`);

  let stopping = false;
  const stop = (reason: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${reason}, shutting down`);
    // requests in flight are answered and the job in hand handed back well within this; a stop that hangs ends here
    setTimeout(() => {
      console.error(`did not stop within ${STOP_TIMEOUT_MS / 1000} s, exiting`);
      process.exit(1);
    }, STOP_TIMEOUT_MS).unref();
    running.close().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(err);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => stop("SIGINT received"));
  process.on("SIGTERM", () => stop("SIGTERM received"));
  if (process.env.npm_lifecycle_event) stopWithParent(() => stop("npm is gone"));
}

/**
 * Started by npm, the server lives as long as npm does: a shell that cannot exec (or an npm killed outright)
 * would otherwise leave it running, holding the port and the data directory.
 */
function stopWithParent(stop: () => void): void {
  const parent = process.ppid;
  const gone = () => {
    if (process.ppid !== parent) return true;
    try {
      process.kill(parent, 0);
      return false;
    } catch (err) {
      return (err as NodeJS.ErrnoException).code !== "EPERM";
    }
  };
  setInterval(() => {
    if (gone()) stop();
  }, 1000).unref();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
