import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PasswordHasher } from "../../server/auth/passwords";
import { acquireDataDirLock, DataDirLockedError, dataDirLockOwner, LOCK_DIR_NAME } from "../../server/db/lock";
import { createSuperAdmin } from "../../server/seed/admin";
import { seedDemo, SeedRefusedError } from "../../server/seed/demo";
import { createPostgresDatabase, createTestDatabase, describeOnEmbedded, describeOnPostgres, seededServerDatabase } from "../helpers/db";
import { startTestServer, type TestServer } from "../helpers/server";
import { TEST_PASSWORD_COST, createTestApp } from "./support";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const LOCK_RACER = fileURLToPath(new URL("./fixtures/lockRacer.ts", import.meta.url));

/** a test that starts a server process seeding the demo data waits this long at most */
const SEEDING_PROCESS_TIMEOUT_MS = 120_000;

/** Polls until the condition holds (or fails after the timeout). */
async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Resolves with the server's address once the process prints it. */
function runningUrl(child: ChildProcess, output: { text: string }): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start within 60 s:\n${output.text}`)), 60_000);
    const onData = (d: Buffer) => {
      output.text += String(d);
      const match = /running on (http:\/\/127\.0\.0\.1:\d+)/.exec(output.text);
      if (match && output.text.includes("schoolv1")) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
  });
}

async function answers(url: string): Promise<boolean> {
  try {
    await fetch(`${url}/weapi/adminapiv2`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"method":"getwebsetinfo"}' });
    return true;
  } catch {
    return false;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function weapi(url: string, path: string, body: Record<string, unknown>, token?: string) {
  const res = await fetch(`${url}/weapi/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { "x-token": token } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

/** Runs server/main.ts in a child process until it exits (or the timeout). */
function runMain(env: Record<string, string>, timeoutMs = 30_000): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], { cwd: ROOT, env: { ...process.env, ...env } });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    const timer = setTimeout(() => child.kill("SIGTERM"), timeoutMs);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe("server/main.ts", () => {
  it("starts with the demo data, prints the address and accounts, and stops cleanly on SIGTERM", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cpc-main-"));
    try {
      const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
        cwd: ROOT,
        env: { ...process.env, DATA_DIR: dataDir, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "warn" },
      });
      const output = { text: "" };
      const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
      const url = await runningUrl(child, output);
      expect(output.text).toContain("Seeded the demo data.");
      expect(output.text).toMatch(/sysadmin\s+demo1234\s+system/);
      expect((await weapi(url, "adminapi", { method: "login", username: "pickup", password: "demo1234" })).body.return_code).toBe("SUCCESS");
      expect(dataDirLockOwner(dataDir)).toBe(child.pid);
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
      expect(dataDirLockOwner(dataDir)).toBeNull();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    // a process seeding the whole demo (its shop included): about 30 s on a busy machine; not what is tested
  }, SEEDING_PROCESS_TIMEOUT_MS);
});

// the directories below start from a copy of the seeded demo: seeding on a first start is the test above's
describe("the embedded data directory", () => {
  let seeded: Awaited<ReturnType<typeof seededServerDatabase>>;
  let dataDir: string;
  let server: TestServer;
  beforeAll(async () => {
    seeded = await seededServerDatabase("pglite");
    dataDir = seeded.dataDir!;
    server = await startTestServer({ dataDir, passwordCost: TEST_PASSWORD_COST, staticDir: null });
  });
  afterAll(async () => {
    await server?.close();
    await seeded?.dispose();
  });

  it("serves the real app over HTTP on the data it finds, without seeding it again", async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.server.seeded).toBe(false);
    expect(server.server.demoAccounts).toBe(true);
    const login = await weapi(server.url, "adminapi", { method: "login", username: "sysadmin", password: "demo1234" });
    expect(login.status).toBe(200);
    expect(login.body.return_code).toBe("SUCCESS");
    const info = await weapi(server.url, "adminapi", { method: "getuserinfo" }, login.body.data.token);
    expect(info.body.data.items.roles).toEqual(["systemv2", "superadminv2"]);
  });

  it("refuses a second server process on the same directory, naming it and the owner", async () => {
    expect(dataDirLockOwner(dataDir)).toBe(process.pid);
    const second = await runMain({ DATA_DIR: dataDir, PORT: "0", HOST: "127.0.0.1" });
    expect(second.code).toBe(2);
    expect(second.output).toContain(`The data directory ${dataDir} is in use by another server process (pid ${process.pid})`);
    // the first server still works
    expect((await weapi(server.url, "adminapiv2", { method: "getwebsetinfo" })).body.return_code).toBe("SUCCESS");
  });

  it("keeps the data across restarts and releases the lock on close", async () => {
    await server.close();
    expect(dataDirLockOwner(dataDir)).toBeNull();
    server = await startTestServer({ dataDir, passwordCost: TEST_PASSWORD_COST, staticDir: null });
    expect(server.server.seeded).toBe(false);
    expect(server.server.demoAccounts).toBe(true);
    expect((await weapi(server.url, "adminapi", { method: "login", username: "svc", password: "demo1234" })).body.return_code).toBe("SUCCESS");
  });

  it("takes over a lock left by a process that is gone", async () => {
    const otherDir = fs.mkdtempSync(path.join(os.tmpdir(), "cpc-stale-"));
    const killed = spawnSync(process.execPath, ["--import", "tsx", LOCK_RACER, "stale", otherDir], { cwd: ROOT, encoding: "utf8" });
    expect(killed.status, killed.stderr).toBe(0);
    expect(dataDirLockOwner(otherDir)).toBeNull();
    const stale = await startTestServer({ dataDir: otherDir, seedDemo: false, staticDir: null });
    try {
      expect(dataDirLockOwner(otherDir)).toBe(process.pid);
    } finally {
      await stale.close();
      fs.rmSync(otherDir, { recursive: true, force: true });
    }
  });
});

describe("the data directory lock", () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cpc-lock-"));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("goes to exactly one of several processes started at the same moment on a stale lock, every time", async () => {
    const ROUNDS = 50;
    const RACERS = 6;
    const folder = tempDir();
    const roundDirs = Array.from({ length: ROUNDS }, (_, r) => path.join(folder, `round-${r}`));
    const killed = spawnSync(process.execPath, ["--import", "tsx", LOCK_RACER, "stale", ...roundDirs], { cwd: ROOT, encoding: "utf8" });
    expect(killed.status, killed.stderr).toBe(0);
    const fifos = Array.from({ length: ROUNDS + 1 }, (_, r) => path.join(folder, `go-${r}`));
    expect(spawnSync("mkfifo", fifos).status).toBe(0);

    const lines: string[][] = [];
    const racers = Array.from({ length: RACERS }, (_, i) => {
      const child = spawn(process.execPath, ["--import", "tsx", LOCK_RACER, "race", folder, String(ROUNDS)], { cwd: ROOT });
      lines.push([]);
      let pending = "";
      child.stdout.on("data", (d) => {
        const parts = (pending + String(d)).split("\n");
        pending = parts.pop()!;
        lines[i].push(...parts);
      });
      child.stderr.on("data", (d) => lines[i].push(`stderr ${String(d)}`));
      return child;
    });
    const exited = Promise.all(racers.map((child) => new Promise((resolve) => child.on("exit", resolve))));
    try {
      /** wakes every racer waiting on the round's FIFO (opening its write end releases all readers at once) */
      const start = async (r: number) => {
        await until(() => lines.every((l) => l.includes(`ready ${r}`)), `every racer at round ${r}:\n${lines.flat().join("\n")}`);
        let fd = -1;
        await until(() => {
          try {
            fd = fs.openSync(fifos[r], fs.constants.O_WRONLY | fs.constants.O_NONBLOCK);
            return true;
          } catch {
            return false;
          }
        }, `the readers of ${fifos[r]}`);
        return fd;
      };
      for (let r = 0; r < ROUNDS; r++) {
        const fd = await start(r);
        const answer = (l: string[]) => l.find((line) => line === `acquired ${r}` || line.startsWith(`refused ${r} `));
        await until(() => lines.every((l) => answer(l) !== undefined), `every answer of round ${r}`);
        fs.closeSync(fd);
        const winners = racers.filter((_, i) => answer(lines[i]) === `acquired ${r}`);
        expect(winners.map((c) => c.pid), `round ${r}`).toHaveLength(1);
        const refusal = `refused ${r} The data directory ${roundDirs[r]} is in use by another server process (pid ${winners[0].pid})`;
        for (const l of lines) if (answer(l) !== `acquired ${r}`) expect(answer(l)).toContain(refusal);
      }
      fs.closeSync(await start(ROUNDS));
      await exited;
      for (const dir of roundDirs) expect(dataDirLockOwner(dir)).toBeNull();
    } finally {
      for (const child of racers) child.kill("SIGKILL");
    }
  });

  it("refuses a second lock in the same process, and treats its own pid in a lock it does not hold as stale", () => {
    const dir = tempDir();
    const lock = acquireDataDirLock(dir);
    expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);
    lock.release();
    // a restarted container's server often gets the pid the killed one had
    fs.writeFileSync(path.join(dir, LOCK_DIR_NAME, "7"), String(process.pid));
    const again = acquireDataDirLock(dir);
    expect(dataDirLockOwner(dir)).toBe(process.pid);
    again.release();
    expect(dataDirLockOwner(dir)).toBeNull();
  });

  it("takes over the lock file of earlier versions when its process is gone, and refuses while it runs", () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, LOCK_DIR_NAME), String(process.ppid));
    expect(() => acquireDataDirLock(dir)).toThrow(`The data directory ${dir} is in use by another server process (pid ${process.ppid})`);
    const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
    fs.writeFileSync(path.join(dir, LOCK_DIR_NAME), dead.stdout);
    acquireDataDirLock(dir).release();
    expect(fs.statSync(path.join(dir, LOCK_DIR_NAME)).isDirectory()).toBe(true);
  });
});

describe("npm run serve", () => {
  let seeded: Awaited<ReturnType<typeof seededServerDatabase>>;
  let dataDir: string;
  const servers: number[] = [];
  beforeAll(async () => {
    seeded = await seededServerDatabase("pglite");
    dataDir = seeded.dataDir!;
  });
  afterAll(async () => {
    // a server that failed to stop must not outlive the test
    for (const pid of servers) if (isAlive(pid)) process.kill(pid, "SIGKILL");
    await seeded?.dispose();
  });

  /** npm run serve on the test's directory; resolves once the server answers */
  async function serve() {
    const npm = spawn("npm", ["run", "serve"], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "warn", npm_config_update_notifier: "false" },
    });
    const output = { text: "" };
    const exited = new Promise<void>((resolve) => npm.on("exit", () => resolve()));
    const url = await runningUrl(npm, output);
    const server = dataDirLockOwner(dataDir);
    // the server is npm's child, not npm itself
    expect(server).not.toBeNull();
    expect(server).not.toBe(npm.pid);
    servers.push(server!);
    expect(await answers(url)).toBe(true);
    return { npm, url, exited, output };
  }

  it("stops the server when npm alone is sent SIGTERM, releasing the data directory", async () => {
    const { npm, url, exited, output } = await serve();
    npm.kill("SIGTERM");
    await until(async () => !(await answers(url)) && dataDirLockOwner(dataDir) === null, "the server to stop");
    await exited;
    expect(output.text).toContain("SIGTERM received, shutting down");
  });

  it("stops the server when npm is killed outright", async () => {
    const { npm, url } = await serve();
    npm.kill("SIGKILL");
    await until(async () => !(await answers(url)) && dataDirLockOwner(dataDir) === null, "the server to stop");
  });
});

describeOnPostgres("the server on PostgreSQL", () => {
  it("starts on DATABASE_URL without seeding unless asked", async () => {
    const created = await createPostgresDatabase();
    try {
      const plain = await startTestServer({ databaseUrl: created.url, seedDemo: false, staticDir: null });
      expect(plain.server.database.driver).toBe("postgres");
      expect(plain.server.seeded).toBe(false);
      await plain.close();
      const seeded = await startTestServer({ databaseUrl: created.url, passwordCost: TEST_PASSWORD_COST, staticDir: null });
      expect(seeded.server.seeded).toBe(true);
      expect((await weapi(seeded.url, "adminapi", { method: "login", username: "school", password: "demo1234" })).body.return_code).toBe("SUCCESS");
      await seeded.close();
    } finally {
      await created.drop();
    }
  });
});

describeOnEmbedded("seed and create-admin", (kind) => {
  it("refuses to seed a database that has users", async () => {
    // the demo seeded once already (the seeded image): a second seed is refused
    const testDb = await createTestDatabase(kind, "seeded");
    try {
      const hasher = new PasswordHasher(TEST_PASSWORD_COST);
      await expect(seedDemo(testDb.database.db, { hasher, now: new Date() })).rejects.toBeInstanceOf(SeedRefusedError);
    } finally {
      await testDb.dispose();
    }
  });

  it("creates a super administrator who logs in with the system keys", async () => {
    const t = await createTestApp(kind, { seed: false });
    try {
      const hasher = new PasswordHasher(TEST_PASSWORD_COST);
      await createSuperAdmin(t.db, hasher, { username: "root", password: "long-secret", name: "Root", servicerVer: "v2" });
      await expect(createSuperAdmin(t.db, hasher, { username: "root", password: "long-secret", name: "Root", servicerVer: "v2" })).rejects.toThrow(/already taken/);
      await expect(createSuperAdmin(t.db, hasher, { username: "shorty", password: "12345", name: "S", servicerVer: "v2" })).rejects.toThrow(/at least 6/);
      const token = await t.login("root", "long-secret");
      const info = await t.call("adminapi", "getuserinfo", {}, { token });
      expect((info.data?.items as { roles: string[] }).roles).toEqual(["systemv2", "superadminv2"]);
    } finally {
      await t.close();
    }
  });
});
