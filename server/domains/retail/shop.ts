/**
 * The school shop on the payer page (/h5/{code}), on /weapi/h5api without a session: the goods the code's school may
 * buy (h5goodslist, h5goodsinfo), its pickup points (h5pickuppoints), and, with the ticket of a student found by
 * h5find, orders of goods (h5shoporder: paid like h5pay, kind shop_order), the student's orders (h5shoporders,
 * h5shoporderinfo: the pickup code and QR token once paid) and cancelling an unpaid one (h5shopordercancel). A ticket
 * reaches its own student's orders only; anything else is not found.
 */
import { and, asc, desc, eq, inArray, or, sql } from "drizzle-orm";
import { z } from "zod";
import { fenToYuan } from "../../../common/money";
import { PROVINCE_CODES, provinceNameKey } from "../../../common/provinces";
import { payerActor, writeAudit } from "../../auth/audit";
import { releaseAttempts } from "../../auth/throttle";
import type { DbOrTx } from "../../db/client";
import { goods, goodsCategories, goodsSkus, paymentOrders, pickupPoints, shopOrderItems, shopOrders } from "../../db/schema";
import { closeUnpaidOrder, unpaidOrderColumns } from "../../jobs/closeExpiredOrders";
import { askGatewayIfDue } from "../../payments/checkpay";
import { createPaymentOrder, polledOrder, type ChannelPayee, type CreatedPaymentOrder, type OrderContext } from "../../payments/orders";
import { translator, type Language } from "../../lib/i18n";
import { ApiFailure, notFound } from "../../protocol/envelope";
import type { OperationContext, OperationRegistry } from "../../protocol/registry";
import { schoolChannel } from "../fees";
import { orderAnswer, PAYER_API_PATH, qrCodeOf, reserveOrderMade } from "../collection/payerApi";
import { ticketKey, ticketOf } from "../collection/payerTickets";
import { freightOf, loadFreightTemplates, type FreightLine } from "./freight";
import { chosenDelivery, deliveryPayload, pickupPointsServing, type Address } from "./fulfilment";
import { SHOP_ORDER_KIND, takeStock } from "./shopOrders";
import { homePage } from "./shopPages";
import { openAt, shopFace, shopSettings } from "./shopSettings";
import { codesOfItems } from "./traceSources";
import { shopContact } from "./customerService";

/** the most lines of one order, and of one SKU in it */
const MAX_ORDER_LINES = 20;
const MAX_QTY = 99;
/** a shop order's payment title is at most this many characters (WeChat Pay's description: 127 bytes) */
const DESCRIPTION_CHARS = 30;
/** the payer's orders answered, newest first */
const MAX_PAYER_ORDERS = 50;

const CODE = z.string().trim().min(1).max(64);
const TICKET = z.string().max(100);
const ID = z.union([z.number().int().positive().max(2_147_483_647), z.string().regex(/^\d{1,10}$/).transform(Number)]);

const goodsListPayload = z.object({ code: CODE, cate_id: ID.optional() });
const goodsInfoPayload = z.object({ code: CODE, id: ID });
const pointsPayload = z.object({ code: CODE });
const orderPayload = z.object({
  ticket: TICKET,
  items: z.array(z.object({ sku_id: ID, qty: z.number().int().min(1).max(MAX_QTY) })).min(1).max(MAX_ORDER_LINES),
  // how the goods reach the payer, as every order of goods asks it
  ...deliveryPayload,
});
const freightPayload = z.object({ code: CODE, items: orderPayload.shape.items, province: z.enum(PROVINCE_CODES).optional() });
const ticketPayload = z.object({ ticket: TICKET });
const ticketOrderPayload = z.object({ ticket: TICKET, id: ID });

/** The goods a school's payers may buy: on sale, sold to all the provider's schools or to this one. */
function sellableAt(sysid: number, schId: number) {
  return and(eq(goods.sysid, sysid), eq(goods.status, "on"), or(eq(goods.sch_scope, "all"), sql`${schId} = any(${goods.sch_ids})`));
}

async function schoolOfCode(db: DbOrTx, code: string) {
  const qr = await qrCodeOf(db, code);
  if (!qr) throw new ApiFailure("collection.payer.code_unknown");
  return qr;
}

async function goodsList(ctx: OperationContext, payload: z.infer<typeof goodsListPayload>) {
  const qr = await schoolOfCode(ctx.db, payload.code);
  const [settings, face, home, contact] = await Promise.all([shopSettings(ctx.db, qr.sysid), shopFace(ctx.db, qr.sysid, ctx.now), homePage(ctx.db, qr.sysid, qr.sch_id), shopContact(ctx.db, qr.sysid)]);
  // the shop as its parents see it: a closed one shows nothing for sale (its service phone and "contact us" stay)
  const shop = { open: openAt(settings, qr.sch_id), pickup: settings.pickup, express: settings.express, service_phone: settings.servicePhone, contact, ...face, home };
  if (!shop.open) return { data: { items: { categories: [], goods: [], shop: { ...shop, home: null } } } };
  const items = await ctx.db
    .select({ id: goods.id, title: goods.title, cate_id: goods.cate_id, images: goods.images, price: goods.price, stock: goods.stock, delivery: goods.delivery })
    .from(goods)
    .where(and(sellableAt(qr.sysid, qr.sch_id), payload.cate_id === undefined ? undefined : or(eq(goods.cate_id, payload.cate_id), sql`${goods.cate_id} in (select id from ${goodsCategories} where parent_id = ${payload.cate_id})`)))
    .orderBy(asc(goods.sort), desc(goods.id))
    .limit(200);
  const categories = await ctx.db
    .select({ id: goodsCategories.id, title: goodsCategories.title, parent_id: goodsCategories.parent_id })
    .from(goodsCategories)
    .where(and(eq(goodsCategories.sysid, qr.sysid), eq(goodsCategories.status, "1")))
    .orderBy(asc(goodsCategories.sort), asc(goodsCategories.id));
  return {
    data: {
      items: {
        categories,
        // a goods item shows its first image in the list
        goods: items.map(({ images, price, ...g }) => ({ ...g, image: images?.[0] ?? null, price: fenToYuan(price ?? 0) })),
        shop,
      },
    },
  };
}

async function goodsInfo(ctx: OperationContext, payload: z.infer<typeof goodsInfoPayload>) {
  const qr = await schoolOfCode(ctx.db, payload.code);
  const [item] = await ctx.db.select().from(goods).where(and(eq(goods.id, payload.id), sellableAt(qr.sysid, qr.sch_id)));
  if (!item) throw notFound();
  const skus = await ctx.db
    .select({ id: goodsSkus.id, spec_values: goodsSkus.spec_values, price: goodsSkus.price, stock: goodsSkus.stock, image: goodsSkus.image })
    .from(goodsSkus)
    .where(eq(goodsSkus.goods_id, item.id))
    .orderBy(asc(goodsSkus.sort), asc(goodsSkus.id));
  return {
    data: {
      items: {
        id: item.id,
        title: item.title,
        images: item.images ?? [],
        description: item.description ?? "",
        spec_names: item.spec_names,
        delivery: item.delivery,
        price: fenToYuan(item.price ?? 0),
        skus: skus.map((s) => ({ ...s, price: fenToYuan(s.price) })),
      },
    },
  };
}

/** The enabled pickup points of the provider serving this school (shared with the fee orders carrying goods). */
const pointsOf = pickupPointsServing;

async function points(ctx: OperationContext, payload: z.infer<typeof pointsPayload>) {
  const qr = await schoolOfCode(ctx.db, payload.code);
  return { data: { items: await pointsOf(ctx.db, qr.sysid, qr.sch_id) } };
}

const specsText = (specs: Record<string, string>) =>
  Object.entries(specs)
    .map(([name, value]) => `${name} ${value}`)
    .join(" · ");

export interface NewShopOrder {
  sysid: number;
  schId: number;
  studentId: number;
  items: readonly { sku_id: number; qty: number }[];
  delivery: "pickup" | "express";
  pickupPointId?: number;
  address?: Address;
  /** the payer's ticket key (its open orders), and where the order came from */
  payerKey?: string;
  ip?: string;
}

/** A refusal naming the payload's field, in the caller's language. */
function refused(ctx: OrderContext, field: string, key: string, params: Record<string, string | number> = {}): ApiFailure {
  return new ApiFailure(key, params, { errors: [{ field, message: translator((ctx.language ?? "zh") as Language)(key, params) }] });
}

/**
 * The freight of lines sent by express to `province` (fen): nothing for goods without a template; refused naming the
 * address's province when one is needed and missing, or when a template covers it by no rule.
 */
async function freightFor(ctx: OrderContext, lines: readonly FreightLine[], province: string | null): Promise<number> {
  const templateIds = lines.flatMap((l) => (l.templateId === null ? [] : [l.templateId]));
  if (templateIds.length === 0) return 0;
  if (!province) throw refused(ctx, "address.province", "retail.shop.province_required");
  const charged = freightOf(lines, await loadFreightTemplates(ctx.db, templateIds), province);
  if ("uncovered" in charged) {
    const t = translator((ctx.language ?? "zh") as Language);
    throw refused(ctx, "address.province", "retail.shop.not_sent_to", { title: charged.uncovered.title, province: t(provinceNameKey(province)) });
  }
  return charged.freight;
}

/**
 * An order of a student for SKUs the school may buy, delivered as each goods item allows, to one of the school's
 * pickup points or by express to an address; its stock is taken in the transaction that records it, and a SKU short
 * of stock refuses the order, naming it and what is left. The payer page's h5shoporder and the demo seed make
 * orders here.
 */
export async function createShopOrder(ctx: OrderContext, request: NewShopOrder): Promise<{ payment: CreatedPaymentOrder; orderId: number }> {
  // one line per SKU: the same SKU twice is its quantities together
  const wanted = new Map<number, number>();
  for (const line of request.items) wanted.set(line.sku_id, (wanted.get(line.sku_id) ?? 0) + line.qty);
  if (wanted.size === 0) throw refused(ctx, "items", "retail.shop.no_items");
  const skus = await ctx.db
    .select({ sku: goodsSkus, title: goods.title, delivery: goods.delivery, images: goods.images, templateId: goods.express_tpl_id })
    .from(goodsSkus)
    .innerJoin(goods, eq(goods.id, goodsSkus.goods_id))
    .where(and(inArray(goodsSkus.id, [...wanted.keys()]), sellableAt(request.sysid, request.schId)));
  if (skus.length !== wanted.size) throw refused(ctx, "items", "retail.shop.not_on_sale", { title: "" });
  for (const { title, delivery } of skus) {
    if (delivery !== "both" && delivery !== request.delivery) throw refused(ctx, "delivery", "retail.shop.delivery_unavailable", { title });
  }
  // the provider's shop: open, and the way chosen one it offers
  const shop = await shopSettings(ctx.db, request.sysid);
  if (!openAt(shop, request.schId)) throw refused(ctx, "items", "retail.shop.closed");
  if (!shop[request.delivery]) throw refused(ctx, "delivery", "retail.shop.delivery_off");
  const fulfilment = await chosenDelivery(ctx.db, ctx.language, request);
  const lines = skus.map(({ sku, title, images }, sort) => {
    const qty = wanted.get(sku.id)!;
    return { sort, goods_id: sku.goods_id, sku_id: sku.id, title, spec_values: sku.spec_values, image: sku.image ?? images?.[0] ?? null, price: sku.price, qty, amount: sku.price * qty };
  });
  const shortOf = (skuId: number) => {
    const { sku, title } = skus.find((s) => s.sku.id === skuId)!;
    return refused(ctx, "items", "retail.shop.sold_out", { title, specs: specsText(sku.spec_values), stock: sku.stock });
  };
  // sold out as read: refused before anything is made (the conditional update below is what holds)
  const short = lines.find((l) => skus.find((s) => s.sku.id === l.sku_id)!.sku.stock < l.qty);
  if (short) throw shortOf(short.sku_id);
  const freight =
    fulfilment.delivery === "express"
      ? await freightFor(
          ctx,
          skus.map(({ sku, title, templateId }) => ({ title, templateId, qty: wanted.get(sku.id)!, weight: sku.weight, amount: sku.price * wanted.get(sku.id)! })),
          fulfilment.receiver_province,
        )
      : 0;
  const channel = await schoolChannel(ctx.db, request.schId);
  if (!channel) throw new ApiFailure("collection.payer.no_channel");
  const total = lines.reduce((sum, l) => sum + l.amount, 0) + freight;
  let orderId = 0;
  const payment = await createPaymentOrder(
    ctx,
    {
      kind: SHOP_ORDER_KIND,
      sysid: request.sysid,
      schId: request.schId,
      mealId: null,
      title: lines[0].title.slice(0, DESCRIPTION_CHARS),
      termMonths: 0,
      totalFeeFen: total,
      channel: { gateway: channel.gateway, subMchid: channel.sub_mchid } satisfies ChannelPayee,
      payableMs: shop.unpaidMinutes * 60_000,
      items: lines.map((l) => l.title),
    },
    async (tx, row) => {
      const shortSku = await takeStock(tx, lines);
      if (shortSku !== null) throw shortOf(shortSku);
      const [created] = await tx
        .insert(shopOrders)
        .values({
          order_no: row.orderid,
          pay_no: row.payNo,
          sysid: request.sysid,
          sch_id: request.schId,
          student_id: request.studentId,
          amount: total,
          freight,
          status: "unpaid",
          ...fulfilment,
          gateway: row.gateway,
          created_at: row.createdAt,
        })
        .returning({ id: shopOrders.id });
      orderId = created.id;
      await tx.insert(shopOrderItems).values(lines.map((l) => ({ ...l, order_id: created.id, sysid: request.sysid, sch_id: request.schId })));
      if (request.payerKey) await tx.update(paymentOrders).set({ payerKey: request.payerKey }).where(eq(paymentOrders.payNo, row.payNo));
      await writeAudit(tx, payerActor(request.ip ?? ""), { action: "shop_order_created", entity: "shoporder", entityId: String(created.id), sysid: request.sysid, schId: request.schId, detail: { to: "unpaid", amount: fenToYuan(total) } });
    },
  );
  return { payment, orderId };
}

/**
 * h5shopfreight: what sending these SKUs to a province costs, as h5shoporder would charge it, for the checkout to show
 * before the order is made; SKUs the school cannot buy are refused as the order refuses them.
 */
async function freightQuote(ctx: OperationContext, payload: z.infer<typeof freightPayload>) {
  const qr = await schoolOfCode(ctx.db, payload.code);
  const wanted = new Map<number, number>();
  for (const line of payload.items) wanted.set(line.sku_id, (wanted.get(line.sku_id) ?? 0) + line.qty);
  const skus = await ctx.db
    .select({ id: goodsSkus.id, price: goodsSkus.price, weight: goodsSkus.weight, title: goods.title, templateId: goods.express_tpl_id })
    .from(goodsSkus)
    .innerJoin(goods, eq(goods.id, goodsSkus.goods_id))
    .where(and(inArray(goodsSkus.id, [...wanted.keys()]), sellableAt(qr.sysid, qr.sch_id)));
  if (skus.length !== wanted.size) throw refused(ctx, "items", "retail.shop.not_on_sale", { title: "" });
  const lines = skus.map((sku) => ({ title: sku.title, templateId: sku.templateId, qty: wanted.get(sku.id)!, weight: sku.weight, amount: sku.price * wanted.get(sku.id)! }));
  const goodsAmount = lines.reduce((sum, l) => sum + l.amount, 0);
  const freight = await freightFor(ctx, lines, payload.province ?? null);
  return { data: { items: { goods_amount: fenToYuan(goodsAmount), freight: fenToYuan(freight), amount: fenToYuan(goodsAmount + freight) } } };
}

/** h5shoporder: an order of the ticket's student (createShopOrder), paid like h5pay; throttled per ticket and address. */
async function order(ctx: OperationContext, payload: z.infer<typeof orderPayload>) {
  const ticket = await ticketOf(ctx.db, payload.ticket, ctx.now);
  const payerKey = ticketKey(payload.ticket);
  const made = await reserveOrderMade(ctx, payerKey);
  try {
    const { payment, orderId } = await createShopOrder(ctx, {
      sysid: ticket.sysid,
      schId: ticket.schId,
      studentId: ticket.studentId,
      items: payload.items,
      delivery: payload.delivery,
      pickupPointId: payload.pickup_point_id,
      address: payload.address,
      payerKey,
      ip: ctx.ip,
    });
    const answer = orderAnswer(payment);
    return { data: { items: { ...answer.data.items, id: orderId, order_no: payment.orderid } } };
  } catch (err) {
    // a refused order counts against nobody
    await releaseAttempts(ctx.db, made);
    throw err;
  }
}

/** The ticket's student's shop order with this id; not found for anyone else's. */
async function ticketShopOrder(db: DbOrTx, ticket: { studentId: number; schId: number }, id: number) {
  const [found] = await db.select().from(shopOrders).where(and(eq(shopOrders.id, id), eq(shopOrders.student_id, ticket.studentId), eq(shopOrders.sch_id, ticket.schId)));
  if (!found) throw notFound();
  return found;
}

type ShopOrderRow = typeof shopOrders.$inferSelect;

async function answerOrders(db: DbOrTx, orders: ShopOrderRow[], withSecrets: boolean) {
  const ids = orders.map((o) => o.id);
  const items = ids.length === 0 ? [] : await db.select().from(shopOrderItems).where(inArray(shopOrderItems.order_id, ids)).orderBy(asc(shopOrderItems.sort), asc(shopOrderItems.id));
  const pointIds = [...new Set(orders.map((o) => o.pickup_point_id).filter((id): id is number => id !== null))];
  const pointsById = new Map((pointIds.length === 0 ? [] : await db.select({ id: pickupPoints.id, title: pickupPoints.title, address: pickupPoints.address }).from(pickupPoints).where(inArray(pickupPoints.id, pointIds))).map((p) => [p.id, p]));
  // the garments' trace-source codes bound to each item (at packing or at pickup)
  const codes = await codesOfItems(db, items.map((i) => i.id));
  return orders.map((o) => {
    // the code and its QR token are the payer's while the order waits to be collected
    const collectable = withSecrets && o.delivery === "pickup" && o.status === "undelivered";
    return {
      id: o.id,
      order_no: o.order_no,
      pay_no: o.pay_no,
      status: o.status,
      refund_status: o.refund_status,
      amount: fenToYuan(o.amount),
      freight: fenToYuan(o.freight),
      refunded_amount: fenToYuan(o.refunded_amount),
      delivery: o.delivery,
      pickup_point: o.pickup_point_id === null ? null : (pointsById.get(o.pickup_point_id) ?? null),
      express_code: o.express_code,
      tracking_no: o.tracking_no,
      created_at: o.created_at.toISOString(),
      paid_at: o.paid_at?.toISOString() ?? null,
      items: items.filter((i) => i.order_id === o.id).map((i) => ({ id: i.id, title: i.title, spec_values: i.spec_values, image: i.image, price: fenToYuan(i.price), qty: i.qty, amount: fenToYuan(i.amount), trace_codes: codes.get(i.id) ?? [] })),
      ...(withSecrets ? { pickup_code: collectable ? o.pickup_code : null, pickup_token: collectable ? o.pickup_token : null } : {}),
    };
  });
}

async function payerOrders(ctx: OperationContext, payload: z.infer<typeof ticketPayload>) {
  const ticket = await ticketOf(ctx.db, payload.ticket, ctx.now);
  const orders = await ctx.db
    .select()
    .from(shopOrders)
    .where(and(eq(shopOrders.student_id, ticket.studentId), eq(shopOrders.sch_id, ticket.schId)))
    .orderBy(desc(shopOrders.id))
    .limit(MAX_PAYER_ORDERS);
  return { data: { items: await answerOrders(ctx.db, orders, false) } };
}

/**
 * h5shoporderinfo, which the payer page also polls while the order is being paid: an order still unpaid has its
 * gateway asked now and then (askGatewayIfDue, as h5checkpay does), so a payment whose notification was lost is
 * applied while the payer waits.
 */
async function payerOrder(ctx: OperationContext, payload: z.infer<typeof ticketOrderPayload>) {
  const ticket = await ticketOf(ctx.db, payload.ticket, ctx.now);
  let found = await ticketShopOrder(ctx.db, ticket, payload.id);
  if (found.status === "unpaid") {
    const payment = await polledOrder(ctx.db, found.pay_no);
    if (payment && (await askGatewayIfDue(ctx, payment)).status === "SUCCESS") found = await ticketShopOrder(ctx.db, ticket, payload.id);
  }
  const [answered] = await answerOrders(ctx.db, [found], true);
  return { data: { items: answered } };
}

/** h5shopordercancel: an unpaid order closed at its gateway and here (its stock given back); a paid one is refused. */
async function cancel(ctx: OperationContext, payload: z.infer<typeof ticketOrderPayload>) {
  const ticket = await ticketOf(ctx.db, payload.ticket, ctx.now);
  const found = await ticketShopOrder(ctx.db, ticket, payload.id);
  if (found.status !== "unpaid") throw new ApiFailure("retail.shop.not_cancellable");
  const [payment] = await ctx.db.select(unpaidOrderColumns).from(paymentOrders).where(eq(paymentOrders.payNo, found.pay_no));
  // the gateway is asked first: an order the payer paid meanwhile is applied, never closed
  await closeUnpaidOrder(ctx.services, ctx.db, payment, payerActor(ctx.ip));
  const [answered] = await answerOrders(ctx.db, [await ticketShopOrder(ctx.db, ticket, payload.id)], true);
  if (answered.status === "unpaid") throw new ApiFailure("retail.shop.not_cancellable");
  return { data: { items: answered } };
}

export function registerShopApi(registry: OperationRegistry): void {
  registry.add({ path: PAYER_API_PATH, method: "h5goodslist", needsToken: false, schema: goodsListPayload, handler: goodsList });
  registry.add({ path: PAYER_API_PATH, method: "h5goodsinfo", needsToken: false, schema: goodsInfoPayload, handler: goodsInfo });
  registry.add({ path: PAYER_API_PATH, method: "h5pickuppoints", needsToken: false, schema: pointsPayload, handler: points });
  registry.add({ path: PAYER_API_PATH, method: "h5shopfreight", needsToken: false, schema: freightPayload, handler: freightQuote });
  registry.add({ path: PAYER_API_PATH, method: "h5shoporder", needsToken: false, schema: orderPayload, handler: order });
  registry.add({ path: PAYER_API_PATH, method: "h5shoporders", needsToken: false, schema: ticketPayload, handler: payerOrders });
  registry.add({ path: PAYER_API_PATH, method: "h5shoporderinfo", needsToken: false, schema: ticketOrderPayload, handler: payerOrder });
  registry.add({ path: PAYER_API_PATH, method: "h5shopordercancel", needsToken: false, schema: ticketOrderPayload, handler: cancel });
}
