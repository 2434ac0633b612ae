/**
 * The list pages' pipelined reads on PostgreSQL (server/db/pipelinedReads.ts): many reads at once share a few
 * connections and each gets its own rows; a failing read fails alone; a connection that breaks is replaced; a
 * closed reader reads no more. (Every list of the server tests on PostgreSQL reads through them too.)
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import pg from "pg";
import { PipelinedReads } from "../../server/db/pipelinedReads";
import { createPostgresDatabase, describeOnPostgres } from "../helpers/db";

describeOnPostgres("pipelined reads", () => {
  let created: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let admin: pg.Client;

  beforeAll(async () => {
    created = await createPostgresDatabase();
    admin = new pg.Client({ connectionString: created.url });
    await admin.connect();
    await admin.query("create table t (id int primary key, name text); insert into t select i, 'n' || i from generate_series(1, 100) i");
  });
  afterAll(async () => {
    await admin?.end();
    await created?.drop();
  });

  const byId = { name: "t_by_id", text: "select id::text, name from t where id = $1" };
  const backends = async () =>
    (await admin.query<{ pid: number }>("select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()")).rows.map((r) => r.pid);

  it("answers a hundred reads at once, each its own rows, over two connections", async () => {
    const reads = new PipelinedReads(created.url, 2);
    try {
      const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => reads.read(byId.name, byId.text, [i + 1])));
      answers.forEach((rows, i) => expect(rows).toEqual([[String(i + 1), `n${i + 1}`]]));
      expect(await backends()).toHaveLength(2);
    } finally {
      await reads.close();
    }
  });

  it("fails a failing read alone, with the database's code, and the reads sent beside it succeed", async () => {
    const reads = new PipelinedReads(created.url, 1);
    try {
      const bad = { name: "t_bad", text: "select 1 / (id - $1) from t where id = $1" };
      const settled = await Promise.allSettled([
        reads.read(byId.name, byId.text, [1]),
        reads.read(bad.name, bad.text, [5]),
        reads.read(byId.name, byId.text, [2]),
        reads.read("t_unknown_column", "select nope from t where id = $1", [3]),
        reads.read(byId.name, byId.text, [3]),
      ]);
      expect(settled.map((s) => s.status)).toEqual(["fulfilled", "rejected", "fulfilled", "rejected", "fulfilled"]);
      expect((settled[1] as PromiseRejectedResult).reason).toMatchObject({ code: "22012" });
      expect((settled[3] as PromiseRejectedResult).reason).toMatchObject({ code: "42703" });
      expect((settled[4] as PromiseFulfilledResult<unknown>).value).toEqual([["3", "n3"]]);
    } finally {
      await reads.close();
    }
  });

  it("reads on a new connection after its connection was cut off", async () => {
    const reads = new PipelinedReads(created.url, 1);
    try {
      expect(await reads.read(byId.name, byId.text, [7])).toEqual([["7", "n7"]]);
      const [pid] = await backends();
      await admin.query("select pg_terminate_backend($1)", [pid]);
      // the read sent on the cut connection fails, or finds it gone already; the next one reads on a new connection
      await reads.read(byId.name, byId.text, [8]).catch(() => undefined);
      expect(await reads.read(byId.name, byId.text, [9])).toEqual([["9", "n9"]]);
      expect(await backends()).not.toContain(pid);
    } finally {
      await reads.close();
    }
  });

  it("reads no more once closed, and leaves no connection open", async () => {
    const reads = new PipelinedReads(created.url, 2);
    await reads.read(byId.name, byId.text, [1]);
    await reads.close();
    await expect(reads.read(byId.name, byId.text, [1])).rejects.toThrow(/closed/);
    await expect.poll(backends).toEqual([]);
  });
});
