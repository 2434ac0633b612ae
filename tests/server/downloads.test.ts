/**
 * The download centre, on both databases: an export answers its job's id at once and is listed queued; its job
 * writes the file (the list's rows, in the list's order, across many pages) and the download says done with its
 * rows and size; the file opens from a short-lived signed link, which refuses a tampered or expired signature,
 * id or expiry; only the owner sees the download; a bad filter fails the request before any job; files go after
 * seven days. On PostgreSQL, exports asked of two servers sharing the database are run once each by their workers
 * and served by either server.
 */
import { count, eq, inArray } from "drizzle-orm";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openDatabase, type Database } from "../../server/db/client";
import { downloadChunks, downloads, jobs } from "../../server/db/schema";
import { DOWNLOAD_LINK_SECONDS, pruneExpiredDownloads } from "../../server/domains/downloads";
import { EXPORT_BATCH_ROWS, exportJobKinds, XLSX_MIME } from "../../server/engine/exports";
import { translator } from "../../server/lib/i18n";
import { JobWorker } from "../../server/jobs/worker";
import { PaymentSecrets } from "../../server/payments/secrets";
import { buildApp } from "../../server/protocol/app";
import { describeOnEmbedded, describeOnPostgres } from "../helpers/db";
import { createTestApp, TEST_PASSWORD_COST, type TestApp } from "./support";

type Row = Record<string, unknown>;
const zh = translator("zh");

async function sheetRows(content: Buffer): Promise<unknown[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(content as unknown as ArrayBuffer);
  const rows: unknown[][] = [];
  workbook.worksheets[0]!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

describeOnEmbedded("download centre", (kind) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const call = (user: string, method: string, payload: Row = {}) => t.call("adminapiv2", method, payload, { token: tokens[user] });
  const items = (res: { data?: Row }) => res.data?.items as Row;
  const file = (url: string) => t.app.inject({ method: "GET", url });

  beforeAll(async () => {
    t = await createTestApp(kind);
    for (const u of ["svc", "staff", "school"]) tokens[u] = await t.login(u);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** every row of a list in its order, read page by page as the console does */
  async function listAll(user: string, entity: string, payload: Row): Promise<Row[]> {
    const rows: Row[] = [];
    for (let page = 1; ; page++) {
      const res = await call(user, `${entity}list`, { ...payload, page, limit: 100 });
      expect(res.return_code, res.return_msg).toBe("SUCCESS");
      const pageRows = res.data?.items as Row[];
      rows.push(...pageRows);
      if (rows.length >= Number(res.data?.total) || pageRows.length === 0) return rows;
    }
  }

  it("runs an export as a job and serves its file, the list's rows in the list's order, to its owner by a signed link", async () => {
    const filter = { sort: "student_no" };
    const started = await call("svc", "studentexport", filter);
    expect(started.return_code, started.return_msg).toBe("SUCCESS");
    const id = Number(items(started).job_id);
    expect(id).toBeGreaterThan(0);

    const queued = (await call("svc", "downloadlist")).data?.items as Row[];
    expect(queued[0]).toMatchObject({ id, job_id: id, operation: "studentexport", status: "queued", progress: 0, size: null });
    // named by the list's title and, asked without filters, the day (tests/server/exportNames.test.ts)
    expect(String(queued[0]!.filename)).toMatch(new RegExp(`^${zh("entity.student")}_\\d{4}-\\d{2}-\\d{2}\\.xlsx$`));
    expect(items(await call("svc", "downloadinfo", { id })).url).toBeUndefined();

    // another account of the same provider sees nothing of it
    expect(((await call("staff", "downloadlist")).data?.items as Row[]).some((d) => d.id === id)).toBe(false);
    expect(await call("staff", "downloadinfo", { id })).toEqual({ return_code: "FAIL", return_msg: zh("api.not_found") });

    expect(await t.runExportJobs()).toHaveLength(1);
    const done = items(await call("svc", "downloadinfo", { id }));
    const students = await listAll("svc", "student", filter);
    // more rows than one step of the job reads
    expect(students.length).toBeGreaterThan(EXPORT_BATCH_ROWS);
    expect(done).toMatchObject({ status: "done", progress: 100, rows: students.length });
    expect(Number(done.size)).toBeGreaterThan(0);

    const res = await file(String(done.url));
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe(XLSX_MIME);
    expect(String(res.headers["content-disposition"])).toContain(`filename*=UTF-8''${encodeURIComponent(String(done.filename))}`);
    expect(res.rawPayload.length).toBe(Number(done.size));
    const rows = await sheetRows(res.rawPayload);
    expect(rows).toHaveLength(students.length + 1);
    // the student number column, row by row, in the list's order
    const header = rows[0]!.map(String);
    const numberColumn = header.indexOf(zh("field.student_no"));
    expect(numberColumn).toBeGreaterThanOrEqual(0);
    expect(rows.slice(1).map((row) => String(row[numberColumn]))).toEqual(students.map((s) => String(s.student_no)));
  });

  it("refuses a link whose signature, id or expiry was changed, or whose time has passed", async () => {
    const id = Number(items(await call("school", "orderexport", {})).job_id);
    await t.runExportJobs();
    const url = String(items(await call("school", "downloadinfo", { id })).url);
    const link = new URL(url, "http://console");
    const signature = link.searchParams.get("signature")!;
    const expires = Number(link.searchParams.get("expires"));
    const tampered = [
      `/files/exports/${id}?expires=${expires}&signature=${signature.slice(0, -1)}${signature.endsWith("A") ? "B" : "A"}`,
      `/files/exports/${id - 1}?expires=${expires}&signature=${signature}`,
      `/files/exports/${id}?expires=${expires + 3600}&signature=${signature}`,
      `/files/exports/${id}?expires=${expires}`,
      `/files/exports/${id}`,
      `/files/exports/abc?expires=${expires}&signature=${signature}`,
    ];
    for (const path of tampered) {
      const res = await file(path);
      expect(res.statusCode, path).toBe(403);
      expect(res.json(), path).toEqual({ return_code: "FAIL", return_msg: zh("downloads.link_refused") });
    }
    // a browser is told on a page
    const page = await t.app.inject({ method: "GET", url: tampered[0]!, headers: { accept: "text/html", "accept-language": "en" } });
    expect(page.statusCode).toBe(403);
    expect(page.body).toContain(translator("en")("downloads.link_refused"));
    expect((await file(url)).statusCode).toBe(200);

    // the link lasts minutes; the download centre gives a new one for as long as the file is kept
    t.clock.advance((DOWNLOAD_LINK_SECONDS + 1) * 1000);
    expect((await file(url)).statusCode).toBe(403);
    const fresh = String(items(await call("school", "downloadinfo", { id })).url);
    expect(fresh).not.toBe(url);
    expect((await file(fresh)).statusCode).toBe(200);
  });

  it("fails a bad filter or sort at once, naming it, and records no download", async () => {
    const before = Number((await call("svc", "downloadlist")).data?.total);
    expect(await call("svc", "orderexport", { sort: "nonsense" })).toEqual({ return_code: "FAIL", return_msg: zh("api.bad_sort", { field: "nonsense" }) });
    expect(await call("svc", "studentexport", { class_id: "abc" })).toMatchObject({ return_code: "FAIL", return_msg: zh("api.invalid_params", { field: "class_id" }) });
    expect(await call("school", "studentexport")).toEqual({ return_code: "FAIL", return_msg: zh("api.no_permission") });
    expect(Number((await call("svc", "downloadlist")).data?.total)).toBe(before);
  });

  it("exports the orders on their tab, and by a time unpaid ones lack either way, as the order list shows them", async () => {
    // unpaid orders have no payment time: they come last ascending and first descending, as in the list
    for (const filter of [{ status: "paid" }, { sort: "paid_at" }, { sort: "-paid_at" }]) {
      const id = Number(items(await call("svc", "orderexport", filter)).job_id);
      await t.runExportJobs();
      const done = items(await call("svc", "downloadinfo", { id }));
      const orders = await listAll("svc", "order", filter);
      expect(orders.length).toBeGreaterThan(0);
      expect(done).toMatchObject({ status: "done", rows: orders.length });
      const rows = await sheetRows((await file(String(done.url))).rawPayload);
      const numberColumn = rows[0]!.map(String).indexOf(zh("collection.field.order_no"));
      expect(rows.slice(1).map((row) => String(row[numberColumn])), JSON.stringify(filter)).toEqual(orders.map((o) => String(o.order_no)));
    }
  });

  it("removes the downloads and their files seven days after they were asked for", async () => {
    const id = Number(items(await call("svc", "studentexport", { sort: "-id" })).job_id);
    await t.runExportJobs();
    expect(items(await call("svc", "downloadinfo", { id })).status).toBe("done");
    t.clock.advance(7 * 86_400_000 + 1000);
    tokens.svc = await t.login("svc");
    expect(await call("svc", "downloadinfo", { id })).toEqual({ return_code: "FAIL", return_msg: zh("api.not_found") });
    expect(((await call("svc", "downloadlist")).data?.items as Row[]).some((d) => d.id === id)).toBe(false);
    const { deleted } = await pruneExpiredDownloads({ db: t.db, now: t.clock.now() } as Parameters<typeof pruneExpiredDownloads>[0]);
    expect(deleted).toBeGreaterThan(0);
    expect(await t.db.select({ n: count() }).from(downloads).where(eq(downloads.id, id))).toEqual([{ n: 0 }]);
    expect(await t.db.select({ n: count() }).from(downloadChunks).where(eq(downloadChunks.downloadId, id))).toEqual([{ n: 0 }]);
  });
});

describeOnPostgres("download centre on several servers", () => {
  let t: TestApp;
  let second: Database;
  let secondApp: Awaited<ReturnType<typeof buildApp>>;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp("postgres");
    second = await openDatabase({ kind: "postgres", url: t.testDb.url!, poolSize: 3 });
    secondApp = await buildApp({ db: second.db, clock: t.clock, passwordCost: TEST_PASSWORD_COST, rateLimit: false, staticDir: null, logger: false });
    for (const u of ["svc", "school"]) tokens[u] = await t.login(u);
  });
  afterAll(async () => {
    await secondApp?.close();
    await second?.close();
    await t?.close();
  });

  it("runs each export once whichever server's worker takes it, and serves its file from either server", async () => {
    const apps = [t.app, secondApp];
    const ask = async (app: typeof secondApp, user: string, method: string, payload: Row = {}) =>
      (await app.inject({ method: "POST", url: "/weapi/adminapiv2", headers: { "content-type": "application/json", "x-token": tokens[user]! }, payload: JSON.stringify({ method, ...payload }) })).json<{ return_code: string; data?: Row }>();
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) {
      const user = i % 3 === 0 ? "school" : "svc";
      const res = await ask(apps[i % 2]!, user, user === "svc" && i % 2 === 1 ? "studentexport" : "orderexport");
      expect(res.return_code).toBe("SUCCESS");
      ids.push(Number((res.data?.items as Row).job_id));
    }
    const services = (db: Database["db"]) => ({ db, clock: t.clock, paymentSecrets: new PaymentSecrets() });
    const workers = [new JobWorker({ services: services(t.db), kinds: exportJobKinds(), id: "first" }), new JobWorker({ services: services(second.db), kinds: exportJobKinds(), id: "second" })];
    const ran = await Promise.all(workers.map((w) => w.runDueJobs()));
    const jobIds = (await t.db.select({ jobId: downloads.jobId }).from(downloads).where(inArray(downloads.id, ids))).map((d) => d.jobId);
    expect(ran.flat().sort((a, b) => a - b)).toEqual([...jobIds].sort((a, b) => a! - b!));
    const runs = await t.db.select({ status: jobs.status, attempts: jobs.attempts }).from(jobs).where(inArray(jobs.id, jobIds as number[]));
    expect(runs.every((r) => r.status === "done" && r.attempts === 1)).toBe(true);

    for (const [i, id] of ids.entries()) {
      const owner = i % 3 === 0 ? "school" : "svc";
      const info = await ask(apps[(i + 1) % 2]!, owner, "downloadinfo", { id });
      const url = String((info.data?.items as Row).url);
      for (const app of apps) {
        const res = await app.inject({ method: "GET", url });
        expect(res.statusCode).toBe(200);
        expect((await sheetRows(res.rawPayload)).length).toBe(Number((info.data?.items as Row).rows) + 1);
      }
    }
  });
});
