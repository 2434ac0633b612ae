/**
 * WeChat Pay in service-provider mode (the partner API), as fee collection pays a school's own sub-merchant
 * through its provider's merchant: Native and JSAPI orders, query, close and notifications against the fake
 * WeChat Pay server; then, on the app, a service-provider notification pays only an order of its own
 * sub-merchant, and never a renewal, which stays paid to the platform's merchant in direct mode.
 */
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tableColumn } from "../../server/db/catalogueTables";
import { auditLog, paymentOrders, providers, schools } from "../../server/db/schema";
import { ManualClock } from "../../server/lib/clock";
import { applyPaidOrder, PaymentMismatchError } from "../../server/payments/apply";
import { GatewayRequestError, GatewayVerificationError, type JsapiPayer } from "../../server/payments/gateway";
import { registerPaymentKind, type PaymentOrder } from "../../server/payments/kinds";
import { loadMerchant, wechatPayGatewayOf } from "../../server/payments/merchants";
import { ORDER_PAYABLE_MS } from "../../server/payments/orders";
import { PaymentSecrets } from "../../server/payments/secrets";
import { WechatPayGateway, type WechatPayConfig } from "../../server/payments/wechatpay/gateway";
import { FAKE_PUBLIC_KEY_ID, FakeWechatPay, type FakeMerchant, type SignedNotification, type Tamper } from "../helpers/fakeWechatPay";
import { describeOnEmbedded } from "../helpers/db";
import { createTestApp, idByTitle, type TestApp } from "./support";

/** the service provider (sp_mchid) and its app (sp_appid) */
const SP_MCHID = "1230000109";
const SP_APPID = "wx8888888888888888";
const SERIAL = "5157F09EFDC096DE15EBE81A47057A7232F1B8E1";
const API_V3_KEY = "0123456789abcdefghijABCDEFGHIJ01";
/** two schools' sub-merchants the provider serves; the first has an app of its own */
const SUB_MCHID = "1900000109";
const SUB_APPID = "wxd678efh567hg6999";
const OTHER_SUB_MCHID = "1900000110";
const UNSERVED_SUB_MCHID = "1900000999";
const TAMPERS: Tamper[] = ["body", "signature", "stale", "serial"];

function fakeMerchant(publicKey: FakeMerchant["publicKey"]): FakeMerchant {
  return {
    mchid: SP_MCHID,
    appid: SP_APPID,
    serialNo: SERIAL,
    publicKey,
    apiV3Key: API_V3_KEY,
    subMerchants: [{ subMchid: SUB_MCHID, subAppid: SUB_APPID }, { subMchid: OTHER_SUB_MCHID }],
  };
}

const requestBody = (fake: FakeWechatPay) => JSON.parse(fake.requests.at(-1)!.body) as Record<string, unknown>;

describe("wechatpay gateway in service-provider mode", () => {
  const clock = new ManualClock(new Date("2026-03-02T02:00:00Z"));
  const merchantKeys = generateKeyPairSync("rsa", { modulusLength: 2048 });
  let fake: FakeWechatPay;
  let gateway: WechatPayGateway;
  let orderCount = 0;

  beforeAll(async () => {
    fake = await FakeWechatPay.start(fakeMerchant(merchantKeys.publicKey), clock);
    const config: WechatPayConfig = {
      merchantId: SP_MCHID,
      appid: SP_APPID,
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

  const nextPayNo = () => `F2026030200000${String(++orderCount).padStart(4, "0")}`;
  const orderFields = (payNo: string, amountFen: number, subMchid: string) => ({
    payNo,
    description: "Autumn term tuition",
    amountFen,
    notifyUrl: `http://127.0.0.1:9/pay/notify/wechatpay/${SP_MCHID}`,
    expiresAt: new Date(clock.now().getTime() + ORDER_PAYABLE_MS),
    subMchid,
  });
  async function nativeOrder(amountFen = 120000, subMchid = SUB_MCHID): Promise<string> {
    const payNo = nextPayNo();
    await gateway.createQrOrder(orderFields(payNo, amountFen, subMchid));
    return payNo;
  }
  async function jsapiOrder(payer: JsapiPayer, amountFen = 45000) {
    const payNo = nextPayNo();
    return { payNo, order: await gateway.createJsapiOrder({ ...orderFields(payNo, amountFen, SUB_MCHID), payer }) };
  }

  it("creates a Native order for a sub-merchant at the partner endpoint, as its service provider", async () => {
    const payNo = nextPayNo();
    const { codeUrl } = await gateway.createQrOrder(orderFields(payNo, 120000, SUB_MCHID));
    const request = fake.requests.at(-1)!;
    expect(request).toMatchObject({ method: "POST", path: "/v3/pay/partner/transactions/native" });
    expect(request.authorization).toContain(`mchid="${SP_MCHID}"`);
    expect(requestBody(fake)).toEqual({
      sp_appid: SP_APPID,
      sp_mchid: SP_MCHID,
      sub_mchid: SUB_MCHID,
      description: "Autumn term tuition",
      out_trade_no: payNo,
      time_expire: "2026-03-02T12:00:00+08:00",
      notify_url: `http://127.0.0.1:9/pay/notify/wechatpay/${SP_MCHID}`,
      amount: { total: 120000, currency: "CNY" },
    });
    const remote = fake.orders.get(payNo)!;
    expect(remote).toMatchObject({ tradeType: "NATIVE", mchid: SP_MCHID, subMchid: SUB_MCHID, totalFen: 120000, state: "NOTPAY" });
    expect(codeUrl).toBe(remote.codeUrl);
  });

  it("creates a JSAPI order for a payer of the service provider's app, with JS bridge parameters WeChat accepts", async () => {
    const { payNo, order } = await jsapiOrder({ spOpenid: "oUpF8uMuAJO_M2pxb1Q9zNjWeS6o" });
    expect(fake.requests.at(-1)!.path).toBe("/v3/pay/partner/transactions/jsapi");
    const body = requestBody(fake);
    expect(body).toMatchObject({ sp_appid: SP_APPID, sp_mchid: SP_MCHID, sub_mchid: SUB_MCHID, out_trade_no: payNo, payer: { sp_openid: "oUpF8uMuAJO_M2pxb1Q9zNjWeS6o" } });
    expect(body).not.toHaveProperty("sub_appid");
    const remote = fake.orders.get(payNo)!;
    expect(order.prepayId).toBe(remote.prepayId);
    expect(order.payParams).toMatchObject({
      appId: SP_APPID,
      timeStamp: String(clock.now().getTime() / 1000),
      package: `prepay_id=${remote.prepayId}`,
      signType: "RSA",
    });
    expect(order.payParams.nonceStr).toMatch(/^[0-9A-F]{32}$/);
    expect(fake.checkJsapiPayParams(order.payParams)).toBe(remote);
    // the bridge refuses the same parameters for another app, or once any of them is changed
    expect(() => fake.checkJsapiPayParams({ ...order.payParams, appId: SUB_APPID })).toThrow(/appId/);
    expect(() => fake.checkJsapiPayParams({ ...order.payParams, nonceStr: "0".repeat(32) })).toThrow(/paySign/);
  });

  it("creates a JSAPI order for a payer of the sub-merchant's own app, naming sub_appid and signing for that app", async () => {
    const { payNo, order } = await jsapiOrder({ subAppid: SUB_APPID, subOpenid: "o4GgauInH_RCEdvrrNGrntXDuXXX" });
    expect(requestBody(fake)).toMatchObject({ sp_appid: SP_APPID, sub_appid: SUB_APPID, sub_mchid: SUB_MCHID, payer: { sub_openid: "o4GgauInH_RCEdvrrNGrntXDuXXX" } });
    expect(order.payParams.appId).toBe(SUB_APPID);
    expect(fake.checkJsapiPayParams(order.payParams)).toBe(fake.orders.get(payNo));
  });

  it("is refused by WeChat Pay for a sub-merchant it does not serve, or an app that is not the sub-merchant's", async () => {
    const unserved = await gateway.createQrOrder(orderFields(nextPayNo(), 100, UNSERVED_SUB_MCHID)).catch((err: unknown) => err);
    expect(unserved).toBeInstanceOf(GatewayRequestError);
    expect(unserved).toMatchObject({ status: 403, code: "NO_AUTH" });
    const otherApp = await jsapiOrder({ subAppid: "wx0000000000000000", subOpenid: "o4GgauInH_RCEdvrrNGrntXDuXXX" }).catch((err: unknown) => err);
    expect(otherApp).toMatchObject({ status: 400, code: "APPID_MCHID_NOT_MATCH" });
  });

  it("queries an order by out_trade_no under its sub-merchant, before and after payment", async () => {
    const payNo = await nativeOrder(68000);
    await expect(gateway.query(payNo, { subMchid: SUB_MCHID })).resolves.toMatchObject({ payNo, state: "NOTPAY", merchantId: SUB_MCHID, spMchid: SP_MCHID, transactionId: undefined });
    expect(fake.requests.at(-1)).toMatchObject({ method: "GET", path: `/v3/pay/partner/transactions/out-trade-no/${payNo}?sp_mchid=${SP_MCHID}&sub_mchid=${SUB_MCHID}` });
    const paid = fake.markPaid(payNo);
    const trade = await gateway.query(payNo, { subMchid: SUB_MCHID });
    // the payee is the sub-merchant; the service provider only took the order
    expect(trade).toMatchObject({ payNo, state: "SUCCESS", amountFen: 68000, transactionId: paid.transactionId, merchantId: SUB_MCHID, spMchid: SP_MCHID });
    expect(trade.paidAt?.toISOString()).toBe(clock.now().toISOString());
  });

  it("answers ORDER_NOT_EXIST for an unknown order, and for an order asked under another sub-merchant or in direct mode", async () => {
    const payNo = await nativeOrder();
    for (const asked of [gateway.query("F20260302NOSUCHORDER", { subMchid: SUB_MCHID }), gateway.query(payNo, { subMchid: OTHER_SUB_MCHID }), gateway.query(payNo)]) {
      const error = await asked.catch((err: unknown) => err);
      expect(error).toBeInstanceOf(GatewayRequestError);
      expect(error).toMatchObject({ status: 404, code: "ORDER_NOT_EXIST" });
    }
  });

  it("closes an unpaid order", async () => {
    const payNo = await nativeOrder();
    await gateway.close(payNo, { subMchid: SUB_MCHID });
    expect(fake.requests.at(-1)).toMatchObject({ method: "POST", path: `/v3/pay/partner/transactions/out-trade-no/${payNo}/close` });
    expect(requestBody(fake)).toEqual({ sp_mchid: SP_MCHID, sub_mchid: SUB_MCHID });
    expect(fake.orders.get(payNo)!.state).toBe("CLOSED");
    await expect(gateway.query(payNo, { subMchid: SUB_MCHID })).resolves.toMatchObject({ state: "CLOSED" });
  });

  it("is refused to close a paid order (ORDERPAID), which stays paid", async () => {
    const payNo = await nativeOrder();
    fake.markPaid(payNo);
    const error = await gateway.close(payNo, { subMchid: SUB_MCHID }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(GatewayRequestError);
    expect(error).toMatchObject({ status: 400, code: "ORDERPAID" });
    await expect(gateway.query(payNo, { subMchid: SUB_MCHID })).resolves.toMatchObject({ state: "SUCCESS" });
  });

  it("verifies and decrypts a service-provider notification", async () => {
    const { payNo } = await jsapiOrder({ subAppid: SUB_APPID, subOpenid: "o4GgauInH_RCEdvrrNGrntXDuXXX" }, 98000);
    const notification = fake.notification(payNo);
    const notice = await gateway.verifyNotification(notification.headers, notification.body);
    expect(notice).toEqual({
      payNo,
      state: "SUCCESS",
      amountFen: 98000,
      transactionId: fake.orders.get(payNo)!.transactionId,
      merchantId: SUB_MCHID,
      spMchid: SP_MCHID,
      paidAt: clock.now(),
    });
  });

  it("reports the sub-merchant an authentic notification names, whichever order it is about", async () => {
    const payNo = await nativeOrder();
    const notification = fake.notification(payNo, { subMchid: OTHER_SUB_MCHID });
    await expect(gateway.verifyNotification(notification.headers, notification.body)).resolves.toMatchObject({ payNo, merchantId: OTHER_SUB_MCHID, spMchid: SP_MCHID });
  });

  it.each(TAMPERS)("refuses a service-provider notification with a %s fault", async (tamper) => {
    const payNo = await nativeOrder();
    const notification = fake.notification(payNo, { tamper });
    await expect(gateway.verifyNotification(notification.headers, notification.body)).rejects.toBeInstanceOf(GatewayVerificationError);
  });
});

/** a kind paid to a school's channel, as fees will be: its effect is only what the test records */
const appliedFees: PaymentOrder[] = [];
registerPaymentKind({
  kind: "test_partner_fee",
  payee: "school_channel",
  async applyPaid(_tx, order) {
    appliedFees.push(order);
    return { appliedEnd: null };
  },
});

describeOnEmbedded("service-provider payments on the app", (kind) => {
  const paymentKey = randomBytes(32).toString("base64");
  const merchantKeys = generateKeyPairSync("rsa", { modulusLength: 2048 });
  let t: TestApp;
  let fake: FakeWechatPay;
  let gateway: WechatPayGateway;
  let school: string;
  let schId: number;
  let sysid: number;
  let oneYear: number;
  let feeCount = 0;

  const order = async (payNo: string) => (await t.db.select().from(paymentOrders).where(eq(paymentOrders.payNo, payNo)))[0]!;
  const schoolEnd = async () => String((await t.db.select({ end: tableColumn(schools, "endtime") }).from(schools).where(eq(tableColumn(schools, "id"), schId)))[0]!.end);
  const mismatchesOf = (payNo: string) => t.db.select().from(auditLog).where(and(eq(auditLog.action, "payment_mismatch"), eq(auditLog.entityId, payNo)));
  const deliver = (notification: SignedNotification) =>
    t.app.inject({ method: "POST", url: new URL(notification.url).pathname, headers: notification.headers, payload: notification.body });
  const verifyAndApply = async (notification: SignedNotification) => {
    const notice = await gateway.verifyNotification(notification.headers, notification.body);
    return applyPaidOrder(t.db, { ...notice, gateway: "wechatpay", ip: "127.0.0.1" }, t.clock.now());
  };

  /** A school's fee order paid to its sub-merchant: recorded with the sub-merchant as payee, created at the fake. */
  async function feeOrder(amountFen: number): Promise<string> {
    const payNo = `F20260302${String(++feeCount).padStart(10, "0")}`;
    const expiresAt = new Date(t.clock.now().getTime() + ORDER_PAYABLE_MS);
    const { codeUrl } = await gateway.createQrOrder({
      payNo,
      description: "Autumn term tuition",
      amountFen,
      notifyUrl: `http://127.0.0.1:9/pay/notify/wechatpay/${SP_MCHID}`,
      expiresAt,
      subMchid: SUB_MCHID,
    });
    await t.db.insert(paymentOrders).values({
      payNo,
      orderid: payNo.slice(1),
      kind: "test_partner_fee",
      sysid,
      schId,
      title: "Autumn term tuition",
      termMonths: 0,
      totalFeeFen: amountFen,
      gateway: "wechatpay",
      merchantId: SUB_MCHID,
      codeUrl,
      expiresAt,
    });
    return payNo;
  }

  beforeAll(async () => {
    // each database's run counts its own
    appliedFees.length = 0;
    t = await createTestApp(kind, { paymentKey: { key: paymentKey } });
    fake = await FakeWechatPay.start(fakeMerchant(merchantKeys.publicKey), t.clock);
    // the platform's merchant takes renewals in direct mode and acts as service provider for the schools' merchants
    const set = await t.call(
      "adminapiv2",
      "paymerchantset",
      {
        gateway: "wechatpay",
        merchant_id: SP_MCHID,
        appid: SP_APPID,
        merchant_serial_no: SERIAL,
        private_key: merchantKeys.privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
        api_v3_key: API_V3_KEY,
        platform_key_id: FAKE_PUBLIC_KEY_ID,
        platform_public_key: fake.publicKeyPem,
        api_base: fake.url,
        enabled: "Y",
      },
      { token: await t.login("sysadmin") },
    );
    expect(set.return_code, set.return_msg).toBe("SUCCESS");
    gateway = wechatPayGatewayOf({ paymentSecrets: new PaymentSecrets({ key: paymentKey }), clock: t.clock }, (await loadMerchant(t.db, null))!);
    school = await t.login("school");
    schId = await idByTitle(t.db, schools, "Sunrise No.1 Primary School");
    sysid = await idByTitle(t.db, providers, "Sunrise Campus Services");
    const meals = (await t.call("adminapiv2", "getsetmeal", {}, { token: school })).data?.items as { id: number; title: string }[];
    oneYear = meals.find((m) => m.title === "One year")!.id;
  });
  afterAll(async () => {
    await fake?.close();
    await t?.close();
  });

  it("pays a fee order only with a notification of its own sub-merchant, once", async () => {
    const payNo = await feeOrder(120000);
    // authentic, from the same service provider, but naming another school's sub-merchant
    await expect(verifyAndApply(fake.notification(payNo, { subMchid: OTHER_SUB_MCHID }))).rejects.toBeInstanceOf(PaymentMismatchError);
    expect(await order(payNo)).toMatchObject({ status: "NOTPAY", transactionId: null });
    const recorded = await mismatchesOf(payNo);
    expect(recorded).toHaveLength(1);
    expect(recorded[0]!.detail).toMatchObject({ merchant_id: OTHER_SUB_MCHID, expected_merchant_id: SUB_MCHID });
    expect(appliedFees.filter((o) => o.payNo === payNo)).toHaveLength(0);

    const notification = fake.notification(payNo);
    await expect(verifyAndApply(notification)).resolves.toMatchObject({ applied: true });
    await expect(verifyAndApply(notification)).resolves.toMatchObject({ applied: false });
    expect(await order(payNo)).toMatchObject({ status: "SUCCESS", transactionId: fake.orders.get(payNo)!.transactionId, merchantId: SUB_MCHID });
    expect(appliedFees.filter((o) => o.payNo === payNo)).toHaveLength(1);
  });

  it("finds a fee order paid without notification by querying under its sub-merchant", async () => {
    const payNo = await feeOrder(45000);
    fake.markPaid(payNo);
    const trade = await gateway.query(payNo, { subMchid: (await order(payNo)).merchantId });
    expect(trade).toMatchObject({ state: "SUCCESS", merchantId: SUB_MCHID });
    await expect(
      applyPaidOrder(t.db, { payNo, gateway: "wechatpay", amountFen: trade.amountFen!, merchantId: trade.merchantId!, transactionId: trade.transactionId!, paidAt: trade.paidAt, ip: "127.0.0.1" }, t.clock.now()),
    ).resolves.toMatchObject({ applied: true });
    expect((await order(payNo)).status).toBe("SUCCESS");
  });

  it("never pays a renewal with a service-provider notification, and still pays it with its own", async () => {
    const before = await schoolEnd();
    const res = await t.call("adminapiv2", "get_pay", { setmeal_id: oneYear, sch_id: schId }, { token: school });
    expect(res.return_code, res.return_msg).toBe("SUCCESS");
    const payNo = (res.data?.items as { pay_no: string }).pay_no;
    // the renewal is ordered in direct mode, paid to the platform's merchant itself
    expect(fake.orders.get(payNo)).toMatchObject({ tradeType: "NATIVE", mchid: SP_MCHID });
    expect(fake.orders.get(payNo)!.subMchid).toBeUndefined();
    expect(fake.requests.find((r) => r.body.includes(payNo))!.path).toBe("/v3/pay/transactions/native");

    // authentic and from the same merchant, but reporting a payment to a school's sub-merchant
    const forged = await deliver(fake.notification(payNo, { subMchid: SUB_MCHID }));
    expect(forged.statusCode).toBe(400);
    expect(await order(payNo)).toMatchObject({ status: "NOTPAY" });
    expect(await schoolEnd()).toBe(before);
    expect(await mismatchesOf(payNo)).toHaveLength(1);

    const paid = await deliver(fake.notification(payNo));
    expect(paid.statusCode).toBe(204);
    expect(await order(payNo)).toMatchObject({ status: "SUCCESS" });
    expect(await schoolEnd()).not.toBe(before);
  });
});
