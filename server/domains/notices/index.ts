/**
 * What the notifier carries (server/notify/) and the operations around it:
 * - `arrearslist` {activity_id, class_id?}: an activity's unpaid bills, longest open first, with each student's
 *   guardian (the mobile number masked: `guardianphone` answers it whole, audited) and the reminders already sent
 *   for the bill;
 * - `billremind` {id}: a reminder to the guardian of an unpaid bill (a bill's action, bulk in the SPA: one call a
 *   row); a guardian reminded within the provider's interval (notifyset) is not reminded again, also when two
 *   calls come at once;
 * - `noticelist`: the notices of the caller's provider and schools, newest first, each drawn in the caller's
 *   language: the sandbox outbox;
 * - the notices of a payment and of a refund done (notifyset says who is told), written in the transaction that
 *   settles them;
 * - `notices.daily_report`: every evening, the day's collections, refunds and new bills to the users bound to the
 *   provider's daily report (getdaycountnoticeset).
 */
import { and, count, desc, eq, gte, inArray, lt, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { billEntity, billRemind } from "../../../catalogue/collection";
import { NOTICE_READERS, notifySettings } from "../../../catalogue/notices";
import { fenToYuan } from "../../../common/money";
import { addDays, businessDay, businessDayStart, businessTime } from "../../../common/term";
import { auditCall } from "../../auth/audit";
import { parseTenantId, resolveScope } from "../../auth/scope";
import { tenantFilter } from "../../auth/tenantFilter";
import type { DbOrTx } from "../../db/client";
import { activities, bills, classes, dailyReportSubscribers, feeDaily, grades, notices, qrChannels, schools, students } from "../../db/schema";
import { entityTenantConditions, listPaging, wrongState } from "../../engine/crud";
import { readSettings } from "../../engine/settings";
import { jobKinds, registerJobKind, type JobContext } from "../../jobs/registry";
import { ApiFailure, notFound } from "../../protocol/envelope";
import type { OperationContext, OperationRegistry } from "../../protocol/registry";
import { translator } from "../../lib/i18n";
import { configuredDrivers } from "../../notify/drivers";
import { activityParams, NOTICE_KINDS, NOTICE_STATUSES, noticeText, queueNotices, SEND_NOTICES, type NoticeInput } from "../../notify/notices";
import { SEND_NOTICES_EVERY_SECONDS, sendNoticesJob } from "../../notify/send";
import { maskPhone } from "./guardianPhone";

const ARREARS_READERS = billEntity.roles.list!;
const DAILY_REPORT = "notices.daily_report";
const DAILY_REPORT_EVERY_SECONDS = 600;
/** the evening's report goes from 20:00 China time */
const DAILY_REPORT_HOUR = 20;
const DAY_MS = 86_400_000;

function requiredId(payload: Record<string, unknown>, field: string): number {
  const value = payload[field];
  if (value === undefined || value === null || value === "") throw new ApiFailure("api.invalid_params", { field });
  return parseTenantId(value)!;
}

/** the school's payer page, where the guardian pays: a QR code of the activity, else one of the school */
async function payerLink(db: DbOrTx, schId: number, activityId: number): Promise<string> {
  const [code] = await db
    .select({ url: qrChannels.url })
    .from(qrChannels)
    .where(and(eq(qrChannels.sch_id, schId), eq(qrChannels.status, "1"), sql`(${qrChannels.activity_id} = ${activityId} or ${qrChannels.activity_id} is null)`))
    .orderBy(sql`${qrChannels.activity_id} is null`, qrChannels.id)
    .limit(1);
  return code?.url ?? "";
}

async function arrearsList(ctx: OperationContext) {
  const activityId = requiredId(ctx.payload, "activity_id");
  const classId = ctx.payload.class_id === undefined || ctx.payload.class_id === "" ? undefined : parseTenantId(ctx.payload.class_id);
  const { page, limit } = listPaging(ctx.payload);
  const scope = await resolveScope(ctx.db, ctx.auth!, ctx.payload);
  const where = and(
    eq(bills.activity_id, activityId),
    eq(bills.status, "unpaid"),
    ...(classId ? [eq(bills.class_id, classId)] : []),
    ...entityTenantConditions(billEntity, bills, ctx, scope),
  );
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select({
        id: bills.id,
        status: bills.status,
        student_id: bills.student_id,
        student_title: students.name,
        student_no: students.student_no,
        class_id: bills.class_id,
        class_title: sql<string>`concat_ws(' ', ${grades.title}, ${classes.title})`,
        amount: bills.amount,
        created_at: bills.created_at,
        guardian_name: students.guardian_name,
        guardian_phone: students.guardian_phone,
      })
      .from(bills)
      .innerJoin(students, eq(students.id, bills.student_id))
      .leftJoin(classes, eq(classes.id, bills.class_id))
      .leftJoin(grades, eq(grades.id, classes.grade_id))
      .where(where)
      .orderBy(bills.created_at, bills.id)
      .limit(limit)
      .offset((page - 1) * limit),
    ctx.db.select({ total: count() }).from(bills).where(where),
  ]);
  const ids = rows.map((r) => r.id);
  const reminded = ids.length
    ? await ctx.db
        .select({ billId: notices.billId, last: sql<string>`max(${notices.createdAt})`, times: count() })
        .from(notices)
        .where(and(inArray(notices.billId, ids), eq(notices.kind, "reminder")))
        .groupBy(notices.billId)
    : [];
  const byBill = new Map(reminded.map((r) => [r.billId, r]));
  const items = rows.map((r) => {
    const created = new Date(r.created_at as unknown as string);
    const last = byBill.get(r.id);
    return {
      ...r,
      // masked: the whole number is asked for one row at a time, and audited (guardianphone)
      guardian_phone: maskPhone(r.guardian_phone),
      amount: fenToYuan(Number(r.amount)),
      created_at: created.toISOString(),
      days_open: Math.max(0, Math.floor((ctx.now.getTime() - created.getTime()) / DAY_MS)),
      reminded_at: last ? new Date(last.last).toISOString() : null,
      reminders: last ? Number(last.times) : 0,
    };
  });
  return { data: { items, total: Number(total) } };
}

/** An unpaid bill with what its reminder says, or undefined when no bill has the id within the conditions. */
async function billToRemind(db: DbOrTx, id: number, conditions: SQL[]) {
  const [bill] = await db
    .select({
      id: bills.id,
      status: bills.status,
      sysid: bills.sysid,
      sch_id: bills.sch_id,
      amount: bills.amount,
      created_at: bills.created_at,
      activity_id: bills.activity_id,
      activity: activities.title,
      school: schools.title,
      student_id: students.id,
      student: students.name,
      guardian_name: students.guardian_name,
      guardian_phone: students.guardian_phone,
    })
    .from(bills)
    .innerJoin(students, eq(students.id, bills.student_id))
    .innerJoin(activities, eq(activities.id, bills.activity_id))
    .innerJoin(schools, eq(schools.id, bills.sch_id))
    .where(and(eq(bills.id, id), ...conditions));
  return bill;
}

/** The reminder of a bill to its guardian's mobile number, as written at `at`. */
async function reminderNotice(db: DbOrTx, bill: NonNullable<Awaited<ReturnType<typeof billToRemind>>>, at: Date, createdBy: string): Promise<NoticeInput> {
  const created = new Date(bill.created_at as unknown as string);
  const link = await payerLink(db, Number(bill.sch_id), Number(bill.activity_id));
  return {
    sysid: Number(bill.sysid),
    schId: Number(bill.sch_id),
    kind: "reminder",
    channel: "sms",
    recipient: String(bill.guardian_phone ?? "").trim(),
    recipientName: String(bill.guardian_name ?? ""),
    params: {
      school: String(bill.school),
      student: String(bill.student),
      activity: String(bill.activity),
      amount: fenToYuan(Number(bill.amount)),
      days: String(Math.max(0, Math.floor((at.getTime() - created.getTime()) / DAY_MS))),
      ...(link ? { link } : {}),
    },
    studentId: Number(bill.student_id),
    billId: Number(bill.id),
    createdBy,
  };
}

/** Reminds the guardians of these unpaid bills at `at`, each as `billremind` would (the demo's reminders). */
export async function remindBills(db: DbOrTx, ids: readonly number[], at: Date, createdBy: string): Promise<number> {
  const list: NoticeInput[] = [];
  for (const id of ids) {
    const bill = await billToRemind(db, id, [eq(bills.status, "unpaid")]);
    if (bill?.guardian_phone) list.push(await reminderNotice(db, bill, at, createdBy));
  }
  return queueNotices(db, list, at);
}

async function remindBill(ctx: OperationContext) {
  const id = parseTenantId(ctx.payload.id);
  if (id === undefined) throw notFound();
  const scope = await resolveScope(ctx.db, ctx.auth!, ctx.payload);
  const bill = await billToRemind(ctx.db, id, entityTenantConditions(billEntity, bills, ctx, scope));
  if (!bill) throw notFound();
  if (!billRemind.from!.includes(String(bill.status))) throw wrongState(ctx, billEntity, bill.status, billRemind.label);
  const phone = String(bill.guardian_phone ?? "").trim();
  if (!phone) throw new ApiFailure("notices.no_guardian_phone", { student: String(bill.student) });
  const sysid = Number(bill.sysid);
  const { reminder_interval_hours: hours } = await readSettings(ctx.db, notifySettings, sysid);
  const intervalMs = Number(hours) * 3_600_000;
  const notice = await reminderNotice(ctx.db, bill, ctx.now, ctx.auth?.username ?? "");
  await ctx.db.transaction(async (tx) => {
    // one guardian's reminders follow each other: two calls at once cannot both pass the interval's check
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`notice-reminder:${sysid}:${phone}`}))`);
    const [last] = await tx
      .select({ at: notices.createdAt })
      .from(notices)
      .where(and(eq(notices.sysid, sysid), eq(notices.recipient, phone), eq(notices.kind, "reminder"), gte(notices.createdAt, new Date(ctx.now.getTime() - intervalMs))))
      .orderBy(desc(notices.createdAt))
      .limit(1);
    if (last) {
      throw new ApiFailure("notices.reminded_recently", {
        name: String(bill.guardian_name || phone),
        at: businessTime(last.at).slice(0, 16),
        next: businessTime(new Date(last.at.getTime() + intervalMs)).slice(0, 16),
      });
    }
    await queueNotices(tx, [notice], ctx.now);
    await auditCall(tx, ctx, {
      action: billRemind.name,
      entity: billEntity.name,
      entityId: String(id),
      sysid,
      schId: Number(bill.sch_id),
      detail: { guardian: phone },
    });
  });
  // sent now, not at the next poll
  ctx.services.wakeJobs?.();
  return { messageKey: "notices.reminder_queued", data: { items: { id } } };
}

function oneOf(payload: Record<string, unknown>, field: string, values: readonly string[]): string | undefined {
  const value = payload[field];
  if (value === undefined || value === "") return undefined;
  if (typeof value !== "string" || !values.includes(value)) throw new ApiFailure("api.invalid_params", { field });
  return value;
}

async function noticeList(ctx: OperationContext) {
  const { page, limit } = listPaging(ctx.payload);
  const kind = oneOf(ctx.payload, "kind", NOTICE_KINDS);
  const status = oneOf(ctx.payload, "status", NOTICE_STATUSES);
  const scope = await resolveScope(ctx.db, ctx.auth!, ctx.payload);
  const conditions: SQL[] = [...tenantFilter(scope, { sysid: notices.sysid, schid: notices.schId })];
  if (kind) conditions.push(eq(notices.kind, kind));
  if (status) conditions.push(eq(notices.status, status));
  const where = and(...conditions);
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select({
        id: notices.id,
        sch_id: notices.schId,
        school: schools.title,
        kind: notices.kind,
        channel: notices.channel,
        recipient: notices.recipient,
        recipient_name: notices.recipientName,
        params: notices.params,
        status: notices.status,
        driver: notices.driver,
        error: notices.error,
        created_by: notices.createdBy,
        created_at: notices.createdAt,
        sent_at: notices.sentAt,
      })
      .from(notices)
      .leftJoin(schools, eq(schools.id, notices.schId))
      .where(where)
      .orderBy(desc(notices.id))
      .limit(limit)
      .offset((page - 1) * limit),
    ctx.db.select({ total: count() }).from(notices).where(where),
  ]);
  const items = rows.map(({ params, ...row }) => ({ ...row, text: noticeText(ctx.t, ctx.language, row.kind, params) }));
  return { data: { items, total: Number(total) } };
}

interface SettledPayment {
  sysid: number;
  sch_id: number;
  student_id: number;
  activity_id: number | null;
  /** how many activities' bills it paid: above 1, the first is `activity_id` */
  activity_count?: number;
  pay_no: string | null;
  amount: number;
  at: Date;
}

/** The guardian and the bound users a payment or a refund is told to, as notifyset says. */
async function moneyNotices(tx: DbOrTx, kind: "payment" | "refund", money: SettledPayment, key: string, now: Date): Promise<void> {
  const settings = await readSettings(tx, notifySettings, money.sysid);
  const toGuardian = settings[`${kind}_guardian`] === "Y";
  const toStaff = settings[`${kind}_staff`] === "Y";
  if (!toGuardian && !toStaff) return;
  const [facts] = await tx
    .select({ student: students.name, phone: students.guardian_phone, guardian: students.guardian_name, school: schools.title, activity: activities.title })
    .from(students)
    .innerJoin(schools, eq(schools.id, students.sch_id))
    .leftJoin(activities, eq(activities.id, sql`${money.activity_id ?? 0}`))
    .where(eq(students.id, money.student_id));
  if (!facts) return;
  const params = { school: facts.school, student: facts.student, ...activityParams(facts.activity ?? "", money.activity_count ?? 1, translator("zh")), amount: fenToYuan(money.amount), time: businessTime(money.at).slice(0, 16), pay_no: money.pay_no ?? "" };
  const base = { sysid: money.sysid, schId: money.sch_id, kind, params, studentId: money.student_id, createdBy: "system" } as const;
  const list: NoticeInput[] = [];
  const phone = String(facts.phone ?? "").trim();
  if (toGuardian && phone) list.push({ ...base, channel: "sms", recipient: phone, recipientName: String(facts.guardian ?? ""), dedupeKey: `${key}:sms:${phone}` });
  if (toStaff) {
    const bound = await tx.select().from(dailyReportSubscribers).where(eq(dailyReportSubscribers.sysid, money.sysid));
    for (const user of bound) list.push({ ...base, channel: "wechat", recipient: user.openid, recipientName: user.nickname, dedupeKey: `${key}:wechat:${user.openid}` });
  }
  await queueNotices(tx, list, now);
}

/** A payment's notices, in the transaction that settles it (settleFeeOrder). */
export function paymentNotices(tx: DbOrTx, payment: SettledPayment, now: Date): Promise<void> {
  return moneyNotices(tx, "payment", payment, `payment:${payment.pay_no}`, now);
}

/** A refund's notices, in the transaction that finishes it (applyRefundResult). */
export function refundNotices(tx: DbOrTx, refund: SettledPayment & { refund_no: string }, now: Date): Promise<void> {
  return moneyNotices(tx, "refund", refund, `refund:${refund.refund_no}`, now);
}

/** One provider's day: the money in and back (the daily figures) and the bills opened. */
export async function dayFigures(db: DbOrTx, sysid: number, day: string) {
  const [money] = await db
    .select({ orders: sql<string>`coalesce(sum(${feeDaily.orders}), 0)`, paid: sql<string>`coalesce(sum(${feeDaily.paid}), 0)`, refunded: sql<string>`coalesce(sum(${feeDaily.refunded}), 0)` })
    .from(feeDaily)
    .where(and(eq(feeDaily.sysid, sysid), eq(feeDaily.day, day)));
  const [opened] = await db
    .select({ bills: count() })
    .from(bills)
    .where(and(eq(bills.sysid, sysid), gte(bills.created_at, businessDayStart(day)), lt(bills.created_at, businessDayStart(addDays(day, 1)))));
  const paid = Number(money?.paid ?? 0);
  const refunded = Number(money?.refunded ?? 0);
  return { day, orders: String(Number(money?.orders ?? 0)), paid: fenToYuan(paid), refunded: fenToYuan(refunded), net: fenToYuan(paid - refunded), bills: String(opened?.bills ?? 0) };
}

/**
 * `notices.daily_report` (every ten minutes): from 20:00 China time, each provider's bound users get the day's
 * report once (its dedupe key is the provider, the day and the user, so any number of runs and processes write it
 * once).
 */
export async function dailyReportJob({ db, now }: JobContext): Promise<{ queued: number }> {
  if (Number(businessTime(now).slice(11, 13)) < DAILY_REPORT_HOUR) return { queued: 0 };
  const day = businessDay(now);
  const bound = await db.select().from(dailyReportSubscribers).orderBy(dailyReportSubscribers.sysid, dailyReportSubscribers.id);
  let queued = 0;
  for (const sysid of new Set(bound.map((b) => b.sysid))) {
    const figures = await dayFigures(db, sysid, day);
    const list: NoticeInput[] = bound
      .filter((b) => b.sysid === sysid)
      .map((user) => ({ sysid, kind: "daily_report", channel: "wechat", recipient: user.openid, recipientName: user.nickname, params: figures, dedupeKey: `daily_report:${sysid}:${day}:${user.openid}`, createdBy: "system" }));
    queued += await db.transaction((tx) => queueNotices(tx, list, now));
  }
  return { queued };
}

export function registerNoticeOperations(registry: OperationRegistry): void {
  const paged = { page: z.unknown().optional(), limit: z.unknown().optional() };
  registry.add({ path: "adminapiv2", method: "arrearslist", needsToken: true, roles: ARREARS_READERS, effect: "read", schema: z.looseObject(paged), handler: arrearsList });
  registry.add({ path: "adminapiv2", method: billRemind.name, needsToken: true, roles: billRemind.roles, effect: "write", handler: remindBill });
  registry.add({ path: "adminapiv2", method: "noticelist", needsToken: true, roles: NOTICE_READERS, effect: "read", schema: z.looseObject(paged), handler: noticeList });
  if (!jobKinds.get(SEND_NOTICES)) registerJobKind(SEND_NOTICES, sendNoticesJob((ctx) => configuredDrivers(ctx.services)), { everySeconds: SEND_NOTICES_EVERY_SECONDS });
  if (!jobKinds.get(DAILY_REPORT)) registerJobKind(DAILY_REPORT, dailyReportJob, { everySeconds: DAILY_REPORT_EVERY_SECONDS });
}
