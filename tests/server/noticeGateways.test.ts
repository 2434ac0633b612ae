/**
 * The notifier without its sandbox (its behaviour does not depend on the database: PGlite only): a person binds to
 * the daily report through WeChat's web authorisation of the official account; a reminder goes
 * by SMS through Alibaba Cloud's SMS service, signed, as the account's template with the notice's variables; a
 * number the service refuses is tried three times, then the notice is failed with the service's words; the daily
 * report goes to the bound users as the platform official account's template message, a token WeChat no longer
 * takes is asked for again once; each value is cut to its field's documented limit; a kind with no template fails
 * saying so; the stand-in's stable_token answers the same token while it is valid. And the configuration read from the
 * environment: a partial SMS account or a malformed template list stops the server with a message naming it.
 */
import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businessDay } from "../../common/term";
import { notifyConfigFromEnv } from "../../server/config";
import { dailyReportSubscribers, notices, paymentMerchants, students } from "../../server/db/schema";
import { queueNotices } from "../../server/notify/notices";
import { FakeAliyunSms, FakeWechatMessages } from "../helpers/fakeNotifyGateways";
import { FakeWechatOAuth, openidOf } from "../helpers/fakeWechatOAuth";
import { platformServiceProvider, type FakeWechatPay } from "../helpers/fakeWechatPay";
import { payerWorld, unpaidStudents, type PayerWorld } from "./payerSupport";
import { createTestApp, type TestApp } from "./support";

const SMS_ACCOUNT = { accessKeyId: "LTAI5tTestKeyId", accessKeySecret: "testSecret/with+chars=" };
const DAILY_TEMPLATE = "TPL-daily-0001";
const PAYMENT_TEMPLATE = "TPL-payment-0002";

/**
 * WeChat's documented limits of a template message's values, in characters, by the kind of field (the category
 * templates' parameter rules, developers.weixin.qq.com/doc/offiaccount/Message_Management/Template_Message_Interface.html);
 * a name is 10 characters with Chinese in it, 20 of letters and signs only.
 */
const DOCUMENTED_LIMITS = { thing: 20, character_string: 32, number: 32, letter: 32, symbol: 5, phrase: 5, phone_number: 17, car_number: 8, const: 20, name: 10 };
const LETTERS_NAME_LIMIT = 20;
/** the payment template's fields, each filled with a value longer than its kind takes (and two whose rule is a form) */
const LONG_VALUES: Record<string, string> = {
  thing1: "😀".repeat(25),
  character_string2: "A".repeat(40),
  number3: "1".repeat(40),
  letter4: "b".repeat(40),
  symbol5: "#".repeat(8),
  phrase6: "已经缴费完成了",
  phone_number7: "+86-0766-66888866-1234",
  car_number8: "粤A8Z888挂XYZ",
  const9: "x".repeat(25),
  name10: "欧阳".repeat(6),
  name11: "Alexander Hamilton Smith",
  amount12: "123456.78",
  time13: "2026-01-01 10:00",
};

describe("notices through their gateways", () => {
  const provider = platformServiceProvider();
  let t: TestApp;
  let pay: FakeWechatPay;
  let wechat: FakeWechatMessages;
  let oauth: FakeWechatOAuth;
  let sms: FakeAliyunSms;
  let world: PayerWorld;
  let svc: string;
  /** runs what is due now, then once a minute later: the queued notices and the recurring run that retries */
  const send = async () => {
    await t.app.jobs.runDueJobs();
    t.clock.advance(61_000);
    await t.app.jobs.runDueJobs();
  };
  const noticeOfBill = async (billId: number) => (await t.db.select().from(notices).where(eq(notices.billId, billId)))[0];

  beforeAll(async () => {
    wechat = await FakeWechatMessages.start({ appid: provider.appid, secret: provider.appSecret }, [DAILY_TEMPLATE, PAYMENT_TEMPLATE]);
    sms = await FakeAliyunSms.start(SMS_ACCOUNT, ["SMS_480105001"]);
    // api.weixin.qq.com answers the web OAuth's exchange and profile too; the authorize page is open.weixin.qq.com's
    oauth = await FakeWechatOAuth.start([{ appid: provider.appid, secret: provider.appSecret }], { now: () => t.clock.now() });
    wechat.webOAuth = oauth;
    t = await createTestApp("pglite", {
      paymentKey: { key: randomBytes(32).toString("base64") },
      wechatOAuth: { apiOrigin: wechat.url, authorizeUrl: oauth.endpoints.authorizeUrl },
      notify: {
        sandbox: false,
        sms: { ...SMS_ACCOUNT, signName: "阳光校园", templates: { reminder: "SMS_480105001" }, origin: sms.url },
        wechatTemplates: {
          daily_report: { id: DAILY_TEMPLATE, data: { time1: "day", amount2: "paid", amount3: "refunded", amount4: "net", number5: "bills" } },
          // each field filled by the parameter of its own name
          payment: { id: PAYMENT_TEMPLATE, data: Object.fromEntries(Object.keys(LONG_VALUES).map((field) => [field, field])) },
        },
      },
    });
    pay = await provider.start(t.clock);
    const set = await t.call("adminapiv2", "paymerchantset", provider.merchantSet(pay, { ...provider.secrets(), app_secret: provider.appSecret }), { token: await t.login("sysadmin") });
    expect(set.return_code, set.return_msg).toBe("SUCCESS");
    svc = await t.login("svc");
    world = await payerWorld(t, svc);
    // what the demo left queued is not these tests' business
    await t.db.update(notices).set({ status: "sent" }).where(eq(notices.status, "queued"));
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([wechat?.close(), oauth?.close(), sms?.close(), pay?.close()]);
  });

  it("sends a reminder by SMS, signed, as the account's template with the notice's variables", async () => {
    const reminded = new Set((await t.db.select({ r: notices.recipient }).from(notices).where(eq(notices.kind, "reminder"))).map((n) => n.r));
    const student = (await unpaidStudents(t, world, 60)).find((s) => s.guardian_phone && !reminded.has(s.guardian_phone))!;
    const res = await t.call("adminapiv2", "billremind", { id: student.billId }, { token: svc });
    expect(res.return_code, res.return_msg).toBe("SUCCESS");
    await send();
    expect(sms.sent).toEqual([
      { PhoneNumbers: student.guardian_phone, SignName: "阳光校园", TemplateCode: "SMS_480105001", TemplateParam: expect.objectContaining({ student: student.name, amount: expect.stringMatching(/^\d+\.\d\d$/) }) },
    ]);
    expect(await noticeOfBill(student.billId)).toMatchObject({ status: "sent", driver: "aliyun_sms", reference: "900001^0", attempts: 1 });
  });

  it("tries a number the service refuses three times, then fails the notice with the service's words", async () => {
    const reminded = new Set((await t.db.select({ r: notices.recipient }).from(notices).where(eq(notices.kind, "reminder"))).map((n) => n.r));
    const student = (await unpaidStudents(t, world, 60)).find((s) => s.guardian_phone && !reminded.has(s.guardian_phone))!;
    await t.db.update(students).set({ guardian_phone: "021-5555" }).where(eq(students.id, student.id));
    expect((await t.call("adminapiv2", "billremind", { id: student.billId }, { token: svc })).return_code).toBe("SUCCESS");
    await send();
    await send();
    expect(await noticeOfBill(student.billId)).toMatchObject({ status: "failed", attempts: 3, error: expect.stringContaining("isv.MOBILE_NUMBER_ILLEGAL") });
    expect(sms.sent.map((m) => m.PhoneNumbers)).not.toContain("021-5555");
  });

  it("binds a person to the daily report through WeChat's web authorisation of the official account, once per QR code", async () => {
    const settings = async () => {
      const res = await t.call("adminapiv2", "getdaycountnoticeset", { id: world.sysid }, { token: svc });
      expect(res.return_code, res.return_msg).toBe("SUCCESS");
      return res.data as { daycount_notice_user: { nickname: string; headurl: string }[]; authurl: string };
    };
    const { authurl } = await settings();
    const token = /\/notice\/bind\/([A-Za-z0-9_-]{43})$/.exec(authurl)?.[1];
    expect(token, authurl).toBeDefined();
    // the sandbox's page, where anyone types a name, is not there
    expect((await t.app.inject({ method: "GET", url: `/notice/sandbox/bind/${token}` })).statusCode).toBe(404);

    // the phone that scanned is sent to WeChat, asking for the nickname and avatar, and back to the callback
    const toWechat = await t.app.inject({ method: "GET", url: new URL(authurl).pathname });
    expect(toWechat.statusCode).toBe(302);
    const authorize = new URL(String(toWechat.headers.location));
    expect(`${authorize.origin}${authorize.pathname}`).toBe(oauth.endpoints.authorizeUrl);
    expect(Object.fromEntries(authorize.searchParams)).toEqual({
      appid: provider.appid,
      redirect_uri: `${authurl}/wechat`,
      response_type: "code",
      scope: "snsapi_userinfo",
      state: "bind",
    });
    expect(authorize.hash).toBe("#wechat_redirect");
    oauth.user = "bursar-wang";
    oauth.profiles.set("bursar-wang", { nickname: "王会计\u0007", headimgurl: "https://thirdwx.qlogo.cn/mmopen/vi_32/abc/132" });
    const back = await fetch(authorize, { redirect: "manual" });
    expect(back.status).toBe(302);
    const callback = new URL(back.headers.get("location")!);
    expect(callback.pathname).toBe(`/notice/bind/${token}/wechat`);
    const done = await t.app.inject({ method: "GET", url: `${callback.pathname}${callback.search}` });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.body).toContain('data-testid="bind-done"');
    const [bound] = await t.db.select().from(dailyReportSubscribers).where(eq(dailyReportSubscribers.openid, openidOf("bursar-wang", provider.appid)));
    expect(bound).toMatchObject({ sysid: world.sysid, nickname: "王会计", headurl: "https://thirdwx.qlogo.cn/mmopen/vi_32/abc/132" });
    expect((await settings()).daycount_notice_user).toContainEqual({ id: bound.id, nickname: "王会计", headurl: bound.headurl });

    // the code and the QR code were used: coming back again binds nothing more
    expect((await t.app.inject({ method: "GET", url: `${callback.pathname}${callback.search}` })).statusCode).toBe(404);
    // a new QR code: WeChat refusing the code (a used one) or coming back without one (the person did not agree) binds no one
    const next = /\/notice\/bind\/([A-Za-z0-9_-]{43})$/.exec((await settings()).authurl)![1];
    const refused = await t.app.inject({ method: "GET", url: `/notice/bind/${next}/wechat${callback.search}` });
    expect([refused.statusCode, refused.body.includes('data-testid="bind-failed"')]).toEqual([502, true]);
    const declined = await t.app.inject({ method: "GET", url: `/notice/bind/${next}/wechat?state=bind` });
    expect([declined.statusCode, declined.body.includes('data-testid="bind-cancelled"')]).toEqual([400, true]);
    // the same person scanning again is still bound once, with what WeChat shows now
    oauth.profiles.set("bursar-wang", { nickname: "", headimgurl: "http://example.com/a.png" });
    const again = await fetch(new URL(String((await t.app.inject({ method: "GET", url: `/notice/bind/${next}` })).headers.location)), { redirect: "manual" });
    const rebound = new URL(again.headers.get("location")!);
    expect((await t.app.inject({ method: "GET", url: `${rebound.pathname}${rebound.search}` })).statusCode).toBe(200);
    const rows = await t.db.select().from(dailyReportSubscribers).where(eq(dailyReportSubscribers.openid, openidOf("bursar-wang", provider.appid)));
    expect(rows.map((r) => ({ nickname: r.nickname, headurl: r.headurl }))).toEqual([{ nickname: "", headurl: "" }]);

    // without the official account's secret there is nothing to bind with: the console says so
    const [merchant] = await t.db.select().from(paymentMerchants).where(eq(paymentMerchants.merchantId, provider.spMchid));
    await t.db.update(paymentMerchants).set({ appSecretEnc: "" }).where(eq(paymentMerchants.id, merchant.id));
    try {
      const missing = await t.call("adminapiv2", "getdaycountnoticeset", { id: world.sysid }, { token: svc, headers: { "accept-language": "en" } });
      expect(missing).toMatchObject({ return_code: "FAIL", return_msg: expect.stringContaining("official account") });
    } finally {
      await t.db.update(paymentMerchants).set({ appSecretEnc: merchant.appSecretEnc }).where(eq(paymentMerchants.id, merchant.id));
    }
  });

  it("sends the daily report as the official account's template message, asking for a token again once WeChat stops taking it", async () => {
    await t.db.insert(dailyReportSubscribers).values({ sysid: world.sysid, openid: "oBursar0000000000000000000001", nickname: "Bursar Li" });
    const day = businessDay(t.clock.now());
    const evening = new Date(`${day}T20:30:00+08:00`);
    if (evening > t.clock.now()) t.clock.advance(evening.getTime() - t.clock.now().getTime());
    await send();
    const bound = await t.db.select().from(dailyReportSubscribers);
    expect(wechat.sent).toHaveLength(bound.length);
    // the person bound through WeChat's authorisation gets it too
    expect(wechat.sent.map((m) => m.touser)).toContain(openidOf("bursar-wang", provider.appid));
    const ours = wechat.sent.find((m) => m.touser === "oBursar0000000000000000000001")!;
    expect(ours).toMatchObject({ template_id: DAILY_TEMPLATE, data: { time1: { value: day }, amount2: { value: expect.stringMatching(/^\d+\.\d\d$/) } } });
    expect(wechat.tokensIssued).toBe(1);

    wechat.expireTokens();
    const now = t.clock.now();
    await t.db.transaction((tx) => queueNotices(tx, [{ sysid: world.sysid, kind: "daily_report", channel: "wechat", recipient: "oBursar0000000000000000000001", params: { day: "2026-01-01", paid: "1.00", refunded: "0.00", net: "1.00", bills: "0" }, createdBy: "test" }], now));
    await send();
    expect(wechat.sent.at(-1)).toMatchObject({ data: { time1: { value: "2026-01-01" } } });
    expect(wechat.tokensIssued).toBe(2);
    const [sent] = await t.db.select().from(notices).where(and(eq(notices.createdBy, "test"), eq(notices.kind, "daily_report")));
    expect(sent).toMatchObject({ status: "sent", driver: "wechat", reference: expect.stringMatching(/^\d+$/) });
  });

  it("cuts each value to its field's documented limit, by characters, and sends the others as they are", async () => {
    const now = t.clock.now();
    await t.db.transaction((tx) => queueNotices(tx, [{ sysid: world.sysid, kind: "payment", channel: "wechat", recipient: "oBursar0000000000000000000001", params: LONG_VALUES, createdBy: "test-limits" }], now));
    await send();
    const [notice] = await t.db.select().from(notices).where(eq(notices.createdBy, "test-limits"));
    expect(notice, notice?.error ?? "").toMatchObject({ status: "sent", driver: "wechat" });
    const limitOf = (field: string, value: string): number | undefined => {
      const kind = field.replace(/\d+$/, "");
      if (kind === "name" && !/\p{Script=Han}/u.test(value)) return LETTERS_NAME_LIMIT;
      return (DOCUMENTED_LIMITS as Record<string, number>)[kind];
    };
    const expected = Object.fromEntries(
      Object.entries(LONG_VALUES).map(([field, value]) => {
        const limit = limitOf(field, value);
        return [field, { value: limit === undefined ? value : Array.from(value).slice(0, limit).join("") }];
      }),
    );
    const message = wechat.sent.find((m) => m.template_id === PAYMENT_TEMPLATE)!;
    expect(message.data).toEqual(expected);
    // the figures written out: a thing of 20 emoji (20 characters, 40 UTF-16 units), a Chinese name of 10, a Latin one of 20
    expect([Array.from(message.data.thing1!.value).length, message.data.name10!.value, message.data.name11!.value, message.data.phrase6!.value]).toEqual([20, "欧阳欧阳欧阳欧阳欧阳", "Alexander Hamilton S", "已经缴费完"]);
  });

  it("fails a notice of a kind with no template, saying so", async () => {
    const now = t.clock.now();
    await t.db.transaction((tx) => queueNotices(tx, [{ sysid: world.sysid, kind: "refund", channel: "wechat", recipient: "oBursar0000000000000000000001", params: {}, createdBy: "test-refund" }], now));
    await send();
    await send();
    const [failed] = await t.db.select().from(notices).where(eq(notices.createdBy, "test-refund"));
    expect(failed).toMatchObject({ status: "failed", error: "no WeChat template is set for refund notices" });
  });

  it("has a stand-in whose stable_token answers the same token while it is valid, and a new one when forced", async () => {
    const ask = async (forceRefresh: boolean) =>
      (await (await fetch(`${wechat.url}/cgi-bin/stable_token`, { method: "POST", body: JSON.stringify({ grant_type: "client_credential", appid: provider.appid, secret: provider.appSecret, force_refresh: forceRefresh }) })).json()) as { access_token: string; expires_in: number };
    const issued = wechat.tokensIssued;
    const first = await ask(false);
    const again = await ask(false);
    expect(again.access_token).toBe(first.access_token);
    expect(again.expires_in).toBeGreaterThan(0);
    expect(again.expires_in).toBeLessThanOrEqual(first.expires_in);
    // the driver's token, still valid, was answered: nothing new was issued until forced
    expect(wechat.tokensIssued).toBe(issued);
    const forced = await ask(true);
    expect(forced.access_token).not.toBe(first.access_token);
    expect(wechat.tokensIssued).toBe(issued + 1);
    const sendWith = async (token: string) =>
      (await (await fetch(`${wechat.url}/cgi-bin/message/template/send?access_token=${token}`, { method: "POST", body: JSON.stringify({ touser: "oX", template_id: DAILY_TEMPLATE, data: {} }) })).json()) as { errcode: number };
    expect((await sendWith(first.access_token)).errcode).toBe(40001);
    expect((await sendWith(forced.access_token)).errcode).toBe(0);
  });

  it("reads its configuration from the environment, refusing a partial SMS account or a malformed template list", () => {
    expect(notifyConfigFromEnv({})).toEqual({ sandbox: true, wechatTemplates: undefined });
    const full = { NOTIFY_SANDBOX: "off", SMS_ACCESS_KEY_ID: "id", SMS_ACCESS_KEY_SECRET: "secret", SMS_SIGN_NAME: "阳光校园", SMS_TEMPLATES: '{"reminder":"SMS_1"}' };
    expect(notifyConfigFromEnv(full)).toMatchObject({ sandbox: false, sms: { accessKeyId: "id", templates: { reminder: "SMS_1" }, origin: "https://dysmsapi.aliyuncs.com" } });
    expect(() => notifyConfigFromEnv({ ...full, SMS_SIGN_NAME: "" })).toThrow(/SMS_SIGN_NAME missing/);
    expect(() => notifyConfigFromEnv({ ...full, SMS_TEMPLATES: "{reminder" })).toThrow(/SMS_TEMPLATES must be JSON/);
    expect(() => notifyConfigFromEnv({ WECHAT_TEMPLATES: '{"daily_report":{"id":""}}' })).toThrow(/WECHAT_TEMPLATES/);
  });
});
