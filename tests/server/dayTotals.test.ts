/**
 * Totals kept by day (stateTotals: { days }): the shop order list narrowed by its tenant, a state and a range of
 * whole days of its making answers its tabs, total and summary from the totals kept per business day (China time),
 * and its page day by day. They must equal counting the orders made within the range's instants, written here
 * apart from the engine, through inserts at either side of midnight, state changes, refunds, a change of the
 * day, a delete and a fold; so must the fee order list's over a range of days of payment.
 */
import { sql, type SQL } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { entities } from "../../resources.config";
import { queryRows } from "../../server/db/client";
import { schools } from "../../server/db/schema";
import { compactStateTotals, dayTotalsTableName, installStateTotals, stateTotalsTableName } from "../../server/db/stateTotals";
import { shopOrderEntity } from "../../catalogue/shopOrders";
import { fenToYuan } from "../../common/money";
import { describeOnDatabases } from "../helpers/db";
import { createTestApp, idByTitle, type TestApp } from "./support";

type Row = Record<string, unknown>;
const SHOP_STATES = ["unpaid", "undelivered", "delivered", "completed", "cancelled"];
const PAID_STATES = ["undelivered", "delivered", "completed"];
const DAY_TOTALS = dayTotalsTableName(shopOrderEntity);

/** the instant a China time names (UTC+8 all year), as the database takes it */
const china = (time: string) => `${time.replace(" ", "T")}+08:00`;
/** the day after a YYYY-MM-DD day */
const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** a range of the list's filter, and the instants it covers: from the first day's midnight to the midnight after the last */
interface Range {
  payload: Row;
  where: (column: SQL) => SQL;
}
const days = (start?: string, end?: string): Range => ({
  payload: { created_at_start: start, created_at_end: end },
  where: (column) => sql`${start ? sql`${column} >= ${china(`${start} 00:00:00`)}::timestamptz` : sql`true`} AND ${end ? sql`${column} < ${china(`${nextDay(end)} 00:00:00`)}::timestamptz` : sql`true`}`,
});

describeOnDatabases("totals kept by day", (kind) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};

  /** the provider's shop order list (of a school: `narrowed`), against counting the orders of `tenant` made within the range */
  const expectShopCounted = async (narrowed: Row, tenant: SQL, range: Range, status?: string) => {
    const username = "svc";
    const payload = { page: 1, limit: 3, ...narrowed, ...range.payload, ...(status ? { status } : {}) };
    const res = await t.call("adminapiv2", "shoporderlist", payload, { token: tokens[username] });
    expect(res.return_code, res.return_msg).toBe("SUCCESS");
    const data = res.data as { items: Row[]; total: number; tabs: { total: number; states: { value: string; count: number }[] }; summary: Row };
    const where = sql`${tenant} AND ${range.where(sql`created_at`)}`;
    const rows = await queryRows<{ status: string; paid: boolean; n: string; amount: string; refunded: string }>(
      t.db,
      sql`SELECT status, paid_at IS NOT NULL AS paid, count(*)::text AS n, sum(amount)::text AS amount, sum(refunded_amount)::text AS refunded
          FROM shop_orders WHERE ${where} GROUP BY 1, 2`,
    );
    const chosen = rows.filter((r) => !status || r.status === status);
    const sum = (of: typeof rows, key: "amount" | "refunded") => fenToYuan(of.reduce((total, r) => total + BigInt(r[key]), 0n));
    const n = chosen.reduce((total, r) => total + Number(r.n), 0);
    const context = `${username} ${JSON.stringify(payload)}`;
    expect(data.total, context).toBe(n);
    expect(data.summary, context).toEqual({
      count: n,
      amount: sum(chosen, "amount"),
      refunded_amount: sum(chosen, "refunded"),
      // the money received: orders paid, refunded since or not (refunded in full, cancelled with their payment time)
      paid_amount: sum(chosen.filter((r) => PAID_STATES.includes(r.status) || r.paid), "amount"),
    });
    const stateCount = (value: string) => rows.filter((r) => r.status === value).reduce((total, r) => total + Number(r.n), 0);
    expect(data.tabs.states, context).toEqual(SHOP_STATES.map((value) => ({ value, count: stateCount(value) })));
    expect(data.tabs.total, context).toBe(rows.reduce((total, r) => total + Number(r.n), 0));
    // the first two pages, newest first
    const page = async (at: number) => {
      const res = at === 1 ? data : ((await t.call("adminapiv2", "shoporderlist", { ...payload, page: at }, { token: tokens[username] })).data as { items: Row[] });
      return res.items.map((item) => Number(item.id));
    };
    const newest = await queryRows<{ id: number }>(t.db, sql`SELECT id FROM shop_orders WHERE ${where} ${status ? sql`AND status = ${status}` : sql``} ORDER BY id DESC LIMIT 6`);
    expect([...(await page(1)), ...(await page(2))], context).toEqual(newest.map((r) => Number(r.id)));
  };

  const RANGES = [days("2025-03-10", "2025-03-10"), days("2025-03-10", "2025-03-11"), days("2025-03-09", "2025-03-12"), days("2025-03-11"), days(undefined, "2025-03-10"), days("2025-03-12", "2025-03-09")];
  const expectEveryRangeCounted = async () => {
    for (const range of RANGES) {
      for (const status of [undefined, "completed", "undelivered"]) {
        await expectShopCounted({}, sql`sysid = ${ids.sunrise}`, range, status);
        await expectShopCounted({ sch_id: ids.no1 }, sql`sch_id = ${ids.no1}`, range, status);
      }
    }
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    for (const u of ["svc", "school"]) tokens[u] = await t.login(u);
    ids.no1 = await idByTitle(t.db, schools, "Sunrise No.1 Primary School");
    ids.no2 = await idByTitle(t.db, schools, "Sunrise No.2 Primary School");
    const [{ sysid }] = await queryRows<{ sysid: number }>(t.db, sql`SELECT sysid FROM schools WHERE id = ${ids.no1}`);
    ids.sunrise = sysid;
  });
  afterAll(async () => {
    await t?.close();
  });

  it("answers a range of days' tabs, summary and pages as counting the orders made within it does, through every kind of change", async () => {
    // orders of two schools at either side of China's midnights (the UTC day differs before 08:00), one statement
    const orders: [string, string, number, string, boolean][] = [
      ["DT01", "2025-03-09 23:59:59.999", ids.no1, "completed", true],
      ["DT02", "2025-03-10 00:00:00", ids.no1, "undelivered", true],
      ["DT03", "2025-03-10 07:59:59", ids.no1, "completed", true],
      ["DT04", "2025-03-10 08:00:00", ids.no2, "unpaid", false],
      ["DT05", "2025-03-10 23:59:59", ids.no2, "delivered", true],
      ["DT06", "2025-03-11 00:00:00", ids.no1, "completed", true],
      ["DT07", "2025-03-11 16:00:00", ids.no1, "undelivered", true],
      ["DT08", "2025-03-12 00:00:01", ids.no2, "completed", true],
      ["DT09", "2025-03-10 12:00:00", ids.no1, "completed", true],
      ["DT10", "2025-03-10 13:00:00", ids.no1, "completed", true],
      ["DT11", "2025-03-10 14:00:00", ids.no1, "completed", true],
    ];
    const values = orders.map(([no, at, school, status, paid], i) => sql`(${no}, ${`P${no}`}, ${school}::int, ${(i + 1) * 1000}::bigint, ${status}, ${china(at)}::timestamptz, ${paid ? sql`${china(at)}::timestamptz + interval '1 minute'` : sql`NULL::timestamptz`})`);
    await t.db.execute(sql`
      INSERT INTO shop_orders (order_no, pay_no, sysid, sch_id, student_id, amount, status, delivery, gateway, created_at, paid_at)
      SELECT v.no, v.pay_no, ${ids.sunrise}, v.sch_id, (SELECT min(id) FROM students WHERE sch_id = v.sch_id), v.amount, v.status, 'express', 'sandbox', v.made, v.paid
      FROM (VALUES ${sql.join(values, sql`, `)}) AS v(no, pay_no, sch_id, amount, status, made, paid)`);
    await expectEveryRangeCounted();
    // the list reads the day totals: rows there, by the day of China time
    const kept = await queryRows<{ day: string; n: string }>(t.db, sql`SELECT day::text AS day, sum(row_count)::text AS n FROM ${sql.identifier(DAY_TOTALS)} WHERE sch_id = ${ids.no1} AND day BETWEEN '2025-03-09' AND '2025-03-12' GROUP BY day ORDER BY day`);
    expect(kept.map((r) => [r.day, Number(r.n)])).toEqual([["2025-03-09", 1], ["2025-03-10", 5], ["2025-03-11", 2]]);

    // a state changed, two at once
    await t.db.execute(sql`UPDATE shop_orders SET status = 'completed' WHERE order_no IN ('DT02', 'DT07')`);
    // refunded in full: cancelled, its payment time kept; refunded in part: its state kept
    await t.db.execute(sql`UPDATE shop_orders SET status = 'cancelled', refund_status = 'all', refunded_amount = amount WHERE order_no = 'DT06'`);
    await t.db.execute(sql`UPDATE shop_orders SET refund_status = 'part', refunded_amount = 500 WHERE order_no IN ('DT08', 'DT09')`);
    // closed unpaid
    await t.db.execute(sql`UPDATE shop_orders SET status = 'cancelled', cancelled_at = now() WHERE order_no = 'DT04'`);
    await expectEveryRangeCounted();
    // moved across midnight, and to another day altogether
    await t.db.execute(sql`UPDATE shop_orders SET created_at = created_at + interval '1 second' WHERE order_no = 'DT01'`);
    await t.db.execute(sql`UPDATE shop_orders SET created_at = ${china("2025-03-12 09:00:00")}::timestamptz WHERE order_no = 'DT03'`);
    await t.db.execute(sql`DELETE FROM shop_orders WHERE order_no = 'DT05'`);
    await expectEveryRangeCounted();
    await compactStateTotals(t.db, entities);
    await expectEveryRangeCounted();
  }, 120_000);

  it("is made anew and counted from the rows when its definition is not the one installed", async () => {
    await t.db.execute(sql.raw(`DELETE FROM "${DAY_TOTALS}"`));
    const drifted = await t.call("adminapiv2", "shoporderlist", { created_at_start: "2025-03-10", created_at_end: "2025-03-11" }, { token: tokens.svc });
    expect((drifted.data as { total: number }).total).toBe(0);
    await t.db.execute(sql.raw(`COMMENT ON TABLE "${stateTotalsTableName(shopOrderEntity)}" IS 'an older definition'`));
    await installStateTotals(t.db, entities);
    await expectEveryRangeCounted();
  }, 120_000);

  it("answers an exact time's range by counting the orders", async () => {
    const res = await t.call("adminapiv2", "shoporderlist", { created_at_start: "2025-03-10T12:30:00+08:00", created_at_end: "2025-03-11", limit: 3 }, { token: tokens.svc });
    expect(res.return_code, res.return_msg).toBe("SUCCESS");
    const [{ n }] = await queryRows<{ n: string }>(t.db, sql`SELECT count(*)::text AS n FROM shop_orders WHERE sysid = ${ids.sunrise} AND created_at >= ${china("2025-03-10 12:30:00")}::timestamptz AND created_at < ${china("2025-03-12 00:00:00")}::timestamptz`);
    expect((res.data as { total: number }).total).toBe(Number(n));
  });

  it("answers the fee order list's range of days of payment as counting the orders paid within it does", async () => {
    const FEE_STATES = ["unpaid", "paid", "part_refunded", "refunded", "closed"];
    for (const [username, tenant] of [["svc", sql`sysid = ${ids.sunrise}`], ["school", sql`sch_id = ${ids.no1}`]] as const) {
      // the demo's last 30 days of payments, and the last day an order of the tenant was paid
      const [{ last }] = await queryRows<{ last: string }>(t.db, sql`SELECT to_char(max(paid_at) + interval '8 hours', 'YYYY-MM-DD') AS last FROM fee_orders WHERE ${tenant}`);
      for (const [start, end] of [["2026-01-31", "2026-03-01"], [last, last]]) {
        for (const status of [undefined, "paid"]) {
          const payload = { page: 1, limit: 4, paid_at_start: start, paid_at_end: end, ...(status ? { status } : {}) };
          const res = await t.call("adminapiv2", "orderlist", payload, { token: tokens[username] });
          expect(res.return_code, res.return_msg).toBe("SUCCESS");
          const data = res.data as { items: Row[]; total: number; tabs: { states: { value: string; count: number }[] }; summary: Row };
          const where = sql`${tenant} AND paid_at >= ${china(`${start} 00:00:00`)}::timestamptz AND paid_at < ${china(`${nextDay(end)} 00:00:00`)}::timestamptz`;
          const rows = await queryRows<{ status: string; n: string; amount: string }>(t.db, sql`SELECT status, count(*)::text AS n, sum(amount)::text AS amount FROM fee_orders WHERE ${where} GROUP BY 1`);
          const chosen = rows.filter((r) => !status || r.status === status);
          const n = chosen.reduce((total, r) => total + Number(r.n), 0);
          const context = `${username} ${JSON.stringify(payload)}`;
          expect(n, `${context}: the demo has orders paid within the range`).toBeGreaterThan(0);
          expect(data.total, context).toBe(n);
          expect(data.summary, context).toEqual({
            count: n,
            amount: fenToYuan(chosen.reduce((total, r) => total + BigInt(r.amount), 0n)),
            paid_amount: fenToYuan(chosen.filter((r) => ["paid", "part_refunded", "refunded"].includes(r.status)).reduce((total, r) => total + BigInt(r.amount), 0n)),
          });
          expect(data.tabs.states, context).toEqual(FEE_STATES.map((value) => ({ value, count: Number(rows.find((r) => r.status === value)?.n ?? 0) })));
          const newest = await queryRows<{ id: number }>(t.db, sql`SELECT id FROM fee_orders WHERE ${where} ${status ? sql`AND status = ${status}` : sql``} ORDER BY id DESC LIMIT 4`);
          expect(data.items.map((item) => Number(item.id)), context).toEqual(newest.map((r) => Number(r.id)));
        }
      }
    }
  });
});
