/**
 * The server's memory as `npm start` runs it: a process of its own (node --import tsx server/main.ts) on a new
 * embedded data directory with the demo data, its resident set read from /proc. At rest: after its first start (the
 * demo data seeded) and a few reads, left idle. At its peak: the highest resident set of its life after the heaviest
 * things a client can make it do at once: a 5,000-row student import twice, a student export, and two zip bombs
 * (a sheet declaring 4 KB that inflates to 400 MB, and one declaring its size honestly).
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { call } from "./weapi";
import { deflatedPadding, inline, MAIN, STUDENT_HEADER_ROW, workbook } from "../tests/helpers/xlsxParts";

const ROOT = path.resolve(import.meta.dirname, "..");
const DEMO_PASSWORD = "demo1234";
const IMPORT_ROWS = 5000;
/** how long a server started on a large database is left to its first jobs before a measurement */
const STARTUP_JOBS_MS = 20_000;

type Record = (measure: string, database: string, value: number | undefined, unit: string, budget?: { limit: number; atMost: boolean; text: string }) => void;

/** DESIGN 10: the server's memory with PGlite and a million orders, at rest and at peak, whatever it runs */
const PEAK_BUDGET: { [database in "PGlite" | "PostgreSQL"]?: Parameters<Record>[4] } = { PGlite: { limit: 600, atMost: true, text: "<= 600 MB" } };

/** VmRSS and VmHWM (the highest resident set so far) of a process, in MB. */
function residentSet(pid: number): { rss: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN);
  return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
}

/** The database a server process runs on: an embedded data directory or a PostgreSQL database. */
export type ServerDatabase = { dataDir: string } | { databaseUrl: string };

/** Starts the server as npm start does and answers its address once it listens. */
async function startServerProcess(database: ServerDatabase): Promise<{ child: ChildProcess; url: string }> {
  const target = "dataDir" in database ? { DATA_DIR: database.dataDir, DATABASE_URL: "" } : { DATABASE_URL: database.databaseUrl };
  const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
    cwd: ROOT,
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "warn", ...target },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines = readline.createInterface({ input: child.stdout! });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the server did not start within 120 s")), 120_000);
    child.once("exit", (code) => reject(new Error(`the server ended with ${code}`)));
    lines.on("line", (line) => {
      const found = /running on (http:\/\/\S+)/.exec(line);
      if (!found) return;
      clearTimeout(timer);
      resolve(found[1]);
    });
  });
  return { child, url };
}

/** A student import file of `rows` rows, each with its own student number under `prefix`. */
function studentFile(prefix: string, rows: number): Buffer {
  const sheetRows: string[] = [];
  for (let i = 0; i < rows; i++) {
    const cells = [`学生${i}`, `${prefix}-${String(i).padStart(5, "0")}`, i % 2 ? "男" : "女", `Memory grade ${1 + (i % 6)}`, `Class ${1 + (i % 4)}`];
    sheetRows.push(`<row r="${i + 2}">${cells.map(inline).join("")}</row>`);
  }
  return workbook({ name: "", data: `<worksheet xmlns="${MAIN}"><sheetData>${STUDENT_HEADER_ROW}${sheetRows.join("")}</sheetData></worksheet>` });
}

export async function measureServerMemory(record: Record): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cpc-bench-memory-"));
  const { child, url } = await startServerProcess({ dataDir });
  try {
    const pid = child.pid!;
    const login = await call(url, "adminapi", { method: "login", username: "svc", password: DEMO_PASSWORD });
    const token = login.data?.token;
    if (login.return_code !== "SUCCESS" || !token) throw new Error(`login as svc failed: ${login.return_msg}`);
    const schools = await call(url, "adminapiv2", { method: "schoollist", page: 1, limit: 1 }, token);
    const schId = (schools.data?.items as { id: number }[] | undefined)?.[0]?.id;
    for (const method of ["dashboard", "studentlist", "classeslist", "schoollist"]) await call(url, "adminapiv2", { method, page: 1, limit: 20 }, token);
    // idle: what the server keeps
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const rest = residentSet(pid);
    record("server RSS at rest (own process, demo data seeded on its first start)", "PGlite", rest.rss, "MB", PEAK_BUDGET.PGlite);

    const bomb = await deflatedPadding(400 * 1024 * 1024);
    const lying = workbook({ name: "", data: bomb.data, declaredSize: 4096 }).toString("base64");
    const honest = workbook({ name: "", data: bomb.data, declaredSize: bomb.trueSize }).toString("base64");
    const imports = ["M1", "M2"].map((prefix) => studentFile(prefix, IMPORT_ROWS).toString("base64"));
    const answers = await Promise.all([
      ...imports.map((content) => call(url, "adminapiv2", { method: "studentimport", sch_id: schId, filename: "memory.xlsx", content_base64: content }, token)),
      call(url, "adminapiv2", { method: "studentimport", sch_id: schId, filename: "lying.xlsx", content_base64: lying }, token),
      call(url, "adminapiv2", { method: "studentimport", sch_id: schId, filename: "honest.xlsx", content_base64: honest }, token),
      call(url, "adminapiv2", { method: "studentexport", sch_id: schId }, token),
    ]);
    const [first, second] = answers;
    if (first.return_code !== "SUCCESS" || second.return_code !== "SUCCESS") throw new Error(`the imports failed: ${first.return_msg} / ${second.return_msg}`);
    // the export is a job: its file is written after the answer
    const exportId = (answers[4]!.data?.items as { job_id?: number } | undefined)?.job_id;
    for (let status = ""; status !== "done"; ) {
      if (status === "failed" || !exportId) throw new Error("the export failed");
      await new Promise((resolve) => setTimeout(resolve, 200));
      status = String((((await call(url, "adminapiv2", { method: "downloadinfo", id: exportId }, token)).data?.items as { status?: string }) ?? {}).status ?? "");
    }
    const after = residentSet(pid);
    record("server RSS at its peak (two 5,000-row imports, an export, two zip bombs at once)", "PGlite", after.peak, "MB", PEAK_BUDGET.PGlite);
    record("server RSS after that peak", "PGlite", after.rss, "MB");
  } finally {
    await stopServerProcess(child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function stopServerProcess(child: ChildProcess): Promise<void> {
  child.kill("SIGTERM");
  await new Promise((resolve) => child.once("exit", resolve));
}

/** A day of a channel whose trade bill has `lines` payments (prepared by the bench). */
export interface ReconciliationDay {
  paychnlId: number;
  day: string;
  lines: number;
}

/**
 * The two largest jobs a user can ask for, each run by a server process of its own on a database the bench seeded
 * (a million orders), as `npm start` runs it, once the jobs of its start are done, so that each figure is the job's
 * own and not what the other left in the process:
 * - every order of the provider exported through the download centre (`withExport`): the time from the request to
 *   the file being written, its size, the resident set before it and its highest sample (every 100 ms) meanwhile,
 *   the peak of the process's life (VmHWM), and the file's download;
 * - reconrun of a day whose trade bill has 100,000 lines: the time of the call, the resident set before it and its
 *   highest sample (every 100 ms) meanwhile.
 */
export async function measureLargeJobs(record: Record, database: "PGlite" | "PostgreSQL", target: ServerDatabase, reconciliation: ReconciliationDay, withExport: boolean): Promise<void> {
  if (withExport) await inServerProcess(database, target, (url, pid, token) => measureExport(record, database, url, pid, token));
  await inServerProcess(database, target, (url, pid, token) => measureReconciliation(record, database, url, pid, token, reconciliation));
}

/** Runs a measurement in a server process of its own, logged in as svc, once the jobs of its start are done. */
async function inServerProcess(database: string, target: ServerDatabase, measure: (url: string, pid: number, token: string) => Promise<void>): Promise<void> {
  const { child, url } = await startServerProcess(target);
  try {
    const login = await call(url, "adminapi", { method: "login", username: "svc", password: DEMO_PASSWORD });
    const token = login.data?.token;
    if (login.return_code !== "SUCCESS" || !token) throw new Error(`login as svc failed on ${database}: ${login.return_msg}`);
    // the jobs a server runs when it starts (yesterday's reconciliation, the evening's report) are done by then
    await new Promise((resolve) => setTimeout(resolve, STARTUP_JOBS_MS));
    await measure(url, child.pid!, token);
  } finally {
    await stopServerProcess(child);
  }
}

async function measureExport(record: Record, database: "PGlite" | "PostgreSQL", url: string, pid: number, token: string): Promise<void> {
  const before = residentSet(pid).rss;
  let highest = before;
  const exportSampler = setInterval(() => (highest = Math.max(highest, residentSet(pid).rss)), 100);
  const started = performance.now();
  const asked = await call(url, "adminapiv2", { method: "orderexport" }, token);
  const id = (asked.data?.items as { job_id?: number } | undefined)?.job_id;
  if (asked.return_code !== "SUCCESS" || !id) throw new Error(`orderexport failed on ${database}: ${asked.return_msg}`);
  let item: { status?: string; rows?: number; size?: number; url?: string } = {};
  while (item.status !== "done" && item.status !== "failed") {
    await new Promise((resolve) => setTimeout(resolve, 250));
    item = ((await call(url, "adminapiv2", { method: "downloadinfo", id }, token)).data?.items ?? {}) as typeof item;
  }
  clearInterval(exportSampler);
  if (item.status !== "done" || !item.url) throw new Error(`the export of every order failed on ${database}`);
  const seconds = (performance.now() - started) / 1000;
  const name = `orderexport of ${Number(item.rows).toLocaleString("en")} orders through the download centre (server in its own process)`;
  record(`${name}: until the file is written`, database, seconds, "s");
  record(`${name}: file size`, database, Number(item.size) / 1024 / 1024, "MB");
  record(`${name}: server RSS before it`, database, before, "MB");
  record(`${name}: server RSS at its highest meanwhile`, database, highest, "MB", PEAK_BUDGET[database]);
  record(`${name}: server RSS at its peak since it started (VmHWM)`, database, residentSet(pid).peak, "MB");
  const fetched = performance.now();
  const res = await fetch(`${url}${item.url}`);
  let bytes = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.byteLength;
  if (bytes !== Number(item.size)) throw new Error(`the export's file arrived with ${bytes} bytes of ${item.size} on ${database}`);
  record(`${name}: download`, database, (performance.now() - fetched) / 1000, "s");
}

/** DESIGN 10: a 100,000-line reconciliation is within the server's memory budget on either database */
const RECONCILIATION_BUDGET = { limit: 600, atMost: true, text: "<= 600 MB" };

async function measureReconciliation(record: Record, database: "PGlite" | "PostgreSQL", url: string, pid: number, token: string, reconciliation: ReconciliationDay): Promise<void> {
  const before = residentSet(pid).rss;
  let reconHighest = before;
  const sampler = setInterval(() => (reconHighest = Math.max(reconHighest, residentSet(pid).rss)), 100);
  const reconStarted = performance.now();
  const recon = await call(url, "adminapiv2", { method: "reconrun", paychnl_id: reconciliation.paychnlId, bill_date: reconciliation.day }, token).finally(() => clearInterval(sampler));
  const reconSeconds = (performance.now() - reconStarted) / 1000;
  const batch = recon.data?.items as { status?: string; bill_count?: number; matched?: number; open_items?: number } | undefined;
  if (recon.return_code !== "SUCCESS" || batch?.status === "failed" || Number(batch?.matched) < reconciliation.lines) {
    throw new Error(`the reconciliation of ${reconciliation.day} failed on ${database}: ${recon.return_msg}`);
  }
  const reconName = `reconrun of a trade bill of ${Number(batch?.bill_count).toLocaleString("en")} lines (${Number(batch?.matched).toLocaleString("en")} matched, ${Number(batch?.open_items)} differences)`;
  record(`${reconName}: the call`, database, reconSeconds, "s");
  record(`${reconName}: server RSS before it`, database, before, "MB");
  record(`${reconName}: server RSS at its highest meanwhile`, database, reconHighest, "MB", RECONCILIATION_BUDGET);
}

