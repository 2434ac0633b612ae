/** paymerchantinfo / paymerchantset: WeChat Pay merchant credentials, stored encrypted and never returned. */
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { auditLog, paymentMerchants, paymentOrders, schools, users } from "../../server/db/schema";
import { loadMerchant, wechatPayGatewayOf } from "../../server/payments/merchants";
import { translator } from "../../server/lib/i18n";
import { PaymentSecrets } from "../../server/payments/secrets";
import { FAKE_PUBLIC_KEY_ID, FakeWechatPay } from "../helpers/fakeWechatPay";
import { describeOnDatabases, describeOnEmbedded, type TestDatabaseKind } from "../helpers/db";
import { createTestApp, idByTitle, type TestApp } from "./support";

const zh = translator("zh");
const PAYMENT_KEY = randomBytes(32).toString("base64");
const paymentSecrets = new PaymentSecrets({ key: PAYMENT_KEY });
const API_V3_KEY = "Vz3kQ8pL2mN7xR4tY6wB9cD1fG5hJ0aS";
const merchantKeys = generateKeyPairSync("rsa", { modulusLength: 2048 });
const PRIVATE_KEY_PEM = merchantKeys.privateKey.export({ type: "pkcs8", format: "pem" }).toString();
/** the base64 body of the private key, as it would appear if stored or answered in clear */
const PRIVATE_KEY_BODY = PRIVATE_KEY_PEM.split("\n")[1]!;
const platformKeys = generateKeyPairSync("rsa", { modulusLength: 2048 });
const PLATFORM_PUBLIC_KEY_PEM = platformKeys.publicKey.export({ type: "spki", format: "pem" }).toString();

function merchantPayload(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    gateway: "wechatpay",
    merchant_id: "1900009191",
    appid: "wxd678efh567hg6787",
    merchant_serial_no: "5157F09EFDC096DE15EBE81A47057A7232F1B8E1",
    private_key: PRIVATE_KEY_PEM,
    api_v3_key: API_V3_KEY,
    platform_key_id: "PUB_KEY_ID_0114232134912410000000000000000001",
    platform_public_key: PLATFORM_PUBLIC_KEY_PEM,
    enabled: "Y",
    ...overrides,
  };
}

async function sysidOf(t: TestApp, username: string): Promise<number> {
  const [row] = await t.db.select({ sysid: users.sysid }).from(users).where(eq(users.username, username));
  return row!.sysid!;
}

describeOnEmbedded("payment merchants", (kind: TestDatabaseKind) => {
  let t: TestApp;
  let sysadmin: string;
  let svc: string;
  let sunrise: number;
  let harbour: number;

  beforeAll(async () => {
    t = await createTestApp(kind, { paymentKey: { key: PAYMENT_KEY } });
    sysadmin = await t.login("sysadmin");
    svc = await t.login("svc");
    sunrise = await sysidOf(t, "svc");
    harbour = await sysidOf(t, "harbour");
  });

  afterAll(async () => {
    await t.close();
  });

  it("answers an unconfigured platform merchant as such", async () => {
    const res = await t.call("adminapiv2", "paymerchantinfo", {}, { token: sysadmin });
    expect(res.return_code).toBe("SUCCESS");
    expect(res.data?.items).toMatchObject({ sysid: null, configured: false, has_private_key: false, has_api_v3_key: false, enabled: "N", api_base: "https://api.mch.weixin.qq.com" });
  });

  it("stores the platform merchant with its secrets encrypted and never answers them", async () => {
    const res = await t.call("adminapiv2", "paymerchantset", merchantPayload(), { token: sysadmin });
    expect(res.return_code).toBe("SUCCESS");
    const info = await t.call("adminapiv2", "paymerchantinfo", {}, { token: sysadmin });
    expect(info.data?.items).toMatchObject({
      sysid: null,
      configured: true,
      merchant_id: "1900009191",
      appid: "wxd678efh567hg6787",
      merchant_serial_no: "5157F09EFDC096DE15EBE81A47057A7232F1B8E1",
      platform_key_id: "PUB_KEY_ID_0114232134912410000000000000000001",
      has_private_key: true,
      has_api_v3_key: true,
      enabled: "Y",
    });
    for (const answer of [JSON.stringify(res), JSON.stringify(info)]) {
      expect(answer).not.toContain(PRIVATE_KEY_BODY);
      expect(answer).not.toContain(API_V3_KEY);
    }

    const [row] = await t.db.select().from(paymentMerchants);
    expect(row!.sysid).toBeNull();
    expect(row!.privateKeyEnc).not.toContain(PRIVATE_KEY_BODY);
    expect(row!.privateKeyEnc).not.toContain("PRIVATE KEY");
    expect(row!.apiV3KeyEnc).not.toContain(API_V3_KEY);
    const audit = await t.db.select().from(auditLog).where(eq(auditLog.action, "paymerchantset"));
    expect(audit).toHaveLength(1);
    expect(JSON.stringify(audit[0]!.detail)).not.toContain(API_V3_KEY);
  });

  it("keeps the stored secrets when an edit leaves them out", async () => {
    const res = await t.call("adminapiv2", "paymerchantset", merchantPayload({ private_key: "", api_v3_key: undefined, appid: "wx0000000000000001" }), { token: sysadmin });
    expect(res.return_code).toBe("SUCCESS");
    expect(res.data?.items).toMatchObject({ appid: "wx0000000000000001", has_private_key: true, has_api_v3_key: true });
    const row = await loadMerchant(t.db, null);
    expect(paymentSecrets.decrypt(row!.apiV3KeyEnc, "payment_merchants.api_v3_key")).toBe(API_V3_KEY);
  });

  it("lets a provider set its own merchant, on WeChat Pay's own address only", async () => {
    const own = await t.call("adminapiv2", "paymerchantset", merchantPayload({ merchant_id: "1900000002" }), { token: svc });
    expect(own.return_code).toBe("SUCCESS");
    expect(own.data?.items).toMatchObject({ sysid: sunrise, merchant_id: "1900000002" });
    const info = await t.call("adminapiv2", "paymerchantinfo", {}, { token: svc });
    expect(info.data?.items).toMatchObject({ sysid: sunrise, merchant_id: "1900000002" });
    // the platform sees the provider's merchant, and its own is untouched
    expect((await t.call("adminapiv2", "paymerchantinfo", { sysid: sunrise }, { token: sysadmin })).data?.items).toMatchObject({ merchant_id: "1900000002" });
    expect((await loadMerchant(t.db, null))!.merchantId).toBe("1900009191");
    const redirected = await t.call("adminapiv2", "paymerchantset", merchantPayload({ api_base: "http://127.0.0.1:9" }), { token: svc });
    expect(redirected).toMatchObject({ return_code: "FAIL", return_msg: zh("api.no_permission") });
  });

  it("keeps a merchant number to one account, so that nobody can pair a known one with keys of their own", async () => {
    const res = await t.call("adminapiv2", "paymerchantset", merchantPayload({ merchant_id: "1900009191" }), { token: svc });
    // a provider is not told that another account holds the number
    expect(res).toMatchObject({ return_code: "FAIL", return_msg: zh("api.merchant_not_accepted") });
    expect((await loadMerchant(t.db, sunrise))!.merchantId).toBe("1900000002");
    // the platform's operators see the whole platform and are told why
    const byOperator = await t.call("adminapiv2", "paymerchantset", merchantPayload({ sysid: sunrise, merchant_id: "1900009191" }), { token: sysadmin });
    expect(byOperator).toMatchObject({ return_code: "FAIL", return_msg: zh("api.merchant_taken") });
  });

  it("lets the platform set any provider's merchant", async () => {
    const res = await t.call("adminapiv2", "paymerchantset", merchantPayload({ sysid: harbour, merchant_id: "1900000003" }), { token: sysadmin });
    expect(res.data?.items).toMatchObject({ sysid: harbour, merchant_id: "1900000003" });
  });

  it("answers another provider's merchant as not found", async () => {
    for (const method of ["paymerchantinfo", "paymerchantset"]) {
      const res = await t.call("adminapiv2", method, merchantPayload({ sysid: harbour }), { token: svc });
      expect(res).toMatchObject({ return_code: "FAIL", return_msg: zh("api.not_found") });
      // a school of another provider next to the caller's own provider is refused too, not ignored
      const harbourSchool = await idByTitle(t.db, schools, "Harbour Hill Academy");
      const bySchool = await t.call("adminapiv2", method, merchantPayload({ sch_id: harbourSchool }), { token: svc });
      expect(bySchool).toMatchObject({ return_code: "FAIL", return_msg: zh("api.not_found") });
    }
    expect((await loadMerchant(t.db, harbour))!.merchantId).toBe("1900000003");
  });

  it("refuses school and provider-staff accounts", async () => {
    for (const username of ["school", "staff"]) {
      const token = await t.login(username);
      for (const method of ["paymerchantinfo", "paymerchantset"]) {
        expect(await t.call("adminapiv2", method, merchantPayload(), { token })).toMatchObject({ return_code: "FAIL", return_msg: zh("api.no_permission") });
      }
    }
  });

  it.each([
    ["gateway", { gateway: "alipay" }],
    ["merchant_id", { merchant_id: "19000-09191" }],
    ["merchant_id", { merchant_id: undefined }],
    ["appid", { appid: 42 }],
    ["merchant_serial_no", { merchant_serial_no: "not hex" }],
    ["private_key", { private_key: "-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----" }],
    ["api_v3_key", { api_v3_key: "too short" }],
    ["platform_public_key", { platform_public_key: "garbage" }],
    ["api_base", { api_base: "http://127.0.0.1:9/prefix" }],
    ["api_base", { api_base: "file:///etc/passwd" }],
    ["enabled", { enabled: "yes" }],
  ])("refuses a malformed %s", async (field, overrides) => {
    const before = await t.db.select().from(paymentMerchants);
    const res = await t.call("adminapiv2", "paymerchantset", merchantPayload(overrides), { token: sysadmin });
    expect(res).toMatchObject({ return_code: "FAIL", return_msg: zh("api.invalid_params", { field }) });
    expect(await t.db.select().from(paymentMerchants)).toEqual(before);
  });

  it("requires the secrets when a merchant has none stored yet", async () => {
    const svcv1 = await t.login("svcv1");
    const res = await t.call("adminapiv2", "paymerchantset", merchantPayload({ merchant_id: "1900000004", api_v3_key: "" }), { token: svcv1 });
    expect(res).toMatchObject({ return_code: "FAIL", return_msg: zh("api.merchant_secret_required", { field: "api_v3_key" }) });
  });

  it("acts as the stored merchant towards WeChat Pay", async () => {
    const fake = await FakeWechatPay.start(
      { mchid: "1900000009", appid: "wxd678efh567hg6787", serialNo: "5157F09EFDC096DE15EBE81A47057A7232F1B8E1", publicKey: merchantKeys.publicKey, apiV3Key: API_V3_KEY },
      t.clock,
    );
    try {
      const res = await t.call(
        "adminapiv2",
        "paymerchantset",
        merchantPayload({ sysid: harbour, merchant_id: "1900000009", platform_key_id: FAKE_PUBLIC_KEY_ID, platform_public_key: fake.publicKeyPem, api_base: fake.url }),
        { token: sysadmin },
      );
      expect(res.return_code).toBe("SUCCESS");
      const gateway = wechatPayGatewayOf({ paymentSecrets, clock: t.clock }, (await loadMerchant(t.db, harbour))!);
      const order = await gateway.createQrOrder({ payNo: "P20260302MERCHANT01", description: "test", amountFen: 100, notifyUrl: "http://127.0.0.1:9/n", expiresAt: t.clock.now() });
      expect(order.codeUrl).toBe(fake.orders.get("P20260302MERCHANT01")!.codeUrl);
    } finally {
      await fake.close();
    }
  });
});

describeOnDatabases("payment merchants without a payment key", (kind: TestDatabaseKind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => {
    await t.close();
  });

  it("refuses to store credentials with a clear message", async () => {
    const sysadmin = await t.login("sysadmin");
    const res = await t.call("adminapiv2", "paymerchantset", merchantPayload(), { token: sysadmin });
    expect(res).toMatchObject({ return_code: "FAIL", return_msg: zh("api.payment_key_missing") });
    expect(await t.db.select().from(paymentMerchants)).toEqual([]);
  });
});

describeOnEmbedded("the payment sandbox beside a live merchant", (kind: TestDatabaseKind) => {
  let t: TestApp;
  const EN = { "accept-language": "en" };
  beforeAll(async () => {
    t = await createTestApp(kind, { paymentKey: { key: PAYMENT_KEY } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("sends no order to the sandbox once the platform's merchant is live, and confirms none it took before", async () => {
    const [school, sysadmin] = [await t.login("school"), await t.login("sysadmin")];
    const no1 = await idByTitle(t.db, schools, "Sunrise No.1 Primary School");
    const meals = (await t.call("adminapiv2", "getsetmeal", {}, { token: school })).data?.items as Array<Record<string, unknown>>;
    const buy = () => t.call("adminapiv2", "get_pay", { setmeal_id: meals[0]!.id, sch_id: no1 }, { token: school, headers: EN });
    const before = await buy();
    const sandboxOrder = before.data?.items as { pay_no: string; sandbox: boolean; payparam: { code_url: string } };
    expect(sandboxOrder.sandbox).toBe(true);

    // a live merchant whose gateway cannot be reached: the order fails instead of falling back to the sandbox
    const live = await t.call("adminapiv2", "paymerchantset", merchantPayload({ api_base: "http://127.0.0.1:9" }), { token: sysadmin });
    expect(live.return_code, live.return_msg).toBe("SUCCESS");
    expect(await buy()).toMatchObject({ return_code: "FAIL", return_msg: "The payment service is unavailable, please try again later" });
    // the renewal orders (a school's fees go to its own channel, the demo's in the sandbox)
    const sandboxOrders = await t.db
      .select()
      .from(paymentOrders)
      .where(and(eq(paymentOrders.gateway, "sandbox"), eq(paymentOrders.kind, "school_renewal")));
    expect(sandboxOrders.map((o) => o.payNo)).toEqual([sandboxOrder.pay_no]);

    const path = new URL(sandboxOrder.payparam.code_url).pathname;
    const confirmed = await t.app.inject({ method: "POST", url: `${path}/confirm`, headers: EN });
    expect(confirmed.json()).toMatchObject({ return_code: "FAIL" });
    const page = await t.app.inject({ method: "GET", url: path, headers: EN });
    expect(page.body).toContain('data-testid="sandbox-off"');
    expect(page.body).not.toContain('data-testid="sandbox-pay"');
    const [order] = await t.db.select().from(paymentOrders).where(eq(paymentOrders.payNo, sandboxOrder.pay_no));
    expect(order!.status).toBe("NOTPAY");
  });
});
