/**
 * The payment gateway interface (DESIGN 8): every way of taking money (the sandbox, WeChat Pay v3 Native)
 * creates QR orders, queries, closes and refunds them, and turns an incoming notification into a verified
 * PaymentNotice. Amounts are integer fen; `payNo` is our out_trade_no. Applying a paid order to the business
 * (renewal) is not a gateway's job: see server/payments/apply.ts.
 */

export type GatewayName = "sandbox" | "wechatpay";

/** our payment numbers (out_trade_no): letters and digits, at most 32 (WeChat Pay's limit) */
export const PAY_NO_PATTERN = /^[A-Za-z0-9]{1,32}$/;

/** WeChat Pay's trade_state values; the sandbox uses the same ones. */
export type TradeState = "NOTPAY" | "USERPAYING" | "SUCCESS" | "CLOSED" | "REFUND" | "REVOKED" | "PAYERROR";

export interface QrOrderRequest {
  payNo: string;
  /** what the payer sees, e.g. 'renewal package: 1 year' (WeChat: description, at most 127 bytes) */
  description: string;
  amountFen: number;
  /** where the gateway posts the payment notification */
  notifyUrl: string;
  /** the QR code stops being payable after this */
  expiresAt: Date;
}

export interface QrOrder {
  /** what the QR code encodes */
  codeUrl: string;
}

export interface TradeQuery {
  payNo: string;
  state: TradeState;
  /** what the payer paid, when paid */
  amountFen?: number;
  /** the gateway's own transaction id, when paid */
  transactionId?: string;
  /** merchant the money went to (WeChat mchid), when known */
  merchantId?: string;
  paidAt?: Date;
}

export interface RefundRequest {
  payNo: string;
  /** our refund number (out_refund_no), unique */
  refundNo: string;
  amountFen: number;
  /** the order's total */
  totalFen: number;
  reason?: string;
  notifyUrl?: string;
}

export interface RefundResult {
  refundNo: string;
  status: "SUCCESS" | "PROCESSING" | "ABNORMAL" | "CLOSED";
  /** the gateway's refund id */
  refundId?: string;
}

/** A notification that passed verification: authentic, fresh and decrypted. */
export interface PaymentNotice {
  payNo: string;
  state: TradeState;
  amountFen: number;
  transactionId: string;
  merchantId: string;
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
  createQrOrder(request: QrOrderRequest): Promise<QrOrder>;
  query(payNo: string): Promise<TradeQuery>;
  close(payNo: string): Promise<void>;
  refund(request: RefundRequest): Promise<RefundResult>;
  /**
   * Verifies a notification from its HTTP headers (lower-case names) and raw body; throws
   * GatewayVerificationError when it is not authentic or too old.
   */
  verifyNotification(headers: Readonly<Record<string, string | undefined>>, rawBody: string): Promise<PaymentNotice>;
}
