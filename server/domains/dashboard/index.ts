/**
 * adminapiv2 `dashboard`: the home page's figures for the caller's authority and scope. The platform's operators
 * see providers, schools, terms ending soon or expired and this month's renewals; a provider (or an operator
 * acting in one) its schools, students, terms and renewals; provider staff its assigned schools; a school its
 * grades, classes, students and the days left in its term; a pickup clerk its pickup points. Every figure names
 * the lists it counts (an entity, a report or a route), so the SPA links the first one the user's menu has.
 * Providers, their staff and schools also see fee collection: what came in today and this month, what went back and
 * the net, the open activities and their collection rate, the last 30 days' collection (`collection.days`) and the
 * open activities with the most unpaid bills (`collection.unpaid`).
 */
import { and, asc, count, desc, eq, gte, lt, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { addDays, BUSINESS_TIME_ZONE, businessDay, businessDayStart, daysLeft } from "../../../common/term";
import { resolveScope } from "../../auth/scope";
import { tenantFilter } from "../../auth/tenantFilter";
import type { DbOrTx } from "../../db/client";
import { activities, bills, classes, feePayments, refunds, grades, providerExtensions, providers, schoolRenewals, schools, students } from "../../db/schema";
import { COLLECTION_DAYS, UNPAID_ACTIVITIES, type Dashboard, type DashboardCollection, type DashboardFigure, type DashboardLink, type LinkFilter } from "../../../common/dashboard";
import { notFound } from "../../protocol/envelope";
import { ANY_SIGNED_IN, type OperationContext, type OperationRegistry } from "../../protocol/registry";
import { registerWaitingOperations } from "./waiting";

/** A term "ends soon" when at most this many days are left of it (today counts). */
export const ENDING_SOON_DAYS = 30;

const num = (value: unknown): number => Number(value ?? 0) || 0;

/** count(*) of the rows meeting a condition, as a number. */
const countWhere = (condition: SQL) => sql<number>`count(*) filter (where ${condition})`.mapWith(Number);

interface Days {
  today: string;
  /** first day no longer "ending soon" */
  soonEnd: string;
  monthStartDay: string;
  monthStart: Date;
}

function daysOf(now: Date): Days {
  const today = businessDay(now);
  const monthStartDay = `${today.slice(0, 7)}-01`;
  return { today, soonEnd: addDays(today, ENDING_SOON_DAYS), monthStartDay, monthStart: businessDayStart(monthStartDay) };
}

/** The list filters of the terms a figure counts: ending soon, or over. */
function endingFilter(field: string, days: Days): Record<string, LinkFilter> {
  return { [field]: [days.today, addDays(days.soonEnd, -1)] };
}
function expiredFilter(field: string, days: Days): Record<string, LinkFilter> {
  return { [field]: ["", addDays(days.today, -1)] };
}
function thisMonth(days: Days): Record<string, LinkFilter> {
  return { created_at: [days.monthStartDay, ""] };
}

/** Terms of a date column: ending within ENDING_SOON_DAYS, or over. */
function termFigures(end: AnyPgColumn, days: Days) {
  return {
    ending: countWhere(and(gte(end, days.today), lt(end, days.soonEnd))!),
    expired: countWhere(lt(end, days.today)),
  };
}

async function platformFigures(db: DbOrTx, days: Days): Promise<DashboardFigure[]> {
  const [[p], [s], [ext], [ren]] = await Promise.all([
    db.select({ total: count(), ...termFigures(providers.end_time, days) }).from(providers),
    db.select({ total: count() }).from(schools),
    db.select({ total: count() }).from(providerExtensions).where(gte(providerExtensions.created_at, days.monthStart)),
    db.select({ total: count() }).from(schoolRenewals).where(gte(schoolRenewals.created_at, days.monthStart)),
  ]);
  return [
    { key: "providers", value: num(p?.total), links: [{ entity: "service" }] },
    { key: "schools", value: num(s?.total), links: [{ entity: "school" }] },
    { key: "providers_ending", value: num(p?.ending), links: [{ entity: "service", filters: endingFilter("end_time", days) }], tone: "warning" },
    { key: "providers_expired", value: num(p?.expired), links: [{ entity: "service", filters: expiredFilter("end_time", days) }], tone: "danger" },
    { key: "provider_renewals_month", value: num(ext?.total), links: [{ entity: "servicedelay", filters: thisMonth(days) }] },
    { key: "school_renewals_month", value: num(ren?.total), links: [{ entity: "schoolrenew", filters: thisMonth(days) }] },
  ];
}

/** A provider's schools (or a staff member's assigned ones), their students and terms. */
async function schoolsFigures(db: DbOrTx, days: Days, within: Within): Promise<{ schools: DashboardFigure[]; students: DashboardFigure }> {
  const schoolWhere = and(...tenantFilter(within, { sysid: schools.sysid, schid: schools.id }));
  const studentWhere = and(...tenantFilter(within, { sysid: students.sysid, schid: students.sch_id }));
  const [[s], [st]] = await Promise.all([
    db.select({ total: count(), ...termFigures(schools.endtime, days) }).from(schools).where(schoolWhere),
    db.select({ total: count() }).from(students).where(studentWhere),
  ]);
  return {
    schools: [
      { key: "schools", value: num(s?.total), links: [{ entity: "school" }] },
      { key: "schools_ending", value: num(s?.ending), links: [{ entity: "school", filters: endingFilter("endtime", days) }], tone: "warning" },
      { key: "schools_expired", value: num(s?.expired), links: [{ entity: "school", filters: expiredFilter("endtime", days) }], tone: "danger" },
    ],
    students: { key: "students", value: num(st?.total), links: [{ entity: "student" }] },
  };
}

async function providerFigures(db: DbOrTx, days: Days, sysid: number, endTime: string | undefined): Promise<DashboardFigure[]> {
  const { schools: schoolFigures, students: studentFigure } = await schoolsFigures(db, days, { sysid, schids: null });
  const [ren] = await db
    .select({ total: count() })
    .from(schoolRenewals)
    .where(and(eq(schoolRenewals.sysid, sysid), gte(schoolRenewals.created_at, days.monthStart)));
  const left = endTime ? daysLeft(endTime, days.today) : null;
  return [
    ...(await collectionFigures(db, days, { sysid, schids: null })),
    ...schoolFigures,
    studentFigure,
    { key: "school_renewals_month", value: num(ren?.total), links: [{ entity: "schoolrenew", filters: thisMonth(days) }] },
    ...(left === null ? [] : [termDays(left)]),
  ];
}

/** bills no one owes any more */
const SETTLED_BILLS = ["waived", "closed"];
/** bills counted as paid for the collection rate, whatever was refunded later */
const PAID_BILLS = ["paid", "part_refunded", "refunded"];
/** the payment kind of a fee order's refunds (server/domains/collection/feeOrders.ts FEE_KIND) */
const FEE_REFUNDS = "fee";

type Within = { sysid: number; schids: number[] | null };

const paymentsWithin = (within: Within) => tenantFilter(within, { sysid: feePayments.sysid, schid: feePayments.sch_id });
/**
 * the refunds of fees the gateway finished: money that went back, as the fee ledger counts it (a refund of a fee
 * order; the shop's refunds are the shop's, beside its sales, as its payments are)
 */
const refundsWithin = (within: Within) => [...tenantFilter(within, { sysid: refunds.sysid, schid: refunds.sch_id }), eq(refunds.payment_kind, FEE_REFUNDS), eq(refunds.status, "success")];
const sumOf = (column: AnyPgColumn, condition?: SQL) =>
  (condition ? sql<number>`coalesce(sum(${column}) filter (where ${condition}), 0)` : sql<number>`coalesce(sum(${column}), 0)`).mapWith(Number);

/**
 * Fee collection within a provider, some of its schools or one school: what came in today and this month (the
 * payment ledger, duplicates included, as payrecord lists it), what went back this month (refunds done) and the net,
 * the open activities and the share of their bills paid (of those still owed or paid).
 */
async function collectionFigures(db: DbOrTx, days: Days, within: Within): Promise<DashboardFigure[]> {
  const activityWhere = and(...tenantFilter(within, { sysid: activities.sysid, schid: activities.sch_id }), eq(activities.status, "open"));
  const paidList = sql.join(PAID_BILLS.map((s) => sql`${s}`), sql`, `);
  const settledList = sql.join(SETTLED_BILLS.map((s) => sql`${s}`), sql`, `);
  const [[paid], [back], [open]] = await Promise.all([
    db
      .select({ today: sumOf(feePayments.amount, gte(feePayments.paid_at, businessDayStart(days.today))), month: sumOf(feePayments.amount) })
      .from(feePayments)
      .where(and(...paymentsWithin(within), gte(feePayments.paid_at, days.monthStart))),
    db
      .select({ month: sumOf(refunds.amount) })
      .from(refunds)
      .where(and(...refundsWithin(within), gte(refunds.success_time, days.monthStart))),
    db
      .select({
        activities: sql<number>`count(distinct ${activities.id})`.mapWith(Number),
        paid: countWhere(sql`${bills.status} in (${paidList})`),
        owed: countWhere(sql`${bills.status} not in (${settledList})`),
      })
      .from(activities)
      .leftJoin(bills, eq(bills.activity_id, activities.id))
      .where(activityWhere),
  ]);
  const openActivities: DashboardLink[] = [{ entity: "activity", filters: { status: "open" } }];
  const paidIn = (range: [string, string]): DashboardLink[] => [{ entity: "payment", filters: { paid_at: range } }, { entity: "order", filters: { paid_at: range } }];
  const month: [string, string] = [days.monthStartDay, ""];
  const refundedMonth: DashboardLink = { entity: "refund", filters: { payment_kind: FEE_REFUNDS, status: "success", success_time: month } };
  const owed = num(open?.owed);
  return [
    { key: "collected_today", value: num(paid?.today), format: "money", links: [...paidIn([days.today, days.today]), ...openActivities] },
    { key: "collected_month", value: num(paid?.month), format: "money", links: [...paidIn(month), ...openActivities] },
    { key: "refunded_month", value: num(back?.month), format: "money", links: [refundedMonth] },
    { key: "net_month", value: num(paid?.month) - num(back?.month), format: "money", links: [...paidIn(month), refundedMonth] },
    { key: "open_activities", value: num(open?.activities), links: openActivities },
    { key: "collection_rate", value: owed === 0 ? 0 : Math.round((num(open?.paid) / owed) * 1000) / 10, format: "percent", links: openActivities },
  ];
}

/**
 * A timestamp column's business day (China), as YYYY-MM-DD. The zone is written into the text: the same expression
 * is selected and grouped by, which two parameters would make two expressions to PostgreSQL.
 */
const dayOf = (column: AnyPgColumn) => sql<string>`to_char(${column} AT TIME ZONE ${sql.raw(`'${BUSINESS_TIME_ZONE}'`)}, 'YYYY-MM-DD')`;

/**
 * The collection chart and list: what came in and went back on each of the last COLLECTION_DAYS days (the ledgers
 * the figures read), and the open activities with the most unpaid bills.
 */
async function collectionOf(db: DbOrTx, days: Days, within: Within): Promise<DashboardCollection> {
  const first = addDays(days.today, 1 - COLLECTION_DAYS);
  const since = businessDayStart(first);
  const paidDay = dayOf(feePayments.paid_at);
  const refundDay = dayOf(refunds.success_time);
  const unpaidBills = count(bills.id);
  const [paid, refunded, unpaid] = await Promise.all([
    db
      .select({ day: paidDay, amount: sumOf(feePayments.amount) })
      .from(feePayments)
      .where(and(...paymentsWithin(within), gte(feePayments.paid_at, since)))
      .groupBy(paidDay),
    db
      .select({ day: refundDay, amount: sumOf(refunds.amount) })
      .from(refunds)
      .where(and(...refundsWithin(within), gte(refunds.success_time, since)))
      .groupBy(refundDay),
    db
      .select({ activity_id: activities.id, title: activities.title, sch_id: activities.sch_id, school: schools.title, unpaid_bills: unpaidBills, unpaid_amount: sumOf(bills.amount) })
      .from(activities)
      .innerJoin(bills, and(eq(bills.activity_id, activities.id), eq(bills.status, "unpaid")))
      .innerJoin(schools, eq(schools.id, activities.sch_id))
      .where(and(...tenantFilter(within, { sysid: activities.sysid, schid: activities.sch_id }), eq(activities.status, "open")))
      .groupBy(activities.id, schools.id)
      .orderBy(desc(unpaidBills), asc(activities.id))
      .limit(UNPAID_ACTIVITIES),
  ]);
  const paidOn = new Map(paid.map((r) => [r.day, num(r.amount)]));
  const refundedOn = new Map(refunded.map((r) => [r.day, num(r.amount)]));
  const collectionDays = Array.from({ length: COLLECTION_DAYS }, (_, i) => {
    const day = addDays(first, i);
    return { day, paid: paidOn.get(day) ?? 0, refunded: refundedOn.get(day) ?? 0 };
  });
  return {
    days: collectionDays,
    total: { paid: collectionDays.reduce((sum, d) => sum + d.paid, 0), refunded: collectionDays.reduce((sum, d) => sum + d.refunded, 0) },
    unpaid: unpaid.map((a) => ({ ...a, unpaid_bills: num(a.unpaid_bills), unpaid_amount: num(a.unpaid_amount) })),
  };
}

function termDays(left: number, links: DashboardLink[] = []): DashboardFigure {
  const figure: DashboardFigure = { key: "term_days_left", value: Math.max(0, left), links };
  if (left <= 0) figure.tone = "danger";
  else if (left <= ENDING_SOON_DAYS) figure.tone = "warning";
  return figure;
}

async function staffFigures(db: DbOrTx, days: Days, sysid: number, schids: number[]): Promise<DashboardFigure[]> {
  const { schools: schoolFigures, students: studentFigure } = await schoolsFigures(db, days, { sysid, schids });
  return [...(await collectionFigures(db, days, { sysid, schids })), ...schoolFigures.filter((f) => f.key !== "schools_expired"), studentFigure];
}

const MALE = "1";
const FEMALE = "2";

async function schoolFigures(db: DbOrTx, days: Days, sysid: number, schid: number, endtime: string | undefined): Promise<DashboardFigure[]> {
  const [[g], [c], [st]] = await Promise.all([
    db.select({ total: count() }).from(grades).where(eq(grades.sch_id, schid)),
    db.select({ total: count() }).from(classes).where(eq(classes.sch_id, schid)),
    db
      .select({ total: count(), boys: countWhere(eq(students.sex, MALE)), girls: countWhere(eq(students.sex, FEMALE)) })
      .from(students)
      .where(eq(students.sch_id, schid)),
  ]);
  const byGender = (sex: string): DashboardLink[] => [{ entity: "student", filters: { sex } }, { report: "sexstatis" }, { report: "classstatis" }];
  const left = endtime ? daysLeft(endtime, days.today) : null;
  return [
    ...(await collectionFigures(db, days, { sysid, schids: [schid] })),
    { key: "grades", value: num(g?.total), links: [{ entity: "grade" }] },
    { key: "classes", value: num(c?.total), links: [{ entity: "classes" }, { report: "classstatis" }] },
    { key: "students", value: num(st?.total), links: [{ entity: "student" }, { report: "classstatis" }] },
    { key: "boys", value: num(st?.boys), links: byGender(MALE) },
    { key: "girls", value: num(st?.girls), links: byGender(FEMALE) },
    ...(left === null ? [] : [termDays(left, [{ route: "recharge" }])]),
  ];
}

/** The caller's figures: by who it is, within the scope it acts in (an operator may act in a provider). */
export async function dashboardOf(ctx: OperationContext): Promise<Dashboard> {
  const auth = ctx.auth;
  if (!auth) throw notFound();
  const scope = await resolveScope(ctx.db, auth, ctx.payload);
  const days = daysOf(ctx.now);
  const withCollection = async (audience: Dashboard["audience"], within: Within, figures: Promise<DashboardFigure[]>): Promise<Dashboard> => {
    const [shown, collection] = await Promise.all([figures, collectionOf(ctx.db, days, within)]);
    return { audience, figures: shown, collection };
  };
  switch (auth.userType) {
    case "school":
      return withCollection("school", { sysid: auth.sysid!, schids: [auth.schid!] }, schoolFigures(ctx.db, days, auth.sysid!, auth.schid!, auth.school?.endtime));
    case "pickup":
      return { audience: "pickup", figures: [{ key: "pickup_points", value: scope.pickupPointIds?.length ?? 0, links: [] }] };
    case "service_schadmin":
      return withCollection("staff", { sysid: scope.sysid!, schids: scope.schids ?? [] }, staffFigures(ctx.db, days, scope.sysid!, scope.schids ?? []));
    case "service":
      return withCollection("provider", { sysid: scope.sysid!, schids: null }, providerFigures(ctx.db, days, scope.sysid!, scope.provider?.endTime));
    case "system":
      if (scope.sysid !== null) return withCollection("provider", { sysid: scope.sysid, schids: null }, providerFigures(ctx.db, days, scope.sysid, scope.provider?.endTime));
      return { audience: "platform", figures: await platformFigures(ctx.db, days) };
  }
}

export function registerDashboardOperations(registry: OperationRegistry): void {
  registerWaitingOperations(registry);
  registry.add({
    path: "adminapiv2",
    method: "dashboard",
    needsToken: true,
    roles: ANY_SIGNED_IN,
    effect: "read",
    async handler(ctx) {
      return { data: { items: await dashboardOf(ctx) } };
    },
  });
}
