/**
 * The notifier, on both databases: an activity's arrears with each bill's days open and reminders; a reminder to a
 * guardian sent to the sandbox outbox and drawn in the reader's language; a guardian reminded again within the
 * provider's interval is refused, also when two calls come at once, and reminded once the interval has passed; the
 * notices of a payment (once, however often it is notified) and of a refund as notifyset says; the evening's daily
 * report to the bound users, once, with the day's figures; a second sending run while a first holds its claim sends
 * nothing; a driver that fails is tried three times, then the notice is failed with its message.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businessDay } from "../../common/term";
import { bills, dailyReportSubscribers, notices, students } from "../../server/db/schema";
import { dailyReportJob, paymentNotices } from "../../server/domains/notices";
import { sendNoticesJob } from "../../server/notify/send";
import { queueNotices } from "../../server/notify/notices";
import { describeOnDatabases } from "../helpers/db";
import { confirmSandbox, findStudent, payBills, payerWorld, unpaidStudents, type PayerStudent, type PayerWorld, type Row } from "./payerSupport";
import { createTestApp, type TestApp } from "./support";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const silentLog = { info() {}, warn() {}, error() {} };

describeOnDatabases("notices", (kind) => {
  let t: TestApp;
  let world: PayerWorld;
  const tokens: Record<string, string> = {};
  const call = (user: string, method: string, payload: Row = {}, lang?: string) =>
    t.call("adminapiv2", method, payload, { token: tokens[user], ...(lang ? { headers: { "accept-language": lang } } : {}) });
  const sendNow = () => t.app.jobs.runDueJobs();
  const noticesOf = (billId: number) => t.db.select().from(notices).where(eq(notices.billId, billId));
  /** students owing whose guardians nobody has reminded (the demo reminded a few) */
  const unreminded = async (count: number): Promise<PayerStudent[]> => {
    const reminded = new Set((await t.db.select({ recipient: notices.recipient }).from(notices).where(eq(notices.kind, "reminder"))).map((n) => n.recipient));
    return (await unpaidStudents(t, world, count + 40)).filter((s) => s.guardian_phone && !reminded.has(s.guardian_phone)).slice(0, count);
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    for (const u of ["svc", "staff", "school", "harbour", "svcv1"]) tokens[u] = await t.login(u);
    world = await payerWorld(t, tokens.svc);
  });
  afterAll(async () => {
    await t?.close();
  });

  describe("arrears", () => {
    it("lists an activity's unpaid bills longest open first, with the guardian, the days open and the reminders", async () => {
      const res = await call("svc", "arrearslist", { activity_id: world.activityId, sch_id: world.schId, limit: 100 });
      expect(res.return_code, res.return_msg).toBe("SUCCESS");
      const items = res.data?.items as Row[];
      const unpaid = await t.db.select({ id: bills.id }).from(bills).where(and(eq(bills.activity_id, world.activityId), eq(bills.status, "unpaid")));
      expect(Number(res.data?.total)).toBe(unpaid.length);
      expect(items.length).toBe(Math.min(100, unpaid.length));
      const first = items[0];
      expect(first).toMatchObject({ status: "unpaid" });
      // the demo reminded the guardians of the bills that waited longest
      const [seen] = await t.db.select().from(notices).where(eq(notices.billId, Number(first.id)));
      expect(first.reminders).toBe(seen ? (await noticesOf(Number(first.id))).length : 0);
      expect(typeof first.guardian_phone).toBe("string");
      expect(String(first.class_title)).not.toBe("");
      const days = items.map((r) => Number(r.days_open));
      expect(days).toEqual([...days].sort((a, b) => b - a));
      const opened = new Date(String(first.created_at)).getTime();
      expect(days[0]).toBe(Math.floor((t.clock.now().getTime() - opened) / (24 * HOUR)));

      const byClass = await call("svc", "arrearslist", { activity_id: world.activityId, class_id: first.class_id });
      expect((byClass.data?.items as Row[]).every((r) => r.class_id === first.class_id)).toBe(true);
    });

    it("refuses a call without an activity naming the field, and shows nothing of another provider", async () => {
      const missing = await call("svc", "arrearslist", {});
      expect(missing).toMatchObject({ return_code: "FAIL" });
      expect(JSON.stringify(missing.data ?? missing.return_msg)).toContain("activity_id");
      const other = await call("harbour", "arrearslist", { activity_id: world.activityId });
      expect(other.return_code, other.return_msg).toBe("SUCCESS");
      expect(other.data?.total).toBe(0);
    });
  });

  describe("reminders", () => {
    it("reminds a guardian through the sandbox, recorded with the bill and drawn in the reader's language", async () => {
      const [student] = await unreminded(1);
      const res = await call("svc", "billremind", { id: student.billId });
      expect(res.return_code, res.return_msg).toBe("SUCCESS");
      let [notice] = await noticesOf(student.billId);
      expect(notice).toMatchObject({ kind: "reminder", channel: "sms", recipient: student.guardian_phone, status: "queued", studentId: student.id });
      await sendNow();
      [notice] = await noticesOf(student.billId);
      expect(notice).toMatchObject({ status: "sent", driver: "sandbox" });

      const zh = await call("svc", "noticelist", { kind: "reminder" }, "zh-CN");
      const row = (zh.data?.items as Row[]).find((n) => n.id === notice.id)!;
      expect(row).toMatchObject({ status: "sent", recipient: student.guardian_phone });
      expect(String(row.text)).toContain(student.name);
      expect(String(row.text)).toContain("家长您好");
      const en = await call("svc", "noticelist", { kind: "reminder" }, "en");
      expect(String((en.data?.items as Row[]).find((n) => n.id === notice.id)!.text)).toContain("Dear parent");

      const listed = await call("svc", "arrearslist", { activity_id: world.activityId, class_id: student.class_id, limit: 100 });
      expect((listed.data?.items as Row[]).find((r) => r.id === student.billId)).toMatchObject({ reminders: 1, reminded_at: notice.createdAt.toISOString() });
      // the school sees what was sent for it; another provider does not
      const school = await call("school", "noticelist", { kind: "reminder" });
      expect((school.data?.items as Row[]).some((n) => n.id === notice.id)).toBe(true);
      const other = await call("harbour", "noticelist", {});
      expect((other.data?.items as Row[]).some((n) => n.id === notice.id)).toBe(false);
    });

    it("does not remind a guardian again within the interval, even twice at once, and does once it has passed", async () => {
      const [a, b] = await unreminded(2);
      const [first, second] = await Promise.all([call("svc", "billremind", { id: a.billId }), call("school", "billremind", { id: a.billId })]);
      expect([first.return_code, second.return_code].sort()).toEqual(["FAIL", "SUCCESS"]);
      const refused = first.return_code === "FAIL" ? first : second;
      expect(refused.return_msg).toContain("之后才能再次提醒");
      expect(await noticesOf(a.billId)).toHaveLength(1);

      // the provider allows one reminder an hour: an hour, not a minute less
      const set = await call("svc", "notifysetedit", { reminder_interval_hours: 1 });
      expect(set.return_code, set.return_msg).toBe("SUCCESS");
      expect((await call("svc", "billremind", { id: a.billId })).return_code).toBe("FAIL");
      t.clock.advance(59 * MINUTE);
      expect((await call("svc", "billremind", { id: a.billId })).return_code).toBe("FAIL");
      t.clock.advance(MINUTE + 1000);
      expect((await call("svc", "billremind", { id: a.billId })).return_code).toBe("SUCCESS");
      expect(await noticesOf(a.billId)).toHaveLength(2);
      // another guardian is not held up by this one
      expect((await call("svc", "billremind", { id: b.billId })).return_code).toBe("SUCCESS");

      // back to the default, a day: refused a minute before it has passed, reminded once it has
      expect((await call("svc", "notifysetedit", { reminder_interval_hours: 24 })).return_code).toBe("SUCCESS");
      t.clock.advance(24 * HOUR - MINUTE);
      for (const u of Object.keys(tokens)) tokens[u] = await t.login(u);
      expect((await call("svc", "billremind", { id: b.billId })).return_code).toBe("FAIL");
      t.clock.advance(MINUTE + 1000);
      for (const u of Object.keys(tokens)) tokens[u] = await t.login(u);
      expect((await call("svc", "billremind", { id: b.billId })).return_code).toBe("SUCCESS");
      expect(await noticesOf(b.billId)).toHaveLength(2);
    });

    it("refuses a paid bill, a guardian without a mobile number and another provider's bill", async () => {
      const [student] = await unreminded(1);
      // another provider's (within its term, so only the tenant refuses), its guardian reachable: not found for it,
      // and no one reminded
      expect(student.guardian_phone).toBeTruthy();
      const foreign = await call("svcv1", "billremind", { id: student.billId }, "en");
      expect(foreign).toMatchObject({ return_code: "FAIL", return_msg: "Record not found" });
      expect(await noticesOf(student.billId)).toHaveLength(0);
      await t.db.update(students).set({ guardian_phone: "" }).where(eq(students.id, student.id));
      const noPhone = await call("svc", "billremind", { id: student.billId });
      expect(noPhone).toMatchObject({ return_code: "FAIL" });
      expect(noPhone.return_msg).toContain(student.name);
      const [paid] = await t.db.select({ id: bills.id }).from(bills).where(and(eq(bills.sch_id, world.schId), eq(bills.status, "paid"))).limit(1);
      const wrong = await call("svc", "billremind", { id: paid.id });
      expect(wrong).toMatchObject({ return_code: "FAIL" });
      expect(await noticesOf(paid.id)).toHaveLength(0);
    });
  });

  describe("payments, refunds and the daily report", () => {
    it("tells the guardian of a payment once however often it is notified, and the bound users when notifyset says so", async () => {
      await t.db.insert(dailyReportSubscribers).values({ sysid: world.sysid, openid: "o-bursar-1", nickname: "Bursar Li" });
      expect((await call("svc", "notifysetedit", { payment_staff: "Y" })).return_code).toBe("SUCCESS");
      const [student] = await unreminded(1);
      const ticket = await findStudent(t, world, student);
      const order = await payBills(t, ticket, [student.billId]);
      expect((await confirmSandbox(t, order.payparam.code_url)).return_code).toBe("SUCCESS");
      expect((await confirmSandbox(t, order.payparam.code_url)).return_code).toBe("SUCCESS");
      const told = await t.db.select().from(notices).where(and(eq(notices.kind, "payment"), eq(notices.studentId, student.id)));
      const bound = await t.db.select({ openid: dailyReportSubscribers.openid }).from(dailyReportSubscribers).where(eq(dailyReportSubscribers.sysid, world.sysid));
      expect(bound.map((b) => b.openid)).toContain("o-bursar-1");
      expect(told.map((n) => `${n.channel}:${n.recipient}`).sort()).toEqual([`sms:${student.guardian_phone}`, ...bound.map((b) => `wechat:${b.openid}`)].sort());
      expect(told[0].params).toMatchObject({ pay_no: order.pay_no, student: student.name });
      // applied a second time past the order's own check (two processes applying one notification): each
      // recipient is still told once
      const payment = { sysid: world.sysid, sch_id: world.schId, student_id: student.id, activity_id: world.activityId, pay_no: order.pay_no, amount: student.billAmountFen, at: t.clock.now() };
      await t.db.transaction((tx) => paymentNotices(tx, payment, t.clock.now()));
      const again = await t.db.select().from(notices).where(and(eq(notices.kind, "payment"), eq(notices.studentId, student.id)));
      expect(again.map((n) => n.id).sort()).toEqual(told.map((n) => n.id).sort());
    });

    it("sends the evening's daily report once to each bound user, with the day's figures", async () => {
      // 20:30 China time of the test's day
      const day = businessDay(t.clock.now());
      const evening = new Date(`${day}T20:30:00+08:00`);
      if (evening.getTime() > t.clock.now().getTime()) t.clock.advance(evening.getTime() - t.clock.now().getTime());
      tokens.svc = await t.login("svc");
      const ctx = { db: t.db, services: { db: t.db, clock: t.clock } as never, payload: {}, reportProgress: async () => {}, now: t.clock.now(), jobId: 0, attempt: 1, log: silentLog };
      const bound = await t.db.select().from(dailyReportSubscribers);
      expect((await dailyReportJob(ctx)).queued).toBe(bound.length);
      expect((await dailyReportJob(ctx)).queued).toBe(0);
      const [report] = await t.db.select().from(notices).where(eq(notices.dedupeKey, `daily_report:${world.sysid}:${day}:o-bursar-1`));
      expect(report).toMatchObject({ sysid: world.sysid, kind: "daily_report", channel: "wechat", recipient: "o-bursar-1" });
      const figures = await call("svc", "paystatis", { at_start: day, at_end: day, dimension: "day" });
      expect(figures.return_code, figures.return_msg).toBe("SUCCESS");
      const sums = figures.data?.sums as Row;
      expect(report.params).toMatchObject({ day, orders: String(sums.orders), paid: sums.paid_amount, refunded: sums.refund_amount, net: sums.net_amount });
    });
  });

  it("sends each notice once when a second run comes while a first holds its claim", async () => {
    await sendNow();
    const now = t.clock.now();
    const recipients = ["13800000001", "13800000002"];
    await t.db.transaction((tx) => queueNotices(tx, recipients.map((recipient) => ({ sysid: world.sysid, kind: "payment", channel: "sms", recipient, params: {}, createdBy: "test" })), now));
    const sent: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let claimed!: () => void;
    const holding = new Promise<void>((resolve) => (claimed = resolve));
    // the first run's driver waits, mid-batch, until the second run is over
    const slow = { name: "slow", send: async (notice: { recipient: string }) => (claimed(), await held, sent.push(`slow:${notice.recipient}`), { reference: "r" }) };
    const quick = { name: "quick", send: async (notice: { recipient: string }) => (sent.push(`quick:${notice.recipient}`), { reference: "r" }) };
    const ctx = { db: t.db, services: {} as never, payload: {}, reportProgress: async () => {}, now, jobId: 0, attempt: 1, log: silentLog };
    const first = sendNoticesJob(async () => ({ sms: slow }))(ctx);
    await holding;
    // a minute later, well within the claim
    const second = await sendNoticesJob(async () => ({ sms: quick }))({ ...ctx, now: new Date(now.getTime() + MINUTE) });
    expect(second.sent).toBe(0);
    release();
    expect((await first).sent).toBe(2);
    expect(sent.sort()).toEqual(recipients.map((r) => `slow:${r}`));
    for (const recipient of recipients) expect((await t.db.select().from(notices).where(eq(notices.recipient, recipient)))[0]).toMatchObject({ status: "sent", attempts: 1, driver: "slow" });
  });

  it("tries a failing driver three times, then marks the notice failed with its message", async () => {
    // what the other tests queued is sent first
    await sendNow();
    const now = t.clock.now();
    await t.db.transaction((tx) => queueNotices(tx, [{ sysid: world.sysid, kind: "payment", channel: "sms", recipient: "13800000000", params: {}, createdBy: "test" }], now));
    const failing = { name: "broken", send: async () => Promise.reject(new Error("gateway said no")) };
    const job = sendNoticesJob(async () => ({ sms: failing }));
    const ctx = { db: t.db, services: {} as never, payload: {}, reportProgress: async () => {}, now, jobId: 0, attempt: 1, log: silentLog };
    const outcomes = [];
    for (let i = 0; i < 3; i++) outcomes.push(await job({ ...ctx, now: new Date(now.getTime() + i * 60_000) }));
    expect(outcomes.map((o) => [o.retried, o.failed])).toEqual([[1, 0], [1, 0], [0, 1]]);
    const [notice] = await t.db.select().from(notices).where(eq(notices.recipient, "13800000000"));
    expect(notice).toMatchObject({ status: "failed", attempts: 3, error: "gateway said no", driver: "broken" });
  });
});
