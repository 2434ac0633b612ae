/**
 * Uploads: images and files through one operation, `POST /weapi/upload` (multipart/form-data: a `kind` field,
 * `image` or `file`, then one `file` part; the session's token in X-Token), and the files served back at
 * `GET /files/<key>` (./keys.ts).
 *
 * - The session is checked before a byte of the body is read, as every /weapi/ call checks it (token_error), and
 *   the term rule of a write applies. A payer of the payer page, who has no session, uploads images only (an
 *   after-sale's photos), with the ticket its student was found with in X-Payer-Ticket instead of the token; so does an
 *   applicant of the registration page (its licence's pictures), saying so in X-Applicant, held to a few a minute per
 *   address. Uploads are throttled per user (@fastify/rate-limit keyed by the session's
 *   user) and a few are received at a time per process, more wait, beyond that the server is busy: memory holds at
 *   most UPLOADS_AT_ONCE files, each at most its kind's cap, read as it arrives and refused once it passes the cap.
 * - The type is what the content is (file-type's magic bytes), never the name or the declared type: an image is a
 *   JPEG, PNG, WebP or GIF that sharp decodes; a file a PDF, an .xlsx, a zip or such an image.
 * - An image is stored by the sha256 of its bytes as WebP variants of a few widths (./images.ts): the same image
 *   uploaded twice is the same objects, and they are served to anybody with `Cache-Control: immutable`.
 * - A file is stored as sent under its uploader's tenant (`private/<sysid>/<sch_id>/<sha256>.<ext>`) and served
 *   only to a signed-in caller of that tenant (./access.ts) who sends the X-Token header; another tenant gets the
 *   answer of a file that does not exist.
 * - Storage (./storage.ts): `DATA_DIR/uploads/` on the embedded database, an S3-compatible bucket with S3_*.
 *
 * Answers: the /weapi/ envelope; `data.items` {url, key, width?, height?, variants?}; a refusal is FAIL with a
 * message naming the field (`file`, or `kind`) and `data.errors` [{field, message}]. Logs name the user, the
 * kind, the key, the size and the type, never the content.
 */
import { createHash } from "node:crypto";
import type { Readable } from "node:stream";
import fastifyMultipart from "@fastify/multipart";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import pLimit from "p-limit";
import { termExpired } from "../auth/expiry";
import { resolveSession, type ResolvedSession } from "../auth/sessions";
import { requestLanguage, translator, type Translate } from "../lib/i18n";
import type { AppOptions } from "../protocol/app";
import { fail, success, tokenError, type Envelope } from "../protocol/envelope";
import type { AppServices } from "../protocol/registry";
import { mayReadPrivateFile } from "./access";
import { MAX_IMAGE_PIXELS, storeImage, UnreadableImage } from "./images";
import {
  CONTENT_TYPES,
  FILE_TYPES,
  filePath,
  FILES_PATH,
  IMAGE_TYPES,
  parseKey,
  privateFileKey,
  UPLOAD_KINDS,
  UPLOAD_MAX_BYTES,
  uploaderTenant,
  type ParsedKey,
  type UploadKind,
} from "./keys";
import { uploadStorageFromEnv, type UploadStorage } from "./storage";

export { FILES_PATH } from "./keys";
export type { UploadStorage } from "./storage";

export interface UploadOptions {
  /** where files are kept; default: S3 when the S3_* variables are set, else `uploads/` of the data directory */
  storage?: UploadStorage;
  /** uploads per user and window; default UPLOAD_RATE_LIMIT (off when the app's own rateLimit is false); false: none */
  rateLimit?: { max: number; timeWindowMs: number } | false;
}

declare module "../protocol/app" {
  interface AppOptions {
    /** uploads (server/uploads/): their storage and throttle */
    uploads?: UploadOptions;
  }
}

declare module "fastify" {
  interface FastifyInstance {
    /** where uploaded files are kept (server/uploads/) */
    uploadStorage: UploadStorage;
  }
}

export const UPLOAD_PATH = "/weapi/upload";
export const UPLOAD_RATE_LIMIT = { max: 60, timeWindowMs: 60_000 };
/** uploads received and handled at once per process (each holds its file), and how many more may wait */
export const UPLOADS_AT_ONCE = 6;
export const UPLOADS_WAITING = 24;
/** images resized at once per process (decoding takes memory: MAX_IMAGE_PIXELS) */
const IMAGES_AT_ONCE = 2;
/** the form's own bytes beside the file (boundaries, part headers, the kind field) */
const FORM_OVERHEAD_BYTES = 64 * 1024;
/** how much more of a refused body is read and thrown away before its connection is ended */
const DRAIN_MAX_BYTES = 64 * 1024 * 1024;
const IMMUTABLE = "public, max-age=31536000, immutable";

const receiving = pLimit(UPLOADS_AT_ONCE);
const resizing = pLimit(IMAGES_AT_ONCE);

/** A refusal: the message's key and parameters, and the field it names. */
class Refusal {
  constructor(
    readonly messageKey: string,
    readonly field: "file" | "kind" | null,
    readonly params: Record<string, string | number> = {},
    /** what the log says beside the message (the type found, the size): never the content */
    readonly detail: Record<string, unknown> = {},
  ) {}

  envelope(t: Translate): Envelope {
    const message = t(this.messageKey, this.params);
    return this.field ? fail(message, { errors: [{ field: this.field, message }] }) : fail(message);
  }
}

const megabytes = (bytes: number) => Math.round(bytes / (1024 * 1024));
const tooLarge = (kind: UploadKind) => new Refusal("uploads.too_large", "file", { max: megabytes(UPLOAD_MAX_BYTES[kind]) });

function headerValue(value: string | string[] | undefined): string {
  return Array.isArray(value) ? (value[0] ?? "") : (value ?? "");
}

function parseKind(value: unknown): UploadKind | undefined {
  return UPLOAD_KINDS.find((kind) => kind === value);
}

/** file-type's mime as the sharp format its decoder reports */
const SHARP_FORMATS: Record<string, string> = { "image/jpeg": "jpeg", "image/png": "png", "image/webp": "webp", "image/gif": "gif" };

/** The embedded database's directory (start.ts keeps the payment key file there), else DATA_DIR. */
function dataDirectory(options: AppOptions): string {
  return options.paymentKey?.keyFileDir ?? (process.env.DATA_DIR || "./data");
}

function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.trim() === "*" || header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}

/** The bytes of a part up to `cap`, or null once it passes it (the rest is never read into memory). */
async function readCapped(stream: Readable, cap: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const bytes = chunk as Buffer;
    size += bytes.length;
    // leaving the loop destroys the part's stream, and the form's reader lets go of the request
    if (size > cap) return null;
    chunks.push(bytes);
  }
  if ((stream as Readable & { truncated?: boolean }).truncated) return null;
  return Buffer.concat(chunks, size);
}

/**
 * After a refusal of a body not read to its end (no session, over the cap, a bad form): the answer goes at once,
 * and the rest of the body is read and thrown away meanwhile, so that a client still sending reads the answer
 * rather than a reset connection; past DRAIN_MAX_BYTES more the connection is ended.
 */
function discardRest(request: FastifyRequest): void {
  const raw = request.raw;
  if (raw.complete || raw.readableEnded || raw.destroyed) return;
  // the form's reader may still hold the request (a refusal between parts): nothing more goes to it
  raw.unpipe();
  let discarded = 0;
  raw.on("data", (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > DRAIN_MAX_BYTES) raw.socket?.destroy();
  });
  raw.on("error", () => undefined);
  raw.resume();
}

/**
 * Who uploads: a signed-in user, a payer by its ticket or an applicant for registration by its address (both images
 * only); `key` names it in the throttle and the log.
 */
type Uploader = { kind: "user"; session: ResolvedSession; key: string } | { kind: "payer" | "applicant"; key: string };

/** the uploads an applicant may make a minute from one address: a licence's few pictures, and a retry or two */
export const APPLICANT_UPLOADS_PER_MINUTE = 10;

/** The student a payer's ticket was issued for, or null when the ticket is unknown or expired. */
export type PayerTicketCheck = (ticket: string) => Promise<{ studentId: number } | null>;

/** Where the app keeps files: the store handed in, else S3 when the S3_* variables are set, else the data directory's. */
export function uploadStorageOf(options: AppOptions): UploadStorage {
  return options.uploads?.storage ?? uploadStorageFromEnv(process.env, dataDirectory(options));
}

export async function registerUploadRoutes(app: FastifyInstance, services: AppServices, options: AppOptions, payerTicket: PayerTicketCheck): Promise<void> {
  const storage = services.uploadStorage;
  app.decorate("uploadStorage", storage);
  // a store the app made is the app's to close; one handed in is its owner's
  if (!options.uploads?.storage) app.addHook("onClose", () => storage.close());

  const uploaders = new WeakMap<FastifyRequest, Promise<Uploader | null>>();
  /** the caller: its live session, else a payer's live ticket; read once a request (the throttle's key asks first) */
  const uploaderOf = (request: FastifyRequest): Promise<Uploader | null> => {
    let uploader = uploaders.get(request);
    if (!uploader) {
      const token = headerValue(request.headers["x-token"]);
      const ticket = headerValue(request.headers["x-payer-ticket"]);
      uploader = token
        ? resolveSession(services.db, token, services.clock.now(), services.sessionLifetime).then((s) => (s?.auth.usable ? { kind: "user" as const, session: s, key: `user:${s.auth.userId}` } : null))
        : ticket
          ? payerTicket(ticket).then((payer) => (payer ? { kind: "payer" as const, key: `payer:${payer.studentId}` } : null))
          : headerValue(request.headers["x-applicant"]) === "1"
            ? Promise.resolve({ kind: "applicant" as const, key: `applicant:${request.ip}` })
            : Promise.resolve(null);
      uploaders.set(request, uploader);
    }
    return uploader;
  };

  const origin = (request: FastifyRequest) => services.publicUrl ?? `${request.protocol}://${request.host}`;
  const languageOf = (request: FastifyRequest) => translator(requestLanguage(request.headers));

  const rateLimit = options.uploads?.rateLimit ?? (options.rateLimit === false ? false : UPLOAD_RATE_LIMIT);
  const routeConfig = rateLimit
    ? {
        rateLimit: {
          max: (_request: FastifyRequest, key: string) => (key.startsWith("upload:applicant:") ? Math.min(rateLimit.max, APPLICANT_UPLOADS_PER_MINUTE) : rateLimit.max),
          timeWindow: rateLimit.timeWindowMs,
          // per user: a session's account or a payer's student, or the address of a call with neither (refused anyway)
          keyGenerator: async (request: FastifyRequest) => {
            const uploader = await uploaderOf(request);
            return uploader ? `upload:${uploader.key}` : `upload:ip:${request.ip}`;
          },
        },
      }
    : {};

  /** The upload: the caller, then the form read part by part, then the content checked and stored. */
  async function upload(request: FastifyRequest<{ Querystring: { kind?: string } }>): Promise<Envelope | Refusal> {
    const uploader = await uploaderOf(request);
    const t = languageOf(request);
    if (!uploader) return request.headers["x-payer-ticket"] && !request.headers["x-token"] ? fail(t("collection.payer.ticket_expired")) : tokenError(t("api.token_invalid"));
    if (uploader.kind === "user" && termExpired(uploader.session.auth, services.clock.now())) return fail(t("api.term_expired"));
    if (!request.isMultipart()) return new Refusal("uploads.no_file", "file");
    // a payer sends photos, an applicant its licence's pictures, never a file
    const refusedKind = (asked: UploadKind) => (uploader.kind !== "user" && asked !== "image" ? new Refusal("uploads.payer_images_only", "kind") : null);

    let kind: UploadKind | undefined;
    if (request.query.kind !== undefined) {
      kind = parseKind(request.query.kind);
      if (!kind) return new Refusal("uploads.bad_kind", "kind");
      const refused = refusedKind(kind);
      if (refused) return refused;
    }
    // a body that says it is larger than any upload is refused before it is read
    const declared = Number(headerValue(request.headers["content-length"]));
    if (Number.isFinite(declared) && declared > UPLOAD_MAX_BYTES[kind ?? "file"] + FORM_OVERHEAD_BYTES) return tooLarge(kind ?? "file");
    if (receiving.activeCount + receiving.pendingCount >= UPLOADS_AT_ONCE + UPLOADS_WAITING) return new Refusal("uploads.busy", null);

    return receiving(async () => {
      let file: Buffer | undefined;
      try {
        const parts = request.parts({
          limits: { files: 1, fields: 4, fieldSize: 100, fieldNameSize: 100, parts: 8, headerPairs: 20, fileSize: UPLOAD_MAX_BYTES.file + 1 },
        });
        for await (const part of parts) {
          if (part.type === "field") {
            // the kind the file was read as stays its kind
            if (part.fieldname === "kind" && file === undefined) {
              kind = parseKind(part.value);
              if (!kind) return new Refusal("uploads.bad_kind", "kind");
            }
            continue;
          }
          if (part.fieldname !== "file") {
            part.file.destroy();
            return new Refusal("uploads.no_file", "file");
          }
          // the cap is the kind's: it must be known before the file (browsers send a form's fields in order)
          if (!kind) {
            part.file.destroy();
            return new Refusal("uploads.bad_kind", "kind");
          }
          const refused = refusedKind(kind);
          if (refused) {
            part.file.destroy();
            return refused;
          }
          const read = await readCapped(part.file, UPLOAD_MAX_BYTES[kind]);
          if (!read) return tooLarge(kind);
          file = read;
        }
      } catch (err) {
        const code = (err as { code?: string }).code;
        if (code === "FST_FILES_LIMIT") return new Refusal("uploads.one_file", "file");
        if (code === "FST_REQ_FILE_TOO_LARGE") return tooLarge(kind ?? "file");
        if (code === "FST_PARTS_LIMIT" || code === "FST_FIELDS_LIMIT" || code === "FST_PROTO_VIOLATION") return new Refusal("uploads.bad_form", null);
        // the client went away, or sent something that is no form
        request.log.info({ upload: { user: uploader.key, error: (err as Error).message } }, "upload form unreadable");
        return new Refusal("uploads.bad_form", null);
      }
      if (!kind) return new Refusal("uploads.bad_kind", "kind");
      if (!file || file.length === 0) return new Refusal("uploads.no_file", "file");
      return store(request, uploader, kind, file, t);
    });
  }

  async function store(request: FastifyRequest, uploader: Uploader, kind: UploadKind, file: Buffer, t: Translate): Promise<Envelope | Refusal> {
    const started = Date.now();
    let type: { mime: string; ext: string } | undefined;
    try {
      // loaded with the first upload, not with the server
      const { fileTypeFromBuffer } = await import("file-type");
      type = await fileTypeFromBuffer(file);
    } catch {
      type = undefined;
    }
    const accepted = kind === "image" ? IMAGE_TYPES : FILE_TYPES;
    if (!type || !accepted[type.mime]) {
      return new Refusal(kind === "image" ? "uploads.not_image" : "uploads.not_accepted", "file", {}, { kind, bytes: file.length, detected: type?.mime ?? null });
    }
    const base = origin(request);
    const logged = (key: string, stored: "new" | "existing") =>
      request.log.info({ upload: { user: uploader.key, kind, key, bytes: file.length, type: type.mime, stored, ms: Date.now() - started } }, "upload stored");

    if (kind === "file" && uploader.kind === "user") {
      const hash = createHash("sha256").update(file).digest("hex");
      const key = privateFileKey(uploaderTenant(uploader.session.auth), hash, accepted[type.mime]!);
      const existed = await storage.exists(key);
      if (!existed) await storage.put(key, file, CONTENT_TYPES[accepted[type.mime]!]!);
      logged(key, existed ? "existing" : "new");
      return success(t("uploads.done"), { items: { url: `${base}${filePath(key)}`, key } });
    }

    let stored;
    try {
      stored = await storeImage(storage, file, SHARP_FORMATS[type.mime]!, { limit: resizing });
    } catch (err) {
      if (!(err instanceof UnreadableImage)) throw err;
      const detail = { kind, bytes: file.length, detected: type.mime };
      return err.tooManyPixels ? new Refusal("uploads.too_many_pixels", "file", { max: MAX_IMAGE_PIXELS / 1_000_000 }, detail) : new Refusal("uploads.unreadable", "file", {}, detail);
    }
    const { manifest, existed } = stored;
    const largest = manifest.variants[manifest.variants.length - 1]!;
    logged(largest.key, existed ? "existing" : "new");
    return success(t("uploads.done"), {
      items: {
        url: `${base}${filePath(largest.key)}`,
        key: largest.key,
        width: largest.width,
        height: largest.height,
        variants: manifest.variants.map((v) => ({ width: v.width, height: v.height, key: v.key, url: `${base}${filePath(v.key)}` })),
      },
    });
  }

  // the form's parser lives in this scope alone: the other /weapi/ routes take JSON only
  await app.register(async (scope) => {
    await scope.register(fastifyMultipart, { throwFileSizeLimit: false });
    scope.post<{ Querystring: { kind?: string } }>(UPLOAD_PATH, { config: routeConfig }, async (request, reply) => {
      const t = languageOf(request);
      let answer: Envelope | Refusal;
      try {
        answer = await upload(request);
      } catch (err) {
        request.log.error({ err }, "upload failed");
        answer = fail(t("api.system_error"));
      }
      const envelope = answer instanceof Refusal ? answer.envelope(t) : answer;
      if (envelope.return_code !== "SUCCESS") {
        const user = (await uploaderOf(request).catch(() => null))?.key ?? null;
        const reason = answer instanceof Refusal ? answer.messageKey : envelope.return_code;
        request.log.info({ upload: { user, refused: reason, ...(answer instanceof Refusal ? answer.detail : {}) } }, "upload refused");
      }
      discardRest(request);
      return reply.status(200).type("application/json; charset=utf-8").send(envelope);
    });
  });

  /** A stored file to the client: its type, size and tag; 304 when the client holds it already. */
  async function sendStored(request: FastifyRequest, reply: FastifyReply, parsed: ParsedKey, cacheControl: string): Promise<FastifyReply> {
    const etag = `"${parsed.kind === "image" ? `${parsed.hash}_${parsed.width}` : parsed.hash}"`;
    if (matchesEtag(request.headers["if-none-match"], etag)) return reply.status(304).header("etag", etag).header("cache-control", cacheControl).send();
    let object;
    try {
      object = await storage.get(parsed.key);
    } catch (err) {
      request.log.error({ err, key: parsed.key }, "stored file unreadable");
      return reply.status(503).header("cache-control", "no-store").send(fail(languageOf(request)("api.system_error")));
    }
    if (!object) return notFound(request, reply);
    reply.header("etag", etag).header("cache-control", cacheControl).header("content-type", CONTENT_TYPES[parsed.ext]!).header("content-length", String(object.size));
    if (parsed.kind === "private" && !/^(jpg|png|webp|gif)$/.test(parsed.ext)) {
      reply.header("content-disposition", `attachment; filename="${parsed.hash.slice(0, 16)}.${parsed.ext}"`);
    }
    return reply.send(object.body);
  }

  const notFound = (request: FastifyRequest, reply: FastifyReply) => reply.status(404).header("cache-control", "no-store").send(fail(languageOf(request)("uploads.not_found")));

  // public images: anybody, cached for good (the key names the content)
  app.get<{ Params: { name: string } }>(`${FILES_PATH}/img/:name`, async (request, reply) => {
    const parsed = parseKey(`img/${request.params.name}`);
    if (parsed?.kind !== "image") return notFound(request, reply);
    // they may be shown by pages of other origins (a CDN in front, a mini program's web view)
    reply.header("cross-origin-resource-policy", "cross-origin");
    return sendStored(request, reply, parsed, IMMUTABLE);
  });

  // private files: a signed-in caller of the file's tenant, by the X-Token header
  app.get<{ Params: { sysid: string; schid: string; name: string } }>(`${FILES_PATH}/private/:sysid/:schid/:name`, async (request, reply) => {
    const t = languageOf(request);
    const parsed = parseKey(`private/${request.params.sysid}/${request.params.schid}/${request.params.name}`);
    const uploader = await uploaderOf(request);
    // a payer's ticket or an applicant opens no private file
    if (uploader?.kind !== "user") return reply.status(401).header("cache-control", "no-store").send(tokenError(t("api.token_invalid")));
    if (parsed?.kind !== "private" || !(await mayReadPrivateFile(services.db, uploader.session.auth, parsed.tenant))) return notFound(request, reply);
    return sendStored(request, reply, parsed, "private, no-store");
  });
}
