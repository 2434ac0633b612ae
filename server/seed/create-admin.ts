/**
 * npm run create-admin [-- --username NAME --password PASS --name "Full Name" --ver v2]: creates a platform
 * super administrator in the configured database, asking for what the arguments leave out.
 */
import { createInterface } from "node:readline/promises";
import { parseArgs } from "node:util";
import { PasswordHasher } from "../auth/passwords";
import { databaseTargetFromEnv } from "../config";
import { openDatabase } from "../db/client";
import { createSuperAdmin } from "./admin";

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      username: { type: "string" },
      password: { type: "string" },
      name: { type: "string" },
      ver: { type: "string", default: "v2" },
    },
  });
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  const ask = async (question: string, given: string | undefined) => given ?? (await rl.question(question)).trim();
  const username = await ask("Username: ", values.username);
  const password = await ask("Password (at least 6 characters): ", values.password);
  const name = (await ask("Display name: ", values.name)) || username;
  rl.close();
  if (values.ver !== "v1" && values.ver !== "v2") throw new Error("--ver must be v1 or v2");

  const database = await openDatabase(databaseTargetFromEnv());
  try {
    const id = await createSuperAdmin(database.db, new PasswordHasher(), { username, password, name, servicerVer: values.ver });
    console.log(`Created the super administrator ${username} (id ${id}) in ${database.location}.`);
  } finally {
    await database.close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
