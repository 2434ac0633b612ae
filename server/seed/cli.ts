/**
 * npm run seed -- --demo: seeds the demo data (DESIGN 11) into the configured database (DATABASE_URL, or the
 * embedded one in DATA_DIR); refuses when it already has users.
 * npm run seed -- --scale N: adds N x 10,000 students for benchmarks to the demo data (scale.ts), seeding the
 * demo data first when the database is empty.
 */
import { parseArgs } from "node:util";
import { PasswordHasher } from "../auth/passwords";
import { databaseTargetFromEnv } from "../config";
import { openDatabase } from "../db/client";
import { demoAccountsTable, seedDemo, SeedRefusedError, userCount } from "./demo";
import { seedScale, STUDENTS_PER_SCALE_UNIT } from "./scale";

const USAGE = "Usage: npm run seed -- --demo | --scale N (adds N x 10,000 students)";

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { demo: { type: "boolean", default: false }, scale: { type: "string" } } });
  const scale = values.scale === undefined ? undefined : Number(values.scale);
  if (scale !== undefined && (!Number.isSafeInteger(scale) || scale < 1)) {
    console.error(`--scale needs a whole number of at least 1, got "${values.scale}"\n${USAGE}`);
    return 2;
  }
  if (!values.demo && scale === undefined) {
    console.error(USAGE);
    return 2;
  }
  const database = await openDatabase(databaseTargetFromEnv());
  try {
    const now = new Date();
    if (values.demo || (await userCount(database.db)) === 0) {
      await seedDemo(database.db, { hasher: new PasswordHasher(), now });
      console.log(`Seeded the demo data into ${database.location}.\n${demoAccountsTable()}`);
    }
    if (scale !== undefined) {
      const started = Date.now();
      const total = scale * STUDENTS_PER_SCALE_UNIT;
      const result = await seedScale(database.db, {
        scale,
        now,
        progress: (students) => process.stdout.write(`\r${students.toLocaleString("en")} of ${total.toLocaleString("en")} students`),
      });
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      console.log(`\nAdded ${result.students.toLocaleString("en")} students in ${result.schoolIds.length} bench schools of Sunrise Campus Services in ${seconds} s.`);
    }
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
