/** The wechatpay gateway against the fake WeChat Pay server: signed requests, verified answers and notifications. */
import { generateKeyPairSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../server/lib/clock";
import { GatewayRequestError, GatewayVerificationError } from "../../server/payments/gateway";
import { WechatPayGateway, type WechatPayConfig } from "../../server/payments/wechatpay/gateway";
import { FAKE_PUBLIC_KEY_ID, FakeWechatPay, type Tamper } from "../helpers/fakeWechatPay";

const MCHID = "1900009191";
const APPID = "wxd678efh567hg6787";
const SERIAL = "5157F09EFDC096DE15EBE81A47057A7232F1B8E1";
const API_V3_KEY = "0123456789abcdefghijABCDEFGHIJ01";
const TAMPERS: Tamper[] = ["body", "signature", "stale", "serial"];

describe("wechatpay gateway", () => {
  const clock = new ManualClock(new Date("2026-03-02T02:00:00Z"));
  const merchantKeys = generateKeyPairSync("rsa", { modulusLength: 2048 });
  let fake: FakeWechatPay;
  let config: WechatPayConfig;
  let gateway: WechatPayGateway;
  let orderCount = 0;

  beforeAll(async () => {
    fake = await FakeWechatPay.start({ mchid: MCHID, appid: APPID, serialNo: SERIAL, publicKey: merchantKeys.publicKey, apiV3Key: API_V3_KEY }, clock);
    config = {
      merchantId: MCHID,
      appid: APPID,
      merchantSerialNo: SERIAL,
      privateKeyPem: merchantKeys.privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
      apiV3Key: API_V3_KEY,
      platformKeyId: FAKE_PUBLIC_KEY_ID,
      platformPublicKeyPem: fake.publicKeyPem,
      apiBase: fake.url,
    };
    gateway = new WechatPayGateway(config, clock);
  });

  afterAll(async () => {
    await fake.close();
  });

  async function newOrder(amountFen = 36500): Promise<{ payNo: string; codeUrl: string }> {
    const payNo = `P2026030200000${String(++orderCount).padStart(4, "0")}`;
    const { codeUrl } = await gateway.createQrOrder({
      payNo,
      description: "Renewal package: 1 year",
      amountFen,
      notifyUrl: `http://127.0.0.1:9/pay/notify/wechatpay/${MCHID}`,
      expiresAt: new Date(clock.now().getTime() + 2 * 3600 * 1000),
    });
    return { payNo, codeUrl };
  }

  it("creates a Native order and returns the code_url WeChat Pay gives", async () => {
    const { payNo, codeUrl } = await newOrder(36500);
    const order = fake.orders.get(payNo)!;
    expect(codeUrl).toBe(order.codeUrl);
    expect(codeUrl).toMatch(/^weixin:\/\/wxpay\/bizpayurl\?pr=/);
    expect(order).toMatchObject({ mchid: MCHID, appid: APPID, totalFen: 36500, notifyUrl: `http://127.0.0.1:9/pay/notify/wechatpay/${MCHID}` });
    // 02:00Z + 2 h, in China time as WeChat Pay expects
    expect(order.timeExpire).toBe("2026-03-02T12:00:00+08:00");
  });

  it("signs requests in WeChat Pay's Authorization format", async () => {
    await newOrder();
    const request = fake.requests.at(-1)!;
    expect(request.authorization).toMatch(
      new RegExp(`^WECHATPAY2-SHA256-RSA2048 mchid="${MCHID}",nonce_str="[0-9A-F]{32}",signature="[A-Za-z0-9+/=]+",timestamp="${clock.now().getTime() / 1000}",serial_no="${SERIAL}"$`),
    );
  });

  it("cuts a long description to WeChat Pay's 127 bytes without splitting a character", async () => {
    const payNo = "P20260302LONGDESCRIPTION";
    await gateway.createQrOrder({ payNo, description: "续费套餐".repeat(20), amountFen: 100, notifyUrl: "http://127.0.0.1:9/n", expiresAt: clock.now() });
    const description = fake.orders.get(payNo)!.description;
    expect(Buffer.byteLength(description, "utf8")).toBe(126);
    expect(description).toBe("续费套餐".repeat(20).slice(0, 42));
  });

  it("queries an order before and after payment", async () => {
    const { payNo } = await newOrder(68000);
    await expect(gateway.query(payNo)).resolves.toMatchObject({ payNo, state: "NOTPAY", merchantId: MCHID, transactionId: undefined });
    const paid = fake.markPaid(payNo);
    const trade = await gateway.query(payNo);
    expect(trade).toMatchObject({ payNo, state: "SUCCESS", amountFen: 68000, transactionId: paid.transactionId, merchantId: MCHID });
    expect(trade.paidAt?.toISOString()).toBe(clock.now().toISOString());
  });

  it("answers an unknown order with WeChat Pay's error", async () => {
    const error = await gateway.query("P20260302NOSUCHORDER").catch((err: unknown) => err);
    expect(error).toBeInstanceOf(GatewayRequestError);
    expect(error).toMatchObject({ status: 404, code: "ORDER_NOT_EXIST" });
  });

  it("closes an order", async () => {
    const { payNo } = await newOrder();
    await gateway.close(payNo);
    expect(fake.orders.get(payNo)!.state).toBe("CLOSED");
    await expect(gateway.query(payNo)).resolves.toMatchObject({ state: "CLOSED" });
  });

  it("refunds a paid order", async () => {
    const { payNo } = await newOrder(36500);
    fake.markPaid(payNo);
    const refund = await gateway.refund({ payNo, refundNo: `R${payNo}`, amountFen: 10000, totalFen: 36500, reason: "duplicate payment" });
    expect(refund).toMatchObject({ refundNo: `R${payNo}`, status: "PROCESSING" });
    expect(refund.refundId).toBe(fake.orders.get(payNo)!.refunds[0]!.refundId);
    expect(fake.orders.get(payNo)!.refunds[0]!.refundFen).toBe(10000);
    await expect(gateway.refund({ payNo, refundNo: `R2${payNo}`, amountFen: 30000, totalFen: 36500 })).rejects.toMatchObject({ status: 400, code: "INVALID_REQUEST" });
  });

  it("is refused by WeChat Pay when its request signature is not the merchant's", async () => {
    const otherKey = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    const impostor = new WechatPayGateway({ ...config, privateKeyPem: otherKey }, clock);
    const error = await impostor.query("P20260302000000001").catch((err: unknown) => err);
    expect(error).toBeInstanceOf(GatewayRequestError);
    expect(error).toMatchObject({ status: 401, code: "SIGN_ERROR" });
  });

  it.each(TAMPERS)("refuses an answer with a %s fault", async (tamper) => {
    const { payNo } = await newOrder();
    fake.tamperNextAnswer(tamper);
    await expect(gateway.query(payNo)).rejects.toBeInstanceOf(GatewayVerificationError);
    // the next, untouched answer is accepted again
    await expect(gateway.query(payNo)).resolves.toMatchObject({ state: "NOTPAY" });
  });

  it("verifies and decrypts a payment notification", async () => {
    const { payNo } = await newOrder(98000);
    const notification = fake.notification(payNo);
    const notice = await gateway.verifyNotification(notification.headers, notification.body);
    expect(notice).toEqual({
      payNo,
      state: "SUCCESS",
      amountFen: 98000,
      transactionId: fake.orders.get(payNo)!.transactionId,
      merchantId: MCHID,
      paidAt: clock.now(),
    });
  });

  it.each(TAMPERS)("refuses a notification with a %s fault", async (tamper) => {
    const { payNo } = await newOrder();
    const notification = fake.notification(payNo, { tamper });
    await expect(gateway.verifyNotification(notification.headers, notification.body)).rejects.toBeInstanceOf(GatewayVerificationError);
  });

  it("refuses a notification that an authentic signature covers but another APIv3 key encrypted", async () => {
    const { payNo } = await newOrder();
    const notification = fake.notification(payNo);
    const otherKeyGateway = new WechatPayGateway({ ...config, apiV3Key: "ZYXWVUTSRQPONMLKJIHGFEDCBA987654" }, clock);
    await expect(otherKeyGateway.verifyNotification(notification.headers, notification.body)).rejects.toBeInstanceOf(GatewayVerificationError);
  });

  it("refuses a notification whose signature is older than five minutes at arrival", async () => {
    const { payNo } = await newOrder();
    const notification = fake.notification(payNo);
    clock.advance(5 * 60 * 1000 + 1000);
    try {
      await expect(gateway.verifyNotification(notification.headers, notification.body)).rejects.toBeInstanceOf(GatewayVerificationError);
    } finally {
      clock.advance(-(5 * 60 * 1000 + 1000));
    }
  });
});
