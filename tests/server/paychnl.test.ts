/**
 * The fee domain's ground, on both databases: a payment channel's whole life (added as a draft with its material,
 * edited only while draft or rejected, submitted, rejected with a reason, submitted again, approved with its
 * sub-merchant, disabled, enabled), who may take each step, what each refuses (another provider's channel, a wrong
 * state, a review missing its sub-merchant or its reason), the bank account masked in lists and exports, a school
 * bound only to an approved channel of its own provider and read back in one lookup, the rule between a fee
 * project's amounts, the collection settings, and the demo data the other tests rely on.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paymentChannels, providers, schools } from "../../server/db/schema";
import { schoolChannel } from "../../server/domains/fees/channels";
import { collectionSettings } from "../../server/domains/fees/settings";
import { translator } from "../../server/lib/i18n";
import { describeOnEmbedded } from "../helpers/db";
import { sheetRows } from "./registryCases";
import { createTestApp, idByTitle, type TestApp } from "./support";

type Row = Record<string, unknown>;
const EN = { "accept-language": "en" };
const en = translator("en");

const MATERIAL = {
  subject: "Sunrise Campus Services Co., Ltd.",
  licence_no: "91310000MA1FL8XQ30",
  legal_person: "Li Wei",
  contact_name: "Zhou Min",
  contact_phone: "13800138000",
  bank_name: "Bank of Shanghai",
  bank_account: "6222020200112233445",
};

describeOnEmbedded("payment channels, school channels and fee projects", (kind) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  let sunrise: number;
  let oldTown: number;
  let no1: number;
  let no2: number;
  let oldTownMiddle: number;

  const call = (user: string, method: string, payload: Row = {}) => t.call("adminapiv2", method, payload, { token: tokens[user], headers: EN });
  const item = (res: { data?: Row }) => (res.data?.items ?? {}) as Row;
  const items = (res: { data?: Row }) => (res.data?.items ?? []) as Row[];
  const fieldOf = (res: { data?: Row }) => ((res.data?.errors ?? []) as { field: string }[])[0]?.field;
  const stored = async (id: number) => (await t.db.select().from(paymentChannels).where(eq(paymentChannels.id, id)))[0] as Row;

  let drafts = 0;
  /** svc's new draft channel (WeChat Pay unless told), with its whole material unless told otherwise */
  async function draft(title: string, extra: Row = {}): Promise<number> {
    const res = await call("svc", "paychnladd", { title, ...MATERIAL, bank_account: `62220202001122${String(++drafts).padStart(5, "0")}`, ...extra });
    expect(res.return_code, res.return_msg).toBe("SUCCESS");
    expect(item(res).status).toBe("draft");
    return Number(item(res).id);
  }

  beforeAll(async () => {
    t = await createTestApp(kind);
    for (const u of ["sysadmin", "sysop", "sysv1", "svc", "staff", "school", "harbour", "svcv1", "schoolv1"]) tokens[u] = await t.login(u);
    sunrise = await idByTitle(t.db, providers, "Sunrise Campus Services");
    oldTown = await idByTitle(t.db, providers, "Old Town Education");
    no1 = await idByTitle(t.db, schools, "Sunrise No.1 Primary School");
    no2 = await idByTitle(t.db, schools, "Sunrise No.2 Primary School");
    oldTownMiddle = await idByTitle(t.db, schools, "Old Town Middle School");
  });
  afterAll(async () => {
    await t?.close();
  });

  describe("the demo data", () => {
    it("gives every provider an approved sandbox channel that each of its schools takes payments through", async () => {
      const all = await t.db.select({ id: schools.id, sysid: schools.sysid }).from(schools);
      expect(all.length).toBeGreaterThan(5);
      for (const school of all) {
        const channel = await schoolChannel(t.db, school.id);
        expect(channel, `school ${school.id}`).toMatchObject({ gateway: "sandbox", sub_mchid: expect.stringMatching(/^99\d{8}$/) });
        const [row] = await t.db.select().from(paymentChannels).where(eq(paymentChannels.id, channel!.id));
        expect(row.sysid).toBe(school.sysid);
      }
    });

    it("has Sunrise's WeChat Pay channel awaiting review, and the paymode school's fee projects", async () => {
      const listed = items(await call("sysop", "paychnllist", { status: "submitted" }));
      expect(listed.map((c) => [c.title, c.sysid])).toContainEqual(["Sunrise WeChat Pay", sunrise]);
      const projects = items(await call("schoolv1", "projectlist"));
      expect(projects.map((p) => p.title)).toEqual(expect.arrayContaining(["Tuition", "Class fund donation"]));
      expect(items(await call("svcv1", "serviceprojectlist")).length).toBeGreaterThan(0);
    });
  });

  describe("a channel's life", () => {
    it("goes from draft to approved through every action, each by its own roles, and back and forth", async () => {
      const id = await draft("Sunrise second merchant");
      // edited while a draft
      expect((await call("svc", "paychnledit", { id, contact_name: "Qian Li" })).return_code).toBe("SUCCESS");

      // only the provider submits; only an operator reviews
      expect((await call("sysop", "paychnlsubmit", { id })).return_msg).toBe(en("api.no_permission"));
      expect((await call("staff", "paychnlsubmit", { id })).return_msg).toBe(en("api.no_permission"));
      const submitted = await call("svc", "paychnlsubmit", { id });
      expect(submitted.return_code, submitted.return_msg).toBe("SUCCESS");
      expect(item(submitted).status).toBe("submitted");

      // no longer editable, nor submitted twice
      const edit = await call("svc", "paychnledit", { id, title: "Renamed" });
      expect(edit.return_code).toBe("FAIL");
      expect(edit.return_msg).toBe(en("api.wrong_state", { action: en("crud.edit"), state: en("fees.channel_status.submitted") }));
      expect((await stored(id)).title).toBe("Sunrise second merchant");
      expect((await call("svc", "paychnlsubmit", { id })).return_msg).toMatch(/is not possible: the record is Awaiting review/);

      expect((await call("svc", "paychnlreview", { id, result: "reject", reason: "x" })).return_msg).toBe(en("api.no_permission"));
      // a rejection says why: the reason is asked for by name
      const noReason = await call("sysop", "paychnlreview", { id, result: "reject" });
      expect(noReason.return_code).toBe("FAIL");
      expect(fieldOf(noReason)).toBe("reason");
      expect(noReason.return_msg).toBe(en("api.validation.required", { label: en("fees.field.reject_reason") }));
      const rejected = await call("sysop", "paychnlreview", { id, result: "reject", reason: "The licence photo is unreadable" });
      expect(rejected.return_code, rejected.return_msg).toBe("SUCCESS");
      expect(item(await call("svc", "paychnlinfo", { id }))).toMatchObject({ status: "rejected", reject_reason: "The licence photo is unreadable" });

      // corrected and submitted again: the old reason goes
      expect((await call("svc", "paychnledit", { id, licence_no: "91310000MA1FL8XQ31" })).return_code).toBe("SUCCESS");
      expect(item(await call("svc", "paychnlsubmit", { id }))).toMatchObject({ status: "submitted", reject_reason: null });

      // an approval names the sub-merchant WeChat Pay gave
      const noSub = await call("sysop", "paychnlreview", { id, result: "approve" });
      expect(noSub.return_code).toBe("FAIL");
      expect(fieldOf(noSub)).toBe("sub_mchid");
      expect(noSub.return_msg).toContain(en("fees.field.sub_mchid"));
      expect(fieldOf(await call("sysop", "paychnlreview", { id, result: "approve", sub_mchid: "12ab" }))).toBe("sub_mchid");
      const approved = await call("sysop", "paychnlreview", { id, result: "approve", sub_mchid: "1900012345" });
      expect(approved.return_code, approved.return_msg).toBe("SUCCESS");
      expect(item(approved)).toMatchObject({ status: "approved", sub_mchid: "1900012345", reject_reason: null });
      expect((await call("svc", "paychnledit", { id, title: "Renamed" })).return_code).toBe("FAIL");

      // disabled by its provider, enabled by an operator
      expect(item(await call("svc", "paychnldisable", { id })).status).toBe("disabled");
      expect((await call("svc", "paychnldisable", { id })).return_msg).toMatch(/is not possible: the record is Disabled/);
      // a provider cannot undo a disabling: only an operator enables a channel again
      expect((await call("svc", "paychnlenable", { id })).return_msg).toBe(en("api.no_permission"));
      expect(item(await call("sysop", "paychnlenable", { id })).status).toBe("approved");
      // a v1 operator reviews as well
      expect((await call("sysv1", "paychnlenable", { id })).return_msg).toMatch(/is not possible: the record is Approved/);
    });

    it("is submitted only with its whole material, the first missing part named", async () => {
      const id = await draft("Sunrise incomplete", { subject: "", legal_person: "" });
      const res = await call("svc", "paychnlsubmit", { id });
      expect(res.return_code).toBe("FAIL");
      expect(fieldOf(res)).toBe("subject");
      expect(res.return_msg).toBe(en("fees.error.material_missing", { label: en("fees.field.subject") }));
      expect((await stored(id)).status).toBe("draft");
    });

    it("gives a sandbox channel a made-up sub-merchant, and one sub-merchant to one channel only", async () => {
      const sandbox = await draft("Sunrise test channel", { gateway: "sandbox" });
      await call("svc", "paychnlsubmit", { id: sandbox });
      const approved = await call("sysadmin", "paychnlreview", { id: sandbox, result: "approve" });
      expect(approved.return_code, approved.return_msg).toBe("SUCCESS");
      expect(item(approved).sub_mchid).toMatch(/^99\d{8}$/);

      const other = await draft("Sunrise third merchant");
      await call("svc", "paychnlsubmit", { id: other });
      const taken = await call("sysop", "paychnlreview", { id: other, result: "approve", sub_mchid: String(item(approved).sub_mchid) });
      expect(taken.return_code).toBe("FAIL");
      expect(fieldOf(taken)).toBe("sub_mchid");
      expect((await stored(other)).status).toBe("submitted");
    });

    it("lets an operator switched into a provider review its channels, and keeps every other provider's to itself", async () => {
      const id = await draft("Sunrise fourth merchant");
      await call("svc", "paychnlsubmit", { id });
      // another provider's channel is missing, whatever is asked of it
      for (const method of ["paychnlinfo", "paychnledit", "paychnlsubmit", "paychnldisable"]) {
        const res = await call("svcv1", method, { id, title: "Mine now" });
        expect(res, method).toEqual({ return_code: "FAIL", return_msg: en("api.not_found") });
      }
      expect(items(await call("svcv1", "paychnllist")).every((c) => c.sysid === oldTown)).toBe(true);
      // an operator acting in another provider does not reach it either
      expect((await call("sysop", "paychnlreview", { id, sysid: oldTown, result: "reject", reason: "x" })).return_msg).toBe(en("api.not_found"));
      const reviewed = await call("sysop", "paychnlreview", { id, sysid: sunrise, result: "reject", reason: "Bank account holder differs" });
      expect(reviewed.return_code, reviewed.return_msg).toBe("SUCCESS");
      // an expired provider reads, but writes nothing
      expect((await call("harbour", "paychnllist")).return_code).toBe("SUCCESS");
      expect((await call("harbour", "paychnladd", { title: "Harbour new" })).return_msg).toBe(en("api.term_expired"));
      // schools and staff have no channel pages
      for (const user of ["school", "staff", "schoolv1"]) expect((await call(user, "paychnllist")).return_msg, user).toBe(en("api.no_permission"));
    });

    it("shows the settlement account masked in lists and exports, whole only in the record", async () => {
      const id = await draft("Sunrise masked", { bank_account: "6222020200998877665" });
      const row = items(await call("svc", "paychnllist", { title: "Sunrise masked" }))[0];
      expect(row.bank_account).toBe("6222 **** **** 7665");
      expect(item(await call("svc", "paychnlinfo", { id })).bank_account).toBe("6222020200998877665");
      const exported = item(await t.exportFile("adminapiv2", "paychnlexport", { title: "Sunrise masked" }, { token: tokens.svc, headers: EN }));
      const rows = await sheetRows(String(exported.content_base64));
      expect(rows.flat()).toContain("6222 **** **** 7665");
      expect(JSON.stringify(rows)).not.toContain("6222020200998877665");
    });
  });

  describe("a school's channel", () => {
    it("binds only an approved channel of the school's own provider, and is read back in one lookup", async () => {
      const id = await draft("Sunrise live merchant");
      await call("svc", "paychnlsubmit", { id });

      // not approved yet: refused, naming the channel
      const early = await call("svc", "schoolpaychnlset", { sch_id: no2, paychnl_id: id });
      expect(early.return_code).toBe("FAIL");
      expect(fieldOf(early)).toBe("paychnl_id");
      expect(early.return_msg).toContain(en("fees.channel_status.submitted"));

      await call("sysop", "paychnlreview", { id, result: "approve", sub_mchid: "1900054321" });
      const bound = await call("svc", "schoolpaychnlset", { sch_id: no2, paychnl_id: id });
      expect(bound.return_code, bound.return_msg).toBe("SUCCESS");
      expect(item(bound)).toMatchObject({ sch_id: no2, paychnl_id: id, paychnl_title: "Sunrise live merchant" });
      expect(await schoolChannel(t.db, no2)).toEqual({ id, gateway: "wechatpay", sub_mchid: "1900054321" });
      // the others keep theirs
      expect((await schoolChannel(t.db, no1))?.gateway).toBe("sandbox");
      const listed = items(await call("svc", "schoolpaychnllist", { sch_id: no2 }));
      expect(listed).toHaveLength(1);
      expect(listed[0]).toMatchObject({ sch_id: no2, paychnl_id: id, paychnl_title: "Sunrise live merchant" });

      // another provider's approved channel is not this school's to use
      const [oldTownChannel] = await t.db.select().from(paymentChannels).where(eq(paymentChannels.sysid, oldTown));
      const foreign = await call("svc", "schoolpaychnlset", { sch_id: no2, paychnl_id: oldTownChannel.id });
      expect(fieldOf(foreign)).toBe("paychnl_id");
      expect(foreign.return_msg).toBe(en("fees.error.channel_not_own", { label: en("fees.field.paychnl") }));
      // nor another provider's school
      expect((await call("svc", "schoolpaychnlset", { sch_id: oldTownMiddle, paychnl_id: id })).return_msg).toBe(en("api.not_found"));
      expect((await call("staff", "schoolpaychnlset", { sch_id: no1, paychnl_id: id })).return_msg).toBe(en("api.no_permission"));
      expect((await call("school", "schoolpaychnllist")).return_msg).toBe(en("api.no_permission"));

      // a disabled channel takes no payments: the school has none until it is enabled again
      await call("svc", "paychnldisable", { id });
      expect(await schoolChannel(t.db, no2)).toBeNull();
      expect(fieldOf(await call("svc", "schoolpaychnlset", { sch_id: no1, paychnl_id: id }))).toBe("paychnl_id");
      await call("sysop", "paychnlenable", { id });
      expect((await schoolChannel(t.db, no2))?.id).toBe(id);
      expect(await schoolChannel(t.db, 2_000_000_000)).toBeNull();
    });
  });

  describe("fee projects", () => {
    it("asks a fixed project its amount, an open one its bounds in order, and keeps only the amounts of its mode", async () => {
      const missingAmount = await call("schoolv1", "projectadd", { sch_id: oldTownMiddle, title: "Lab fee", amount_mode: "fixed" });
      expect(missingAmount.return_code).toBe("FAIL");
      expect(fieldOf(missingAmount)).toBe("amount");
      const missingMin = await call("schoolv1", "projectadd", { sch_id: oldTownMiddle, title: "Trip", amount_mode: "open", max_amount: "80.00" });
      expect(fieldOf(missingMin)).toBe("min_amount");
      const reversed = await call("schoolv1", "projectadd", { sch_id: oldTownMiddle, title: "Trip", amount_mode: "open", min_amount: "90.00", max_amount: "80.00" });
      expect(fieldOf(reversed)).toBe("max_amount");
      expect(reversed.return_msg).toBe(en("fees.validation.max_below_min"));

      const open = await call("schoolv1", "projectadd", { sch_id: oldTownMiddle, title: "Trip", amount_mode: "open", amount: "5.00", min_amount: "20.00", max_amount: "80.00" });
      expect(open.return_code, open.return_msg).toBe("SUCCESS");
      // an open project has no fixed amount
      expect(item(open)).toMatchObject({ amount: null, min_amount: "20.00", max_amount: "80.00", required: "Y", status: "1" });
      const id = Number(item(open).id);
      expect(fieldOf(await call("schoolv1", "projectedit", { id, max_amount: "10.00" }))).toBe("max_amount");
      expect(fieldOf(await call("schoolv1", "projectedit", { id, amount_mode: "fixed" }))).toBe("amount");
      expect((await call("schoolv1", "projectedit", { id, amount_mode: "fixed", amount: "60.00" })).return_code).toBe("SUCCESS");
      expect(item(await call("schoolv1", "projectinfo", { id }))).toMatchObject({ amount_mode: "fixed", amount: "60.00", min_amount: null, max_amount: null });

      // the provider's own projects follow the same rule
      expect(fieldOf(await call("svcv1", "serviceprojectadd", { title: "Bus", amount_mode: "open", min_amount: "9.00", max_amount: "1.00" }))).toBe("max_amount");
      expect((await call("svcv1", "serviceprojectadd", { title: "Bus", amount_mode: "fixed", amount: "300.00" })).return_code).toBe("SUCCESS");
      // each keeps to its pages' roles and tenants
      expect((await call("svcv1", "projectlist")).return_msg).toBe(en("api.no_permission"));
      expect((await call("svc", "serviceprojectlist")).return_msg).toBe(en("api.no_permission"));
      expect((await call("school", "projectlist")).return_msg).toBe(en("api.no_permission"));
    });
  });

  describe("collection settings", () => {
    it("give their defaults until saved, keep to their bounds, and are read by other code per provider", async () => {
      expect(await collectionSettings(t.db, sunrise)).toEqual({ orderTimeoutMinutes: 120, payerLookup: "name_and_student_no", voucherTitle: "" });
      expect(item(await call("svc", "agentnoticesetinfo"))).toMatchObject({ order_timeout_minutes: 120, payer_lookup: "name_and_student_no" });
      expect(fieldOf(await call("svc", "agentnoticesetedit", { order_timeout_minutes: 3 }))).toBe("order_timeout_minutes");
      expect(fieldOf(await call("svc", "agentnoticesetedit", { order_timeout_minutes: 1441 }))).toBe("order_timeout_minutes");
      const saved = await call("svc", "agentnoticesetedit", { order_timeout_minutes: 30, payer_lookup: "name_and_phone4", voucher_title: "Sunrise fee receipt" });
      expect(saved.return_code, saved.return_msg).toBe("SUCCESS");
      expect(await collectionSettings(t.db, sunrise)).toEqual({ orderTimeoutMinutes: 30, payerLookup: "name_and_phone4", voucherTitle: "Sunrise fee receipt" });
      expect((await collectionSettings(t.db, oldTown)).orderTimeoutMinutes).toBe(120);
      expect((await call("sysop", "agentnoticesetinfo")).return_msg).toBe(en("api.no_permission"));
    });
  });
});
