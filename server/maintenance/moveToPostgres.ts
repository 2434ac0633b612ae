/**
 * npm run move-to-postgres -- DATABASE_URL: an embedded install that outgrew one machine copied into an empty
 * PostgreSQL database (docs/operations.md).
 *
 * Both databases are brought to this server's migrations first (the target by the server's own open, which makes
 * its state totals' tables and triggers too). Then, in one transaction on the target: the foreign keys are set
 * aside, every table is copied in batches of rows as JSON (json_populate_recordset gives each value back in its own
 * type: amounts, times and JSON as they were), the state totals are kept by their triggers as the rows arrive
 * rather than copied, the sessions are revoked (everybody signs in again), the foreign keys are put back (checked
 * against the copied rows), the sequences continue after the largest id, and every table's rows and sums are
 * compared with the embedded database's. Anything amiss rolls the whole copy back.
 */
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { openDatabase, queryRows, type Database, type DbOrTx } from "../db/client";
import { DataDirLockedError } from "../db/lock";
import { dayTotalsTableName, stateTotalsDays, stateTotalsTableName } from "../db/stateTotals";
import { paymentKeyFingerprint } from "../payments/secrets";
import { entities } from "../../resources.config";
import { MaintenanceRefusal, pgdataOf, postgresIsEmpty, refusalOfLocked, type Install } from "./backup";
import { databaseFigures, figuresDifference, publicTables, quoteIdentifier } from "./figures";

const BATCH_ROWS = 1000;

/** the tables the database keeps from others (state totals): made on the target by its triggers, never copied */
function derivedTables(): Set<string> {
  return new Set(entities.filter((entity) => entity.stateTotals).flatMap((entity) => [stateTotalsTableName(entity), ...(stateTotalsDays(entity) ? [dayTotalsTableName(entity)] : [])]));
}

/** Copies one table's rows from the embedded database into the target, a batch at a time; the rows copied. */
async function copyTable(source: Database, target: DbOrTx, table: string): Promise<number> {
  let copied = 0;
  await source.db.transaction(async (tx) => {
    await tx.execute(sql.raw(`declare copy_rows no scroll cursor for select row_to_json(t)::text as row from ${quoteIdentifier(table)} t`));
    for (;;) {
      const batch = await queryRows<{ row: string }>(tx, sql.raw(`fetch ${BATCH_ROWS} from copy_rows`));
      if (batch.length === 0) break;
      const rows = `[${batch.map((entry) => entry.row).join(",")}]`;
      await target.execute(sql`insert into ${sql.raw(quoteIdentifier(table))} select * from json_populate_recordset(null::${sql.raw(quoteIdentifier(table))}, ${rows}::json)`);
      copied += batch.length;
    }
    await tx.execute(sql.raw("close copy_rows"));
  });
  return copied;
}

export async function moveToPostgres(install: Install, url: string, log: (line: string) => void): Promise<void> {
  if (install.database.kind !== "pglite") throw new MaintenanceRefusal("DATABASE_URL is set: the install to move is the embedded one of DATA_DIR (unset DATABASE_URL)");
  const { dataDir } = install.database;
  if (!/^postgres(ql)?:\/\//.test(url)) throw new MaintenanceRefusal(`the target must be a postgres:// address, got "${url}"`);
  if (!fs.existsSync(path.join(pgdataOf(dataDir), "PG_VERSION"))) throw new MaintenanceRefusal(`${dataDir} holds no embedded database (DATA_DIR)`);
  if (!(await postgresIsEmpty(url))) throw new MaintenanceRefusal("the target database is not empty: the install is moved into an empty database");

  // opened as the server opens it (its migrations applied), locked for this command: refused while a server runs on it
  const source = await openDatabase({ kind: "pglite", dataDir }).catch((err: unknown) => {
    throw err instanceof DataDirLockedError ? refusalOfLocked(err) : err;
  });
  let target: Database | undefined;
  try {
    target = await openDatabase({ kind: "postgres", url, poolSize: 2 });
    const derived = derivedTables();
    const tables = (await publicTables(source.db)).filter((table) => !derived.has(table));
    const targetTables = new Set(await publicTables(target.db));
    const missing = tables.filter((table) => !targetTables.has(table));
    if (missing.length > 0) throw new MaintenanceRefusal(`the target lacks tables the embedded database has: ${missing.join(", ")}`);
    const expected = await databaseFigures(source.db, tables);

    await target.db.transaction(async (tx) => {
      const foreignKeys = await queryRows<{ table_name: string; name: string; definition: string }>(
        tx,
        sql`select conrelid::regclass::text as table_name, conname::text as name, pg_get_constraintdef(oid) as definition
            from pg_constraint where contype = 'f' and connamespace = 'public'::regnamespace`,
      );
      for (const key of foreignKeys) await tx.execute(sql.raw(`alter table ${key.table_name} drop constraint ${quoteIdentifier(key.name)}`));
      for (const table of tables) {
        const copied = await copyTable(source, tx, table);
        if (copied > 0) log(`${table}: ${copied} rows`);
      }
      for (const key of foreignKeys) await tx.execute(sql.raw(`alter table ${key.table_name} add constraint ${quoteIdentifier(key.name)} ${key.definition}`));

      const sequences = await queryRows<{ table_name: string; column_name: string; sequence: string }>(
        tx,
        sql`select table_name::text, column_name::text, pg_get_serial_sequence(quote_ident(table_name), column_name) as sequence
            from information_schema.columns
            where table_schema = 'public' and pg_get_serial_sequence(quote_ident(table_name), column_name) is not null`,
      );
      for (const { table_name, column_name, sequence } of sequences) {
        const column = quoteIdentifier(column_name);
        await tx.execute(sql.raw(`select setval('${sequence.replaceAll("'", "''")}', coalesce(max(${column}), 1), max(${column}) is not null) from ${quoteIdentifier(table_name)}`));
      }

      const difference = figuresDifference(expected, await databaseFigures(tx, tables));
      if (difference.length > 0) throw new MaintenanceRefusal(`the copy differs from the embedded database, nothing was kept:\n${difference.join("\n")}`);
      // after the comparison: the times differ, never the rows or the sums
      await tx.execute(sql`update sessions set revoked_at = now() where revoked_at is null`);
    });
  } finally {
    await target?.close();
    await source.close();
  }

  log("Every table's rows and sums match the embedded database's. Sessions were revoked: everybody signs in again.");
  log("Start the server with:");
  log(`  DATABASE_URL=${url.replace(/:[^:@/]*@/, ":***@")}`);
  const fingerprint = paymentKeyFingerprint(install.paymentKey);
  if (fingerprint) {
    log(
      install.paymentKey.key
        ? `  PAYMENT_KEY as now (${fingerprint})`
        : `  PAYMENT_KEY=the content of ${path.join(dataDir, "payment.key")} (${fingerprint}): on PostgreSQL the key comes from the environment`,
    );
  }
  if (install.uploadsDir) log(`  DATA_DIR=${dataDir} as now, where the uploaded files are (or copy ${install.uploadsDir} into an S3 bucket and set S3_*)`);
  log(`The embedded database in ${dataDir} is left as it was; remove its pgdata once the server runs on PostgreSQL.`);
}
