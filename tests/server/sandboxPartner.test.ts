/**
 * The payment sandbox takes the same requests as WeChat Pay in service-provider mode, so that it stays the demo
 * default for fee collection: orders for a sub-merchant (recorded as the order's merchant), JSAPI orders whose
 * parameters lead to the sandbox page that pays them, queries and closes that find an order only under its
 * sub-merchant, and a paid order's close refused with ORDERPAID.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { paymentOrders, providers, schools } from "../../server/db/schema";
import { GatewayRequestError } from "../../server/payments/gateway";
import { registerPaymentKind, type PaymentOrder } from "../../server/payments/kinds";
import { ORDER_PAYABLE_MS } from "../../server/payments/orders";
import { SandboxGateway } from "../../server/payments/sandbox";
import { describeOnEmbedded } from "../helpers/db";
import { createTestApp, idByTitle, type TestApp } from "./support";

const SUB_MCHID = "1900000109";
const SUB_APPID = "wxd678efh567hg6999";
const OTHER_SUB_MCHID = "1900000110";
const ORIGIN = "http://192.168.1.20:8080";

/** a kind paid to a school's channel, as fees will be: its effect is only what the test records */
const appliedFees: PaymentOrder[] = [];
registerPaymentKind({
  kind: "test_sandbox_fee",
  payee: "school_channel",
  async applyPaid(_tx, order) {
    appliedFees.push(order);
    return { appliedEnd: null };
  },
});

describeOnEmbedded("the payment sandbox in service-provider mode", (kind) => {
  let t: TestApp;
  let gateway: SandboxGateway;
  let schId: number;
  let sysid: number;
  let feeCount = 0;

  const order = async (payNo: string) => (await t.db.select().from(paymentOrders).where(eq(paymentOrders.payNo, payNo)))[0]!;
  const fields = (payNo: string) => ({
    payNo,
    description: "Autumn term tuition",
    amountFen: 120000,
    notifyUrl: `${ORIGIN}/pay/notify/wechatpay/${SUB_MCHID}`,
    expiresAt: new Date(t.clock.now().getTime() + ORDER_PAYABLE_MS),
    subMchid: SUB_MCHID,
  });
  /** records a fee order of the sub-merchant with the sandbox's code_url, as the order's creator does */
  const record = async (payNo: string, codeUrl: string) => {
    await t.db.insert(paymentOrders).values({
      payNo,
      orderid: payNo.slice(1),
      kind: "test_sandbox_fee",
      sysid,
      schId,
      title: "Autumn term tuition",
      termMonths: 0,
      totalFeeFen: 120000,
      gateway: "sandbox",
      merchantId: SUB_MCHID,
      codeUrl,
      expiresAt: fields(payNo).expiresAt,
    });
  };
  const nextPayNo = () => `F20260302${String(++feeCount).padStart(10, "0")}`;
  async function nativeOrder(): Promise<{ payNo: string; codeUrl: string }> {
    const payNo = nextPayNo();
    const { codeUrl } = await gateway.createQrOrder(fields(payNo));
    await record(payNo, codeUrl);
    return { payNo, codeUrl };
  }
  const confirm = (pageUrl: string, payload = "{}") =>
    t.app.inject({ method: "POST", url: `${new URL(pageUrl).pathname}/confirm`, headers: { "content-type": "application/json" }, payload });

  beforeAll(async () => {
    appliedFees.length = 0;
    t = await createTestApp(kind);
    gateway = new SandboxGateway(t.db, t.clock, ORIGIN);
    schId = await idByTitle(t.db, schools, "Sunrise No.1 Primary School");
    sysid = await idByTitle(t.db, providers, "Sunrise Campus Services");
  });
  afterAll(async () => {
    await t?.close();
  });

  it("answers a JSAPI order with the JS bridge's parameters, whose prepay id the sandbox page pays", async () => {
    const payNo = nextPayNo();
    const jsapi = await gateway.createJsapiOrder({ ...fields(payNo), payer: { subAppid: SUB_APPID, subOpenid: "o4GgauInH_RCEdvrrNGrntXDuXXX" } });
    expect(jsapi).toMatchObject({
      prepayId: payNo,
      payParams: { appId: SUB_APPID, timeStamp: String(t.clock.now().getTime() / 1000), package: `prepay_id=${payNo}`, signType: "RSA" },
      payPageUrl: `${ORIGIN}/pay/sandbox/${payNo}`,
    });
    expect(jsapi.payParams.nonceStr).toMatch(/^[0-9A-F]{32}$/);
    await record(payNo, jsapi.payPageUrl!);

    const page = await t.app.inject({ method: "GET", url: new URL(jsapi.payPageUrl!).pathname });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('data-testid="sandbox-pay"');
    const paid = await confirm(jsapi.payPageUrl!);
    expect(paid.json()).toMatchObject({ return_code: "SUCCESS" });
    expect(await order(payNo)).toMatchObject({ status: "SUCCESS", merchantId: SUB_MCHID, transactionId: `SANDBOX${payNo}` });
    expect(appliedFees.filter((o) => o.payNo === payNo)).toHaveLength(1);
    await expect(gateway.query(payNo, { subMchid: SUB_MCHID })).resolves.toMatchObject({ state: "SUCCESS", merchantId: SUB_MCHID, amountFen: 120000 });
  });

  it("finds an order only under its sub-merchant", async () => {
    const { payNo } = await nativeOrder();
    await expect(gateway.query(payNo, { subMchid: SUB_MCHID })).resolves.toMatchObject({ payNo, state: "NOTPAY", merchantId: SUB_MCHID });
    for (const refused of [gateway.query(payNo, { subMchid: OTHER_SUB_MCHID }), gateway.close(payNo, { subMchid: OTHER_SUB_MCHID })]) {
      const error = await refused.catch((err: unknown) => err);
      expect(error).toBeInstanceOf(GatewayRequestError);
      expect(error).toMatchObject({ status: 404, code: "ORDER_NOT_EXIST" });
    }
    expect((await order(payNo)).status).toBe("NOTPAY");
  });

  it("closes an unpaid order and refuses to close one paid without notification (ORDERPAID), which a query then reports", async () => {
    const unpaid = await nativeOrder();
    await gateway.close(unpaid.payNo, { subMchid: SUB_MCHID });
    expect((await order(unpaid.payNo)).status).toBe("CLOSED");

    const paid = await nativeOrder();
    expect(paid.codeUrl).toBe(`${ORIGIN}/pay/sandbox/${paid.payNo}`);
    // paid at the sandbox, the console not told: a lost notification
    expect((await confirm(paid.codeUrl, JSON.stringify({ notify: false }))).json()).toMatchObject({ return_code: "SUCCESS" });
    const error = await gateway.close(paid.payNo, { subMchid: SUB_MCHID }).catch((err: unknown) => err);
    expect(error).toMatchObject({ status: 400, code: "ORDERPAID" });
    expect((await order(paid.payNo)).status).toBe("NOTPAY");
    await expect(gateway.query(paid.payNo, { subMchid: SUB_MCHID })).resolves.toMatchObject({ state: "SUCCESS", merchantId: SUB_MCHID, transactionId: `SANDBOX${paid.payNo}` });
  });
});
