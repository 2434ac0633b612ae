/**
 * The daily figures of the money (`fee_daily`, server/db/schema.ts): added to in the transaction that records a
 * payment or finishes a refund, and rebuilt from the ledger after a seed writes the ledgers directly. The
 * statistics pages read them for every dimension above the student (server/domains/reports/collection.ts).
 */
import { sql } from "drizzle-orm";
import { BUSINESS_TIME_ZONE } from "../../../common/term";
import { queryRows, type DbOrTx } from "../../db/client";
import { bills, feeDaily, feeOrderLines } from "../../db/schema";

export interface FeeDailyMove {
  /** when the money moved: a payment's time, a refund's success */
  at: Date;
  sysid: number;
  sch_id: number;
  class_id: number;
  activity_id: number | null;
  orders?: number;
  paid?: number;
  refunded?: number;
}

const businessDayOf = (at: Date) => sql`(${at.toISOString()}::timestamptz AT TIME ZONE ${sql.raw(`'${BUSINESS_TIME_ZONE}'`)})::date`;

/** Adds a payment or a refund to its day's figures (a row per day, class and activity, made on its first money). */
export async function addToFeeDaily(tx: DbOrTx, move: FeeDailyMove): Promise<void> {
  await tx
    .insert(feeDaily)
    .values({
      day: businessDayOf(move.at) as unknown as string,
      sysid: move.sysid,
      sch_id: move.sch_id,
      class_id: move.class_id,
      activity_id: move.activity_id ?? 0,
      orders: move.orders ?? 0,
      paid: move.paid ?? 0,
      refunded: move.refunded ?? 0,
    })
    .onConflictDoUpdate({
      target: [feeDaily.class_id, feeDaily.activity_id, feeDaily.day],
      set: {
        orders: sql`${feeDaily.orders} + excluded.orders`,
        paid: sql`${feeDaily.paid} + excluded.paid`,
        refunded: sql`${feeDaily.refunded} + excluded.refunded`,
      },
    });
}

/** A payment's money in one activity: its lines of that activity's bills. */
export interface ActivityShare {
  activity_id: number;
  /** 1 in the activity of the order's first line, 0 in the others: the order is counted once */
  orders: number;
  amount: number;
}

/**
 * A payment's money by activity, as the ledger puts it (migrations 0033, 0035): an order of one activity is wholly
 * its activity's; an order paying bills of several is each activity's by its lines, counted in its first line's.
 */
export async function paymentShares(tx: DbOrTx, order: { id: number; activity_id: number | null; activity_count: number; amount: number }): Promise<ActivityShare[]> {
  if (order.activity_count <= 1) return [{ activity_id: order.activity_id ?? 0, orders: 1, amount: order.amount }];
  // in the order the ledger's view counts them
  const rows = await queryRows<{ activity_id: number; amount: string }>(
    tx,
    sql`SELECT b.activity_id, sum(l.amount)::text AS amount
          FROM ${feeOrderLines} l JOIN ${bills} b ON b.id = l.bill_id
         WHERE l.order_id = ${order.id}
         GROUP BY b.activity_id ORDER BY min(l.sort), min(l.id)`,
  );
  return rows.map((row, i) => ({ activity_id: Number(row.activity_id), orders: i === 0 ? 1 : 0, amount: Number(row.amount) }));
}

/** The daily figures made again from the ledger, after a seed wrote payments and refunds directly. */
export async function rebuildFeeDaily(db: DbOrTx): Promise<void> {
  await db.execute(sql`DELETE FROM fee_daily`);
  await db.execute(sql`
    INSERT INTO fee_daily (day, sysid, sch_id, class_id, activity_id, orders, paid, refunded)
    SELECT (at AT TIME ZONE ${sql.raw(`'${BUSINESS_TIME_ZONE}'`)})::date, sysid, sch_id, class_id, coalesce(activity_id, 0), sum(orders), sum(paid), sum(refunded)
      FROM fee_ledger
     GROUP BY 1, 2, 3, 4, 5`);
}
