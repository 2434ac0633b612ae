/**
 * One server process per embedded data directory (PGlite allows a single process): a lock file holding the
 * owner's pid. A lock left by a process that no longer runs is taken over.
 */
import fs from "node:fs";
import path from "node:path";

export const LOCK_FILE_NAME = "campus-pay.lock";

export class DataDirLockedError extends Error {
  constructor(readonly dataDir: string, readonly pid: number) {
    super(
      `The data directory ${dataDir} is in use by another server process (pid ${pid}). ` +
        `Stop that process, or start this one with another DATA_DIR.`,
    );
    this.name = "DataDirLockedError";
  }
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

export interface DataDirLock {
  release(): void;
}

export function acquireDataDirLock(dataDir: string): DataDirLock {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, LOCK_FILE_NAME);
  for (;;) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: "wx" });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const owner = Number.parseInt(fs.readFileSync(file, "utf8").trim(), 10);
      if (Number.isInteger(owner) && owner > 0 && processIsAlive(owner)) throw new DataDirLockedError(dataDir, owner);
      // stale lock of a dead process (or an unreadable one): take it over
      fs.rmSync(file, { force: true });
    }
  }
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      try {
        if (fs.readFileSync(file, "utf8").trim() === String(process.pid)) fs.rmSync(file, { force: true });
      } catch {
        // already gone
      }
    },
  };
}
