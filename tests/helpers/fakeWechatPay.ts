/**
 * A fake WeChat Pay API v3 server on loopback that follows the real protocol: it verifies the merchant's
 * Authorization signatures (401 SIGN_ERROR otherwise), keeps Native orders, signs its answers with its own
 * "WeChat Pay public key" pair, and pays orders by posting the encrypted, signed notification to notify_url.
 * The merchant can also act as service provider for the sub-merchants it serves (the partner API: Native and
 * JSAPI orders, query, close, and notifications naming sp_mchid and sub_mchid), with the real API's error bodies.
 * It takes refunds of either mode (the same out_refund_no again is the same refund), answers refund queries, and
 * posts refund notifications once a test ends a refund. Tests can make it tamper with its next answer or with a
 * notification.
 */
import { createCipheriv, createHash, createSign, createVerify, generateKeyPairSync, randomBytes, type KeyObject } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Clock } from "../../server/lib/clock";

export const FAKE_PUBLIC_KEY_ID = "PUB_KEY_ID_0114232134912410000000000000000001";
const SIGNATURE_TYPE = "WECHATPAY2-SHA256-RSA2048";
const STALE_SECONDS = 6 * 60;

/** A sub-merchant the fake's merchant serves as service provider (a 受理关系). */
export interface FakeSubMerchant {
  subMchid: string;
  /** the sub-merchant's own app, whose openids a JSAPI order may name (sub_appid) */
  subAppid?: string;
}

/** The merchant account the fake knows. */
export interface FakeMerchant {
  mchid: string;
  /** its app: appid in direct mode, sp_appid as service provider */
  appid: string;
  /** merchant API certificate serial the requests name */
  serialNo: string;
  /** verifies the merchant's request signatures (and JSAPI paySigns) */
  publicKey: KeyObject;
  apiV3Key: string;
  /** the sub-merchants it may order for as service provider; none, it takes only direct orders */
  subMerchants?: FakeSubMerchant[];
}

/** The JSAPI payer, as the order named them */
export type FakePayer = { spOpenid: string } | { subOpenid: string };

/** What can go wrong with a signed message from WeChat Pay. */
export type Tamper = "body" | "signature" | "stale" | "serial";

export interface FakeOrder {
  outTradeNo: string;
  /** the merchant that took the order: the payee in direct mode, the service provider (sp_mchid) otherwise */
  mchid: string;
  /** appid, or sp_appid */
  appid: string;
  /** service-provider mode: the sub-merchant paid */
  subMchid?: string;
  subAppid?: string;
  tradeType: "NATIVE" | "JSAPI";
  description: string;
  totalFen: number;
  notifyUrl: string;
  timeExpire: string;
  /** Native orders */
  codeUrl?: string;
  /** JSAPI orders */
  prepayId?: string;
  payer?: FakePayer;
  state: "NOTPAY" | "SUCCESS" | "CLOSED" | "REFUND";
  transactionId?: string;
  successTime?: string;
  refunds: FakeRefund[];
}

/** A refund the fake took: PROCESSING until a test ends it (finishRefund). */
export interface FakeRefund {
  outRefundNo: string;
  refundFen: number;
  refundId: string;
  status: "PROCESSING" | "SUCCESS" | "ABNORMAL" | "CLOSED";
  reason?: string;
  notifyUrl?: string;
  createTime: string;
  successTime?: string;
  userReceivedAccount?: string;
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
  /** mchid written in the resource, sp_mchid for a service provider's order (default the order's) */
  mchid?: string;
  /**
   * sub_mchid written in the resource (default the order's); given for a direct order, the resource takes the
   * service-provider form, sp_mchid being the order's merchant
   */
  subMchid?: string;
  /** trade_state written in the resource: the order is then left as it is (default: paid, SUCCESS) */
  tradeState?: string;
}

type JsonObject = Record<string, unknown>;

/** The parameters a payer's page passes to WeChat's JS bridge (JsapiPayParams). */
export interface FakeJsapiPayParams {
  appId: string;
  timeStamp: string;
  nonceStr: string;
  package: string;
  signType: string;
  paySign: string;
}

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

/** The trade bill's (ALL) columns and summary columns, as WeChat Pay writes them. */
const BILL_HEADER =
  "交易时间,公众账号ID,商户号,特约商户号,设备号,微信订单号,商户订单号,用户标识,交易类型,交易状态,付款银行,货币种类,应结订单金额,代金券金额,微信退款单号,商户退款单号,退款金额,充值券退款金额,退款类型,退款状态,商品名称,商户数据包,手续费,费率,订单金额,申请退款金额,费率备注";
const BILL_SUMMARY_HEADER = "总交易单数,应结订单总金额,退款总金额,充值券退款总金额,手续费总金额,订单总金额,申请退款总金额";

function yuan(fen: number): string {
  const sign = fen < 0 ? "-" : "";
  const abs = Math.abs(fen);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/** WeChat Pay's fee at the schools' rate of 0.6 %, rounded to the fen */
function billFee(fen: number): number {
  return Math.round((fen * 6) / 1000);
}

/** A fee as WeChat Pay's bills write it: yuan to five decimals ("0.04000"). */
function billFeeText(fen: number): string {
  return `${yuan(fen)}000`;
}

/** A bill row: every field behind a backtick. */
function billRow(cells: readonly (string | number)[]): string {
  return cells.map((cell) => `\`${cell}`).join(",");
}

const TIME_EXPIRE_PATTERN = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+08:00$/;

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** description, out_trade_no, notify_url, time_expire and amount, as both modes' order endpoints check them */
function validOrderFields(input: JsonObject): boolean {
  const amount = isObject(input.amount) ? input.amount : {};
  const total = amount.total;
  return (
    typeof input.out_trade_no === "string" &&
    typeof input.description === "string" &&
    typeof input.notify_url === "string" &&
    TIME_EXPIRE_PATTERN.test(String(input.time_expire)) &&
    typeof total === "number" &&
    Number.isInteger(total) &&
    total > 0 &&
    amount.currency === "CNY"
  );
}

export class FakeWechatPay {
  readonly orders = new Map<string, FakeOrder>();
  readonly requests: ReceivedRequest[] = [];
  /** the WeChat Pay public key (PEM) a merchant configures, with FAKE_PUBLIC_KEY_ID */
  readonly publicKeyPem: string;
  private readonly privateKey: KeyObject;
  private readonly server: http.Server;
  private nextAnswerTamper: Tamper | undefined;
  /** the next bill's file differs from the digest its answer gives (a file changed on its way) */
  private nextBillAltered = false;
  /** bill files by download token */
  private readonly billFiles = new Map<string, string>();
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
      // a service provider's order is not the merchant's own: only the partner API finds it
      const order = this.orders.get(decodeURIComponent(query[1]!));
      return order && order.subMchid === undefined ? this.answer(res, 200, this.transaction(order)) : this.orderNotExist(res);
    }
    const close = url.pathname.match(/^\/v3\/pay\/transactions\/out-trade-no\/([^/]+)\/close$/);
    if (req.method === "POST" && close) {
      const order = this.orders.get(decodeURIComponent(close[1]!));
      if (!order || order.subMchid !== undefined || input.mchid !== this.merchant.mchid) return this.orderNotExist(res);
      return this.closeOrder(res, order);
    }
    const partnerOrder = url.pathname.match(/^\/v3\/pay\/partner\/transactions\/(native|jsapi)$/);
    if (req.method === "POST" && partnerOrder) return this.createPartnerOrder(res, input, partnerOrder[1] === "jsapi" ? "JSAPI" : "NATIVE");
    const partnerQuery = url.pathname.match(/^\/v3\/pay\/partner\/transactions\/out-trade-no\/([^/]+)$/);
    if (req.method === "GET" && partnerQuery) {
      const refused = this.refusePartner(res, url.searchParams.get("sp_mchid"), url.searchParams.get("sub_mchid"));
      if (refused) return;
      const order = this.partnerOrder(decodeURIComponent(partnerQuery[1]!), String(url.searchParams.get("sub_mchid")));
      return order ? this.answer(res, 200, this.transaction(order)) : this.orderNotExist(res);
    }
    const partnerClose = url.pathname.match(/^\/v3\/pay\/partner\/transactions\/out-trade-no\/([^/]+)\/close$/);
    if (req.method === "POST" && partnerClose) {
      const refused = this.refusePartner(res, input.sp_mchid, input.sub_mchid);
      if (refused) return;
      const order = this.partnerOrder(decodeURIComponent(partnerClose[1]!), String(input.sub_mchid));
      return order ? this.closeOrder(res, order) : this.orderNotExist(res);
    }
    if (req.method === "GET" && url.pathname === "/v3/bill/tradebill") return this.tradeBill(res, url);
    if (req.method === "GET" && url.pathname === "/v3/billdownload/file") {
      const file = this.billFiles.get(url.searchParams.get("token") ?? "");
      if (file === undefined) return this.error(res, 404, "RESOURCE_NOT_EXISTS", "文件不存在");
      // the file itself is not signed: its digest was in the signed answer
      res.writeHead(200, { "content-type": "application/octet-stream" });
      res.end(file);
      return;
    }
    if (req.method === "POST" && url.pathname === "/v3/refund/domestic/refunds") return this.refund(res, input);
    const refundQuery = url.pathname.match(/^\/v3\/refund\/domestic\/refunds\/([^/]+)$/);
    if (req.method === "GET" && refundQuery) return this.queryRefund(res, decodeURIComponent(refundQuery[1]!), url.searchParams.get("sub_mchid"));
    return this.error(res, 404, "NOT_FOUND", "no such API");
  }

  private orderNotExist(res: http.ServerResponse): void {
    this.error(res, 404, "ORDER_NOT_EXIST", "订单不存在");
  }

  private closeOrder(res: http.ServerResponse, order: FakeOrder): void {
    if (order.state === "SUCCESS") return this.error(res, 400, "ORDERPAID", "订单已支付");
    order.state = "CLOSED";
    this.answer(res, 204, undefined);
  }

  private subMerchant(subMchid: unknown): FakeSubMerchant | undefined {
    return this.merchant.subMerchants?.find((sub) => sub.subMchid === subMchid);
  }

  /** Answers the error WeChat Pay gives a partner call of another service provider, or for a sub-merchant it does not serve. */
  private refusePartner(res: http.ServerResponse, spMchid: unknown, subMchid: unknown): boolean {
    if (typeof spMchid !== "string" || typeof subMchid !== "string" || !spMchid || !subMchid) {
      this.error(res, 400, "PARAM_ERROR", "sp_mchid and sub_mchid are required");
      return true;
    }
    // the signature is the service provider's: it may act only as itself
    if (spMchid !== this.merchant.mchid) {
      this.error(res, 400, "MCH_NOT_EXISTS", "商户号不存在");
      return true;
    }
    if (!this.subMerchant(subMchid)) {
      this.error(res, 403, "NO_AUTH", "受理关系不存在");
      return true;
    }
    return false;
  }

  /** The order the partner API finds: one the service provider made for this sub-merchant. */
  private partnerOrder(outTradeNo: string, subMchid: string): FakeOrder | undefined {
    const order = this.orders.get(outTradeNo);
    return order && order.subMchid === subMchid ? order : undefined;
  }

  /** Another order under this out_trade_no, unless it is the same request again (then WeChat answers the same). */
  private refuseUsedTradeNo(res: http.ServerResponse, existing: FakeOrder | undefined, order: FakeOrder): boolean {
    if (!existing) return false;
    const same =
      existing.mchid === order.mchid && existing.subMchid === order.subMchid && existing.tradeType === order.tradeType && existing.totalFen === order.totalFen;
    if (same) return false;
    this.error(res, 403, "OUT_TRADE_NO_USED", "商户订单号重复");
    return true;
  }

  private createNative(res: http.ServerResponse, input: JsonObject): void {
    const valid = input.mchid === this.merchant.mchid && input.appid === this.merchant.appid && validOrderFields(input);
    if (!valid) return this.error(res, 400, "PARAM_ERROR", "invalid parameters");
    const outTradeNo = String(input.out_trade_no);
    const existing = this.orders.get(outTradeNo);
    if (existing) return this.answer(res, 200, { code_url: existing.codeUrl });
    const order: FakeOrder = {
      outTradeNo,
      mchid: this.merchant.mchid,
      appid: this.merchant.appid,
      tradeType: "NATIVE",
      description: String(input.description),
      totalFen: (input.amount as { total: number }).total,
      notifyUrl: String(input.notify_url),
      timeExpire: String(input.time_expire),
      codeUrl: `weixin://wxpay/bizpayurl?pr=${randomBytes(6).toString("hex")}`,
      state: "NOTPAY",
      refunds: [],
    };
    this.orders.set(outTradeNo, order);
    this.answer(res, 200, { code_url: order.codeUrl });
  }

  /** POST /v3/pay/partner/transactions/{native,jsapi}: an order for a sub-merchant the merchant serves. */
  private createPartnerOrder(res: http.ServerResponse, input: JsonObject, tradeType: "NATIVE" | "JSAPI"): void {
    if (!validOrderFields(input)) return this.error(res, 400, "PARAM_ERROR", "invalid parameters");
    if (this.refusePartner(res, input.sp_mchid, input.sub_mchid)) return;
    const sub = this.subMerchant(input.sub_mchid)!;
    const subAppid = input.sub_appid;
    if (input.sp_appid !== this.merchant.appid) return this.error(res, 400, "APPID_MCHID_NOT_MATCH", "sp_appid和sp_mchid不匹配");
    if (subAppid !== undefined && subAppid !== sub.subAppid) return this.error(res, 400, "APPID_MCHID_NOT_MATCH", "sub_appid和sub_mchid不匹配");
    let payer: FakePayer | undefined;
    if (tradeType === "JSAPI") {
      const given = isObject(input.payer) ? input.payer : {};
      const spOpenid = given.sp_openid;
      const subOpenid = given.sub_openid;
      if (typeof spOpenid === "string" && spOpenid && subOpenid === undefined) payer = { spOpenid };
      // an openid of the sub-merchant's app means something only with that app named
      else if (typeof subOpenid === "string" && subOpenid && spOpenid === undefined && subAppid !== undefined) payer = { subOpenid };
      else return this.error(res, 400, "PARAM_ERROR", "payer: sp_openid, or sub_openid with sub_appid");
    }
    const outTradeNo = String(input.out_trade_no);
    const order: FakeOrder = {
      outTradeNo,
      mchid: this.merchant.mchid,
      appid: this.merchant.appid,
      subMchid: sub.subMchid,
      ...(typeof subAppid === "string" ? { subAppid } : {}),
      tradeType,
      description: String(input.description),
      totalFen: (input.amount as { total: number }).total,
      notifyUrl: String(input.notify_url),
      timeExpire: String(input.time_expire),
      ...(tradeType === "NATIVE"
        ? { codeUrl: `weixin://wxpay/bizpayurl?pr=${randomBytes(6).toString("hex")}` }
        : { prepayId: `wx${this.clock.now().getTime()}${randomBytes(8).toString("hex")}`, payer }),
      state: "NOTPAY",
      refunds: [],
    };
    const existing = this.orders.get(outTradeNo);
    if (this.refuseUsedTradeNo(res, existing, order)) return;
    const kept = existing ?? order;
    if (!existing) this.orders.set(outTradeNo, order);
    this.answer(res, 200, tradeType === "NATIVE" ? { code_url: kept.codeUrl } : { prepay_id: kept.prepayId });
  }

  /** The order and refund under an out_refund_no, whichever order it refunds. */
  private refundNamed(outRefundNo: string): { order: FakeOrder; refund: FakeRefund } | undefined {
    for (const order of this.orders.values()) {
      const refund = order.refunds.find((r) => r.outRefundNo === outRefundNo);
      if (refund) return { order, refund };
    }
    return undefined;
  }

  /** A sub-merchant's order is reached only naming it; a direct order only naming none. */
  private sameMerchant(order: FakeOrder, subMchid: unknown): boolean {
    return order.subMchid === undefined ? subMchid === undefined || subMchid === null : subMchid === order.subMchid;
  }

  /** A refund as the refund and query calls answer it. */
  private refundObject(order: FakeOrder, refund: FakeRefund): JsonObject {
    return {
      refund_id: refund.refundId,
      out_refund_no: refund.outRefundNo,
      transaction_id: order.transactionId,
      out_trade_no: order.outTradeNo,
      channel: "ORIGINAL",
      user_received_account: refund.userReceivedAccount ?? "",
      ...(refund.successTime ? { success_time: refund.successTime } : {}),
      create_time: refund.createTime,
      status: refund.status,
      funds_account: "AVAILABLE",
      amount: { total: order.totalFen, refund: refund.refundFen, payer_total: order.totalFen, payer_refund: refund.refundFen, settlement_refund: refund.refundFen, settlement_total: order.totalFen, discount_refund: 0, currency: "CNY" },
    };
  }

  private refund(res: http.ServerResponse, input: JsonObject): void {
    const order = this.orders.get(String(input.out_trade_no));
    const amount = (input.amount ?? {}) as JsonObject;
    if (!order || !this.sameMerchant(order, input.sub_mchid)) return this.error(res, 404, "RESOURCE_NOT_EXISTS", "订单不存在");
    const outRefundNo = String(input.out_refund_no ?? "");
    if (!/^[0-9A-Za-z_\-|*@]{1,64}$/.test(outRefundNo)) return this.error(res, 400, "PARAM_ERROR", "out_refund_no");
    // the same number again is the same refund, never a second one
    const known = this.refundNamed(outRefundNo);
    if (known) {
      if (known.order !== order || known.refund.refundFen !== amount.refund) return this.error(res, 400, "INVALID_REQUEST", "商户退款单号重复");
      return this.answer(res, 200, this.refundObject(order, known.refund));
    }
    if (order.state !== "SUCCESS" && order.state !== "REFUND") return this.error(res, 400, "INVALID_REQUEST", "order not paid");
    if (order.refunds.length >= 50) return this.error(res, 403, "FREQUENCY_LIMITED", "退款次数超过限制");
    if (typeof input.reason === "string" && Buffer.byteLength(input.reason, "utf8") > 80) return this.error(res, 400, "PARAM_ERROR", "reason");
    const refunded = order.refunds.filter((r) => r.status !== "CLOSED").reduce((sum, r) => sum + r.refundFen, 0);
    const refundFen = amount.refund;
    if (typeof refundFen !== "number" || refundFen <= 0 || amount.total !== order.totalFen || refundFen + refunded > order.totalFen || amount.currency !== "CNY") {
      return this.error(res, 400, "INVALID_REQUEST", "refund amount");
    }
    const refund: FakeRefund = {
      outRefundNo,
      refundFen,
      refundId: `50${String(++this.sequence).padStart(30, "0")}`,
      status: "PROCESSING",
      ...(typeof input.reason === "string" ? { reason: input.reason } : {}),
      ...(typeof input.notify_url === "string" ? { notifyUrl: input.notify_url } : {}),
      createTime: chinaTime(this.clock.now()),
    };
    order.refunds.push(refund);
    order.state = "REFUND";
    this.answer(res, 200, this.refundObject(order, refund));
  }

  /** GET /v3/refund/domestic/refunds/{out_refund_no}?sub_mchid=: the refund, for the merchant that made it. */
  private queryRefund(res: http.ServerResponse, outRefundNo: string, subMchid: string | null): void {
    const found = this.refundNamed(outRefundNo);
    if (!found || !this.sameMerchant(found.order, subMchid ?? undefined)) return this.error(res, 404, "RESOURCE_NOT_EXISTS", "退款单不存在");
    this.answer(res, 200, this.refundObject(found.order, found.refund));
  }

  /** The gateway ends a refund: done into the payer's account, abnormal (a frozen card) or closed. */
  finishRefund(outRefundNo: string, status: "SUCCESS" | "ABNORMAL" | "CLOSED", userReceivedAccount = "招商银行信用卡0403"): FakeRefund {
    const found = this.refundNamed(outRefundNo);
    if (!found) throw new Error(`fake WeChat Pay has no refund ${outRefundNo}`);
    found.refund.status = status;
    found.refund.userReceivedAccount = userReceivedAccount;
    if (status === "SUCCESS") found.refund.successTime = chinaTime(this.clock.now());
    return found.refund;
  }

  /**
   * The encrypted, signed REFUND.{status} notification of a refund, posted to the refund's notify_url. `subMchid`:
   * authentic, but naming another sub-merchant than the order's.
   */
  refundNotification(outRefundNo: string, options: { tamper?: Tamper; refundFen?: number; subMchid?: string } = {}): SignedNotification {
    const found = this.refundNamed(outRefundNo);
    const notifyUrl = found?.refund.notifyUrl;
    if (!found || !notifyUrl) throw new Error(`fake WeChat Pay has no refund ${outRefundNo} with a notify_url`);
    const { order, refund } = found;
    const merchants = order.subMchid === undefined ? { mchid: order.mchid } : { sp_mchid: order.mchid, sub_mchid: options.subMchid ?? order.subMchid };
    const resource = {
      ...merchants,
      out_trade_no: order.outTradeNo,
      transaction_id: order.transactionId,
      out_refund_no: refund.outRefundNo,
      refund_id: refund.refundId,
      refund_status: refund.status,
      ...(refund.successTime ? { success_time: refund.successTime } : {}),
      user_received_account: refund.userReceivedAccount ?? "",
      amount: { total: order.totalFen, refund: options.refundFen ?? refund.refundFen, payer_total: order.totalFen, payer_refund: options.refundFen ?? refund.refundFen },
    };
    return this.signedNotice(notifyUrl, `REFUND.${refund.status}`, "退款状态", "refund", resource, options.tamper);
  }

  /** A notification as WeChat Pay posts it: the resource encrypted with the APIv3 key, the envelope signed. */
  private signedNotice(url: string, eventType: string, summary: string, originalType: string, resource: unknown, tamper: Tamper | undefined): SignedNotification {
    const nonce = randomBytes(6).toString("hex");
    const cipher = createCipheriv("aes-256-gcm", Buffer.from(this.merchant.apiV3Key, "utf8"), Buffer.from(nonce, "utf8"));
    cipher.setAAD(Buffer.from(originalType, "utf8"));
    const ciphertext = Buffer.concat([cipher.update(JSON.stringify(resource), "utf8"), cipher.final(), cipher.getAuthTag()]).toString("base64");
    const envelope = {
      id: `EV-${randomBytes(8).toString("hex")}`,
      create_time: chinaTime(this.clock.now()),
      event_type: eventType,
      resource_type: "encrypt-resource",
      summary,
      resource: { algorithm: "AEAD_AES_256_GCM", ciphertext, nonce, associated_data: originalType, original_type: originalType },
    };
    const signed = this.signedHeaders(JSON.stringify(envelope), tamper);
    return { url, headers: { ...signed.headers, "content-type": "application/json" }, body: signed.body };
  }

  /** The next trade bill's file is altered after its digest is taken. */
  alterNextBill(): void {
    this.nextBillAltered = true;
  }

  /**
   * GET /v3/bill/tradebill?bill_date=&sub_mchid=&bill_type=ALL: the day's payments (by their success time) and
   * refunds (by their acceptance), China time, of one sub-merchant or of all; answers the file's SHA1 and its
   * download_url, or NO_STATEMENT_EXIST for a day without trade.
   */
  private tradeBill(res: http.ServerResponse, url: URL): void {
    const billDate = url.searchParams.get("bill_date") ?? "";
    if (!/^\d{4}-\d{2}-\d{2}$/.test(billDate)) return this.error(res, 400, "PARAM_ERROR", "bill_date");
    if ((url.searchParams.get("bill_type") ?? "ALL") !== "ALL") return this.error(res, 400, "PARAM_ERROR", "bill_type: this fake writes ALL bills");
    const subMchid = url.searchParams.get("sub_mchid");
    const rows: string[] = [];
    let settlement = 0;
    let refunded = 0;
    let fees = 0;
    let ordered = 0;
    const time = (rfc3339: string) => rfc3339.slice(0, 19).replace("T", " ");
    for (const order of this.orders.values()) {
      if (subMchid !== null && order.subMchid !== subMchid) continue;
      const common = [this.merchant.mchid, order.subMchid ?? "0", "", order.transactionId ?? "", order.outTradeNo, "oUpF8uMuAJO_M2pxb1Q9zNjWeS6o", order.tradeType];
      if (order.successTime?.slice(0, 10) === billDate) {
        const fee = billFee(order.totalFen);
        rows.push(billRow([time(order.successTime), order.appid, ...common, "SUCCESS", "CMB_CREDIT", "CNY", yuan(order.totalFen), "0.00", "0", "0", "0.00", "0.00", "", "", order.description, "", billFeeText(fee), "0.60%", yuan(order.totalFen), "0.00", ""]));
        settlement += order.totalFen;
        ordered += order.totalFen;
        fees += fee;
      }
      for (const refund of order.refunds) {
        if (refund.createTime.slice(0, 10) !== billDate) continue;
        const fee = -billFee(refund.refundFen);
        rows.push(
          billRow([time(refund.createTime), order.appid, ...common, "REFUND", "CMB_CREDIT", "CNY", "0.00", "0.00", refund.refundId, refund.outRefundNo, yuan(refund.refundFen), "0.00", "ORIGINAL", refund.status, order.description, "", billFeeText(fee), "0.60%", "0.00", yuan(refund.refundFen), ""]),
        );
        refunded += refund.refundFen;
        fees += fee;
      }
    }
    if (rows.length === 0) return this.error(res, 400, "NO_STATEMENT_EXIST", "该日期账单不存在");
    const file = `${[BILL_HEADER, ...rows, BILL_SUMMARY_HEADER, billRow([rows.length, yuan(settlement), yuan(refunded), "0.00", billFeeText(fees), yuan(ordered), yuan(refunded)])].join("\r\n")}\r\n`;
    const token = randomBytes(12).toString("hex");
    const digest = createHash("sha1").update(file, "utf8").digest("hex").toUpperCase();
    this.billFiles.set(token, this.nextBillAltered ? file.replace(/`SUCCESS,/, "`REFUND,") : file);
    this.nextBillAltered = false;
    this.answer(res, 200, { hash_type: "SHA1", hash_value: digest, download_url: `${this.url}/v3/billdownload/file?token=${token}` });
  }

  /** The merchant fields of a transaction: mchid, or the service provider's and the sub-merchant's. */
  private merchantFields(order: FakeOrder): JsonObject {
    if (order.subMchid === undefined) return { appid: order.appid, mchid: order.mchid };
    return { sp_appid: order.appid, sp_mchid: order.mchid, ...(order.subAppid ? { sub_appid: order.subAppid } : {}), sub_mchid: order.subMchid };
  }

  private payerFields(order: FakeOrder): JsonObject {
    if (order.subMchid === undefined) return { openid: "oUpF8uMuAJO_M2pxb1Q9zNjWeS6o" };
    const payer = order.payer ?? { spOpenid: "oUpF8uMuAJO_M2pxb1Q9zNjWeS6o" };
    return "spOpenid" in payer ? { sp_openid: payer.spOpenid } : { sub_openid: payer.subOpenid };
  }

  /** The transaction as the query answers it and as notifications carry it (encrypted). */
  private transaction(order: FakeOrder): Record<string, unknown> {
    return {
      ...this.merchantFields(order),
      out_trade_no: order.outTradeNo,
      trade_state: order.state,
      trade_state_desc: order.state,
      ...(order.transactionId
        ? {
            transaction_id: order.transactionId,
            trade_type: order.tradeType,
            success_time: order.successTime,
            payer: this.payerFields(order),
            amount: { total: order.totalFen, payer_total: order.totalFen, currency: "CNY", payer_currency: "CNY" },
          }
        : { amount: { total: order.totalFen, currency: "CNY" } }),
    };
  }

  /**
   * What WeChat's JS bridge checks before it shows the payment sheet: the package names a JSAPI order, appId is the
   * app of its payer's openid, and paySign is the service provider's signature. Answers the order; throws otherwise.
   */
  checkJsapiPayParams(params: FakeJsapiPayParams): FakeOrder {
    const prepayId = params.package.startsWith("prepay_id=") ? params.package.slice("prepay_id=".length) : "";
    const order = [...this.orders.values()].find((o) => o.prepayId !== undefined && o.prepayId === prepayId);
    if (!order) throw new Error("no order has this prepay_id");
    const payerApp = order.payer && "subOpenid" in order.payer ? order.subAppid : order.appid;
    if (params.appId !== payerApp) throw new Error("appId is not the app of the payer's openid");
    if (params.signType !== "RSA") throw new Error("signType is not RSA");
    const message = `${params.appId}\n${params.timeStamp}\n${params.nonceStr}\n${params.package}\n`;
    if (!createVerify("RSA-SHA256").update(message, "utf8").verify(this.merchant.publicKey, params.paySign, "base64")) throw new Error("bad paySign");
    return order;
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
    // the merchants the resource names, in the form of its mode: mchid, or sp_mchid and sub_mchid
    const described: FakeOrder = { ...order, mchid: options.mchid ?? order.mchid, subMchid: options.subMchid ?? order.subMchid };
    const transaction = {
      ...this.transaction(described),
      amount: { total: options.amountFen ?? order.totalFen, payer_total: order.totalFen, currency: "CNY", payer_currency: "CNY" },
      // a trade that did not succeed still carries WeChat Pay's transaction id
      ...(options.tradeState ? { trade_state: options.tradeState, trade_state_desc: options.tradeState, transaction_id: order.transactionId ?? `4200${String(++this.sequence).padStart(24, "0")}` } : {}),
    };
    return this.signedNotice(order.notifyUrl, "TRANSACTION.SUCCESS", "支付成功", "transaction", transaction, options.tamper);
  }

  /** Posts a notification to its notify_url, as WeChat Pay does; resolves to the merchant's answer. */
  async deliver(notification: SignedNotification): Promise<{ status: number; body: string }> {
    const res = await fetch(notification.url, { method: "POST", headers: notification.headers, body: notification.body });
    return { status: res.status, body: await res.text() };
  }
}

/**
 * The platform's WeChat Pay merchant acting as service provider for a school's sub-merchant, as the fee tests set it
 * up: its numbers, its official account's app and AppSecret, and a fresh key pair. `start` starts the fake WeChat
 * Pay that knows it; `merchantSet` is paymerchantset's payload for it there (its secrets kept unless `changes` give
 * them; `secrets()` gives them).
 */
export function platformServiceProvider() {
  const keys = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const provider = {
    spMchid: "1900009191",
    subMchid: "1900000109",
    appid: "wxd678efh567hg6787",
    appSecret: "3f1c2b9a8e7d6c5b4a39281706f5e4d3",
    serialNo: "5157F09EFDC096DE15EBE81A47057A7232F1B8E1",
    apiV3Key: "0123456789abcdefghijABCDEFGHIJ01",
    start(clock: Clock): Promise<FakeWechatPay> {
      return FakeWechatPay.start(
        { mchid: provider.spMchid, appid: provider.appid, serialNo: provider.serialNo, publicKey: keys.publicKey, apiV3Key: provider.apiV3Key, subMerchants: [{ subMchid: provider.subMchid }] },
        clock,
      );
    },
    secrets(): Record<string, string> {
      return { private_key: keys.privateKey.export({ type: "pkcs8", format: "pem" }).toString(), api_v3_key: provider.apiV3Key };
    },
    merchantSet(fake: FakeWechatPay, changes: Record<string, unknown> = {}): Record<string, unknown> {
      return {
        gateway: "wechatpay",
        merchant_id: provider.spMchid,
        appid: provider.appid,
        merchant_serial_no: provider.serialNo,
        platform_key_id: FAKE_PUBLIC_KEY_ID,
        platform_public_key: fake.publicKeyPem,
        api_base: fake.url,
        enabled: "Y",
        ...changes,
      };
    },
  };
  return provider;
}
