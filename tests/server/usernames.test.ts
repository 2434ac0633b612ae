/**
 * Usernames are one name without regard to case and Unicode width (NFKC, lower case): no account is added beside
 * another whose username differs from it only so (by usersadd, users_adminadd or a provider's first account, when
 * two adds race, or written into the database directly), and the answer names the field and nobody's tenant; a
 * login by any spelling is the account's, and every spelling's wrong guesses count against the account's one key.
 * A database that already holds such look-alikes is not migrated silently: the migration stops, naming them.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { count, eq, sql } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { DEFAULT_THROTTLE } from "../../server/auth/throttle";
import { tableColumn } from "../../server/db/catalogueTables";
import { MIGRATIONS_FOLDER, queryRows, type Db } from "../../server/db/client";
import { UNIQUE_VIOLATION, hasErrorCode } from "../../server/db/errors";
import { loginThrottle, providers, users } from "../../server/db/schema";
import { translator } from "../../server/lib/i18n";
import type { Envelope } from "../../server/protocol/envelope";
import { createPostgresDatabase, describeOnDatabases, type TestDatabaseKind } from "../helpers/db";
import { createTestApp, idByTitle, type TestApp } from "./support";

type Row = Record<string, unknown>;
const zh = translator("zh");
const UNAVAILABLE: Envelope = {
  return_code: "FAIL",
  return_msg: zh("api.username_unavailable"),
  data: { errors: [{ field: "username", message: zh("api.username_unavailable") }] },
};

/** accounts whose username is `name` in any case */
async function spellings(db: Db, name: string): Promise<string[]> {
  const rows = await db.select({ username: users.username }).from(users).where(sql`lower(${users.username}) = ${name.toLowerCase()}`);
  return rows.map((r) => r.username);
}

describeOnDatabases("look-alike usernames", (kind) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  let sunrise = 0;
  const call = (method: string, payload: Row, who: string) => t.call("adminapiv2", method, payload, { token: tokens[who] });
  const login = (username: string, password = "demo1234") => t.call("adminapi", "login", { username, password });

  beforeAll(async () => {
    t = await createTestApp(kind);
    for (const u of ["sysadmin", "sysop", "svc"]) tokens[u] = await t.login(u);
    sunrise = await idByTitle(t.db, providers, "Sunrise Campus Services");
  });
  afterAll(async () => {
    await t?.close();
  });

  it("refuses a username that differs from another only by case or width, with one answer naming no tenant", async () => {
    const account = { password: "secret-1", name: "Look-alike" };
    for (const [who, username, extra] of [
      ["svc", "SYSADMIN", { user_type: "service" }],
      ["svc", "SysOp", { user_type: "service" }],
      ["svc", "SVC", { user_type: "service" }],
      ["svc", "Harbour", { user_type: "service" }],
      ["sysadmin", "Staff", { user_type: "system" }],
      ["sysop", "sysADMIN", { user_type: "service", sysid: sunrise }],
    ] as const) {
      const res = await call("usersadd", { ...account, ...extra, username }, who);
      expect(res, `${who} adding ${username}`).toEqual(UNAVAILABLE);
    }
    expect(await call("users_adminadd", { ...account, username: "SYSOP" }, "sysadmin")).toEqual(UNAVAILABLE);
    // a provider's first account too
    const provider = { title: "Look-alike Learning", servicer_ver: "v2", end_time: "2027-01-31", status: "1", username: "Svc", password: "secret-1" };
    expect(await call("serviceadd", provider, "sysadmin")).toMatchObject(UNAVAILABLE);
    expect(await t.db.select({ n: count() }).from(providers).where(eq(tableColumn(providers, "title"), "Look-alike Learning"))).toEqual([{ n: 0 }]);

    for (const name of ["sysadmin", "sysop", "svc", "harbour", "staff"]) expect(await spellings(t.db, name), name).toEqual([name]);
    // the answer is the same whether the name is the caller's own provider's or another's
    expect(await call("usersadd", { ...account, user_type: "service", username: "STAFF" }, "svc")).toEqual(UNAVAILABLE);
  });

  it("keeps them apart in the database itself: a look-alike written directly is refused by the unique index", async () => {
    for (const username of ["SYSADMIN", "Svc", "ｓｙｓａｄｍｉｎ"]) {
      const write = t.db.insert(users).values({ username, passwordHash: "x", name: "Direct", userType: "system" });
      const err = await write.then(
        () => null,
        (e: unknown) => e,
      );
      expect(hasErrorCode(err, UNIQUE_VIOLATION), `${username}: ${String(err)}`).toBe(true);
    }
  });

  it("gives the slower of two racing look-alike adds the same answer, never a system error", async () => {
    for (const round of [1, 2, 3]) {
      const payload = { password: "secret-1", name: "Racer", user_type: "service" };
      const answers = await Promise.all([
        call("usersadd", { ...payload, username: `twin_${round}` }, "svc"),
        call("usersadd", { ...payload, username: `TWIN_${round}`, sysid: sunrise }, "sysop"),
      ]);
      expect(answers.map((a) => a.return_code).sort(), JSON.stringify(answers)).toEqual(["FAIL", "SUCCESS"]);
      expect(answers.find((a) => a.return_code === "FAIL")).toEqual(UNAVAILABLE);
      expect(await spellings(t.db, `twin_${round}`)).toHaveLength(1);
    }
  });

  it("logs every spelling of a username into its one account", async () => {
    for (const spelling of ["SYSADMIN", "SysAdmin", "ｓｙｓａｄｍｉｎ", "ＳＹＳＡＤＭＩＮ"]) {
      const res = await login(spelling);
      expect(res.return_code, `${spelling}: ${res.return_msg}`).toBe("SUCCESS");
      expect((res.data?.items as { data: Row }).data.username).toBe("sysadmin");
      const info = await t.call("adminapi", "getuserinfo", {}, { token: String(res.data?.token) });
      expect((info.data?.items as Row).username).toBe("sysadmin");
    }
    expect(await login("SYSADMIN", "wrong-password")).toEqual({ return_code: "FAIL", return_msg: zh("api.login_failed") });
    expect(await login("sysadmin_", "demo1234")).toEqual({ return_code: "FAIL", return_msg: zh("api.login_failed") });
  });

  it("counts the wrong guesses of every spelling against the account's one key, and locks it", async () => {
    const added = await call("usersadd", { username: "guarded", password: "right-pass", name: "Guarded", user_type: "service" }, "svc");
    expect(added.return_code).toBe("SUCCESS");
    const guesses = ["GUARDED", "ｇｕａｒｄｅｄ", "Guarded", "ＧＵＡＲＤＥＤ", "guarded"];
    expect(guesses).toHaveLength(DEFAULT_THROTTLE.perUsername.maxFailures);
    for (const spelling of guesses) expect(await login(spelling, "wrong-pass")).toEqual({ return_code: "FAIL", return_msg: zh("api.login_failed") });
    const keys = await t.db.select({ key: loginThrottle.key }).from(loginThrottle).where(sql`${loginThrottle.key} like 'user:%'`);
    expect(keys.map((k) => k.key).filter((k) => k.includes("guarded") || k.includes("ｇ") || k.includes("Ｇ"))).toEqual(["user:guarded"]);
    // the right password, by any spelling, waits out the lock
    for (const spelling of ["guarded", "ＧＵＡＲＤＥＤ"]) {
      const res = await login(spelling, "right-pass");
      expect(res.return_msg, spelling).toBe(zh("api.login_locked", { seconds: 60 }));
    }
    t.clock.advance(60_001);
    expect((await login("ＧＵＡＲＤＥＤ", "right-pass")).return_code).toBe("SUCCESS");
  });
});

/**
 * A copy of the migrations up to (not including) `tag`, as a database from before it was migrated.
 */
function migrationsBefore(tag: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cpc-migrations-before-"));
  fs.cpSync(MIGRATIONS_FOLDER, dir, { recursive: true });
  const journalPath = path.join(dir, "meta/_journal.json");
  const journal = JSON.parse(fs.readFileSync(journalPath, "utf8")) as { entries: { tag: string }[] };
  const index = journal.entries.findIndex((e) => e.tag === tag);
  if (index < 0) throw new Error(`no migration ${tag}`);
  for (const entry of journal.entries.slice(index)) fs.rmSync(path.join(dir, `${entry.tag}.sql`));
  journal.entries = journal.entries.slice(0, index);
  fs.writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

/** A bare database of the kind, migrated by hand. */
async function bareDatabase(kind: TestDatabaseKind): Promise<{ db: Db; migrate(folder: string): Promise<void>; dispose(): Promise<void> }> {
  if (kind === "pglite") {
    const client = await PGlite.create();
    const db = drizzlePglite(client) as unknown as Db;
    return { db, migrate: (folder) => migratePglite(db as never, { migrationsFolder: folder }), dispose: () => client.close() };
  }
  const created = await createPostgresDatabase();
  const pool = new pg.Pool({ connectionString: created.url, max: 2 });
  const db = drizzlePg(pool) as unknown as Db;
  return {
    db,
    migrate: (folder) => migratePg(db as never, { migrationsFolder: folder }),
    async dispose() {
      await pool.end();
      await created.drop();
    },
  };
}

describeOnDatabases("a database holding look-alike usernames from before", (kind) => {
  it("is not migrated: the migration stops naming them, changes nothing, and goes through once they are renamed", async () => {
    const before = migrationsBefore("0012_username_normalised");
    const bare = await bareDatabase(kind);
    try {
      await bare.migrate(before);
      const insert = (username: string) => bare.db.execute(sql`insert into users (username, password_hash, user_type) values (${username}, 'x', 'system') returning id`);
      for (const username of ["admin", "ADMIN", "keeper", "Ｋｅｅｐｅｒ", "alone"]) await insert(username);

      const failure = await bare.migrate(MIGRATIONS_FOLDER).then(
        () => null,
        (e: unknown) => e,
      );
      const message = String((failure as { message?: string } | null)?.message ?? failure) + String((failure as { cause?: { message?: string } } | null)?.cause?.message ?? "");
      expect(failure, "the migration went through").not.toBeNull();
      expect(message).toContain("rename all but one of each group");
      expect(message).toContain("admin (id 1), ADMIN (id 2)");
      expect(message).toContain("keeper (id 3), Ｋｅｅｐｅｒ (id 4)");
      expect(message).not.toContain("alone");
      // nothing of it was applied: the old exact-match constraint still stands, no new index
      const indexes = await queryRows<{ indexname: string }>(bare.db, sql`select indexname from pg_indexes where tablename = 'users' order by indexname`);
      expect(indexes.map((i) => i.indexname)).toContain("users_username_unique");
      expect(indexes.map((i) => i.indexname)).not.toContain("users_username_normalised_unique");

      await bare.db.execute(sql`update users set username = 'admin_2' where username = 'ADMIN'`);
      await bare.db.execute(sql`update users set username = 'keeper_2' where id = 4`);
      await bare.migrate(MIGRATIONS_FOLDER);
      const after = await queryRows<{ indexname: string }>(bare.db, sql`select indexname from pg_indexes where tablename = 'users'`);
      expect(after.map((i) => i.indexname)).toContain("users_username_normalised_unique");
      expect(after.map((i) => i.indexname)).not.toContain("users_username_unique");
    } finally {
      await bare.dispose();
      fs.rmSync(before, { recursive: true, force: true });
    }
  });
});
