/**
 * Payment orders: created for a renewal with the gateway that takes the money (the platform's WeChat Pay
 * merchant when one is configured and enabled, otherwise the sandbox), and the gateway of an existing order.
 */
import { randomInt } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { paymentOrders } from "../db/schema";
import { ApiFailure } from "../protocol/envelope";
import type { AppServices, OperationContext } from "../protocol/registry";
import type { PaymentGateway } from "./gateway";
import { paymentKind, type PaymentOrder } from "./kinds";
import { loadMerchant, wechatPayGatewayOf, wechatPayMerchantById } from "./merchants";
import { SandboxGateway } from "./sandbox";

/** how long an order's QR code can be paid (WeChat Pay Native's usual time_expire) */
export const ORDER_PAYABLE_MS = 2 * 3600 * 1000;

export interface NewOrder {
  /** a kind its domain registered (./kinds.ts) */
  kind: string;
  sysid: number;
  schId: number | null;
  mealId: number | null;
  title: string;
  termMonths: number;
  totalFeeFen: number;
}

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
  if (merchant?.enabled === "Y") return { gateway: wechatPayGatewayOf(services, merchant), merchantId: merchant.merchantId };
  if (!services.paymentSandbox) throw new ApiFailure("api.pay_unavailable");
  return { gateway: new SandboxGateway(services.db, services.clock, origin), merchantId: "" };
}

/** The gateway an order was created with; null when its merchant is gone. */
export async function gatewayOfOrder(services: Pick<AppServices, "db" | "clock" | "paymentSecrets">, order: Pick<PaymentOrder, "gateway" | "merchantId">, origin: string): Promise<PaymentGateway | null> {
  if (order.gateway === "sandbox") return new SandboxGateway(services.db, services.clock, origin);
  const merchant = await wechatPayMerchantById(services.db, order.merchantId);
  return merchant ? wechatPayGatewayOf(services, merchant) : null;
}

export async function createPaymentOrder(ctx: OperationContext, order: NewOrder): Promise<PaymentOrder> {
  const kind = paymentKind(order.kind);
  if (!kind) throw new Error(`payment kind ${order.kind} is not registered`);
  // a school's channel as payee comes with the channels of fee collection
  if (kind.payee !== "platform") throw new Error(`payment kind ${order.kind}: no gateway pays ${kind.payee} yet`);
  const { gateway, merchantId } = await platformGateway(ctx.services, ctx.origin);
  const payNo = `P${stamp(ctx.now)}${randomDigits(10)}`;
  const expiresAt = new Date(ctx.now.getTime() + ORDER_PAYABLE_MS);
  let codeUrl: string;
  try {
    ({ codeUrl } = await gateway.createQrOrder({
      payNo,
      description: order.title,
      amountFen: order.totalFeeFen,
      notifyUrl: `${ctx.origin}${wechatPayNotifyPath(merchantId)}`,
      expiresAt,
    }));
  } catch (err) {
    ctx.log.error({ err, payNo }, "creating the payment order failed");
    throw new ApiFailure("api.pay_unavailable");
  }
  const [row] = await ctx.db
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
      codeUrl,
      expiresAt,
      createdBy: ctx.auth?.userId ?? null,
    })
    .returning();
  return row;
}

/** What checkpay needs of an order: whose it is, its state, and how to ask its gateway. */
const polledColumns = {
  payNo: paymentOrders.payNo,
  sysid: paymentOrders.sysid,
  schId: paymentOrders.schId,
  status: paymentOrders.status,
  expiresAt: paymentOrders.expiresAt,
  appliedEnd: paymentOrders.appliedEnd,
  gateway: paymentOrders.gateway,
  merchantId: paymentOrders.merchantId,
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
