/**
 * The embedded database's statements take turns with the event loop (server/db/pgliteTurns.ts): what arrives while
 * statements are queued is handled between them and its statements join the queue's end; a failing statement
 * holds up nobody; a transaction's own statements never wait behind the queue.
 */
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, expect, it } from "vitest";
import { keepPreparedStatements } from "../../server/db/pgliteStatements";
import { takeTurns } from "../../server/db/pgliteTurns";

let db: PGlite;

beforeAll(async () => {
  db = await PGlite.create();
  // as the server wires them
  keepPreparedStatements(db);
  takeTurns(db);
  await db.exec("create table t (id serial primary key, label text)");
});
afterAll(async () => {
  await db?.close();
});

const labelOf = async (label: string) => (await db.query<{ label: string }>("select $1::text as label", [label])).rows[0].label;

it("handles what arrives between two queued statements, and serves its statement after the ones already queued", async () => {
  const order: string[] = [];
  const served = (label: string) => labelOf(label).then((l) => void order.push(l));
  let arrived!: () => void;
  const servedArrival = new Promise<void>((resolve) => (arrived = resolve));
  await Promise.all([
    // a request that comes once the first statement has been answered, as the next request of its client would
    served("a").then(() =>
      setImmediate(() => {
        order.push("arrival");
        void served("d").then(arrived);
      }),
    ),
    served("b"),
    served("c"),
  ]);
  await servedArrival;
  // without turns all three queued statements ran in one go before anything else was handled
  expect(order.indexOf("arrival")).toBeLessThan(order.indexOf("c"));
  expect(order).toEqual(["a", ...order.slice(1, 3), "c", "d"]);
  expect(order.slice(1, 3).sort()).toEqual(["arrival", "b"]);
});

it("answers the statements behind a failing one", async () => {
  const [failed, next] = await Promise.allSettled([db.query("select 1 / $1::int as q", [0]), labelOf("after")]);
  expect(failed).toMatchObject({ status: "rejected", reason: { code: "22012" } });
  expect(next).toEqual({ status: "fulfilled", value: "after" });
});

it("lets a transaction finish while a statement behind it waits for its lock", async () => {
  let counted: Promise<number> | undefined;
  await db.transaction(async (tx) => {
    await tx.query("insert into t (label) values ($1)", ["first"]);
    // a request's read arriving mid-transaction: it waits for the transaction, which must not wait for it
    counted = db.query<{ n: number }>("select count(*)::int as n from t where label like $1", ["%"]).then((r) => r.rows[0].n);
    await new Promise((resolve) => setImmediate(resolve));
    await tx.query("insert into t (label) values ($1)", ["second"]);
  });
  expect(await counted).toBe(2);
});
