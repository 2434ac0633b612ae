/**
 * The school shop's figures (BENCH_ONLY=retail), on a server of their own per database:
 * - pickup verification: 20 clerks verify one pickup order at once (exactly one may succeed), then 20 clerks verify
 *   20 different orders at once, over and over, for the p99 of pickupverify;
 * - the last items of a size: 200 payers order the last 50 of one SKU at once on the payer API (h5shoporder), each
 *   from an address of its own: exactly 50 orders made, the SKU's stock 0 and never below;
 * - the shop order list at scale: BENCH_SCALE x 10,000 shop orders with their items (default 1,000,000), written
 *   set-based inside the database in the states and on the dates a year of the shop leaves, then the provider's
 *   first page of shoporderlist read by 32 clients, with the default sort, and on a state's tab with a date range.
 * The payer page's shop on the wire (<= 150 KB) is measured with the payer page (measurePayerPage, part h5).
 */
import { randomBytes } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import { queryRows, type Db } from "../server/db/client";
import { compactStateTotals } from "../server/db/stateTotals";
import { entities } from "../resources.config";
import { goods, goodsSkus, pickupPoints, pickupRecords, schools, shopOrders } from "../server/db/schema";
import { BENCH_PROVIDER } from "../server/seed/scale";
import type { TestServer } from "../tests/helpers/server";
import type { LoadRequest, LoadResult } from "./loadWorker";
import type { Envelope } from "./weapi";

const DEMO_PASSWORD = "demo1234";
const SCHOOL = "Sunrise No.1 Primary School";
const PICKUP_POINT = "Sunrise North Gate Pickup";

export interface Budget {
  limit: number;
  atMost: boolean;
  text: string;
}

/** What the retail figures use of the bench (bench/run.ts). */
export interface RetailBench {
  record(measure: string, database: string, value: number | undefined, unit: string, budget?: Budget): void;
  row(row: { measure: string; database: string; figure: string; budget: string; verdict: "ok" | "OVER" | "n/a" | "FAILED" }): void;
  call(url: string, apiPath: string, body: Record<string, unknown>, token?: string, headers?: Record<string, string>): Promise<Envelope>;
  load(url: string, requests: LoadRequest[], concurrency: number, maxRequests: number, maxSeconds: number, acceptedCodes?: string[]): Promise<LoadResult>;
  recordLoad(name: string, database: string, concurrency: number, result: LoadResult): void;
  percentile(sorted: number[], p: number): number;
  /** the shop orders seeded: BENCH_SCALE x 10,000 */
  orders: number;
  /** the list's budget on this database (DESIGN 10) */
  listBudget: Budget;
}

/** a whole number written into a statement (our own constants and ids only) */
function int(n: number) {
  if (!Number.isSafeInteger(n)) throw new Error(`not a whole number: ${n}`);
  return sql.raw(String(n));
}

async function login(bench: RetailBench, server: TestServer, username: string, database: string): Promise<string> {
  // a seed may have kept the event loop busy past an idle keep-alive connection's end: tried once more
  const ask = () => bench.call(server.url, "adminapi", { method: "login", username, password: DEMO_PASSWORD });
  const res = await ask().catch(ask);
  const token = res.data?.token;
  if (res.return_code !== "SUCCESS" || !token) throw new Error(`login as ${username} failed on ${database}: ${res.return_msg}`);
  return token;
}

interface ShopWorld {
  sysid: number;
  schId: number;
  pointId: number;
}

async function shopWorld(db: Db): Promise<ShopWorld> {
  const [school] = await db.select({ id: schools.id, sysid: schools.sysid }).from(schools).where(eq(schools.title, SCHOOL));
  const [point] = await db.select({ id: pickupPoints.id }).from(pickupPoints).where(and(eq(pickupPoints.sysid, school.sysid), eq(pickupPoints.title, PICKUP_POINT)));
  if (!school || !point) throw new Error(`the demo's ${SCHOOL} or its ${PICKUP_POINT} is missing`);
  return { sysid: school.sysid, schId: school.id, pointId: point.id };
}

// ---------------------------------------------------------------------------------------------------------
// Pickup verification

const CLERKS = 20;
/** rounds of 20 orders verified at once, after WARM_UP_ROUNDS of the same */
const VERIFY_ROUNDS = 50;
const WARM_UP_ROUNDS = 5;
/** orders verified one at a time by one clerk: what one verification costs the server and the database alone */
const ONE_AT_A_TIME = 40;
const VERIFY_BUDGET: Budget = { limit: 100, atMost: true, text: "p99 <= 100 ms" };

/** 20 pickup clerks of the North Gate point (copies of the demo's clerk, its password; each a mobile), logged in: their tokens. */
async function clerks(bench: RetailBench, server: TestServer, world: ShopWorld, tag: string, database: string): Promise<string[]> {
  const db = server.server.database.db;
  const made = await queryRows<{ id: number; username: string }>(db, sql`
    INSERT INTO users (username, password_hash, name, phone, user_type, servicer_ver, sysid)
    SELECT 'bench_clerk_' || ${tag} || '_' || n, password_hash, 'Bench clerk ' || n, '1391726' || lpad(n::text, 4, '0'), user_type, servicer_ver, sysid
    FROM users CROSS JOIN generate_series(1, ${int(CLERKS)}) AS n
    WHERE username = 'pickup'
    RETURNING id, username`);
  if (made.length !== CLERKS) throw new Error(`the demo's pickup clerk is missing on ${database}`);
  const ids = sql.raw(`ARRAY[${made.map((m) => String(Math.trunc(Number(m.id)))).join(",")}]::int[]`);
  await db.execute(sql`UPDATE pickup_points SET verifiers = verifiers || ${ids} WHERE id = ${world.pointId}`);
  const tokens: string[] = [];
  for (const { username } of made) tokens.push(await login(bench, server, username, database));
  return tokens;
}

/**
 * `count` paid pickup orders of the school waiting at the North Gate, each of one item (its school's goods), written
 * as a payment leaves them: undelivered, a pickup code (8 digits) and a QR token. Answers their codes, in order.
 */
async function waitingPickupOrders(db: Db, world: ShopWorld, count: number, tag: string): Promise<string[]> {
  const prefix = `BP${tag}`;
  await db.transaction(async (tx) => {
    await tx.execute(sql`
      WITH pupil AS (
        SELECT id, row_number() OVER (ORDER BY id) AS k, count(*) OVER () AS n FROM students WHERE sch_id = ${world.schId} AND status = '1'
      ), sku AS (
        SELECT s.id, s.goods_id, s.price, g.title, s.spec_values, coalesce(s.image, g.images[1]) AS image
        FROM goods_skus s JOIN goods g ON g.id = s.goods_id
        WHERE g.sysid = ${world.sysid} AND g.status = 'on' AND g.delivery <> 'express' AND (g.sch_scope = 'all' OR ${world.schId} = any(g.sch_ids))
        ORDER BY s.id LIMIT 1
      ), o AS (
        INSERT INTO shop_orders (order_no, pay_no, sysid, sch_id, student_id, amount, status, delivery, pickup_point_id, pickup_code, pickup_token, gateway, transaction_id, created_at, paid_at)
        SELECT ${prefix} || lpad(i::text, 6, '0'), 'P' || ${prefix} || lpad(i::text, 6, '0'), ${world.sysid}, ${world.schId},
               (SELECT id FROM pupil WHERE k = 1 + i % (SELECT max(n) FROM pupil)), sku.price, 'undelivered', 'pickup', ${world.pointId},
               -- 9xxxxxxx: apart from the scale seed's codes
               '9' || lpad(i::text, 7, '0'), left(md5(${prefix} || i), 32), 'sandbox', 'SANDBOXP' || ${prefix} || i,
               now() - interval '2 hours', now() - interval '110 minutes'
        FROM generate_series(1, ${int(count)}) AS i CROSS JOIN sku
        ON CONFLICT DO NOTHING
        RETURNING id, order_no
      )
      INSERT INTO shop_order_items (order_id, sort, goods_id, sku_id, title, spec_values, image, price, qty, amount, sysid, sch_id)
      SELECT o.id, 0, sku.goods_id, sku.id, sku.title, sku.spec_values, sku.image, sku.price, 1, sku.price, ${world.sysid}, ${world.schId}
      FROM o CROSS JOIN sku`);
  });
  // as autovacuum would after a day's orders: the planner sees the waiting orders as they are, not as the seed left them
  await db.execute(sql`ANALYZE shop_orders, shop_order_items`);
  const rows = await db
    .select({ code: shopOrders.pickup_code })
    .from(shopOrders)
    .where(sql`${shopOrders.order_no} LIKE ${`${prefix}%`}`)
    .orderBy(shopOrders.id);
  if (rows.length < count) throw new Error(`only ${rows.length} of ${count} pickup orders were written`);
  return rows.map((r) => r.code!);
}

async function measurePickup(bench: RetailBench, server: TestServer, database: string, world: ShopWorld): Promise<void> {
  const db = server.server.database.db;
  const tag = randomBytes(3).toString("hex");
  const tokens = await clerks(bench, server, world, tag, database);
  const codes = await waitingPickupOrders(db, world, 1 + CLERKS * (WARM_UP_ROUNDS + VERIFY_ROUNDS) + ONE_AT_A_TIME, tag);

  // one order, 20 clerks at once: one hands it over, the others are told who did
  const [contested, ...rest] = codes;
  const answers = await Promise.all(tokens.map((token) => bench.call(server.url, "adminapiv2", { method: "pickupverify", code: contested, via: "code" }, token)));
  const succeeded = answers.filter((a) => a.return_code === "SUCCESS").length;
  const [order] = await db.select({ id: shopOrders.id, status: shopOrders.status }).from(shopOrders).where(and(eq(shopOrders.sysid, world.sysid), eq(shopOrders.pickup_code, contested)));
  const records = await db.select({ id: pickupRecords.id }).from(pickupRecords).where(eq(pickupRecords.order_id, order.id));
  const others = answers.filter((a) => a.return_code !== "SUCCESS").map((a) => a.return_msg);
  const told = new Set(others).size;
  const once = succeeded === 1 && records.length === 1 && order.status === "completed";
  bench.row({
    measure: `pickupverify: ${CLERKS} clerks verify one pickup order at once`,
    database,
    figure: `${succeeded} succeeded, ${records.length} verification record(s), order ${order.status}; the other ${others.length} told: ${[...new Set(others)].slice(0, 2).join(" | ")}${told > 2 ? " ..." : ""}`,
    budget: "exactly 1 succeeds",
    verdict: once ? "ok" : "FAILED",
  });

  // 20 clerks, 20 different orders at once, round after round (each clerk its own order of the round)
  const requests = (from: number, rounds: number): LoadRequest[] =>
    Array.from({ length: rounds * CLERKS }, (_, i) => ({ path: "adminapiv2", body: { method: "pickupverify", code: rest[from + i], via: i % 2 ? "code" : "scan" }, token: tokens[i % CLERKS] }));
  // a scan carries the QR token, a typed code the digits
  const tokenOf = new Map(
    (await db.select({ code: shopOrders.pickup_code, token: shopOrders.pickup_token }).from(shopOrders).where(and(eq(shopOrders.sysid, world.sysid), inArray(shopOrders.pickup_code, rest)))).map((r) => [r.code!, r.token!]),
  );
  const scanned = (list: LoadRequest[]) => list.map((r) => (r.body.via === "scan" ? { ...r, body: { ...r.body, code: tokenOf.get(String(r.body.code)) } } : r));
  const warm = scanned(requests(0, WARM_UP_ROUNDS));
  await bench.load(server.url, warm, CLERKS, warm.length, 30);
  const measured = scanned(requests(WARM_UP_ROUNDS * CLERKS, VERIFY_ROUNDS));
  const result = await bench.load(server.url, measured, CLERKS, measured.length, 60);
  const name = `pickupverify, ${CLERKS} clerks verifying ${CLERKS} different orders at once (typed codes and scanned QR tokens)`;
  bench.recordLoad(name, database, CLERKS, result);
  bench.record(`${name}: p99`, database, result.count === measured.length ? result.p99 : undefined, "ms", VERIFY_BUDGET);
  // the same, one clerk verifying one order after another: the cost of one verification without a queue
  const alone = scanned(requests((WARM_UP_ROUNDS + VERIFY_ROUNDS) * CLERKS, ONE_AT_A_TIME / CLERKS));
  bench.recordLoad("pickupverify, one order after another (no queue: the cost of one verification)", database, 1, await bench.load(server.url, alone, 1, alone.length, 30));
}

// ---------------------------------------------------------------------------------------------------------
// The last items of a size

const PAYERS = 200;
const LAST_ITEMS = 50;

/** 200 pupils of their own in a new class of the school, for as many payers to look up. */
async function benchPupils(db: Db, world: ShopWorld, tag: string): Promise<{ name: string; student_no: string }[]> {
  const rows = await queryRows<{ name: string; student_no: string }>(db, sql`
    WITH grade AS (SELECT id FROM grades WHERE sch_id = ${world.schId} ORDER BY sort, id LIMIT 1),
    klass AS (
      INSERT INTO classes (sch_id, sysid, grade_id, title)
      SELECT ${world.schId}, ${world.sysid}, grade.id, ${`Shop bench ${tag}`} FROM grade
      RETURNING id, grade_id
    )
    INSERT INTO students (name, sch_id, sysid, student_no, sex, grade_id, class_id, status)
    SELECT '购买' || n, ${world.schId}, ${world.sysid}, ${`SHOP-${tag}-`} || n, CASE WHEN n % 2 = 0 THEN '1' ELSE '2' END, klass.grade_id, klass.id, '1'
    FROM klass CROSS JOIN generate_series(1, ${int(PAYERS)}) AS n
    RETURNING name, student_no`);
  if (rows.length !== PAYERS) throw new Error(`the school ${SCHOOL} has no grade`);
  return rows;
}

/** A QR code of the school, made by its provider: the payer page /h5/{code}. */
async function schoolCode(bench: RetailBench, server: TestServer, world: ShopWorld, token: string, tag: string, database: string): Promise<string> {
  const added = await bench.call(server.url, "adminapiv2", { method: "qrchnladd", sch_id: world.schId, title: `Shop bench ${tag}` }, token);
  const code = (added.data?.items as { code?: string } | undefined)?.code;
  if (!code) throw new Error(`qrchnladd failed on ${database}: ${added.return_msg}`);
  return code;
}

async function measureLastItems(bench: RetailBench, server: TestServer, database: string, world: ShopWorld, svc: string): Promise<void> {
  const db = server.server.database.db;
  const tag = randomBytes(3).toString("hex");
  const pupils = await benchPupils(db, world, tag);
  const code = await schoolCode(bench, server, world, svc, tag, database);
  // a SKU the school's payers may collect at the North Gate, its last 50
  const [sku] = await queryRows<{ id: number; goods_id: number; stock: number }>(db, sql`
    SELECT s.id, s.goods_id, s.stock FROM goods_skus s JOIN goods g ON g.id = s.goods_id
    WHERE g.sysid = ${world.sysid} AND g.status = 'on' AND g.delivery <> 'express' AND (g.sch_scope = 'all' OR ${world.schId} = any(g.sch_ids))
    ORDER BY s.id DESC LIMIT 1`);
  if (!sku) throw new Error(`no SKU on sale at ${SCHOOL} on ${database}`);
  await db.transaction(async (tx) => {
    await tx.update(goodsSkus).set({ stock: LAST_ITEMS }).where(eq(goodsSkus.id, sku.id));
    await tx.update(goods).set({ stock: sql`${goods.stock} - ${sku.stock} + ${LAST_ITEMS}` }).where(eq(goods.id, sku.goods_id));
  });

  // each parent's phone has an address of its own (the server is told it by its proxy); finding the pupil a few at once
  const phoneOf = (i: number) => ({ "x-forwarded-for": `10.60.${Math.floor(i / 250)}.${(i % 250) + 1}` });
  const tickets: string[] = new Array(PAYERS);
  for (let i = 0; i < PAYERS; i += 10) {
    await Promise.all(
      pupils.slice(i, i + 10).map(async (pupil, j) => {
        const found = await bench.call(server.url, "h5api", { method: "h5find", code, ...pupil }, undefined, phoneOf(i + j));
        const ticket = (found.data?.items as { ticket?: string } | undefined)?.ticket;
        if (found.return_code !== "SUCCESS" || !ticket) throw new Error(`h5find failed on ${database}: ${found.return_msg}`);
        tickets[i + j] = ticket;
      }),
    );
  }
  const started = performance.now();
  const latencies: number[] = [];
  const answers = await Promise.all(
    tickets.map(async (ticket, i) => {
      const begun = performance.now();
      const answer = await bench
        .call(server.url, "h5api", { method: "h5shoporder", ticket, items: [{ sku_id: sku.id, qty: 1 }], delivery: "pickup", pickup_point_id: world.pointId }, undefined, phoneOf(i))
        .catch((err: unknown) => ({ return_code: "ERROR", return_msg: String(err) }) as Envelope);
      latencies.push(performance.now() - begun);
      return answer;
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const made = answers.filter((a) => a.return_code === "SUCCESS").length;
  const refusals = answers.filter((a) => a.return_code !== "SUCCESS").map((a) => a.return_msg);
  const soldOut = refusals.filter((m) => /left|剩|售罄|only/i.test(m)).length;
  const [stockRow] = await db.select({ stock: goodsSkus.stock }).from(goodsSkus).where(eq(goodsSkus.id, sku.id));
  const [ordered] = await queryRows<{ orders: number; qty: number }>(db, sql`
    SELECT count(DISTINCT i.order_id)::int AS orders, coalesce(sum(i.qty), 0)::int AS qty FROM shop_order_items i
    JOIN shop_orders o ON o.id = i.order_id WHERE i.sku_id = ${sku.id} AND o.created_at >= now() - interval '1 hour' AND o.status <> 'cancelled'`);
  const exact = made === LAST_ITEMS && Number(ordered.orders) === LAST_ITEMS && Number(ordered.qty) === LAST_ITEMS && stockRow.stock === 0;
  bench.row({
    measure: `h5shoporder: ${PAYERS} payers order the last ${LAST_ITEMS} of one SKU at once (each from an address of its own)`,
    database,
    figure: `${made} orders made (${ordered.orders} in the database, ${ordered.qty} items), stock afterwards ${stockRow.stock}; ${soldOut} told sold out, ${refusals.length - soldOut} other refusals; ${seconds.toFixed(1)} s, p50 ${bench.percentile(latencies, 50).toFixed(0)} / p99 ${bench.percentile(latencies, 99).toFixed(0)} ms`,
    budget: `exactly ${LAST_ITEMS} orders, stock 0, never below`,
    verdict: exact ? "ok" : "FAILED",
  });
  const odd = refusals.filter((m) => !/left|剩|售罄|only/i.test(m));
  if (odd.length) console.warn(`last items on ${database}: ${[...new Set(odd)].slice(0, 5).join("; ")}`);
}

// ---------------------------------------------------------------------------------------------------------
// The shop order list at scale

/** shop orders per transaction of the seed */
const SEED_BLOCK = 100_000;
const SEED_DAYS = 365;
/** full load before the list is measured, then the measure */
const LIST_WARM_UP_SECONDS = 5;
const LIST_SECONDS = 10;
const LIST_CLIENTS = 32;

/** A non-negative hash of a number and a salt (the same every seed). */
const h = (n: string, salt: number) => sql.raw(`(hashint8extended((${n})::bigint, ${salt}) & 9223372036854775807)`);

/**
 * `total` shop orders of the bench provider's students over the last year, one after another in time (ids in the
 * order of their making), each with 1 to 3 items of the provider's SKUs (1 or 2 of each), in the states such a year
 * leaves: nearly all paid, then collected at a pickup point or sent and received; the last days' waiting to be
 * collected or sent; some closed unpaid, some refunded in part or in full; the last hours' unpaid. Written set-based,
 * a block of orders per transaction, then vacuumed and analysed as autovacuum would leave them.
 */
export async function seedShopOrders(db: Db, total: number, now: Date, progress?: (written: number) => void): Promise<{ orders: number; items: number }> {
  const [provider] = await queryRows<{ id: number }>(db, sql`SELECT id FROM providers WHERE title = ${BENCH_PROVIDER}`);
  if (!provider) throw new Error(`the demo provider ${BENCH_PROVIDER} is missing`);
  const sysid = Number(provider.id);
  const at = sql`${now.toISOString()}::timestamptz`;
  const span = SEED_DAYS * 86_400;
  let orders = 0;
  let items = 0;
  await db.execute(sql`DROP TABLE IF EXISTS seed_shop_students`);
  await db.execute(sql`DROP TABLE IF EXISTS seed_shop_skus`);
  // the provider's pupils, each with the pickup point serving its school (if any)
  await db.execute(sql`
    CREATE TEMP TABLE seed_shop_students AS
    SELECT row_number() OVER (ORDER BY s.id) AS k, s.id, s.sch_id,
           (SELECT min(p.id) FROM pickup_points p WHERE p.sysid = s.sysid AND p.status = '1' AND s.sch_id = any(p.sch_ids)) AS point_id
    FROM students s WHERE s.sysid = ${int(sysid)} AND s.status = '1'`);
  await db.execute(sql`CREATE UNIQUE INDEX ON seed_shop_students (k)`);
  await db.execute(sql`
    CREATE TEMP TABLE seed_shop_skus AS
    SELECT row_number() OVER (ORDER BY s.id) AS k, s.id, s.goods_id, s.price, g.title, s.spec_values, coalesce(s.image, g.images[1]) AS image
    FROM goods_skus s JOIN goods g ON g.id = s.goods_id WHERE g.sysid = ${int(sysid)} AND s.price > 0`);
  await db.execute(sql`CREATE UNIQUE INDEX ON seed_shop_skus (k)`);
  const [{ pupils, skus }] = await queryRows<{ pupils: number; skus: number }>(db, sql`SELECT (SELECT count(*) FROM seed_shop_students)::int AS pupils, (SELECT count(*) FROM seed_shop_skus)::int AS skus`);
  if (!pupils || skus < 3) throw new Error(`the provider ${BENCH_PROVIDER} has ${pupils} pupils and ${skus} SKUs: too few for the shop's seed`);
  const first = Number((await queryRows<{ n: number }>(db, sql`SELECT coalesce(max(id), 0)::int AS n FROM shop_orders`))[0].n);

  for (let from = 1; from <= total; from += SEED_BLOCK) {
    const to = Math.min(total, from + SEED_BLOCK - 1);
    const written = await db.transaction(async (tx) => {
      // each order's lines: 1 to 3 different SKUs, 1 or 2 of each
      await tx.execute(sql`
        CREATE TEMP TABLE seed_shop_lines ON COMMIT DROP AS
        SELECT n, j - 1 AS sort, k.id AS sku_id, k.goods_id, k.title, k.spec_values, k.image, k.price, q.qty, k.price * q.qty AS amount
        FROM generate_series(${int(from)}, ${int(to)}) AS n
        CROSS JOIN LATERAL generate_series(1, 1 + (${h("n", 11)} % 10 >= 6)::int + (${h("n", 11)} % 10 >= 9)::int) AS j
        CROSS JOIN LATERAL (SELECT 1 + (${h("n * 4 + j", 13)} % 10 = 0)::int AS qty) AS q
        JOIN seed_shop_skus k ON k.k = 1 + (${h("n", 12)} + j - 1) % ${int(skus)}`);
      // each order: who, when (in the order of n over the year, a few minutes apart or less), what became of it
      await tx.execute(sql`
        CREATE TEMP TABLE seed_shop_orders ON COMMIT DROP AS
        WITH o AS (
          SELECT l.n, sum(l.amount)::bigint AS amount,
                 ${at} - ${int(span)} * interval '1 second' + ((l.n - 1)::double precision * ${int(span)} / ${int(total)} + ${h("l.n", 14)} % 60) * interval '1 second' AS made,
                 ${h("l.n", 15)} % 100 AS roll, ${h("l.n", 16)} AS spread
          FROM seed_shop_lines l GROUP BY l.n
        ), who AS (
          SELECT o.*, s.id AS student_id, s.sch_id,
                 CASE WHEN s.point_id IS NOT NULL AND o.spread % 10 < 6 THEN s.point_id END AS point_id,
                 ${at} - o.made AS age
          FROM o JOIN seed_shop_students s ON s.k = 1 + ${h("o.n", 17)} % ${int(pupils)}
        ), fate AS (
          SELECT who.*,
                 CASE WHEN age < interval '2 hours' AND roll < 40 THEN 'unpaid'
                      WHEN roll < 7 THEN 'closed'
                      WHEN roll < 9 THEN 'refunded'
                      WHEN point_id IS NOT NULL THEN CASE WHEN age < interval '7 days' THEN 'undelivered' ELSE 'completed' END
                      WHEN age < interval '2 days' THEN 'undelivered'
                      WHEN age < interval '9 days' THEN 'delivered'
                      ELSE 'completed' END AS fate,
                 made + ((spread % 240) + 20) * interval '1 second' AS paid_at
          FROM who
        )
        SELECT fate.*, to_char(made AT TIME ZONE 'Asia/Shanghai', 'YYYYMMDDHH24MISS') || 'S' || lpad(n::text, 9, '0') AS order_no FROM fate`);
      const inserted = await tx.execute(sql`
        INSERT INTO shop_orders (order_no, pay_no, sysid, sch_id, student_id, amount, status, refund_status, refunded_amount, delivery, pickup_point_id,
                                 pickup_code, pickup_token, receiver_name, receiver_phone, receiver_address, express_code, tracking_no, gateway,
                                 transaction_id, created_at, paid_at, delivered_at, completed_at, cancelled_at)
        SELECT order_no, 'P' || order_no, ${int(sysid)}, sch_id, student_id, amount,
               CASE fate WHEN 'closed' THEN 'cancelled' WHEN 'refunded' THEN 'cancelled' ELSE fate END,
               CASE WHEN fate = 'refunded' THEN 'all' WHEN fate IN ('undelivered', 'delivered', 'completed') AND roll >= 97 THEN 'part' ELSE 'none' END,
               CASE WHEN fate = 'refunded' THEN amount WHEN fate IN ('undelivered', 'delivered', 'completed') AND roll >= 97 THEN amount / 2 ELSE 0 END,
               CASE WHEN point_id IS NULL THEN 'express' ELSE 'pickup' END, point_id,
               -- a paid pickup order's code (unique among those waiting: the order's own number) and QR token
               CASE WHEN point_id IS NOT NULL AND fate NOT IN ('unpaid', 'closed') THEN lpad(n::text, 8, '0') END,
               CASE WHEN point_id IS NOT NULL AND fate NOT IN ('unpaid', 'closed') THEN left(md5('bench-shop-' || n), 32) END,
               CASE WHEN point_id IS NULL THEN '家长' || (spread % 1000) END,
               CASE WHEN point_id IS NULL THEN '138' || lpad((spread % 100000000)::text, 8, '0') END,
               CASE WHEN point_id IS NULL THEN '上海市浦东新区朝阳路 ' || (spread % 300 + 1) || ' 号' END,
               CASE WHEN point_id IS NULL AND fate IN ('delivered', 'completed') THEN 'SF' END,
               CASE WHEN point_id IS NULL AND fate IN ('delivered', 'completed') THEN 'SF' || lpad(n::text, 13, '0') END,
               'sandbox',
               CASE WHEN fate NOT IN ('unpaid', 'closed') THEN 'SANDBOXP' || order_no END,
               made,
               CASE WHEN fate NOT IN ('unpaid', 'closed') THEN paid_at END,
               CASE WHEN point_id IS NULL AND fate IN ('delivered', 'completed') THEN paid_at + interval '1 day' END,
               CASE WHEN fate = 'completed' THEN paid_at + CASE WHEN point_id IS NULL THEN interval '4 days' ELSE (1 + spread % 5) * interval '1 day' END END,
               CASE WHEN fate = 'closed' THEN made + interval '2 hours' WHEN fate = 'refunded' THEN paid_at + interval '3 days' END
        FROM seed_shop_orders ORDER BY n
        ON CONFLICT DO NOTHING
        RETURNING id`);
      const lines = await tx.execute(sql`
        INSERT INTO shop_order_items (order_id, sort, goods_id, sku_id, title, spec_values, image, price, qty, amount, sysid, sch_id)
        SELECT so.id, l.sort, l.goods_id, l.sku_id, l.title, l.spec_values, l.image, l.price, l.qty, l.amount, ${int(sysid)}, so.sch_id
        FROM seed_shop_lines l JOIN seed_shop_orders o ON o.n = l.n JOIN shop_orders so ON so.order_no = o.order_no AND so.id > ${int(first)}
        ORDER BY so.id, l.sort`);
      const rowsOf = (r: unknown) => ((r as { rows?: unknown[] }).rows ?? (r as unknown[])).length;
      const affected = (r: unknown) => Number((r as { rowCount?: number; affectedRows?: number }).rowCount ?? (r as { affectedRows?: number }).affectedRows ?? rowsOf(r));
      return { orders: rowsOf(inserted), items: affected(lines) };
    });
    orders += written.orders;
    items += written.items;
    progress?.(orders);
  }
  await db.execute(sql`DROP TABLE IF EXISTS seed_shop_students`);
  await db.execute(sql`DROP TABLE IF EXISTS seed_shop_skus`);
  await db.execute(sql`VACUUM (ANALYZE) shop_orders, shop_order_items`);
  return { orders, items };
}

/** A business day (China time) `days` before `now`, as the list's date filters take it. */
function dayBefore(now: Date, days: number): string {
  return new Date(now.getTime() + 8 * 3_600_000 - days * 86_400_000).toISOString().slice(0, 10);
}

async function measureShopOrderList(bench: RetailBench, server: TestServer, database: string): Promise<void> {
  const db = server.server.database.db;
  const started = performance.now();
  const seeded = await seedShopOrders(db, bench.orders, new Date());
  const seconds = (performance.now() - started) / 1000;
  bench.record(`seed ${seeded.orders.toLocaleString("en")} shop orders with ${seeded.items.toLocaleString("en")} items (set-based, a year of the shop)`, database, seconds, "s");
  // the seed's written pages, written out now, and its totals' differences folded, as a server in steady use has
  // long since done (the fold runs every minute): not one fold of a year's orders while the clients are measured
  await db.execute(sql`CHECKPOINT`).catch((err: unknown) => console.warn(`CHECKPOINT after the shop's seed failed (${(err as Error).message})`));
  await compactStateTotals(db, entities);
  const [{ n }] = await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM shop_orders`);
  const total = Number(n).toLocaleString("en");
  const token = await login(bench, server, "svc", database);

  const now = new Date();
  const cases: { name: string; requests: LoadRequest[] }[] = [
    { name: `shoporderlist, the provider's first page of 20 (default sort), tabs and summary, ${total} shop orders`, requests: [{ path: "adminapiv2", body: { method: "shoporderlist", page: 1, limit: 20 }, token }] },
    {
      // a state's tab over a month, a different month of the year each time; and the week's orders waiting
      name: `shoporderlist, the provider's first page of 20 on a state's tab within a date range, tabs and summary, ${total} shop orders`,
      requests: [
        ...Array.from({ length: 12 }, (_, m) => ({ path: "adminapiv2", body: { method: "shoporderlist", page: 1, limit: 20, status: "completed", created_at_start: dayBefore(now, 30 * (m + 1)), created_at_end: dayBefore(now, 30 * m + 1) }, token })),
        ...Array.from({ length: 4 }, (_, w) => ({ path: "adminapiv2", body: { method: "shoporderlist", page: 1, limit: 20, status: "undelivered", created_at_start: dayBefore(now, 7 + w), created_at_end: dayBefore(now, 0) }, token })),
      ],
    },
  ];
  for (const { name, requests } of cases) {
    const first = await bench.call(server.url, "adminapiv2", requests[0].body, token);
    const items = first.data?.items;
    if (first.return_code !== "SUCCESS" || !Array.isArray(items) || items.length !== 20) {
      throw new Error(`shoporderlist did not answer 20 rows on ${database}: ${first.return_msg} (${JSON.stringify(requests[0].body)})`);
    }
    await bench.load(server.url, requests, LIST_CLIENTS, 20_000, LIST_WARM_UP_SECONDS);
    const result = await bench.load(server.url, requests, LIST_CLIENTS, 20_000, LIST_SECONDS);
    bench.recordLoad(name, database, LIST_CLIENTS, result);
    bench.record(`${name}: p99 at ${LIST_CLIENTS} clients`, database, result.p99, "ms", bench.listBudget);
  }
}

/**
 * The shop's figures on a server of the demo data: pickup verification and the last items first (on the demo's
 * own few shop orders), then the order list after the seed at scale.
 */
export async function measureRetail(bench: RetailBench, server: TestServer, database: string): Promise<void> {
  const world = await shopWorld(server.server.database.db);
  const svc = await login(bench, server, "svc", database);
  if (retailPart("pickup")) await measurePickup(bench, server, database, world);
  if (retailPart("lastitems")) await measureLastItems(bench, server, database, world, svc);
  if (retailPart("list")) await measureShopOrderList(bench, server, database);
}

/**
 * BENCH_RETAIL=pickup,lastitems,list measures only those of the shop's figures (default all): runs of one figure
 * alternated before and after a change, on a machine others share, are over in a minute each.
 */
function retailPart(part: "pickup" | "lastitems" | "list"): boolean {
  const only = process.env.BENCH_RETAIL?.split(",").map((p) => p.trim());
  if (only?.some((p) => !["pickup", "lastitems", "list"].includes(p))) throw new Error(`BENCH_RETAIL names pickup, lastitems and list, got "${process.env.BENCH_RETAIL}"`);
  return !only || only.includes(part);
}
