/**
 * One server process per embedded data directory (PGlite allows a single process).
 *
 * The lock is the folder DATA_DIR/campus-pay.lock of numbered entries, each holding the pid of the process that
 * made it; the highest number is the lock, held while that process runs. An entry is made with link(), which
 * either creates the name with its whole content or fails, so of any number of processes starting at once exactly
 * one makes number n + 1 when number n is stale. Nothing ever removes or renames the highest entry (release
 * rewrites it in place as released), so the highest number only grows: a slow starter that judged an older entry
 * stale and then makes a lower number than a live owner's sees the higher one when it checks, and backs off.
 * Entries below the owner's are litter the owner clears.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

export const LOCK_DIR_NAME = "campus-pay.lock";
const RELEASED = "released";
const ENTRY = /^\d+$/;
const TEMP = /^tmp-(\d+)-/;

export class DataDirLockedError extends Error {
  constructor(readonly dataDir: string, readonly pid: number) {
    super(
      `The data directory ${dataDir} is in use by another server process (pid ${pid}). ` +
        `Stop that process, or start this one with another DATA_DIR.`,
    );
    this.name = "DataDirLockedError";
  }
}

export interface DataDirLock {
  release(): void;
}

/** lock folders this process holds: an entry with our own pid and not listed here was left by an earlier process
 * that had the same pid (a restarted container) */
const held = new Set<string>();

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

function errorCode(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException).code;
}

function entries(lockDir: string): number[] {
  return fs
    .readdirSync(lockDir)
    .filter((name) => ENTRY.test(name))
    .map(Number)
    .sort((a, b) => a - b);
}

/** The pid of the running process that holds this entry, null when it is free (released, or its process is
 * gone), undefined when the entry no longer exists. */
function liveOwner(lockDir: string, entry: number): number | null | undefined {
  let text: string;
  try {
    text = fs.readFileSync(path.join(lockDir, String(entry)), "utf8").trim();
  } catch (err) {
    if (errorCode(err) === "ENOENT") return undefined;
    throw err;
  }
  if (text === RELEASED || !/^\d+$/.test(text)) return null;
  const pid = Number(text);
  if (pid === process.pid) return held.has(lockDir) ? pid : null;
  return processIsAlive(pid) ? pid : null;
}

/** Writes a unique temporary file and links it to `name`; true when this call made the name. */
function linkEntry(lockDir: string, name: string, content: string): boolean {
  const temp = path.join(lockDir, `tmp-${process.pid}-${randomBytes(6).toString("hex")}`);
  fs.writeFileSync(temp, content, { flag: "wx" });
  try {
    fs.linkSync(temp, path.join(lockDir, name));
    return true;
  } catch (err) {
    if (errorCode(err) === "EEXIST") return false;
    throw err;
  } finally {
    fs.rmSync(temp, { force: true });
  }
}

function removeQuietly(file: string): void {
  try {
    fs.unlinkSync(file);
  } catch {
    // gone already, or (an old lock folder) not ours to remove
  }
}

/** A lock file of versions before the lock folder: refuses while its process runs, else removes it. */
function clearLegacyLockFile(dataDir: string, lockDir: string): void {
  let text: string;
  try {
    if (!fs.lstatSync(lockDir).isFile()) return;
    text = fs.readFileSync(lockDir, "utf8").trim();
  } catch {
    return;
  }
  const pid = Number.parseInt(text, 10);
  if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && processIsAlive(pid)) throw new DataDirLockedError(dataDir, pid);
  // unlink cannot remove a folder, so a racer that made the lock folder meanwhile keeps it
  removeQuietly(lockDir);
}

export function acquireDataDirLock(dataDir: string): DataDirLock {
  fs.mkdirSync(dataDir, { recursive: true });
  clearLegacyLockFile(dataDir, path.join(dataDir, LOCK_DIR_NAME));
  fs.mkdirSync(path.join(dataDir, LOCK_DIR_NAME), { recursive: true });
  // one spelling of the folder, so that `held` knows it however the directory was named
  const lockDir = fs.realpathSync(path.join(dataDir, LOCK_DIR_NAME));
  for (let attempt = 0; attempt < 100; attempt++) {
    const top = entries(lockDir).at(-1) ?? 0;
    if (top > 0) {
      const owner = liveOwner(lockDir, top);
      // a starter that had made it backed off meanwhile: look again
      if (owner === undefined) continue;
      if (owner !== null) throw new DataDirLockedError(dataDir, owner);
    }
    const mine = top + 1;
    if (!linkEntry(lockDir, String(mine), String(process.pid))) continue;
    if (entries(lockDir).some((entry) => entry > mine)) {
      // an older judgement: a higher entry came first, whoever holds it
      removeQuietly(path.join(lockDir, String(mine)));
      continue;
    }
    held.add(lockDir);
    for (const name of fs.readdirSync(lockDir)) {
      const temp = TEMP.exec(name);
      const litter = ENTRY.test(name) ? Number(name) < mine : temp !== null && !processIsAlive(Number(temp[1]));
      if (litter) removeQuietly(path.join(lockDir, name));
    }
    let released = false;
    return {
      release() {
        if (released) return;
        released = true;
        held.delete(lockDir);
        // rewritten, never removed: the highest entry must stay (see above)
        const temp = path.join(lockDir, `tmp-${process.pid}-${randomBytes(6).toString("hex")}`);
        try {
          fs.writeFileSync(temp, RELEASED);
          fs.renameSync(temp, path.join(lockDir, String(mine)));
        } catch (err) {
          // the directory was removed meanwhile: nothing is left to release
          if (errorCode(err) !== "ENOENT") throw err;
        }
      },
    };
  }
  throw new Error(`Could not lock the data directory ${dataDir}: too many processes are starting on it at once`);
}

/** The pid of the server process that holds the data directory, or null. */
export function dataDirLockOwner(dataDir: string): number | null {
  try {
    const lockDir = fs.realpathSync(path.join(dataDir, LOCK_DIR_NAME));
    const top = entries(lockDir).at(-1);
    return top === undefined ? null : (liveOwner(lockDir, top) ?? null);
  } catch {
    return null;
  }
}
