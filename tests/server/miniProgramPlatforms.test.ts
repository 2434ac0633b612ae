/**
 * Publishing through WeChat's third-party platform, against a stand-in speaking its protocol
 * (tests/helpers/fakeWechatOpen.ts): the message encryption checked against the vectors of WeChat's own sample code;
 * the verify ticket pushed and kept, a forged push refused; an app bound by its owner's authorisation (the link, the
 * page WeChat opens, the return) and by the `authorized` push, unbound by `unauthorized`; its template committed,
 * submitted, refused and passed by the audit pushes, released and reverted, its privacy rules set; the component
 * token made once and shared, the app's token renewed from its refresh token, both sealed in the database; WeChat's
 * refusals said in words. On PostgreSQL, two processes renewing the token at once make one.
 */
import { generateKeyPairSync } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { miniProgramCalls, miniProgramPlatformState, miniPrograms, providers } from "../../server/db/schema";
import { WechatCryptError, WechatMessageCrypt } from "../../server/domains/miniPrograms/wechatCrypt";
import { WechatOpenPlatform } from "../../server/domains/miniPrograms/wechatOpen";
import { PaymentSecrets } from "../../server/payments/secrets";
import { describeOnEmbedded, describeOnPostgres } from "../helpers/db";
import { FakeAlipayOpen } from "../helpers/fakeAlipayOpen";
import { qrText } from "../helpers/qrDecode";
import { FakeWechatOpen } from "../helpers/fakeWechatOpen";
import { en } from "../helpers/locales";
import { createTestApp, type TestApp } from "./support";

type Row = Record<string, unknown>;
const EN = { "accept-language": "en" };
const PAYMENT_KEY = { key: Buffer.alloc(32, 7).toString("base64") };
const CREDENTIALS = { componentAppid: "wx3a7c9e1f5b2d4680", componentSecret: "c0mp0nent-secret-0f-the-platform", messageToken: "campuspaytoken", messageAesKey: "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG" };
const APPID = "wx5c1f0e2d3b4a6978";
/** An operator's calls of the console and the app it publishes, as a block's state stands when they run. */
function operatorOf(state: () => { t: TestApp; token: string; appId: number }) {
  const call = (method: string, payload: Row = {}) => state().t.call("adminapiv2", method, payload, { token: state().token, headers: EN });
  const ok = async (method: string, payload: Row = {}) => {
    const res = await call(method, payload);
    expect(res.return_code, `${method}: ${res.return_msg}`).toBe("SUCCESS");
    return res;
  };
  const appOf = async () => (await state().t.db.select().from(miniPrograms).where(eq(miniPrograms.id, state().appId)))[0];
  return { call, ok, appOf };
}

const refusedIn = (errcode: number, words: string) => en.miniapps.refused.replace("{{errcode}}", String(errcode)).replace("{{words}}", words);

describe("WeChat's message encryption (WXBizMsgCrypt)", () => {
  it("encrypts as WeChat's sample code does", () => {
    // WXBizMsgCryptTest.java of WeChat's sample: a fixed random string, a message and its ciphertext
    const crypt = new WechatMessageCrypt("pamtest", "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG", "wxb11529c136998cb6");
    const encrypted = crypt.encrypt("我是中文abcd123", Buffer.from("aaaabbbbccccdddd"));
    expect(encrypted).toBe("jn1L23DB+6ELqJ+6bruv21Y6MD7KeIfP82D6gU39rmkgczbWwt5+3bnyg5K55bgVtVzd832WzZGMhkP72vVOfg==");
    expect(crypt.decrypt(encrypted)).toBe("我是中文abcd123");
  });

  it("verifies and opens a push of WeChat's sample, and refuses it altered or for another appid", () => {
    // Sample.py of WeChat's sample: a push, its query and the receiver
    const encrypted =
      "hyzAe4OzmOMbd6TvGdIOO6uBmdJoD0Fk53REIHvxYtJlE2B655HuD0m8KUePWB3+LrPXo87wzQ1QLvbeUgmBM4x6F8PGHQHFVAFmOD2LdJF9FrXpbUAh0B5GIItb52sn896wVsMSHGuPE328HnRGBcrS7C41IzDWyWNlZkyyXwon8T332jisa+h6tEDYsVticbSnyU8dKOIbgU6ux5VTjg3yt+WGzjlpKn6NPhRjpA912xMezR4kw6KWwMrCVKSVCZciVGCgavjIQ6X8tCOp3yZbGpy0VxpAe+77TszTfRd5RJSVO/HTnifJpXgCSUdUue1v6h0EIBYYI1BD1DlD+C0CR8e6OewpusjZ4uBl9FyJvnhvQl+q5rv1ixrcpCumEPo5MJSgM9ehVsNPfUM669WuMyVWQLCzpu9GhglF2PE=";
    const body = `<xml><ToUserName><![CDATA[gh_10f6c3c3ac5a]]></ToUserName><FromUserName><![CDATA[oyORnuP8q7ou2gfYjqLzSIWZf0rs]]></FromUserName><CreateTime>1409735668</CreateTime><MsgType><![CDATA[text]]></MsgType><Content><![CDATA[abcdteT]]></Content><MsgId>6054768590064713728</MsgId><Encrypt><![CDATA[${encrypted}]]></Encrypt></xml>`;
    const query = { msg_signature: "5d197aaffba7e9b25a30732f161a50dee96bd5fa", timestamp: "1409735669", nonce: "1320562132" };
    const crypt = new WechatMessageCrypt("spamtest", "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG", "wx2c2769f8efd9abc2");
    const opened = crypt.open(query, body);
    expect(opened.ToUserName).toBe("gh_10f6c3c3ac5a");
    expect(opened.CreateTime).toMatch(/^\d{10}$/);
    expect(() => crypt.open({ ...query, nonce: "1320562133" }, body)).toThrow(WechatCryptError);
    expect(() => new WechatMessageCrypt("spamtest", "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG", "wx0000000000000000").open(query, body)).toThrow(/another appid/);
  });
});

describeOnEmbedded("publishing through WeChat's third-party platform", (kind) => {
  let t: TestApp;
  let wechat: FakeWechatOpen;
  let sysadmin: string;
  let appId: number;
  const { call, ok, appOf } = operatorOf(() => ({ t, token: sysadmin, appId }));
  const callNames = async () => (await t.db.select({ call: miniProgramCalls.call }).from(miniProgramCalls).where(eq(miniProgramCalls.app_id, appId))).map((c) => c.call);
  const deliver = (path: string, push: { body: string; query: Record<string, string> }) =>
    t.app.inject({ method: "POST", url: path, query: push.query, payload: push.body, headers: { "content-type": "text/xml" } });

  beforeAll(async () => {
    wechat = await FakeWechatOpen.start(CREDENTIALS);
    t = await createTestApp(kind, { paymentKey: PAYMENT_KEY, wechatOAuth: { apiOrigin: wechat.url }, publicUrl: "https://pay.example.edu" });
    sysadmin = await t.login("sysadmin");
  });
  afterAll(async () => {
    await t?.close();
    await wechat?.close();
  });

  it("is chosen in the settings only with its credentials, and refuses pushes until then", async () => {
    const early = await deliver("/miniapp/wechat/auth-events", wechat.ticketPush());
    expect(early.statusCode).toBe(404);
    const badKey = await call("microappsetedit", { wechat_publisher: "platform", message_aes_key: "too-short" });
    expect((badKey.data as { errors: { field: string; message: string }[] }).errors[0]).toEqual({ field: "message_aes_key", message: en.miniapps.validation.message_aes_key });
    await ok("microappsetedit", { wechat_publisher: "platform", component_appid: CREDENTIALS.componentAppid, component_appsecret: CREDENTIALS.componentSecret, message_token: CREDENTIALS.messageToken, message_aes_key: CREDENTIALS.messageAesKey });
  });

  it("keeps the ticket WeChat pushes, sealed, and refuses a forged push", async () => {
    const forged = wechat.ticketPush();
    const refused = await deliver("/miniapp/wechat/auth-events", { body: forged.body, query: { ...forged.query, msg_signature: "0".repeat(40) } });
    expect(refused.statusCode).toBe(400);
    expect(await t.db.select().from(miniProgramPlatformState)).toEqual([]);
    const push = wechat.ticketPush();
    const answer = await deliver("/miniapp/wechat/auth-events", push);
    expect([answer.statusCode, answer.body]).toEqual([200, "success"]);
    const [kept] = await t.db.select().from(miniProgramPlatformState);
    expect(kept.name).toBe("wechat.verify_ticket");
    expect(kept.value).not.toContain(push.ticket.slice(9));
    expect(kept.expiresAt.getTime() - t.clock.now().getTime()).toBe(12 * 3600_000);
  });

  it("binds an app by its owner's authorisation: the link, WeChat's page, the return", async () => {
    const sunrise = (await t.db.select({ id: providers.id }).from(providers).where(eq(providers.title, "Sunrise Campus Services")))[0].id;
    const added = await ok("miniappadd", { nickname: "Sunrise Pay", platform: "wechat", appid: APPID, sysid: sunrise });
    appId = Number((added.data?.items as Row).id);
    expect((await appOf()).auth_status).toBe("unauthorized");
    // not authorised yet: WeChat's word for a refresh token it does not know, in the user's words
    const early = await call("miniappcommit", { id: appId, user_version: "1.0.0" });
    expect(early.return_msg).toBe(refusedIn(61023, en.miniapps.errcode["61023"]));

    const link = String(((await ok("miniappauthorize", { id: appId })).data?.items as Row).auth_link);
    expect(link).toMatch(/^https:\/\/pay\.example\.edu\/miniapp\/authorize\?link=/);
    const opened = await t.app.inject({ method: "GET", url: link.slice("https://pay.example.edu".length) });
    expect(opened.statusCode).toBe(302);
    const page = new URL(String(opened.headers.location));
    expect(`${page.origin}${page.pathname}`).toBe("https://mp.weixin.qq.com/cgi-bin/componentloginpage");
    expect(Object.fromEntries(page.searchParams)).toMatchObject({ component_appid: CREDENTIALS.componentAppid, auth_type: "2", biz_appid: APPID });
    // the component token was made from the ticket, once
    expect(wechat.count("/cgi-bin/component/api_component_token")).toBe(1);

    const authCode = wechat.confirmAuthorization(page.searchParams.get("pre_auth_code")!, APPID);
    const back = new URL(page.searchParams.get("redirect_uri")!);
    back.searchParams.set("auth_code", authCode);
    back.searchParams.set("expires_in", "3600");
    const returned = await t.app.inject({ method: "GET", url: `${back.pathname}${back.search}`, headers: EN });
    expect(returned.statusCode).toBe(200);
    expect(returned.body).toContain(en.miniapps.authorize.done);
    const bound = await appOf();
    expect(bound.auth_status).toBe("authorized");
    // sealed: the database holds no token WeChat gave
    expect(bound.auth_refresh_token).toMatch(/^v1:/);
    expect(bound.auth_refresh_token).not.toContain(wechat.apps.get(APPID)!.refreshToken!.slice(16));

    const forged = await t.app.inject({ method: "GET", url: "/miniapp/authorize?link=v1%3Anot-ours", headers: EN });
    expect([forged.statusCode, forged.body.includes(en.miniapps.authorize.link_ended)]).toEqual([404, true]);
  });

  it("commits, is audited through WeChat's pushes, releases and reverts", async () => {
    await ok("miniappcommit", { id: appId, user_version: "1.0.0", user_desc: "First term" });
    const committed = wechat.apps.get(APPID)!.experience!;
    expect(committed).toMatchObject({ template_id: 108, user_version: "1.0.0", user_desc: "First term" });
    expect(JSON.parse(committed.ext_json)).toEqual({});
    // the experience QR code WeChat drew, kept and shown as a picture
    const qr = await t.app.inject({ method: "GET", url: String((await appOf()).exp_qrcode) });
    expect([qr.statusCode, qr.headers["content-type"]]).toEqual([200, "image/webp"]);
    expect(await qrText(qr.rawPayload)).toBe(`https://open.weixin.qq.com/sns/getexpappinfo?appid=${APPID}&version=1.0.0#wechat-redirect`);
    await ok("miniappsubmit", { id: appId, version_desc: "Test account: demo / demo" });
    expect((await appOf()).publish_status).toBe("auditing");

    // a push that is WeChat's but about an app in no audit changes nothing; the app's push moves it
    const refusedPush = await deliver(`/miniapp/wechat/events/${APPID}`, wechat.auditPush(APPID, "weapp_audit_fail", "小程序名称与内容不符"));
    expect(refusedPush.body).toBe("success");
    expect(await appOf()).toMatchObject({ publish_status: "audit_failed", audit_reason: "小程序名称与内容不符" });
    const late = await deliver(`/miniapp/wechat/events/${APPID}`, wechat.auditPush(APPID, "weapp_audit_success"));
    expect(late.body).toBe("success");
    expect((await appOf()).publish_status).toBe("audit_failed");

    await ok("miniappcommit", { id: appId, user_version: "1.0.1" });
    await ok("miniappsubmit", { id: appId });
    await ok("miniappaudit", { id: appId });
    expect((await appOf()).publish_status).toBe("auditing");
    wechat.auditDone(APPID, 0);
    await ok("miniappaudit", { id: appId });
    await ok("miniapprelease", { id: appId });
    expect(wechat.apps.get(APPID)!.live).toBe("1.0.1");
    expect(await appOf()).toMatchObject({ publish_status: "released", live_version: "1.0.1" });

    await ok("miniappcommit", { id: appId, user_version: "1.1.0" });
    await ok("miniappsubmit", { id: appId });
    await deliver(`/miniapp/wechat/events/${APPID}`, wechat.auditPush(APPID, "weapp_audit_success"));
    await ok("miniapprelease", { id: appId });
    await ok("miniapprevert", { id: appId });
    expect(wechat.apps.get(APPID)!.live).toBe("1.0.1");
    expect(await appOf()).toMatchObject({ live_version: "1.0.1" });
  });

  it("sets the privacy rules of the development and the live version as WeChat takes them", async () => {
    // the code uses PhoneNumber too: its purpose is asked for before WeChat is told
    const short = await call("miniappprivacy", { id: appId, privacy_ver: "dev", contact_phone: "13800138000", notice_method: "弹窗", privacy_settings: "UserInfo: 识别缴费家长" });
    expect(short.return_msg).toBe(en.miniapps.privacy_keys_missing.replace("{{keys}}", "PhoneNumber"));
    expect(wechat.apps.get(APPID)!.privacy.dev).toBeUndefined();
    await ok("miniappprivacy", { id: appId, privacy_ver: "dev", contact_phone: "13800138000", notice_method: "弹窗", privacy_settings: "UserInfo: 识别缴费家长\nPhoneNumber: 联系家长" });
    expect(wechat.apps.get(APPID)!.privacy.dev).toEqual({
      privacy_ver: 2,
      owner_setting: { contact_phone: "13800138000", notice_method: "弹窗" },
      setting_list: [
        { privacy_key: "UserInfo", privacy_text: "识别缴费家长" },
        { privacy_key: "PhoneNumber", privacy_text: "联系家长" },
      ],
    });
    await ok("miniappprivacy", { id: appId, privacy_ver: "live", contact_email: "privacy@sunrise.example", notice_method: "公告" });
    expect(wechat.apps.get(APPID)!.privacy.live).toEqual({ privacy_ver: 1, owner_setting: { contact_email: "privacy@sunrise.example", notice_method: "公告" } });
  });

  it("renews the tokens once they end, the component token and the app's from its kept refresh token", async () => {
    const before = { component: wechat.count("/cgi-bin/component/api_component_token"), app: wechat.count("/cgi-bin/component/api_authorizer_token") };
    await ok("miniappsandbox", { id: appId, event: "expire_tokens" });
    await ok("miniappcommit", { id: appId, user_version: "1.2.0" });
    await ok("miniappsubmit", { id: appId });
    expect(wechat.count("/cgi-bin/component/api_component_token")).toBe(before.component + 1);
    expect(wechat.count("/cgi-bin/component/api_authorizer_token")).toBe(before.app + 1);
    // two hours on, each is renewed again, once
    t.clock.advance(2 * 3600_000);
    await deliver("/miniapp/wechat/auth-events", wechat.ticketPush());
    await ok("miniappaudit", { id: appId });
    await ok("miniappaudit", { id: appId });
    expect(wechat.count("/cgi-bin/component/api_component_token")).toBe(before.component + 2);
    expect(wechat.count("/cgi-bin/component/api_authorizer_token")).toBe(before.app + 2);
  });

  it("is unbound by the owner's unauthorisation and bound again by the authorized push", async () => {
    const gone = await deliver("/miniapp/wechat/auth-events", wechat.authPush("unauthorized", APPID));
    expect(gone.body).toBe("success");
    expect(await appOf()).toMatchObject({ auth_status: "unauthorized", auth_refresh_token: null });
    const refused = await call("miniappaudit", { id: appId });
    expect(refused.return_msg).toBe(refusedIn(61023, en.miniapps.errcode["61023"]));
    expect((await appOf()).last_error).toMatch(/^61023 /);

    await deliver("/miniapp/wechat/auth-events", wechat.authPush("authorized", APPID));
    expect((await appOf()).auth_status).toBe("authorized");
    // WeChat lost the audit with the authorisation: its refusal is said with its own message
    const lost = await call("miniappaudit", { id: appId });
    expect(lost.return_msg).toBe(refusedIn(86000, "auditid is invalid"));
    expect(await callNames()).toEqual(expect.arrayContaining(["authorize_link", "authorized", "push:weapp_audit_fail", "push:unauthorized", "push:authorized", "sandbox:expire_tokens"]));
  });

  it("says in words that the ticket is missing, when WeChat stopped pushing for 12 hours", async () => {
    t.clock.advance(13 * 3600_000);
    sysadmin = await t.login("sysadmin");
    const refused = await call("miniappaudit", { id: appId });
    expect(refused.return_msg).toBe(refusedIn(61006, en.miniapps.errcode["61006"]));
  });
});

describeOnEmbedded("publishing through Alipay's open platform", (kind) => {
  const PLATFORM_APP_ID = "2021004123456789";
  const ALIPAY_APPID = "2021004187654321";
  const keys = generateKeyPairSync("rsa", { modulusLength: 2048 });
  let t: TestApp;
  let alipay: FakeAlipayOpen;
  let sysadmin: string;
  let appId: number;
  const { call, ok, appOf } = operatorOf(() => ({ t, token: sysadmin, appId }));
  const online = () => alipay.apps.get(ALIPAY_APPID)!.online;

  beforeAll(async () => {
    alipay = await FakeAlipayOpen.start(PLATFORM_APP_ID, keys.publicKey.export({ type: "spki", format: "pem" }).toString());
    t = await createTestApp(kind, { paymentKey: PAYMENT_KEY, alipayGateway: alipay.gateway, publicUrl: "https://pay.example.edu" });
    sysadmin = await t.login("sysadmin");
    await ok("microappsetedit", {
      alipay_publisher: "platform",
      alipay_app_id: PLATFORM_APP_ID,
      // as Alipay's key tool gives it: bare base64 on one line
      alipay_private_key: keys.privateKey.export({ type: "pkcs1", format: "der" }).toString("base64"),
      alipay_public_key: alipay.alipayPublicKey,
    });
  });
  afterAll(async () => {
    await t?.close();
    await alipay?.close();
  });

  it("binds an app by its owner's authorisation on Alipay's page", async () => {
    const sunrise = (await t.db.select({ id: providers.id }).from(providers).where(eq(providers.title, "Sunrise Campus Services")))[0].id;
    appId = Number(((await ok("miniappadd", { nickname: "Sunrise Alipay", platform: "alipay", appid: ALIPAY_APPID, sysid: sunrise })).data?.items as Row).id);
    expect((await appOf()).auth_status).toBe("unauthorized");
    const link = String(((await ok("miniappauthorize", { id: appId })).data?.items as Row).auth_link);
    const opened = await t.app.inject({ method: "GET", url: link.slice("https://pay.example.edu".length) });
    const page = new URL(String(opened.headers.location));
    expect(`${page.origin}${page.pathname}`).toBe("https://openauth.alipay.com/oauth2/appToAppAuth.htm");
    expect(page.searchParams.get("app_id")).toBe(PLATFORM_APP_ID);
    const back = new URL(page.searchParams.get("redirect_uri")!);
    back.searchParams.set("app_id", PLATFORM_APP_ID);
    back.searchParams.set("app_auth_code", alipay.confirmAuthorization(ALIPAY_APPID));
    const returned = await t.app.inject({ method: "GET", url: `${back.pathname}${back.search}`, headers: EN });
    expect([returned.statusCode, returned.body.includes(en.miniapps.authorize.done)]).toEqual([200, true]);
    expect((await appOf()).auth_status).toBe("authorized");
    expect((await appOf()).auth_access_token).not.toContain(alipay.apps.get(ALIPAY_APPID)!.authToken);
  });

  it("uploads the template with the ext config, shows the experience QR, is audited, released and rolled back", async () => {
    await ok("miniappcommit", { id: appId, user_version: "1.0.0" });
    const uploaded = alipay.calls.find((c) => c.method === "alipay.open.mini.version.upload")!;
    expect(uploaded.biz).toMatchObject({ template_id: "2021004100000001", template_version: "0.3.0", app_version: "1.0.0", ext: "{}" });
    const qr = await t.app.inject({ method: "GET", url: String((await appOf()).exp_qrcode) });
    expect(await qrText(qr.rawPayload)).toBe(`https://mobilecodec.alipay.com/show.htm?code=exp${ALIPAY_APPID}1.0.0`);
    await ok("miniappsubmit", { id: appId, version_desc: "Term fees" });
    await ok("miniappaudit", { id: appId });
    expect((await appOf()).publish_status).toBe("auditing");
    alipay.auditDone(ALIPAY_APPID, "1.0.0", false, "类目与内容不符");
    await ok("miniappaudit", { id: appId });
    expect(await appOf()).toMatchObject({ publish_status: "audit_failed", audit_reason: "类目与内容不符" });

    for (const version of ["1.0.1", "1.1.0"]) {
      await ok("miniappcommit", { id: appId, user_version: version });
      await ok("miniappsubmit", { id: appId });
      alipay.auditDone(ALIPAY_APPID, version, true);
      await ok("miniappaudit", { id: appId });
      await ok("miniapprelease", { id: appId });
      expect(online()).toBe(version);
    }
    await ok("miniapprevert", { id: appId });
    expect(online()).toBe("1.0.1");
    expect(await appOf()).toMatchObject({ publish_status: "released", live_version: "1.0.1" });
  });

  it("renews the app_auth_token from its refresh token, and says Alipay's refusals in words", async () => {
    await ok("miniappsandbox", { id: appId, event: "expire_tokens" });
    await ok("miniappcommit", { id: appId, user_version: "1.2.0" });
    expect(alipay.calls.filter((c) => c.method === "alipay.open.auth.token.app" && c.biz.grant_type === "refresh_token")).toHaveLength(1);

    // releasing a version Alipay has not passed: its code and words
    await ok("miniappsubmit", { id: appId });
    await t.db.update(miniPrograms).set({ publish_status: "audit_passed" }).where(eq(miniPrograms.id, appId));
    const refused = await call("miniapprelease", { id: appId });
    expect(refused.return_msg).toBe(refusedIn(40004, "isv.status-not-allowed 当前版本状态不允许此操作"));
    // Alipay has no call for privacy rules: said, not pretended
    const privacy = await call("miniappprivacy", { id: appId, privacy_ver: "dev", notice_method: "弹窗", privacy_settings: "UserInfo: 识别家长" });
    expect(privacy.return_msg).toBe(en.miniapps.alipay_privacy);
  });

  it("believes no answer that Alipay's key did not sign", async () => {
    const other = generateKeyPairSync("rsa", { modulusLength: 2048 }).publicKey.export({ type: "spki", format: "pem" }).toString();
    await ok("microappsetedit", { alipay_public_key: other });
    const refused = await call("miniapprelease", { id: appId });
    expect(refused.return_msg).toBe(refusedIn(-1, en.miniapps.errcode["-1"]));
    expect((await appOf()).publish_status).toBe("audit_passed");
    await ok("microappsetedit", { alipay_public_key: "MIIBIjANBgkqhkiG9w0B" });
    expect((await call("miniapprelease", { id: appId })).return_msg).toBe(en.miniapps.alipay_keys_unreadable);
  });
});

describeOnPostgres("WeChat's component token on PostgreSQL", () => {
  let t: TestApp;
  let wechat: FakeWechatOpen;
  beforeAll(async () => {
    wechat = await FakeWechatOpen.start(CREDENTIALS);
    t = await createTestApp("postgres", { seed: false, paymentKey: PAYMENT_KEY });
  });
  afterAll(async () => {
    await t?.close();
    await wechat?.close();
  });

  it("is made once when several processes need it at once, and shared", async () => {
    const secrets = new PaymentSecrets(PAYMENT_KEY);
    // each a process of its own, on the one database
    const processes = Array.from({ length: 4 }, () => new WechatOpenPlatform({ db: t.db, clock: t.clock, paymentSecrets: secrets, apiOrigin: wechat.url }, CREDENTIALS));
    await processes[0].keepTicket(wechat.ticketPush().ticket);
    const tokens = await Promise.all(processes.map((p) => p.componentToken()));
    expect(new Set(tokens).size).toBe(1);
    expect(wechat.count("/cgi-bin/component/api_component_token")).toBe(1);
  });
});
