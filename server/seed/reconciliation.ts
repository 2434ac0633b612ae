/**
 * Demo reconciliation: every sandbox channel's last week, reconciled (and settled) as the daily job does, after
 * one payment of Sunrise's sandbox channel was made at the sandbox yesterday for an order the console had closed
 * (its notification lost): that day shows the difference, to be resolved from its page.
 */
import { and, asc, eq, gte, lt } from "drizzle-orm";
import { addDays, businessDay, businessDayStart } from "../../common/term";
import type { Db, DbOrTx } from "../db/client";
import { feeOrders, paymentChannels, paymentOrders, sandboxPayments } from "../db/schema";
import { reconcileDay } from "../domains/collection/reconciliation";
import type { JobServices } from "../jobs/registry";
import { seedContext } from "./feeOrders";

/** the days back reconciled (and so settled) */
const DAYS = 7;

export async function seedDemoReconciliation(tx: DbOrTx, lostPaymentSchool: number, now: Date): Promise<void> {
  const services: JobServices = { ...seedContext(tx, now).services, clock: { now: () => now } };
  const yesterday = addDays(businessDay(now), -1);
  // a payer paid a closed order at the sandbox yesterday noon; the console was never told
  const [closed] = await tx
    .select({ payNo: paymentOrders.payNo, amount: paymentOrders.totalFeeFen })
    .from(feeOrders)
    .innerJoin(paymentOrders, eq(paymentOrders.payNo, feeOrders.pay_no))
    .where(and(eq(feeOrders.sch_id, lostPaymentSchool), eq(feeOrders.status, "closed"), gte(feeOrders.created_at, businessDayStart(addDays(yesterday, -30))), lt(feeOrders.created_at, businessDayStart(yesterday))))
    .orderBy(asc(feeOrders.id))
    .limit(1);
  if (closed) {
    await tx.insert(sandboxPayments).values({ payNo: closed.payNo, transactionId: `SANDBOX${closed.payNo}`, amountFen: closed.amount, paidAt: new Date(businessDayStart(yesterday).getTime() + 12 * 3_600_000) });
  }
  const channels = await tx.select().from(paymentChannels).where(and(eq(paymentChannels.gateway, "sandbox"), eq(paymentChannels.status, "approved"))).orderBy(asc(paymentChannels.id));
  for (const channel of channels) {
    for (let back = DAYS; back >= 1; back--) {
      const day = addDays(businessDay(now), -back);
      // run as the daily job runs it: the next morning, once the bill exists
      const runAt = new Date(Math.min(now.getTime(), businessDayStart(addDays(day, 1)).getTime() + 10.5 * 3_600_000));
      await reconcileDay({ ...services, db: tx as Db }, channel, day, "system", runAt);
    }
  }
}
