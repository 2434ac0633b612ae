/**
 * The daily figures of the money (`fee_daily`, server/db/schema.ts): added to in the transaction that records a
 * payment or finishes a refund, and rebuilt from the ledger after a seed writes the ledgers directly. The
 * statistics pages read them for every dimension above the student (server/domains/reports/collection.ts).
 */
import { sql } from "drizzle-orm";
import { BUSINESS_TIME_ZONE } from "../../../common/term";
import type { DbOrTx } from "../../db/client";
import { feeDaily } from "../../db/schema";

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

/** The daily figures made again from the ledger, after a seed wrote payments and refunds directly. */
export async function rebuildFeeDaily(db: DbOrTx): Promise<void> {
  await db.execute(sql`DELETE FROM fee_daily`);
  await db.execute(sql`
    INSERT INTO fee_daily (day, sysid, sch_id, class_id, activity_id, orders, paid, refunded)
    SELECT (at AT TIME ZONE ${sql.raw(`'${BUSINESS_TIME_ZONE}'`)})::date, sysid, sch_id, class_id, coalesce(activity_id, 0), sum(orders), sum(paid), sum(refunded)
      FROM fee_ledger
     GROUP BY 1, 2, 3, 4, 5`);
}
