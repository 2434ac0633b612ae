/**
 * Demo and bench fee orders. A few orders of one demo school go through the payer's own path (createFeeOrder, the
 * sandbox's record of the payment, applyPaidOrder), so the demo holds what a real payment leaves; the rest, about
 * 90 days of them for every demo school (and `--scale N` x 10,000 paid orders), are written set-based inside the
 * database (one INSERT ... SELECT per table, per block of bills): going through applyPaidOrder order by order costs
 * some 20 statements each, seconds for a demo's thousands and hours for a million. They write the same rows in the
 * same states: a payment order of kind `fee` to the school's sandbox channel, the sandbox's payment, the fee order,
 * its line and timeline, the bill paid, the voucher's number.
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../db/client";
import { activities, bills, sandboxPayments, students } from "../db/schema";
import { orderEntity } from "../../catalogue/collectionOrders";
import { stateTotalsTableName } from "../db/stateTotals";
import { createFeeOrder, FEE_KIND } from "../domains/collection/feeOrders";
import { numberPaidOrders } from "../domains/collection/receiptNumbers";
import { applyPaidOrder } from "../payments/apply";
import { ORDER_PAYABLE_MS, type CreatedPaymentOrder, type OrderContext } from "../payments/orders";
import { systemClock } from "../lib/clock";
import { PaymentSecrets } from "../payments/secrets";
import type { AppServices } from "../protocol/registry";

/** A whole number written into a statement (our own constants and ids only). */
function wholeNumber(n: number): string {
  if (!Number.isSafeInteger(n)) throw new Error(`not a whole number: ${n}`);
  return String(n);
}

function int(n: number): ReturnType<typeof sql.raw> {
  return sql.raw(wholeNumber(n));
}

export interface FeeOrderShares {
  /** percent of the bills paid */
  paid: number;
  /** percent of the bills whose order was closed unpaid (the rest have no order) */
  closed: number;
}

/**
 * Orders for the bills of these activities, chosen by a hash of each bill (the same every seed): `shares.paid`
 * percent paid, `shares.closed` percent closed unpaid. Each order is made on a day between the activity's start
 * and its end (or `now`), paid a few minutes later. Bills with an order already are left alone.
 */
export async function seedFeeOrdersFor(tx: DbOrTx, plan: readonly (FeeOrderShares & { activityId: number })[], now: Date): Promise<number> {
  if (plan.length === 0) return 0;
  // each activity with its shares, written into the statement (our own ids and constants)
  const rows = plan.map((p) => [p.activityId, p.paid, p.closed].map(wholeNumber).join(", "));
  const shares = sql.raw(`(VALUES (${rows.join("), (")})) AS sh(activity_id, paid, closed)`);
  const at = sql`${now.toISOString()}::timestamptz`;
  // one row per order to make: its bill, fate, times and numbers
  await tx.execute(sql`DROP TABLE IF EXISTS seed_fee_orders`);
  await tx.execute(sql`
    CREATE TEMP TABLE seed_fee_orders ON COMMIT DROP AS
    WITH chosen AS (
      SELECT b.id AS bill_id, b.sch_id, b.sysid, b.student_id, b.class_id, b.activity_id, b.amount, a.title,
             (hashint8extended(b.id::bigint, 7) & 9223372036854775807) % 100 AS roll,
             (hashint8extended(b.id::bigint, 8) & 9223372036854775807) AS spread,
             greatest(a.start_date::timestamp AT TIME ZONE 'Asia/Shanghai', ${at} - interval '90 days') AS opened,
             least(a.end_date::timestamp AT TIME ZONE 'Asia/Shanghai' + interval '18 hours', ${at} - interval '3 hours') AS ended,
             sh.paid AS paid_share, sh.closed AS closed_share
      FROM bills b JOIN activities a ON a.id = b.activity_id JOIN ${shares} ON sh.activity_id = b.activity_id
      WHERE b.amount > 0 AND b.status IN ('unpaid', 'closed')
        AND NOT EXISTS (SELECT 1 FROM fee_order_lines l WHERE l.bill_id = b.id)
    ), fated AS (
      SELECT chosen.*, CASE WHEN roll < paid_share THEN 'paid' ELSE 'closed' END AS fate,
             opened + (spread % greatest(1, extract(epoch FROM ended - opened)::bigint)) * interval '1 second' AS made
      FROM chosen WHERE roll < paid_share + closed_share AND ended > opened
    )
    SELECT fated.*, c.sub_mchid, c.id AS paychnl_id,
           'P' || to_char(made AT TIME ZONE 'Asia/Shanghai', 'YYYYMMDDHH24MISS') || lpad(bill_id::text, 10, '0') AS pay_no,
           to_char(made AT TIME ZONE 'Asia/Shanghai', 'YYYYMMDDHH24MISS') || lpad(bill_id::text, 10, '0') AS order_no,
           made + ((spread % 300) + 30) * interval '1 second' AS paid_at
    FROM fated
    JOIN school_channels sc ON sc.sch_id = fated.sch_id
    JOIN payment_channels c ON c.id = sc.paychnl_id AND c.gateway = 'sandbox' AND c.status = 'approved'`);
  await tx.execute(sql`
    INSERT INTO payment_orders (pay_no, orderid, kind, sysid, sch_id, title, term_months, total_fee_fen, gateway, merchant_id, sp_merchant_id,
                                code_url, status, transaction_id, paid_at, expires_at, created_at)
    SELECT pay_no, order_no, ${FEE_KIND}, sysid, sch_id, left(title, 30), 0, amount, 'sandbox', sub_mchid, '', '',
           CASE WHEN fate = 'paid' THEN 'SUCCESS' ELSE 'CLOSED' END, CASE WHEN fate = 'paid' THEN 'SANDBOX' || pay_no END,
           CASE WHEN fate = 'paid' THEN paid_at END, made + ${int(ORDER_PAYABLE_MS)} * interval '1 millisecond', made
    FROM seed_fee_orders`);
  await tx.execute(sql`
    INSERT INTO sandbox_payments (pay_no, transaction_id, amount_fen, paid_at)
    SELECT pay_no, 'SANDBOX' || pay_no, amount, paid_at FROM seed_fee_orders WHERE fate = 'paid'`);
  await tx.execute(sql`
    INSERT INTO fee_orders (order_no, pay_no, sch_id, sysid, student_id, class_id, activity_id, amount, status, paid_at, gateway, paychnl_id, transaction_id, created_at)
    SELECT order_no, pay_no, sch_id, sysid, student_id, class_id, activity_id, amount, fate,
           CASE WHEN fate = 'paid' THEN paid_at END, 'sandbox', paychnl_id, CASE WHEN fate = 'paid' THEN 'SANDBOX' || pay_no END, made
    FROM seed_fee_orders ORDER BY made`);
  await tx.execute(sql`
    INSERT INTO fee_payments (pay_no, order_id, sch_id, sysid, student_id, class_id, activity_id, amount, paid_at, paychnl_id, gateway, transaction_id)
    SELECT o.pay_no, o.id, o.sch_id, o.sysid, o.student_id, o.class_id, o.activity_id, o.amount, o.paid_at, o.paychnl_id, o.gateway, o.transaction_id
    FROM seed_fee_orders s JOIN fee_orders o ON o.pay_no = s.pay_no WHERE s.fate = 'paid' ORDER BY o.paid_at`);
  await tx.execute(sql`
    INSERT INTO fee_order_lines (order_id, sort, bill_id, title, amount, settled, sch_id, sysid)
    SELECT o.id, 0, s.bill_id, s.title, s.amount, CASE WHEN s.fate = 'paid' THEN 'Y' ELSE 'N' END, s.sch_id, s.sysid
    FROM seed_fee_orders s JOIN fee_orders o ON o.pay_no = s.pay_no`);
  await tx.execute(sql`
    INSERT INTO fee_order_events (order_id, sort, at, event, note, sch_id, sysid)
    SELECT o.id, 0, s.made, 'created', NULL, s.sch_id, s.sysid FROM seed_fee_orders s JOIN fee_orders o ON o.pay_no = s.pay_no
    UNION ALL
    SELECT o.id, 1, CASE WHEN s.fate = 'paid' THEN s.paid_at ELSE s.made + ${int(ORDER_PAYABLE_MS)} * interval '1 millisecond' END,
           s.fate, CASE WHEN s.fate = 'paid' THEN 'SANDBOX' || s.pay_no END, s.sch_id, s.sysid
    FROM seed_fee_orders s JOIN fee_orders o ON o.pay_no = s.pay_no`);
  const paid = await tx.execute(sql`
    UPDATE bills SET status = 'paid', paid_amount = s.amount, paid_at = s.paid_at
    FROM seed_fee_orders s WHERE bills.id = s.bill_id AND s.fate = 'paid'
    RETURNING bills.id`);
  await tx.execute(sql`DROP TABLE seed_fee_orders`);
  // their voucher numbers, in the order of payment per school and year, after those issued; the counters moved on
  await numberPaidOrders(tx);
  return ((paid as { rows?: unknown[] }).rows ?? (paid as unknown as unknown[])).length;
}

/** What createFeeOrder needs of the server, for orders made by the seed (no request: no address, no user). */
export function seedContext(tx: DbOrTx, now: Date): OrderContext {
  const db = tx as Db;
  const services = { db, clock: systemClock, paymentSecrets: new PaymentSecrets(), paymentSandbox: true } as unknown as AppServices;
  const log = { error: () => undefined, warn: () => undefined, info: () => undefined } as unknown as OrderContext["log"];
  return { services, db, origin: process.env.PUBLIC_URL?.replace(/\/+$/, "") ?? "http://localhost:8080", now, log, auth: null };
}

/** A payer's order for these bills, made through the payer's own path (createFeeOrder) at `madeAt`. */
export async function orderForBills(tx: DbOrTx, madeAt: Date, request: { studentId: number; schId: number; billIds: number[] }): Promise<CreatedPaymentOrder> {
  return (await createFeeOrder(seedContext(tx, madeAt), request)).payment;
}

/** The payer pays the order in the sandbox at `paidAt`: the sandbox's record of the payment, then applyPaidOrder. */
export async function paidAtSandbox(tx: DbOrTx, payment: CreatedPaymentOrder, paidAt: Date): Promise<void> {
  const transactionId = `SANDBOX${payment.payNo}`;
  await tx.insert(sandboxPayments).values({ payNo: payment.payNo, transactionId, amountFen: payment.totalFeeFen, paidAt });
  await applyPaidOrder(tx as Db, { payNo: payment.payNo, gateway: "sandbox", amountFen: payment.totalFeeFen, merchantId: payment.merchantId, transactionId, paidAt, ip: "" }, paidAt);
}

/**
 * The demo's fee orders: two of the first school's bills paid through the payer's own path, then about 90 days of
 * orders for every school's open and closed activities (most bills paid, some orders closed unpaid).
 */
export async function seedDemoFeeOrders(tx: DbOrTx, schoolIds: readonly number[], now: Date): Promise<void> {
  const activityRows = await tx
    .select({ id: activities.id, sch_id: activities.sch_id, status: activities.status })
    .from(activities)
    .where(and(inArray(activities.sch_id, [...schoolIds]), inArray(activities.status, ["open", "closed"])))
    .orderBy(asc(activities.id));
  const firstOpen = activityRows.find((a) => a.status === "open" && a.sch_id === schoolIds[0]);
  if (firstOpen) {
    const waiting = await tx
      .select({ id: bills.id, student_id: bills.student_id, sch_id: bills.sch_id })
      .from(bills)
      .innerJoin(students, eq(students.id, bills.student_id))
      .where(and(eq(bills.activity_id, firstOpen.id), eq(bills.status, "unpaid")))
      .orderBy(asc(bills.id))
      .limit(2);
    for (const [i, bill] of waiting.entries()) {
      // paid an hour or so ago (an order left open would be closed by the closing job two hours later anyway)
      const madeAt = new Date(now.getTime() - (2 - i) * 40 * 60_000);
      const payment = await orderForBills(tx, madeAt, { studentId: bill.student_id, schId: bill.sch_id, billIds: [bill.id] });
      await paidAtSandbox(tx, payment, new Date(madeAt.getTime() + 90_000));
    }
  }
  // last term's activity mostly paid, this term's half way
  await seedFeeOrdersFor(
    tx,
    activityRows.map((a) => (a.status === "closed" ? { activityId: a.id, paid: 88, closed: 4 } : { activityId: a.id, paid: 55, closed: 6 })),
    now,
  );
}

/** bench schools per transaction of `--scale`: 50,000 bills and orders */
const SCALE_SCHOOLS_PER_BLOCK = 20;

/**
 * `--scale N`: each bench school (10,000 students per scale unit) gets its provider's sandbox channel, last term's
 * fees (a closed activity of two items billing every student) and a paid order for every bill: N x 10,000 paid
 * orders with their bills.
 */
export async function seedScaleFeeOrders(db: Db, sysid: number, schoolIds: readonly number[], now: Date, progress?: (orders: number) => void): Promise<number> {
  const today = new Date(now.getTime() + 8 * 3600_000).toISOString().slice(0, 10);
  let written = 0;
  for (let i = 0; i < schoolIds.length; i += SCALE_SCHOOLS_PER_BLOCK) {
    const block = schoolIds.slice(i, i + SCALE_SCHOOLS_PER_BLOCK);
    block.forEach(wholeNumber);
    const ids = sql.raw(`ARRAY[${block.join(",")}]::int[]`);
    written += await db.transaction(async (tx) => {
      await tx.execute(sql`
        INSERT INTO school_channels (sch_id, sysid, paychnl_id, bound_at, bound_by)
        SELECT s, ${int(sysid)}, (SELECT id FROM payment_channels WHERE sysid = ${int(sysid)} AND gateway = 'sandbox' AND status = 'approved' ORDER BY id LIMIT 1), ${now.toISOString()}::timestamptz, 'bench'
        FROM unnest(${ids}) AS s
        ON CONFLICT (sch_id) DO NOTHING`);
      const made = await tx.execute(sql`
        INSERT INTO activities (sch_id, sysid, title, status, start_date, end_date, target, amount)
        SELECT s, ${int(sysid)}, 'Bench term fees', 'closed', ${today}::date - 80, ${today}::date - 20, 'school', 96500
        FROM unnest(${ids}) AS s
        RETURNING id`);
      const activityIds = ((made as { rows?: { id: number }[] }).rows ?? (made as unknown as { id: number }[])).map((r) => Number(r.id));
      await tx.execute(sql`
        INSERT INTO activity_items (activity_id, sch_id, sysid, sort, title, amount, amount_mode, required)
        SELECT a.id, a.sch_id, a.sysid, item.sort, item.title, item.amount, 'fixed', 'Y'
        FROM activities a CROSS JOIN (VALUES (0, 'Tuition', 80000), (1, 'Books', 16500)) AS item(sort, title, amount)
        WHERE a.id = ANY(${sql.raw(`ARRAY[${activityIds.map(wholeNumber).join(",")}]::int[]`)})`);
      await tx.execute(sql`
        INSERT INTO bills (activity_id, sch_id, sysid, student_id, class_id, amount, status, created_at)
        SELECT a.id, st.sch_id, st.sysid, st.id, st.class_id, a.amount, 'unpaid', a.start_date::timestamp AT TIME ZONE 'Asia/Shanghai'
        FROM activities a JOIN students st ON st.sch_id = a.sch_id
        WHERE a.id = ANY(${sql.raw(`ARRAY[${activityIds.map(wholeNumber).join(",")}]::int[]`)})`);
      return seedFeeOrdersFor(
        tx,
        activityIds.map((activityId) => ({ activityId, paid: 100, closed: 0 })),
        now,
      );
    });
    progress?.(written);
  }
  // every table the blocks wrote a row per order to, and the orders' state totals: left vacuumed and analysed, so
  // that no autovacuum of a million rows comes to run beside the first reads
  await db.execute(sql`VACUUM (ANALYZE) activities, bills, payment_orders, sandbox_payments, fee_orders, fee_order_lines, fee_order_events, ${sql.identifier(stateTotalsTableName(orderEntity))}`);
  return written;
}
