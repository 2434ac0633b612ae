/**
 * The `wechatpay` PaymentGateway: WeChat Pay API v3 payments of one merchant, in direct mode (Native QR orders paid
 * to the merchant itself) or, for a call naming a sub-merchant, in service-provider mode (./partner.ts).
 */
import { createPrivateKey, createPublicKey } from "node:crypto";
import { z } from "zod";
import type { Clock } from "../../lib/clock";
import {
  GatewayVerificationError,
  MAX_TRADE_BILL_BYTES,
  type JsapiOrder,
  type JsapiOrderRequest,
  type PaymentGateway,
  type PaymentNotice,
  type QrOrder,
  type QrOrderRequest,
  type RefundNotice,
  type RefundRequest,
  type RefundResult,
  type SubMerchantPayee,
  type TradeQuery,
} from "../gateway";
import { WechatPayClient } from "./client";
import { WechatPayPartnerApi } from "./partner";
import { decryptResource, verifySignedMessage, type PlatformKey, type RequestSigner } from "./signing";
import { DESCRIPTION_MAX_BYTES, directTransactionSchema, parseAnswer, parseTransaction, rfc3339China, tradeQueryOf, truncateUtf8 } from "./transactions";

export const WECHATPAY_API_BASE = "https://api.mch.weixin.qq.com";
/** a refund's reason, as WeChat Pay takes it */
const REFUND_REASON_MAX_BYTES = 80;

/** A merchant's credentials, secrets decrypted (server/payments/merchants.ts builds it from the stored row). */
export interface WechatPayConfig {
  merchantId: string;
  /** the merchant's app: its payers' app in direct mode, sp_appid when it acts as service provider */
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

const nativeOrderSchema = z.object({ code_url: z.string().min(1) });
const billSchema = z.object({ hash_type: z.literal("SHA1"), hash_value: z.string().regex(/^[0-9a-fA-F]{40}$/), download_url: z.string().min(1) });
const REFUND_STATES = ["SUCCESS", "PROCESSING", "ABNORMAL", "CLOSED"] as const;

/** A refund as the refund and query calls answer it. */
const refundSchema = z.object({
  out_refund_no: z.string(),
  refund_id: z.string().optional(),
  status: z.enum(REFUND_STATES),
  success_time: z.string().optional(),
  user_received_account: z.string().optional(),
  amount: z.object({ refund: z.number().int() }).partial().optional(),
});

/** A refund as its notification carries it (refund_status, and the merchants of its mode). */
const refundNoticeSchema = z.object({
  mchid: z.string().optional(),
  sp_mchid: z.string().optional(),
  sub_mchid: z.string().optional(),
  out_trade_no: z.string(),
  out_refund_no: z.string(),
  refund_id: z.string().optional(),
  refund_status: z.enum(REFUND_STATES),
  success_time: z.string().optional(),
  user_received_account: z.string().optional(),
  amount: z.object({ refund: z.number().int() }).partial().optional(),
});

function notificationSchema(originalType: "transaction" | "refund") {
  return z.object({
    id: z.string(),
    event_type: z.string(),
    resource_type: z.literal("encrypt-resource"),
    resource: z.object({
      algorithm: z.string(),
      ciphertext: z.string(),
      nonce: z.string(),
      associated_data: z.string().optional(),
      original_type: z.literal(originalType),
    }),
  });
}
const notificationSchemas = { transaction: notificationSchema("transaction"), refund: notificationSchema("refund") };

/** A time of WeChat Pay (RFC 3339), or undefined when absent or unreadable. */
function gatewayTime(text: string | undefined): Date | undefined {
  const at = text ? new Date(text) : undefined;
  return at && !Number.isNaN(at.getTime()) ? at : undefined;
}

function refundResultOf(refund: z.infer<typeof refundSchema>): RefundResult {
  return {
    refundNo: refund.out_refund_no,
    status: refund.status,
    refundId: refund.refund_id,
    amountFen: refund.amount?.refund,
    successTime: gatewayTime(refund.success_time),
    userReceivedAccount: refund.user_received_account,
  };
}

export class WechatPayGateway implements PaymentGateway {
  readonly name = "wechatpay" as const;
  private readonly client: WechatPayClient;
  private readonly platformKey: PlatformKey;
  /** the same merchant acting as service provider for sub-merchants */
  private readonly partner: WechatPayPartnerApi;

  constructor(
    private readonly config: WechatPayConfig,
    private readonly clock: Clock,
  ) {
    this.platformKey = { id: config.platformKeyId, publicKey: createPublicKey(config.platformPublicKeyPem) };
    const signer: RequestSigner = { merchantId: config.merchantId, serialNo: config.merchantSerialNo, privateKey: createPrivateKey(config.privateKeyPem) };
    this.client = new WechatPayClient(config.apiBase, signer, this.platformKey, clock);
    this.partner = new WechatPayPartnerApi(this.client, { merchantId: config.merchantId, appid: config.appid, signer }, clock);
  }

  async createQrOrder(request: QrOrderRequest): Promise<QrOrder> {
    const { subMchid } = request;
    if (subMchid !== undefined) return this.partner.createNativeOrder({ ...request, subMchid });
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

  createJsapiOrder(request: JsapiOrderRequest): Promise<JsapiOrder> {
    return this.partner.createJsapiOrder(request);
  }

  async query(payNo: string, payee?: SubMerchantPayee): Promise<TradeQuery> {
    if (payee) return this.partner.query(payNo, payee);
    const path = `/v3/pay/transactions/out-trade-no/${encodeURIComponent(payNo)}?mchid=${encodeURIComponent(this.config.merchantId)}`;
    const { body } = await this.client.request("GET", path);
    const transaction = parseAnswer(directTransactionSchema, body, "query");
    if (transaction.out_trade_no !== payNo || transaction.mchid !== this.config.merchantId) {
      throw new GatewayVerificationError("query answer names another order or merchant");
    }
    return tradeQueryOf(transaction);
  }

  async close(payNo: string, payee?: SubMerchantPayee): Promise<void> {
    if (payee) return this.partner.close(payNo, payee);
    await this.client.request("POST", `/v3/pay/transactions/out-trade-no/${encodeURIComponent(payNo)}/close`, { mchid: this.config.merchantId });
  }

  async refund(request: RefundRequest): Promise<RefundResult> {
    const { body } = await this.client.request("POST", "/v3/refund/domestic/refunds", {
      ...(request.subMchid === undefined ? {} : { sub_mchid: request.subMchid }),
      out_trade_no: request.payNo,
      out_refund_no: request.refundNo,
      ...(request.reason ? { reason: truncateUtf8(request.reason, REFUND_REASON_MAX_BYTES) } : {}),
      ...(request.notifyUrl ? { notify_url: request.notifyUrl } : {}),
      amount: { refund: request.amountFen, total: request.totalFen, currency: "CNY" },
    });
    return this.checkedRefund(parseAnswer(refundSchema, body, "refund"), request.refundNo);
  }

  /**
   * GET /v3/bill/tradebill, then its download_url into the file: the answer naming the file is signed, the file is
   * not, so the SHA1 of its bytes must be the one the signed answer gave.
   */
  async tradeBill(billDate: string, into: string, payee?: SubMerchantPayee): Promise<void> {
    const query = new URLSearchParams({ bill_date: billDate, bill_type: "ALL" });
    if (payee) query.set("sub_mchid", payee.subMchid);
    const { body } = await this.client.request("GET", `/v3/bill/tradebill?${query.toString()}`);
    const bill = parseAnswer(billSchema, body, "trade bill");
    const digest = await this.client.download(bill.download_url, into, MAX_TRADE_BILL_BYTES);
    if (digest.toLowerCase() !== bill.hash_value.toLowerCase()) throw new GatewayVerificationError("the trade bill's SHA1 is not the one WeChat Pay gave");
  }

  async queryRefund(refundNo: string, payee?: SubMerchantPayee): Promise<RefundResult> {
    const query = payee ? `?sub_mchid=${encodeURIComponent(payee.subMchid)}` : "";
    const { body } = await this.client.request("GET", `/v3/refund/domestic/refunds/${encodeURIComponent(refundNo)}${query}`);
    return this.checkedRefund(parseAnswer(refundSchema, body, "refund query"), refundNo);
  }

  private checkedRefund(refund: z.infer<typeof refundSchema>, refundNo: string): RefundResult {
    if (refund.out_refund_no !== refundNo) throw new GatewayVerificationError("refund answer names another refund");
    return refundResultOf(refund);
  }

  /** The decrypted resource of an authentic, fresh notification of the given type. */
  private notificationResource(headers: Readonly<Record<string, string | undefined>>, rawBody: string, type: "transaction" | "refund"): unknown {
    verifySignedMessage(headers, rawBody, this.platformKey, this.clock.now());
    let envelope: unknown;
    try {
      envelope = JSON.parse(rawBody);
    } catch {
      throw new GatewayVerificationError("notification is not JSON");
    }
    const notification = notificationSchemas[type].safeParse(envelope);
    if (!notification.success) throw new GatewayVerificationError(`notification is not a ${type} notice`);
    try {
      return JSON.parse(decryptResource(notification.data.resource, this.config.apiV3Key));
    } catch (err) {
      if (err instanceof GatewayVerificationError) throw err;
      throw new GatewayVerificationError("notification resource is not JSON");
    }
  }

  /** A refund's notification: REFUND.SUCCESS, REFUND.ABNORMAL or REFUND.CLOSED, of either mode. */
  async verifyRefundNotification(headers: Readonly<Record<string, string | undefined>>, rawBody: string): Promise<RefundNotice> {
    const parsed = refundNoticeSchema.safeParse(this.notificationResource(headers, rawBody, "refund"));
    if (!parsed.success) throw new GatewayVerificationError("notification resource lacks the refund facts");
    const refund = parsed.data;
    const merchantId = refund.sub_mchid ?? refund.mchid;
    if (!merchantId) throw new GatewayVerificationError("notification resource names no merchant");
    return {
      ...refundResultOf({ ...refund, status: refund.refund_status }),
      payNo: refund.out_trade_no,
      merchantId,
      spMchid: refund.sp_mchid,
    };
  }

  /**
   * A notification of either mode: a service-provider one (sp_mchid, sub_mchid) reports the sub-merchant as the
   * payee and the service provider as spMchid; whoever receives it checks both against the order.
   */
  async verifyNotification(headers: Readonly<Record<string, string | undefined>>, rawBody: string): Promise<PaymentNotice> {
    const transaction = parseTransaction(this.notificationResource(headers, rawBody, "transaction"));
    const trade = transaction && tradeQueryOf(transaction);
    if (!trade || trade.amountFen === undefined || !trade.transactionId || !trade.merchantId) {
      throw new GatewayVerificationError("notification resource lacks the transaction facts");
    }
    return {
      payNo: trade.payNo,
      state: trade.state,
      amountFen: trade.amountFen,
      transactionId: trade.transactionId,
      merchantId: trade.merchantId,
      spMchid: trade.spMchid,
      paidAt: trade.paidAt,
    };
  }
}
