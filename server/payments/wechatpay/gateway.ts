/** The `wechatpay` PaymentGateway: WeChat Pay API v3 Native (QR code) payments of one merchant. */
import { createPrivateKey, createPublicKey } from "node:crypto";
import { z } from "zod";
import type { Clock } from "../../lib/clock";
import {
  GatewayRequestError,
  GatewayVerificationError,
  type PaymentGateway,
  type PaymentNotice,
  type QrOrder,
  type QrOrderRequest,
  type RefundRequest,
  type RefundResult,
  type TradeQuery,
  type TradeState,
} from "../gateway";
import { WechatPayClient } from "./client";
import { decryptResource, verifySignedMessage, type PlatformKey } from "./signing";

export const WECHATPAY_API_BASE = "https://api.mch.weixin.qq.com";
/** WeChat's limit on `description`, in UTF-8 bytes */
const DESCRIPTION_MAX_BYTES = 127;
const SHANGHAI_OFFSET_MS = 8 * 3600 * 1000;

/** A merchant's credentials, secrets decrypted (server/payments/merchants.ts builds it from the stored row). */
export interface WechatPayConfig {
  merchantId: string;
  appid: string;
  /** serial number of the merchant API certificate */
  merchantSerialNo: string;
  /** PEM (PKCS#8 or PKCS#1) */
  privateKeyPem: string;
  /** 32 characters */
  apiV3Key: string;
  /** PUB_KEY_ID_... or the platform certificate serial */
  platformKeyId: string;
  /** PEM public key or certificate */
  platformPublicKeyPem: string;
  apiBase: string;
}

const TRADE_STATES = ["NOTPAY", "USERPAYING", "SUCCESS", "CLOSED", "REFUND", "REVOKED", "PAYERROR"] as const satisfies readonly TradeState[];

const transactionSchema = z.object({
  out_trade_no: z.string(),
  mchid: z.string(),
  trade_state: z.enum(TRADE_STATES),
  transaction_id: z.string().optional(),
  success_time: z.string().optional(),
  amount: z.object({ total: z.number().int().nonnegative() }).partial().optional(),
});

const nativeOrderSchema = z.object({ code_url: z.string().min(1) });
const refundSchema = z.object({ out_refund_no: z.string(), refund_id: z.string().optional(), status: z.enum(["SUCCESS", "PROCESSING", "ABNORMAL", "CLOSED"]) });

const notificationSchema = z.object({
  id: z.string(),
  event_type: z.string(),
  resource_type: z.literal("encrypt-resource"),
  resource: z.object({
    algorithm: z.string(),
    ciphertext: z.string(),
    nonce: z.string(),
    associated_data: z.string().optional(),
    original_type: z.literal("transaction"),
  }),
});

/** RFC 3339 in China time, as WeChat Pay writes and expects it: 2026-03-02T10:00:00+08:00 */
export function rfc3339China(at: Date): string {
  return `${new Date(at.getTime() + SHANGHAI_OFFSET_MS).toISOString().slice(0, 19)}+08:00`;
}

/** Cuts `text` to at most `maxBytes` UTF-8 bytes without splitting a character. */
function truncateUtf8(text: string, maxBytes: number): string {
  let out = "";
  let bytes = 0;
  for (const char of text) {
    bytes += Buffer.byteLength(char, "utf8");
    if (bytes > maxBytes) break;
    out += char;
  }
  return out;
}

function parseAnswer<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new GatewayRequestError(`WeChat Pay: unexpected ${what} answer`, 200);
  return parsed.data;
}

function tradeQueryOf(transaction: z.infer<typeof transactionSchema>): TradeQuery {
  const paidAt = transaction.success_time ? new Date(transaction.success_time) : undefined;
  return {
    payNo: transaction.out_trade_no,
    state: transaction.trade_state,
    amountFen: transaction.amount?.total,
    transactionId: transaction.transaction_id,
    merchantId: transaction.mchid,
    paidAt: paidAt && !Number.isNaN(paidAt.getTime()) ? paidAt : undefined,
  };
}

export class WechatPayGateway implements PaymentGateway {
  readonly name = "wechatpay" as const;
  private readonly client: WechatPayClient;
  private readonly platformKey: PlatformKey;

  constructor(
    private readonly config: WechatPayConfig,
    private readonly clock: Clock,
  ) {
    this.platformKey = { id: config.platformKeyId, publicKey: createPublicKey(config.platformPublicKeyPem) };
    const signer = { merchantId: config.merchantId, serialNo: config.merchantSerialNo, privateKey: createPrivateKey(config.privateKeyPem) };
    this.client = new WechatPayClient(config.apiBase, signer, this.platformKey, clock);
  }

  async createQrOrder(request: QrOrderRequest): Promise<QrOrder> {
    const { body } = await this.client.request("POST", "/v3/pay/transactions/native", {
      appid: this.config.appid,
      mchid: this.config.merchantId,
      description: truncateUtf8(request.description, DESCRIPTION_MAX_BYTES),
      out_trade_no: request.payNo,
      time_expire: rfc3339China(request.expiresAt),
      notify_url: request.notifyUrl,
      amount: { total: request.amountFen, currency: "CNY" },
    });
    return { codeUrl: parseAnswer(nativeOrderSchema, body, "order").code_url };
  }

  async query(payNo: string): Promise<TradeQuery> {
    const path = `/v3/pay/transactions/out-trade-no/${encodeURIComponent(payNo)}?mchid=${encodeURIComponent(this.config.merchantId)}`;
    const { body } = await this.client.request("GET", path);
    const transaction = parseAnswer(transactionSchema, body, "query");
    if (transaction.out_trade_no !== payNo || transaction.mchid !== this.config.merchantId) {
      throw new GatewayVerificationError("query answer names another order or merchant");
    }
    return tradeQueryOf(transaction);
  }

  async close(payNo: string): Promise<void> {
    await this.client.request("POST", `/v3/pay/transactions/out-trade-no/${encodeURIComponent(payNo)}/close`, { mchid: this.config.merchantId });
  }

  async refund(request: RefundRequest): Promise<RefundResult> {
    const { body } = await this.client.request("POST", "/v3/refund/domestic/refunds", {
      out_trade_no: request.payNo,
      out_refund_no: request.refundNo,
      reason: request.reason,
      notify_url: request.notifyUrl,
      amount: { refund: request.amountFen, total: request.totalFen, currency: "CNY" },
    });
    const refund = parseAnswer(refundSchema, body, "refund");
    return { refundNo: refund.out_refund_no, status: refund.status, refundId: refund.refund_id };
  }

  async verifyNotification(headers: Readonly<Record<string, string | undefined>>, rawBody: string): Promise<PaymentNotice> {
    verifySignedMessage(headers, rawBody, this.platformKey, this.clock.now());
    let envelope: unknown;
    try {
      envelope = JSON.parse(rawBody);
    } catch {
      throw new GatewayVerificationError("notification is not JSON");
    }
    const notification = notificationSchema.safeParse(envelope);
    if (!notification.success) throw new GatewayVerificationError("notification is not a transaction notice");
    let transactionJson: unknown;
    try {
      transactionJson = JSON.parse(decryptResource(notification.data.resource, this.config.apiV3Key));
    } catch (err) {
      if (err instanceof GatewayVerificationError) throw err;
      throw new GatewayVerificationError("notification resource is not JSON");
    }
    const transaction = transactionSchema.safeParse(transactionJson);
    if (!transaction.success || transaction.data.amount?.total === undefined || !transaction.data.transaction_id) {
      throw new GatewayVerificationError("notification resource lacks the transaction facts");
    }
    const trade = tradeQueryOf(transaction.data);
    return {
      payNo: trade.payNo,
      state: trade.state,
      amountFen: transaction.data.amount.total,
      transactionId: transaction.data.transaction_id,
      merchantId: transaction.data.mchid,
      paidAt: trade.paidAt,
    };
  }
}
