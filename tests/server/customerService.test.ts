/**
 * The shop's customer service on enterprise WeChat (qwkfset, qwkflist; issue 34 item 12), tried as a provider and a
 * parent meet it: the payer page's "contact us" opens the chosen account's link while contact is on and the account
 * in use; the corp secret, a settings page's password field, is stored encrypted under its own purpose, never
 * answered, kept when sent empty or left out; reading the accounts from enterprise WeChat (qwkfsync, against a
 * stand-in speaking its protocol) adds the accounts not listed with their chat link, updates the names and avatars
 * of those listed, pages through more than a hundred, leaves an account entered by hand and another provider's
 * accounts alone; enterprise WeChat's refusals name the setting at fault in zh, en and es, and change nothing.
 */
import { randomBytes } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { customerServiceSettingsDecl } from "../../catalogue/customerService";
import { auditLog, providers, qwKfAccounts, settingsRecords } from "../../server/db/schema";
import { WorkWechatClient, WorkWechatError } from "../../server/domains/retail/workWechat";
import { readSettingsSecret } from "../../server/engine/settings";
import { translator } from "../../server/lib/i18n";
import { PaymentSecrets, SecretDecryptionError } from "../../server/payments/secrets";
import { describeOnEmbedded } from "../helpers/db";
import { FakeWorkWechat, type FakeKfAccount } from "../helpers/fakeWorkWechat";
import { h5, itemsOf, payerWorld, type PayerWorld, type Row } from "./payerSupport";
import { createTestApp, idByTitle, UNREACHABLE_ORIGIN, type TestApp } from "./support";

const PAYMENT_KEY = randomBytes(32).toString("base64");
/** Sunrise's corp, as the demo's qwkfset names it, and its customer-service secret (43 characters, as enterprise WeChat's) */
const CORP_ID = "ww6a1d2b3c4e5f6071";
const SECRET = "Qm9vNkN1c3RvbWVyU2VydmljZVNlY3JldDAxMjM0NTY";
const SEEDED_LINK = "https://work.weixin.qq.com/kfid/kfc8a1b2c3d4e5f6a7b";
const AVATAR = (n: number) => `https://wework.qpic.cn/wwhead/duc2TvpEgSSjibPZlNR6chpx${n}/0`;

describeOnEmbedded("the shop's customer service on enterprise WeChat", (kind) => {
  let t: TestApp;
  let wechat: FakeWorkWechat;
  let world: PayerWorld;
  let sunrise: number;
  let harbour: number;
  const tokens: Record<string, string> = {};
  const call = (method: string, payload: Row = {}, language = "en", user = "svc") => t.call("adminapiv2", method, payload, { token: tokens[user], headers: { "accept-language": language } });
  const accountsOf = (sysid: number) => t.db.select().from(qwKfAccounts).where(eq(qwKfAccounts.sysid, sysid)).orderBy(asc(qwKfAccounts.id));
  const storedRecord = async (sysid: number) =>
    (await t.db.select().from(settingsRecords).where(and(eq(settingsRecords.name, "qwkfset"), eq(settingsRecords.tenantId, sysid))))[0]?.fields as Row | undefined;
  const contact = async () => (itemsOf(await h5(t, "h5goodslist", { code: world.code })).shop as Row).contact;
  /** enterprise WeChat's two accounts of the demo's, and `more` new ones */
  const corpAccounts = (more: number): FakeKfAccount[] => [
    { open_kfid: "wkSunriseUniform01", name: "校服客服", avatar: AVATAR(1) },
    { open_kfid: "wkSunriseAfterSale02", name: "售后服务中心", avatar: AVATAR(2) },
    ...Array.from({ length: more }, (_, i) => ({ open_kfid: `wkNewAccount${String(i).padStart(4, "0")}`, name: `客服${i + 1}`, avatar: AVATAR(100 + i) })),
  ];

  beforeAll(async () => {
    wechat = await FakeWorkWechat.start();
    t = await createTestApp(kind, { paymentKey: { key: PAYMENT_KEY }, workWechatOrigin: wechat.url });
    for (const user of ["svc", "harbour"]) tokens[user] = await t.login(user);
    world = await payerWorld(t, tokens.svc);
    sunrise = await idByTitle(t.db, providers, "Sunrise Campus Services");
    harbour = await idByTitle(t.db, providers, "Harbour Education Services");
  });
  afterAll(async () => {
    await t?.close();
    await wechat?.close();
  });

  it("opens the chosen account's link from the payer page while contact is on and the account in use", async () => {
    expect(await contact()).toEqual({ name: "校服客服", url: SEEDED_LINK });
    const [chosen, other] = await accountsOf(sunrise);

    expect((await call("qwkfsetedit", { contact_enabled: "N" })).return_code).toBe("SUCCESS");
    expect(await contact()).toBeNull();
    expect((await call("qwkfsetedit", { contact_enabled: "Y", contact_kf_id: other.id })).return_code).toBe("SUCCESS");
    expect(await contact()).toEqual({ name: "售后客服", url: other.url });

    // an account switched off is not offered; nor is one of another provider
    expect((await call("qwkfedit", { id: other.id, status: "0" })).return_code).toBe("SUCCESS");
    expect(await contact()).toBeNull();
    expect((await call("qwkfedit", { id: other.id, status: "1" })).return_code).toBe("SUCCESS");
    const [foreign] = await accountsOf(harbour);
    const refused = await call("qwkfsetedit", { contact_kf_id: foreign.id });
    expect(refused.return_code).toBe("FAIL");
    expect(refused.data?.errors).toEqual([{ field: "contact_kf_id", message: expect.any(String) }]);

    expect((await call("qwkfsetedit", { contact_kf_id: chosen.id })).return_code).toBe("SUCCESS");
    expect(await contact()).toEqual({ name: "校服客服", url: SEEDED_LINK });
  });

  it("refuses to read the accounts until the corp id and secret are saved, naming the one missing", async () => {
    const before = await accountsOf(sunrise);
    const noSecret = await call("qwkfsync");
    expect(noSecret.return_code).toBe("FAIL");
    expect(noSecret.return_msg).toBe("Save the customer service secret in the customer service settings first.");
    expect(noSecret.data?.errors).toEqual([{ field: "corp_secret", message: noSecret.return_msg }]);

    expect((await call("qwkfsetedit", { corp_id: "" })).return_code).toBe("SUCCESS");
    const noCorp = await call("qwkfsync", {}, "zh");
    expect(noCorp.return_msg).toBe("请先在“企业微信客服设置”中填写企业 ID。");
    expect(noCorp.data?.errors).toEqual([{ field: "corp_id", message: noCorp.return_msg }]);
    expect((await call("qwkfsetedit", { corp_id: CORP_ID })).return_code).toBe("SUCCESS");

    expect(wechat.calls).toEqual([]);
    expect(await accountsOf(sunrise)).toEqual(before);
  });

  it("stores the corp secret encrypted, never answers it, and keeps it when sent empty or left out", async () => {
    const info = itemsOf(await call("qwkfsetinfo"));
    expect(info).toEqual({ contact_enabled: "Y", contact_kf_id: expect.any(Number), corp_id: CORP_ID, has_corp_secret: false });

    // a secret not in enterprise WeChat's form is refused naming the field, in the browser's words too
    const malformed = await call("qwkfsetedit", { corp_secret: "not a secret" });
    expect(malformed.data?.errors).toEqual([{ field: "corp_secret", message: "The secret is 20 to 64 letters, digits, - or _ (Enterprise WeChat admin console: WeChat Customer Service → API)" }]);
    expect((await storedRecord(sunrise))?.corp_secret).toBeUndefined();

    const saved = await call("qwkfsetedit", { corp_id: CORP_ID, corp_secret: SECRET });
    expect(saved.return_code, saved.return_msg).toBe("SUCCESS");
    expect(saved.data?.items).toEqual({ ...info, has_corp_secret: true });
    expect(JSON.stringify(saved)).not.toContain(SECRET);
    expect(JSON.stringify(await call("qwkfsetinfo"))).not.toContain(SECRET);
    expect(itemsOf(await call("qwkfsetinfo")).has_corp_secret).toBe(true);

    const stored = String((await storedRecord(sunrise))?.corp_secret);
    expect(stored).toMatch(/^v1:/);
    expect(stored).not.toContain(SECRET);
    const secrets = new PaymentSecrets({ key: PAYMENT_KEY });
    expect(await readSettingsSecret(t.db, secrets, customerServiceSettingsDecl, sunrise, "corp_secret")).toBe(SECRET);
    // encrypted under its page, field and tenant: a copy in another provider's record does not decrypt
    await t.db.insert(settingsRecords).values({ name: "qwkfset", tenantId: harbour, fields: { corp_secret: stored } }).onConflictDoNothing();
    await expect(readSettingsSecret(t.db, secrets, customerServiceSettingsDecl, harbour, "corp_secret")).rejects.toBeInstanceOf(SecretDecryptionError);
    await t.db.delete(settingsRecords).where(and(eq(settingsRecords.name, "qwkfset"), eq(settingsRecords.tenantId, harbour)));

    // sent empty, sent null or left out: the stored one stays
    for (const payload of [{ corp_secret: "" }, { corp_secret: null }, { contact_enabled: "Y" }]) {
      const again = await call("qwkfsetedit", payload);
      expect(again.return_code, JSON.stringify(payload)).toBe("SUCCESS");
      expect(itemsOf(again).has_corp_secret).toBe(true);
      expect((await storedRecord(sunrise))?.corp_secret).toBe(stored);
    }
    // the audit says it changed, never what it is
    const audits = await t.db.select().from(auditLog).where(eq(auditLog.action, "qwkfsetedit"));
    expect(audits.some((a) => (a.detail as { fields?: string[] }).fields?.includes("corp_secret"))).toBe(true);
    expect(JSON.stringify(audits)).not.toContain(SECRET);
    // another provider's record is its own
    expect(itemsOf(await call("qwkfsetinfo", {}, "en", "harbour")).has_corp_secret).toBe(false);
  });

  it("adds the accounts not listed with their link, updates those listed, pages through them and leaves the others", async () => {
    wechat.setCorp(CORP_ID, { secret: SECRET, accounts: corpAccounts(100) });
    const byHand = await call("qwkfadd", { name: "前台", open_kfid: "wkEnteredByHand01", url: "https://work.weixin.qq.com/kf/kfcHandEntered?enc_scene=X", sort: 5, status: "1" });
    expect(byHand.return_code, byHand.return_msg).toBe("SUCCESS");
    const [handRow] = (await accountsOf(sunrise)).filter((a) => a.open_kfid === "wkEnteredByHand01");
    const harbourBefore = await accountsOf(harbour);
    const seeded = await accountsOf(sunrise);

    const synced = await call("qwkfsync");
    expect(synced.return_code, synced.return_msg).toBe("SUCCESS");
    expect(synced.data?.items).toEqual({ added: 100, updated: 2, unchanged: 0 });
    expect(synced.return_msg).toBe("Read: 100 added, 2 updated, 0 unchanged.");
    // one token, two pages (100 and 2), a link asked for each new account only, with the shop's scene
    expect(wechat.callsOf("gettoken")).toHaveLength(1);
    expect(wechat.callsOf("kf/account/list").map((c) => c.body)).toEqual([
      { offset: 0, limit: 100 },
      { offset: 100, limit: 100 },
    ]);
    const linked = wechat.callsOf("kf/add_contact_way").map((c) => c.body);
    expect(linked).toHaveLength(100);
    expect(linked.every((b) => String(b?.open_kfid).startsWith("wkNewAccount") && b?.scene === "campus_shop")).toBe(true);

    const after = await accountsOf(sunrise);
    const row = (kfid: string) => after.find((a) => a.open_kfid === kfid)!;
    // those listed: enterprise WeChat's name and avatar, their own link kept, stamped
    expect(row("wkSunriseUniform01")).toMatchObject({ name: "校服客服", avatar: AVATAR(1), url: SEEDED_LINK, synced_at: t.clock.now() });
    expect(row("wkSunriseAfterSale02")).toMatchObject({ name: "售后服务中心", avatar: AVATAR(2), url: seeded.find((a) => a.open_kfid === "wkSunriseAfterSale02")!.url });
    // the new ones: in use, their link, after the others
    const added = row("wkNewAccount0000");
    expect(added).toMatchObject({ name: "客服1", avatar: AVATAR(100), status: "1", synced_at: t.clock.now() });
    expect(added.url).toMatch(/^https:\/\/work\.weixin\.qq\.com\/kf\/kfc[0-9a-f]+\?enc_scene=ENC/);
    expect(added.sort).toBeGreaterThan(5);
    expect(after).toHaveLength(seeded.length + 100);
    // entered by hand, and another provider's: as they were
    expect(row("wkEnteredByHand01")).toEqual(handRow);
    expect(await accountsOf(harbour)).toEqual(harbourBefore);
    // the list shows them
    const listed = await call("qwkflist", { page: 1, limit: 100, open_kfid: "wkNewAccount0099" });
    expect((listed.data?.items as Row[]).map((a) => a.name)).toEqual(["客服100"]);

    // read again: nothing new, nothing changed, no link asked
    const again = await call("qwkfsync", {}, "es");
    expect(again.data?.items).toEqual({ added: 0, updated: 0, unchanged: 102 });
    expect(again.return_msg).toBe("Leído: 0 añadidas, 0 actualizadas, 102 sin cambios.");
    expect(wechat.callsOf("kf/add_contact_way")).toHaveLength(100);
  });

  it("names the setting enterprise WeChat refuses, in the caller's language, and changes nothing", async () => {
    const before = await accountsOf(sunrise);
    const refusedAs = async (errorKey: string, field: string | null, code: number) => {
      for (const language of ["zh", "en", "es"] as const) {
        const res = await call("qwkfsync", {}, language);
        const message = translator(language)(errorKey, { code });
        expect(res.return_code, `${errorKey} ${language}`).toBe("FAIL");
        expect(res.return_msg, `${errorKey} ${language}`).toBe(message);
        expect(res.data?.errors, `${errorKey} ${language}`).toEqual(field ? [{ field, message }] : undefined);
      }
    };

    wechat.setCorp(CORP_ID, { secret: "AnotherSecretOfTheCorp0123456789abcdefghij", accounts: corpAccounts(1) });
    await refusedAs("qwkf.sync.secret_refused", "corp_secret", 40001);
    expect(translator("zh")("qwkf.sync.secret_refused", { code: 40001 })).toContain("Secret");

    wechat.setCorp(CORP_ID, { secret: SECRET, kfAllowed: false, accounts: corpAccounts(1) });
    await refusedAs("qwkf.sync.secret_forbidden", "corp_secret", 48002);

    wechat.setCorp(CORP_ID, { secret: SECRET, accounts: corpAccounts(1) });
    expect((await call("qwkfsetedit", { corp_id: "wwUnknownCorp00001" })).return_code).toBe("SUCCESS");
    await refusedAs("qwkf.sync.corp_id_refused", "corp_id", 40013);
    expect((await call("qwkfsetedit", { corp_id: CORP_ID })).return_code).toBe("SUCCESS");

    // enterprise WeChat out of reach: said so, no fault
    wechat.down = true;
    const down = await call("qwkfsync");
    expect(down).toMatchObject({ return_code: "FAIL", return_msg: "Enterprise WeChat cannot be reached right now; nothing was changed. Try again later." });
    wechat.down = false;
    await expect(new WorkWechatClient(CORP_ID, SECRET, UNREACHABLE_ORIGIN).accessToken()).rejects.toMatchObject({ name: "WorkWechatError", kind: "network" });
    await expect(new WorkWechatClient(CORP_ID, SECRET, UNREACHABLE_ORIGIN).accessToken()).rejects.toBeInstanceOf(WorkWechatError);

    expect(await accountsOf(sunrise)).toEqual(before);
    // a provider whose term has expired reads nothing (a write)
    expect((await call("qwkfsync", {}, "en", "harbour")).return_code).toBe("FAIL");
  });
});
