/** A fee order's timeline (fee_order_events): created, paid, closed, refunded …, each with its time and a note. */
import { sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { feeOrderEvents } from "../../db/schema";

/** Adds an entry to the order's timeline (its next position; the caller holds the order's lock). */
export async function addOrderEvent(tx: DbOrTx, order: { id: number; sch_id: number; sysid: number }, event: string, at: Date, note: string | null = null): Promise<void> {
  await tx.execute(sql`
    INSERT INTO ${feeOrderEvents} (order_id, sch_id, sysid, sort, at, event, note)
    SELECT ${order.id}, ${order.sch_id}, ${order.sysid}, count(*), ${at.toISOString()}::timestamptz, ${event}, ${note}
    FROM ${feeOrderEvents} WHERE order_id = ${order.id}`);
}
