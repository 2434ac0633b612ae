/**
 * startTestServer: the real server (server/start.ts, the code path of server/main.ts) on 127.0.0.1 with a port
 * chosen at run time, an embedded database in a temporary directory (or the given PostgreSQL URL), serving
 * dist/ when it has been built. Used by the browser tests and the bench.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { PasswordCost } from "../../server/auth/passwords";
import type { AppOptions } from "../../server/protocol/app";
import { startServer, type RunningServer } from "../../server/start";

export interface TestServerOptions {
  /** embedded data directory; default a new temporary one, removed on close */
  dataDir?: string;
  /** use this PostgreSQL database instead of the embedded one */
  databaseUrl?: string;
  /** the URL is a pooler in transaction mode (PgBouncer) */
  databasePooler?: "transaction";
  /** the port to listen on (default one chosen at run time) */
  port?: number;
  /** seed the demo data into an empty database (default true) */
  seedDemo?: boolean;
  /** the built SPA (default dist/ of the project; null: API only) */
  staticDir?: string | null;
  /** default: the production cost */
  passwordCost?: PasswordCost;
  /** default: the production limit; false turns it off (benchmarks) */
  rateLimit?: AppOptions["rateLimit"];
  sessionLifetime?: AppOptions["sessionLifetime"];
  /** take the client's address from X-Forwarded-For, as behind a reverse proxy (many phones from one machine) */
  trustProxy?: boolean;
  /** WeChat's OAuth addresses: a stand-in's */
  wechatOAuth?: AppOptions["wechatOAuth"];
  /** enterprise WeChat's API: a stand-in's (tests/helpers/fakeWorkWechat.ts) */
  workWechatOrigin?: string;
  /** the server's clock (default the real one): a seeded image's time, for a server started on it */
  clock?: AppOptions["clock"];
  /** `{ poll: false }`: no background job runs (figures compared across servers stay as they were) */
  jobs?: AppOptions["jobs"];
}

export interface TestServer {
  /** e.g. http://127.0.0.1:40123 */
  url: string;
  server: RunningServer;
  close(): Promise<void>;
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const ownDataDir = !options.databaseUrl && !options.dataDir ? fs.mkdtempSync(path.join(os.tmpdir(), "cpc-test-")) : undefined;
  const dataDir = options.dataDir ?? ownDataDir;
  try {
    const server = await startServer({
      database: options.databaseUrl ? { kind: "postgres", url: options.databaseUrl, pooler: options.databasePooler } : { kind: "pglite", dataDir: dataDir! },
      port: options.port ?? 0,
      host: "127.0.0.1",
      seedDemo: options.seedDemo ?? true,
      staticDir: options.staticDir,
      passwordCost: options.passwordCost,
      rateLimit: options.rateLimit,
      sessionLifetime: options.sessionLifetime,
      trustProxy: options.trustProxy,
      wechatOAuth: options.wechatOAuth,
      workWechatOrigin: options.workWechatOrigin,
      jobs: options.jobs,
      clock: options.clock,
      logger: false,
    });
    return {
      url: server.url,
      server,
      async close() {
        await server.close();
        if (ownDataDir) fs.rmSync(ownDataDir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    if (ownDataDir) fs.rmSync(ownDataDir, { recursive: true, force: true });
    throw err;
  }
}

type Envelope = { return_code: string; return_msg: string; data?: Record<string, unknown> };

/** One /weapi/ call to a running server, as a client outside the browser makes it. */
export async function api(baseUrl: string, path: string, method: string, payload: Record<string, unknown> = {}, token?: string): Promise<Envelope> {
  const res = await fetch(`${baseUrl}/weapi/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { "x-token": token } : {}) },
    body: JSON.stringify({ method, ...payload }),
  });
  return (await res.json()) as Envelope;
}

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/**
 * server/main.ts in a Node process of its own, as an operator starts it, on 127.0.0.1 and a port chosen at run time
 * (`env` adds the database and the rest): resolves once it listens, rejects if it ends before.
 */
export function startServerProcess(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
    cwd: ROOT,
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "warn", ...env },
  });
  return new Promise((resolve, reject) => {
    let output = "";
    const onData = (chunk: Buffer) => {
      output += String(chunk);
      const match = /running on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) resolve({ child, url: match[1] });
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("exit", (code) => reject(new Error(`the server process ended (${code}) before it listened:\n${output}`)));
  });
}
