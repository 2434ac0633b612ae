/** A fee order's timeline (fee_order_events): created, paid, closed, refunded …, each with its time and a note. */
import { sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { feeOrderEvents } from "../../db/schema";

/** Adds an entry to the order's timeline (its next position; the caller holds the order's lock). */
export async function addOrderEvent(tx: DbOrTx, order: { id: number; sch_id: number; sysid: number }, event: string, at: Date, note: string | null = null): Promise<void> {
  await tx.execute(orderEventInsert(sql`select ${order.id}::integer as id, ${order.sch_id}::integer as sch_id, ${order.sysid}::integer as sysid`, event, at, note));
}

/**
 * The insert of an entry on the timeline of each order `orders` yields (a query of its id, sch_id and sysid), at the
 * order's next position: addOrderEvent's, and a statement's that writes the entry with what it records (a pickup's
 * hand-over, in one round trip).
 */
export function orderEventInsert(orders: SQL, event: string, at: Date, note: string | null = null): SQL {
  return sql`
    INSERT INTO ${feeOrderEvents} (order_id, sch_id, sysid, sort, at, event, note)
    SELECT o.id, o.sch_id, o.sysid, (SELECT count(*) FROM ${feeOrderEvents} e WHERE e.order_id = o.id), ${at.toISOString()}::timestamptz, ${event}, ${note}
    FROM (${orders}) o`;
}
