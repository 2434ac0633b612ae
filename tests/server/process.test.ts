import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PasswordHasher } from "../../server/auth/passwords";
import { LOCK_FILE_NAME } from "../../server/db/lock";
import { createSuperAdmin } from "../../server/seed/admin";
import { seedDemo, SeedRefusedError } from "../../server/seed/demo";
import { createPostgresDatabase, createTestDatabase, describeOnDatabases, testDatabaseKinds } from "../helpers/db";
import { startTestServer, type TestServer } from "../helpers/server";
import { TEST_PASSWORD_COST, createTestApp } from "./support";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

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
      let output = "";
      const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no start within 60 s:\n${output}`)), 60_000);
        const onData = (d: Buffer) => {
          output += String(d);
          const match = /running on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
          if (match && output.includes("schoolv1")) {
            clearTimeout(timer);
            resolve(match[1]);
          }
        };
        child.stdout.on("data", onData);
        child.stderr.on("data", onData);
      });
      expect(output).toContain("Seeded the demo data.");
      expect(output).toMatch(/sysadmin\s+demo1234\s+system/);
      expect((await weapi(url, "adminapi", { method: "login", username: "pickup", password: "demo1234" })).body.return_code).toBe("SUCCESS");
      expect(fs.existsSync(path.join(dataDir, LOCK_FILE_NAME))).toBe(true);
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
      expect(fs.existsSync(path.join(dataDir, LOCK_FILE_NAME))).toBe(false);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe("the embedded data directory", () => {
  let dataDir: string;
  let server: TestServer;
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cpc-lock-"));
    server = await startTestServer({ dataDir, passwordCost: TEST_PASSWORD_COST, staticDir: null });
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("serves the real app over HTTP with the demo data seeded", async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.server.seeded).toBe(true);
    const login = await weapi(server.url, "adminapi", { method: "login", username: "sysadmin", password: "demo1234" });
    expect(login.status).toBe(200);
    expect(login.body.return_code).toBe("SUCCESS");
    const info = await weapi(server.url, "adminapi", { method: "getuserinfo" }, login.body.data.token);
    expect(info.body.data.items.roles).toEqual(["systemv2", "superadminv2"]);
  });

  it("refuses a second server process on the same directory, naming it and the owner", async () => {
    expect(fs.readFileSync(path.join(dataDir, LOCK_FILE_NAME), "utf8")).toBe(String(process.pid));
    const second = await runMain({ DATA_DIR: dataDir, PORT: "0", HOST: "127.0.0.1" });
    expect(second.code).toBe(2);
    expect(second.output).toContain(`The data directory ${dataDir} is in use by another server process (pid ${process.pid})`);
    // the first server still works
    expect((await weapi(server.url, "adminapiv2", { method: "getwebsetinfo" })).body.return_code).toBe("SUCCESS");
  });

  it("keeps the data across restarts and releases the lock on close", async () => {
    await server.close();
    expect(fs.existsSync(path.join(dataDir, LOCK_FILE_NAME))).toBe(false);
    server = await startTestServer({ dataDir, passwordCost: TEST_PASSWORD_COST, staticDir: null });
    expect(server.server.seeded).toBe(false);
    expect(server.server.demoAccounts).toBe(true);
    expect((await weapi(server.url, "adminapi", { method: "login", username: "svc", password: "demo1234" })).body.return_code).toBe("SUCCESS");
  });

  it("takes over a lock left by a process that is gone", async () => {
    const otherDir = fs.mkdtempSync(path.join(os.tmpdir(), "cpc-stale-"));
    const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
    fs.writeFileSync(path.join(otherDir, LOCK_FILE_NAME), dead.stdout);
    const stale = await startTestServer({ dataDir: otherDir, seedDemo: false, staticDir: null });
    try {
      expect(fs.readFileSync(path.join(otherDir, LOCK_FILE_NAME), "utf8")).toBe(String(process.pid));
    } finally {
      await stale.close();
      fs.rmSync(otherDir, { recursive: true, force: true });
    }
  });
});

// defined only when a PostgreSQL server is given (CI always gives one: see testDatabaseKinds)
if (testDatabaseKinds().includes("postgres")) describe("the server on PostgreSQL", () => {
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

describeOnDatabases("seed and create-admin", (kind) => {
  it("refuses to seed a database that has users", async () => {
    const testDb = await createTestDatabase(kind);
    try {
      const hasher = new PasswordHasher(TEST_PASSWORD_COST);
      await seedDemo(testDb.database.db, { hasher, now: new Date() });
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
