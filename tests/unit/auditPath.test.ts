/**
 * The audit log has one writer: server/auth/audit.ts (writeAudit, with an actor made by its constructors; auditCall for
 * an operation's caller). A module inserting into the log itself, or changing or removing an entry of this
 * append-only trail, would write around the actor that names who acted: it fails here, naming the file and line.
 */
import fs from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const WRITER = "server/auth/audit.ts";
const WRITES_LOG = /\.(insert|update|delete)\(\s*auditLog\b|\b(INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+"?audit_log\b/i;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts") && !f.endsWith(".generated.ts")).map((f) => path.posix.join(dir, f.split(path.sep).join("/")));
}

it("writes the audit log from server/auth/audit.ts alone", () => {
  const writers: string[] = [];
  for (const file of sourceFiles("server")) {
    if (file === WRITER || file.startsWith("server/db/migrations/")) continue;
    fs.readFileSync(path.join(ROOT, file), "utf8")
      .split("\n")
      .forEach((line, i) => {
        if (WRITES_LOG.test(line)) writers.push(`${file}:${i + 1}: ${line.trim()}`);
      });
  }
  expect(writers).toEqual([]);
  // the pattern finds what it is meant to: the writer's own insert
  expect(WRITES_LOG.test(fs.readFileSync(path.join(ROOT, WRITER), "utf8"))).toBe(true);
});
