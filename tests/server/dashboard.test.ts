/**
 * The home page's figures (`dashboard`) for every demo account: each role gets the figures it cares about, each
 * equal to the total of the list it counts as that account sees it, and only its own tenant's. A student added
 * moves the figures of those who can see it and no one else's. On both databases.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, businessDay, daysLeft } from "../../common/term";
import { and, eq } from "drizzle-orm";
import type { DashboardCollection } from "../../common/dashboard";
import { yuanToFen } from "../../common/money";
import { activities, bills } from "../../server/db/schema";
import { orderForBills, paidAtSandbox } from "../../server/seed/feeOrders";
import { translator } from "../../server/lib/i18n";
import { DEMO_ACCOUNTS } from "../../server/seed/demo";
import { describeOnDatabases } from "../helpers/db";
import { createTestApp, type TestApp } from "./support";

type Row = Record<string, unknown>;
interface Figure {
  key: string;
  value: number;
  links: Row[];
  format?: string;
  tone?: string;
}

const zh = translator("zh");

describeOnDatabases("dashboard", (kind) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const school: Record<string, number> = {};
  const provider: Record<string, number> = {};
  let today: string;
  const call = (user: string, method: string, payload: Row = {}) => t.call("adminapiv2", method, payload, { token: tokens[user] });
  const items = (res: { data?: Row }) => (res.data?.items ?? []) as Row[];
  const total = async (user: string, method: string, payload: Row = {}) => {
    const res = await call(user, method, { limit: 1, ...payload });
    expect(res.return_code, `${method} as ${user}: ${res.return_msg}`).toBe("SUCCESS");
    return Number(res.data?.total);
  };

  async function dashboard(user: string, payload: Row = {}): Promise<{ audience: string; figures: Record<string, Figure> }> {
    const res = await call(user, "dashboard", payload);
    expect(res.return_code, `dashboard as ${user}: ${res.return_msg}`).toBe("SUCCESS");
    const { audience, figures } = res.data?.items as { audience: string; figures: Figure[] };
    return { audience, figures: Object.fromEntries(figures.map((f) => [f.key, f])) };
  }
  async function dashboardWithCollection(user: string): Promise<{ figures: Record<string, Figure>; collection: DashboardCollection }> {
    const { figures } = await dashboard(user);
    const collection = ((await call(user, "dashboard")).data?.items as { collection?: DashboardCollection }).collection;
    expect(collection, user).toBeDefined();
    return { figures, collection: collection! };
  }
  const values = (figures: Record<string, Figure>) => Object.fromEntries(Object.values(figures).map((f) => [f.key, f.value]));

  beforeAll(async () => {
    t = await createTestApp(kind);
    today = businessDay(t.clock.now());
    for (const { username } of DEMO_ACCOUNTS) tokens[username] = await t.login(username);
    for (const s of items(await call("sysadmin", "schoollist", { limit: 100 }))) {
      const key = { "Sunrise No.1 Primary School": "no1", "Sunrise No.2 Primary School": "no2", "Harbour Bay School": "harbourBay" }[String(s.title)];
      if (key) school[key] = Number(s.id);
    }
    for (const p of items(await call("sysadmin", "servicelist", { limit: 100 }))) {
      const key = { "Sunrise Campus Services": "sunrise", "Harbour Education Services": "harbour", "Old Town Education": "oldTown" }[String(p.title)];
      if (key) provider[key] = Number(p.id);
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  /** The ends of "within 30 days" and "expired" as list filters. */
  const endingSoon = (field: string) => ({ [`${field}_start`]: today, [`${field}_end`]: addDays(today, 29) });
  const expired = (field: string) => ({ [`${field}_end`]: addDays(today, -1) });

  it("answers every demo account, signed in, with its figures; no one without a session", async () => {
    const audiences: Record<string, string> = {};
    for (const { username } of DEMO_ACCOUNTS) audiences[username] = (await dashboard(username)).audience;
    expect(audiences).toEqual({
      sysadmin: "platform",
      sysop: "platform",
      sysv1: "platform",
      svc: "provider",
      staff: "staff",
      pickup: "pickup",
      school: "school",
      harbour: "provider",
      svcv1: "provider",
      schoolv1: "school",
    });
    expect((await t.call("adminapiv2", "dashboard", {})).return_code).toBe("token_error");
  });

  it("gives the platform's operators providers, schools, terms and renewals, each its list's total", async () => {
    const { figures } = await dashboard("sysadmin");
    expect(Object.keys(figures)).toEqual(["providers", "schools", "providers_ending", "providers_expired", "provider_renewals_month", "school_renewals_month"]);
    expect(values(figures)).toMatchObject({
      providers: await total("sysadmin", "servicelist"),
      schools: await total("sysadmin", "schoollist"),
      providers_ending: await total("sysadmin", "servicelist", endingSoon("end_time")),
      providers_expired: await total("sysadmin", "servicelist", expired("end_time")),
    });
    // Sunrise ends in 10 days, Harbour has expired
    expect(figures.providers_ending!.value).toBeGreaterThanOrEqual(1);
    expect(figures.providers_expired).toMatchObject({ tone: "danger", links: [{ entity: "service", filters: { end_time: ["", addDays(today, -1)] } }] });
    expect(figures.schools!.links).toEqual([{ entity: "school" }]);

    // a renewal made this month counts at once
    const before = figures.provider_renewals_month!.value;
    const extended = await call("sysadmin", "servicedelay", { sysid: provider.oldTown, term_months: 12, fee: "100.00", remark: "dashboard test" });
    expect(extended.return_code, extended.return_msg).toBe("SUCCESS");
    expect((await dashboard("sysadmin")).figures.provider_renewals_month!.value).toBe(before + 1);
    expect((await dashboard("sysadmin")).figures.provider_renewals_month!.value).toBe(await total("sysadmin", "servicedelaylist", { created_at_start: addDays(today, -400) }));
  });

  it("gives a provider its own schools, students, terms and renewals, and an operator acting in it the same", async () => {
    const { figures } = await dashboard("svc");
    expect(Object.keys(figures)).toEqual(["collected_today", "collected_month", "refunded_month", "net_month", "open_activities", "collection_rate", "schools", "schools_ending", "schools_expired", "students", "school_renewals_month", "term_days_left"]);
    expect(values(figures)).toMatchObject({
      schools: await total("svc", "schoollist"),
      schools_ending: await total("svc", "schoollist", endingSoon("endtime")),
      schools_expired: await total("svc", "schoollist", expired("endtime")),
      students: await total("svc", "studentlist"),
      school_renewals_month: expect.any(Number),
      // Sunrise's term ends in 10 days
      term_days_left: 11,
    });
    expect(figures.term_days_left!.tone).toBe("warning");
    expect(figures.schools!.value).toBeLessThan(await total("sysadmin", "schoollist"));

    // the operator who switched into Sunrise sees Sunrise's figures
    const operator = await dashboard("sysadmin", { sysid: provider.sunrise });
    expect(operator.audience).toBe("provider");
    expect(values(operator.figures)).toEqual(values(figures));

    // the expired provider still reads its figures: its term is over
    const harbour = await dashboard("harbour");
    expect(harbour.figures.term_days_left).toMatchObject({ value: 0, tone: "danger" });
    expect(harbour.figures.schools!.value).toBe(await total("harbour", "schoollist"));
    expect(harbour.figures.schools_expired!.value).toBeGreaterThanOrEqual(1);
  });

  it("gives provider staff its assigned schools and their students", async () => {
    const { figures } = await dashboard("staff");
    expect(Object.keys(figures)).toEqual(["collected_today", "collected_month", "refunded_month", "net_month", "open_activities", "collection_rate", "schools", "schools_ending", "students"]);
    expect(figures.schools!.value).toBe(await total("staff", "schoollist"));
    expect(figures.schools!.value).toBe(2);
    const students = (await total("svc", "studentlist", { sch_id: school.no1 })) + (await total("svc", "studentlist", { sch_id: school.no2 }));
    expect(figures.students!.value).toBe(students);
  });

  it("gives a school its grades, classes, students by gender and the days left in its term", async () => {
    const { figures } = await dashboard("school");
    expect(Object.keys(figures)).toEqual(["collected_today", "collected_month", "refunded_month", "net_month", "open_activities", "collection_rate", "grades", "classes", "students", "boys", "girls", "term_days_left"]);
    const students = await total("svc", "studentlist", { sch_id: school.no1 });
    const info = await call("school", "schoolinfo", { sch_id: school.no1 });
    const endtime = String((info.data?.items as Row).endtime);
    expect(values(figures)).toMatchObject({
      grades: await total("school", "gradelist"),
      classes: await total("school", "classeslist"),
      students,
      boys: await total("svc", "studentlist", { sch_id: school.no1, sex: "1" }),
      girls: await total("svc", "studentlist", { sch_id: school.no1, sex: "2" }),
      term_days_left: daysLeft(endtime, today),
    });
    expect(figures.term_days_left!.value).toBe(13);
    expect(figures.boys!.links).toEqual([{ entity: "student", filters: { sex: "1" } }, { report: "sexstatis" }, { report: "classstatis" }]);

    const v1 = await dashboard("schoolv1");
    expect(v1.figures.grades!.value).toBe(await total("schoolv1", "gradelist"));
  });

  it("counts what each figure's list shows: its total, with the figure's filters, as the account sees it", async () => {
    let checked = 0;
    for (const { username } of DEMO_ACCOUNTS) {
      for (const figure of Object.values((await dashboard(username)).figures)) {
        // an amount or a rate is no count of its list
        if (figure.format) continue;
        const link = figure.links.find((l) => typeof l.entity === "string");
        if (!link) continue;
        const payload: Row = {};
        for (const [name, value] of Object.entries((link.filters ?? {}) as Record<string, string | [string, string]>)) {
          if (!Array.isArray(value)) payload[name] = value;
          else if (value[0]) payload[`${name}_start`] = value[0];
          if (Array.isArray(value) && value[1]) payload[`${name}_end`] = value[1];
        }
        const list = await call(username, `${String(link.entity)}list`, { limit: 1, ...payload });
        // a list the account's role does not offer: the figure is no link for it
        if (list.return_code === "FAIL" && list.return_msg === zh("api.no_permission")) continue;
        expect(list.return_code, `${username} ${figure.key}: ${list.return_msg}`).toBe("SUCCESS");
        expect(figure.value, `${username} ${figure.key}`).toBe(Number(list.data?.total));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(25);
  });

  it("counts fee collection as the payment and refund records do: today, this month, refunded, net; 30 days of it and the activities most owed", async () => {
    const { figures, collection } = await dashboardWithCollection("svc");
    expect(figures.open_activities!.value).toBe(await total("svc", "activitylist", { status: "open" }));
    expect(figures.collection_rate).toMatchObject({ format: "percent" });
    // the same money as the payment ledger (payrecord) and the refund records over the same days
    const monthStart = `${today.slice(0, 7)}-01`;
    const summed = async (method: string, payload: Row) => {
      const res = await call("svc", method, { limit: 1, ...payload });
      expect(res.return_code, res.return_msg).toBe("SUCCESS");
      return yuanToFen(String((res.data?.summary as Row).amount));
    };
    expect(figures.collected_month!.value).toBe(await summed("paymentlist", { paid_at_start: monthStart }));
    expect(figures.collected_today!.value).toBe(await summed("paymentlist", { paid_at_start: today, paid_at_end: today }));
    expect(figures.refunded_month!.value).toBe(await summed("refundlist", { payment_kind: "fee", status: "success", success_time_start: monthStart }));
    expect(figures.refunded_month!.value).toBeGreaterThan(0);
    expect(figures.net_month!.value).toBe(figures.collected_month!.value - figures.refunded_month!.value);
    // the chart's days: 30 of them up to today, whose days of this month add up to the month's figures
    expect(collection.days).toHaveLength(30);
    expect(collection.days.at(-1)).toMatchObject({ day: today, paid: figures.collected_today!.value });
    const thisMonth = collection.days.filter((d) => d.day >= monthStart);
    expect(thisMonth.reduce((sum, d) => sum + d.paid, 0)).toBe(figures.collected_month!.value);
    expect(thisMonth.reduce((sum, d) => sum + d.refunded, 0)).toBe(figures.refunded_month!.value);
    // the open activities most owed, most first, each as many unpaid bills as its bill list shows
    expect(collection.unpaid.length).toBeGreaterThan(0);
    expect(collection.unpaid.map((a) => a.unpaid_bills)).toEqual([...collection.unpaid.map((a) => a.unpaid_bills)].sort((a, b) => b - a));
    for (const activity of collection.unpaid) {
      expect(activity.unpaid_bills, activity.title).toBe(await total("svc", "billlist", { activity_id: activity.activity_id, status: "unpaid" }));
    }

    // a bill of No.1 paid now, through the payer's own path: it counts today and this month for whoever sees No.1,
    // and for no one else
    const watchers = ["svc", "staff", "school", "harbour", "svcv1"];
    const before = Object.fromEntries(await Promise.all(watchers.map(async (u) => [u, values((await dashboard(u)).figures)] as const)));
    const [bill] = await t.db
      .select()
      .from(bills)
      .where(and(eq(bills.sch_id, school.no1), eq(bills.status, "unpaid")))
      .limit(1);
    const payment = await orderForBills(t.db, t.clock.now(), { studentId: bill.student_id, schId: bill.sch_id, billIds: [bill.id] });
    await paidAtSandbox(t.db, payment, t.clock.now());
    const after = Object.fromEntries(await Promise.all(watchers.map(async (u) => [u, values((await dashboard(u)).figures)] as const)));
    for (const u of ["svc", "staff", "school"]) {
      expect(after[u]!.collected_today, u).toBe(before[u]!.collected_today! + Number(bill.amount));
      expect(after[u]!.collected_month, u).toBe(before[u]!.collected_month! + Number(bill.amount));
      expect(after[u]!.net_month, u).toBe(before[u]!.net_month! + Number(bill.amount));
      expect(after[u]!.collection_rate, u).toBeGreaterThan(before[u]!.collection_rate!);
    }
    for (const u of ["harbour", "svcv1"]) expect(after[u], u).toEqual(before[u]);
    expect((await dashboardWithCollection("school")).collection.days.at(-1)!.paid).toBe(after.school!.collected_today);
  });

  it("counts a waived bill as owed by no one: waiving an unpaid bill of an open activity raises the collection rate", async () => {
    const [bill] = await t.db
      .select({ id: bills.id })
      .from(bills)
      .innerJoin(activities, eq(activities.id, bills.activity_id))
      .where(and(eq(bills.sch_id, school.no1), eq(bills.status, "unpaid"), eq(activities.status, "open")))
      .limit(1);
    const before = values((await dashboard("school")).figures);
    expect(before.collection_rate).toBeGreaterThan(0);
    const waived = await call("svc", "billwaive", { id: bill!.id, reason: "Family hardship" });
    expect(waived.return_code, waived.return_msg).toBe("SUCCESS");
    const after = values((await dashboard("school")).figures);
    expect(after.collection_rate).toBeGreaterThan(before.collection_rate!);
    // nothing was paid: the money figures stay
    expect({ ...after, collection_rate: 0 }).toEqual({ ...before, collection_rate: 0 });
  });

  it("gives the chart and the activities most owed only to those who collect fees", async () => {
    for (const user of ["sysadmin", "pickup"]) expect((await call(user, "dashboard")).data?.items, user).not.toHaveProperty("collection");
    for (const user of ["svc", "staff", "school", "svcv1", "schoolv1"]) expect((await dashboardWithCollection(user)).collection.days, user).toHaveLength(30);
  });

  it("gives a pickup clerk its pickup points", async () => {
    const { figures } = await dashboard("pickup");
    expect(values(figures)).toEqual({ pickup_points: 1 });
  });

  describe("a student added", () => {
    it("moves the figures of those who see its school, and no one else's", async () => {
      const watchers = ["sysadmin", "svc", "staff", "school", "harbour", "svcv1", "schoolv1"];
      const before = Object.fromEntries(await Promise.all(watchers.map(async (u) => [u, values((await dashboard(u)).figures)] as const)));
      const grade = await call("school", "gradeadd", { sch_id: school.no1, title: "Dashboard grade" });
      const gradeId = Number((grade.data?.items as Row).id);
      const cls = await call("school", "classesadd", { sch_id: school.no1, grade_id: gradeId, title: "Dashboard class" });
      const classId = Number((cls.data?.items as Row).id);
      const added = await call("svc", "studentadd", { sch_id: school.no1, name: "New Pupil", student_no: "DASH-1", sex: "2", grade_id: gradeId, class_id: classId });
      expect(added.return_code, added.return_msg).toBe("SUCCESS");
      const after = Object.fromEntries(await Promise.all(watchers.map(async (u) => [u, values((await dashboard(u)).figures)] as const)));

      // the pupil is billed by the school's open activity: its collection rate can only fall (the demo's bills are partly paid)
      for (const u of ["school", "svc", "staff"]) expect(after[u]!.collection_rate, u).toBeLessThanOrEqual(before[u]!.collection_rate!);
      const rate = (u: string) => ({ collection_rate: after[u]!.collection_rate });
      expect(after.school).toEqual({ ...before.school, grades: before.school!.grades! + 1, classes: before.school!.classes! + 1, students: before.school!.students! + 1, girls: before.school!.girls! + 1, ...rate("school") });
      expect(after.svc).toEqual({ ...before.svc, students: before.svc!.students! + 1, ...rate("svc") });
      expect(after.staff).toEqual({ ...before.staff, students: before.staff!.students! + 1, ...rate("staff") });
      for (const other of ["sysadmin", "harbour", "svcv1", "schoolv1"]) expect(after[other], other).toEqual(before[other]);
    });
  });

  it("refuses a tenant outside the caller's authority", async () => {
    expect(await call("svc", "dashboard", { sysid: provider.harbour })).toEqual({ return_code: "FAIL", return_msg: zh("api.not_found") });
    expect(await call("school", "dashboard", { sch_id: school.no2 })).toEqual({ return_code: "FAIL", return_msg: zh("api.not_found") });
    expect(await call("staff", "dashboard", { sch_id: school.harbourBay })).toEqual({ return_code: "FAIL", return_msg: zh("api.not_found") });
  });
});
