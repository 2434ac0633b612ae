/**
 * Renewals paid through WeChat Pay (issue 3): with the platform's merchant configured, get_pay creates a Native
 * order at the (fake) WeChat Pay server; its notifications are applied once when authentic and matching, refused
 * when tampered, stale, signed under an unknown serial, or naming another amount or merchant; a lost notification
 * is made up for by checkpay querying the order.
 */
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { tableColumn } from "../../server/db/catalogueTables";
import { auditLog, paymentOrders, providers, schoolRenewals, schools } from "../../server/db/schema";
import { FAKE_PUBLIC_KEY_ID, FakeWechatPay, type SignedNotification, type Tamper } from "../helpers/fakeWechatPay";
import { describeOnDatabases } from "../helpers/db";
import { createTestApp, idByTitle, type TestApp } from "./support";

const MCHID = "1900009191";
const APPID = "wxd678efh567hg6787";
const SERIAL = "5157F09EFDC096DE15EBE81A47057A7232F1B8E1";
const API_V3_KEY = "0123456789abcdefghijABCDEFGHIJ01";
const TAMPERS: Tamper[] = ["body", "signature", "stale", "serial"];
const OTHER_MCHID = "1900000777";
const OTHER_API_V3_KEY = "ZYXWVUTSRQPONMLKJIHGfedcba987654";

describeOnDatabases("WeChat Pay notifications", (kind) => {
  let t: TestApp;
  let fake: FakeWechatPay;
  let school: string;
  let schId: number;
  let oneYear: number;
  const merchantKeys = generateKeyPairSync("rsa", { modulusLength: 2048 });

  const deliver = (notification: SignedNotification) =>
    t.app.inject({ method: "POST", url: new URL(notification.url).pathname, headers: notification.headers, payload: notification.body });
  const order = async (payNo: string) => (await t.db.select().from(paymentOrders).where(eq(paymentOrders.payNo, payNo)))[0];
  const schoolEnd = async () => String((await t.db.select({ end: tableColumn(schools, "endtime") }).from(schools).where(eq(tableColumn(schools, "id"), schId)))[0].end);
  const buy = async () => {
    const res = await t.call("adminapiv2", "get_pay", { setmeal_id: oneYear, sch_id: schId }, { token: school });
    expect(res.return_code, res.return_msg).toBe("SUCCESS");
    return res.data?.items as { pay_no: string; total_fee: string; payparam: { code_url: string } };
  };

  beforeAll(async () => {
    t = await createTestApp(kind, { paymentKey: { key: randomBytes(32).toString("base64") } });
    fake = await FakeWechatPay.start({ mchid: MCHID, appid: APPID, serialNo: SERIAL, publicKey: merchantKeys.publicKey, apiV3Key: API_V3_KEY }, t.clock);
    const sysadmin = await t.login("sysadmin");
    const set = await t.call(
      "adminapiv2",
      "paymerchantset",
      {
        gateway: "wechatpay",
        merchant_id: MCHID,
        appid: APPID,
        merchant_serial_no: SERIAL,
        private_key: merchantKeys.privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
        api_v3_key: API_V3_KEY,
        platform_key_id: FAKE_PUBLIC_KEY_ID,
        platform_public_key: fake.publicKeyPem,
        api_base: fake.url,
        enabled: "Y",
      },
      { token: sysadmin },
    );
    expect(set.return_code, set.return_msg).toBe("SUCCESS");
    school = await t.login("school");
    schId = await idByTitle(t.db, schools, "Sunrise No.1 Primary School");
    const meals = (await t.call("adminapiv2", "getsetmeal", {}, { token: school })).data?.items as { id: number; title: string }[];
    oneYear = meals.find((m) => m.title === "One year")!.id;
  });
  afterAll(async () => {
    await fake?.close();
    await t?.close();
  });

  it("creates the renewal order at WeChat Pay with the platform merchant and our notification address", async () => {
    const bought = await buy();
    const remote = fake.orders.get(bought.pay_no)!;
    expect(bought.payparam.code_url).toBe(remote.codeUrl);
    expect(remote).toMatchObject({ mchid: MCHID, appid: APPID, totalFen: 100000, description: "One year" });
    expect(new URL(remote.notifyUrl).pathname).toBe(`/pay/notify/wechatpay/${MCHID}`);
    expect(await order(bought.pay_no)).toMatchObject({ gateway: "wechatpay", merchantId: MCHID, status: "NOTPAY" });
  });

  it("refuses tampered, stale and unknown-serial notifications and applies nothing", async () => {
    const before = await schoolEnd();
    for (const tamper of TAMPERS) {
      const bought = await buy();
      const res = await deliver(fake.notification(bought.pay_no, { tamper }));
      expect(res.statusCode, tamper).toBe(401);
      expect(res.json(), tamper).toMatchObject({ code: "FAIL" });
      expect((await order(bought.pay_no)).status, tamper).toBe("NOTPAY");
    }
    expect(await schoolEnd()).toBe(before);
  });

  const mismatchesOf = (payNo: string) => t.db.select().from(auditLog).where(and(eq(auditLog.action, "payment_mismatch"), eq(auditLog.entityId, payNo)));

  it("refuses a notification with another amount or merchant than the order, and records each mismatch once", async () => {
    const before = await schoolEnd();
    for (const options of [{ amountFen: 1 }, { mchid: "1900000001" }]) {
      const bought = await buy();
      const res = await deliver(fake.notification(bought.pay_no, options));
      expect(res.statusCode, JSON.stringify(options)).toBe(400);
      expect((await order(bought.pay_no)).status).toBe("NOTPAY");
      const recorded = await mismatchesOf(bought.pay_no);
      expect(recorded, JSON.stringify(options)).toHaveLength(1);
      expect(recorded[0]!.detail, JSON.stringify(options)).toMatchObject(options.amountFen ? { amount_fen: 1, expected_fen: 100000 } : { merchant_id: "1900000001" });
    }
    expect(await schoolEnd()).toBe(before);
  });

  it("leaves the order unpaid when an authentic notification reports a trade that did not succeed", async () => {
    const before = await schoolEnd();
    for (const tradeState of ["NOTPAY", "CLOSED", "PAYERROR", "REVOKED"]) {
      const bought = await buy();
      const res = await deliver(fake.notification(bought.pay_no, { tradeState }));
      expect(res.statusCode, tradeState).toBe(204);
      expect((await order(bought.pay_no)).status, tradeState).toBe("NOTPAY");
    }
    expect(await schoolEnd()).toBe(before);
  });

  it("refuses a notification authentic for one merchant that names another merchant's order", async () => {
    // a second merchant (a provider's) with keys of its own, on a WeChat Pay of its own
    const otherKeys = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const other = await FakeWechatPay.start(
      { mchid: OTHER_MCHID, appid: APPID, serialNo: "6A0B1C2D3E4F", publicKey: otherKeys.publicKey, apiV3Key: OTHER_API_V3_KEY },
      t.clock,
    );
    try {
      const sunrise = await idByTitle(t.db, providers, "Sunrise Campus Services");
      const set = await t.call(
        "adminapiv2",
        "paymerchantset",
        {
          sysid: sunrise,
          gateway: "wechatpay",
          merchant_id: OTHER_MCHID,
          appid: APPID,
          merchant_serial_no: "6A0B1C2D3E4F",
          private_key: otherKeys.privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
          api_v3_key: OTHER_API_V3_KEY,
          platform_key_id: FAKE_PUBLIC_KEY_ID,
          platform_public_key: other.publicKeyPem,
          api_base: other.url,
          enabled: "Y",
        },
        { token: await t.login("sysadmin") },
      );
      expect(set.return_code, set.return_msg).toBe("SUCCESS");
      // an order of the platform's merchant, told to the other merchant's address with the other's keys
      const bought = await buy();
      other.orders.set(bought.pay_no, { ...fake.orders.get(bought.pay_no)!, mchid: MCHID });
      const forged = other.notification(bought.pay_no);
      const res = await t.app.inject({ method: "POST", url: `/pay/notify/wechatpay/${OTHER_MCHID}`, headers: forged.headers, payload: forged.body });
      expect(res.statusCode).toBe(400);
      expect((await order(bought.pay_no)).status).toBe("NOTPAY");
      expect(await mismatchesOf(bought.pay_no)).toHaveLength(1);
    } finally {
      await other.close();
    }
  });

  it("applies an authentic notification once, however often it arrives", async () => {
    const before = await schoolEnd();
    const bought = await buy();
    const notification = fake.notification(bought.pay_no);
    const first = await deliver(notification);
    expect(first.statusCode).toBe(204);
    const again = await Promise.all([deliver(notification), deliver(notification), deliver(fake.notification(bought.pay_no))]);
    expect(again.map((r) => r.statusCode)).toEqual([204, 204, 204]);
    const paid = await order(bought.pay_no);
    expect(paid).toMatchObject({ status: "SUCCESS", transactionId: fake.orders.get(bought.pay_no)!.transactionId });
    const records = await t.db.select().from(schoolRenewals).where(eq(tableColumn(schoolRenewals, "pay_no"), bought.pay_no));
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ old_end: before, new_end: paid.appliedEnd });
    const checked = await t.call("adminapiv2", "checkpay", { pay_no: bought.pay_no }, { token: school });
    expect(checked.return_code).toBe("SUCCESS");
  });

  it("asks WeChat Pay about an unpaid order when its notification is late, at most every ten seconds", async () => {
    const bought = await buy();
    expect((await t.call("adminapiv2", "checkpay", { pay_no: bought.pay_no }, { token: school })).return_code).toBe("FAIL");
    const queries = () => fake.requests.filter((r) => r.method === "GET" && r.path.includes(bought.pay_no)).length;
    expect(queries()).toBe(1);
    fake.markPaid(bought.pay_no);
    // within the interval the order is not asked about again
    expect((await t.call("adminapiv2", "checkpay", { pay_no: bought.pay_no }, { token: school })).return_code).toBe("FAIL");
    expect(queries()).toBe(1);
    t.clock.advance(10_001);
    const checked = await t.call("adminapiv2", "checkpay", { pay_no: bought.pay_no }, { token: school });
    expect(checked.return_code, checked.return_msg).toBe("SUCCESS");
    expect(queries()).toBe(2);
    // the notification arriving afterwards changes nothing
    expect((await deliver(fake.notification(bought.pay_no))).statusCode).toBe(204);
    expect(await t.db.select().from(schoolRenewals).where(eq(tableColumn(schoolRenewals, "pay_no"), bought.pay_no))).toHaveLength(1);
  });

  it("refuses notifications for an unknown merchant or order, and bodies that are not a notification", async () => {
    const bought = await buy();
    const notification = fake.notification(bought.pay_no);
    const unknownMerchant = await t.app.inject({ method: "POST", url: "/pay/notify/wechatpay/1900000099", headers: notification.headers, payload: notification.body });
    expect(unknownMerchant.statusCode).toBe(404);
    const garbage = await t.app.inject({ method: "POST", url: `/pay/notify/wechatpay/${MCHID}`, headers: { "content-type": "application/json" }, payload: "{" });
    expect(garbage.statusCode).toBe(401);
    expect(garbage.json()).toMatchObject({ code: "FAIL" });
    await t.db.delete(paymentOrders).where(and(eq(paymentOrders.payNo, bought.pay_no)));
    expect((await deliver(notification)).statusCode).toBe(404);
  });
});
