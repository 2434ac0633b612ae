/**
 * The one list of the test files that run on PostgreSQL as well as on the embedded PGlite, each with why. Every
 * other server and browser test file runs on PGlite alone: PGlite is PostgreSQL itself (the same parser, planner
 * and SQL), so a test whose outcome no concurrency, connection or driver decides proves the same on both, and the
 * second run only costs time.
 *
 * What can differ, and so earns a file its place here:
 * - concurrent writers: races for one row or one unique value, locks, claims, sequences (PGlite has one connection
 *   and runs one statement at a time; PostgreSQL runs the pool's connections at once);
 * - the client layer: PostgreSQL's pool, its named and pipelined statements, the types the drivers give back
 *   (counts, sums of money, times), which the files counting or summing in SQL pin down;
 * - migrations run on data already there;
 * - several processes or servers sharing one database, and what only PostgreSQL has or does.
 *
 * In a listed file, `describeOnDatabases` (`describeInBrowserOnDatabases`) runs its block on both databases,
 * `describeOnPostgres` on PostgreSQL alone, and `describeOnEmbedded` keeps a block on PGlite. Any other file runs
 * its blocks with `describeOnEmbedded` (`describeInBrowser`); the other two refuse to run there, naming this list.
 * Keys are paths from the repository's root.
 */
export const ON_POSTGRES: Readonly<Record<string, string>> = {
  // concurrent writers
  "tests/server/accounts.test.ts": "two adds of one username race for the unique index; the last super administrators disable each other at once",
  "tests/server/activationCodes.test.ts": "of concurrent redemptions of one code exactly one wins",
  "tests/server/afterSales.test.ts": "one item's after-sale asked twice at once opens once, and agreed twice at once asks one refund",
  "tests/server/classGrades.test.ts": "two adds of one class name race for the unique index; a move waits for a row another connection holds",
  "tests/server/feePayments.test.ts": "two payers paying one bill at once pay it once",
  "tests/server/jobs.test.ts": "workers with connections of their own race for the same jobs",
  "tests/server/miniProgramPlatforms.test.ts": "processes renewing WeChat's component token at once make one, under a lock of PostgreSQL's",
  "tests/server/notices.test.ts": "two reminders at once, and a second sending run while the first holds its claim",
  "tests/server/payerApi.test.ts": "a burst of payments of one bill, and a class of payers paying at once",
  "tests/server/pickupVerify.test.ts": "clerks verifying one order at once: one conditional update wins",
  "tests/server/printing.test.ts": "two workers of their own connections sending one order's receipts print each once",
  "tests/server/refunds.test.ts": "refunds asked at once never hold back more than the order paid",
  "tests/server/renewalPayments.test.ts": "the same payment confirmed and polled several times at once is applied once",
  "tests/server/schoolWorld.test.ts": "three adds of one student number race for the unique index",
  "tests/server/session.test.ts": "calls at once on one session, and a call while another connection holds the session's row",
  "tests/server/shopOrders.test.ts": "payers ordering the last items of a SKU together: stock taken by conditional updates",
  "tests/server/stateTotals.test.ts": "the totals kept per school and state under concurrent payments of one school",
  "tests/server/studentImport.test.ts": "two imports of the same student numbers at once",
  "tests/server/throttle.test.ts": "bursts of logins and password changes at once are counted before the password is checked",
  "tests/server/usernames.test.ts": "two adds of look-alike usernames race; the migration stops on look-alikes already stored",
  "tests/server/vouchers.test.ts": "voucher numbers of payments made at once stay consecutive and unique",
  "tests/server/wechatpayNotify.test.ts": "one notification delivered several times at once is applied once",
  // the client layer and the drivers' types
  "tests/server/dashboard.test.ts": "the home page's counts and sums computed in SQL, as each driver returns them",
  "tests/server/dayTotals.test.ts": "the totals kept by day are written by triggers over transition tables and read through each database's own prepared and pipelined statements",
  "tests/server/figures.test.ts": "the money summed in SQL on every page, as each driver returns it",
  "tests/server/goodsStatistics.test.ts": "the shop's sales and refunds summed in SQL, as each driver returns them",
  "tests/server/listPage.test.ts": "a list's page read as the database's text: named, pipelined statements on PostgreSQL",
  "tests/server/listRows.test.ts": "every entity's list row against its record, as each driver returns their values",
  "tests/server/listTabsSummary.test.ts": "the tabs' counts and the summary's sums computed in SQL",
  "tests/server/pickupPoints.test.ts": "a clerk's list is a statement of its own shape, prepared per database",
  "tests/server/reports.test.ts": "the student reports' counts computed in SQL",
  "tests/server/statistics.test.ts": "the statistics' money and rates summed in SQL, as each driver returns them",
  "tests/server/waitingCounts.test.ts": "the waiting counts computed in SQL",
  "tests/server/pipelinedReads.test.ts": "PostgreSQL's pipelined reads themselves (PostgreSQL only)",
  // migrations
  "tests/server/classTitleMigration.test.ts": "a migration run on classes already sharing a name",
  // several processes or servers, and what only PostgreSQL does
  "tests/server/downloads.test.ts": "exports asked of two servers sharing the database run once each",
  "tests/server/plannerStatistics.test.ts": "servers starting together on one database make the planner statistics once",
  "tests/server/process.test.ts": "the server process started on DATABASE_URL (its other blocks run on PGlite)",
  "tests/server/wechatpayMerchants.test.ts": "without a payment key, PostgreSQL stores no merchant credentials (its other blocks run on PGlite)",
  "tests/server/severalProcesses.test.ts": "three server processes on one database behind a round-robin proxy: payments, throttle, revocation and jobs once",
  "tests/server/pgbouncer.test.ts": "the server behind PgBouncer in transaction mode: statements unnamed, connections shared per transaction",
  "tests/server/killed.test.ts": "a server process killed outright mid-write: PostgreSQL's crash safety and the embedded database's recovery each",
  "tests/server/backups.test.ts": "moving the embedded install into PostgreSQL, and pg_dump's and pg_restore's backups, are PostgreSQL's alone",
  // the browser
  "tests/e2e/renewal.test.ts": "the renewal flows end to end on a server over PostgreSQL: the console's one browser check of that server",
};

/** Why `file` (an absolute path or one from the repository's root) runs on PostgreSQL too, or undefined. */
export function postgresReason(file: string): string | undefined {
  const relative = file.replace(/\\/g, "/").replace(/^.*?(?=tests\/(server|e2e)\/)/, "");
  return ON_POSTGRES[relative];
}
