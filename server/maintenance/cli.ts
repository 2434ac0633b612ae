/**
 * npm run backup -- FILE, npm run restore -- FILE, npm run move-to-postgres -- DATABASE_URL: the install is read from
 * the environment as the server reads it (DATA_DIR or DATABASE_URL, S3_*, PAYMENT_KEY). docs/operations.md.
 */
import path from "node:path";
import { databaseTargetFromEnv } from "../config";
import { MaintenanceRefusal, restoreBackup, writeBackup, type Install } from "./backup";
import { moveToPostgres } from "./moveToPostgres";

function installFromEnv(env: NodeJS.ProcessEnv): Install {
  const target = databaseTargetFromEnv(env);
  const dataDir = path.resolve(env.DATA_DIR || "./data");
  return {
    database: target.kind === "postgres" ? { kind: "postgres", url: target.url } : { kind: "pglite", dataDir },
    // as server/uploads/storage.ts keeps them
    uploadsDir: env.S3_ENDPOINT || env.S3_BUCKET ? null : path.join(dataDir, "uploads"),
    paymentKey: { key: env.PAYMENT_KEY || undefined, keyFileDir: target.kind === "postgres" ? undefined : dataDir },
  };
}

const USAGE = `usage:
  npm run backup -- FILE             a backup of the install (DATA_DIR, or DATABASE_URL) into a new file
  npm run restore -- FILE            a backup restored into an empty DATA_DIR (or an empty DATABASE_URL)
  npm run move-to-postgres -- URL    the embedded install of DATA_DIR copied into an empty PostgreSQL database`;

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

async function main(): Promise<void> {
  const [command, argument] = process.argv.slice(2);
  if (!command || !argument) throw new MaintenanceRefusal(USAGE);
  const install = installFromEnv(process.env);
  if (command === "backup") {
    const manifest = await writeBackup(path.resolve(argument), install);
    const rows = Object.values(manifest.tables).reduce((sum, table) => sum + table.rows, 0);
    console.log(`Backed up ${Object.keys(manifest.tables).length} tables (${rows} rows) into ${argument}.`);
    console.log(
      manifest.uploads.kept === "in the backup"
        ? `Uploaded files: ${manifest.uploads.files} (${megabytes(manifest.uploads.bytes)}).`
        : "Uploaded files are in the S3 bucket, which keeps them (turn on its versioning).",
    );
    console.log(
      manifest.payment_key_fingerprint
        ? `The payment key (${manifest.payment_key_fingerprint}) is not in the backup: keep a copy of it apart.`
        : "No payment key is configured.",
    );
  } else if (command === "restore") {
    const { manifest, paymentKeyMatches } = await restoreBackup(path.resolve(argument), install);
    console.log(`Restored the backup of ${manifest.created_at}: every table's rows and sums match it.`);
    if (manifest.payment_key_fingerprint && paymentKeyMatches !== true) {
      const where = install.database.kind === "pglite" ? `${path.join(install.database.dataDir, "payment.key")}, or set PAYMENT_KEY` : "PAYMENT_KEY";
      console.log(
        paymentKeyMatches === false
          ? `The payment key configured is not the backup's (${manifest.payment_key_fingerprint}): stored merchant secrets will not decrypt until it is.`
          : `Put the payment key (${manifest.payment_key_fingerprint}) back: ${where}.`,
      );
    }
  } else if (command === "move-to-postgres") {
    await moveToPostgres(install, argument, (line) => console.log(line));
  } else {
    throw new MaintenanceRefusal(USAGE);
  }
}

main().catch((err: unknown) => {
  if (err instanceof MaintenanceRefusal) {
    console.error(err.message);
    process.exit(2);
  }
  console.error(err);
  process.exit(1);
});
