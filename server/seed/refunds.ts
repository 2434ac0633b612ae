/**
 * Demo refunds, made the way the console makes them: on each demo school's paid orders a refund done in full and
 * one in part (sent to the sandbox and asked after by the refund job's own code), a request of the school's account
 * (or the provider's staff) waiting for the provider and one rejected, one the gateway reports abnormal and one it
 * closed; and a few duplicate payments (two
 * payers paying one bill), refunded by themselves.
 */
import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db, DbOrTx } from "../db/client";
import { activities, bills, feeOrders, refunds, sandboxRefunds, userSchools, users } from "../db/schema";
import { nextRefundNo, syncRefund } from "../payments/refunds";
import type { JobServices } from "../jobs/registry";
import { orderForBills, paidAtSandbox, seedContext } from "./feeOrders";

type FeeOrder = typeof feeOrders.$inferSelect;

const DAY_MS = 86_400_000;

/** The services on a clock standing at `when`: the sandbox takes a refund sent then at that time, as its bill says. */
function at(services: JobServices, when: Date): JobServices {
  return { ...services, clock: { now: () => when } };
}

export async function seedDemoRefunds(tx: DbOrTx, schoolIds: readonly number[], now: Date): Promise<void> {
  // the refund job's services, on a clock that stands at the seed's `now`
  const services: JobServices = { ...seedContext(tx, now).services, clock: { now: () => now } };
  const db = tx as Db;
  for (const schId of schoolIds) {
    const orders = await tx
      .select()
      .from(feeOrders)
      .where(and(eq(feeOrders.sch_id, schId), eq(feeOrders.status, "paid"), eq(feeOrders.duplicate, "N")))
      .orderBy(asc(feeOrders.id))
      .limit(6);
    if (orders.length < 6) continue;
    const [full, part, asked, rejected, abnormal, closed] = orders as [FeeOrder, FeeOrder, FeeOrder, FeeOrder, FeeOrder, FeeOrder];
    // who asks and who decides: the school's account, else the provider's staff assigned to it; the provider's account
    const people = await tx
      .select({ username: users.username, userType: users.userType, schid: users.schid, assigned: userSchools.schId })
      .from(users)
      .leftJoin(userSchools, and(eq(userSchools.userId, users.id), eq(userSchools.schId, schId)))
      .where(eq(users.sysid, full.sysid));
    const provider = people.find((p) => p.userType === "service")?.username;
    if (!provider) continue;
    const asker = people.find((p) => p.userType === "school" && p.schid === schId) ?? people.find((p) => p.userType === "service_schadmin" && p.assigned === schId);
    // a few days after the payment, never after now
    const after = (order: FeeOrder, days: number) => new Date(Math.min(now.getTime(), (order.paid_at ?? now).getTime() + days * DAY_MS));
    const add = async (order: FeeOrder, values: Partial<typeof refunds.$inferInsert> & { amount: number; reason: string; status: string; applied_by: string }) => {
      const numbered = values.status === "applied" || values.status === "rejected" ? {} : { refund_no: nextRefundNo(order.pay_no, 0) };
      const [row] = await tx
        .insert(refunds)
        .values({ order_id: order.id, pay_no: order.pay_no, sch_id: order.sch_id, sysid: order.sysid, student_id: order.student_id, gateway: order.gateway, created_at: after(order, 2), ...numbered, ...values })
        .returning();
      return row;
    };

    // done in full and in part: sent and asked after as the refund job does
    for (const [order, amount, reason] of [
      [full, full.amount, "学生转学"],
      [part, Math.max(1, Math.round(part.amount * 0.3)), "退还教辅费"],
    ] as const) {
      const refund = await add(order, { amount, reason, status: "processing", applied_by: provider, reviewed_by: provider });
      await syncRefund(at(services, refund.created_at), db, refund.id, refund.created_at);
    }
    // a school's request waiting for the provider's decision, and one the provider rejected
    if (asker) {
      await add(asked, { amount: Math.max(1, Math.round(asked.amount / 2)), reason: "家长申请部分退费", status: "applied", applied_by: asker.username });
      await add(rejected, { amount: rejected.amount, reason: "重复报名", status: "rejected", applied_by: asker.username, reviewed_by: provider, review_reason: "已核实未重复" });
    }
    // what the gateway says of the last two: the payer's card frozen, and a refund it closed
    for (const [order, state] of [
      [abnormal, "ABNORMAL"],
      [closed, "CLOSED"],
    ] as const) {
      const refund = await add(order, { amount: order.amount, reason: "学生退学", status: "processing", applied_by: provider, reviewed_by: provider, submitted_at: after(order, 2), refund_id: `SANDBOXR${nextRefundNo(order.pay_no, 0)}`, attempts: 1 });
      await tx.insert(sandboxRefunds).values({ refundNo: refund.refund_no!, payNo: order.pay_no, refundId: refund.refund_id!, amountFen: refund.amount, status: state, createdAt: refund.created_at });
      await syncRefund(services, db, refund.id, refund.created_at);
    }
  }
  await seedDuplicatePayments(tx, services, schoolIds[0], now);
}

/** Two payers paying one bill of the first school's open activity, twice: the second payment of each is refunded by itself. */
async function seedDuplicatePayments(tx: DbOrTx, services: JobServices, schId: number | undefined, now: Date): Promise<void> {
  if (schId === undefined) return;
  const [open] = await tx.select({ id: activities.id }).from(activities).where(and(eq(activities.sch_id, schId), eq(activities.status, "open"))).orderBy(asc(activities.id)).limit(1);
  if (!open) return;
  const unpaid = await tx
    .select({ id: bills.id, student_id: bills.student_id })
    .from(bills)
    .where(and(eq(bills.activity_id, open.id), eq(bills.status, "unpaid")))
    .orderBy(asc(bills.id))
    .limit(2);
  for (const [i, bill] of unpaid.entries()) {
    const madeAt = new Date(now.getTime() - (3 + i) * 3600_000);
    // both payers made their order before either paid: the first payment settles the bill, the second is a duplicate
    const request = { studentId: bill.student_id, schId, billIds: [bill.id] };
    const first = await orderForBills(tx, madeAt, request);
    const second = await orderForBills(tx, new Date(madeAt.getTime() + 30_000), request);
    await paidAtSandbox(tx, first, new Date(madeAt.getTime() + 90_000));
    await paidAtSandbox(tx, second, new Date(madeAt.getTime() + 120_000));
  }
  const duplicates = await tx
    .select({ id: refunds.id, created_at: refunds.created_at })
    .from(refunds)
    .where(and(eq(refunds.sch_id, schId), eq(refunds.kind, "duplicate"), inArray(refunds.status, ["processing"])));
  for (const refund of duplicates) await syncRefund(at(services, refund.created_at), tx as Db, refund.id, refund.created_at);
}
