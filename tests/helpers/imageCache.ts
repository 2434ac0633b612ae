/**
 * Where the global setups keep the databases test runs start from (databaseImages.ts for the server tests,
 * browserDatabases.ts for the browser tests), so that a run on an unchanged tree skips migrating and seeding:
 * - the key: a sha256 over the contents and paths of everything that decides an image: the migrations, the seed
 *   and what it runs (every module server/seed/demo.ts, server/db/client.ts and the password hasher import, followed
 *   through their relative imports), the messages (locales/), package-lock.json and the setups themselves; and what
 *   the caller adds (the server images' TEST_NOW and password cost; the browser images' China business day, as they
 *   are seeded at the real time). A change elsewhere (a page, a route, a test) keeps the images;
 * - PGlite files under os.tmpdir()/cpc-test-images/<kind>/<id>/, PostgreSQL templates named with the id on the
 *   server of TEST_DATABASE_URL (cpc_img_<id>_migrated, cpc_img_<id>_seeded, cpc_e2e_<id>); each is built under
 *   a temporary name and renamed into place, so a run never sees half an image, and of two runs building the same
 *   one at once, the second to finish takes the first's;
 * - nothing is removed when a run ends; instead each setup keeps, per kind, the three most recently used ids (and
 *   any used in the last hour, which a run still going may copy from) and removes the rest, with the leftovers of
 *   builds cut short more than an hour ago. A template's last use is written in its comment
 *   (COMMENT ON DATABASE), which takes no connection to it.
 * TEST_IMAGE_CACHE=off makes every run build fresh images and remove them when it ends, as before the cache.
 */
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { createPostgresDatabase } from "./db";

export type ImageKind = "server" | "e2e";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** the modules that make an image, followed through their relative imports */
const SOURCE_ENTRIES = ["server/seed/demo.ts", "server/db/client.ts", "server/auth/passwords.ts", "common/term.ts"];
/** what they read at run time: the migrations and the messages */
const SOURCE_DIRS = ["server/db/migrations", "locales"];
const SOURCE_FILES = [
  "package-lock.json",
  "tests/helpers/databaseImages.ts",
  "tests/helpers/browserDatabases.ts",
  "tests/helpers/imageCache.ts",
];

/** how many ids of each kind are kept, and how long any id (or a build's leftover) is spared after its last use */
const KEEP = 3;
const SPARE_MS = 3_600_000;
const TEMPLATE_PREFIX: Record<ImageKind, string> = { server: "cpc_img", e2e: "cpc_e2e" };
/** a template being built: cpc_imgtmp_<unix seconds>_<random> */
const BUILDING_PREFIX = "cpc_imgtmp";
const USED_MARKER = "last-used";
const COMMENT_PREFIX = "cpc test image, last used ";

export const CACHE_DIR = path.join(os.tmpdir(), "cpc-test-images");

/** false when TEST_IMAGE_CACHE=off: fresh images per run, removed at its end */
export function imageCacheEnabled(): boolean {
  const value = (process.env.TEST_IMAGE_CACHE ?? "").trim().toLowerCase();
  if (value === "" || value === "on") return true;
  if (value === "off") return false;
  throw new Error(`TEST_IMAGE_CACHE is ${process.env.TEST_IMAGE_CACHE}: it takes on (the default) or off`);
}

const RELATIVE_IMPORT = /(?:\bfrom|\bimport)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g;

/** The module a relative specifier names, as the bundler resolves it (no extension, or a folder's index). */
function resolveImport(fromFile: string, specifier: string): string {
  const base = path.posix.join(path.posix.dirname(fromFile), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`]) {
    if (fs.statSync(path.join(ROOT, candidate), { throwIfNoEntry: false })?.isFile()) return candidate;
  }
  throw new Error(`${fromFile} imports ${specifier}, which the image key cannot find`);
}

function sourceFiles(): string[] {
  const files = new Set<string>();
  const follow = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    if (!/\.tsx?$/.test(file)) return;
    for (const [, specifier] of fs.readFileSync(path.join(ROOT, file), "utf8").matchAll(RELATIVE_IMPORT)) follow(resolveImport(file, specifier));
  };
  for (const entry of SOURCE_ENTRIES) follow(entry);
  const walk = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(ROOT, rel), { withFileTypes: true })) {
      const child = `${rel}/${entry.name}`;
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile()) files.add(child);
    }
  };
  for (const dir of SOURCE_DIRS) if (fs.existsSync(path.join(ROOT, dir))) walk(dir);
  for (const file of SOURCE_FILES) if (fs.existsSync(path.join(ROOT, file))) files.add(file);
  return [...files].sort();
}

/** The first 16 hex digits of the sha256 over the sources (sorted paths and contents) and `extra`. */
export function imageKey(extra: readonly string[]): string {
  const hash = createHash("sha256");
  for (const file of sourceFiles()) {
    const bytes = fs.readFileSync(path.join(ROOT, file));
    hash.update(`${file}\0${bytes.length}\0`);
    hash.update(bytes);
  }
  for (const part of extra) hash.update(`\0extra\0${part}`);
  return hash.digest("hex").slice(0, 16);
}

async function withAdmin<T>(body: (client: pg.Client) => Promise<T>): Promise<T> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error("TEST_DATABASE_URL is not set");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await body(client);
  } finally {
    await client.end();
  }
}

function databaseUrl(name: string): string {
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  return url.toString();
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

export interface ImageStore {
  /** whether the store holds a PGlite file or directory of this name already */
  has(name: string): boolean;
  /**
   * The path of the store's PGlite file or directory `name`, made by `build` (given a path to write it to) unless
   * the store holds it.
   */
  file(name: string, build: (target: string) => Promise<void>): Promise<string>;
  /**
   * The name of a template database holding the image, made by `build` (given the URL of a new empty database,
   * to which it must leave no connection open) unless the server holds it; `image` names it among the kind's.
   */
  template(image: string | undefined, build: (url: string) => Promise<void>): Promise<string>;
  /** one line: what was reused and what was built, and how long the setup took */
  summary(): string;
  /** removes what the run made when the cache is off; nothing otherwise */
  teardown(): Promise<void>;
}

/**
 * The store of one kind's images made from the sources and parameters named by `id` (imageKey(), for the browser
 * images followed by the business day). `postgres`: whether the run uses PostgreSQL (its templates are pruned).
 */
export async function openImageStore(kind: ImageKind, id: string, options: { postgres: boolean }): Promise<ImageStore> {
  const started = performance.now();
  const done: string[] = [];
  if (!imageCacheEnabled()) return freshStore(kind, started, done);
  if (!/^[0-9a-f]{16}(_\d{8})?$/.test(id)) throw new Error(`image id ${id}: 16 hex digits, then an optional _yyyymmdd`);
  const kindDir = path.join(CACHE_DIR, kind);
  const entry = path.join(kindDir, id);
  fs.mkdirSync(entry, { recursive: true });
  fs.writeFileSync(path.join(entry, USED_MARKER), `${new Date().toISOString()}\n`);
  pruneFiles(kindDir, id);
  if (options.postgres) await prunePostgres(kind, id);

  return {
    has: (name) => fs.existsSync(path.join(entry, name)),
    async file(name, build) {
      const target = path.join(entry, name);
      if (fs.existsSync(target)) {
        done.push(`${name} reused`);
        return target;
      }
      const t0 = performance.now();
      const scratch = path.join(kindDir, `.tmp-${Date.now()}-${randomBytes(4).toString("hex")}`);
      let lost = false;
      fs.mkdirSync(scratch);
      try {
        const built = path.join(scratch, name);
        await build(built);
        try {
          // never over another's: a directory is renamed (refused onto one that is not empty), a file linked
          if (fs.statSync(built).isDirectory()) fs.renameSync(built, target);
          else fs.linkSync(built, target);
        } catch (err) {
          // another run put it in place first: theirs is the same image
          if (!fs.existsSync(target)) throw err;
          lost = true;
        }
      } finally {
        fs.rmSync(scratch, { recursive: true, force: true });
      }
      done.push(`${name} built (${seconds(performance.now() - t0)})${lost ? ", another run's taken" : ""}`);
      return target;
    },
    async template(image, build) {
      const name = `${TEMPLATE_PREFIX[kind]}_${id}${image ? `_${image}` : ""}`;
      const found = await withAdmin(async (admin) => (await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name])).rowCount! > 0);
      if (found) {
        await markUsed(name);
        done.push(`${name} reused`);
        return name;
      }
      const t0 = performance.now();
      const building = `${BUILDING_PREFIX}_${Math.floor(Date.now() / 1000)}_${randomBytes(4).toString("hex")}`;
      let lost = false;
      await withAdmin((admin) => admin.query(`CREATE DATABASE ${building}`));
      try {
        await build(databaseUrl(building));
        await withAdmin((admin) => admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`));
      } catch (err) {
        // ours alone: a build cut short by an error may have left its connections
        await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`)).catch(() => undefined);
        // another run put it in place first (duplicate_database): theirs is the same image
        if ((err as { code?: string }).code !== "42P04") throw err;
        lost = true;
      }
      await markUsed(name);
      done.push(`${name} built (${seconds(performance.now() - t0)})${lost ? ", another run's taken" : ""}`);
      return name;
    },
    summary: () => `test images (${kind}, ${id}, cached in ${entry}): ${done.join(", ")}; setup ${seconds(performance.now() - started)}`,
    teardown: async () => undefined,
  };
}

/** TEST_IMAGE_CACHE=off: everything in a new temporary directory and new databases, removed by teardown(). */
function freshStore(kind: ImageKind, started: number, done: string[]): ImageStore {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), kind === "server" ? "cpc-db-images-" : "cpc-e2e-seeded-"));
  const templates: { drop(): Promise<void> }[] = [];
  return {
    has: () => false,
    async file(name, build) {
      const t0 = performance.now();
      const target = path.join(dir, name);
      await build(target);
      done.push(`${name} built (${seconds(performance.now() - t0)})`);
      return target;
    },
    async template(image, build) {
      const t0 = performance.now();
      const created = await createPostgresDatabase();
      templates.push(created);
      await build(created.url);
      done.push(`${image ?? "template"} built as ${created.name} (${seconds(performance.now() - t0)})`);
      return created.name;
    },
    summary: () => `test images (${kind}, TEST_IMAGE_CACHE=off, removed at the end): ${done.join(", ")}; setup ${seconds(performance.now() - started)}`,
    async teardown() {
      for (const template of templates) await template.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function markUsed(name: string): Promise<void> {
  // a comment is written from another database: the template keeps no connection
  await withAdmin((admin) => admin.query(`COMMENT ON DATABASE ${name} IS '${COMMENT_PREFIX}${new Date().toISOString()}'`));
}

/** The ids to keep of those last used at these times: the current one, the KEEP latest, and any used within SPARE_MS. */
function idsToKeep(lastUsed: Map<string, number>, current: string): Set<string> {
  const now = Date.now();
  const keep = new Set([current]);
  [...lastUsed.entries()]
    .sort((a, b) => b[1] - a[1])
    .forEach(([id, at], i) => {
      if (i < KEEP || now - at < SPARE_MS) keep.add(id);
    });
  return keep;
}

function pruneFiles(kindDir: string, current: string): void {
  const lastUsed = new Map<string, number>();
  for (const entry of fs.readdirSync(kindDir, { withFileTypes: true })) {
    const full = path.join(kindDir, entry.name);
    try {
      if (entry.name.startsWith(".tmp-")) {
        if (Date.now() - fs.statSync(full).mtimeMs > SPARE_MS) fs.rmSync(full, { recursive: true, force: true });
        continue;
      }
      if (!entry.isDirectory()) continue;
      const marker = path.join(full, USED_MARKER);
      lastUsed.set(entry.name, (fs.existsSync(marker) ? fs.statSync(marker) : fs.statSync(full)).mtimeMs);
    } catch {
      // removed meanwhile by another run's pruning
    }
  }
  const keep = idsToKeep(lastUsed, current);
  for (const id of lastUsed.keys()) if (!keep.has(id)) fs.rmSync(path.join(kindDir, id), { recursive: true, force: true });
}

async function prunePostgres(kind: ImageKind, current: string): Promise<void> {
  const own = new RegExp(`^${TEMPLATE_PREFIX[kind]}_([0-9a-f]{16}(?:_\\d{8})?)(?:_[a-z]+)?$`);
  const building = new RegExp(`^${BUILDING_PREFIX}_(\\d+)_[0-9a-f]+$`);
  await withAdmin(async (admin) => {
    const { rows } = await admin.query<{ datname: string; note: string | null }>(
      "SELECT datname, shobj_description(oid, 'pg_database') AS note FROM pg_database WHERE datname LIKE 'cpc\\_%'",
    );
    const lastUsed = new Map<string, number>();
    const templates = new Map<string, string[]>();
    const drops: string[] = [];
    for (const { datname, note } of rows) {
      const left = building.exec(datname);
      if (left) {
        if (Date.now() - Number(left[1]) * 1000 > SPARE_MS) drops.push(datname);
        continue;
      }
      const id = own.exec(datname)?.[1];
      if (!id) continue;
      const at = note?.startsWith(COMMENT_PREFIX) ? Date.parse(note.slice(COMMENT_PREFIX.length)) || 0 : 0;
      lastUsed.set(id, Math.max(lastUsed.get(id) ?? 0, at));
      templates.set(id, [...(templates.get(id) ?? []), datname]);
    }
    const keep = idsToKeep(lastUsed, current);
    for (const [id, names] of templates) if (!keep.has(id)) drops.push(...names);
    for (const name of drops) {
      try {
        await admin.query(`DROP DATABASE IF EXISTS ${name}`);
      } catch (err) {
        // in use by another run (a copy being made): left for a later setup
        console.warn(`test images: could not drop ${name}: ${(err as Error).message}`);
      }
    }
  });
}
