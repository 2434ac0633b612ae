/**
 * Payment orders: created with the gateway that takes the money, by the payee of their kind: a renewal is paid to
 * the platform (its WeChat Pay merchant when one is configured and enabled, otherwise the sandbox); a fee to the
 * school's channel, a sub-merchant in service-provider mode (a wechatpay channel through the platform's live
 * merchant as service provider, a sandbox channel through the sandbox). Also the gateway of an existing order and
 * the payee its gateway calls name.
 */
import { randomInt } from "node:crypto";
import { eq, sql, type SQL } from "drizzle-orm";
import { fenToYuan } from "../../common/money";
import type { Db } from "../db/client";
import { paymentOrders } from "../db/schema";
import { ApiFailure } from "../protocol/envelope";
import type { AppServices, OperationContext } from "../protocol/registry";
import type { DbOrTx } from "../db/client";
import { DEFAULT_LANGUAGE } from "../lib/i18n";
import type { JsapiPayParams, PaymentGateway, SubMerchantPayee } from "./gateway";
import { paymentKind, type PaymentOrder } from "./kinds";
import { loadMerchant, wechatPayGatewayOf, wechatPayMerchantById } from "./merchants";
import { SandboxGateway } from "./sandbox";

/** how long an order's QR code can be paid (WeChat Pay Native's usual time_expire) */
export const ORDER_PAYABLE_MS = 2 * 3600 * 1000;

/**
 * The default ceiling of one order's total (ORDER_MAX_YUAN): CNY 50,000, the most WeChat Pay takes in one payment
 * from a payer's wallet. Above it a payment fails at the payer's phone after the order is made; refused here first.
 */
export const DEFAULT_ORDER_MAX_FEN = 5_000_000;

/** A school's payment channel as the payee of an order (server/domains/fees schoolChannel). */
export interface ChannelPayee {
  gateway: "sandbox" | "wechatpay";
  /** the school's sub-merchant (WeChat sub_mchid) */
  subMchid: string;
}

export interface NewOrder {
  /** a kind its domain registered (./kinds.ts) */
  kind: string;
  sysid: number;
  schId: number | null;
  mealId: number | null;
  title: string;
  termMonths: number;
  totalFeeFen: number;
  /** a kind paid to a school's channel: that channel (required then, refused otherwise) */
  channel?: ChannelPayee;
  /** how long the order can be paid; default ORDER_PAYABLE_MS */
  payableMs?: number;
  /**
   * a payer inside WeChat, by their openid in an app: ordered by JSAPI when WeChat Pay takes the order through a
   * merchant of that app (its payment sheet opens in WeChat), else by QR code as any other payer
   */
  payer?: { appid: string; openid: string };
  /** what the order pays for, as the payer knows it (a fee order's bills by their activities); default its title */
  items?: readonly string[];
}

/** A new order: its row, and for a JSAPI order the parameters WeChat's JS bridge takes to show the payment sheet. */
export type CreatedPaymentOrder = PaymentOrder & { payParams?: JsapiPayParams };

/** What creating an order needs of the call that makes it (an operation, or the demo seed). */
export type OrderContext = Pick<OperationContext, "services" | "db" | "origin" | "now" | "log" | "auth"> & Partial<Pick<OperationContext, "language">>;

/** YYYYMMDDHHmmss in China time: order numbers read in the business time zone. */
function stamp(now: Date): string {
  return new Date(now.getTime() + 8 * 3600 * 1000).toISOString().replace(/\D/g, "").slice(0, 14);
}

function randomDigits(count: number): string {
  let out = "";
  for (let i = 0; i < count; i++) out += String(randomInt(10));
  return out;
}

/** The path that receives WeChat Pay's notifications for a merchant. */
export function wechatPayNotifyPath(merchantId: string): string {
  return `/pay/notify/wechatpay/${encodeURIComponent(merchantId)}`;
}

interface ChosenGateway {
  gateway: PaymentGateway;
  merchantId: string;
  /** service-provider mode: the service provider's merchant ("" for the sandbox); null in direct mode */
  spMerchantId: string | null;
  /** a WeChat Pay merchant's app (sp_appid): whose openids a JSAPI order may name */
  appid?: string;
}

/**
 * Whether the sandbox takes payments now: only while PAYMENT_SANDBOX is on and the platform has no live WeChat
 * Pay merchant. Once a live merchant is configured, sandbox orders can no longer be created or confirmed.
 */
export async function sandboxActive(services: Pick<AppServices, "db" | "paymentSandbox">): Promise<boolean> {
  if (!services.paymentSandbox) return false;
  const merchant = await loadMerchant(services.db, null, "wechatpay");
  return merchant?.enabled !== "Y";
}

/** Renewals are paid to the platform: its WeChat Pay merchant when live, else the sandbox while it is on. */
async function platformGateway(services: AppServices, origin: string): Promise<ChosenGateway> {
  const merchant = await loadMerchant(services.db, null, "wechatpay");
  if (merchant?.enabled === "Y") return { gateway: wechatPayGatewayOf(services, merchant), merchantId: merchant.merchantId, spMerchantId: null };
  if (!services.paymentSandbox) throw new ApiFailure("api.pay_unavailable");
  return { gateway: new SandboxGateway(services.db, services.clock, origin), merchantId: "", spMerchantId: null };
}

/**
 * Fees are paid to the school's channel, a sub-merchant: a wechatpay channel through the platform's live WeChat Pay
 * merchant acting as its service provider; a sandbox channel through the sandbox while it takes payments.
 */
async function channelGateway(services: AppServices, origin: string, channel: ChannelPayee): Promise<ChosenGateway> {
  if (channel.gateway === "sandbox") {
    if (!(await sandboxActive(services))) throw new ApiFailure("api.pay_unavailable");
    return { gateway: new SandboxGateway(services.db, services.clock, origin), merchantId: channel.subMchid, spMerchantId: "" };
  }
  const merchant = await loadMerchant(services.db, null, "wechatpay");
  if (merchant?.enabled !== "Y") throw new ApiFailure("api.pay_unavailable");
  return { gateway: wechatPayGatewayOf(services, merchant), merchantId: channel.subMchid, spMerchantId: merchant.merchantId, appid: merchant.appid };
}

/** The sub-merchant an order's gateway calls name (service-provider mode), or undefined in direct mode. */
export function orderPayee(order: Pick<PaymentOrder, "merchantId" | "spMerchantId">): SubMerchantPayee | undefined {
  return order.spMerchantId === null ? undefined : { subMchid: order.merchantId };
}

/** The gateway an order was created with; null when its merchant is gone. */
export async function gatewayOfOrder(
  services: Pick<AppServices, "db" | "clock" | "paymentSecrets">,
  order: Pick<PaymentOrder, "gateway" | "merchantId" | "spMerchantId">,
  origin: string,
): Promise<PaymentGateway | null> {
  if (order.gateway === "sandbox") return new SandboxGateway(services.db, services.clock, origin);
  // service-provider mode: the service provider's merchant speaks for the sub-merchant
  const merchant = await wechatPayMerchantById(services.db, order.spMerchantId || order.merchantId);
  return merchant ? wechatPayGatewayOf(services, merchant) : null;
}

/**
 * Creates the order at its payee's gateway (a QR code, or a JSAPI order for a payer inside WeChat), then records it; `record` writes the domain's own rows of
 * the order (a fee order and its lines) in the same transaction, so that an order exists whole or not at all.
 */
export async function createPaymentOrder(ctx: OrderContext, order: NewOrder, record?: (tx: DbOrTx, row: PaymentOrder) => Promise<void>): Promise<CreatedPaymentOrder> {
  const kind = paymentKind(order.kind);
  if (!kind) throw new Error(`payment kind ${order.kind} is not registered`);
  const maxFen = ctx.services.orderMaxFen;
  if (order.totalFeeFen > maxFen) {
    const items = new Intl.ListFormat(ctx.language ?? DEFAULT_LANGUAGE, { type: "conjunction" }).format([...new Set(order.items ?? [order.title])]);
    throw new ApiFailure("api.order_over_ceiling", { items, total: fenToYuan(order.totalFeeFen), max: fenToYuan(maxFen) });
  }
  if ((kind.payee === "school_channel") !== (order.channel !== undefined)) throw new Error(`payment kind ${order.kind}: a ${kind.payee} order names ${order.channel ? "a" : "no"} channel`);
  const { gateway, merchantId, spMerchantId, appid } = order.channel ? await channelGateway(ctx.services, ctx.origin, order.channel) : await platformGateway(ctx.services, ctx.origin);
  const payNo = `P${stamp(ctx.now)}${randomDigits(10)}`;
  const expiresAt = new Date(ctx.now.getTime() + (order.payableMs ?? ORDER_PAYABLE_MS));
  const request = {
    payNo,
    description: order.title,
    amountFen: order.totalFeeFen,
    // WeChat Pay notifies the merchant that took the order: the service provider in service-provider mode
    notifyUrl: `${ctx.origin}${wechatPayNotifyPath(spMerchantId || merchantId)}`,
    expiresAt,
  };
  let codeUrl = "";
  let payParams: JsapiPayParams | undefined;
  try {
    if (order.channel && order.payer && appid !== undefined && order.payer.appid === appid) {
      ({ payParams } = await gateway.createJsapiOrder({ ...request, subMchid: order.channel.subMchid, payer: { spOpenid: order.payer.openid } }));
    } else {
      ({ codeUrl } = await gateway.createQrOrder({ ...request, ...(order.channel ? { subMchid: order.channel.subMchid } : {}) }));
    }
  } catch (err) {
    ctx.log.error({ err, payNo }, "creating the payment order failed");
    throw new ApiFailure("api.pay_unavailable");
  }
  const insert = (db: DbOrTx) =>
    db
      .insert(paymentOrders)
      .values({
        payNo,
        orderid: `${stamp(ctx.now)}${randomDigits(6)}`,
        kind: order.kind,
        sysid: order.sysid,
        schId: order.schId,
        mealId: order.mealId,
        title: order.title,
        termMonths: order.termMonths,
        totalFeeFen: order.totalFeeFen,
        gateway: gateway.name,
        merchantId,
        spMerchantId,
        codeUrl,
        expiresAt,
        createdBy: ctx.auth?.userId ?? null,
        createdAt: ctx.now,
      })
      .returning();
  const row = record
    ? await ctx.db.transaction(async (tx) => {
        const [inserted] = await insert(tx);
        await record(tx, inserted);
        return inserted;
      })
    : (await insert(ctx.db))[0];
  return payParams ? { ...row, payParams } : row;
}

/** What checkpay needs of an order: whose it is, its state, and how to ask its gateway. */
export const polledColumns = {
  id: paymentOrders.id,
  payNo: paymentOrders.payNo,
  sysid: paymentOrders.sysid,
  schId: paymentOrders.schId,
  status: paymentOrders.status,
  expiresAt: paymentOrders.expiresAt,
  appliedEnd: paymentOrders.appliedEnd,
  gateway: paymentOrders.gateway,
  merchantId: paymentOrders.merchantId,
  spMerchantId: paymentOrders.spMerchantId,
  gatewayAskedAt: paymentOrders.gatewayAskedAt,
};
export type PolledOrder = Pick<PaymentOrder, keyof typeof polledColumns>;

/** checkpay's read: one prepared statement on the unique pay_no index, only the columns it needs. */
function orderQuery(db: Db) {
  return db.select(polledColumns).from(paymentOrders).where(eq(paymentOrders.payNo, sql.placeholder("payNo"))).prepare("payment_order_by_pay_no");
}
const preparedOrderQueries = new WeakMap<Db, ReturnType<typeof orderQuery>>();

export async function polledOrder(db: Db, payNo: string): Promise<PolledOrder | undefined> {
  let query = preparedOrderQueries.get(db);
  if (!query) preparedOrderQueries.set(db, (query = orderQuery(db)));
  const [row] = await query.execute({ payNo });
  return row;
}

/** checkpay's read with the state of a session resolved lately (ctx.sessionState): one statement for both. */
function orderAndSessionQuery(db: Db, sessionState: SQL) {
  return db
    .select({ ...polledColumns, sessionState: sql<string>`${sessionState}` })
    .from(paymentOrders)
    .where(eq(paymentOrders.payNo, sql.placeholder("payNo")))
    .prepare("payment_order_by_pay_no_with_session");
}
const preparedOrderAndSessionQueries = new WeakMap<Db, ReturnType<typeof orderAndSessionQuery>>();

/**
 * The polled order, read with the caller's session state when the session is one resolved lately (the polling
 * dialogs' usual case): the call then costs one statement. No order found reads no state: the call is made again.
 */
export async function polledOrderConfirmingSession(ctx: Pick<OperationContext, "db" | "sessionState">, payNo: string): Promise<PolledOrder | undefined> {
  if (!ctx.sessionState) return polledOrder(ctx.db, payNo);
  let query = preparedOrderAndSessionQueries.get(ctx.db);
  // the state's SQL is one per database (RecentSessions.stateRead), and so is the statement
  if (!query) preparedOrderAndSessionQueries.set(ctx.db, (query = orderAndSessionQuery(ctx.db, ctx.sessionState.sql)));
  const [row] = await query.execute({ payNo, ...ctx.sessionState.values });
  if (!row) return undefined;
  const { sessionState, ...order } = row;
  ctx.sessionState.read = sessionState;
  return order;
}
