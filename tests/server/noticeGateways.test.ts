/**
 * The notifier without its sandbox (its behaviour does not depend on the database: PGlite only): a reminder goes
 * by SMS through Alibaba Cloud's SMS service, signed, as the account's template with the notice's variables; a
 * number the service refuses is tried three times, then the notice is failed with the service's words; the daily
 * report goes to the bound users as the platform official account's template message, a token WeChat no longer
 * takes is asked for again once; a kind with no template fails saying so. And the configuration read from the
 * environment: a partial SMS account or a malformed template list stops the server with a message naming it.
 */
import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businessDay } from "../../common/term";
import { notifyConfigFromEnv } from "../../server/config";
import { dailyReportSubscribers, notices, students } from "../../server/db/schema";
import { queueNotices } from "../../server/notify/notices";
import { FakeAliyunSms, FakeWechatMessages } from "../helpers/fakeNotifyGateways";
import { platformServiceProvider, type FakeWechatPay } from "../helpers/fakeWechatPay";
import { payerWorld, unpaidStudents, type PayerWorld } from "./payerSupport";
import { createTestApp, type TestApp } from "./support";

const SMS_ACCOUNT = { accessKeyId: "LTAI5tTestKeyId", accessKeySecret: "testSecret/with+chars=" };
const DAILY_TEMPLATE = "TPL-daily-0001";

describe("notices through their gateways", () => {
  const provider = platformServiceProvider();
  let t: TestApp;
  let pay: FakeWechatPay;
  let wechat: FakeWechatMessages;
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
    wechat = await FakeWechatMessages.start({ appid: provider.appid, secret: provider.appSecret }, [DAILY_TEMPLATE]);
    sms = await FakeAliyunSms.start(SMS_ACCOUNT, ["SMS_480105001"]);
    t = await createTestApp("pglite", {
      paymentKey: { key: randomBytes(32).toString("base64") },
      wechatOAuth: { apiOrigin: wechat.url },
      notify: {
        sandbox: false,
        sms: { ...SMS_ACCOUNT, signName: "阳光校园", templates: { reminder: "SMS_480105001" }, origin: sms.url },
        wechatTemplates: { daily_report: { id: DAILY_TEMPLATE, data: { time1: "day", amount2: "paid", amount3: "refunded", amount4: "net", number5: "bills" } } },
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
    await Promise.all([wechat?.close(), sms?.close(), pay?.close()]);
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

  it("sends the daily report as the official account's template message, asking for a token again once WeChat stops taking it", async () => {
    await t.db.insert(dailyReportSubscribers).values({ sysid: world.sysid, openid: "oBursar0000000000000000000001", nickname: "Bursar Li" });
    const day = businessDay(t.clock.now());
    const evening = new Date(`${day}T20:30:00+08:00`);
    if (evening > t.clock.now()) t.clock.advance(evening.getTime() - t.clock.now().getTime());
    await send();
    const bound = await t.db.select().from(dailyReportSubscribers);
    expect(wechat.sent).toHaveLength(bound.length);
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

  it("fails a notice of a kind with no template, saying so", async () => {
    const now = t.clock.now();
    await t.db.transaction((tx) => queueNotices(tx, [{ sysid: world.sysid, kind: "refund", channel: "wechat", recipient: "oBursar0000000000000000000001", params: {}, createdBy: "test-refund" }], now));
    await send();
    await send();
    const [failed] = await t.db.select().from(notices).where(eq(notices.createdBy, "test-refund"));
    expect(failed).toMatchObject({ status: "failed", error: "no WeChat template is set for refund notices" });
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
