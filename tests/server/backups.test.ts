/**
 * Backups and moving to PostgreSQL (server/maintenance/), through the commands operators run:
 * `npm run backup -- FILE` of the embedded demo install with an uploaded file and its payment key, refused while a
 * server holds the data directory and onto a file that exists; `npm run restore -- FILE` into an empty directory
 * finds every record and file again, never the key, and refuses a directory that is not empty. On PostgreSQL: the
 * embedded install moved into an empty database serves the same accounts and the same money to the fen, with every
 * session revoked and new records numbered after the copied ones; then that database's backup (pg_dump in the
 * figures' snapshot) restored into another empty one.
 */
import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openDatabase, queryRows, type Db } from "../../server/db/client";
import { notices, sessions, users } from "../../server/db/schema";
import { students } from "../../server/db/catalogue.generated";
import { readManifest, restoreBackup } from "../../server/maintenance/backup";
import { LocalUploadStorage } from "../../server/uploads/storage";
import { DEMO_PASSWORD } from "../../server/seed/demo";
import { api, startTestServer, type TestServer } from "../helpers/server";
import { createPostgresDatabase, describeOnEmbedded, describeOnPostgres, seededServerDatabase } from "../helpers/db";
import { TEST_PASSWORD_COST } from "../helpers/databaseImages";

const run = promisify(execFile);
const PAYMENT_KEY = randomBytes(32);
const UPLOADED_KEY = "images/ab/cdef0123.webp";
const UPLOADED_BYTES = randomBytes(3000);
/** each test runs the commands as processes of their own, and the move copies the demo whole */
const COMMAND_TEST_TIMEOUT_MS = 120_000;

/** The maintenance command as an operator runs it: its exit code and what it printed. */
async function command(args: string[], env: Record<string, string>): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", "server/maintenance/cli.ts", ...args], {
      env: { PATH: process.env.PATH ?? "", HOME: os.tmpdir(), ...env },
      timeout: 120_000,
    });
    return { code: 0, output: stdout + stderr };
  } catch (err) {
    const failed = err as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, output: (failed.stdout ?? "") + (failed.stderr ?? "") };
  }
}

/** the demo install of the seeded image in a data directory, with an uploaded file and its payment key file */
async function demoInstall(): Promise<{ dataDir: string; dispose(): Promise<void> }> {
  const install = await seededServerDatabase("pglite");
  const dataDir = install.dataDir!;
  await new LocalUploadStorage(path.join(dataDir, "uploads")).put(UPLOADED_KEY, UPLOADED_BYTES);
  fs.writeFileSync(path.join(dataDir, "payment.key"), `${PAYMENT_KEY.toString("base64")}\n`, { mode: 0o600 });
  return { dataDir, dispose: install.dispose };
}

/** what a reader of the records sees: accounts, pupils, and the money paid and refunded, to the fen */
async function recordsOf(db: Db): Promise<Record<string, unknown>> {
  const [money] = await queryRows<Record<string, string>>(
    db,
    sql`select (select coalesce(sum(amount), 0)::text from fee_orders where paid_at is not null) as paid_fen,
               (select coalesce(sum(amount), 0)::text from refunds) as refunded_fen,
               (select count(*)::text from fee_payments) as payments`,
  );
  return {
    users: (await db.select({ username: users.username, password: users.passwordHash }).from(users).orderBy(users.id)).map((u) => `${u.username} ${u.password}`),
    students: (await db.select({ n: count() }).from(students))[0].n,
    ...money,
  };
}

const temporaryPath = (name: string) => path.join(fs.mkdtempSync(path.join(os.tmpdir(), "cpc-backups-")), name);

describeOnEmbedded("backups of the embedded install", () => {
  let install: { dataDir: string; dispose(): Promise<void> };
  let backupFile: string;
  const restoredDirs: string[] = [];

  beforeAll(async () => {
    install = await demoInstall();
    backupFile = temporaryPath("campus-pay.backup.tar");
  });
  afterAll(async () => {
    await install?.dispose();
    for (const dir of [path.dirname(backupFile), ...restoredDirs]) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("npm run backup writes the database, the uploaded files and the key's fingerprint, never the key, and not while a server runs", async () => {
    // a server holds the data directory: refused, nothing written
    const running = await openDatabase({ kind: "pglite", dataDir: install.dataDir });
    try {
      const refused = await command(["backup", backupFile], { DATA_DIR: install.dataDir });
      expect(refused.code).toBe(2);
      expect(refused.output).toContain("a server is running on");
      expect(fs.existsSync(backupFile)).toBe(false);
    } finally {
      await running.close();
    }

    const made = await command(["backup", backupFile], { DATA_DIR: install.dataDir });
    expect(made.code, made.output).toBe(0);
    const fingerprint = `sha256:${createHash("sha256").update(PAYMENT_KEY).digest("hex").slice(0, 16)}`;
    expect(made.output).toContain(fingerprint);
    const archive = fs.readFileSync(backupFile);
    expect(archive.includes(PAYMENT_KEY.toString("base64"))).toBe(false);
    expect(archive.includes(UPLOADED_BYTES)).toBe(true);

    const again = await command(["backup", backupFile], { DATA_DIR: install.dataDir });
    expect([again.code, again.output.trim()]).toEqual([2, `${backupFile} exists already: a backup is written to a new file`]);
  }, COMMAND_TEST_TIMEOUT_MS);

  it("npm run restore into an empty directory finds every record and file, and asks for the key back", async () => {
    const restoredDir = temporaryPath("data");
    restoredDirs.push(path.dirname(restoredDir));
    const restored = await command(["restore", backupFile], { DATA_DIR: restoredDir });
    expect(restored.code, restored.output).toBe(0);
    expect(restored.output).toContain("every table's rows and sums match it");
    expect(restored.output).toContain(`Put the payment key (sha256:${createHash("sha256").update(PAYMENT_KEY).digest("hex").slice(0, 16)}) back`);
    expect(fs.existsSync(path.join(restoredDir, "payment.key"))).toBe(false);
    expect(await new LocalUploadStorage(path.join(restoredDir, "uploads")).read(UPLOADED_KEY)).toEqual(UPLOADED_BYTES);

    const original = await openDatabase({ kind: "pglite", dataDir: install.dataDir });
    const copy = await openDatabase({ kind: "pglite", dataDir: restoredDir });
    try {
      expect(await recordsOf(copy.db)).toEqual(await recordsOf(original.db));
    } finally {
      await copy.close();
      await original.close();
    }

    // into a directory that is not empty (the one just restored): refused, nothing changed there
    const before = fs.readdirSync(restoredDir).sort();
    const refused = await command(["restore", backupFile], { DATA_DIR: restoredDir });
    expect([refused.code, refused.output.trim()]).toEqual([2, `${restoredDir} is not empty: a backup is restored into an empty data directory`]);
    expect(fs.readdirSync(restoredDir).sort()).toEqual(before);
  }, COMMAND_TEST_TIMEOUT_MS);

  it("a backup altered after it was written is refused rather than restored short", async () => {
    const restoredDir = temporaryPath("data");
    restoredDirs.push(path.dirname(restoredDir));
    const altered = temporaryPath("altered.tar");
    restoredDirs.push(path.dirname(altered));
    // the manifest claims one pupil more than the database holds
    const text = fs.readFileSync(backupFile);
    const marker = Buffer.from('"students": {\n      "rows": ');
    const at = text.indexOf(marker) + marker.length;
    const digit = text[at];
    fs.writeFileSync(altered, Buffer.concat([text.subarray(0, at), Buffer.from([digit === 0x39 ? 0x38 : digit + 1]), text.subarray(at + 1)]));
    await expect(restoreBackup(altered, { database: { kind: "pglite", dataDir: restoredDir }, uploadsDir: path.join(restoredDir, "uploads"), paymentKey: {} })).rejects.toThrow(
      /the restored database differs from the backup:\nstudents: \d+ rows, expected \d+/,
    );
  }, COMMAND_TEST_TIMEOUT_MS);
});

describeOnPostgres("moving the embedded install to PostgreSQL, and PostgreSQL's backups", () => {
  let install: { dataDir: string; dispose(): Promise<void> };
  const databases: { url: string; drop(): Promise<void> }[] = [];
  const servers: TestServer[] = [];
  let movedUrl: string;

  beforeAll(async () => {
    install = await demoInstall();
    movedUrl = (await createPostgresDatabase().then((created) => (databases.push(created), created))).url;
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    for (const database of databases) await database.drop();
    await install?.dispose();
  });

  it("npm run move-to-postgres copies every table: the same accounts and money to the fen, sessions revoked, ids going on", async () => {
    // a signed-in session on the embedded install
    // without jobs on either side: the demo's activities, whose dates have passed, would be closed meanwhile
    const embedded = await startTestServer({ dataDir: install.dataDir, seedDemo: false, staticDir: null, passwordCost: TEST_PASSWORD_COST, jobs: { poll: false } });
    const before = await api(embedded.url, "adminapi", "login", { username: "svc", password: DEMO_PASSWORD });
    const oldToken = String(before.data?.token);
    const dashboardBefore = await api(embedded.url, "adminapiv2", "dashboard", {}, oldToken);
    expect(dashboardBefore.return_code).toBe("SUCCESS");
    // refused while that server runs
    const refused = await command(["move-to-postgres", movedUrl], { DATA_DIR: install.dataDir });
    expect(refused.code, refused.output).toBe(2);
    await embedded.close();

    const moved = await command(["move-to-postgres", movedUrl], { DATA_DIR: install.dataDir });
    expect(moved.code, moved.output).toBe(0);
    expect(moved.output).toContain("Every table's rows and sums match the embedded database's.");

    const original = await openDatabase({ kind: "pglite", dataDir: install.dataDir });
    const target = await openDatabase({ kind: "postgres", url: movedUrl, poolSize: 1 });
    try {
      expect(await recordsOf(target.db)).toEqual(await recordsOf(original.db));
      const [live] = await target.db.select({ n: count() }).from(sessions).where(sql`${sessions.revokedAt} is null`);
      expect(live.n).toBe(0);
    } finally {
      await target.close();
      await original.close();
    }

    const server = await startTestServer({ databaseUrl: movedUrl, seedDemo: false, staticDir: null, passwordCost: TEST_PASSWORD_COST, jobs: { poll: false } });
    servers.push(server);
    expect((await api(server.url, "adminapiv2", "dashboard", {}, oldToken)).return_code).toBe("token_error");
    const login = await api(server.url, "adminapi", "login", { username: "svc", password: DEMO_PASSWORD });
    expect(login.return_code, login.return_msg).toBe("SUCCESS");
    const dashboardAfter = await api(server.url, "adminapiv2", "dashboard", {}, String(login.data?.token));
    expect(dashboardAfter.data).toEqual(dashboardBefore.data);
    // a new record takes the id after the copied ones
    const db = server.server.database.db;
    const [{ max }] = await queryRows<{ max: number }>(db, sql`select max(id)::int as max from notices`);
    const [added] = await db
      .insert(notices)
      .values({ sysid: 1, kind: "reminder", channel: "sms", recipient: "13800000000", params: {}, createdBy: "test", createdAt: new Date() })
      .returning({ id: notices.id });
    expect(added.id).toBe(max + 1);
    await db.delete(notices).where(eq(notices.id, added.id));

    // a target that is not empty (the one just filled) is refused
    const again = await command(["move-to-postgres", movedUrl], { DATA_DIR: install.dataDir });
    expect([again.code, again.output.trim()]).toEqual([2, "the target database is not empty: the install is moved into an empty database"]);
  }, COMMAND_TEST_TIMEOUT_MS);

  it("npm run backup of PostgreSQL and npm run restore into an empty database find every record", async () => {
    const backupFile = temporaryPath("pg.backup.tar");
    const restored = await createPostgresDatabase();
    databases.push(restored);
    const made = await command(["backup", backupFile], { DATABASE_URL: movedUrl, DATA_DIR: install.dataDir });
    expect(made.code, made.output).toBe(0);
    const manifestDir = fs.mkdtempSync(path.join(os.tmpdir(), "cpc-manifest-"));
    expect((await readManifest(backupFile, manifestDir)).database).toBe("postgres");
    fs.rmSync(manifestDir, { recursive: true, force: true });

    const restoredDir = temporaryPath("data");
    const done = await command(["restore", backupFile], { DATABASE_URL: restored.url, DATA_DIR: restoredDir });
    expect(done.code, done.output).toBe(0);
    expect(await new LocalUploadStorage(path.join(restoredDir, "uploads")).read(UPLOADED_KEY)).toEqual(UPLOADED_BYTES);
    const source = await openDatabase({ kind: "postgres", url: movedUrl, poolSize: 1 });
    const copy = await openDatabase({ kind: "postgres", url: restored.url, poolSize: 1 });
    try {
      expect(await recordsOf(copy.db)).toEqual(await recordsOf(source.db));
    } finally {
      await copy.close();
      await source.close();
    }
    fs.rmSync(path.dirname(backupFile), { recursive: true, force: true });
    fs.rmSync(path.dirname(restoredDir), { recursive: true, force: true });
  }, COMMAND_TEST_TIMEOUT_MS);
});
