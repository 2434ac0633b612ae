/**
 * What the open API reads and writes for its client, always within the client's provider (and its one school when
 * it has one): its schools and activities, students pushed (added or updated by their number, all or none), bills
 * of an activity pushed (through the bill import's checks, log and audit), and fee orders and payments read by time,
 * a page at a time in id order.
 */
import { and, asc, eq, gt, gte, inArray, lt, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { z } from "zod";
import { studentEntity } from "../../../catalogue/schools";
import { fenToYuan } from "../../../common/money";
import { writeAudit, accountActor } from "../../auth/audit";
import type { Db, DbOrTx } from "../../db/client";
import { activities, activityItems, classes, feeOrderLines, feeOrders, grades, paymentOrders, refunds, schools, students } from "../../db/schema";
import { fieldErrors, fieldsSchema } from "../../engine/fieldSchemas";
import { lockSchoolImports, type SheetRow } from "../../engine/imports";
import { paymentKindsPaying } from "../../payments/kinds";
import type { OperationContext } from "../../protocol/registry";
import { billItemTitles, importBillRows } from "../collection/billImport";
import { OpenApiError, type ApiCaller, type InputError } from "./access";

export const MAX_STUDENTS_PER_PUSH = 500;
export const MAX_BILLS_PER_PUSH = 2000;
export const MAX_PAGE = 200;
/** rows a statement writes: a few parameters each, well under PostgreSQL's 65,535 */
const WRITE_BATCH = 500;

// -- request shapes, also the document's (./document.ts) -----------------------------------------------------------

const id = z.coerce.number().int().positive().max(2_147_483_647);

export const studentInput = z.object({
  student_no: z.string().min(1).max(32).describe("the student's number, unique in the school: the student is added or updated by it"),
  name: z.string().min(1).max(50),
  sex: z.enum(["1", "2"]).describe("1 male, 2 female"),
  grade: z.string().min(1).max(50).describe("the grade's title, as the console names it"),
  class: z.string().min(1).max(50).describe("the class's title within its grade"),
  guardian_name: z.string().max(50).optional(),
  guardian_phone: z.string().max(20).optional(),
  id_card: z.string().max(18).optional(),
  status: z.enum(["1", "0"]).optional().describe("1 in school (the default for a new student), 0 left"),
});

export const studentsBody = z.object({
  sch_id: id.optional().describe("the school; a client bound to one school may leave it out"),
  students: z.array(studentInput).min(1).max(MAX_STUDENTS_PER_PUSH),
});

const amount = z.union([z.string().regex(/^\d{1,9}(\.\d{1,2})?$/), z.number().nonnegative()]);

export const billsBody = z.object({
  bills: z
    .array(
      z.object({
        student_no: z.string().min(1).max(32),
        items: z.record(z.string().max(60), amount).describe("each fee item's amount in yuan, by the item's title; an item left out bills what opening the activity would"),
      }),
    )
    .min(1)
    .max(MAX_BILLS_PER_PUSH),
});

export const timeQuery = z.object({
  since: z.iso.datetime({ offset: true }).describe("from this time (ISO 8601), included"),
  until: z.iso.datetime({ offset: true }).optional().describe("to this time, excluded; default: no end"),
  sch_id: id.optional(),
  after_id: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional().describe("the `next_after_id` of the page before"),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE).optional().describe(`records a page, at most ${MAX_PAGE} (default 100)`),
});
export type TimeQuery = z.infer<typeof timeQuery>;

export const activitiesQuery = z.object({ sch_id: id.optional(), status: z.enum(["draft", "open", "closed"]).optional() });

// -- tenancy ---------------------------------------------------------------------------------------------------------

/** The condition keeping a table's rows to the caller's tenant (and to the school asked for, inside it). */
function tenantOf(caller: ApiCaller, sysid: AnyPgColumn, schId: AnyPgColumn, asked?: number): SQL {
  const conditions = [eq(sysid, caller.sysid)];
  if (caller.schId !== null) conditions.push(eq(schId, caller.schId));
  if (asked !== undefined) conditions.push(eq(schId, asked));
  return and(...conditions)!;
}

const notFound = () => new OpenApiError(404, "not_found", "openapi.error.not_found");

/** The one school a write acts in: the client's own, or the one asked for among its provider's. */
async function schoolWrittenIn(db: Db, caller: ApiCaller, asked: number | undefined): Promise<number> {
  if (caller.schId !== null) {
    if (asked !== undefined && asked !== caller.schId) throw notFound();
    return caller.schId;
  }
  if (asked === undefined) throw new OpenApiError(400, "invalid_request", "openapi.error.school_required", {}, "sch_id");
  const [school] = await db.select({ id: schools.id }).from(schools).where(and(eq(schools.id, asked), eq(schools.sysid, caller.sysid)));
  if (!school) throw notFound();
  return school.id;
}

// -- reads -----------------------------------------------------------------------------------------------------------

export async function listSchools(db: Db, caller: ApiCaller) {
  const rows = await db
    .select({ id: schools.id, title: schools.title, status: schools.status, endtime: schools.endtime })
    .from(schools)
    .where(tenantOf(caller, schools.sysid, schools.id))
    .orderBy(asc(schools.id))
    .limit(1000);
  return { data: rows };
}

export async function listActivities(db: Db, caller: ApiCaller, query: z.infer<typeof activitiesQuery>) {
  const rows = await db
    .select({ id: activities.id, sch_id: activities.sch_id, title: activities.title, status: activities.status, start_date: activities.start_date, end_date: activities.end_date })
    .from(activities)
    .where(and(tenantOf(caller, activities.sysid, activities.sch_id, query.sch_id), query.status ? eq(activities.status, query.status) : undefined))
    .orderBy(asc(activities.id))
    .limit(1000);
  const items = rows.length === 0 ? [] : await db.select({ activity_id: activityItems.activity_id, title: activityItems.title, amount: activityItems.amount, required: activityItems.required }).from(activityItems).where(inArray(activityItems.activity_id, rows.map((r) => r.id))).orderBy(activityItems.sort, activityItems.id);
  const titles = new Map<number, { title: string; amount: string; required: boolean }[]>();
  for (const item of items) titles.set(item.activity_id, [...(titles.get(item.activity_id) ?? []), { title: item.title, amount: fenToYuan(Number(item.amount)), required: item.required === "Y" }]);
  return { data: rows.map((r) => ({ ...r, items: titles.get(r.id) ?? [] })) };
}

function timeRange(query: TimeQuery): { since: Date; until: Date | undefined; limit: number } {
  const since = new Date(query.since);
  const until = query.until ? new Date(query.until) : undefined;
  if (until && until <= since) throw new OpenApiError(400, "invalid_request", "openapi.error.range", {}, "until");
  return { since, until, limit: query.limit ?? 100 };
}

/** A page's answer: its records and where the next one starts (null on the last). */
function page<T extends { id: number }>(rows: T[], limit: number) {
  return { data: rows, next_after_id: rows.length === limit ? rows[rows.length - 1].id : null };
}

/** Fee orders as the API answers them, with their lines and students, in two queries whatever their number. */
export async function feeOrdersJson(db: DbOrTx, where: SQL, limit: number) {
  const rows = await db
    .select({
      id: feeOrders.id,
      order_no: feeOrders.order_no,
      pay_no: feeOrders.pay_no,
      sch_id: feeOrders.sch_id,
      activity_id: feeOrders.activity_id,
      student_id: feeOrders.student_id,
      student_no: students.student_no,
      student_name: students.name,
      amount: feeOrders.amount,
      refunded_amount: feeOrders.refunded_amount,
      status: feeOrders.status,
      gateway: feeOrders.gateway,
      transaction_id: feeOrders.transaction_id,
      paid_at: feeOrders.paid_at,
      created_at: feeOrders.created_at,
    })
    .from(feeOrders)
    .leftJoin(students, eq(students.id, feeOrders.student_id))
    .where(where)
    .orderBy(asc(feeOrders.id))
    .limit(limit);
  const lines =
    rows.length === 0
      ? []
      : await db
          .select({ order_id: feeOrderLines.order_id, bill_id: feeOrderLines.bill_id, title: feeOrderLines.title, amount: feeOrderLines.amount, refunded_amount: feeOrderLines.refunded_amount })
          .from(feeOrderLines)
          .where(inArray(feeOrderLines.order_id, rows.map((r) => r.id)))
          .orderBy(feeOrderLines.order_id, feeOrderLines.sort);
  const linesOf = new Map<number, object[]>();
  for (const { order_id, ...line } of lines) {
    linesOf.set(order_id, [...(linesOf.get(order_id) ?? []), { ...line, amount: fenToYuan(Number(line.amount)), refunded_amount: fenToYuan(Number(line.refunded_amount)) }]);
  }
  return rows.map(({ student_id, student_no, student_name, ...order }) => ({
    ...order,
    amount: fenToYuan(Number(order.amount)),
    refunded_amount: fenToYuan(Number(order.refunded_amount)),
    paid_at: order.paid_at?.toISOString() ?? null,
    created_at: order.created_at.toISOString(),
    student: { id: student_id, student_no, name: student_name },
    lines: linesOf.get(order.id) ?? [],
  }));
}

/** `GET /orders`: the fee orders made in the time range. */
export async function listOrders(db: Db, caller: ApiCaller, query: TimeQuery) {
  const { since, until, limit } = timeRange(query);
  const where = and(
    tenantOf(caller, feeOrders.sysid, feeOrders.sch_id, query.sch_id),
    gte(feeOrders.created_at, since),
    until ? lt(feeOrders.created_at, until) : undefined,
    query.after_id ? gt(feeOrders.id, query.after_id) : undefined,
  )!;
  return page(await feeOrdersJson(db, where, limit), limit);
}

/** A payment as the API answers it (and a webhook carries it). */
export function paymentJson(order: typeof paymentOrders.$inferSelect) {
  return {
    id: order.id,
    pay_no: order.payNo,
    kind: order.kind,
    sch_id: order.schId,
    title: order.title,
    amount: fenToYuan(order.totalFeeFen),
    gateway: order.gateway,
    transaction_id: order.transactionId,
    paid_at: order.paidAt?.toISOString() ?? null,
  };
}

/** `GET /payments`: the payments of fees and of the shop received in the time range. */
export async function listPayments(db: Db, caller: ApiCaller, query: TimeQuery) {
  const { since, until, limit } = timeRange(query);
  const rows = await db
    .select()
    .from(paymentOrders)
    .where(
      and(
        tenantOf(caller, paymentOrders.sysid, paymentOrders.schId, query.sch_id),
        inArray(paymentOrders.kind, paymentKindsPaying("school_channel")),
        eq(paymentOrders.status, "SUCCESS"),
        gte(paymentOrders.paidAt, since),
        until ? lt(paymentOrders.paidAt, until) : undefined,
        query.after_id ? gt(paymentOrders.id, query.after_id) : undefined,
      ),
    )
    .orderBy(asc(paymentOrders.id))
    .limit(limit);
  return page(rows.map(paymentJson), limit);
}

/** A refund as the API answers it (and a webhook carries it). */
export function refundJson(refund: typeof refunds.$inferSelect) {
  return {
    id: refund.id,
    refund_no: refund.refund_no,
    pay_no: refund.pay_no,
    kind: refund.payment_kind,
    sch_id: refund.sch_id,
    order_id: refund.order_id,
    amount: fenToYuan(Number(refund.amount)),
    status: refund.status,
    success_time: refund.success_time?.toISOString() ?? null,
  };
}

/** `GET /refunds`: the refunds done in the time range. */
export async function listRefunds(db: Db, caller: ApiCaller, query: TimeQuery) {
  const { since, until, limit } = timeRange(query);
  const rows = await db
    .select()
    .from(refunds)
    .where(
      and(
        tenantOf(caller, refunds.sysid, refunds.sch_id, query.sch_id),
        eq(refunds.status, "success"),
        gte(refunds.success_time, since),
        until ? lt(refunds.success_time, until) : undefined,
        query.after_id ? gt(refunds.id, query.after_id) : undefined,
      ),
    )
    .orderBy(asc(refunds.id))
    .limit(limit);
  return page(rows.map(refundJson), limit);
}

// -- writes ----------------------------------------------------------------------------------------------------------

/** Refused as a whole, each error naming the value at fault. */
export class InputErrors extends OpenApiError {
  constructor(errors: InputError[]) {
    super(422, "invalid_request", "openapi.error.rows", { count: errors.length }, undefined, {}, errors);
  }
}

/** the student's fields as the console's form checks them, the grade and class given by title instead */
const studentChecks = fieldsSchema(
  studentEntity.fields.filter((f) => ["name", "student_no", "sex", "guardian_name", "guardian_phone", "id_card", "status"].includes(f.name)),
  "add",
);

/** `POST /students`: each student added, or updated by their number, in one transaction or not at all. */
export async function pushStudents(ctx: OperationContext, caller: ApiCaller, body: z.infer<typeof studentsBody>) {
  const schId = await schoolWrittenIn(ctx.db, caller, body.sch_id);
  const errors: InputError[] = [];
  const seen = new Map<string, number>();
  const checked = body.students.map((student, i) => {
    const parsed = studentChecks.safeParse({ ...student, status: student.status ?? "1" });
    if (!parsed.success) for (const e of fieldErrors(studentEntity, parsed.error, ctx.t)) errors.push({ field: `students[${i}].${e.field}`, message: e.message });
    const first = seen.get(student.student_no);
    if (first !== undefined) errors.push({ field: `students[${i}].student_no`, message: ctx.t("openapi.error.duplicate", { value: student.student_no, index: first }) });
    else seen.set(student.student_no, i);
    return { ...student, record: parsed.success ? parsed.data : {} };
  });
  if (errors.length > 0) throw new InputErrors(errors);

  const outcome = await ctx.db.transaction(async (tx) => {
    // one writer of the school's students at a time, the spreadsheet imports included
    await lockSchoolImports(tx, schId);
    const gradeRows = await tx.select({ id: grades.id, title: grades.title }).from(grades).where(and(eq(grades.sch_id, schId), inArray(grades.title, [...new Set(checked.map((s) => s.grade))])));
    const gradeOf = new Map(gradeRows.map((g) => [g.title, g.id]));
    const classRows = gradeRows.length === 0 ? [] : await tx.select({ id: classes.id, title: classes.title, grade_id: classes.grade_id }).from(classes).where(inArray(classes.grade_id, gradeRows.map((g) => g.id)));
    const classOf = new Map(classRows.map((c) => [`${c.grade_id}\u0000${c.title}`, c.id]));
    const existing = await tx
      .select({ id: students.id, student_no: students.student_no })
      .from(students)
      .where(and(eq(students.sch_id, schId), inArray(students.student_no, [...seen.keys()])))
      .for("update");
    const idOf = new Map(existing.map((s) => [s.student_no, s.id]));
    const rows = checked.map((student, i) => {
      const gradeId = gradeOf.get(student.grade);
      const classId = gradeId === undefined ? undefined : classOf.get(`${gradeId}\u0000${student.class}`);
      if (gradeId === undefined) errors.push({ field: `students[${i}].grade`, message: ctx.t("openapi.error.grade_missing", { value: student.grade }) });
      else if (classId === undefined) errors.push({ field: `students[${i}].class`, message: ctx.t("openapi.error.class_missing", { value: student.class, grade: student.grade }) });
      // a status left out keeps a known student's (a new one is in school)
      return { ...student.record, status: student.status, grade_id: gradeId, class_id: classId, sch_id: schId, sysid: caller.sysid } as typeof students.$inferInsert;
    });
    if (errors.length > 0) throw new InputErrors(errors);
    const fresh = rows.filter((r) => !idOf.has(r.student_no)).map((r) => ({ ...r, status: r.status ?? "1" }));
    const known = rows.filter((r) => idOf.has(r.student_no));
    for (let i = 0; i < fresh.length; i += WRITE_BATCH) await tx.insert(students).values(fresh.slice(i, i + WRITE_BATCH));
    // the known ones in a statement a batch; a value left out (null) keeps what the student has
    for (let i = 0; i < known.length; i += WRITE_BATCH) {
      const values = sql.join(
        known
          .slice(i, i + WRITE_BATCH)
          .map(
            (r) =>
              sql`(${idOf.get(r.student_no)!}::integer, ${r.name}::varchar, ${r.sex}::varchar, ${r.grade_id}::integer, ${r.class_id}::integer, ${r.guardian_name ?? null}::varchar, ${r.guardian_phone ?? null}::varchar, ${r.id_card ?? null}::varchar, ${r.status ?? null}::varchar)`,
          ),
        sql`, `,
      );
      await tx.execute(sql`
        UPDATE ${students} AS s SET name = v.name, sex = v.sex, grade_id = v.grade_id, class_id = v.class_id,
          guardian_name = coalesce(v.guardian_name, s.guardian_name), guardian_phone = coalesce(v.guardian_phone, s.guardian_phone),
          id_card = coalesce(v.id_card, s.id_card), status = coalesce(v.status, s.status)
        FROM (VALUES ${values}) AS v(id, name, sex, grade_id, class_id, guardian_name, guardian_phone, id_card, status)
        WHERE s.id = v.id`);
    }
    await writeAudit(tx, accountActor({ userId: null, username: ctx.auth!.username }, ctx.ip), {
      action: "openapi_students",
      entity: studentEntity.name,
      entityId: "",
      detail: { client_id: caller.clientId, created: fresh.length, updated: known.length },
      sysid: caller.sysid,
      schId,
    });
    return { created: fresh.length, updated: known.length };
  });
  const ids = await ctx.db.select({ id: students.id, student_no: students.student_no }).from(students).where(and(eq(students.sch_id, schId), inArray(students.student_no, [...seen.keys()])));
  return { data: { sch_id: schId, ...outcome, students: ids } };
}

/** `POST /activities/{id}/bills`: the bills of an activity, as its bill import takes them (unpaid ones replaced). */
export async function pushBills(ctx: OperationContext, caller: ApiCaller, activityId: number, body: z.infer<typeof billsBody>) {
  const [activity] = await ctx.db.select({ id: activities.id }).from(activities).where(and(eq(activities.id, activityId), tenantOf(caller, activities.sysid, activities.sch_id)));
  if (!activity) throw notFound();
  const titles = await billItemTitles(ctx.db, activityId);
  const errors: InputError[] = [];
  body.bills.forEach((bill, i) => {
    for (const title of Object.keys(bill.items)) {
      if (!titles.includes(title)) errors.push({ field: `bills[${i}].items.${title}`, message: ctx.t("openapi.error.item_unknown", { value: title, items: titles.join(", ") }) });
    }
  });
  if (errors.length > 0) throw new InputErrors(errors);
  // the rows a sheet of the bill import would hold: a header, then a row per bill (row n is bills[n - 1])
  const rows: SheetRow[] = [
    { row: 0, values: ["student_no", ...titles] },
    ...body.bills.map((bill, i) => ({ row: i + 1, values: [bill.student_no, ...titles.map((title) => (bill.items[title] === undefined ? "" : String(bill.items[title])))] })),
  ];
  const result = await importBillRows(ctx, activityId, rows, `openapi:${caller.clientId}`);
  const answer = result.data?.items as { log_id?: number; total: number; imported: number } | undefined;
  return { data: { activity_id: activityId, log_id: answer?.log_id ?? null, total: answer?.total ?? 0, imported: answer?.imported ?? 0 } };
}

/** A bill import's row errors as the request's values: row n is bills[n - 1]. */
export function billRowErrors(errors: readonly { row: number; field: string; message: string }[]): InputError[] {
  return errors.map((e) => {
    const item = /^item_\d+$/.test(e.field) ? "items" : e.field;
    const at = e.row >= 1 ? `bills[${e.row - 1}]` : "bills";
    return { field: item === "" ? at : `${at}.${item}`, message: e.message };
  });
}
