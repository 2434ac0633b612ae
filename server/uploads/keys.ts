/**
 * The keys uploaded files are stored and served under (GET /files/<key>), and what may be uploaded. Every key is
 * made from the sha256 of the original bytes, so it names one content forever (and may be cached forever), and
 * every key a request names is checked against these patterns before any storage is asked: nothing else (no
 * `..`, no other folder) can be read.
 *
 * - a public image's variant: `img/<sha256>_<width>.webp` (its manifest `img/<sha256>.json`, never served);
 * - a private file: `private/<sysid or 0>/<sch_id or 0>/<sha256>.<ext>`, the uploader's tenant.
 */
import type { Authority } from "../auth/authority";

export const FILES_PATH = "/files";

export type UploadKind = "image" | "file";
export const UPLOAD_KINDS: readonly UploadKind[] = ["image", "file"];

/** the largest upload of each kind, in bytes */
export const UPLOAD_MAX_BYTES: Record<UploadKind, number> = { image: 10 * 1024 * 1024, file: 20 * 1024 * 1024 };

/** what an image upload may be, by its content (file-type's mime) */
export const IMAGE_TYPES: Readonly<Record<string, string>> = { "image/jpeg": "jpg", "image/png": "png", "image/webp": "webp", "image/gif": "gif" };

/** what a file upload may be, by its content: PDF, a workbook, a zip archive, or an image kept as sent */
export const FILE_TYPES: Readonly<Record<string, string>> = {
  "application/pdf": "pdf",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "xlsx",
  "application/zip": "zip",
  ...IMAGE_TYPES,
};

/** the Content-Type each stored extension is served with */
export const CONTENT_TYPES: Readonly<Record<string, string>> = {
  webp: "image/webp",
  jpg: "image/jpeg",
  png: "image/png",
  gif: "image/gif",
  pdf: "application/pdf",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  zip: "application/zip",
};

const HASH = "[0-9a-f]{64}";
const TENANT_ID = "(?:0|[1-9][0-9]{0,9})";
export const PUBLIC_IMAGE_KEY = new RegExp(`^img/(${HASH})_([1-9][0-9]{0,3})\\.webp$`);
export const PRIVATE_FILE_KEY = new RegExp(`^private/(${TENANT_ID})/(${TENANT_ID})/(${HASH})\\.(pdf|xlsx|zip|jpg|png|webp|gif)$`);

export function imageVariantKey(hash: string, width: number): string {
  return `img/${hash}_${width}.webp`;
}

/** where an image's variants are listed once all of them are stored: its presence means the upload is complete */
export function imageManifestKey(hash: string): string {
  return `img/${hash}.json`;
}

export interface Tenant {
  sysid: number;
  schid: number;
}

/**
 * The tenant a private file belongs to: the uploader's own. The platform's accounts 0/0, a provider's accounts
 * (service, its school staff, its pickup clerks) their provider and 0, a school's accounts their provider and school.
 */
export function uploaderTenant(auth: Authority): Tenant {
  if (auth.userType === "system") return { sysid: 0, schid: 0 };
  return { sysid: auth.sysid ?? 0, schid: auth.userType === "school" ? (auth.schid ?? 0) : 0 };
}

export function privateFileKey(tenant: Tenant, hash: string, ext: string): string {
  return `private/${tenant.sysid}/${tenant.schid}/${hash}.${ext}`;
}

export type ParsedKey =
  | { kind: "image"; key: string; hash: string; width: number; ext: "webp" }
  | { kind: "private"; key: string; hash: string; ext: string; tenant: Tenant };

/** A key as a request names it, or null when it is not one the server makes. */
export function parseKey(key: string): ParsedKey | null {
  if (key.length > 200) return null;
  const image = PUBLIC_IMAGE_KEY.exec(key);
  if (image) return { kind: "image", key, hash: image[1]!, width: Number(image[2]), ext: "webp" };
  const file = PRIVATE_FILE_KEY.exec(key);
  if (file) {
    const tenant = { sysid: Number(file[1]), schid: Number(file[2]) };
    if (!Number.isSafeInteger(tenant.sysid) || !Number.isSafeInteger(tenant.schid) || tenant.sysid > 2_147_483_647 || tenant.schid > 2_147_483_647) return null;
    return { kind: "private", key, hash: file[3]!, ext: file[4]!, tenant };
  }
  return null;
}

/** The path a key is served at. */
export function filePath(key: string): string {
  return `${FILES_PATH}/${key}`;
}
