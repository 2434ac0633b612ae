/**
 * Recording an order closed unpaid (its timeout passed, or another order paid what it was for): CLOSED here, and
 * its kind told (a fee order closes with it), in one transaction. A paid order is never closed; a close told twice
 * changes nothing more; a payment that still arrives for a closed order applies it (apply.ts). An order whose
 * merchant was removed is closed here only, with that reason: no gateway can be asked about it any more.
 */
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../db/client";
import { paymentOrders } from "../db/schema";
import { paymentKind, type CloseReason } from "./kinds";

/** the states an order may be closed from (CLOSED too: the sandbox's own close marks it first) */
const CLOSABLE = ["NOTPAY", "USERPAYING", "CLOSED"];

/** Marks the order CLOSED unless it was paid meanwhile; answers whether it is closed. */
export async function recordOrderClosed(db: Db, orderId: number, now: Date, reason?: CloseReason): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [order] = await tx
      .update(paymentOrders)
      .set({ status: "CLOSED" })
      .where(and(eq(paymentOrders.id, orderId), inArray(paymentOrders.status, CLOSABLE)))
      .returning();
    if (!order) return false;
    await paymentKind(order.kind)?.applyClosed?.(tx, order, now, reason);
    return true;
  });
}
