/**
 * Uploads (server/uploads/), on the embedded database, with files kept in a directory and again in an S3 bucket
 * (s3rver, a real S3-protocol server started here on loopback): images of several types come back as WebP
 * variants no wider than the original, upright and without EXIF, stored once by their content and served with
 * immutable caching and their ETag; a file's type is its content, never its name; a file over its cap is refused
 * while it arrives; no session, no upload; a private file opens for its tenant only; uploads are throttled per user
 * and logged without their content. On S3, two servers sharing the bucket serve what either took.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import ExcelJS from "exceljs";
import type { FastifyInstance } from "fastify";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isImageUrl } from "../../common/fieldRules";
import { eq } from "drizzle-orm";
import { providers, schools, students } from "../../server/db/schema";
import { issueTicket } from "../../server/domains/collection/payerTickets";
import { translator } from "../../server/lib/i18n";
import { ManualClock } from "../../server/lib/clock";
import { buildApp, type AppOptions } from "../../server/protocol/app";
import { DEMO_PASSWORD } from "../../server/seed/demo";
import { UPLOAD_MAX_BYTES } from "../../server/uploads/keys";
import { APPLICANT_UPLOADS_PER_MINUTE, UPLOAD_RATE_LIMIT } from "../../server/uploads";
import { LocalUploadStorage, S3UploadStorage, uploadStorageFromEnv, type UploadStorage } from "../../server/uploads/storage";
import { TEST_NOW } from "../helpers/databaseImages";
import { createTestDatabase, describeOnEmbedded, type TestDatabase } from "../helpers/db";
import { idByTitle, TEST_PASSWORD_COST } from "./support";

const zh = translator("zh");

/** s3rver (an S3-protocol server in Node) ships no types: the part of it used here */
interface S3rverServer {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
}
const S3rver = createRequire(import.meta.url)("s3rver") as new (options: { address: string; port: number; directory: string; silent: boolean; configureBuckets: { name: string }[] }) => S3rverServer;

type Envelope = { return_code: string; return_msg: string; data?: Record<string, unknown> };
interface Variant {
  width: number;
  height: number;
  key: string;
  url: string;
}
interface Uploaded {
  url: string;
  key: string;
  width?: number;
  height?: number;
  variants?: Variant[];
}

/** A server on 127.0.0.1 at a port chosen now, over one database, its uploads kept in `storage`; its log lines kept. */
async function startServer(db: TestDatabase, storage: UploadStorage, uploads: Partial<NonNullable<AppOptions["uploads"]>> = {}) {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString("utf8").split("\n").filter(Boolean));
      done();
    },
  });
  const app = await buildApp({
    db: db.database.db,
    clock: new ManualClock(TEST_NOW),
    passwordCost: TEST_PASSWORD_COST,
    rateLimit: false,
    staticDir: null,
    logger: { level: "info", stream },
    uploads: { storage, rateLimit: false, ...uploads },
  });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  return { app, url, lines };
}

type Server = Awaited<ReturnType<typeof startServer>>;

async function login(server: Server, username: string): Promise<string> {
  const res = await fetch(`${server.url}/weapi/adminapi`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ method: "login", username, password: DEMO_PASSWORD }) });
  const body = (await res.json()) as Envelope;
  if (body.return_code !== "SUCCESS") throw new Error(`login ${username}: ${body.return_msg}`);
  return String(body.data?.token);
}

/** The upload as a browser's form sends it: the kind, then the file. */
async function upload(server: Server, token: string | null, kind: string | null, content: Buffer, filename: string, type = "application/octet-stream"): Promise<{ status: number; body: Envelope }> {
  const form = new FormData();
  if (kind !== null) form.append("kind", kind);
  form.append("file", new Blob([new Uint8Array(content)], { type }), filename);
  const res = await fetch(`${server.url}/weapi/upload`, { method: "POST", headers: token ? { "x-token": token } : {}, body: form });
  return { status: res.status, body: (await res.json()) as Envelope };
}

/** A payer's upload: its student's ticket in X-Payer-Ticket, no session. */
async function payerUpload(server: Server, ticket: string, kind: string, content: Buffer, filename: string): Promise<Envelope> {
  const form = new FormData();
  form.append("kind", kind);
  form.append("file", new Blob([new Uint8Array(content)]), filename);
  const res = await fetch(`${server.url}/weapi/upload`, { method: "POST", headers: { "x-payer-ticket": ticket }, body: form });
  return (await res.json()) as Envelope;
}

async function uploaded(server: Server, token: string, kind: string, content: Buffer, filename: string): Promise<Uploaded> {
  const res = await upload(server, token, kind, content, filename);
  expect(res.body.return_code, res.body.return_msg).toBe("SUCCESS");
  return res.body.data?.items as Uploaded;
}

function expectRefusedNamingFile(body: Envelope, message: string): void {
  expect(body.return_code).toBe("FAIL");
  expect(body.return_msg).toBe(message);
  expect(body.return_msg).toContain("file");
  expect(body.data?.errors).toEqual([{ field: "file", message }]);
}

const get = (server: Server, url: string, headers: Record<string, string> = {}) => fetch(`${server.url}${new URL(url, server.url).pathname}`, { headers });

// images made here: a wide PNG with transparency, and a small JPEG from a camera held upright (EXIF orientation 6)
const png = () => sharp({ create: { width: 2000, height: 1200, channels: 4, background: { r: 20, g: 120, b: 200, alpha: 0.5 } } }).png().toBuffer();
const cameraJpeg = (seed: number) =>
  sharp({ create: { width: 300, height: 200, channels: 3, background: { r: (seed * 53) % 256, g: (seed * 97) % 256, b: 40 } } })
    .jpeg({ quality: 90 })
    .withMetadata({ orientation: 6 })
    .withExif({ IFD0: { Make: "CampusCam", Copyright: "secret-owner" } })
    .toBuffer();
const pdf = (marker: string) => Buffer.from(`%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n% ${marker}\ntrailer << /Root 1 0 R >>\n%%EOF\n`);

async function workbook(): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  book.addWorksheet("fees").addRow(["student", "amount"]);
  return Buffer.from(await book.xlsx.writeBuffer());
}

/**
 * A multipart body that never ends, sent chunk by chunk with no Content-Length: the answer must come while it is
 * still being sent. Answers the answer and how many bytes had been sent by then.
 */
function endlessUpload(server: Server, token: string, kind: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Envelope; sent: number }> {
  const boundary = `----cpc${randomBytes(8).toString("hex")}`;
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const request = http.request({ host: "127.0.0.1", port: Number(port), method: "POST", path: "/weapi/upload", headers: { "content-type": `multipart/form-data; boundary=${boundary}`, "x-token": token } });
    // the server ends the connection once it has answered: writes after that fail, as they should
    request.on("error", (err) => (answered ? undefined : reject(err)));
    request.on("response", (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        request.destroy();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) as Envelope, sent });
      });
    });
    request.write(`--${boundary}\r\nContent-Disposition: form-data; name="kind"\r\n\r\n${kind}\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.png"\r\nContent-Type: image/png\r\n\r\n`);
    const chunk = randomBytes(64 * 1024);
    const pump = () => {
      while (!answered && sent < 512 * 1024 * 1024) {
        sent += chunk.length;
        if (!request.write(chunk)) return void request.once("drain", pump);
      }
    };
    pump();
  });
}

/** The tests on one kind of storage; `second` opens the same storage again (a bucket two servers share). */
function uploadTests(name: string, makeStorage: () => Promise<{ storage: UploadStorage; second?: () => UploadStorage; stop(): Promise<void> }>, shared = false) {
  describe(name, () => {
    let database: TestDatabase;
    let server: Server;
    let stores: Awaited<ReturnType<typeof makeStorage>>;
    const tokens: Record<string, string> = {};
    let sunrise = 0;
    let sunriseNo1 = 0;

    beforeAll(async () => {
      database = await createTestDatabase("pglite", "seeded");
      stores = await makeStorage();
      server = await startServer(database, stores.storage);
      for (const user of ["svc", "staff", "school", "harbour", "sysop", "pickup"]) tokens[user] = await login(server, user);
      sunrise = await idByTitle(database.database.db, providers, "Sunrise Campus Services");
      sunriseNo1 = await idByTitle(database.database.db, schools, "Sunrise No.1 Primary School");
    });
    afterAll(async () => {
      await server?.app.close();
      await stores?.storage.close();
      await stores?.stop();
      await database?.dispose();
    });

    it("answers a PNG and a JPEG as WebP variants no wider than the original, upright, without EXIF, and serves them", async () => {
      const wide = await uploaded(server, tokens.svc!, "image", await png(), "banner.png");
      expect(wide.variants!.map((v) => v.width)).toEqual([160, 480, 1080]);
      expect(wide.variants!.map((v) => v.height)).toEqual([96, 288, 648]);
      expect(wide).toMatchObject({ width: 1080, height: 648, key: wide.variants![2]!.key, url: wide.variants![2]!.url });

      const original = await cameraJpeg(1);
      expect((await sharp(original).metadata()).exif).toBeDefined();
      const photo = await uploaded(server, tokens.school!, "image", original, "IMG_0001.JPG");
      // 300 x 200 turned upright is 200 wide: a 160 variant and the image at its own width, never enlarged
      expect(photo.variants!.map((v) => [v.width, v.height])).toEqual([
        [160, 240],
        [200, 300],
      ]);
      expect(photo).toMatchObject({ width: 200, height: 300 });

      for (const item of [wide, photo]) {
        expect(isImageUrl(item.url)).toBe(true);
        expect(item.key).toMatch(/^img\/[0-9a-f]{64}_\d+\.webp$/);
        for (const variant of item.variants!) {
          expect(isImageUrl(variant.url)).toBe(true);
          expect(new URL(variant.url).pathname).toBe(`/files/${variant.key}`);
          const res = await get(server, variant.url);
          expect(res.status).toBe(200);
          expect(res.headers.get("content-type")).toBe("image/webp");
          const bytes = Buffer.from(await res.arrayBuffer());
          expect(Number(res.headers.get("content-length"))).toBe(bytes.length);
          const stored = await sharp(bytes).metadata();
          expect(stored).toMatchObject({ format: "webp", width: variant.width, height: variant.height });
          expect(stored.exif).toBeUndefined();
          expect(stored.orientation).toBeUndefined();
          expect(bytes.includes(Buffer.from("secret-owner"))).toBe(false);
        }
      }
    });

    it("stores the same image once: uploaded twice, by two users, it answers the same key", async () => {
      const image = await cameraJpeg(2);
      const first = await uploaded(server, tokens.svc!, "image", image, "a.jpg");
      const again = await uploaded(server, tokens.staff!, "image", image, "copy of a.jpg");
      expect(again).toEqual(first);
      const other = await uploaded(server, tokens.svc!, "image", await cameraJpeg(3), "b.jpg");
      expect(other.key).not.toBe(first.key);
      expect(server.lines.filter((line) => line.includes(first.key) && line.includes('"stored":"existing"'))).toHaveLength(1);
    });

    it("serves a public image to anybody with immutable caching and its ETag, and answers 304 to that tag", async () => {
      const image = await uploaded(server, tokens.svc!, "image", await cameraJpeg(4), "c.jpg");
      const res = await get(server, image.url);
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(res.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      const etag = res.headers.get("etag");
      expect(etag).toMatch(/^"[0-9a-f]{64}_\d+"$/);
      await res.arrayBuffer();
      const again = await get(server, image.url, { "if-none-match": etag! });
      expect(again.status).toBe(304);
      expect(again.headers.get("etag")).toBe(etag);
      expect(again.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect((await get(server, image.url, { "if-none-match": '"another"' })).status).toBe(200);
    });

    it("refuses, naming file, a text file named .png, a PDF sent as an image and a text file sent as a file", async () => {
      const text = Buffer.from("just some text, not a picture at all\n".repeat(20));
      const before = server.lines.length;
      const res = await upload(server, tokens.svc!, "image", text, "photo.png", "image/png");
      expect(res.status).toBe(200);
      expectRefusedNamingFile(res.body, zh("uploads.not_image"));
      expectRefusedNamingFile((await upload(server, tokens.svc!, "image", pdf("x"), "scan.jpg", "image/jpeg")).body, zh("uploads.not_image"));
      expectRefusedNamingFile((await upload(server, tokens.svc!, "file", text, "notes.pdf", "application/pdf")).body, zh("uploads.not_accepted"));
      // a damaged image: right first bytes, no picture behind them
      const damaged = (await cameraJpeg(5)).subarray(0, 200);
      expectRefusedNamingFile((await upload(server, tokens.svc!, "image", damaged, "cut.jpg")).body, zh("uploads.unreadable"));
      // no file; a kind that is neither
      expectRefusedNamingFile((await upload(server, tokens.svc!, "image", Buffer.alloc(0), "empty.png")).body, zh("uploads.no_file"));
      const badKind = await upload(server, tokens.svc!, "video", text, "a.png");
      expect(badKind.body).toMatchObject({ return_code: "FAIL", return_msg: zh("uploads.bad_kind"), data: { errors: [{ field: "kind" }] } });
      // two files in one form; no form at all
      const two = new FormData();
      two.append("kind", "image");
      for (const name of ["1.jpg", "2.jpg"]) two.append("file", new Blob([new Uint8Array(await cameraJpeg(11))]), name);
      const twice = await fetch(`${server.url}/weapi/upload`, { method: "POST", headers: { "x-token": tokens.svc! }, body: two });
      expectRefusedNamingFile((await twice.json()) as Envelope, zh("uploads.one_file"));
      const json = await fetch(`${server.url}/weapi/upload`, { method: "POST", headers: { "x-token": tokens.svc!, "content-type": "application/json" }, body: JSON.stringify({ kind: "image", file: "aGVsbG8=" }) });
      expectRefusedNamingFile((await json.json()) as Envelope, zh("uploads.no_file"));
      const refusals = server.lines.slice(before).filter((line) => line.includes("upload refused"));
      expect(refusals.length).toBeGreaterThanOrEqual(8);
      expect(refusals.join("\n")).not.toContain("just some text");
    });

    it("answers in the caller's language", async () => {
      const text = Buffer.from("not an image");
      const form = new FormData();
      form.append("kind", "image");
      form.append("file", new Blob([new Uint8Array(text)]), "x.png");
      for (const language of ["en", "es"] as const) {
        const res = await fetch(`${server.url}/weapi/upload`, { method: "POST", headers: { "x-token": tokens.svc!, "accept-language": language }, body: form });
        const body = (await res.json()) as Envelope;
        expectRefusedNamingFile(body, translator(language)("uploads.not_image"));
      }
    });

    it("refuses a file over its cap while it arrives, never holding it whole", async () => {
      const cap = UPLOAD_MAX_BYTES.image;
      // said in its length: read and thrown away past the cap, then refused
      const over = Buffer.concat([await png(), randomBytes(cap)]);
      expectRefusedNamingFile((await upload(server, tokens.svc!, "image", over, "huge.png", "image/png")).body, zh("uploads.too_large", { max: 10 }));
      // a file as large is still a file's size
      expect(over.length).toBeLessThan(UPLOAD_MAX_BYTES.file);

      // a body that never ends is answered while it is being sent, and the connection is closed after the answer
      const endless = await endlessUpload(server, tokens.svc!, "image");
      expectRefusedNamingFile(endless.body, zh("uploads.too_large", { max: 10 }));
      // the cap and what was in flight on the connection, far from all of it
      expect(endless.sent).toBeLessThan(4 * cap);
      const file = await endlessUpload(server, tokens.svc!, "file");
      expectRefusedNamingFile(file.body, zh("uploads.too_large", { max: 20 }));

      // and the server still takes the next upload
      await uploaded(server, tokens.svc!, "image", await cameraJpeg(6), "after.jpg");
    });

    it("refuses an upload without a live session as every /weapi/ call does", async () => {
      const image = await cameraJpeg(7);
      const expected = { return_code: "token_error", return_msg: zh("api.token_invalid") };
      expect((await upload(server, null, "image", image, "a.jpg")).body).toEqual(expected);
      expect((await upload(server, "not-a-token", "image", image, "a.jpg")).body).toEqual(expected);
      // a session that ended
      const token = await login(server, "svc");
      const out = await fetch(`${server.url}/weapi/adminapi`, { method: "POST", headers: { "content-type": "application/json", "x-token": token }, body: JSON.stringify({ method: "logout" }) });
      expect(((await out.json()) as Envelope).return_code).toBe("SUCCESS");
      expect((await upload(server, token, "image", image, "a.jpg")).body).toEqual(expected);
      // a provider whose term has ended may look, not upload
      expect((await upload(server, tokens.harbour!, "image", image, "a.jpg")).body).toEqual({ return_code: "FAIL", return_msg: zh("api.term_expired") });
    });

    it("takes a payer's photos by its student's ticket, pictures only, and opens no private file to it", async () => {
      const db = database.database.db;
      const [student] = await db.select({ id: students.id }).from(students).where(eq(students.sch_id, sunriseNo1)).limit(1);
      const ticket = await issueTicket(db, { studentId: student.id, schId: sunriseNo1, sysid: sunrise, qrchnlId: 1 }, TEST_NOW);
      const photo = await payerUpload(server, ticket, "image", await cameraJpeg(21), "broken-zip.jpg");
      expect(photo.return_code, photo.return_msg).toBe("SUCCESS");
      expect(isImageUrl(String((photo.data?.items as Uploaded).url))).toBe(true);
      // a file is a provider's, never a payer's: refused naming the kind, before the file is read
      const file = await payerUpload(server, ticket, "file", pdf("payer"), "receipt.pdf");
      expect(file.data?.errors).toEqual([{ field: "kind", message: zh("uploads.payer_images_only") }]);
      // an unknown or expired ticket finds the student again
      expect(await payerUpload(server, "x".repeat(43), "image", await cameraJpeg(22), "a.jpg")).toEqual({ return_code: "FAIL", return_msg: zh("collection.payer.ticket_expired") });
      const stale = await issueTicket(db, { studentId: student.id, schId: sunriseNo1, sysid: sunrise, qrchnlId: 1 }, new Date(TEST_NOW.getTime() - 3 * 3600_000));
      expect((await payerUpload(server, stale, "image", await cameraJpeg(23), "a.jpg")).return_msg).toBe(zh("collection.payer.ticket_expired"));
      // a provider's private file stays its own
      const contract = await uploaded(server, tokens.svc!, "file", pdf("contract"), "contract.pdf");
      expect((await get(server, contract.url, { "x-payer-ticket": ticket })).status).toBe(401);
    });

    it("serves a private file to the accounts of its tenant only, by their X-Token", async () => {
      const marker = `MARKER-${randomBytes(6).toString("hex")}`;
      const content = pdf(marker);
      const file = await uploaded(server, tokens.svc!, "file", content, "contract.pdf");
      expect(file.key).toMatch(new RegExp(`^private/${sunrise}/0/[0-9a-f]{64}\\.pdf$`));
      expect(file.width).toBeUndefined();
      expect(file.variants).toBeUndefined();

      const open = (user: string | null) => get(server, file.url, user ? { "x-token": tokens[user]! } : {});
      for (const user of ["svc", "staff", "pickup", "sysop"]) {
        const res = await open(user);
        expect(res.status, user).toBe(200);
        expect(res.headers.get("content-type")).toBe("application/pdf");
        expect(res.headers.get("cache-control")).toBe("private, no-store");
        expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="[0-9a-f]{16}\.pdf"$/);
        expect(Buffer.from(await res.arrayBuffer()).equals(content)).toBe(true);
      }
      // another provider's account, and a school of this provider (the file is the provider's): not found
      for (const user of ["harbour", "school"]) {
        const res = await open(user);
        expect(res.status, user).toBe(404);
        expect(await res.json()).toEqual({ return_code: "FAIL", return_msg: zh("uploads.not_found") });
      }
      const anonymous = await open(null);
      expect(anonymous.status).toBe(401);
      expect(await anonymous.json()).toEqual({ return_code: "token_error", return_msg: zh("api.token_invalid") });

      // a school's file: the school, its provider and the staff it is assigned to
      const sheet = await workbook();
      const schoolFile = await uploaded(server, tokens.school!, "file", sheet, "fees.xlsx");
      expect(schoolFile.key).toMatch(new RegExp(`^private/${sunrise}/${sunriseNo1}/[0-9a-f]{64}\\.xlsx$`));
      for (const user of ["school", "svc", "staff"]) expect((await get(server, schoolFile.url, { "x-token": tokens[user]! })).status, user).toBe(200);
      for (const user of ["harbour", "pickup"]) expect((await get(server, schoolFile.url, { "x-token": tokens[user]! })).status, user).toBe(404);
      // the same file again is the same object
      expect(await uploaded(server, tokens.school!, "file", sheet, "fees (1).xlsx")).toEqual(schoolFile);
      // an image may be a file too: kept as sent, private
      const photo = await cameraJpeg(8);
      const asFile = await uploaded(server, tokens.svc!, "file", photo, "id-card.jpg");
      expect(asFile.key).toMatch(/\.jpg$/);
      expect(Buffer.from(await (await get(server, asFile.url, { "x-token": tokens.svc! })).arrayBuffer()).equals(photo)).toBe(true);

      // logged with the user, the key and the size, never the content or the token
      const logged = server.lines.filter((line) => line.includes(file.key));
      expect(logged.some((line) => line.includes('"upload stored"') || line.includes("upload stored"))).toBe(true);
      const all = server.lines.join("\n");
      expect(all).not.toContain(marker);
      expect(all).not.toContain(tokens.svc!);
    });

    it("answers not found for a key it does not make, a path that leaves its folder, or nothing stored", async () => {
      const hash = "a".repeat(64);
      for (const address of [
        `/files/img/${hash}_160.json`,
        `/files/img/${hash}.json`,
        `/files/img/..%2F..%2Fpackage.json`,
        `/files/img/${hash}_160.webp`,
        `/files/img/${hash.toUpperCase()}_160.webp`,
        `/files/img/${hash}_0160.webp`,
      ]) {
        const res = await fetch(`${server.url}${address}`);
        expect(res.status, address).toBe(404);
        expect(((await res.json()) as Envelope).return_code, address).toBe("FAIL");
      }
      for (const address of [`/files/private/${sunrise}/0/..%2F..%2F..%2Fpackage.json`, `/files/private/${sunrise}/0/${hash}.exe`, `/files/private/-1/0/${hash}.pdf`, `/files/private/${sunrise}/0/${hash}.pdf`]) {
        const res = await fetch(`${server.url}${address}`, { headers: { "x-token": tokens.sysop! } });
        expect(res.status, address).toBe(404);
      }
    });

    if (shared) {
      it("serves from a second server sharing the bucket what the first one took", async () => {
        const other = await startServer(database, stores.second!());
        try {
          const image = await uploaded(server, tokens.svc!, "image", await cameraJpeg(9), "shared.jpg");
          const file = await uploaded(server, tokens.school!, "file", pdf("shared"), "shared.pdf");
          for (const variant of image.variants!) {
            const res = await get(other, variant.url);
            expect(res.status).toBe(200);
            expect((await sharp(Buffer.from(await res.arrayBuffer())).metadata()).width).toBe(variant.width);
          }
          const res = await get(other, file.url, { "x-token": tokens.svc! });
          expect(res.status).toBe(200);
          expect(Buffer.from(await res.arrayBuffer()).equals(pdf("shared"))).toBe(true);
          // and the second one takes the same image as the same objects
          expect(await uploaded(other, tokens.svc!, "image", await cameraJpeg(9), "again.jpg")).toEqual({
            ...image,
            url: image.url.replace(server.url, other.url),
            variants: image.variants!.map((v) => ({ ...v, url: v.url.replace(server.url, other.url) })),
          });
        } finally {
          await other.app.close();
        }
      });
    }
  });
}

describeOnEmbedded("uploads", () => {
  uploadTests("in the data directory", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cpc-uploads-"));
    return { storage: new LocalUploadStorage(dir), stop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
  });

  uploadTests("in an S3 bucket (s3rver)", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cpc-s3rver-"));
    const s3 = new S3rver({ address: "127.0.0.1", port: 0, directory: dir, silent: true, configureBuckets: [{ name: "campus-uploads" }] });
    const { port } = await s3.run();
    const settings = { endpoint: `http://127.0.0.1:${port}`, bucket: "campus-uploads", accessKeyId: "S3RVER", secretAccessKey: "S3RVER", forcePathStyle: true };
    const opened: UploadStorage[] = [];
    return {
      storage: new S3UploadStorage(settings),
      second: () => {
        const storage = new S3UploadStorage(settings);
        opened.push(storage);
        return storage;
      },
      async stop() {
        await Promise.all(opened.map((s) => s.close()));
        await s3.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }, true);

  describe("storage from the environment", () => {
    it("is S3 with all four S3_* variables, the data directory's uploads/ with none, and refused with some", async () => {
      const s3 = { S3_ENDPOINT: "https://oss-cn-hangzhou.aliyuncs.com", S3_BUCKET: "campus", S3_ACCESS_KEY_ID: "id", S3_SECRET_ACCESS_KEY: "secret" };
      const bucket = uploadStorageFromEnv({ ...s3, S3_FORCE_PATH_STYLE: "true" }, "/srv/data");
      expect([bucket.kind, bucket.location]).toEqual(["s3", "https://oss-cn-hangzhou.aliyuncs.com bucket campus"]);
      await bucket.close();
      const local = uploadStorageFromEnv({}, "/srv/data");
      expect([local.kind, local.location]).toEqual(["local", path.resolve("/srv/data/uploads")]);
      expect(() => uploadStorageFromEnv({ S3_ENDPOINT: s3.S3_ENDPOINT, S3_BUCKET: "campus" }, "/srv/data")).toThrow(/S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY missing/);
      expect(() => uploadStorageFromEnv({ ...s3, S3_ENDPOINT: "oss-cn-hangzhou.aliyuncs.com" }, "/srv/data")).toThrow(/S3_ENDPOINT must be an http\(s\) address/);
    });

    it("keeps uploads beside the embedded database when the app is given no store", async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cpc-data-"));
      const database = await createTestDatabase("pglite", "seeded");
      const app: FastifyInstance = await buildApp({ db: database.database.db, passwordCost: TEST_PASSWORD_COST, rateLimit: false, staticDir: null, logger: false, paymentKey: { keyFileDir: dir } });
      try {
        expect([app.uploadStorage.kind, app.uploadStorage.location]).toEqual(["local", path.join(dir, "uploads")]);
      } finally {
        await app.close();
        await database.dispose();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  });

  describe("throttled per user", () => {
    let database: TestDatabase;
    let server: Server;
    let dir: string;
    let storage: UploadStorage;

    beforeAll(async () => {
      database = await createTestDatabase("pglite", "seeded");
      dir = fs.mkdtempSync(path.join(os.tmpdir(), "cpc-uploads-"));
      storage = new LocalUploadStorage(dir);
      server = await startServer(database, storage, { rateLimit: { max: 2, timeWindowMs: 60_000 } });
    });
    afterAll(async () => {
      await server?.app.close();
      await database?.dispose();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it("refuses a user's uploads beyond the limit, whichever session sends them, and not another user's", async () => {
      const image = await cameraJpeg(10);
      const [first, second] = [await login(server, "svc"), await login(server, "svc")];
      await uploaded(server, first, "image", image, "1.jpg");
      await uploaded(server, second, "image", image, "2.jpg");
      const third = await upload(server, first, "image", image, "3.jpg");
      expect(third.status).toBe(429);
      expect(third.body).toEqual({ return_code: "FAIL", return_msg: zh("api.rate_limited") });
      expect((await upload(server, second, "image", image, "4.jpg")).status).toBe(429);
      await uploaded(server, await login(server, "school"), "image", image, "5.jpg");
    });

    it("takes an applicant's licence pictures without a session, pictures only, held to the limit per address", async () => {
      const applicantUpload = async (kind: string, content: Buffer, filename: string) => {
        const form = new FormData();
        form.append("kind", kind);
        form.append("file", new Blob([new Uint8Array(content)]), filename);
        const res = await fetch(`${server.url}/weapi/upload`, { method: "POST", headers: { "x-applicant": "1" }, body: form });
        return { status: res.status, body: (await res.json()) as Envelope };
      };
      const file = await applicantUpload("file", pdf("licence"), "licence.pdf");
      expect(file.body.data?.errors).toEqual([{ field: "kind", message: zh("uploads.payer_images_only") }]);
      const licence = await applicantUpload("image", await cameraJpeg(31), "licence.jpg");
      expect(licence.body.return_code, licence.body.return_msg).toBe("SUCCESS");
      expect(isImageUrl(String((licence.body.data?.items as Uploaded).url))).toBe(true);
      // the refused file counted too: the address has used its two
      const over = await applicantUpload("image", await cameraJpeg(32), "licence2.jpg");
      expect(over.status).toBe(429);
      expect(APPLICANT_UPLOADS_PER_MINUTE).toBeLessThan(UPLOAD_RATE_LIMIT.max);
    });
  });
});
