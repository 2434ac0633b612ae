/**
 * The payer API on /weapi/h5api, without a session (docs/architecture.md, "Fee payments and the payer API"): the
 * payer page of a channel QR code (`/h5/{code}`) reads the school and its open activities (h5entry), finds a student
 * (h5find: a ticket bound to that student), pays bills (h5pay), polls the payment (h5checkpay) and reads the
 * e-receipt (h5receipt). Inside WeChat, the page first trades WeChat's OAuth code for a token of the payer's openid
 * (h5oauth, payerWechat.ts), and h5pay then orders by JSAPI for WeChat's own payment sheet. Nothing of another student is ever answered: a ticket reaches its own student's bills and
 * orders only, anything else is not found. h5find is throttled per client address and per student looked up (never
 * per code: wrong guesses from a few addresses must not lock a school's payers out), and answers every miss (unknown
 * code, name or number) with one neutral message after the same queries. h5pay answers the bills asked again with
 * their open order, keeps a few open orders per bill at most, and is throttled per ticket and per address.
 */
import { and, asc, eq, getTableColumns, gt, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { classesEntity, gradeEntity } from "../../../catalogue/schools";
import { fenToYuan } from "../../../common/money";
import { BUSY_MS, failedLately, recordFailures, releaseAttempts, reserveAttempts, type ThrottleKey, type ThrottleRule } from "../../auth/throttle";
import type { Db, DbOrTx } from "../../db/client";
import { activities, bills, classes, feeOrderGoods, feeOrderLines, feeOrders, goodsSkus, grades, payerTickets, paymentOrders, pickupPoints, qrChannels, schools, students } from "../../db/schema";
import { askGatewayIfDue } from "../../payments/checkpay";
import { PAY_NO_PATTERN } from "../../payments/gateway";
import { openidOfCode, WechatOAuthError } from "../../payments/wechatpay/oauth";
import { polledColumns } from "../../payments/orders";
import { recordTitleSql } from "../../engine/references";
import { ApiFailure, notFound } from "../../protocol/envelope";
import type { OperationContext, OperationRegistry } from "../../protocol/registry";
import { collectionSettings } from "../fees";
import { itemsOfBills } from "./billItems";
import { createFeeOrder, goodsItemsOf, MAX_BILLS_PER_ORDER } from "./feeOrders";
import { deliveryPayload, feeFulfilState } from "../retail/fulfilment";
import { actionsOfActivities, checkAnswers, earlierAnswers, formForPage, formsOfActivities, storeAnswers } from "./forms";
import { issueTicket, ticketExpired, ticketHashOf, ticketKey, ticketOf, type PayerTicket } from "./payerTickets";
import { issueWechatIdToken, jsapiAppOfSchool, WECHAT_ID_HOURS, wechatIdOf } from "./payerWechat";

export const PAYER_API_PATH = "h5api";

/** Wrong lookups per client address: generous, since many phones share an address (mobile carriers' NAT). */
export const PAYER_LOOKUP_PER_IP: ThrottleRule = { maxFailures: 20, windowMs: 60_000, firstLockMs: 60_000, maxLockMs: 15 * 60_000 };
/** Wrong lookups of one student (a name at a school) from one address: a payer mistypes a few times, no more. */
export const PAYER_LOOKUP_PER_ADDRESS_AND_STUDENT: ThrottleRule = { maxFailures: 5, windowMs: 10 * 60_000, firstLockMs: 10 * 60_000, maxLockMs: 60 * 60_000 };
/**
 * Wrong lookups of one student from every address (guessing a number from many addresses). Its lock holds back
 * only the addresses that missed this student lately: one that has not (the real payer's phone) is still checked,
 * so that nobody's wrong guesses lock the real payer out.
 */
export const PAYER_LOOKUP_PER_STUDENT: ThrottleRule = { maxFailures: 20, windowMs: 60 * 60_000, firstLockMs: 60 * 60_000, maxLockMs: 24 * 3600_000 };
/** Orders made per ticket: a payer asking for the same bills again gets their open order, which is not counted. */
export const PAYER_ORDERS_PER_TICKET: ThrottleRule = { maxFailures: 5, windowMs: 10 * 60_000, firstLockMs: 10 * 60_000, maxLockMs: 60 * 60_000 };
/** Orders made per client address: generous, a school's parents may share one carrier address. */
export const PAYER_ORDERS_PER_IP: ThrottleRule = { maxFailures: 60, windowMs: 60_000, firstLockMs: 60_000, maxLockMs: 15 * 60_000 };
/**
 * One order made at a time per student: what the open orders of its bills are is read and acted on by one request
 * at a time, so that requests at once cannot each find room; one cut short by a crash holds no longer than the window.
 */
const ONE_ORDER_AT_A_TIME: ThrottleRule = { maxFailures: 1, windowMs: 30_000, firstLockMs: BUSY_MS, maxLockMs: BUSY_MS };
/** the most orders open at once for one bill (each QR code shown to a payer is one) */
export const MAX_OPEN_ORDERS_PER_BILL = 3;
/** an open order is answered again only while this much of its time is left to pay it */
const REUSED_ORDER_MIN_LEFT_MS = 10 * 60_000;

/** a student's class as the console names it, with its grade ("三年级 1班"), over `classes` and its joined `grades` */
const classTitle = sql<string>`${recordTitleSql(classesEntity, classes, { entity: gradeEntity, table: grades })}`;

const CODE = z.string().trim().min(1).max(64);
const TICKET = z.string().max(100);
const PAY_NO = z.string().regex(PAY_NO_PATTERN);
const ID = z.union([z.number().int().positive().max(2_147_483_647), z.string().regex(/^\d{1,10}$/).transform(Number)]);

const entryPayload = z.object({ code: CODE });
const findPayload = z.object({
  code: CODE,
  name: z.string().trim().min(1).max(50),
  student_no: z.string().trim().max(32).optional(),
  phone4: z.string().trim().max(4).optional(),
});
/** an answer to a question of a bill's activity form: a text, a choice, or the options of a multiple choice */
const ANSWER = z.object({ question_id: ID, value: z.union([z.string().max(1000), z.array(z.string().max(100)).max(20), z.null()]).optional() });
const payPayload = z.object({
  ticket: TICKET,
  bill_ids: z.array(ID).min(1).max(MAX_BILLS_PER_ORDER),
  /** the bills' goods items (a uniform): the size (SKU) chosen of each, and how they reach the payer */
  goods: z.array(z.object({ item_id: ID, sku_id: ID })).max(20).optional(),
  delivery: deliveryPayload.delivery.optional(),
  pickup_point_id: deliveryPayload.pickup_point_id,
  address: deliveryPayload.address,
  answers: z.array(ANSWER).max(100).optional(),
  /** h5oauth's token of the payer's openid, inside WeChat: a JSAPI order */
  wx_token: TICKET.optional(),
});
const oauthPayload = z.object({ code: CODE, oauth_code: z.string().trim().min(1).max(128) });
const orderPayload = z.object({ ticket: TICKET, pay_no: PAY_NO });

/** A name as the payer page shows it: its first and last characters, the rest starred (张*三, 李*). */
export function maskName(name: string): string {
  const chars = [...name.trim()];
  if (chars.length <= 1) return chars.join("");
  if (chars.length === 2) return `${chars[0]}*`;
  return `${chars[0]}${"*".repeat(chars.length - 2)}${chars[chars.length - 1]}`;
}

interface QrCodeRow {
  id: number;
  sch_id: number;
  sysid: number;
  activity_id: number | null;
}

/** The QR code in use with this code, or undefined. */
export async function qrCodeOf(db: DbOrTx, code: string): Promise<QrCodeRow | undefined> {
  const [row] = await db
    .select({ id: qrChannels.id, sch_id: qrChannels.sch_id, sysid: qrChannels.sysid, activity_id: qrChannels.activity_id })
    .from(qrChannels)
    .where(and(eq(qrChannels.code, code), eq(qrChannels.status, "1")));
  return row;
}

/** The open activities a QR code offers: its own activity (when open), else every open activity of its school. */
async function openActivities(db: DbOrTx, qr: Pick<QrCodeRow, "sch_id" | "activity_id">) {
  return db
    .select({ id: activities.id, title: activities.title, end_date: activities.end_date })
    .from(activities)
    .where(and(eq(activities.sch_id, qr.sch_id), eq(activities.status, "open"), ...(qr.activity_id ? [eq(activities.id, qr.activity_id)] : [])))
    .orderBy(asc(activities.end_date), asc(activities.id));
}

/** The student's bills of the code's open activities, with the items each covers and its activity's form (if any). */
async function billsOf(db: DbOrTx, studentId: number, qr: Pick<QrCodeRow, "sch_id" | "sysid" | "activity_id">, t: (key: string) => string) {
  const open = await openActivities(db, qr);
  if (open.length === 0) return [];
  const rows = await db
    .select({ id: bills.id, activity_id: bills.activity_id, amount: bills.amount, status: bills.status })
    .from(bills)
    .where(and(eq(bills.student_id, studentId), eq(bills.sch_id, qr.sch_id), inArray(bills.activity_id, open.map((a) => a.id))))
    .orderBy(asc(bills.id));
  const activityIds = [...new Set(rows.map((r) => r.activity_id))];
  // an imported bill covers the student's own items, any other its activity's required fixed items
  const items = await itemsOfBills(db, rows.map((b) => ({ ...b, amount: Number(b.amount) })), t("collection.payer.adjustment"));
  const forms = await formsOfActivities(db, qr.sysid, activityIds);
  const earlier = forms.size > 0 ? await earlierAnswers(db, rows.filter((r) => forms.has(r.activity_id)).map((r) => r.id)) : new Map<number, Map<string, string>>();
  const titles = new Map(open.map((a) => [a.id, a.title]));
  const goodsByActivity = await goodsChoices(db, activityIds);
  return rows.map((b) => {
    const form = forms.get(b.activity_id);
    return {
      id: b.id,
      activity_id: b.activity_id,
      activity_title: titles.get(b.activity_id) ?? "",
      items: items.get(b.id) ?? [],
      amount: fenToYuan(Number(b.amount)),
      status: b.status,
      // what the payer answers before paying, with what this payer answered before
      form: form ? formForPage(form, earlier.get(b.id)) : null,
      // the goods it carries (a uniform): the payer chooses a size of each, and how to receive them, before paying
      goods: goodsByActivity.get(b.activity_id) ?? [],
    };
  });
}

/** The goods items of each activity, with their sizes (SKUs) and what is left of each. */
async function goodsChoices(db: DbOrTx, activityIds: readonly number[]) {
  const items = await goodsItemsOf(db, activityIds);
  const out = new Map<number, { item_id: number; title: string; goods_id: number; goods_title: string; image: string | null; delivery: string; skus: { id: number; spec_values: Record<string, string>; stock: number }[] }[]>();
  if (items.length === 0) return out;
  const skus = await db
    .select({ id: goodsSkus.id, goods_id: goodsSkus.goods_id, spec_values: goodsSkus.spec_values, stock: goodsSkus.stock })
    .from(goodsSkus)
    .where(inArray(goodsSkus.goods_id, [...new Set(items.map((i) => i.goods_id))]))
    .orderBy(asc(goodsSkus.sort), asc(goodsSkus.id));
  for (const item of items) {
    const list = out.get(item.activity_id) ?? [];
    list.push({
      item_id: item.item_id,
      title: item.title,
      goods_id: item.goods_id,
      goods_title: item.goods_title,
      image: item.images?.[0] ?? null,
      delivery: item.delivery,
      skus: skus.filter((s) => s.goods_id === item.goods_id).map(({ goods_id: _g, ...sku }) => sku),
    });
    out.set(item.activity_id, list);
  }
  return out;
}

/** What a paid order's goods are and how they reach the payer: the pickup code and QR token while they wait to be collected. */
async function fulfilmentOf(db: DbOrTx, order: typeof feeOrders.$inferSelect) {
  if (!order.delivery) return null;
  const goodsRows = await db
    .select({ title: feeOrderGoods.title, spec_values: feeOrderGoods.spec_values, image: feeOrderGoods.image, qty: feeOrderGoods.qty })
    .from(feeOrderGoods)
    .where(eq(feeOrderGoods.order_id, order.id))
    .orderBy(asc(feeOrderGoods.sort), asc(feeOrderGoods.id));
  const [point] = order.pickup_point_id === null ? [] : await db.select({ title: pickupPoints.title, address: pickupPoints.address }).from(pickupPoints).where(eq(pickupPoints.id, order.pickup_point_id));
  const state = feeFulfilState(order);
  const collectable = order.delivery === "pickup" && state === "undelivered";
  return {
    delivery: order.delivery,
    status: state,
    goods: goodsRows,
    pickup_point: point ?? null,
    pickup_code: collectable ? order.pickup_code : null,
    pickup_token: collectable ? order.pickup_token : null,
    express_code: order.express_code,
    tracking_no: order.tracking_no,
  };
}

async function entry(ctx: OperationContext, payload: z.infer<typeof entryPayload>) {
  const qr = await qrCodeOf(ctx.db, payload.code);
  if (!qr) throw new ApiFailure("collection.payer.code_unknown");
  const [school] = await ctx.db.select({ title: schools.title, status: schools.status }).from(schools).where(eq(schools.id, qr.sch_id));
  if (!school) throw new ApiFailure("collection.payer.code_unknown");
  const settings = await collectionSettings(ctx.db, qr.sysid);
  const open = await openActivities(ctx.db, qr);
  const wechatApp = await jsapiAppOfSchool(ctx.services, qr.sch_id);
  return {
    data: {
      items: {
        school_title: school.title,
        activities: open.map((a) => ({ id: a.id, title: a.title, end_date: a.end_date })),
        lookup: settings.payerLookup,
        // inside WeChat the page signs the payer in here first (silently), to pay on WeChat's own payment sheet
        wechat_oauth: wechatApp ? { appid: wechatApp.appid, authorize_url: ctx.services.wechatOAuth.authorizeUrl } : null,
      },
    },
  };
}

/**
 * Reserves an order made by a payer, per address and per ticket (a fee order or a shop order alike); the caller gives
 * the keys back when none is made. Throws while either is locked out.
 */
export async function reserveOrderMade(ctx: OperationContext, payerKey: string): Promise<string[]> {
  const made: ThrottleKey[] = [
    { key: `h5pay:ip:${ctx.ip}`, rule: PAYER_ORDERS_PER_IP },
    { key: `h5pay:ticket:${payerKey}`, rule: PAYER_ORDERS_PER_TICKET },
  ];
  const lockedMs = await reserveAttempts(ctx.db, made, ctx.now);
  if (lockedMs > 0) throw throttled(lockedMs);
  return made.map((k) => k.key);
}

function throttled(lockedMs: number): ApiFailure {
  return new ApiFailure("collection.payer.throttled", { minutes: Math.max(1, Math.ceil(lockedMs / 60_000)) });
}

/**
 * Reserves a lookup: per address, per address and student, and per student unless this address has not missed the
 * student lately (then the student's lock does not hold it back). Answers the keys reserved, or throws throttled.
 */
async function reserveLookup(ctx: OperationContext, schId: number | null, name: string): Promise<ThrottleKey[]> {
  // a student is a name at a school: all of the school's codes lead to it; the unknown codes share one school "?"
  const student = `h5find:student:${schId ?? "?"}:${name}`;
  const byAddress: ThrottleKey[] = [
    { key: `h5find:ip:${ctx.ip}`, rule: PAYER_LOOKUP_PER_IP },
    { key: `${student}:ip:${ctx.ip}`, rule: PAYER_LOOKUP_PER_ADDRESS_AND_STUDENT },
  ];
  const missedBefore = await failedLately(ctx.db, byAddress[1].key, byAddress[1].rule, ctx.now);
  const lockedMs = await reserveAttempts(ctx.db, byAddress, ctx.now);
  if (lockedMs > 0) throw throttled(lockedMs);
  const byStudent: ThrottleKey = { key: student, rule: PAYER_LOOKUP_PER_STUDENT };
  const studentLockedMs = await reserveAttempts(ctx.db, [byStudent], ctx.now);
  if (studentLockedMs === 0) return [...byAddress, byStudent];
  if (!missedBefore) return byAddress;
  await releaseAttempts(ctx.db, byAddress.map((k) => k.key));
  throw throttled(studentLockedMs);
}

/**
 * h5find: the student of the code's school with this name and student number (or guardian phone's last four digits,
 * as the provider's payer_lookup says). Throttled per address and per student looked up (reserveLookup); every miss
 * answers the same message after the same queries, whether the code, the name or the number was wrong.
 */
async function find(ctx: OperationContext, payload: z.infer<typeof findPayload>) {
  const qr = await qrCodeOf(ctx.db, payload.code);
  const keys = await reserveLookup(ctx, qr?.sch_id ?? null, payload.name);
  const settings = await collectionSettings(ctx.db, qr?.sysid ?? 0);
  const byPhone = settings.payerLookup === "name_and_phone4";
  const secret = (byPhone ? payload.phone4 : payload.student_no) ?? "";
  const matches = await ctx.db
    .select({ id: students.id, name: students.name, sysid: students.sysid, class_title: classTitle })
    .from(students)
    .innerJoin(classes, eq(classes.id, students.class_id))
    .leftJoin(grades, eq(grades.id, classes.grade_id))
    .where(
      and(
        eq(students.sch_id, qr?.sch_id ?? -1),
        eq(students.name, payload.name),
        eq(students.status, "1"),
        byPhone ? sql`right(${students.guardian_phone}, 4) = ${secret}` : eq(students.student_no, secret),
      ),
    )
    .limit(2);
  // nothing found, two found (the same name and phone digits), or nothing given: one answer for every miss
  if (!qr || matches.length !== 1 || secret === "") {
    await recordFailures(ctx.db, keys, ctx.now);
    throw new ApiFailure("collection.payer.not_found");
  }
  // a lookup that found its student is given back: only misses count
  await releaseAttempts(ctx.db, keys.map((k) => k.key));
  const student = matches[0];
  const ticket = await issueTicket(ctx.db, { studentId: student.id, schId: qr.sch_id, sysid: qr.sysid, qrchnlId: qr.id }, ctx.now);
  return {
    data: {
      items: {
        ticket,
        student: { name: maskName(student.name), class_title: student.class_title },
        bills: await billsOf(ctx.db, student.id, qr, ctx.t),
      },
    },
  };
}

/**
 * h5oauth: the openid of the payer WeChat's OAuth redirect brought back with `oauth_code`, kept server-side behind a
 * token the page passes to h5pay. Failed exchanges count against the address, as lookups do.
 */
async function oauth(ctx: OperationContext, payload: z.infer<typeof oauthPayload>) {
  const qr = await qrCodeOf(ctx.db, payload.code);
  if (!qr) throw new ApiFailure("collection.payer.code_unknown");
  const app = await jsapiAppOfSchool(ctx.services, qr.sch_id);
  if (!app) throw new ApiFailure("collection.payer.wechat_unavailable");
  const keys: ThrottleKey[] = [{ key: `h5oauth:ip:${ctx.ip}`, rule: PAYER_LOOKUP_PER_IP }];
  const lockedMs = await reserveAttempts(ctx.db, keys, ctx.now);
  if (lockedMs > 0) throw throttled(lockedMs);
  let openid: string;
  try {
    openid = await openidOfCode(ctx.services.wechatOAuth, app, payload.oauth_code);
  } catch (err) {
    if (!(err instanceof WechatOAuthError)) throw err;
    ctx.log.warn({ errcode: err.errcode, message: err.message }, "exchanging a payer's WeChat OAuth code failed");
    await recordFailures(ctx.db, keys, ctx.now);
    throw new ApiFailure("collection.payer.wechat_auth_failed");
  }
  await releaseAttempts(ctx.db, keys.map((k) => k.key));
  const token = await issueWechatIdToken(ctx.db, { appid: app.appid, openid }, ctx.now);
  return { data: { items: { wx_token: token, expires_in: WECHAT_ID_HOURS * 3600 } } };
}

/** The student's orders still payable, with their bills and what the payer page needs to show one again. */
async function openOrdersOf(db: DbOrTx, ticket: PayerTicket, now: Date) {
  const lines = await db
    .select({
      id: feeOrders.id,
      bill_id: feeOrderLines.bill_id,
      pay_no: paymentOrders.payNo,
      orderid: paymentOrders.orderid,
      total_fen: paymentOrders.totalFeeFen,
      code_url: paymentOrders.codeUrl,
      gateway: paymentOrders.gateway,
      expires_at: paymentOrders.expiresAt,
      payer_key: paymentOrders.payerKey,
    })
    .from(feeOrders)
    .innerJoin(paymentOrders, eq(paymentOrders.payNo, feeOrders.pay_no))
    .innerJoin(feeOrderLines, eq(feeOrderLines.order_id, feeOrders.id))
    .where(
      and(
        eq(feeOrders.student_id, ticket.studentId),
        eq(feeOrders.sch_id, ticket.schId),
        eq(feeOrders.status, "unpaid"),
        inArray(paymentOrders.status, ["NOTPAY", "USERPAYING"]),
        gt(paymentOrders.expiresAt, now),
      ),
    );
  const orders = new Map<number, Omit<(typeof lines)[number], "bill_id"> & { bills: number[] }>();
  for (const { bill_id, ...order } of lines) {
    const known = orders.get(order.id) ?? { ...order, bills: [] };
    known.bills.push(bill_id);
    orders.set(order.id, known);
  }
  return [...orders.values()];
}

/** What h5pay answers of an order, new or asked for again. */
export function orderAnswer(order: { orderid: string; payNo: string; totalFeeFen: number; gateway: string; codeUrl: string; payParams?: unknown }) {
  return {
    data: {
      items: {
        orderid: order.orderid,
        pay_no: order.payNo,
        total_fee: fenToYuan(order.totalFeeFen),
        // JSAPI: what WeChat's JS bridge takes to show its payment sheet; else the QR code's content
        trade_type: order.payParams ? "JSAPI" : "NATIVE",
        payparam: order.payParams ?? { code_url: order.codeUrl },
        // a test payment: the payer page says so plainly
        sandbox: order.gateway === "sandbox",
      },
    },
  };
}

/**
 * h5pay: an order for the ticket's student's bills. The same bills asked again with the same ticket, while the
 * order made for them can still be paid a while, answer that order (by QR code: a JSAPI order's payment sheet cannot
 * be shown twice); a bill with MAX_OPEN_ORDERS_PER_BILL open orders gets no more; orders made are throttled per
 * ticket and per address, and one is made at a time per student.
 */
async function pay(ctx: OperationContext, payload: z.infer<typeof payPayload>) {
  const ticket = await ticketOf(ctx.db, payload.ticket, ctx.now);
  // the answers to the forms of the bills' activities are checked before the order is made
  const chosen = await ctx.db
    .select({ id: bills.id, activity_id: bills.activity_id, class_id: bills.class_id, amount: bills.amount, activity_title: activities.title })
    .from(bills)
    .innerJoin(activities, eq(activities.id, bills.activity_id))
    .where(and(inArray(bills.id, payload.bill_ids), eq(bills.student_id, ticket.studentId), eq(bills.sch_id, ticket.schId)));
  const forms = await formsOfActivities(ctx.db, ticket.sysid, [...new Set(chosen.map((b) => b.activity_id))]);
  const answers = checkAnswers(ctx, forms, payload.answers ?? []);
  // an unknown or expired token leaves the payer a QR code to pay by
  const payer = await wechatIdOf(ctx.db, payload.wx_token, ctx.now);
  const payerKey = ticketKey(payload.ticket);

  const made = await reserveOrderMade(ctx, payerKey);
  const oneAtATime = `h5pay:student:${ticket.studentId}`;
  if ((await reserveAttempts(ctx.db, [{ key: oneAtATime, rule: ONE_ORDER_AT_A_TIME }], ctx.now)) > 0) {
    await releaseAttempts(ctx.db, made);
    throw new ApiFailure("api.payer_order_in_progress");
  }
  // an order made counts against the ticket and the address; anything else gives its attempt back
  let madeOne = false;
  try {
    const wanted = [...new Set(payload.bill_ids)].sort((a, b) => a - b);
    const owed = chosen.reduce((sum, b) => sum + Number(b.amount), 0);
    const open = await openOrdersOf(ctx.db, ticket, ctx.now);
    // bills carrying goods make a new order each time: its sizes and delivery are chosen anew
    const carriesGoods = (await goodsItemsOf(ctx.db, [...new Set(chosen.map((b) => b.activity_id))])).length > 0;
    const again = payer || carriesGoods
      ? undefined
      : open.find(
          (o) =>
            o.payer_key === payerKey &&
            o.code_url !== "" &&
            o.total_fen === owed &&
            o.expires_at.getTime() - ctx.now.getTime() >= REUSED_ORDER_MIN_LEFT_MS &&
            o.bills.length === wanted.length &&
            [...o.bills].sort((a, b) => a - b).every((id, i) => id === wanted[i]),
        );
    if (again) {
      await storeAnswers(ctx.db, { sysid: ticket.sysid, schId: ticket.schId, studentId: ticket.studentId, orderId: again.id, at: ctx.now }, chosen, forms, answers);
      return orderAnswer({ orderid: again.orderid, payNo: again.pay_no, totalFeeFen: again.total_fen, gateway: again.gateway, codeUrl: again.code_url });
    }
    const full = chosen.filter((b) => open.filter((o) => o.bills.includes(b.id)).length >= MAX_OPEN_ORDERS_PER_BILL);
    if (full.length > 0) {
      const items = new Intl.ListFormat(ctx.language, { type: "conjunction" }).format([...new Set(full.map((b) => b.activity_title))]);
      throw new ApiFailure("api.payer_orders_open", { items, count: MAX_OPEN_ORDERS_PER_BILL });
    }
    const { payment, orderId } = await createFeeOrder(ctx, {
      studentId: ticket.studentId,
      schId: ticket.schId,
      billIds: payload.bill_ids,
      payer,
      goods: payload.goods,
      delivery: payload.delivery,
      pickupPointId: payload.pickup_point_id,
      address: payload.address,
    });
    madeOne = true;
    await ctx.db.update(paymentOrders).set({ payerKey }).where(eq(paymentOrders.payNo, payment.payNo));
    await storeAnswers(ctx.db, { sysid: ticket.sysid, schId: ticket.schId, studentId: ticket.studentId, orderId, at: ctx.now }, chosen, forms, answers);
    return orderAnswer(payment);
  } finally {
    await releaseAttempts(ctx.db, madeOne ? [oneAtATime] : [...made, oneAtATime]);
  }
}

/** The ticket's student's order with this pay_no; not found for anyone else's. */
async function ticketOrder(ctx: OperationContext, ticket: PayerTicket, payNo: string) {
  const [order] = await ctx.db
    .select()
    .from(feeOrders)
    .where(and(eq(feeOrders.pay_no, payNo), eq(feeOrders.student_id, ticket.studentId), eq(feeOrders.sch_id, ticket.schId)));
  if (!order) throw notFound();
  return order;
}

/**
 * h5checkpay's read, one statement prepared per database over three unique indexes, as the payer page polls it
 * every few seconds: the ticket, its student's order of that pay_no and how to ask the order's gateway (no order:
 * not found, the ticket's expiry is checked here).
 */
function polledFeeOrderQuery(db: Db) {
  return db
    .select({ ticketExpiresAt: payerTickets.expiresAt, order: getTableColumns(feeOrders), payment: polledColumns })
    .from(payerTickets)
    .leftJoin(feeOrders, and(eq(feeOrders.pay_no, sql.placeholder("payNo")), eq(feeOrders.student_id, payerTickets.studentId), eq(feeOrders.sch_id, payerTickets.schId)))
    .leftJoin(paymentOrders, eq(paymentOrders.payNo, feeOrders.pay_no))
    .where(eq(payerTickets.tokenHash, sql.placeholder("tokenHash")))
    .prepare("payer_polled_fee_order");
}
const preparedPolledFeeOrders = new WeakMap<Db, ReturnType<typeof polledFeeOrderQuery>>();

async function polledFeeOrder(ctx: OperationContext, ticket: unknown, payNo: string) {
  let query = preparedPolledFeeOrders.get(ctx.db);
  if (!query) preparedPolledFeeOrders.set(ctx.db, (query = polledFeeOrderQuery(ctx.db)));
  const [row] = await query.execute({ tokenHash: ticketHashOf(ticket), payNo });
  if (!row || row.ticketExpiresAt <= ctx.now) throw ticketExpired();
  if (!row.order) throw notFound();
  return { order: row.order, payment: row.payment };
}

/**
 * h5checkpay: the order's state, which the payer page polls. An order still unpaid has its gateway asked now and then
 * (askGatewayIfDue): a payment whose notification was lost is applied while the payer waits.
 */
async function checkPay(ctx: OperationContext, payload: z.infer<typeof orderPayload>) {
  const polled = await polledFeeOrder(ctx, payload.ticket, payload.pay_no);
  let order = polled.order;
  if (order.status === "unpaid" && polled.payment && (await askGatewayIfDue(ctx, polled.payment)).status === "SUCCESS") order = (await polledFeeOrder(ctx, payload.ticket, payload.pay_no)).order;
  return { data: { items: { pay_no: order.pay_no, status: order.status, amount: fenToYuan(order.amount), paid_at: order.paid_at?.toISOString() ?? null, fulfilment: await fulfilmentOf(ctx.db, order) } } };
}

async function receipt(ctx: OperationContext, payload: z.infer<typeof orderPayload>) {
  const ticket = await ticketOf(ctx.db, payload.ticket, ctx.now);
  const order = await ticketOrder(ctx, ticket, payload.pay_no);
  if (order.paid_at === null || order.status === "unpaid" || order.status === "closed") throw new ApiFailure("collection.payer.not_paid");
  const [facts] = await ctx.db
    .select({ school_title: schools.title, student_name: students.name, class_title: classTitle })
    .from(students)
    .innerJoin(schools, eq(schools.id, students.sch_id))
    .innerJoin(classes, eq(classes.id, order.class_id))
    .leftJoin(grades, eq(grades.id, classes.grade_id))
    .where(eq(students.id, order.student_id));
  const lines = await ctx.db
    .select({ title: feeOrderLines.title, amount: feeOrderLines.amount, activity_id: bills.activity_id })
    .from(feeOrderLines)
    .innerJoin(bills, eq(bills.id, feeOrderLines.bill_id))
    .where(eq(feeOrderLines.order_id, order.id))
    .orderBy(asc(feeOrderLines.sort), asc(feeOrderLines.id));
  return {
    data: {
      items: {
        school_title: facts?.school_title ?? "",
        student: { name: maskName(facts?.student_name ?? ""), class_title: facts?.class_title ?? "" },
        items: lines.map((l) => ({ title: l.title, amount: fenToYuan(Number(l.amount)) })),
        amount: fenToYuan(order.amount),
        paid_at: order.paid_at.toISOString(),
        transaction_id: order.transaction_id ?? "",
        order_no: order.order_no,
        pay_no: order.pay_no,
        // the payment voucher's number, given when the order was paid
        receipt_no: order.receipt_no,
        // what the result page offers once paid: the after-payment actions of the order's activities
        actions: await actionsOfActivities(ctx.db, order.sysid, [...new Set(lines.map((l) => l.activity_id))]),
        // its goods (a uniform in a size) and how they reach the payer: the pickup code while they wait to be collected
        fulfilment: await fulfilmentOf(ctx.db, order),
      },
    },
  };
}

export function registerPayerApi(registry: OperationRegistry): void {
  registry.add({ path: PAYER_API_PATH, method: "h5entry", needsToken: false, schema: entryPayload, handler: entry });
  registry.add({ path: PAYER_API_PATH, method: "h5find", needsToken: false, schema: findPayload, handler: find });
  registry.add({ path: PAYER_API_PATH, method: "h5oauth", needsToken: false, schema: oauthPayload, handler: oauth });
  registry.add({ path: PAYER_API_PATH, method: "h5pay", needsToken: false, schema: payPayload, handler: pay });
  registry.add({ path: PAYER_API_PATH, method: "h5checkpay", needsToken: false, schema: orderPayload, handler: checkPay });
  registry.add({ path: PAYER_API_PATH, method: "h5receipt", needsToken: false, schema: orderPayload, handler: receipt });
}
