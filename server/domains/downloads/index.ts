/**
 * The download centre (/download/downloadlist): the caller's exports (server/engine/exports.ts) with their job's
 * status and progress, `downloadinfo` {id} with a short-lived signed link once the file is written, the link's
 * route (GET /files/exports/:id, no header needed: a browser opens it), and the job that removes files once
 * they expire. Only a download's owner sees it.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { Readable } from "node:stream";
import { and, count, desc, eq, gt, lt } from "drizzle-orm";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { downloadChunks, downloads, jobs } from "../../db/schema";
import type { Db } from "../../db/client";
import { EXPORT_FILE_JOB, EXPORT_FILE_JOB_OPTIONS, exportFileJob, XLSX_MIME } from "../../engine/exports";
import { listPaging, parseRecordId } from "../../engine/crud";
import { jobKinds, registerJobKind, type JobContext } from "../../jobs/registry";
import { escapeHtml, phonePage } from "../../lib/htmlPage";
import { requestLanguage, translator } from "../../lib/i18n";
import { fail, notFound } from "../../protocol/envelope";
import { ANY_SIGNED_IN, type AppServices, type OperationContext, type OperationRegistry } from "../../protocol/registry";

export const DOWNLOAD_FILE_PATH = "/files/exports";
/** how long a link of downloadinfo opens the file */
export const DOWNLOAD_LINK_SECONDS = 300;
export const PRUNE_DOWNLOADS = "downloads.prune_expired";
const PRUNE_DOWNLOADS_EVERY_SECONDS = 3600;

export type DownloadStatus = "queued" | "running" | "done" | "failed";

type DownloadRow = { id: number; operation: string; filename: string; size: number | null; rows: number | null; createdAt: Date; expiresAt: Date; status: string | null; progress: number | null };

const listedColumns = {
  id: downloads.id,
  operation: downloads.operation,
  filename: downloads.filename,
  size: downloads.size,
  rows: downloads.rows,
  createdAt: downloads.createdAt,
  expiresAt: downloads.expiresAt,
  status: jobs.status,
  progress: jobs.progress,
};

/** A download as the API answers it: its job's status ("failed" once the job is gone unfinished) and progress. */
function apiDownload(row: DownloadRow): Record<string, unknown> {
  const status: DownloadStatus = row.status === "queued" || row.status === "running" || row.status === "done" ? row.status : row.size !== null ? "done" : "failed";
  return {
    id: row.id,
    job_id: row.id,
    operation: row.operation,
    filename: row.filename,
    status,
    progress: status === "done" ? 100 : (row.progress ?? 0),
    size: row.size,
    rows: row.rows,
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
  };
}

function signature(linkKey: string, id: number, expires: number): string {
  return createHmac("sha256", linkKey).update(`${id}.${expires}`).digest("base64url");
}

/** the caller's downloads not yet expired */
const ownLiveDownloads = (ctx: OperationContext) => and(eq(downloads.userId, ctx.auth!.userId), gt(downloads.expiresAt, ctx.now));

export function registerDownloadOperations(registry: OperationRegistry): void {
  if (!jobKinds.get(EXPORT_FILE_JOB)) registerJobKind(EXPORT_FILE_JOB, exportFileJob, EXPORT_FILE_JOB_OPTIONS);
  if (!jobKinds.get(PRUNE_DOWNLOADS)) registerJobKind(PRUNE_DOWNLOADS, pruneExpiredDownloads, { everySeconds: PRUNE_DOWNLOADS_EVERY_SECONDS });

  registry.add({
    path: "adminapiv2",
    method: "downloadlist",
    needsToken: true,
    roles: ANY_SIGNED_IN,
    effect: "read",
    schema: z.looseObject({ page: z.unknown().optional(), limit: z.unknown().optional() }),
    async handler(ctx) {
      const { page, limit } = listPaging(ctx.payload);
      const live = ownLiveDownloads(ctx);
      const [rows, [{ total }]] = await Promise.all([
        ctx.db
          .select(listedColumns)
          .from(downloads)
          .leftJoin(jobs, eq(jobs.id, downloads.jobId))
          .where(live)
          .orderBy(desc(downloads.id))
          .limit(limit)
          .offset((page - 1) * limit),
        ctx.db.select({ total: count() }).from(downloads).where(live),
      ]);
      return { data: { items: rows.map(apiDownload), total: Number(total) } };
    },
  });

  registry.add({
    path: "adminapiv2",
    method: "downloadinfo",
    needsToken: true,
    roles: ANY_SIGNED_IN,
    effect: "read",
    schema: z.looseObject({ id: z.unknown() }),
    async handler(ctx) {
      const id = parseRecordId(ctx.payload.id);
      const [row] = await ctx.db
        .select({ ...listedColumns, linkKey: downloads.linkKey })
        .from(downloads)
        .leftJoin(jobs, eq(jobs.id, downloads.jobId))
        .where(and(eq(downloads.id, id), ownLiveDownloads(ctx)));
      if (!row) throw notFound();
      const item = apiDownload(row);
      if (item.status === "done") {
        const expires = Math.floor(ctx.now.getTime() / 1000) + DOWNLOAD_LINK_SECONDS;
        item.url = `${DOWNLOAD_FILE_PATH}/${id}?expires=${expires}&signature=${signature(row.linkKey, id, expires)}`;
      }
      return { data: { items: item } };
    },
  });
}

/** The file's pieces, read one at a time. */
async function* fileChunks(db: Db, downloadId: number): AsyncGenerator<Buffer> {
  for (let seq = 0; ; seq++) {
    const [chunk] = await db
      .select({ data: downloadChunks.data })
      .from(downloadChunks)
      .where(and(eq(downloadChunks.downloadId, downloadId), eq(downloadChunks.seq, seq)));
    if (!chunk) return;
    yield Buffer.from(chunk.data.buffer, chunk.data.byteOffset, chunk.data.byteLength);
  }
}

/** `attachment` with the name as it is (RFC 6266) and an ASCII stand-in for old clients */
function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/** GET /files/exports/:id?expires=&signature=: the file, to whoever holds a link that is signed and not expired. */
export function registerDownloadRoutes(app: FastifyInstance, services: AppServices): void {
  const refuse = (request: FastifyRequest, reply: FastifyReply) => {
    const language = requestLanguage(request.headers);
    const t = translator(language);
    const message = t("downloads.link_refused");
    reply.status(403).header("cache-control", "no-store");
    if (String(request.headers.accept ?? "").includes("text/html")) {
      return reply.type("text/html; charset=utf-8").send(phonePage(language, t("downloads.title"), `<p class="closed" data-testid="download-refused">${escapeHtml(message)}</p>`));
    }
    return reply.send(fail(message));
  };

  app.get<{ Params: { id: string }; Querystring: { expires?: string; signature?: string } }>(`${DOWNLOAD_FILE_PATH}/:id`, async (request, reply) => {
    const id = Number(request.params.id);
    const expires = Number(request.query.expires);
    const given = String(request.query.signature ?? "");
    const now = services.clock.now();
    if (!Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647 || !Number.isSafeInteger(expires) || expires * 1000 < now.getTime()) return refuse(request, reply);
    const [download] = await services.db
      .select({ linkKey: downloads.linkKey, filename: downloads.filename, size: downloads.size, expiresAt: downloads.expiresAt })
      .from(downloads)
      .where(eq(downloads.id, id));
    if (!download || download.size === null || download.expiresAt <= now) return refuse(request, reply);
    const expected = Buffer.from(signature(download.linkKey, id, expires));
    const sent = Buffer.from(given);
    if (sent.length !== expected.length || !timingSafeEqual(sent, expected)) return refuse(request, reply);
    return reply
      .header("content-type", XLSX_MIME)
      .header("content-length", String(download.size))
      .header("content-disposition", contentDisposition(download.filename))
      .header("cache-control", "no-store")
      .send(Readable.from(fileChunks(services.db, id)));
  });
}

/** Removes the downloads past their expiry with their files. */
export async function pruneExpiredDownloads({ db, now }: JobContext): Promise<{ deleted: number }> {
  const deleted = await db.delete(downloads).where(lt(downloads.expiresAt, now)).returning({ id: downloads.id });
  return { deleted: deleted.length };
}
