/**
 * State totals (server/db/stateTotals.ts): the order list narrowed by its tenant and state alone answers its tabs,
 * total and summary from the totals the database keeps per school and state. They must equal what counting the
 * orders gives, for every tenant, through every kind of write (inserts, updates, deletes, concurrent payments of
 * one school), after a fold, and after being made anew from the rows.
 */
import { sql, type SQL } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { entities } from "../../resources.config";
import { queryRows } from "../../server/db/client";
import { schools } from "../../server/db/schema";
import { compactStateTotals, installStateTotals, stateTotalsTableName } from "../../server/db/stateTotals";
import { orderEntity } from "../../catalogue/collectionOrders";
import { shopOrderEntity } from "../../catalogue/shopOrders";
import { fenToYuan } from "../../common/money";
import { describeOnDatabases } from "../helpers/db";
import { createTestApp, idByTitle, type TestApp } from "./support";

type Row = Record<string, unknown>;
const STATES = ["unpaid", "paid", "part_refunded", "refunded", "closed"];
const TOTALS = stateTotalsTableName(orderEntity);

describeOnDatabases("state totals", (kind) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};

  /** what counting the orders under `where` gives: each state's count and the amount's sum */
  const counted = async (where: SQL) => {
    const rows = await queryRows<{ status: string; n: string; amount: string }>(
      t.db,
      sql`SELECT status, count(*)::text AS n, coalesce(sum(amount), 0)::text AS amount FROM fee_orders WHERE ${where} GROUP BY status`,
    );
    return new Map(rows.map((r) => [r.status, { n: Number(r.n), amount: BigInt(r.amount) }]));
  };

  /** the order list's total, tabs and summary as `username` reads them, against counting the orders under `where` */
  const expectCounted = async (username: string, payload: Row, where: SQL) => {
    const res = await t.call("adminapiv2", "orderlist", { page: 1, limit: 5, ...payload }, { token: tokens[username] });
    expect(res.return_code, res.return_msg).toBe("SUCCESS");
    const data = res.data as { items: Row[]; total: number; tabs: { total: number; states: { value: string; count: number }[] }; summary: Row };
    const truth = await counted(where);
    const chosen = typeof payload.status === "string" ? [payload.status] : STATES;
    const n = chosen.reduce((sum, s) => sum + (truth.get(s)?.n ?? 0), 0);
    const amount = chosen.reduce((sum, s) => sum + (truth.get(s)?.amount ?? 0n), 0n);
    // the money received: the orders that were paid, refunded since or not
    const received = chosen.filter((s) => ["paid", "part_refunded", "refunded"].includes(s)).reduce((sum, s) => sum + (truth.get(s)?.amount ?? 0n), 0n);
    expect(data.total).toBe(n);
    expect(data.summary).toEqual({ count: n, amount: fenToYuan(amount), paid_amount: fenToYuan(received) });
    expect(data.tabs.states).toEqual(STATES.map((value) => ({ value, count: truth.get(value)?.n ?? 0 })));
    expect(data.tabs.total).toBe([...truth.values()].reduce((sum, v) => sum + v.n, 0));
    const page = typeof payload.page === "number" ? payload.page : 1;
    expect(data.items.length).toBe(Math.max(0, Math.min(5, n - (page - 1) * 5)));
    return data;
  };

  const expectEveryTenantCounted = async () => {
    await expectCounted("svc", {}, sql`sysid = ${ids.sunrise}`);
    await expectCounted("svc", { status: "paid" }, sql`sysid = ${ids.sunrise}`);
    // a page past the last carries no rows, and its figures are read apart
    await expectCounted("svc", { status: "paid", page: 100000 }, sql`sysid = ${ids.sunrise}`);
    await expectCounted("svc", { sch_id: ids.no1 }, sql`sch_id = ${ids.no1}`);
    await expectCounted("svc", { sch_id: ids.no1, status: "closed" }, sql`sch_id = ${ids.no1}`);
    await expectCounted("staff", { status: "unpaid" }, sql`sch_id IN (SELECT sch_id FROM user_schools WHERE user_id = (SELECT id FROM users WHERE username = 'staff'))`);
    await expectCounted("school", { status: "paid" }, sql`sch_id = ${ids.no1}`);
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    for (const u of ["svc", "staff", "school"]) tokens[u] = await t.login(u);
    ids.no1 = await idByTitle(t.db, schools, "Sunrise No.1 Primary School");
    const [{ sysid }] = await queryRows<{ sysid: number }>(t.db, sql`SELECT sysid FROM schools WHERE id = ${ids.no1}`);
    ids.sunrise = sysid;
  });
  afterAll(async () => {
    await t?.close();
  });

  it("answers each state's count and the amount's sum of the caller's tenant, as counting the orders does", async () => {
    const all = await expectCounted("svc", {}, sql`sysid = ${ids.sunrise}`);
    // the demo orders: paid and closed ones at least, in more than one school
    expect(all.tabs.states.find((s) => s.value === "paid")!.count).toBeGreaterThan(0);
    await expectEveryTenantCounted();
  });

  it("keeps them through inserts, updates and deletes of any number of rows, and through a fold", async () => {
    // three new orders copied from No.1's paid ones: unpaid, with amounts of their own
    await t.db.execute(sql`
      INSERT INTO fee_orders (order_no, pay_no, sch_id, sysid, student_id, class_id, activity_id, amount, status, gateway, created_at)
      SELECT 'ST' || id, 'STP' || id, sch_id, sysid, student_id, class_id, activity_id, amount + 1, 'unpaid', gateway, created_at
      FROM fee_orders WHERE sch_id = ${ids.no1} AND status = 'paid' ORDER BY id LIMIT 3`);
    await expectEveryTenantCounted();
    // one closed, one paid with another amount, one deleted; an update that changes nothing counted
    await t.db.execute(sql`UPDATE fee_orders SET status = 'closed' WHERE order_no = (SELECT min(order_no) FROM fee_orders WHERE order_no LIKE 'ST%')`);
    await t.db.execute(sql`UPDATE fee_orders SET status = 'paid', amount = amount + 99 WHERE order_no = (SELECT max(order_no) FROM fee_orders WHERE order_no LIKE 'ST%')`);
    await t.db.execute(sql`UPDATE fee_orders SET duplicate = duplicate WHERE sch_id = ${ids.no1}`);
    await t.db.execute(sql`DELETE FROM fee_orders WHERE order_no LIKE 'ST%' AND status = 'unpaid'`);
    await expectEveryTenantCounted();

    // the fold leaves one row per school and state, and the same figures
    const before = await queryRows<{ rows: string }>(t.db, sql`SELECT count(*)::text AS rows FROM ${sql.identifier(TOTALS)}`);
    const { folded } = await compactStateTotals(t.db, entities);
    expect(folded).toBeGreaterThan(0);
    const keys = await queryRows<{ keys: string; rows: string }>(
      t.db,
      sql`SELECT count(DISTINCT (sch_id, status))::text AS keys, count(*)::text AS rows FROM ${sql.identifier(TOTALS)}`,
    );
    expect(Number(keys[0].rows)).toBe(Number(keys[0].keys));
    expect(Number(keys[0].rows)).toBeLessThan(Number(before[0].rows));
    await expectEveryTenantCounted();
    // nothing left to fold
    expect((await compactStateTotals(t.db, entities)).folded).toBe(0);
  });

  it("counts concurrent payments of one school exactly: no payment waits for another's counter or deadlocks", async () => {
    const unpaid = await queryRows<{ id: number }>(t.db, sql`SELECT id FROM fee_orders WHERE sch_id = ${ids.no1} AND status IN ('paid', 'closed') ORDER BY id LIMIT 24`);
    expect(unpaid.length).toBe(24);
    // each transaction makes an order and moves another one, touching its school's states in different orders
    await Promise.all(
      unpaid.map(({ id }, i) =>
        t.db.transaction(async (tx) => {
          if (i % 2) await tx.execute(sql`UPDATE fee_orders SET status = CASE status WHEN 'paid' THEN 'part_refunded' ELSE 'unpaid' END WHERE id = ${id}`);
          await tx.execute(sql`
            INSERT INTO fee_orders (order_no, pay_no, sch_id, sysid, student_id, class_id, activity_id, amount, status, gateway, created_at)
            SELECT 'CC' || id, 'CCP' || id, sch_id, sysid, student_id, class_id, activity_id, 1000 + ${i}, ${i % 3 ? "paid" : "unpaid"}, gateway, created_at
            FROM fee_orders WHERE id = ${id}`);
          if (i % 2 === 0) await tx.execute(sql`UPDATE fee_orders SET status = CASE status WHEN 'paid' THEN 'refunded' ELSE 'unpaid' END WHERE id = ${id}`);
        }),
      ),
    );
    await expectEveryTenantCounted();
    await compactStateTotals(t.db, entities);
    await expectEveryTenantCounted();
  });

  it("is made anew and counted from the rows when its definition is not the one installed", async () => {
    // a table that drifted, under the comment of another definition
    await t.db.execute(sql.raw(`DELETE FROM "${TOTALS}"`));
    await t.db.execute(sql.raw(`COMMENT ON TABLE "${TOTALS}" IS 'an older definition'`));
    // the list reads the totals, not the orders
    const drifted = await t.call("adminapiv2", "orderlist", { sch_id: ids.no1, status: "paid" }, { token: tokens.svc });
    expect((drifted.data as { total: number }).total).toBe(0);
    // two servers opening the database together make them once between them
    await Promise.all([installStateTotals(t.db, entities), installStateTotals(t.db, entities)]);
    await expectEveryTenantCounted();
    const [{ comment }] = await queryRows<{ comment: string }>(t.db, sql`SELECT obj_description(to_regclass(${TOTALS}), 'pg_class') AS comment`);
    expect(comment).toMatch(/^[0-9a-f]{64}$/);
  });

  describe("of shop orders, whose money received counts the orders refunded in full (cancelled, paid_at set)", () => {
    const SHOP_STATES = ["unpaid", "undelivered", "delivered", "completed", "cancelled"];
    const shopTotals = stateTotalsTableName(shopOrderEntity);

    /** the shop order list as `username` reads it, against counting the orders under `where` */
    const expectShopCounted = async (username: string, payload: Row, where: SQL) => {
      const res = await t.call("adminapiv2", "shoporderlist", { page: 1, limit: 5, ...payload }, { token: tokens[username] });
      expect(res.return_code, res.return_msg).toBe("SUCCESS");
      const data = res.data as { total: number; tabs: { states: { value: string; count: number }[] }; summary: Row };
      const rows = await queryRows<{ status: string; paid: boolean; n: string; amount: string; refunded: string }>(
        t.db,
        sql`SELECT status, paid_at IS NOT NULL AS paid, count(*)::text AS n, sum(amount)::text AS amount, sum(refunded_amount)::text AS refunded
            FROM shop_orders WHERE ${where} GROUP BY 1, 2`,
      );
      const chosen = rows.filter((r) => typeof payload.status !== "string" || r.status === payload.status);
      const sum = (of: typeof rows, key: "amount" | "refunded") => fenToYuan(of.reduce((total, r) => total + BigInt(r[key]), 0n));
      const n = chosen.reduce((total, r) => total + Number(r.n), 0);
      expect(data.total).toBe(n);
      expect(data.summary).toEqual({
        count: n,
        amount: sum(chosen, "amount"),
        refunded_amount: sum(chosen, "refunded"),
        paid_amount: sum(chosen.filter((r) => ["undelivered", "delivered", "completed"].includes(r.status) || r.paid), "amount"),
      });
      expect(data.tabs.states).toEqual(SHOP_STATES.map((value) => ({ value, count: rows.filter((r) => r.status === value).reduce((total, r) => total + Number(r.n), 0) })));
    };
    const expectShopsCounted = async () => {
      await expectShopCounted("svc", {}, sql`sysid = ${ids.sunrise}`);
      await expectShopCounted("svc", { status: "cancelled" }, sql`sysid = ${ids.sunrise}`);
      await expectShopCounted("svc", { sch_id: ids.no1, status: "undelivered" }, sql`sch_id = ${ids.no1}`);
    };

    it("answers them from the totals, as counting the orders does, through refunds in full, a fold and a new install", async () => {
      await expectShopsCounted();
      // the list reads the totals, not the orders: rows appended there show
      expect(Number((await queryRows<{ n: string }>(t.db, sql`SELECT count(*)::text AS n FROM ${sql.identifier(shopTotals)}`))[0].n)).toBeGreaterThan(0);
      // an order refunded in full is cancelled with its payment time kept; one closed unpaid has none
      await t.db.execute(sql`UPDATE shop_orders SET status = 'cancelled', refund_status = 'all', refunded_amount = amount WHERE id = (SELECT min(id) FROM shop_orders WHERE sysid = ${ids.sunrise} AND paid_at IS NOT NULL AND status <> 'cancelled')`);
      await t.db.execute(sql`UPDATE shop_orders SET status = 'cancelled', cancelled_at = now() WHERE id = (SELECT min(id) FROM shop_orders WHERE sysid = ${ids.sunrise} AND status = 'unpaid')`);
      await expectShopsCounted();
      const cancelledPaid = await queryRows<{ n: string }>(t.db, sql`SELECT count(*)::text AS n FROM shop_orders WHERE status = 'cancelled' AND paid_at IS NOT NULL AND sysid = ${ids.sunrise}`);
      expect(Number(cancelledPaid[0].n)).toBeGreaterThan(0);
      await compactStateTotals(t.db, entities);
      await expectShopsCounted();
      await t.db.execute(sql.raw(`COMMENT ON TABLE "${shopTotals}" IS 'an older definition'`));
      await installStateTotals(t.db, entities);
      await expectShopsCounted();
    });
  });

  it("is emptied with its table", async () => {
    await t.db.execute(sql`TRUNCATE fee_orders CASCADE`);
    const [{ rows }] = await queryRows<{ rows: string }>(t.db, sql`SELECT count(*)::text AS rows FROM ${sql.identifier(TOTALS)}`);
    expect(Number(rows)).toBe(0);
    await expectCounted("svc", { status: "paid" }, sql`sysid = ${ids.sunrise}`);
  });
});
