/**
 * Before any test file: finds the PostgreSQL server of the test databases (TEST_DATABASE_URL, else the local one
 * on 127.0.0.1:5432 when it answers) and fails at once, saying what to do, when it is missing and the caller did
 * not leave it out with TEST_SKIP=postgres. Test files inherit TEST_DATABASE_URL from here. It also checks that
 * every file ON_POSTGRES names is there and holds a block on both databases or on PostgreSQL, so that the list
 * says what runs.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { ON_POSTGRES } from "./onPostgres";
import { DEFAULT_TEST_DATABASE_URL, isSkipped } from "./requirements";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

function checkPostgresList(): void {
  const wrong = Object.keys(ON_POSTGRES).filter((file) => {
    const full = path.join(ROOT, file);
    return !fs.existsSync(full) || !/\bdescribe(OnDatabases|OnPostgres|InBrowserOnDatabases)\(/.test(fs.readFileSync(full, "utf8"));
  });
  if (wrong.length > 0) throw new Error(`ON_POSTGRES (tests/helpers/onPostgres.ts) names files that are missing or hold no block on PostgreSQL: ${wrong.join(", ")}`);
}

async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query("select 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export default async function setup(): Promise<void> {
  checkPostgresList();
  if (isSkipped("postgres")) {
    delete process.env.TEST_DATABASE_URL;
    return;
  }
  const url = process.env.TEST_DATABASE_URL || DEFAULT_TEST_DATABASE_URL;
  if (!(await answers(url))) {
    throw new Error(
      `No PostgreSQL answers at ${url}: the server and browser tests run on PostgreSQL too. ` +
        "Start one (or set TEST_DATABASE_URL to a server where databases may be created), or leave PostgreSQL out on purpose with TEST_SKIP=postgres.",
    );
  }
  process.env.TEST_DATABASE_URL = url;
}
