/**
 * What waits for a decision (`waitingcounts`, the menu's badges and the home page's counts), on both databases: a
 * provider counts its own refund requests only, another provider's never; the platform's operators count the
 * channels submitted for review of every provider, or of the one they are switched into (with its refund requests,
 * whose decision they then may take); those who ask (a school, provider staff) are not asked. Each count moves
 * with the requests made and decided, and names the one waiting longest.
 */
import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WaitingCount } from "../../common/waiting";
import { feeOrders, refunds, paymentChannels, providers } from "../../server/db/schema";
import { translator } from "../../server/lib/i18n";
import { describeOnDatabases } from "../helpers/db";
import { createTestApp, idByTitle, type TestApp } from "./support";

type Row = Record<string, unknown>;
const EN = { "accept-language": "en" };
const en = translator("en");

describeOnDatabases("waiting counts", (kind) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  let sunrise: number;
  let harbour: number;
  let oldTown: number;

  const call = (user: string, method: string, payload: Row = {}) => t.call("adminapiv2", method, payload, { token: tokens[user], headers: EN });
  async function counts(user: string, payload: Row = {}): Promise<Record<string, WaitingCount>> {
    const res = await call(user, "waitingcounts", payload);
    expect(res.return_code, `${user}: ${res.return_msg}`).toBe("SUCCESS");
    return Object.fromEntries((res.data?.items as WaitingCount[]).map((c) => [c.key, c]));
  }
  /** the refund requests of a provider as the database holds them: how many, and the oldest */
  async function appliedOf(sysid: number): Promise<{ count: number; first: number | undefined }> {
    const rows = await t.db.select({ id: refunds.id }).from(refunds).where(and(eq(refunds.sysid, sysid), eq(refunds.status, "applied"))).orderBy(asc(refunds.id));
    return { count: rows.length, first: rows[0]?.id };
  }
  async function submittedChannels(sysid?: number): Promise<number> {
    const [row] = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(paymentChannels)
      .where(and(eq(paymentChannels.status, "submitted"), sysid === undefined ? undefined : eq(paymentChannels.sysid, sysid)));
    return Number(row.n);
  }
  /** a request waiting for the provider, written as a school's would be, on a paid order of that provider */
  async function requestIn(sysid: number): Promise<number> {
    const [order] = await t.db.select().from(feeOrders).where(and(eq(feeOrders.sysid, sysid), eq(feeOrders.status, "paid"))).orderBy(asc(feeOrders.id)).limit(1);
    const [refund] = await t.db
      .insert(refunds)
      .values({ order_id: order.id, pay_no: order.pay_no, sch_id: order.sch_id, sysid, student_id: order.student_id, amount: 1, reason: "Asked", status: "applied", kind: "request", applied_by: "someone", gateway: order.gateway, created_at: t.clock.now() })
      .returning({ id: refunds.id });
    return refund.id;
  }

  beforeAll(async () => {
    t = await createTestApp(kind);
    for (const u of ["sysadmin", "sysop", "sysv1", "svc", "staff", "school", "harbour", "svcv1", "schoolv1", "pickup"]) tokens[u] = await t.login(u);
    sunrise = await idByTitle(t.db, providers, "Sunrise Campus Services");
    harbour = await idByTitle(t.db, providers, "Harbour Education Services");
    oldTown = await idByTitle(t.db, providers, "Old Town Education");
  });
  afterAll(async () => {
    await t?.close();
  });

  describe("a provider's refund requests", () => {
    it("are counted for the provider within its own tenant, equal to its after-sales list, with the oldest named", async () => {
      for (const [user, sysid] of [["svc", sunrise], ["harbour", harbour], ["svcv1", oldTown]] as const) {
        const mine = await counts(user);
        const expected = await appliedOf(sysid);
        if (user === "svc") expect(expected.count, "Sunrise's schools' demo requests").toBeGreaterThan(1);
        expect(mine.refunds).toMatchObject({ entity: "refund", action: "refundreview", states: ["applied"], count: expected.count, first: expected.first === undefined ? null : { id: expected.first, sysid } });
        const listed = await call(user, "refundlist", { status: "applied", limit: 1 });
        expect(Number(listed.data?.total)).toBe(expected.count);
        // a provider decides no channel
        expect(mine.channels).toBeUndefined();
      }
    });

    it("never count another provider's requests, and move with the requests made and decided", async () => {
      const before = (await counts("svc")).refunds.count;
      const harbourBefore = (await counts("harbour")).refunds.count;
      await requestIn(harbour);
      expect((await counts("svc")).refunds.count).toBe(before);
      expect((await counts("harbour")).refunds.count).toBe(harbourBefore + 1);

      const mine = await requestIn(sunrise);
      expect((await counts("svc")).refunds.count).toBe(before + 1);
      const decided = await call("svc", "refundreview", { id: mine, result: "reject", reason: "Not ours" });
      expect(decided.return_code, decided.return_msg).toBe("SUCCESS");
      expect((await counts("svc")).refunds.count).toBe(before);
      expect((await counts("harbour")).refunds.count).toBe(harbourBefore + 1);
    });

    it("are not asked of those who ask for refunds, nor of a pickup clerk", async () => {
      for (const user of ["school", "staff", "schoolv1", "pickup"]) {
        expect((await call(user, "waitingcounts")).return_msg, user).toBe(en("api.no_permission"));
      }
    });

    it("cannot be read for another provider by naming it", async () => {
      const res = await call("svc", "waitingcounts", { sysid: harbour });
      expect(res.return_code).toBe("FAIL");
      expect(res.return_msg).toBe(en("api.not_found"));
    });
  });

  describe("channels submitted for review", () => {
    it("are counted for the platform's operators over every provider, the oldest named with its provider", async () => {
      const all = await submittedChannels();
      expect(all, "the demo data's channel awaiting review").toBeGreaterThan(0);
      const [oldest] = await t.db.select({ id: paymentChannels.id, sysid: paymentChannels.sysid }).from(paymentChannels).where(eq(paymentChannels.status, "submitted")).orderBy(asc(paymentChannels.id)).limit(1);
      for (const user of ["sysop", "sysadmin", "sysv1"]) {
        const theirs = await counts(user);
        expect(theirs.channels, user).toMatchObject({ entity: "paychnl", action: "paychnlreview", states: ["submitted"], count: all, first: oldest });
        // platform-wide, an operator decides no refund
        expect(theirs.refunds, user).toBeUndefined();
      }
    });

    it("switched into a provider, count that provider's channels and refund requests only", async () => {
      const inSunrise = await counts("sysop", { sysid: sunrise });
      expect(inSunrise.channels.count).toBe(await submittedChannels(sunrise));
      expect(inSunrise.refunds.count).toBe((await appliedOf(sunrise)).count);
      const inOldTown = await counts("sysop", { sysid: oldTown });
      expect(inOldTown.channels).toMatchObject({ count: await submittedChannels(oldTown) });
      expect(inOldTown.refunds.count).toBe((await appliedOf(oldTown)).count);
    });

    it("move when a provider submits one and an operator decides it", async () => {
      const before = (await counts("sysop")).channels.count;
      const added = await call("svc", "paychnladd", {
        title: "Waiting channel",
        gateway: "sandbox",
        subject: "Sunrise Campus Services Co., Ltd.",
        licence_no: "91310000MA1FL8XQ30",
        legal_person: "Li Wei",
        contact_name: "Zhou Min",
        contact_phone: "13800138000",
        bank_name: "Bank of Shanghai",
        bank_account: "6222020200998877665",
      });
      expect(added.return_code, added.return_msg).toBe("SUCCESS");
      const id = Number((added.data?.items as Row).id);
      expect((await counts("sysop")).channels.count).toBe(before);
      expect((await call("svc", "paychnlsubmit", { id })).return_code).toBe("SUCCESS");
      expect((await counts("sysop")).channels.count).toBe(before + 1);
      // another provider's operator view is untouched
      expect((await counts("sysop", { sysid: oldTown })).channels.count).toBe(await submittedChannels(oldTown));
      expect((await call("sysop", "paychnlreview", { id, result: "reject", reason: "Unreadable" })).return_code).toBe("SUCCESS");
      expect((await counts("sysop")).channels.count).toBe(before);
    });
  });
});
