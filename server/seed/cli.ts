/**
 * npm run seed -- --demo: seeds the demo data (DESIGN 11) into the configured database (DATABASE_URL, or the
 * embedded one in DATA_DIR); refuses when it already has users.
 */
import { parseArgs } from "node:util";
import { PasswordHasher } from "../auth/passwords";
import { databaseTargetFromEnv } from "../config";
import { openDatabase } from "../db/client";
import { demoAccountsTable, seedDemo, SeedRefusedError } from "./demo";

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { demo: { type: "boolean", default: false } } });
  if (!values.demo) {
    console.error("Usage: npm run seed -- --demo");
    return 2;
  }
  const database = await openDatabase(databaseTargetFromEnv());
  try {
    await seedDemo(database.db, { hasher: new PasswordHasher(), now: new Date() });
    console.log(`Seeded the demo data into ${database.location}.\n${demoAccountsTable()}`);
    return 0;
  } catch (err) {
    if (err instanceof SeedRefusedError) {
      console.error(err.message);
      return 1;
    }
    throw err;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
