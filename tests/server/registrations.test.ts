/**
 * Providers who sign up: an application on the public operations (registerapply, registerstatus), refused naming
 * the field when incomplete or a duplicate, throttled per address; an operator's decision (registerreview):
 * rejected with a reason the applicant reads, or approved in one transaction making the provider with its version
 * and term and its first administrator, whose password the applicant sets once through its one-time link and then
 * signs in with. Every decision audited.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { auditLog, providers, users } from "../../server/db/schema";
import { describeOnEmbedded } from "../helpers/db";
import { en } from "../helpers/locales";
import { createTestApp, type TestApp } from "./support";

type Row = Record<string, unknown>;
const EN = { "accept-language": "en" };
const LICENCE = "https://cdn.example.com/licence.png";
const HOUR_MS = 3_600_000;

describeOnEmbedded("provider registration", (kind) => {
  let t: TestApp;
  let sysadmin: string;
  let applicant = 0;
  /** each test's applications come from an address of their own, as separate applicants' do */
  const publicCall = (method: string, payload: Row, ip = "203.0.113.1") => t.call("adminapiv2", method, payload, { headers: EN, remoteAddress: ip });
  const call = (method: string, payload: Row = {}, token = sysadmin) => t.call("adminapiv2", method, payload, { token, headers: EN });
  const application = (overrides: Row = {}) => {
    applicant++;
    return { org: `晨光教育科技有限公司 ${applicant}`, contact: "周敏", mobile: `1391234${String(applicant).padStart(4, "0")}`, email: `zhou${applicant}@example.com`, region: "32", licence_images: [LICENCE], message: "希望为南京的学校提供收费服务", ...overrides };
  };
  const fieldsOf = (res: { data?: unknown }) => ((res.data as { errors?: { field: string }[] } | undefined)?.errors ?? []).map((e) => e.field);
  const apply = async (payload: Row, ip?: string) => {
    const res = await publicCall("registerapply", payload, ip);
    expect(res.return_code, res.return_msg).toBe("SUCCESS");
    return String((res.data?.items as Row).follow_token);
  };
  const idOf = async (org: unknown) => {
    const list = await call("registrationlist", { org, limit: 5 });
    return Number((list.data?.items as Row[])[0].id);
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    sysadmin = await t.login("sysadmin");
  });
  afterAll(async () => {
    await t?.close();
  });

  it("takes an application, which its applicant follows and the operators find waiting", async () => {
    const payload = application();
    const token = await apply(payload);
    const status = await publicCall("registerstatus", { token });
    expect(status.data?.items).toMatchObject({ org: payload.org, status: "pending", reject_reason: null, password_token: null });
    const listed = await call("registrationlist", { status: "pending" });
    const row = (listed.data?.items as Row[]).find((r) => r.org === payload.org)!;
    expect(row).toMatchObject({ contact: "周敏", mobile: payload.mobile, region: "32", status: "pending" });
    // the links are never answered
    expect(Object.keys(row)).not.toContain("follow_hash");
    expect(Object.keys(row)).not.toContain("password_hash");
    const waiting = (await call("waitingcounts")).data?.items as { key: string; count: number }[];
    expect(waiting.find((w) => w.key === "registrations")?.count).toBeGreaterThan(0);
    expect((await publicCall("registerstatus", { token: "x".repeat(43) })).return_msg).toBe(en.register.errors.unknown_link);
  });

  it("refuses an incomplete application or a duplicate, naming the field", async () => {
    const first = application();
    await apply(first, "203.0.113.2");
    const cases: { payload: Row; field: string; message?: string }[] = [
      { payload: application({ licence_images: [] }), field: "licence_images" },
      { payload: application({ email: "not-an-address" }), field: "email" },
      { payload: application({ region: "99" }), field: "region" },
      { payload: application({ mobile: "12345" }), field: "mobile" },
      { payload: application({ org: "" }), field: "org" },
      { payload: application({ mobile: first.mobile }), field: "mobile", message: en.register.errors.mobile_applied },
      { payload: application({ org: String(first.org).toUpperCase() }), field: "org", message: en.register.errors.org_applied },
      { payload: application({ org: "Sunrise Campus Services" }), field: "org", message: en.register.errors.org_is_provider },
    ];
    for (const { payload, field, message } of cases) {
      const res = await publicCall("registerapply", payload, "203.0.113.2");
      expect(res.return_code, field).toBe("FAIL");
      expect(fieldsOf(res), field).toContain(field);
      if (message) expect(res.return_msg).toBe(message);
    }
  });

  it("takes five applications an hour from one address, refused ones not counted", async () => {
    const ip = "198.51.100.7";
    for (let i = 0; i < 5; i++) await apply(application(), ip);
    const sixth = await publicCall("registerapply", application(), ip);
    expect(sixth.return_code).toBe("FAIL");
    expect(sixth.return_msg).toBe(en.register.throttled.replace("{{minutes}}", "60"));
    // another address is not held back
    await apply(application(), "198.51.100.8");
  });

  it("rejects with a reason the applicant reads, after which the same mobile may apply again", async () => {
    const payload = application();
    const token = await apply(payload, "203.0.113.3");
    const id = await idOf(payload.org);
    const noReason = await call("registerreview", { id, result: "reject" });
    expect(noReason.return_code).toBe("FAIL");
    expect(fieldsOf(noReason)).toContain("reason");
    expect((await call("registerreview", { id, result: "reject", reason: "营业执照不清晰，请重新上传" })).return_code).toBe("SUCCESS");
    expect((await publicCall("registerstatus", { token })).data?.items).toMatchObject({ status: "rejected", reject_reason: "营业执照不清晰，请重新上传", password_token: null });
    // decided once
    expect((await call("registerreview", { id, result: "approve", servicer_ver: "v2", end_time: "2027-03-01", username: "chenguang" })).return_code).toBe("FAIL");
    await apply({ ...payload, org: `${String(payload.org)} 重新申请` }, "203.0.113.3");
  });

  it("approves in one transaction: the provider with its version and term, its administrator, whose password the applicant sets once", async () => {
    const payload = application();
    const token = await apply(payload, "203.0.113.4");
    const id = await idOf(payload.org);
    const missing = await call("registerreview", { id, result: "approve", servicer_ver: "v2", end_time: "2027-03-01" });
    expect(fieldsOf(missing)).toContain("username");
    const taken = await call("registerreview", { id, result: "approve", servicer_ver: "v2", end_time: "2027-03-01", username: "SVC" });
    expect(fieldsOf(taken)).toContain("username");
    // nothing of a refused approval stays
    expect(await t.db.select().from(providers).where(eq(providers.title, String(payload.org)))).toEqual([]);

    const approved = await call("registerreview", { id, result: "approve", servicer_ver: "v1", end_time: "2027-03-01", username: "chenguang" });
    expect(approved.return_code, approved.return_msg).toBe("SUCCESS");
    const [provider] = await t.db.select().from(providers).where(eq(providers.title, String(payload.org)));
    expect(provider).toMatchObject({ contact: "周敏", phone: payload.mobile, servicer_ver: "v1", end_time: "2027-03-01", status: "1" });
    const [admin] = await t.db.select().from(users).where(eq(users.username, "chenguang"));
    expect(admin).toMatchObject({ userType: "service", sysid: provider.id });
    expect((await call("registrationinfo", { id })).data?.items).toMatchObject({ status: "approved", provider_id: provider.id, username: "chenguang", reviewed_by: "sysadmin" });

    // no password anyone knows until the applicant sets one
    const before = await t.call("adminapi", "login", { username: "chenguang", password: "demo1234" }, { headers: EN });
    expect(before.return_code).toBe("FAIL");
    const status = (await publicCall("registerstatus", { token })).data?.items as Row;
    expect(status).toMatchObject({ status: "approved", username: "chenguang", password_set: false });
    const link = String(status.password_token);
    const mismatch = await publicCall("registerpassword", { token: link, password: "secret123", password2: "secret124" });
    expect(fieldsOf(mismatch)).toContain("password2");
    const short = await publicCall("registerpassword", { token: link, password: "12345", password2: "12345" });
    expect(fieldsOf(short)).toContain("password");
    const set = await publicCall("registerpassword", { token: link, password: "secret123", password2: "secret123" });
    expect(set.return_code, set.return_msg).toBe("SUCCESS");
    expect((await t.call("adminapi", "login", { username: "chenguang", password: "secret123" }, { headers: EN })).return_code).toBe("SUCCESS");
    // once
    const again = await publicCall("registerpassword", { token: link, password: "other123", password2: "other123" });
    expect(again.return_msg).toBe(en.register.errors.password_link);
    expect((await publicCall("registerstatus", { token })).data?.items).toMatchObject({ password_set: true, password_token: null });

    // every decision is in the audit log
    const decisions = await t.db.select().from(auditLog).where(eq(auditLog.action, "registerreview"));
    expect(decisions.some((d) => d.entityId === String(id) && d.username === "sysadmin")).toBe(true);
  });

  it("lets a link to set the password expire after a day, and a newer one replace it", async () => {
    const payload = application();
    const token = await apply(payload, "203.0.113.5");
    const id = await idOf(payload.org);
    expect((await call("registerreview", { id, result: "approve", servicer_ver: "v2", end_time: "2027-03-01", username: `applicant${applicant}` })).return_code).toBe("SUCCESS");
    const first = String(((await publicCall("registerstatus", { token })).data?.items as Row).password_token);
    const second = String(((await publicCall("registerstatus", { token })).data?.items as Row).password_token);
    expect((await publicCall("registerpassword", { token: first, password: "secret123", password2: "secret123" })).return_msg).toBe(en.register.errors.password_link);
    t.clock.advance(25 * HOUR_MS);
    expect((await publicCall("registerpassword", { token: second, password: "secret123", password2: "secret123" })).return_msg).toBe(en.register.errors.password_link);
  });

  it("keeps the applications to the operators", async () => {
    for (const user of ["svc", "school"]) {
      const token = await t.login(user);
      for (const method of ["registrationlist", "registerreview"]) {
        const res = await call(method, { id: 1, result: "reject", reason: "x" }, token);
        expect(res.return_msg, `${user} ${method}`).toBe(en.api.no_permission);
      }
    }
  });
});
