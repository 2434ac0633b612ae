/**
 * Fulfilment of every kind of order that carries goods (catalogue/fulfilment.ts): a shop order, and a fee order whose
 * activity items are goods (a uniform in a size). One module for both kinds, each described once (`FulfilledKind`:
 * its table, entity, deliver action, where its fulfilment state is kept and what its items are):
 *
 * - stock: taken when an order is made, one conditional update per SKU in SKU order (never below zero), given back
 *   exactly once by whoever moves the unpaid order to closed;
 * - pickup codes: 8 digits from a cryptographic generator, free among the provider's open pickup orders of either kind
 *   (chosen under a transaction lock of the provider, each table's partial unique index behind it), and a QR token of
 *   128 random bits;
 * - deliver and receive: the effects of each kind's actions (shoporderdeliver, zdorderdeliver; shoporderreceive,
 *   zdorderreceive), which the engine runs with their checks;
 * - pickup verification: pickupfind {code} and pickupverify {code, via} find the code among both kinds within the
 *   caller's points (a clerk's own, a provider's all); verifying is one conditional update (undelivered -> completed)
 *   and its pickup record in one transaction, so of clerks verifying one order at once exactly one succeeds, and the
 *   others are told who verified it and when. Codes not found are throttled per account and audited.
 *
 * The import of tracking numbers for both kinds is ./deliveryImport.ts, through the deliver actions.
 */
import { randomBytes, randomInt } from "node:crypto";
import { and, asc, eq, gte, inArray, isNotNull, lte, ne, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { ActionDecl, EntityDecl } from "../../../common/catalogue";
import { FULFILLABLE_ORDER_STATES, feeOrderDeliver, orderEntity } from "../../../catalogue/collectionOrders";
import { pickupFindOperation, pickupVerifyOperation } from "../../../catalogue/retail";
import { shopOrderDeliver, shopOrderEntity } from "../../../catalogue/shopOrders";
import { fenToYuan } from "../../../common/money";
import { accountActor, auditCall, writeAudit } from "../../auth/audit";
import { releaseAttempts, reserveAttempts, type ThrottleRule } from "../../auth/throttle";
import type { Db, DbOrTx } from "../../db/client";
import { feeOrderGoods, feeOrders, goods, goodsSkus, pickupPoints, pickupRecords, schools, shopOrderItems, shopOrders, students } from "../../db/schema";
import type { ActionEffects } from "../../engine/actions";
import { registerDeclared } from "../../engine/declared";
import { translator, type Language } from "../../lib/i18n";
import { ApiFailure } from "../../protocol/envelope";
import type { OperationContext, OperationRegistry } from "../../protocol/registry";
import { addOrderEvent } from "../collection/orderEvents";

export type OrderKind = "shop_order" | "fee_order";

/** What both kinds of orders share, as this module reads them. */
export interface FulfilledOrder {
  id: number;
  order_no: string;
  sysid: number;
  sch_id: number;
  student_id: number;
  amount: number;
  /** the order's fulfilment state (a fee order's `fulfil_status`, a shop order's `status`), or its payment's when unpaid or closed */
  state: string;
  /** "none", "part" or "all" of its money given back */
  refund_status: string;
  delivery: string | null;
  pickup_point_id: number | null;
  express_code: string | null;
  tracking_no: string | null;
}

/** A kind of order that carries goods, as fulfilment handles it. */
export interface FulfilledKind {
  kind: OrderKind;
  entity: EntityDecl;
  deliver: ActionDecl;
  /** the timeline's entity name (the audit's) */
  auditEntity: string;
  /** the translation key of a state's label */
  stateLabel(state: string): string;
  /** orders of this kind by a condition on their own columns (order numbers, a pickup code), as both kinds read them */
  select(db: DbOrTx, where: (t: KindColumns) => SQL | undefined): Promise<FulfilledOrder[]>;
  /** undelivered -> completed at one of the points, not refunded in full: the one conditional update of a pickup */
  complete(tx: DbOrTx, where: (t: KindColumns) => SQL | undefined, now: Date): Promise<FulfilledOrder | undefined>;
  /** the goods the order carries, as the clerk checks them */
  items(db: DbOrTx, orderId: number): Promise<{ title: string; spec_values: Record<string, string>; image: string | null; qty: number; amount: string | null }[]>;
}

/** The columns both tables name alike. */
export type KindColumns = Pick<typeof shopOrders, "id" | "order_no" | "sysid" | "sch_id" | "pickup_code" | "pickup_token" | "pickup_point_id" | "delivery"> | Pick<typeof feeOrders, "id" | "order_no" | "sysid" | "sch_id" | "pickup_code" | "pickup_token" | "pickup_point_id" | "delivery">;

function fromShop(o: typeof shopOrders.$inferSelect): FulfilledOrder {
  return { ...o, state: o.status };
}

/** A fee order's fulfilment state: its goods' once paid (and not refunded in full), else its payment's. */
export function feeFulfilState(o: Pick<typeof feeOrders.$inferSelect, "status" | "fulfil_status">): string {
  if (o.fulfil_status && (FULFILLABLE_ORDER_STATES as readonly string[]).includes(o.status)) return o.fulfil_status;
  if (o.fulfil_status === "delivered" || o.fulfil_status === "completed") return o.fulfil_status;
  return o.status;
}

function fromFee(o: typeof feeOrders.$inferSelect): FulfilledOrder {
  return {
    ...o,
    state: feeFulfilState(o),
    refund_status: o.status === "refunded" ? "all" : o.status === "part_refunded" ? "part" : "none",
  };
}

export const SHOP_KIND: FulfilledKind = {
  kind: "shop_order",
  entity: shopOrderEntity,
  deliver: shopOrderDeliver,
  auditEntity: "shoporder",
  stateLabel: (state) => `retail.order_status.${state}`,
  async select(db, where) {
    return (await db.select().from(shopOrders).where(where(shopOrders))).map(fromShop);
  },
  async complete(tx, where, now) {
    const [order] = await tx
      .update(shopOrders)
      .set({ status: "completed", completed_at: now })
      .where(and(where(shopOrders), eq(shopOrders.status, "undelivered"), ne(shopOrders.refund_status, "all")))
      .returning();
    return order && fromShop(order);
  },
  async items(db, orderId) {
    const rows = await db
      .select({ title: shopOrderItems.title, spec_values: shopOrderItems.spec_values, image: shopOrderItems.image, qty: shopOrderItems.qty, amount: shopOrderItems.amount })
      .from(shopOrderItems)
      .where(eq(shopOrderItems.order_id, orderId))
      .orderBy(asc(shopOrderItems.sort), asc(shopOrderItems.id));
    return rows.map((i) => ({ ...i, amount: fenToYuan(i.amount) }));
  },
};

export const FEE_ORDER_KIND: FulfilledKind = {
  kind: "fee_order",
  entity: orderEntity,
  deliver: feeOrderDeliver,
  auditEntity: "order",
  stateLabel: (state) => (["undelivered", "delivered", "completed"].includes(state) ? `retail.order_status.${state}` : `collection.order_status.${state}`),
  async select(db, where) {
    return (await db.select().from(feeOrders).where(where(feeOrders))).map(fromFee);
  },
  async complete(tx, where, now) {
    const [order] = await tx
      .update(feeOrders)
      .set({ fulfil_status: "completed", completed_at: now })
      .where(and(where(feeOrders), eq(feeOrders.fulfil_status, "undelivered"), inArray(feeOrders.status, [...FULFILLABLE_ORDER_STATES])))
      .returning();
    return order && fromFee(order);
  },
  async items(db, orderId) {
    const rows = await db
      .select({ title: feeOrderGoods.title, spec_values: feeOrderGoods.spec_values, image: feeOrderGoods.image, qty: feeOrderGoods.qty })
      .from(feeOrderGoods)
      .where(eq(feeOrderGoods.order_id, orderId))
      .orderBy(asc(feeOrderGoods.sort), asc(feeOrderGoods.id));
    // a fee order's goods are priced within its fees: no amount of their own
    return rows.map((i) => ({ ...i, amount: null }));
  },
};

export const FULFILLED_KINDS: readonly FulfilledKind[] = [SHOP_KIND, FEE_ORDER_KIND];

export function fulfilledKind(kind: OrderKind): FulfilledKind {
  return kind === "shop_order" ? SHOP_KIND : FEE_ORDER_KIND;
}

// ---------------------------------------------------------------------------------------------------------------
// what the payer chooses: how the goods reach them

const ID = z.union([z.number().int().positive().max(2_147_483_647), z.string().regex(/^\d{1,10}$/).transform(Number)]);

/** Where an express order is sent, as the payer page asks it. */
export const addressPayload = z.object({ name: z.string().trim().min(1).max(30), phone: z.string().trim().regex(/^1\d{10}$|^0\d{2,3}-?\d{7,8}$/), detail: z.string().trim().min(4).max(200) });

/** How a payer's order of goods reaches them: the payload fields both kinds' orders take. */
export const deliveryPayload = {
  delivery: z.enum(["pickup", "express"]),
  pickup_point_id: ID.optional(),
  address: addressPayload.optional(),
};

export type Address = z.infer<typeof addressPayload>;

/** A refusal naming the payload's field, in the caller's language. */
export function fieldRefusal(language: string | undefined, field: string, key: string, params: Record<string, string | number> = {}): ApiFailure {
  return new ApiFailure(key, params, { errors: [{ field, message: translator((language ?? "zh") as Language)(key, params) }] });
}

/** The enabled pickup points of the provider serving this school. */
export async function pickupPointsServing(db: DbOrTx, sysid: number, schId: number) {
  return db
    .select({ id: pickupPoints.id, title: pickupPoints.title, address: pickupPoints.address, phone: pickupPoints.phone, opening_hours: pickupPoints.opening_hours })
    .from(pickupPoints)
    .where(and(eq(pickupPoints.sysid, sysid), eq(pickupPoints.status, "1"), sql`${schId} = any(${pickupPoints.sch_ids})`))
    .orderBy(asc(pickupPoints.id));
}

/**
 * The fulfilment columns of a new order: a pickup at one of the points serving the school, or an express delivery to
 * an address; refused naming the field otherwise. `allowed` is what every goods item of the order allows.
 */
export async function chosenDelivery(
  db: DbOrTx,
  language: string | undefined,
  request: { sysid: number; schId: number; delivery?: "pickup" | "express"; pickupPointId?: number; address?: Address },
): Promise<{ delivery: "pickup" | "express"; pickup_point_id: number | null; receiver_name: string | null; receiver_phone: string | null; receiver_address: string | null }> {
  if (!request.delivery) throw fieldRefusal(language, "delivery", "retail.shop.delivery_required");
  if (request.delivery === "pickup") {
    const served = await pickupPointsServing(db, request.sysid, request.schId);
    if (!served.some((p) => p.id === request.pickupPointId)) throw fieldRefusal(language, "pickup_point_id", "retail.shop.point_unavailable");
    return { delivery: "pickup", pickup_point_id: request.pickupPointId!, receiver_name: null, receiver_phone: null, receiver_address: null };
  }
  if (!request.address) throw fieldRefusal(language, "address", "retail.shop.address_required");
  return { delivery: "express", pickup_point_id: null, receiver_name: request.address.name, receiver_phone: request.address.phone, receiver_address: request.address.detail };
}

// ---------------------------------------------------------------------------------------------------------------
// stock

/**
 * Takes `qty` of each SKU, in SKU order (two orders taking the same SKUs follow each other), each one conditional
 * update that never goes below zero. Answers the first SKU short of stock, or null when all were taken; the caller's
 * transaction is rolled back (or given back) on a shortage.
 */
export async function takeStock(tx: DbOrTx, lines: readonly { sku_id: number; goods_id: number; qty: number }[]): Promise<number | null> {
  for (const line of [...lines].sort((a, b) => a.sku_id - b.sku_id)) {
    const taken = await tx
      .update(goodsSkus)
      .set({ stock: sql`${goodsSkus.stock} - ${line.qty}` })
      .where(and(eq(goodsSkus.id, line.sku_id), gte(goodsSkus.stock, line.qty)))
      .returning({ id: goodsSkus.id });
    if (taken.length === 0) return line.sku_id;
    await tx.update(goods).set({ stock: sql`${goods.stock} - ${line.qty}`, sales: sql`${goods.sales} + ${line.qty}` }).where(eq(goods.id, line.goods_id));
  }
  return null;
}

/** Gives back what the lines took (those of SKUs below `beforeSku` only, when a late take stopped short there). */
export async function giveStockBack(tx: DbOrTx, lines: readonly { sku_id: number; goods_id: number; qty: number }[], beforeSku = Infinity): Promise<void> {
  for (const line of [...lines].sort((a, b) => a.sku_id - b.sku_id)) {
    if (line.sku_id >= beforeSku) break;
    await tx.update(goodsSkus).set({ stock: sql`${goodsSkus.stock} + ${line.qty}` }).where(eq(goodsSkus.id, line.sku_id));
    await tx.update(goods).set({ stock: sql`${goods.stock} + ${line.qty}`, sales: sql`greatest(${goods.sales} - ${line.qty}, 0)` }).where(eq(goods.id, line.goods_id));
  }
}

// ---------------------------------------------------------------------------------------------------------------
// pickup codes

/** tries at a pickup code free among the provider's open pickup orders (10^8 codes: a clash is rare) */
const PICKUP_CODE_TRIES = 5;
/** the first key of the transaction lock under which a provider's pickup codes are chosen */
const PICKUP_CODE_LOCK = 8_201_733;

/**
 * A pickup code free among the provider's open pickup orders of every kind, from a cryptographic generator, and a QR
 * token of 128 random bits. Chosen under a transaction lock of the provider (held to the caller's commit), so that
 * two payments of different kinds at once cannot take the same code; each table's partial unique index stands behind.
 */
export async function newPickupCode(tx: DbOrTx, sysid: number): Promise<{ pickup_code: string; pickup_token: string }> {
  await tx.execute(sql`select pg_advisory_xact_lock(${PICKUP_CODE_LOCK}, ${sysid})`);
  for (let i = 0; i < PICKUP_CODE_TRIES; i++) {
    const code = String(randomInt(0, 100_000_000)).padStart(8, "0");
    const [shop] = await tx
      .select({ id: shopOrders.id })
      .from(shopOrders)
      .where(and(eq(shopOrders.sysid, sysid), eq(shopOrders.pickup_code, code), eq(shopOrders.status, "undelivered")))
      .limit(1);
    if (shop) continue;
    const [fee] = await tx
      .select({ id: feeOrders.id })
      .from(feeOrders)
      .where(and(eq(feeOrders.sysid, sysid), eq(feeOrders.pickup_code, code), eq(feeOrders.fulfil_status, "undelivered")))
      .limit(1);
    if (!fee) return { pickup_code: code, pickup_token: randomBytes(16).toString("base64url") };
  }
  throw new Error(`no free pickup code for provider ${sysid} after ${PICKUP_CODE_TRIES} tries`);
}

// ---------------------------------------------------------------------------------------------------------------
// deliver and receive

/** The engine's fulfilment actions of both kinds: what each writes beside (or as) the state. */
export const fulfilmentEffects: ActionEffects = {
  shoporderdeliver: async ({ ctx, input }) => ({ changes: { express_code: input.express_code, tracking_no: input.tracking_no, delivered_at: ctx.now } }),
  shoporderreceive: async ({ ctx }) => ({ changes: { completed_at: ctx.now } }),
  // a fee order's state is its payment's: its goods' state is a column of its own, on its own timeline too
  zdorderdeliver: async ({ ctx, tx, row, input }) => {
    await addOrderEvent(tx, row as { id: number; sch_id: number; sysid: number }, "delivered", ctx.now, `${String(input.express_code)} ${String(input.tracking_no)}`);
    return { changes: { fulfil_status: "delivered", express_code: input.express_code, tracking_no: input.tracking_no, delivered_at: ctx.now } };
  },
  zdorderreceive: async ({ ctx, tx, row }) => {
    await addOrderEvent(tx, row as { id: number; sch_id: number; sysid: number }, "received", ctx.now);
    return { changes: { fulfil_status: "completed", completed_at: ctx.now } };
  },
};

/**
 * The fee orders whose goods were sent before `cutoff` and never said received: completed, conditionally (one received
 * or refunded meanwhile is left as it is), each on its timeline. Run by the job that completes the shop's
 * (retail.complete_delivered_orders), in its transaction.
 */
export async function completeDeliveredFeeOrders(tx: DbOrTx, cutoff: Date, now: Date, limit: number): Promise<number> {
  const due = tx
    .select({ id: feeOrders.id })
    .from(feeOrders)
    .where(and(eq(feeOrders.fulfil_status, "delivered"), lte(feeOrders.delivered_at, cutoff)))
    .orderBy(asc(feeOrders.delivered_at))
    .limit(limit);
  const completed = await tx
    .update(feeOrders)
    .set({ fulfil_status: "completed", completed_at: now })
    .where(and(inArray(feeOrders.id, due), eq(feeOrders.fulfil_status, "delivered")))
    .returning({ id: feeOrders.id, sch_id: feeOrders.sch_id, sysid: feeOrders.sysid });
  for (const order of completed) await addOrderEvent(tx, order, "received", now);
  return completed.length;
}

// ---------------------------------------------------------------------------------------------------------------
// pickup verification

/** Codes not found per account: a clerk mistypes now and then; guessing is stopped long before it could pay off. */
export const PICKUP_LOOKUP_PER_USER: ThrottleRule = { maxFailures: 10, windowMs: 10 * 60_000, firstLockMs: 10 * 60_000, maxLockMs: 60 * 60_000 };

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

/** The verifier's pickup orders with this code (the 8 digits a clerk types, else the QR code's token): of its provider, at its points. */
function verifiersOrders(t: KindColumns, verifier: Verifier, code: string): SQL {
  const points = verifier.points === null ? undefined : verifier.points.length > 0 ? inArray(t.pickup_point_id, [...verifier.points]) : sql`false`;
  const byCode = /^\d{8}$/.test(code) ? eq(t.pickup_code, code) : eq(t.pickup_token, code);
  return and(byCode, eq(t.sysid, verifier.sysid ?? -1), eq(t.delivery, "pickup"), isNotNull(t.pickup_point_id), points)!;
}

/**
 * Hands over the order the code names, of whichever kind, if it waits to be collected at the verifier's points: one
 * conditional update (undelivered -> completed) and its pickup record, in one transaction. Answers the order, or null.
 */
export async function handOver(db: Db, code: string, via: string, verifier: Verifier, now: Date, ip = ""): Promise<{ kind: FulfilledKind; order: FulfilledOrder } | null> {
  return db.transaction(async (tx) => {
    for (const kind of FULFILLED_KINDS) {
      const order = await kind.complete(tx, (t) => verifiersOrders(t, verifier, code), now);
      if (!order) continue;
      await tx.insert(pickupRecords).values({
        kind: kind.kind,
        order_id: kind.kind === "shop_order" ? order.id : null,
        fee_order_id: kind.kind === "fee_order" ? order.id : null,
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
      await writeAudit(tx, accountActor(verifier, ip), { action: "pickupverify", entity: kind.auditEntity, entityId: String(order.id), sysid: order.sysid, schId: order.sch_id, detail: { from: "undelivered", to: "completed", via, pickup_point_id: order.pickup_point_id! } });
      if (kind.kind === "fee_order") await addOrderEvent(tx, order, "collected", now, `${verifier.name || verifier.username}`.slice(0, 200));
      return { kind, order };
    }
    return null;
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
  await auditCall(ctx.db, ctx, { action: "pickup_not_found", entity: "pickuprec", sysid: ctx.auth!.sysid, schId: null, detail: { code: `${code.slice(0, 2)}…`, length: code.length } });
}

function recordOf(kind: FulfilledKind, orderId: number): SQL {
  return kind.kind === "shop_order" ? eq(pickupRecords.order_id, orderId) : eq(pickupRecords.fee_order_id, orderId);
}

/** The order as the clerk checks it before handing it over: who it is for, what it holds, paid, where. */
async function orderFacts(db: DbOrTx, kind: FulfilledKind, order: FulfilledOrder) {
  const [facts] = await db
    .select({ student: students.name, student_no: students.student_no, school: schools.title, point: pickupPoints.title })
    .from(students)
    .innerJoin(schools, eq(schools.id, order.sch_id))
    .leftJoin(pickupPoints, eq(pickupPoints.id, order.pickup_point_id ?? -1))
    .where(eq(students.id, order.student_id));
  const [record] = await db.select({ name: pickupRecords.verifier_name, at: pickupRecords.created_at }).from(pickupRecords).where(recordOf(kind, order.id));
  const paidAt = kind.kind === "shop_order" ? (await db.select({ at: shopOrders.paid_at }).from(shopOrders).where(eq(shopOrders.id, order.id)))[0]?.at : (await db.select({ at: feeOrders.paid_at }).from(feeOrders).where(eq(feeOrders.id, order.id)))[0]?.at;
  return {
    kind: kind.kind,
    id: order.id,
    order_no: order.order_no,
    status: order.state,
    refund_status: order.refund_status,
    amount: fenToYuan(order.amount),
    paid_at: paidAt?.toISOString() ?? null,
    student: { name: facts?.student ?? "", student_no: facts?.student_no ?? "" },
    school_title: facts?.school ?? "",
    pickup_point: facts?.point ?? "",
    items: await kind.items(db, order.id),
    verified: record ? { name: record.name, at: record.at.toISOString() } : null,
  };
}

/** The caller's order of either kind with this code that was paid (waiting, or collected already), or undefined. */
async function foundOrder(ctx: OperationContext, code: string): Promise<{ kind: FulfilledKind; order: FulfilledOrder } | undefined> {
  const verifier = verifierOf(ctx);
  for (const kind of FULFILLED_KINDS) {
    const [order] = (await kind.select(ctx.db, (t) => verifiersOrders(t, verifier, code))).filter((o) => o.state !== "unpaid" && o.state !== "closed");
    if (order) return { kind, order };
  }
  return undefined;
}

async function find(ctx: OperationContext, payload: { code: string }) {
  const key = await reserveLookup(ctx);
  const found = await foundOrder(ctx, payload.code);
  if (!found) {
    await auditMiss(ctx, payload.code);
    throw notFoundCode(ctx);
  }
  await releaseAttempts(ctx.db, [key]);
  return { data: { items: await orderFacts(ctx.db, found.kind, found.order) } };
}

async function verify(ctx: OperationContext, payload: { code: string; via: string }) {
  const key = await reserveLookup(ctx);
  const handed = await handOver(ctx.db, payload.code, payload.via, verifierOf(ctx), ctx.now, ctx.ip);
  if (handed) {
    await releaseAttempts(ctx.db, [key]);
    return { messageKey: "retail.pickup.verified", messageParams: { order_no: handed.order.order_no }, data: { items: await orderFacts(ctx.db, handed.kind, handed.order) } };
  }
  // not handed over: collected already (by whom, when), refunded, or no order of the caller's points
  const found = await foundOrder(ctx, payload.code);
  if (!found) {
    await auditMiss(ctx, payload.code);
    throw notFoundCode(ctx);
  }
  await releaseAttempts(ctx.db, [key]);
  const [record] = await ctx.db.select().from(pickupRecords).where(recordOf(found.kind, found.order.id));
  if (record) throw new ApiFailure("retail.pickup.already", { name: record.verifier_name, time: shownTime(record.created_at) });
  throw new ApiFailure("retail.pickup.refunded");
}

export function registerPickupOperations(registry: OperationRegistry): void {
  registerDeclared<{ code: string }>(registry, pickupFindOperation, find);
  registerDeclared<{ code: string; via: string }>(registry, pickupVerifyOperation, verify);
}
