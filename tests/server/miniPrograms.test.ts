/**
 * Mini-program publishing through the sandbox: an app bound for its provider (a provider binds its own only), its
 * template committed with its ext config, submitted, refused once by an error code injected (said in words, the
 * refusal recorded, nothing changed), audited (refused with a reason, then passed), released and reverted; the
 * privacy rules of the development and the live version (86074 without a live one); every call recorded; a provider
 * sees and publishes its own apps only, a provider without the upload flag none.
 */
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { miniProgramCalls, miniPrograms, providers } from "../../server/db/schema";
import { describeOnEmbedded } from "../helpers/db";
import { en } from "../helpers/locales";
import { qrText } from "../helpers/qrDecode";
import { createTestApp, type TestApp } from "./support";

type Row = Record<string, unknown>;
const EN = { "accept-language": "en" };

describeOnEmbedded("mini-program publishing", (kind) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  let sunrise: number;
  let harbour: number;
  const call = (user: string, method: string, payload: Row = {}) => t.call("adminapiv2", method, payload, { token: tokens[user], headers: EN });
  const ok = async (user: string, method: string, payload: Row = {}) => {
    const res = await call(user, method, payload);
    expect(res.return_code, `${method}: ${res.return_msg}`).toBe("SUCCESS");
    return res;
  };
  const appOf = async (id: number) => (await t.db.select().from(miniPrograms).where(eq(miniPrograms.id, id)))[0];
  const callsOf = async (id: number) => t.db.select().from(miniProgramCalls).where(eq(miniProgramCalls.app_id, id)).orderBy(asc(miniProgramCalls.id));

  beforeAll(async () => {
    t = await createTestApp(kind);
    for (const user of ["sysadmin", "svc", "harbour"]) tokens[user] = await t.login(user);
    sunrise = (await t.db.select({ id: providers.id }).from(providers).where(eq(providers.title, "Sunrise Campus Services")))[0].id;
    harbour = (await t.db.select({ id: providers.id }).from(providers).where(eq(providers.title, "Harbour Education Services")))[0].id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it("binds an app for its provider, checking its ext config; a provider binds its own only", async () => {
    const notJson = await call("sysadmin", "miniappadd", { nickname: "Sunrise Pay", platform: "wechat", appid: "wx0123456789abcdef", sysid: sunrise, ext_json: "{title: Sunrise" });
    expect(notJson.return_code).toBe("FAIL");
    expect((notJson.data as { errors: { field: string; message: string }[] }).errors[0]).toEqual({ field: "ext_json", message: en.miniapps.validation.ext_json });
    const other = await call("svc", "miniappadd", { nickname: "Not mine", platform: "wechat", appid: "wx0123456789abcd01", sysid: harbour });
    // another provider is outside the caller's tenant: missing, as everywhere
    expect(other.return_msg).toBe(en.api.not_found);
    const unnamed = await call("sysadmin", "miniappadd", { nickname: "Whose?", platform: "wechat", appid: "wx0123456789abcd02" });
    expect((unnamed.data as { errors: { field: string }[] }).errors[0].field).toBe("sysid");
    // a provider names no provider: the app is its own
    const added = await ok("svc", "miniappadd", { nickname: "Sunrise Pay", platform: "wechat", appid: "wx0123456789abcdef", ext_json: JSON.stringify({ ext: { title: "Sunrise Pay" } }) });
    const id = Number((added.data?.items as Row).id);
    expect(await appOf(id)).toMatchObject({ publish_status: "none", auth_status: "authorized", sysid: sunrise });
    expect((await callsOf(id)).map((c) => c.call)).toEqual(["authorized"]);
  });

  it("commits, is refused by an injected error in words, is audited, released and reverted", async () => {
    const [app] = await t.db.select().from(miniPrograms).where(eq(miniPrograms.appid, "wx0123456789abcdef"));
    const id = app.id;
    // the provider's own settings: its apps' ext config, none of the platform's credentials, and the other way round
    await ok("svc", "microappsetedit", { ext_defaults: JSON.stringify({ ext: { theme: "#07c160", service_phone: "021-5550101" } }), component_appid: "wx0000000000000000" });
    const own = (await ok("svc", "microappsetinfo")).data?.items as Row;
    expect(Object.keys(own)).toEqual(["ext_defaults"]);
    const platform = (await ok("sysadmin", "microappsetinfo")).data?.items as Row;
    expect(platform.component_appid).toBe("wx3a7c9e1f5b2d4680");
    expect(Object.keys(platform)).not.toContain("ext_defaults");
    await ok("svc", "miniappcommit", { id, user_version: "1.0.0", user_desc: "First term" });
    const committed = JSON.parse((await callsOf(id)).at(-1)!.request!) as { ext_json: string; template_id: string };
    expect(committed.template_id).toBe("108");
    expect(JSON.parse(committed.ext_json)).toEqual({ ext: { title: "Sunrise Pay", theme: "#07c160", service_phone: "021-5550101" } });
    expect(await appOf(id)).toMatchObject({ publish_status: "committed", exp_version: "1.0.0", last_error: null });
    const qr = await t.app.inject({ method: "GET", url: String((await appOf(id)).exp_qrcode) });
    expect(await qrText(qr.rawPayload)).toBe("sandbox://wechat/experience?appid=wx0123456789abcdef&version=1.0.0");

    // the platform is still checking the code: refused, said in words, recorded, the app as it was
    await ok("sysadmin", "miniappsandbox", { id, event: "inject_error", errcode: "61039" });
    const refused = await call("svc", "miniappsubmit", { id, version_desc: "Test account: demo / demo" });
    expect(refused.return_code).toBe("FAIL");
    expect(refused.return_msg).toBe(en.miniapps.refused.replace("{{errcode}}", "61039").replace("{{words}}", en.miniapps.errcode["61039"]));
    expect(await appOf(id)).toMatchObject({ publish_status: "committed", last_error: expect.stringMatching(/^61039 /) });
    expect((await callsOf(id)).at(-1)).toMatchObject({ call: "submit_audit", errcode: 61039 });

    // once only: submitted again, it is audited; refused with a reason, then passed after a new commit
    await ok("svc", "miniappsubmit", { id, version_desc: "Test account: demo / demo" });
    expect(await appOf(id)).toMatchObject({ publish_status: "auditing", last_error: null });
    expect((await appOf(id)).audit_id).toMatch(/^\d{9}$/);
    await ok("svc", "miniappaudit", { id });
    expect((await appOf(id)).publish_status).toBe("auditing");
    await ok("sysadmin", "miniappsandbox", { id, event: "audit_fail", reason: "The fee page shows no price before paying" });
    await ok("svc", "miniappaudit", { id });
    expect(await appOf(id)).toMatchObject({ publish_status: "audit_failed", audit_reason: "The fee page shows no price before paying" });
    await ok("svc", "miniappcommit", { id, user_version: "1.0.1" });
    await ok("svc", "miniappsubmit", { id });
    await ok("sysadmin", "miniappsandbox", { id, event: "audit_delay" });
    await ok("svc", "miniappaudit", { id });
    expect(await appOf(id)).toMatchObject({ publish_status: "auditing", audit_reason: en.miniapps.audit_delayed });
    await ok("sysadmin", "miniappsandbox", { id, event: "audit_success" });
    await ok("svc", "miniappaudit", { id });
    expect((await appOf(id)).publish_status).toBe("audit_passed");
    // a provider does not drive the sandbox
    expect((await call("svc", "miniappsandbox", { id, event: "audit_success" })).return_code).toBe("FAIL");

    // the live version's privacy needs a live version
    const noLive = await call("svc", "miniappprivacy", { id, privacy_ver: "live", notice_method: "In-app notice", contact_email: "it@sunrise.example.com" });
    expect(noLive.return_msg).toBe(en.miniapps.refused.replace("{{errcode}}", "86074").replace("{{words}}", en.miniapps.errcode["86074"]));
    await ok("svc", "miniapprelease", { id });
    expect(await appOf(id)).toMatchObject({ publish_status: "released", live_version: "1.0.1", previous_version: null });
    expect((await call("svc", "miniapprevert", { id })).return_msg).toBe(en.miniapps.no_previous);
    await ok("svc", "miniappprivacy", { id, privacy_ver: "live", notice_method: "In-app notice", contact_email: "it@sunrise.example.com" });
    await ok("svc", "miniappprivacy", { id, privacy_ver: "dev", notice_method: "In-app notice", privacy_settings: "UserInfo: to show the payer's name\nPhoneNumber：to send receipts" });
    const privacy = JSON.parse(String((await appOf(id)).privacy_dev)) as { setting_list: Row[] };
    expect(privacy.setting_list).toEqual([
      { privacy_key: "UserInfo", privacy_text: "to show the payer's name" },
      { privacy_key: "PhoneNumber", privacy_text: "to send receipts" },
    ]);

    await ok("svc", "miniappcommit", { id, user_version: "1.1.0" });
    await ok("svc", "miniappsubmit", { id });
    await ok("sysadmin", "miniappsandbox", { id, event: "audit_success" });
    await ok("svc", "miniappaudit", { id });
    await ok("svc", "miniapprelease", { id });
    expect(await appOf(id)).toMatchObject({ live_version: "1.1.0", previous_version: "1.0.1" });
    await ok("svc", "miniapprevert", { id });
    expect(await appOf(id)).toMatchObject({ publish_status: "released", live_version: "1.0.1" });
    const calls = (await callsOf(id)).map((c) => c.call);
    expect(calls).toEqual(expect.arrayContaining(["commit", "submit_audit", "get_auditstatus", "release", "revertcoderelease", "setprivacysetting", "sandbox:audit_success"]));
    // the calls list on the app's page
    const listed = (await ok("svc", "miniappcalllist", { app_id: id, limit: 100 })).data?.items as Row[];
    expect(listed.length).toBe(calls.length);
  });

  it("shows a provider its own apps only, and none to a provider without the upload flag", async () => {
    const own = (await ok("svc", "miniapplist", { limit: 100 })).data?.items as Row[];
    const ids = (await t.db.select({ id: miniPrograms.id }).from(miniPrograms).where(eq(miniPrograms.sysid, sunrise))).map((a) => a.id).sort();
    expect(own.map((a) => a.id).sort()).toEqual(ids);
    const [harbourApp] = await t.db.select().from(miniPrograms).where(and(eq(miniPrograms.sysid, harbour)));
    expect((await call("svc", "miniappinfo", { id: harbourApp.id })).return_msg).toBe(en.api.not_found);
    expect((await call("svc", "miniappcommit", { id: harbourApp.id, user_version: "9.9.9" })).return_code).toBe("FAIL");
    expect(await appOf(harbourApp.id)).toMatchObject({ exp_version: harbourApp.exp_version });
    expect((await call("harbour", "miniapplist")).return_code).toBe("FAIL");
    const all = (await ok("sysadmin", "miniapplist", { platform: "wechat", limit: 100 })).data?.items as Row[];
    expect(all.some((a) => a.sysid === harbour)).toBe(true);
    // the sandbox's next answers are never read
    expect(Object.keys(all[0])).not.toContain("sandbox_error");
  });
});
