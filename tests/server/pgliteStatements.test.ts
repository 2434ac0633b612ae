/**
 * The embedded database's named prepared statements (server/db/pgliteStatements.ts) answer exactly as PGlite's
 * own query does (a read, or a statement starting with a WITH), recover from a failing statement, stay within their limit, and never run inside another
 * caller's transaction. (Every other server test runs on them too, through the real server.)
 */
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, expect, it } from "vitest";
import { keepPreparedStatements } from "../../server/db/pgliteStatements";

let kept: PGlite;
let plain: PGlite;

beforeAll(async () => {
  [kept, plain] = await Promise.all([PGlite.create(), PGlite.create()]);
  keepPreparedStatements(kept, { maxStatements: 3 });
  for (const db of [kept, plain]) {
    await db.exec(`create table t (id serial primary key, name text, at timestamptz, tags int[], amount numeric(10,2));
      insert into t (name, at, tags, amount) values ('a', '2026-01-02T03:04:05Z', '{1,2}', 1.5), (null, null, null, null);`);
  }
});
afterAll(async () => {
  await Promise.all([kept?.close(), plain?.close()]);
});

const statementsOf = async (db: PGlite) => (await db.query<{ name: string }>("select name from pg_prepared_statements order by name")).rows.map((r) => r.name);

it("answers a read with parameters exactly as PGlite's own query, in both row modes and with the caller's parsers", async () => {
  const text = "select id, name, at, tags, amount from t where id >= $1 order by id";
  for (const options of [undefined, { rowMode: "array" as const }, { parsers: { 1184: (v: string) => `at ${v}` } }]) {
    for (let run = 0; run < 2; run++) {
      const [a, b] = await Promise.all([kept.query(text, [1], options), plain.query(text, [1], options)]);
      expect(a.rows).toEqual(b.rows);
      expect(a.fields).toEqual(b.fields);
    }
  }
  expect(await statementsOf(kept)).toHaveLength(1);
  expect(await statementsOf(plain)).toHaveLength(0);
});

it("keeps a statement starting with a WITH, a write too: all of it or nothing, as PGlite's own query", async () => {
  const text = "with moved as (update t set amount = amount + $1 where id = $2 returning id, amount), logged as (insert into t (name) select 'moved ' || id from moved) select * from moved";
  for (const db of [kept, plain]) {
    for (let run = 0; run < 2; run++) expect((await db.query<{ amount: string }>(text, [1, 1])).rows).toHaveLength(1);
    // a failing part leaves nothing of the others
    await expect(db.query("with moved as (update t set amount = amount + $1 where id = 1 returning id) insert into t (id) select id from moved", [1])).rejects.toMatchObject({ code: "23505" });
  }
  const state = (db: PGlite) => db.query("select id, name, amount from t order by id");
  expect((await state(kept)).rows).toEqual((await state(plain)).rows);
  expect((await kept.query<{ amount: string }>("select amount from t where id = $1", [1])).rows[0].amount).toBe("3.50");
  expect(await statementsOf(kept)).toContain((await kept.query<{ name: string }>("select name from pg_prepared_statements where statement like $1", ["with moved%logged%"])).rows[0]?.name);
  expect(await statementsOf(plain)).toHaveLength(0);
});

it("passes a failure through with its code and answers the next call", async () => {
  await expect(kept.query("select 1 / $1::int as q", [0])).rejects.toMatchObject({ code: "22012" });
  expect((await kept.query<{ q: number }>("select 1 / $1::int as q", [1])).rows).toEqual([{ q: 1 }]);
  await expect(kept.query("select nosuch from t where id = $1", [1])).rejects.toMatchObject({ code: "42703" });
  expect((await kept.query<{ id: number }>("select id from t where id = $1", [2])).rows).toEqual([{ id: 2 }]);
});

it("makes a statement again when its table changed under it", async () => {
  await kept.exec("create table u (id int primary key); insert into u values (1)");
  const read = () => kept.query("select * from u where id = $1", [1]);
  expect((await read()).rows).toEqual([{ id: 1 }]);
  await kept.exec("alter table u add column label text default 'x'");
  // PostgreSQL refuses the kept plan once (its result changed); the next call prepares it anew
  const once = await read().then(
    (r) => r.rows,
    (err: { code?: string }) => err.code,
  );
  expect([[{ id: 1, label: "x" }], "0A000"]).toContainEqual(once);
  expect((await read()).rows).toEqual([{ id: 1, label: "x" }]);
});

it("keeps at most its limit of statements, closing the least recently used", async () => {
  for (let i = 0; i < 6; i++) expect((await kept.query<{ n: number }>(`select $1::int + ${i} as n`, [1])).rows).toEqual([{ n: 1 + i }]);
  expect(await statementsOf(kept)).toHaveLength(3);
  // a closed one is made again when read again
  expect((await kept.query<{ n: number }>("select $1::int + 0 as n", [5])).rows).toEqual([{ n: 5 }]);
  expect(await statementsOf(kept)).toHaveLength(3);
});

it("waits for another caller's transaction instead of reading its uncommitted rows", async () => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let inserted!: () => void;
  const insertDone = new Promise<void>((resolve) => (inserted = resolve));
  const transaction = kept.transaction(async (tx) => {
    await tx.query("insert into t (name) values ($1)", ["uncommitted"]);
    inserted();
    await held;
    await tx.rollback();
  });
  await insertDone;
  const read = kept.query<{ n: number }>("select count(*)::int as n from t where name = $1", ["uncommitted"]);
  release();
  await transaction.catch(() => undefined);
  expect((await read).rows).toEqual([{ n: 0 }]);
});
