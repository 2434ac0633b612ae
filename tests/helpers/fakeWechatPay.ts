/**
 * A fake WeChat Pay API v3 server on loopback that follows the real protocol: it verifies the merchant's
 * Authorization signatures (401 SIGN_ERROR otherwise), keeps Native orders, signs its answers with its own
 * "WeChat Pay public key" pair, and pays orders by posting the encrypted, signed notification to notify_url.
 * Tests can make it tamper with its next answer or with a notification.
 */
import { createCipheriv, createSign, createVerify, generateKeyPairSync, randomBytes, type KeyObject } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Clock } from "../../server/lib/clock";

export const FAKE_PUBLIC_KEY_ID = "PUB_KEY_ID_0114232134912410000000000000000001";
const SIGNATURE_TYPE = "WECHATPAY2-SHA256-RSA2048";
const STALE_SECONDS = 6 * 60;

/** The merchant account the fake knows. */
export interface FakeMerchant {
  mchid: string;
  appid: string;
  /** merchant API certificate serial the requests name */
  serialNo: string;
  /** verifies the merchant's request signatures */
  publicKey: KeyObject;
  apiV3Key: string;
}

/** What can go wrong with a signed message from WeChat Pay. */
export type Tamper = "body" | "signature" | "stale" | "serial";

export interface FakeOrder {
  outTradeNo: string;
  mchid: string;
  appid: string;
  description: string;
  totalFen: number;
  notifyUrl: string;
  timeExpire: string;
  codeUrl: string;
  state: "NOTPAY" | "SUCCESS" | "CLOSED" | "REFUND";
  transactionId?: string;
  successTime?: string;
  refunds: { outRefundNo: string; refundFen: number; refundId: string }[];
}

export interface SignedNotification {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface NotificationOptions {
  tamper?: Tamper;
  /** amount.total written in the resource (default the order's) */
  amountFen?: number;
  /** mchid written in the resource (default the order's) */
  mchid?: string;
  /** trade_state written in the resource: the order is then left as it is (default: paid, SUCCESS) */
  tradeState?: string;
}

type JsonObject = Record<string, unknown>;

export interface ReceivedRequest {
  method: string;
  path: string;
  body: string;
  authorization: string;
}

function sign(privateKey: KeyObject, message: string): string {
  return createSign("RSA-SHA256").update(message, "utf8").sign(privateKey, "base64");
}

function parseAuthorization(header: string): Record<string, string> | undefined {
  if (!header.startsWith(`${SIGNATURE_TYPE} `)) return undefined;
  const fields: Record<string, string> = {};
  for (const match of header.slice(SIGNATURE_TYPE.length + 1).matchAll(/(\w+)="([^"]*)"/g)) fields[match[1]!] = match[2]!;
  return fields;
}

/** Changes one digit (an amount, an id), or adds a byte to a body without digits. */
function alterBody(body: string): string {
  return /\d/.test(body) ? body.replace(/\d/, (d) => String((Number(d) + 1) % 10)) : `${body} `;
}

function chinaTime(at: Date): string {
  return `${new Date(at.getTime() + 8 * 3600 * 1000).toISOString().slice(0, 19)}+08:00`;
}

export class FakeWechatPay {
  readonly orders = new Map<string, FakeOrder>();
  readonly requests: ReceivedRequest[] = [];
  /** the WeChat Pay public key (PEM) a merchant configures, with FAKE_PUBLIC_KEY_ID */
  readonly publicKeyPem: string;
  private readonly privateKey: KeyObject;
  private readonly server: http.Server;
  private nextAnswerTamper: Tamper | undefined;
  private sequence = 0;
  url = "";

  constructor(
    private readonly merchant: FakeMerchant,
    private readonly clock: Clock,
  ) {
    const pair = generateKeyPairSync("rsa", { modulusLength: 2048 });
    this.privateKey = pair.privateKey;
    this.publicKeyPem = pair.publicKey.export({ type: "spki", format: "pem" }).toString();
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => this.handle(req, Buffer.concat(chunks).toString("utf8"), res));
    });
  }

  static async start(merchant: FakeMerchant, clock: Clock): Promise<FakeWechatPay> {
    const fake = new FakeWechatPay(merchant, clock);
    await new Promise<void>((resolve) => fake.server.listen(0, "127.0.0.1", resolve));
    fake.url = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
    return fake;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** The next answer of the API comes altered in this way. */
  tamperNextAnswer(tamper: Tamper): void {
    this.nextAnswerTamper = tamper;
  }

  /** Signs `body` as WeChat Pay would, then applies `tamper`. */
  private signedHeaders(body: string, tamper: Tamper | undefined): { headers: Record<string, string>; body: string } {
    const now = Math.floor(this.clock.now().getTime() / 1000);
    const timestamp = String(tamper === "stale" ? now - STALE_SECONDS : now);
    const nonce = randomBytes(16).toString("hex");
    const signature = sign(this.privateKey, `${timestamp}\n${nonce}\n${body}\n`);
    const headers = {
      "wechatpay-timestamp": timestamp,
      "wechatpay-nonce": nonce,
      "wechatpay-signature": tamper === "signature" ? sign(this.privateKey, `${timestamp}\n${nonce}\nanother body\n`) : signature,
      "wechatpay-serial": tamper === "serial" ? "PUB_KEY_ID_0114999999999999999999999999999999" : FAKE_PUBLIC_KEY_ID,
      "wechatpay-signature-type": SIGNATURE_TYPE,
    };
    return { headers, body: tamper === "body" ? alterBody(body) : body };
  }

  private answer(res: http.ServerResponse, status: number, payload: unknown): void {
    const tamper = this.nextAnswerTamper;
    this.nextAnswerTamper = undefined;
    const signed = this.signedHeaders(payload === undefined ? "" : JSON.stringify(payload), tamper);
    res.writeHead(status, { ...signed.headers, ...(payload === undefined ? {} : { "content-type": "application/json" }) });
    res.end(signed.body);
  }

  private error(res: http.ServerResponse, status: number, code: string, message: string): void {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify({ code, message }));
  }

  /** Checks the merchant's Authorization header as WeChat Pay does. */
  private authorised(req: http.IncomingMessage, pathWithQuery: string, body: string): boolean {
    const fields = parseAuthorization(req.headers.authorization ?? "");
    if (!fields || fields.mchid !== this.merchant.mchid || fields.serial_no !== this.merchant.serialNo) return false;
    const { nonce_str: nonce, timestamp, signature } = fields;
    if (!nonce || !timestamp || !signature) return false;
    if (Math.abs(this.clock.now().getTime() / 1000 - Number(timestamp)) > 300) return false;
    const message = `${req.method}\n${pathWithQuery}\n${timestamp}\n${nonce}\n${body}\n`;
    return createVerify("RSA-SHA256").update(message, "utf8").verify(this.merchant.publicKey, signature, "base64");
  }

  private handle(req: http.IncomingMessage, body: string, res: http.ServerResponse): void {
    const pathWithQuery = req.url ?? "/";
    this.requests.push({ method: req.method ?? "", path: pathWithQuery, body, authorization: req.headers.authorization ?? "" });
    if (!this.authorised(req, pathWithQuery, body)) return this.error(res, 401, "SIGN_ERROR", "signature verification failed");
    const url = new URL(pathWithQuery, this.url);
    let input: JsonObject;
    try {
      input = (body ? JSON.parse(body) : {}) as JsonObject;
    } catch {
      return this.error(res, 400, "PARAM_ERROR", "body is not JSON");
    }

    if (req.method === "POST" && url.pathname === "/v3/pay/transactions/native") return this.createNative(res, input);
    const query = url.pathname.match(/^\/v3\/pay\/transactions\/out-trade-no\/([^/]+)$/);
    if (req.method === "GET" && query) {
      if (url.searchParams.get("mchid") !== this.merchant.mchid) return this.error(res, 400, "PARAM_ERROR", "mchid");
      const order = this.orders.get(decodeURIComponent(query[1]!));
      return order ? this.answer(res, 200, this.transaction(order)) : this.error(res, 404, "ORDER_NOT_EXIST", "order does not exist");
    }
    const close = url.pathname.match(/^\/v3\/pay\/transactions\/out-trade-no\/([^/]+)\/close$/);
    if (req.method === "POST" && close) {
      const order = this.orders.get(decodeURIComponent(close[1]!));
      if (!order || input.mchid !== this.merchant.mchid) return this.error(res, 404, "ORDER_NOT_EXIST", "order does not exist");
      if (order.state === "SUCCESS") return this.error(res, 400, "ORDERPAID", "order paid");
      order.state = "CLOSED";
      return this.answer(res, 204, undefined);
    }
    if (req.method === "POST" && url.pathname === "/v3/refund/domestic/refunds") return this.refund(res, input);
    return this.error(res, 404, "NOT_FOUND", "no such API");
  }

  private createNative(res: http.ServerResponse, input: JsonObject): void {
    const amount = (input.amount ?? {}) as JsonObject;
    const total = amount.total;
    const valid =
      input.mchid === this.merchant.mchid &&
      input.appid === this.merchant.appid &&
      typeof input.out_trade_no === "string" &&
      typeof input.description === "string" &&
      typeof input.notify_url === "string" &&
      /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+08:00$/.test(String(input.time_expire)) &&
      typeof total === "number" &&
      Number.isInteger(total) &&
      total > 0 &&
      amount.currency === "CNY";
    if (!valid) return this.error(res, 400, "PARAM_ERROR", "invalid parameters");
    const outTradeNo = String(input.out_trade_no);
    const existing = this.orders.get(outTradeNo);
    if (existing) return this.answer(res, 200, { code_url: existing.codeUrl });
    const order: FakeOrder = {
      outTradeNo,
      mchid: this.merchant.mchid,
      appid: this.merchant.appid,
      description: String(input.description),
      totalFen: total,
      notifyUrl: String(input.notify_url),
      timeExpire: String(input.time_expire),
      codeUrl: `weixin://wxpay/bizpayurl?pr=${randomBytes(6).toString("hex")}`,
      state: "NOTPAY",
      refunds: [],
    };
    this.orders.set(outTradeNo, order);
    this.answer(res, 200, { code_url: order.codeUrl });
  }

  private refund(res: http.ServerResponse, input: JsonObject): void {
    const order = this.orders.get(String(input.out_trade_no));
    const amount = (input.amount ?? {}) as JsonObject;
    if (!order) return this.error(res, 404, "RESOURCE_NOT_EXISTS", "order does not exist");
    if (order.state !== "SUCCESS" && order.state !== "REFUND") return this.error(res, 400, "INVALID_REQUEST", "order not paid");
    const refunded = order.refunds.reduce((sum, r) => sum + r.refundFen, 0);
    const refundFen = amount.refund;
    if (typeof refundFen !== "number" || refundFen <= 0 || amount.total !== order.totalFen || refundFen + refunded > order.totalFen || amount.currency !== "CNY") {
      return this.error(res, 400, "INVALID_REQUEST", "refund amount");
    }
    const refund = { outRefundNo: String(input.out_refund_no), refundFen, refundId: `50${String(++this.sequence).padStart(30, "0")}` };
    order.refunds.push(refund);
    order.state = "REFUND";
    this.answer(res, 200, { refund_id: refund.refundId, out_refund_no: refund.outRefundNo, status: "PROCESSING" });
  }

  private transaction(order: FakeOrder): Record<string, unknown> {
    return {
      appid: order.appid,
      mchid: order.mchid,
      out_trade_no: order.outTradeNo,
      trade_state: order.state,
      trade_state_desc: order.state,
      ...(order.transactionId
        ? {
            transaction_id: order.transactionId,
            trade_type: "NATIVE",
            success_time: order.successTime,
            payer: { openid: "oUpF8uMuAJO_M2pxb1Q9zNjWeS6o" },
            amount: { total: order.totalFen, payer_total: order.totalFen, currency: "CNY", payer_currency: "CNY" },
          }
        : { amount: { total: order.totalFen, currency: "CNY" } }),
    };
  }

  /** The payer scans and pays: the order becomes SUCCESS (no notification yet). */
  markPaid(outTradeNo: string): FakeOrder {
    const order = this.orders.get(outTradeNo);
    if (!order) throw new Error(`fake WeChat Pay has no order ${outTradeNo}`);
    if (order.state === "NOTPAY") {
      order.state = "SUCCESS";
      order.transactionId = `4200${String(++this.sequence).padStart(24, "0")}`;
      order.successTime = chinaTime(this.clock.now());
    }
    return order;
  }

  /** The encrypted, signed TRANSACTION.SUCCESS notification of a paid order, as WeChat Pay posts it. */
  notification(outTradeNo: string, options: NotificationOptions = {}): SignedNotification {
    const order = options.tradeState ? this.orders.get(outTradeNo) : this.markPaid(outTradeNo);
    if (!order) throw new Error(`fake WeChat Pay has no order ${outTradeNo}`);
    const transaction = {
      ...this.transaction(order),
      amount: { total: options.amountFen ?? order.totalFen, payer_total: order.totalFen, currency: "CNY", payer_currency: "CNY" },
      mchid: options.mchid ?? order.mchid,
      // a trade that did not succeed still carries WeChat Pay's transaction id
      ...(options.tradeState ? { trade_state: options.tradeState, trade_state_desc: options.tradeState, transaction_id: order.transactionId ?? `4200${String(++this.sequence).padStart(24, "0")}` } : {}),
    };
    const nonce = randomBytes(6).toString("hex");
    const associatedData = "transaction";
    const cipher = createCipheriv("aes-256-gcm", Buffer.from(this.merchant.apiV3Key, "utf8"), Buffer.from(nonce, "utf8"));
    cipher.setAAD(Buffer.from(associatedData, "utf8"));
    const ciphertext = Buffer.concat([cipher.update(JSON.stringify(transaction), "utf8"), cipher.final(), cipher.getAuthTag()]).toString("base64");
    const envelope = {
      id: `EV-${randomBytes(8).toString("hex")}`,
      create_time: chinaTime(this.clock.now()),
      event_type: "TRANSACTION.SUCCESS",
      resource_type: "encrypt-resource",
      summary: "支付成功",
      resource: { algorithm: "AEAD_AES_256_GCM", ciphertext, nonce, associated_data: associatedData, original_type: "transaction" },
    };
    const signed = this.signedHeaders(JSON.stringify(envelope), options.tamper);
    return { url: order.notifyUrl, headers: { ...signed.headers, "content-type": "application/json" }, body: signed.body };
  }

  /** Posts a notification to its notify_url, as WeChat Pay does; resolves to the merchant's answer. */
  async deliver(notification: SignedNotification): Promise<{ status: number; body: string }> {
    const res = await fetch(notification.url, { method: "POST", headers: notification.headers, body: notification.body });
    return { status: res.status, body: await res.text() };
  }
}
