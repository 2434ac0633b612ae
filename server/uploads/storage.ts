/**
 * Where uploaded files live: one interface, two places. On the embedded default a directory (`DATA_DIR/uploads/`,
 * a file per key, written under a temporary name and renamed, so a reader never sees half a file); with S3_* set,
 * an S3-compatible bucket (AWS SDK v3), which several server processes share. Keys are checked by ./keys.ts
 * before they get here; the local store checks again that a key stays inside its directory.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Readable } from "node:stream";
import type { S3Client } from "@aws-sdk/client-s3";

export interface StoredObject {
  body: Readable;
  /** bytes */
  size: number;
}

export interface UploadStorage {
  /** "local" or "s3", for logs and messages */
  readonly kind: "local" | "s3";
  /** the directory or the bucket (never a secret) */
  readonly location: string;
  /** stores the bytes under the key, replacing what was there (the same content: keys are content hashes) */
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** the object as a stream with its size, or null when there is none */
  get(key: string): Promise<StoredObject | null>;
  exists(key: string): Promise<boolean>;
  /** a small object (an image's manifest) whole, or null */
  read(key: string): Promise<Buffer | null>;
  close(): Promise<void>;
}

export class LocalUploadStorage implements UploadStorage {
  readonly kind = "local";
  readonly location: string;

  constructor(directory: string) {
    this.location = path.resolve(directory);
  }

  private pathOf(key: string): string {
    const full = path.resolve(this.location, ...key.split("/"));
    if (!full.startsWith(this.location + path.sep)) throw new Error(`upload key outside the storage directory: ${key}`);
    return full;
  }

  async put(key: string, body: Buffer): Promise<void> {
    const file = this.pathOf(key);
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    const temporary = `${file}.${randomBytes(6).toString("hex")}.tmp`;
    try {
      await fs.promises.writeFile(temporary, body, { flag: "wx" });
      await fs.promises.rename(temporary, file);
    } catch (err) {
      await fs.promises.rm(temporary, { force: true });
      throw err;
    }
  }

  async get(key: string): Promise<StoredObject | null> {
    let handle: fs.promises.FileHandle;
    try {
      handle = await fs.promises.open(this.pathOf(key), "r");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw err;
    }
    try {
      const { size } = await handle.stat();
      return { body: handle.createReadStream(), size };
    } catch (err) {
      await handle.close();
      throw err;
    }
  }

  async exists(key: string): Promise<boolean> {
    try {
      await fs.promises.access(this.pathOf(key));
      return true;
    } catch {
      return false;
    }
  }

  async read(key: string): Promise<Buffer | null> {
    try {
      return await fs.promises.readFile(this.pathOf(key));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw err;
    }
  }

  async close(): Promise<void> {}
}

export interface S3Settings {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** default us-east-1 (most S3-compatible services ignore it) */
  region?: string;
  /** bucket in the path (MinIO, s3rver) rather than in the host name (AWS, Alibaba Cloud OSS) */
  forcePathStyle?: boolean;
}

/** the SDK's answer for a key with no object (GetObject's NoSuchKey, HeadObject's bare 404) */
function isMissing(err: unknown): boolean {
  const failure = err as { name?: string; $metadata?: { httpStatusCode?: number } } | null;
  return failure?.name === "NoSuchKey" || failure?.name === "NotFound" || failure?.$metadata?.httpStatusCode === 404;
}

type Sdk = typeof import("@aws-sdk/client-s3");

export class S3UploadStorage implements UploadStorage {
  readonly kind = "s3";
  readonly location: string;
  private readonly bucket: string;
  /** the SDK (some 25 MB) and its client, made at the first use: a server storing locally never loads them */
  private connection: Promise<{ sdk: Sdk; client: S3Client }> | undefined;

  constructor(private readonly settings: S3Settings) {
    this.bucket = settings.bucket;
    this.location = `${settings.endpoint.replace(/\/+$/, "")} bucket ${settings.bucket}`;
  }

  private connect(): Promise<{ sdk: Sdk; client: S3Client }> {
    this.connection ??= import("@aws-sdk/client-s3").then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        endpoint: this.settings.endpoint,
        region: this.settings.region || "us-east-1",
        forcePathStyle: this.settings.forcePathStyle ?? false,
        credentials: { accessKeyId: this.settings.accessKeyId, secretAccessKey: this.settings.secretAccessKey },
        // checksums only where the protocol requires them: many S3-compatible services refuse the SDK's newer ones
        requestChecksumCalculation: "WHEN_REQUIRED",
        responseChecksumValidation: "WHEN_REQUIRED",
        maxAttempts: 3,
        requestHandler: { connectionTimeout: 5_000, requestTimeout: 60_000 },
      }),
    }));
    return this.connection;
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    const { sdk, client } = await this.connect();
    await client.send(new sdk.PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: contentType, ContentLength: body.length }));
  }

  async get(key: string): Promise<StoredObject | null> {
    const { sdk, client } = await this.connect();
    try {
      const answer = await client.send(new sdk.GetObjectCommand({ Bucket: this.bucket, Key: key }));
      if (!answer.Body) return null;
      return { body: answer.Body as Readable, size: Number(answer.ContentLength ?? 0) };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async exists(key: string): Promise<boolean> {
    const { sdk, client } = await this.connect();
    try {
      await client.send(new sdk.HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return true;
    } catch (err) {
      if (isMissing(err)) return false;
      throw err;
    }
  }

  async read(key: string): Promise<Buffer | null> {
    const object = await this.get(key);
    if (!object) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of object.body) chunks.push(Buffer.from(chunk as Uint8Array));
    return Buffer.concat(chunks);
  }

  async close(): Promise<void> {
    if (this.connection) (await this.connection).client.destroy();
  }
}

const S3_VARIABLES = ["S3_ENDPOINT", "S3_BUCKET", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"] as const;

/**
 * The store the environment asks for: the S3 bucket when S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID and
 * S3_SECRET_ACCESS_KEY are set (all four or none; S3_REGION and S3_FORCE_PATH_STYLE optional), else `uploads/` in
 * the data directory.
 */
export function uploadStorageFromEnv(env: NodeJS.ProcessEnv, dataDir: string): UploadStorage {
  const set = S3_VARIABLES.filter((name) => env[name]);
  if (set.length === 0) return new LocalUploadStorage(path.join(dataDir, "uploads"));
  if (set.length < S3_VARIABLES.length) {
    throw new Error(`S3 object storage needs ${S3_VARIABLES.join(", ")}: ${S3_VARIABLES.filter((name) => !env[name]).join(", ")} missing`);
  }
  if (!/^https?:\/\/[^/]/i.test(env.S3_ENDPOINT!)) throw new Error(`S3_ENDPOINT must be an http(s) address, such as https://oss-cn-hangzhou.aliyuncs.com, got "${env.S3_ENDPOINT}"`);
  return new S3UploadStorage({
    endpoint: env.S3_ENDPOINT!,
    bucket: env.S3_BUCKET!,
    accessKeyId: env.S3_ACCESS_KEY_ID!,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY!,
    region: env.S3_REGION || undefined,
    forcePathStyle: ["true", "1", "on", "yes"].includes((env.S3_FORCE_PATH_STYLE ?? "").toLowerCase()),
  });
}
