/**
 * Pickup verification (catalogue/retail.ts: pickupfind, pickupverify, pickuprec): a clerk types the payer's 8-digit
 * code or scans the QR code's token; only orders of the caller's pickup points are found (a clerk's own points, a
 * provider's all), and codes not found are throttled per account and audited. Verifying is one conditional update
 * (undelivered -> completed, within those points) and its verification record, in one transaction: of two clerks
 * verifying one order at once exactly one succeeds, and the other is told who verified it and when.
 */
import { and, asc, eq, inArray, ne, sql, type SQL } from "drizzle-orm";
import { pickupFindOperation, pickupVerifyOperation } from "../../../catalogue/retail";
import { fenToYuan } from "../../../common/money";
import { writeAudit } from "../../auth/audit";
import { releaseAttempts, reserveAttempts, type ThrottleRule } from "../../auth/throttle";
import type { Db, DbOrTx } from "../../db/client";
import { pickupPoints, pickupRecords, schools, shopOrderItems, shopOrders, students } from "../../db/schema";
import { registerDeclared } from "../../engine/declared";
import { ApiFailure } from "../../protocol/envelope";
import type { OperationContext, OperationRegistry } from "../../protocol/registry";

/** Codes not found per account: a clerk mistypes now and then; guessing is stopped long before it could pay off. */
export const PICKUP_LOOKUP_PER_USER: ThrottleRule = { maxFailures: 10, windowMs: 10 * 60_000, firstLockMs: 10 * 60_000, maxLockMs: 60 * 60_000 };

/** The 8 digits a clerk types, else the QR code's token. */
function codeCondition(code: string): SQL {
  return /^\d{8}$/.test(code) ? eq(shopOrders.pickup_code, code) : eq(shopOrders.pickup_token, code);
}

/** Who verifies: an account of a provider, at the given points (a clerk's own) or at all the provider's (null). */
export interface Verifier {
  userId: number;
  username: string;
  name: string;
  sysid: number | null;
  points: readonly number[] | null;
}

function verifierOf(ctx: OperationContext): Verifier {
  const auth = ctx.auth!;
  return { userId: auth.userId, username: auth.username, name: auth.name, sysid: auth.sysid, points: auth.userType === "pickup" ? auth.pickupPointIds : null };
}

/** The verifier's pickup orders: of its provider, at its points (none when a clerk has none). */
function verifiersOrders(verifier: Verifier): SQL {
  const points = verifier.points === null ? undefined : verifier.points.length > 0 ? inArray(shopOrders.pickup_point_id, [...verifier.points]) : sql`false`;
  return and(eq(shopOrders.sysid, verifier.sysid ?? -1), eq(shopOrders.delivery, "pickup"), points)!;
}

/**
 * Hands over the order the code names, if it waits to be collected at the verifier's points: one conditional update
 * (undelivered -> completed) and its verification record, in one transaction. Answers the order, or null.
 */
export async function handOver(db: Db, code: string, via: string, verifier: Verifier, now: Date, ip = ""): Promise<typeof shopOrders.$inferSelect | null> {
  return db.transaction(async (tx) => {
    const [order] = await tx
      .update(shopOrders)
      .set({ status: "completed", completed_at: now })
      .where(and(codeCondition(code), verifiersOrders(verifier), eq(shopOrders.status, "undelivered"), ne(shopOrders.refund_status, "all")))
      .returning();
    if (!order) return null;
    await tx.insert(pickupRecords).values({
      order_id: order.id,
      order_no: order.order_no,
      pickup_point_id: order.pickup_point_id!,
      sch_id: order.sch_id,
      sysid: order.sysid,
      student_id: order.student_id,
      amount: order.amount,
      verifier_id: verifier.userId,
      verifier_name: (verifier.name || verifier.username).slice(0, 50),
      // accounts keep no phone yet: the snapshot's phone stays empty until they do
      verifier_phone: null,
      via,
      created_at: now,
    });
    await writeAudit(tx, { userId: verifier.userId, username: verifier.username, action: "pickupverify", entity: "shoporder", entityId: String(order.id), ip, sysid: order.sysid, schId: order.sch_id, detail: { from: "undelivered", to: "completed", via, pickup_point_id: order.pickup_point_id! } });
    return order;
  });
}

/** A time as the verifier reads it, in China time: 2026-11-28 09:30. */
function shownTime(at: Date): string {
  return new Date(at.getTime() + 8 * 3_600_000).toISOString().slice(0, 16).replace("T", " ");
}

function notFoundCode(ctx: OperationContext): ApiFailure {
  const message = ctx.t("retail.pickup.not_found");
  return new ApiFailure("retail.pickup.not_found", {}, { errors: [{ field: "code", message }] });
}

/** Reserves a look-up of the account (a miss keeps it); throws while the account is locked out. */
async function reserveLookup(ctx: OperationContext): Promise<string> {
  const key = `pickupfind:user:${ctx.auth!.userId}`;
  const lockedMs = await reserveAttempts(ctx.db, [{ key, rule: PICKUP_LOOKUP_PER_USER }], ctx.now);
  if (lockedMs > 0) throw new ApiFailure("retail.pickup.throttled", { minutes: Math.max(1, Math.ceil(lockedMs / 60_000)) });
  return key;
}

async function auditMiss(ctx: OperationContext, code: string): Promise<void> {
  // the code itself is kept out of the trail past its first digits: the trail names the attempt, not a usable code
  await writeAudit(ctx.db, { userId: ctx.auth!.userId, username: ctx.auth!.username, action: "pickup_not_found", entity: "shoporder", ip: ctx.ip, sysid: ctx.auth!.sysid, schId: null, detail: { code: `${code.slice(0, 2)}…`, length: code.length } });
}

/** The order as the clerk checks it before handing it over: who it is for, what it holds, paid, where. */
async function orderFacts(db: DbOrTx, order: typeof shopOrders.$inferSelect) {
  const [facts] = await db
    .select({ student: students.name, student_no: students.student_no, school: schools.title, point: pickupPoints.title })
    .from(students)
    .innerJoin(schools, eq(schools.id, order.sch_id))
    .leftJoin(pickupPoints, eq(pickupPoints.id, order.pickup_point_id ?? -1))
    .where(eq(students.id, order.student_id));
  const items = await db
    .select({ title: shopOrderItems.title, spec_values: shopOrderItems.spec_values, image: shopOrderItems.image, qty: shopOrderItems.qty, amount: shopOrderItems.amount })
    .from(shopOrderItems)
    .where(eq(shopOrderItems.order_id, order.id))
    .orderBy(asc(shopOrderItems.sort), asc(shopOrderItems.id));
  const [record] = await db.select({ name: pickupRecords.verifier_name, at: pickupRecords.created_at }).from(pickupRecords).where(eq(pickupRecords.order_id, order.id));
  return {
    id: order.id,
    order_no: order.order_no,
    status: order.status,
    refund_status: order.refund_status,
    amount: fenToYuan(order.amount),
    paid_at: order.paid_at?.toISOString() ?? null,
    student: { name: facts?.student ?? "", student_no: facts?.student_no ?? "" },
    school_title: facts?.school ?? "",
    pickup_point: facts?.point ?? "",
    items: items.map((i) => ({ ...i, amount: fenToYuan(i.amount) })),
    verified: record ? { name: record.name, at: record.at.toISOString() } : null,
  };
}

/** The caller's order with this code that was paid (waiting, or collected already), or a refusal. */
async function foundOrder(ctx: OperationContext, code: string) {
  const [order] = await ctx.db
    .select()
    .from(shopOrders)
    .where(and(codeCondition(code), verifiersOrders(verifierOf(ctx)), ne(shopOrders.status, "unpaid")))
    .limit(1);
  return order;
}

async function find(ctx: OperationContext, payload: { code: string }) {
  const key = await reserveLookup(ctx);
  const order = await foundOrder(ctx, payload.code);
  if (!order) {
    await auditMiss(ctx, payload.code);
    throw notFoundCode(ctx);
  }
  await releaseAttempts(ctx.db, [key]);
  return { data: { items: await orderFacts(ctx.db, order) } };
}

async function verify(ctx: OperationContext, payload: { code: string; via: string }) {
  const key = await reserveLookup(ctx);
  const handed = await handOver(ctx.db, payload.code, payload.via, verifierOf(ctx), ctx.now, ctx.ip);
  if (handed) {
    await releaseAttempts(ctx.db, [key]);
    return { messageKey: "retail.pickup.verified", messageParams: { order_no: handed.order_no }, data: { items: await orderFacts(ctx.db, handed) } };
  }
  // not handed over: collected already (by whom, when), refunded, or no order of the caller's points
  const order = await foundOrder(ctx, payload.code);
  if (!order) {
    await auditMiss(ctx, payload.code);
    throw notFoundCode(ctx);
  }
  await releaseAttempts(ctx.db, [key]);
  const [record] = await ctx.db.select().from(pickupRecords).where(eq(pickupRecords.order_id, order.id));
  if (record) throw new ApiFailure("retail.pickup.already", { name: record.verifier_name, time: shownTime(record.created_at) });
  throw new ApiFailure("retail.pickup.refunded");
}

export function registerPickupOperations(registry: OperationRegistry): void {
  registerDeclared<{ code: string }>(registry, pickupFindOperation, find);
  registerDeclared<{ code: string; via: string }>(registry, pickupVerifyOperation, verify);
}
