/**
 * Backups of an install (npm run backup / restore; docs/operations.md): one tar file holding
 *
 * - `manifest.json`: when, which database, every table's figures (./figures.ts), the uploaded files kept, and the
 *   payment key's fingerprint, never the key (kept apart from the backup, as the README asks);
 * - `database/pgdata.tar.gz`: the embedded database's data directory, dumped by PGlite with the data directory
 *   locked (the embedded database is one process's: the server is stopped first), or `database/postgres.dump`:
 *   pg_dump's custom format, taken in the snapshot the figures were read in, so both tell the same moment while
 *   the servers go on;
 * - `uploads/`: the uploaded files of DATA_DIR/uploads (with S3_* set they live in the bucket, which keeps them).
 *
 * A restore goes only into an empty data directory or an empty database, and checks every table's figures
 * against the manifest before it says it is done.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import pg from "pg";
import * as tar from "tar";
import { acquireDataDirLock, DataDirLockedError, type DataDirLock } from "../db/lock";
import { paymentKeyFingerprint, type PaymentKeyOptions } from "../payments/secrets";
import { databaseFigures, figuresDifference, type DatabaseFigures } from "./figures";

const FORMAT = "campus-pay-console-backup";
const MANIFEST = "manifest.json";
const PGDATA_DUMP = "database/pgdata.tar.gz";
const POSTGRES_DUMP = "database/postgres.dump";
const UPLOADS = "uploads";

/** Where an install keeps its data. */
export interface Install {
  database: { kind: "pglite"; dataDir: string } | { kind: "postgres"; url: string };
  /** DATA_DIR/uploads; null when the files are in an S3 bucket */
  uploadsDir: string | null;
  paymentKey: PaymentKeyOptions;
}

export interface BackupManifest {
  format: typeof FORMAT;
  version: 1;
  created_at: string;
  database: "embedded" | "postgres";
  tables: DatabaseFigures;
  uploads: { kept: "in the backup" | "in object storage"; files: number; bytes: number };
  /** "sha256:..." of the payment key the stored merchant secrets are encrypted under; null: none was configured */
  payment_key_fingerprint: string | null;
}

/** A backup or restore that cannot be done, with the reason a person can act on. */
export class MaintenanceRefusal extends Error {
  override readonly name = "MaintenanceRefusal";
}

const run = promisify(execFile);

async function runTool(command: string, args: string[]): Promise<void> {
  try {
    await run(command, args, { maxBuffer: 16 * 1024 * 1024 });
  } catch (err) {
    const { code, stderr } = err as NodeJS.ErrnoException & { stderr?: string };
    if (code === "ENOENT") throw new MaintenanceRefusal(`${command} is not installed (Debian: apt-get install postgresql-client)`);
    throw new MaintenanceRefusal(`${command} failed: ${(stderr ?? String(err)).trim()}`);
  }
}

function filesUnder(dir: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  if (!fs.existsSync(dir)) return { files, bytes };
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name.endsWith(".tmp")) continue;
    files++;
    bytes += fs.statSync(path.join(entry.parentPath, entry.name)).size;
  }
  return { files, bytes };
}

export function refusalOfLocked(err: DataDirLockedError): MaintenanceRefusal {
  return new MaintenanceRefusal(`a server is running on ${err.dataDir} (pid ${err.pid}): stop it first, as the embedded database is one process's`);
}

/** The embedded database's directory, for this command alone: refused while a server runs on it. */
function lockDataDir(dataDir: string): DataDirLock {
  try {
    return acquireDataDirLock(dataDir);
  } catch (err) {
    throw err instanceof DataDirLockedError ? refusalOfLocked(err) : err;
  }
}

export function pgdataOf(dataDir: string): string {
  return path.join(dataDir, "pgdata");
}

/** Reads the embedded database's figures and dumps it, with its data directory locked against a server. */
async function dumpEmbedded(dataDir: string, dumpFile: string): Promise<DatabaseFigures> {
  if (!fs.existsSync(path.join(pgdataOf(dataDir), "PG_VERSION"))) throw new MaintenanceRefusal(`${dataDir} holds no embedded database (DATA_DIR)`);
  const lock = lockDataDir(dataDir);
  try {
    const client = await PGlite.create({ dataDir: pgdataOf(dataDir) });
    try {
      const figures = await databaseFigures(drizzlePglite(client));
      const dump = await client.dumpDataDir("gzip");
      await fs.promises.writeFile(dumpFile, Buffer.from(await dump.arrayBuffer()));
      return figures;
    } finally {
      await client.close();
    }
  } finally {
    lock.release();
  }
}

/** pg_dump in the snapshot the figures are read in: both tell the same moment, while the servers go on. */
async function dumpPostgres(url: string, dumpFile: string): Promise<DatabaseFigures> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("begin isolation level repeatable read read only");
    const { rows } = await client.query<{ snapshot: string }>("select pg_export_snapshot() as snapshot");
    const figures = await databaseFigures(drizzlePg(client));
    await runTool("pg_dump", ["--format=custom", "--no-owner", "--no-privileges", `--snapshot=${rows[0].snapshot}`, `--file=${dumpFile}`, `--dbname=${url}`]);
    await client.query("commit");
    return figures;
  } finally {
    await client.end();
  }
}

/** Writes a backup of the install to `file` (a new file); answers its manifest. */
export async function writeBackup(file: string, install: Install, now = new Date()): Promise<BackupManifest> {
  if (fs.existsSync(file)) throw new MaintenanceRefusal(`${file} exists already: a backup is written to a new file`);
  const staging = await fs.promises.mkdtemp(path.join(os.tmpdir(), "cpc-backup-"));
  const partial = `${file}.partial`;
  try {
    await fs.promises.mkdir(path.join(staging, "database"));
    const { database } = install;
    const tables =
      database.kind === "pglite" ? await dumpEmbedded(database.dataDir, path.join(staging, PGDATA_DUMP)) : await dumpPostgres(database.url, path.join(staging, POSTGRES_DUMP));
    const uploads = install.uploadsDir ? filesUnder(install.uploadsDir) : { files: 0, bytes: 0 };
    const manifest: BackupManifest = {
      format: FORMAT,
      version: 1,
      created_at: now.toISOString(),
      database: database.kind === "pglite" ? "embedded" : "postgres",
      tables,
      uploads: { kept: install.uploadsDir ? "in the backup" : "in object storage", ...uploads },
      payment_key_fingerprint: paymentKeyFingerprint(install.paymentKey),
    };
    await fs.promises.writeFile(path.join(staging, MANIFEST), JSON.stringify(manifest, null, 2));
    await tar.create({ file: partial, cwd: staging, portable: true }, [MANIFEST, "database"]);
    if (install.uploadsDir && uploads.files > 0) {
      // appended as `uploads/...`, without the files a write in progress leaves
      await tar.replace({ file: partial, cwd: path.dirname(install.uploadsDir), portable: true, filter: (entry) => !entry.endsWith(".tmp") }, [
        path.basename(install.uploadsDir),
      ]);
    }
    await fs.promises.rename(partial, file);
    return manifest;
  } finally {
    await fs.promises.rm(partial, { force: true });
    await fs.promises.rm(staging, { recursive: true, force: true });
  }
}

/** The manifest of a backup file, checked to be one. */
export async function readManifest(file: string, into: string): Promise<BackupManifest> {
  if (!fs.existsSync(file)) throw new MaintenanceRefusal(`${file} does not exist`);
  try {
    await tar.extract({ file, cwd: into, filter: (entry) => entry === MANIFEST || entry.startsWith("database/") });
  } catch (err) {
    throw new MaintenanceRefusal(`${file} is not a backup of this product: ${(err as Error).message}`);
  }
  const manifestFile = path.join(into, MANIFEST);
  const manifest = fs.existsSync(manifestFile) ? (JSON.parse(fs.readFileSync(manifestFile, "utf8")) as Partial<BackupManifest>) : {};
  if (manifest.format !== FORMAT || manifest.version !== 1) throw new MaintenanceRefusal(`${file} is not a backup of this product`);
  return manifest as BackupManifest;
}

function isEmptyDirectory(dir: string): boolean {
  return !fs.existsSync(dir) || fs.readdirSync(dir).length === 0;
}

export async function postgresIsEmpty(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      "select count(*)::int as n from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema')",
    );
    return rows[0].n === 0;
  } finally {
    await client.end();
  }
}

export interface RestoreOutcome {
  manifest: BackupManifest;
  /** whether the configured payment key is the backup's: null when none is configured here */
  paymentKeyMatches: boolean | null;
}

/** Restores a backup into an empty install, then checks every table's figures against the manifest. */
export async function restoreBackup(file: string, install: Install): Promise<RestoreOutcome> {
  const staging = await fs.promises.mkdtemp(path.join(os.tmpdir(), "cpc-restore-"));
  try {
    const manifest = await readManifest(file, staging);
    const { database } = install;
    const wanted = database.kind === "pglite" ? "embedded" : "postgres";
    if (manifest.database !== wanted) {
      throw new MaintenanceRefusal(
        manifest.database === "embedded"
          ? "this backup is of an embedded database: restore it without DATABASE_URL, then npm run move-to-postgres"
          : "this backup is of a PostgreSQL database: restore it with DATABASE_URL set to an empty database",
      );
    }
    if (database.kind === "pglite" && !isEmptyDirectory(database.dataDir)) {
      throw new MaintenanceRefusal(`${database.dataDir} is not empty: a backup is restored into an empty data directory`);
    }
    if (database.kind === "postgres" && !(await postgresIsEmpty(database.url))) throw new MaintenanceRefusal("the database is not empty: a backup is restored into an empty database");
    const filesInBackup = manifest.uploads.kept === "in the backup" && manifest.uploads.files > 0;
    if (filesInBackup && !install.uploadsDir) {
      throw new MaintenanceRefusal("the backup holds uploaded files but S3_* is set: restore without S3_* (into DATA_DIR/uploads), then copy them to the bucket");
    }
    if (filesInBackup && install.uploadsDir && !isEmptyDirectory(install.uploadsDir)) {
      throw new MaintenanceRefusal(`${install.uploadsDir} is not empty: a backup is restored into an empty install`);
    }

    let restored: DatabaseFigures;
    if (database.kind === "pglite") {
      await fs.promises.mkdir(database.dataDir, { recursive: true });
      const lock = lockDataDir(database.dataDir);
      try {
        const image = new Blob([new Uint8Array(await fs.promises.readFile(path.join(staging, PGDATA_DUMP)))]);
        const client = await PGlite.create({ dataDir: pgdataOf(database.dataDir), loadDataDir: image });
        try {
          restored = await databaseFigures(drizzlePglite(client));
        } finally {
          await client.close();
        }
      } finally {
        lock.release();
      }
    } else {
      await runTool("pg_restore", ["--no-owner", "--no-privileges", "--exit-on-error", "--single-transaction", `--dbname=${database.url}`, path.join(staging, POSTGRES_DUMP)]);
      const pool = new pg.Pool({ connectionString: database.url, max: 1 });
      try {
        restored = await databaseFigures(drizzlePg(pool));
      } finally {
        await pool.end();
      }
    }
    const difference = figuresDifference(manifest.tables, restored);
    if (difference.length > 0) throw new MaintenanceRefusal(`the restored database differs from the backup:\n${difference.join("\n")}`);

    if (filesInBackup && install.uploadsDir) {
      await fs.promises.mkdir(path.dirname(install.uploadsDir), { recursive: true });
      await tar.extract({ file, cwd: path.dirname(install.uploadsDir), filter: (entry) => entry.startsWith(`${UPLOADS}/`) });
      const found = filesUnder(install.uploadsDir);
      if (found.files !== manifest.uploads.files || found.bytes !== manifest.uploads.bytes) {
        throw new MaintenanceRefusal(`the restored files differ from the backup: ${found.files} files of ${found.bytes} bytes, expected ${manifest.uploads.files} of ${manifest.uploads.bytes}`);
      }
    }
    const fingerprint = paymentKeyFingerprint(install.paymentKey);
    return { manifest, paymentKeyMatches: fingerprint === null ? null : fingerprint === manifest.payment_key_fingerprint };
  } finally {
    await fs.promises.rm(staging, { recursive: true, force: true });
  }
}
