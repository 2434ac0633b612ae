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
 *   with its pickup record, its audit entry (and a fee order's timeline entry) in one statement, so of clerks
 *   verifying one order at once exactly one succeeds, and the others are told who verified it and when. Codes not
 *   found are throttled per account and audited. Each is one statement over both kinds (the update with its record
 *   and the answer's facts, prepared by name; the look-up with them).
 *
 * The import of tracking numbers for both kinds is ./deliveryImport.ts, through the deliver actions.
 */
import { createHash, randomBytes, randomInt } from "node:crypto";
import { and, asc, eq, gte, inArray, isNotNull, lte, ne, sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { z } from "zod";
import type { ActionDecl, EntityDecl } from "../../../common/catalogue";
import { FULFILLABLE_ORDER_STATES, feeOrderDeliver, orderEntity } from "../../../catalogue/collectionOrders";
import { OPEN_AFTERSALE_STATES } from "../../../catalogue/afterSales";
import { pickupFindOperation, pickupVerifyOperation } from "../../../catalogue/retail";
import { shopOrderDeliver, shopOrderEntity } from "../../../catalogue/shopOrders";
import { fenToYuan } from "../../../common/money";
import { PROVINCE_CODES } from "../../../common/provinces";
import { accountActor, auditCall, auditInsert } from "../../auth/audit";
import { attemptGivenBack, releaseAttempts, reserveAttempts, type ThrottleRule } from "../../auth/throttle";
import type { DbOrTx } from "../../db/client";
import { aftersales, feeOrderGoods, feeOrders, goods, goodsSkus, pickupPoints, pickupRecords, schools, shopOrderItems, shopOrders, students, users } from "../../db/schema";
import type { ActionEffects } from "../../engine/actions";
import { registerDeclared } from "../../engine/declared";
import { translator, type Language } from "../../lib/i18n";
import { ApiFailure } from "../../protocol/envelope";
import type { OperationContext, OperationRegistry } from "../../protocol/registry";
import { addOrderEvent, orderEventInsert } from "../collection/orderEvents";

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
  /** its orders' table */
  table: typeof shopOrders | typeof feeOrders;
  /** its orders waiting to be handed over (the condition of the partial index of their pickup codes) */
  waiting: SQL;
  /** its columns as the pickup statements read an order of either kind (PickupRow), of a row of its own table */
  pickupColumns: SQL;
  /** a PickupRow's state and refund, as FulfilledOrder names them */
  pickupState(row: Pick<PickupRow, "status" | "fulfil_status" | "refund_status">): Pick<FulfilledOrder, "state" | "refund_status">;
  /** undelivered -> completed at one of the points, not refunded in full: the one conditional update of a pickup, returning its PickupRow */
  complete(where: (t: KindColumns) => SQL | undefined, now: Date): SQL;
  /** the goods the pickup row `o` carries, as the clerk checks them: a JSON array (amounts in fen) */
  items: SQL;
  /** the pickup record's column naming an order of this kind */
  recordColumn: "order_id" | "fee_order_id";
}

/** An order of either kind as the pickup statements read it (each kind's pickupColumns), with its answer's facts. */
interface PickupRow extends Record<string, unknown> {
  kind: OrderKind;
  id: number;
  order_no: string;
  sysid: number;
  sch_id: number;
  /** bigint: a string or a number as the driver reads it */
  amount: number | string;
  status: string;
  /** a fee order's; null for a shop order */
  fulfil_status: string | null;
  /** a shop order's; null for a fee order */
  refund_status: string | null;
  pickup_point_id: number | null;
  paid_at: Date | string | null;
  student: string | null;
  student_no: string | null;
  school: string | null;
  point: string | null;
  items: { title: string; spec_values: Record<string, string>; image: string | null; qty: number; amount?: number }[];
  verifier_name: string | null;
  verified_at: Date | string | null;
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

/** A fee order's money given back, as a shop order's refund_status names it. */
function feeRefundStatus(status: string): string {
  return status === "refunded" ? "all" : status === "part_refunded" ? "part" : "none";
}

function fromFee(o: typeof feeOrders.$inferSelect): FulfilledOrder {
  return { ...o, state: feeFulfilState(o), refund_status: feeRefundStatus(o.status) };
}

/** an instant as a statement's parameter, the same on both databases' drivers */
const instant = (at: Date) => sql`${at.toISOString()}::timestamptz`;

/** a shop order none of whose items' after-sales is open: one being returned or refunded is not handed over meanwhile */
const noOpenAfterSale = sql`not exists (select from ${aftersales} where ${aftersales.order_id} = ${shopOrders.id} and ${aftersales.status} in (${sql.raw(OPEN_AFTERSALE_STATES.map(literal).join(", "))}))`;

/** The open after-sale of a shop order, if any: its pickup waits for it. */
async function openAfterSaleOf(db: DbOrTx, orderId: number): Promise<{ aftersale_no: string } | undefined> {
  const [open] = await db
    .select({ aftersale_no: aftersales.aftersale_no })
    .from(aftersales)
    .where(and(eq(aftersales.order_id, orderId), inArray(aftersales.status, [...OPEN_AFTERSALE_STATES])))
    .orderBy(asc(aftersales.id))
    .limit(1);
  return open;
}

export const SHOP_KIND: FulfilledKind = {
  kind: "shop_order",
  entity: shopOrderEntity,
  deliver: shopOrderDeliver,
  auditEntity: "shoporder",
  table: shopOrders,
  // written into the statement's text: a prepared statement's generic plan matches it to the partial index
  waiting: sql`${shopOrders.status} = 'undelivered'`,
  stateLabel: (state) => `retail.order_status.${state}`,
  async select(db, where) {
    return (await db.select().from(shopOrders).where(where(shopOrders))).map(fromShop);
  },
  pickupColumns: sql`'shop_order' as kind, id, order_no, sysid, sch_id, student_id, amount, status, null::varchar as fulfil_status, refund_status, pickup_point_id, paid_at`,
  pickupState: (row) => ({ state: row.status, refund_status: row.refund_status ?? "none" }),
  complete(where, now) {
    return sql`update ${shopOrders} set status = 'completed', completed_at = ${instant(now)}
      where ${and(where(shopOrders), SHOP_KIND.waiting, ne(shopOrders.refund_status, "all"), noOpenAfterSale)}
      returning ${SHOP_KIND.pickupColumns}`;
  },
  items: sql`(select coalesce(json_agg(json_build_object('title', i.title, 'spec_values', i.spec_values, 'image', i.image, 'qty', i.qty, 'amount', i.amount) order by i.sort, i.id), '[]')
    from ${shopOrderItems} i where i.order_id = o.id)`,
  recordColumn: "order_id",
};

export const FEE_ORDER_KIND: FulfilledKind = {
  kind: "fee_order",
  entity: orderEntity,
  deliver: feeOrderDeliver,
  auditEntity: "order",
  table: feeOrders,
  waiting: sql`${feeOrders.fulfil_status} = 'undelivered'`,
  stateLabel: (state) => (["undelivered", "delivered", "completed"].includes(state) ? `retail.order_status.${state}` : `collection.order_status.${state}`),
  async select(db, where) {
    return (await db.select().from(feeOrders).where(where(feeOrders))).map(fromFee);
  },
  pickupColumns: sql`'fee_order' as kind, id, order_no, sysid, sch_id, student_id, amount, status, fulfil_status, null::varchar as refund_status, pickup_point_id, paid_at`,
  pickupState: (row) => ({ state: feeFulfilState({ status: row.status, fulfil_status: row.fulfil_status }), refund_status: feeRefundStatus(row.status) }),
  complete(where, now) {
    return sql`update ${feeOrders} set fulfil_status = 'completed', completed_at = ${instant(now)}
      where ${and(where(feeOrders), FEE_ORDER_KIND.waiting, inArray(feeOrders.status, [...FULFILLABLE_ORDER_STATES]))}
      returning ${FEE_ORDER_KIND.pickupColumns}`;
  },
  // a fee order's goods are priced within its fees: no amount of their own
  items: sql`(select coalesce(json_agg(json_build_object('title', g.title, 'spec_values', g.spec_values, 'image', g.image, 'qty', g.qty) order by g.sort, g.id), '[]')
    from ${feeOrderGoods} g where g.order_id = o.id)`,
  recordColumn: "fee_order_id",
};

export const FULFILLED_KINDS: readonly FulfilledKind[] = [SHOP_KIND, FEE_ORDER_KIND];

export function fulfilledKind(kind: OrderKind): FulfilledKind {
  return kind === "shop_order" ? SHOP_KIND : FEE_ORDER_KIND;
}

// ---------------------------------------------------------------------------------------------------------------
// what the payer chooses: how the goods reach them

const ID = z.union([z.number().int().positive().max(2_147_483_647), z.string().regex(/^\d{1,10}$/).transform(Number)]);

/** Where an express order is sent, as the payer page asks it. */
export const addressPayload = z.object({
  name: z.string().trim().min(1).max(30),
  phone: z.string().trim().regex(/^1\d{10}$|^0\d{2,3}-?\d{7,8}$/),
  // what the shop's express templates charge by (a fee order's goods cost nothing to send: it may go without)
  province: z.enum(PROVINCE_CODES).optional(),
  detail: z.string().trim().min(4).max(200),
});

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
): Promise<{
  delivery: "pickup" | "express";
  pickup_point_id: number | null;
  receiver_name: string | null;
  receiver_phone: string | null;
  receiver_province: string | null;
  receiver_address: string | null;
}> {
  if (!request.delivery) throw fieldRefusal(language, "delivery", "retail.shop.delivery_required");
  if (request.delivery === "pickup") {
    const served = await pickupPointsServing(db, request.sysid, request.schId);
    if (!served.some((p) => p.id === request.pickupPointId)) throw fieldRefusal(language, "pickup_point_id", "retail.shop.point_unavailable");
    return { delivery: "pickup", pickup_point_id: request.pickupPointId!, receiver_name: null, receiver_phone: null, receiver_province: null, receiver_address: null };
  }
  if (!request.address) throw fieldRefusal(language, "address", "retail.shop.address_required");
  const { name, phone, province, detail } = request.address;
  return { delivery: "express", pickup_point_id: null, receiver_name: name, receiver_phone: phone, receiver_province: province ?? null, receiver_address: detail };
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
  // the points as one value: the statement's text is the same whatever their number (handOverStatement)
  const points = verifier.points === null ? undefined : sql`${t.pickup_point_id} = any(${sql.param([...verifier.points])}::integer[])`;
  const byCode = /^\d{8}$/.test(code) ? eq(t.pickup_code, code) : eq(t.pickup_token, code);
  return and(byCode, eq(t.sysid, verifier.sysid ?? -1), eq(t.delivery, "pickup"), isNotNull(t.pickup_point_id), points)!;
}

/**
 * The answer's facts of the pickup rows `o`: whom each order is for, its school and point, and what it holds (joined
 * on the left: an order answers whatever of these is gone).
 */
const PICKUP_FACTS = sql`s.name as student, s.student_no, sc.title as school, p.title as point,
  case o.kind ${sql.join(FULFILLED_KINDS.map((k) => sql`when ${k.kind} then ${k.items}`), sql` `)} end as items`;
const PICKUP_FACT_JOINS = sql`left join ${students} s on s.id = o.student_id left join ${schools} sc on sc.id = o.sch_id left join ${pickupPoints} p on p.id = o.pickup_point_id`;

/** The order of a pickup row as the clerk checks it before handing it over (and after): who it is for, what it holds, paid, where. */
function pickupFacts(row: PickupRow) {
  const { state, refund_status } = fulfilledKind(row.kind).pickupState(row);
  return {
    kind: row.kind,
    id: row.id,
    order_no: row.order_no,
    status: state,
    refund_status,
    amount: fenToYuan(BigInt(row.amount)),
    paid_at: row.paid_at === null ? null : new Date(row.paid_at).toISOString(),
    student: { name: row.student ?? "", student_no: row.student_no ?? "" },
    school_title: row.school ?? "",
    pickup_point: row.point ?? "",
    items: row.items.map((i) => ({ title: i.title, spec_values: i.spec_values, image: i.image, qty: i.qty, amount: i.amount === undefined ? null : fenToYuan(i.amount) })),
    verified: row.verifier_name !== null && row.verified_at !== null ? { name: row.verifier_name, at: new Date(row.verified_at).toISOString() } : null,
  };
}

type PickupFacts = ReturnType<typeof pickupFacts>;

/**
 * Hands over the order the code names, of whichever kind, if it waits to be collected at the verifier's points: one
 * statement, so all of it or nothing (handOverStatement). Answers the order's facts, or null. `reserved`: the
 * verifier's look-up reserved on the throttle under this key, given back once handed over.
 */
export async function handOver(db: DbOrTx, code: string, via: string, verifier: Verifier, now: Date, ip = "", reserved?: string): Promise<PickupFacts | null> {
  const [row] = await preparedRows<PickupRow>(db, "pickup_handover", handOverStatement(code, via, verifier, now, ip, reserved));
  return row ? pickupFacts(row) : null;
}

/**
 * The hand-over as one statement: each kind's conditional update (undelivered -> completed) in turn, a later kind's
 * only when no earlier one handed over (the answer is of one order); from what it returns, the order's pickup record
 * (with the verifier's phone as its account has it now), the audit entry (audit.ts's auditInsert: the row writeAudit
 * would write) and a fee order's timeline entry; the look-up's reservation given back, and the answer's facts read. A
 * round trip to the database under load costs more than the work of all of them; a statement is all or nothing, so
 * no transaction is opened around it, and of verifiers handing one order over at once, the conditional update lets
 * exactly one through. Its text depends on the shape of the call only (whether a code or a QR token, a clerk's
 * points or a provider's all, a reservation), every value bound: the same few statements, prepared by name.
 */
function handOverStatement(code: string, via: string, verifier: Verifier, now: Date, ip: string, reserved: string | undefined): SQL {
  const name = (verifier.name || verifier.username).slice(0, 50);
  const updates = FULFILLED_KINDS.map((kind, i) => {
    const noEarlier = FULFILLED_KINDS.slice(0, i).map((k) => sql`not exists (select from ${sql.identifier(k.kind)})`);
    return sql`${sql.identifier(kind.kind)} as (${kind.complete((t) => and(verifiersOrders(t, verifier, code), ...noEarlier), now)})`;
  });
  const handed = sql.join(FULFILLED_KINDS.map((k) => sql`select * from ${sql.identifier(k.kind)}`), sql` union all `);
  const recordColumns = sql.join(FULFILLED_KINDS.map((k) => sql.identifier(k.recordColumn)), sql`, `);
  const recordIds = sql.join(FULFILLED_KINDS.map((k) => sql`case when kind = ${sql.raw(literal(k.kind))} then id end`), sql`, `);
  const audited = auditInsert(
    accountActor(verifier, ip),
    {
      action: "pickupverify",
      entity: sql`case o.kind ${sql.join(FULFILLED_KINDS.map((k) => sql`when ${sql.raw(literal(k.kind))} then ${sql.raw(literal(k.auditEntity))}`), sql` `)} end`,
      entityId: sql`o.id`,
      sysid: sql`o.sysid`,
      schId: sql`o.sch_id`,
      detail: { from: "undelivered", to: "completed", via, pickup_point_id: sql`o.pickup_point_id` },
    },
    sql`handed o`,
  );
  const collected = orderEventInsert(sql`select id, sch_id, sysid from handed where kind = ${sql.raw(literal(FEE_ORDER_KIND.kind))}`, "collected", now, `${verifier.name || verifier.username}`.slice(0, 200));
  const givenBack = reserved ? sql`, given_back as (${attemptGivenBack(reserved, sql`exists (select from handed)`)})` : sql``;
  return sql`with ${sql.join(updates, sql`, `)}, handed as (${handed}),
    recorded as (
      insert into ${pickupRecords} (kind, ${recordColumns}, order_no, pickup_point_id, sch_id, sysid, student_id, amount, verifier_id, verifier_name, verifier_phone, via, created_at)
      select kind, ${recordIds}, order_no, pickup_point_id, sch_id, sysid, student_id, amount, ${verifier.userId}::integer, ${name}::varchar,
        (select ${users.phone} from ${users} where ${users.id} = ${verifier.userId}::integer), ${via}::varchar, ${instant(now)} from handed
    ),
    audited as (${audited}),
    collected as (${collected})${givenBack}
    select o.*, ${PICKUP_FACTS}, ${name}::varchar as verifier_name, ${instant(now)} as verified_at from handed o ${PICKUP_FACT_JOINS}`;
}

/** a word of our own (a kind's name, an entity's) written into a statement's text */
function literal(word: string): string {
  if (!/^[a-z_]+$/.test(word)) throw new Error(`not a word to write into a statement: ${word}`);
  return `'${word}'`;
}

const dialect = new PgDialect();

/**
 * The rows of a statement prepared by name: `{what}_{digest of its text}`, as crud.ts names a list's statements (a
 * statement of each shape its own). node-postgres keeps it on each connection of the pool, where it is parsed once
 * and, past its first runs, planned once (a generic plan: every value bound, nothing in the text to plan for);
 * PGlite keeps it by its text (pgliteStatements.ts). On a transaction, on the transaction's connection.
 */
async function preparedRows<T extends Record<string, unknown>>(db: DbOrTx, what: string, statement: SQL): Promise<T[]> {
  const query = dialect.sqlToQuery(statement);
  const name = `${what}_${createHash("sha1").update(query.sql).digest("hex").slice(0, 16)}`;
  const result = (await db._.session.prepareQuery(query, undefined, name, false).execute()) as { rows: T[] };
  return result.rows;
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

/**
 * The caller's order of either kind with this code that was paid (waiting, or collected already), with its facts and
 * its pickup record, or undefined: one statement over both kinds. A code is free again once its order is collected:
 * the order waiting for it is the one (found by the index of waiting orders' codes), else the last paid with it (by
 * the index of codes in every state). Prepared by name, as the hand-over is.
 */
async function foundOrder(ctx: OperationContext, code: string): Promise<PickupRow | undefined> {
  const verifier = verifierOf(ctx);
  const withCode = (k: FulfilledKind, which: SQL) =>
    sql`select ${k.pickupColumns}, r.verifier_name, r.verified_at from ${k.table}
        left join lateral (select verifier_name, created_at as verified_at from ${pickupRecords} where ${eq(pickupRecords[k.recordColumn], k.table.id)}) r on true
        where ${and(verifiersOrders(k.table, verifier, code), which)}`;
  const waiting = sql.join(FULFILLED_KINDS.map((k) => withCode(k, k.waiting)), sql` union all `);
  const others = sql.join(FULFILLED_KINDS.map((k) => withCode(k, sql`(${k.waiting}) is not true and not exists (select from waiting)`)), sql` union all `);
  const rows = await preparedRows<PickupRow>(
    ctx.db,
    "pickup_found",
    sql`with waiting as (${waiting})
        select o.*, ${PICKUP_FACTS} from (select * from waiting union all ${others}) o ${PICKUP_FACT_JOINS}
        order by o.paid_at desc nulls last`,
  );
  return rows.find((row) => !["unpaid", "closed"].includes(fulfilledKind(row.kind).pickupState(row).state));
}

async function find(ctx: OperationContext, payload: { code: string }) {
  const key = await reserveLookup(ctx);
  const found = await foundOrder(ctx, payload.code);
  if (!found) {
    await auditMiss(ctx, payload.code);
    throw notFoundCode(ctx);
  }
  await releaseAttempts(ctx.db, [key]);
  return { data: { items: pickupFacts(found) } };
}

async function verify(ctx: OperationContext, payload: { code: string; via: string }) {
  const key = await reserveLookup(ctx);
  const handed = await handOver(ctx.db, payload.code, payload.via, verifierOf(ctx), ctx.now, ctx.ip, key);
  if (handed) return { messageKey: "retail.pickup.verified", messageParams: { order_no: handed.order_no }, data: { items: handed } };
  // not handed over: collected already (by whom, when), refunded, or no order of the caller's points
  const found = await foundOrder(ctx, payload.code);
  if (!found) {
    await auditMiss(ctx, payload.code);
    throw notFoundCode(ctx);
  }
  await releaseAttempts(ctx.db, [key]);
  if (found.verifier_name !== null && found.verified_at !== null) throw new ApiFailure("retail.pickup.already", { name: found.verifier_name, time: shownTime(new Date(found.verified_at)) });
  const open = found.kind === "shop_order" ? await openAfterSaleOf(ctx.db, found.id) : undefined;
  if (open) throw new ApiFailure("retail.pickup.aftersale_open", { aftersale_no: open.aftersale_no });
  throw new ApiFailure("retail.pickup.refunded");
}

export function registerPickupOperations(registry: OperationRegistry): void {
  registerDeclared<{ code: string }>(registry, pickupFindOperation, find);
  registerDeclared<{ code: string; via: string }>(registry, pickupVerifyOperation, verify);
}
