/**
 * Exports are jobs of the download centre (docs/architecture.md, "Download centre"). An export operation checks
 * its call as the export will read it (scope, filters, sort: a bad one fails the request), records a download
 * with what the job needs to run it as its caller would, enqueues the job and answers `data.items` {job_id}.
 * The job streams the rows into an .xlsx workbook (exceljs's streaming writer) whose bytes go to the database in
 * pieces of about a megabyte, so a million rows take bounded memory and any server sharing the database serves
 * the file. The download's status and progress are its job's.
 *
 * Its cells: a date or a time is a date cell in a date format, a text is a string cell (which no spreadsheet program
 * runs as a formula) and one that starts like a formula has the quote-prefix style besides, so that editing it does
 * not make it one, without a visible `'` (that quote is CSV's guard, common/spreadsheetCell.ts): the file imported
 * back gives the texts as they were.
 */
import { randomBytes } from "node:crypto";
import { Writable } from "node:stream";
import { eq } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { ZodType } from "zod";
import { startsLikeFormula } from "../../common/spreadsheetCell";
import type { Authority } from "../auth/authority";
import { accountActor, writeAudit } from "../auth/audit";
import { resolveScope } from "../auth/scope";
import type { Db } from "../db/client";
import { downloadChunks, downloads } from "../db/schema";
import { translator, type Language } from "../lib/i18n";
import { collectGarbage } from "../lib/heap";
import { JobKinds, type JobContext, type JobKindOptions, type JobLog } from "../jobs/registry";
import { enqueueJob } from "../jobs/worker";
import { notFound } from "../protocol/envelope";
import type { AppServices, OperationContext, OperationRegistry } from "../protocol/registry";
import { DEFAULT_OPERATION_PATH } from "./declared";
import { exportFileName, exportNaming } from "./exportNames";

export const EXPORT_FILE_JOB = "exports.file";
/** a failed export is run once more before the download says failed */
export const EXPORT_MAX_ATTEMPTS = 2;
/** how long a finished file is kept */
export const DOWNLOAD_KEEP_MS = 7 * 86_400_000;
/** rows read and written per step: one query, one progress report */
export const EXPORT_BATCH_ROWS = 1000;
/** Excel's rows per sheet, less the header */
export const MAX_SHEET_ROWS = 1_048_575;
/** the size of the pieces a file is stored in */
const CHUNK_BYTES = 1024 * 1024;
export const XLSX_MIME = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

export interface SheetColumn {
  key: string;
  header: string;
  width?: number;
  /**
   * money: a number with two decimals; percent: a fraction shown as 12.5%; date and datetime: a day "YYYY-MM-DD"
   * or a time "YYYY-MM-DD HH:mm:ss" as the list shows it (China time), written as a date cell showing the same
   */
  format?: "money" | "percent" | "date" | "datetime";
}

/** Where an export writes its sheet. */
export interface SheetOutput {
  /** starts the sheet with its title and columns, once, before any row */
  begin(title: string, columns: SheetColumn[]): void;
  row(values: Record<string, unknown>, options?: { bold?: boolean }): void;
  /** reports how far the export is (0..100) and lets the file's bytes reach the database before more rows come */
  progress(percent: number): Promise<void>;
}

/** What an export operation reads and writes (the entity lists, the reports). */
export interface Exporter {
  /** checks the call as `write` will read it (its scope, filters, sort); throws the FAIL a bad one deserves */
  check(ctx: OperationContext): Promise<void>;
  /** writes the rows under the call's scope and filters; answers how many data rows it wrote */
  write(ctx: OperationContext, out: SheetOutput): Promise<number>;
}

export interface ExportOperation {
  method: string;
  path?: string;
  roles: readonly string[];
  /** the payload's check, for whoever reads the registry (the exporter checks each value by its kind) */
  schema?: ZodType<Record<string, unknown>>;
  /** what the file is of (an entity's or a report's name): the audit's entity; the file is named by its title */
  subject: string;
  exporter: Exporter;
}

/** What the job needs to run an export as its caller did. */
interface ExportRequest {
  payload: Record<string, unknown>;
  auth: Authority;
  roles: string[];
  language: Language;
  ip: string;
  subject: string;
}

const exporters = new Map<string, ExportOperation>();

/** Registers an export operation: it checks the call, records the download, enqueues its job and answers its id. */
export function registerExportOperation(registry: OperationRegistry, operation: ExportOperation): void {
  exporters.set(operation.method, operation);
  const naming = exportNaming(operation.method, operation.subject);
  registry.add({
    path: operation.path ?? DEFAULT_OPERATION_PATH,
    method: operation.method,
    needsToken: true,
    roles: operation.roles,
    effect: "read",
    schema: operation.schema,
    async handler(ctx) {
      const auth = ctx.auth;
      if (!auth) throw notFound();
      await operation.exporter.check(ctx);
      const scope = await resolveScope(ctx.db, auth, ctx.payload);
      const request: ExportRequest = { payload: ctx.payload, auth, roles: ctx.roles, language: ctx.language, ip: ctx.ip, subject: operation.subject };
      // the file says what it holds: the list's title and the filters it was asked with
      const filename = await exportFileName(ctx, scope, naming);
      const id = await ctx.db.transaction(async (tx) => {
        const [download] = await tx
          .insert(downloads)
          .values({
            userId: auth.userId,
            sysid: scope.sysid,
            schId: scope.schids?.length === 1 ? scope.schids[0]! : null,
            operation: operation.method,
            filename,
            request: request as unknown as Record<string, unknown>,
            linkKey: randomBytes(32).toString("hex"),
            createdAt: ctx.now,
            expiresAt: new Date(ctx.now.getTime() + DOWNLOAD_KEEP_MS),
          })
          .returning({ id: downloads.id });
        const jobId = await enqueueJob(tx, EXPORT_FILE_JOB, { download_id: download!.id }, { now: ctx.now, maxAttempts: EXPORT_MAX_ATTEMPTS });
        await tx.update(downloads).set({ jobId }).where(eq(downloads.id, download!.id));
        return download!.id;
      });
      ctx.services.wakeJobs?.();
      return { data: { items: { job_id: id } } };
    },
  });
}

/** Collects the workbook's bytes into pieces of CHUNK_BYTES, each stored as soon as it is full. */
class ChunkSink extends Writable {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private seq = 0;
  size = 0;

  constructor(
    private readonly db: Db,
    private readonly downloadId: number,
  ) {
    super({ highWaterMark: CHUNK_BYTES });
  }

  private async store(): Promise<void> {
    if (this.pendingBytes === 0) return;
    const data = Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    await this.db.insert(downloadChunks).values({ downloadId: this.downloadId, seq: this.seq++, data });
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    this.size += chunk.length;
    if (this.pendingBytes < CHUNK_BYTES) return done();
    this.store().then(() => done(), done);
  }

  override _final(done: (error?: Error | null) => void): void {
    this.store().then(() => done(), done);
  }

  /** resolves once what was written so far has been taken in (no store under way) */
  private settled(): Promise<void> {
    if (!this.writableNeedDrain) return Promise.resolve();
    return new Promise((resolve) => this.once("drain", resolve));
  }

  /**
   * Lets the zip catch up with the rows written. Its compression runs on the thread pool and reports back between
   * turns of the event loop, which queries of the embedded database, answered on the main thread, need not give
   * it: without turns of its own the whole sheet would wait in memory for the end. Waits until two turns in a row
   * bring no bytes, then until they are stored.
   */
  async caughtUp(): Promise<void> {
    for (let idleTurns = 0; idleTurns < 2; ) {
      const before = this.size;
      await new Promise((resolve) => setTimeout(resolve, 0));
      idleTurns = this.size === before ? idleTurns + 1 : 0;
    }
    await this.settled();
  }
}

/**
 * Rows written between two full collections of the heap. A sheet's rows are garbage as soon as they are zipped (the
 * live heap stays near 50 MB through an export of 100,000 orders), but they come so fast that V8 lets its heap grow
 * by hundreds of megabytes before it collects: the export asks for a collection itself, a few tens of milliseconds
 * now and then, which keeps the process's memory bounded whatever the file's length.
 */
const COLLECT_EVERY_ROWS = 10_000;

const NUMBER_FORMATS: Record<NonNullable<SheetColumn["format"]>, string> = {
  money: "0.00",
  percent: "0.0%",
  date: "yyyy-mm-dd",
  datetime: "yyyy-mm-dd hh:mm:ss",
};
/** Excel's built-in text format (ECMA-376 18.8.30, id 49), the number format of a cell written with the quote prefix */
const TEXT_FORMAT = "@";
const TEXT_FORMAT_ID = 49;
const WRITTEN_TIME = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2}):(\d{2}))?$/;

/**
 * A day or a time as the list shows it, as the Date exceljs writes as that date cell: a sheet's dates have no time
 * zone and exceljs writes a Date's UTC fields, so the UTC fields are the ones shown. Anything else as it is.
 */
function dateCell(value: unknown): unknown {
  const parts = typeof value === "string" ? WRITTEN_TIME.exec(value) : null;
  if (!parts) return value;
  const [year, month, day, hour, minute, second] = parts.slice(1).map((part) => Number(part ?? 0));
  return new Date(Date.UTC(year!, month! - 1, day!, hour, minute, second));
}

/**
 * exceljs 4 writes no quotePrefix attribute: the styles of the cells written with the text format, which only the
 * formula guard gives, get it in the workbook's style list before the styles part is written.
 */
function addQuotePrefix(workbook: object): void {
  const styles = (workbook as { styles?: { model?: { styles?: unknown[] } } }).styles?.model?.styles;
  if (!styles) throw new Error("exceljs's workbook writer keeps its styles elsewhere: the formula guard needs a look");
  for (let i = 0; i < styles.length; i++) {
    const xml = styles[i];
    if (typeof xml === "string" && xml.includes(`numFmtId="${TEXT_FORMAT_ID}"`) && !xml.includes("quotePrefix")) styles[i] = xml.replace(/^<xf /, '<xf quotePrefix="1" ');
  }
}

/** Streams one sheet into the download's pieces. */
async function writeWorkbook(db: Db, downloadId: number, write: (out: SheetOutput) => Promise<number>, reportProgress: (percent: number) => Promise<void>) {
  const { default: ExcelJS } = await import("exceljs");
  const sink = new ChunkSink(db, downloadId);
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: sink, useStyles: true, useSharedStrings: false });
  let sheet: ReturnType<typeof workbook.addWorksheet> | undefined;
  let dateKeys: string[] = [];
  let rowsSinceCollection = 0;
  const out: SheetOutput = {
    begin(title, columns) {
      if (sheet) throw new Error("the sheet has begun already");
      // at most 31 characters, none of those Excel refuses
      sheet = workbook.addWorksheet(title.replace(/[[\]:*?/\\]/g, " ").slice(0, 31) || "export");
      sheet.columns = columns.map((c) => ({
        header: c.header,
        key: c.key,
        width: c.width ?? Math.max(12, c.header.length + 4),
        style: c.format ? { numFmt: NUMBER_FORMATS[c.format] } : {},
      }));
      dateKeys = columns.filter((c) => c.format === "date" || c.format === "datetime").map((c) => c.key);
      sheet.getRow(1).font = { bold: true };
      sheet.getRow(1).commit();
    },
    row(values, options) {
      if (!sheet) throw new Error("a row before the sheet began");
      const cells = { ...values };
      for (const key of dateKeys) cells[key] = dateCell(cells[key]);
      const row = sheet.addRow(cells);
      if (options?.bold) row.font = { bold: true };
      row.eachCell((cell) => {
        if (typeof cell.value === "string" && startsLikeFormula(cell.value)) cell.numFmt = TEXT_FORMAT;
      });
      row.commit();
      rowsSinceCollection++;
    },
    async progress(percent) {
      await sink.caughtUp();
      if (rowsSinceCollection >= COLLECT_EVERY_ROWS) {
        rowsSinceCollection = 0;
        collectGarbage();
      }
      await reportProgress(percent);
    },
  };
  const rows = await write(out);
  if (!sheet) throw new Error("the export wrote no sheet");
  sheet.commit();
  addQuotePrefix(workbook);
  await workbook.commit();
  return { rows, size: sink.size };
}

/** A logger for the operation context of a job: what the export logs goes to the job's log. */
function jobLogger(log: JobLog): FastifyBaseLogger {
  const none = () => undefined;
  const logger = {
    level: "info",
    info: (obj: object, msg?: string) => log.info(obj, msg),
    warn: (obj: object, msg?: string) => log.warn(obj, msg),
    error: (obj: object, msg?: string) => log.error(obj, msg),
    fatal: (obj: object, msg?: string) => log.error(obj, msg),
    debug: none,
    trace: none,
    silent: none,
    child: () => logger,
  };
  return logger as unknown as FastifyBaseLogger;
}

/** The export job: runs the download's export as its caller did and stores the file. */
export async function exportFileJob(job: JobContext): Promise<{ rows: number; size: number }> {
  const downloadId = Number(job.payload.download_id);
  const [download] = await job.db.select().from(downloads).where(eq(downloads.id, downloadId));
  if (!download) return { rows: 0, size: 0 };
  const operation = exporters.get(download.operation);
  if (!operation) throw new Error(`no export operation ${download.operation}`);
  const request = download.request as unknown as ExportRequest;
  // a run after a failed one starts the file again
  await job.db.delete(downloadChunks).where(eq(downloadChunks.downloadId, downloadId));
  const ctx: OperationContext = {
    // the app's worker is given the app's services; an export reads the database only
    services: job.services as AppServices,
    db: job.db,
    payload: request.payload,
    t: translator(request.language),
    language: request.language,
    now: job.now,
    ip: request.ip,
    userAgent: "",
    origin: job.services.publicUrl ?? "",
    log: jobLogger(job.log),
    auth: request.auth,
    tokenHash: null,
    roles: request.roles,
  };
  const { rows, size } = await writeWorkbook(job.db, downloadId, (out) => operation.exporter.write(ctx, out), (percent) => job.reportProgress(Math.min(99, percent)));
  await job.db.update(downloads).set({ rows, size }).where(eq(downloads.id, downloadId));
  // the export's requester, from where they asked for it
  await writeAudit(job.db, accountActor(request.auth, request.ip), {
    action: download.operation,
    entity: request.subject,
    detail: { rows, download_id: downloadId },
    sysid: download.sysid,
    schId: download.schId,
  });
  return { rows, size };
}

export const EXPORT_FILE_JOB_OPTIONS: JobKindOptions = { maxAttempts: EXPORT_MAX_ATTEMPTS, leaseSeconds: 120 };

/** The export job alone (tests run exports without the server's recurring jobs). */
export function exportJobKinds(): JobKinds {
  const kinds = new JobKinds();
  kinds.register(EXPORT_FILE_JOB, exportFileJob, EXPORT_FILE_JOB_OPTIONS);
  return kinds;
}
