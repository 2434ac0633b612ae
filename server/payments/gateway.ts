/**
 * The payment gateway interface (DESIGN 8): every way of taking money (the sandbox, WeChat Pay v3) creates orders
 * (a QR code for Native, the JS bridge's parameters for JSAPI), queries, closes and refunds them, and turns an
 * incoming notification into a verified PaymentNotice. Amounts are integer fen; `payNo` is our out_trade_no.
 * Applying a paid order to the business (renewal, fee) is not a gateway's job: see server/payments/apply.ts.
 *
 * Two modes, chosen per call: direct, where the gateway's own merchant is paid (renewals, paid to the platform),
 * and service-provider mode (WeChat's 服务商模式, the partner API), where a call names a sub-merchant
 * (`subMchid`, WeChat's sub_mchid), e.g. a school's own merchant, and the gateway's merchant acts for it as its
 * service provider (sp_mchid): it signs the requests and receives the notifications, the sub-merchant gets the money.
 */

export type GatewayName = "sandbox" | "wechatpay";

/** our payment numbers (out_trade_no): letters and digits, at most 32 (WeChat Pay's limit) */
export const PAY_NO_PATTERN = /^[A-Za-z0-9]{1,32}$/;

/** WeChat Pay's trade_state values; the sandbox uses the same ones. */
export type TradeState = "NOTPAY" | "USERPAYING" | "SUCCESS" | "CLOSED" | "REFUND" | "REVOKED" | "PAYERROR";

/** Service-provider mode: who is paid when it is not the gateway's own merchant. */
export interface SubMerchantPayee {
  /** the sub-merchant's merchant number (WeChat sub_mchid) */
  subMchid: string;
}

export interface QrOrderRequest {
  payNo: string;
  /** what the payer sees, e.g. 'renewal package: 1 year' (WeChat: description, at most 127 bytes) */
  description: string;
  amountFen: number;
  /** where the gateway posts the payment notification */
  notifyUrl: string;
  /** the order stops being payable after this */
  expiresAt: Date;
  /** service-provider mode: the sub-merchant paid; absent, the gateway's own merchant is paid */
  subMchid?: string;
}

export interface QrOrder {
  /** what the QR code encodes */
  codeUrl: string;
}

/**
 * The payer of a JSAPI order, by the openid WeChat gave them in one app: the service provider's app (sp_appid,
 * the merchant's configured appid) or the sub-merchant's own app, which must then be named (an openid means
 * nothing without its app).
 */
export type JsapiPayer = { spOpenid: string } | { subAppid: string; subOpenid: string };

/**
 * An order the payer pays inside WeChat (JSAPI: the payer's page in WeChat's browser or a mini program). Taken in
 * service-provider mode only: it is how fee collection's payers pay their school, renewals are paid by QR code.
 */
export interface JsapiOrderRequest extends QrOrderRequest {
  subMchid: string;
  payer: JsapiPayer;
}

/**
 * What the payer's page hands to WeChat's JS bridge (WeixinJSBridge getBrandWCPayRequest, wx.requestPayment) to
 * show the payment sheet, spelt as WeChat spells them. `paySign` is the merchant's RSA-SHA256 signature over
 * appId, timeStamp, nonceStr and package; appId is the app of the payer's openid.
 */
export interface JsapiPayParams {
  appId: string;
  /** seconds since the epoch, as a string */
  timeStamp: string;
  nonceStr: string;
  /** "prepay_id=..." */
  package: string;
  signType: "RSA";
  paySign: string;
}

export interface JsapiOrder {
  prepayId: string;
  payParams: JsapiPayParams;
  /**
   * The sandbox only: the page that stands in for WeChat's payment sheet (outside WeChat there is no JS bridge);
   * the payer's page opens it instead of calling the bridge.
   */
  payPageUrl?: string;
}

export interface TradeQuery {
  payNo: string;
  state: TradeState;
  /** the order's total (amount.total), when paid */
  amountFen?: number;
  /** the gateway's own transaction id, when paid */
  transactionId?: string;
  /**
   * merchant the money went to, when known: the mchid in direct mode, the sub_mchid in service-provider mode. An
   * order records its payee the same way (payment_orders.merchant_id), so comparing the two checks the payee in
   * either mode, and a report of a payment to a sub-merchant never matches an order paid to the merchant itself.
   */
  merchantId?: string;
  /** service-provider mode: the service provider's merchant that took the order (sp_mchid) */
  spMchid?: string;
  paidAt?: Date;
}

export interface RefundRequest {
  payNo: string;
  /** our refund number (out_refund_no), unique: the same number again is the same refund, never a second one */
  refundNo: string;
  amountFen: number;
  /** the order's total */
  totalFen: number;
  reason?: string;
  /** where the gateway posts the refund's notification; none: only a query tells its end */
  notifyUrl?: string;
  /** service-provider mode: the sub-merchant that was paid and refunds */
  subMchid?: string;
}

/** WeChat Pay's refund states; the sandbox uses the same ones. */
export type RefundState = "SUCCESS" | "PROCESSING" | "ABNORMAL" | "CLOSED";

/** What the gateway answers of a refund: on acceptance (a request taken, not a refund done), a query or a notice. */
export interface RefundResult {
  refundNo: string;
  status: RefundState;
  /** the gateway's refund id */
  refundId?: string;
  /** the refund's amount as the gateway has it */
  amountFen?: number;
  /** when the money went back (SUCCESS) */
  successTime?: Date;
  /** where it went: "招商银行信用卡0403", "支付用户零钱" */
  userReceivedAccount?: string;
}

/** A refund notification that passed verification: authentic, fresh and decrypted. */
export interface RefundNotice extends RefundResult {
  payNo: string;
  /** the merchant that refunded: the mchid in direct mode, the sub_mchid in service-provider mode */
  merchantId: string;
  /** service-provider mode: the merchant notified (sp_mchid) */
  spMchid?: string;
}

/** A notification that passed verification: authentic, fresh and decrypted. */
export interface PaymentNotice {
  payNo: string;
  state: TradeState;
  /** the order's total (amount.total) */
  amountFen: number;
  transactionId: string;
  /** merchant the money went to: the mchid in direct mode, the sub_mchid in service-provider mode (see TradeQuery) */
  merchantId: string;
  /** service-provider mode: the merchant that took the order and was notified (sp_mchid) */
  spMchid?: string;
  paidAt?: Date;
}

/** Thrown when a notification or a gateway answer is not authentic (signature, timestamp, serial, decryption). */
export class GatewayVerificationError extends Error {
  override readonly name = "GatewayVerificationError";
}

/** Thrown when the gateway answers with an error (HTTP status and the gateway's code and message). */
export class GatewayRequestError extends Error {
  override readonly name = "GatewayRequestError";
  constructor(
    message: string,
    readonly status: number,
    readonly code?: string,
  ) {
    super(message);
  }
}

export interface PaymentGateway {
  readonly name: GatewayName;
  /** A QR code order (Native); with `subMchid`, paid to that sub-merchant. */
  createQrOrder(request: QrOrderRequest): Promise<QrOrder>;
  /** An order paid inside WeChat (JSAPI), to a sub-merchant. */
  createJsapiOrder(request: JsapiOrderRequest): Promise<JsapiOrder>;
  /** The order's state at the gateway; an order made for a sub-merchant is found only by naming it (`payee`). */
  query(payNo: string, payee?: SubMerchantPayee): Promise<TradeQuery>;
  /** Closes an unpaid order (refused with code ORDERPAID once paid); `payee` as for query. */
  close(payNo: string, payee?: SubMerchantPayee): Promise<void>;
  /** Asks for a refund; the answer says it was accepted, not that it is done (a query or a notice says that). */
  refund(request: RefundRequest): Promise<RefundResult>;
  /** The refund's state at the gateway; `payee` as for query. */
  queryRefund(refundNo: string, payee?: SubMerchantPayee): Promise<RefundResult>;
  /**
   * Verifies a notification from its HTTP headers (lower-case names) and raw body; throws
   * GatewayVerificationError when it is not authentic or too old.
   */
  verifyNotification(headers: Readonly<Record<string, string | undefined>>, rawBody: string): Promise<PaymentNotice>;
  /** The same for a refund's notification (REFUND.SUCCESS, REFUND.ABNORMAL, REFUND.CLOSED). */
  verifyRefundNotification(headers: Readonly<Record<string, string | undefined>>, rawBody: string): Promise<RefundNotice>;
  /**
   * Writes the trade bill (ALL) of a day, China time, YYYY-MM-DD, into the file `into` (made, or replaced): its text
   * in WeChat Pay's format (server/payments/tradeBill.ts), its digest checked, written as it arrives so that no
   * whole bill is held in memory; `payee` narrows it to a sub-merchant. A bill with no trade answers a
   * GatewayRequestError with code NO_STATEMENT_EXIST, as at WeChat Pay.
   */
  tradeBill(billDate: string, into: string, payee?: SubMerchantPayee): Promise<void>;
}

/** the code of a bill that does not exist: a day without trade, or one not generated yet */
export const NO_STATEMENT_EXIST = "NO_STATEMENT_EXIST";

/** the most a bill may hold: a day of a busy merchant is some tens of megabytes (300 bytes a row) */
export const MAX_TRADE_BILL_BYTES = 128 * 1024 * 1024;
