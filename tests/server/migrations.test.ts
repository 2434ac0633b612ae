/**
 * The checked-in migrations match the schema: drizzle-kit generate, run on a copy of the migration folder, finds
 * nothing to migrate. A schema change without its migration fails here instead of at a user's first start.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const MIGRATIONS = path.join(ROOT, "server/db/migrations");

it("has a migration for every change of the schema (drizzle-kit generate finds nothing to do)", () => {
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), "cpc-migrations-"));
  try {
    fs.cpSync(MIGRATIONS, path.join(copy, "migrations"), { recursive: true });
    // drizzle-kit reads `out` relative to the working directory
    const config = path.join(copy, "drizzle.config.ts");
    fs.writeFileSync(config, `export default ${JSON.stringify({ dialect: "postgresql", schema: "./server/db/schema.ts", out: path.relative(ROOT, path.join(copy, "migrations")) })};\n`);
    const run = spawnSync(process.execPath, [path.join(ROOT, "node_modules/drizzle-kit/bin.cjs"), "generate", "--config", config], { cwd: ROOT, encoding: "utf8", timeout: 60_000 });
    const output = `${run.stdout}${run.stderr}`;
    expect(run.status, output).toBe(0);
    expect(output).toContain("No schema changes");
    expect(fs.readdirSync(path.join(copy, "migrations")).sort()).toEqual(fs.readdirSync(MIGRATIONS).sort());
  } finally {
    fs.rmSync(copy, { recursive: true, force: true });
  }
});
