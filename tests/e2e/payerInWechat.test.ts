/**
 * The payer page inside WeChat's browser (its user agent, at 390 px, in Chinese), for a school whose channel is a
 * WeChat Pay sub-merchant of the platform: the page signs the payer in through WeChat's silent OAuth (a stand-in
 * speaking its protocol), the order is a JSAPI order for the payer's openid, and WeChat's payment sheet (a stand-in
 * JS bridge that checks the service provider's paySign at the fake WeChat Pay and pays there, which notifies the
 * server) takes the payment; the page shows the e-receipt, with no QR code on the way.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { feeOrders, paymentChannels, schoolChannels } from "../../server/db/schema";
import { systemClock } from "../../server/lib/clock";
import { DEMO_PASSWORD, describeInBrowser } from "../helpers/browser";
import { FakeWechatOAuth, openidOf } from "../helpers/fakeWechatOAuth";
import { platformServiceProvider, type FakeJsapiPayParams, type FakeWechatPay } from "../helpers/fakeWechatPay";
import { demoPayer } from "../helpers/payers";
import { api } from "../helpers/server";

const SCHOOL = "Sunrise No.1 Primary School";
const provider = platformServiceProvider();
const WECHAT_USER_AGENT =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/130.0.6723.103 Mobile Safari/537.36 XWEB/1300289 MMWEBSDK/20241103 MicroMessenger/8.0.54.2760(0x28003637) WeChat/arm64 Weixin NetType/WIFI Language/zh_CN ABI/arm64";

let oauth: FakeWechatOAuth;
let pay: FakeWechatPay;

beforeAll(async () => {
  oauth = await FakeWechatOAuth.start([{ appid: provider.appid, secret: provider.appSecret }], systemClock);
  pay = await provider.start(systemClock);
});
afterAll(async () => {
  await oauth?.close();
  await pay?.close();
});

/** WeChat's JS bridge as WeChat injects it once the page has loaded: its payment sheet pays at the fake WeChat Pay. */
function wechatBridge(): void {
  const bridge = {
    invoke(name: string, params: unknown, callback: (result: { err_msg: string }) => void) {
      if (name !== "getBrandWCPayRequest") return callback({ err_msg: `${name}:fail` });
      void (window as unknown as { __wechatPaySheet(p: unknown): Promise<string> }).__wechatPaySheet(params).then((message) => callback({ err_msg: message }));
    },
  };
  setTimeout(() => {
    (window as unknown as { WeixinJSBridge: typeof bridge }).WeixinJSBridge = bridge;
    document.dispatchEvent(new Event("WeixinJSBridgeReady"));
  }, 200);
}

describeInBrowser(
  "the payer page inside WeChat",
  (suite) => {
    test("a parent in WeChat is signed in silently and pays on WeChat's payment sheet", async () => {
      const db = suite.server.server.database.db;
      const sysadmin = await api(suite.url, "adminapi", "login", { username: "sysadmin", password: DEMO_PASSWORD });
      const set = await api(
        suite.url,
        "adminapiv2",
        "paymerchantset",
        provider.merchantSet(pay, { ...provider.secrets(), app_secret: provider.appSecret }),
        String(sysadmin.data?.token),
      );
      expect(set.return_code, set.return_msg).toBe("SUCCESS");
      // the school takes payments through its provider's WeChat Pay sub-merchant (the review itself is feeCollection's test)
      const payer = await demoPayer(suite, SCHOOL, "微信内支付");
      const [channel] = await db
        .update(paymentChannels)
        .set({ status: "approved", sub_mchid: provider.subMchid })
        .where(eq(paymentChannels.title, "Sunrise WeChat Pay"))
        .returning();
      await db.update(schoolChannels).set({ paychnl_id: channel.id }).where(eq(schoolChannels.sch_id, payer.schId));

      const context = await suite.newContext("zh-CN", { userAgent: WECHAT_USER_AGENT, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
      const sheets: FakeJsapiPayParams[] = [];
      await context.exposeFunction("__wechatPaySheet", async (params: FakeJsapiPayParams) => {
        sheets.push(params);
        // the sheet is WeChat's: it takes only parameters the service provider signed for an order it knows
        const order = pay.checkJsapiPayParams(params);
        const delivered = await pay.deliver(pay.notification(order.outTradeNo));
        return delivered.status === 204 ? "get_brand_wcpay_request:ok" : "get_brand_wcpay_request:fail";
      });
      await context.addInitScript(wechatBridge);
      const page = await context.newPage();

      await page.goto(`${suite.url}/h5/${payer.code}`);
      // WeChat's sign-in came back to the page, which traded the code and dropped it from the address
      await expect.poll(() => page.getByTestId("h5-school-title").innerText(), { timeout: 15000 }).toBe(SCHOOL);
      await page.getByTestId("h5-find-name").waitFor();
      expect(oauth.exchanges.length).toBe(1);
      expect(new URL(page.url()).search).toBe("");

      await page.getByTestId("h5-find-name").fill(payer.name);
      await page.getByTestId("h5-find-student-no").fill(String(payer.studentNo));
      await page.getByTestId("h5-find-submit").click();
      await page.getByTestId("h5-student").waitFor();
      expect(await page.getByTestId(`h5-bill-check-${payer.billId}`).isChecked()).toBe(true);
      await page.getByTestId("h5-pay").click();

      // the sheet opens by itself; once WeChat says paid, the page shows the receipt
      await page.getByTestId("h5-paid").waitFor({ timeout: 20000 });
      expect(sheets).toHaveLength(1);
      const prepayId = sheets[0].package.replace(/^prepay_id=/, "");
      const remote = [...pay.orders.values()].find((o) => o.prepayId === prepayId)!;
      expect(remote).toMatchObject({ tradeType: "JSAPI", subMchid: provider.subMchid, payer: { spOpenid: openidOf(oauth.user, provider.appid) } });
      expect(await page.getByTestId("h5-qr-image").count()).toBe(0);
      expect(await page.getByTestId("h5-receipt-school").innerText()).toBe(SCHOOL);
      const [order] = await db.select({ status: feeOrders.status, transactionId: feeOrders.transaction_id }).from(feeOrders).where(eq(feeOrders.pay_no, remote.outTradeNo));
      expect(order).toEqual({ status: "paid", transactionId: remote.transactionId });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

      // a reload keeps the result and does not send the payer round WeChat's sign-in again
      await page.reload();
      await page.getByTestId("h5-receipt-amount").waitFor();
      expect(oauth.exchanges.length).toBe(1);
    });
  },
  { locale: "zh-CN", server: () => ({ wechatOAuth: oauth.endpoints }) },
);
