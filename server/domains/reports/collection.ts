/**
 * The figures of the fee statistics pages (catalogue/statistics.ts). The money comes from one ledger, the view
 * `fee_ledger` (payments in at their payment time, refunds done out at their success time), read through its daily
 * figures (`fee_daily`) for every dimension above the student and a period of whole days, so the same figure is
 * equal on every page and to what payrecord and refundrecord list; the bills from `bills`, as they stand whatever
 * the period (the pages say so).
 * Each is one grouped query by the dimension chosen, under the tenant's and the filters' conditions; the rows are
 * then titled in one query of the dimension's records, in their order (grades by their order, classes within
 * theirs, students by class and number), or by day or month.
 */
import { and, asc, count, eq, gte, inArray, lte, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { FieldDecl, ReportDecl } from "../../../common/catalogue";
import { refTitleKey } from "../../../common/fieldRules";
import { isBlank } from "../../../common/fieldExtras";
import { isCalendarDay } from "../../../common/term";
import { activityReport, classesReport, classStudentsReport, gradeReport, OWING, payReport, payServiceReport, PERIOD, schoolReport, studentReport } from "../../../catalogue/statistics";
import type { DbOrTx } from "../../db/client";
import { activities, bills, classes, feeDaily, feeLedger, grades, providers, schools, students } from "../../db/schema";
import type { ReportQuery, ReportRow, ReportSource, ReportSources } from "../../engine/reports";
import { columnOf } from "./students";

/**
 * A timestamp's business day as a whole number (days since 1970-01-01 in China, whose time has no summer shift):
 * arithmetic, cheaper over a million rows than a time zone's conversion and a text per row. A month's figures are
 * its days' added up.
 */
const BUSINESS_OFFSET_SECONDS = 8 * 3600;
const dayNumberOf = (column: AnyPgColumn) => sql`floor((extract(epoch from ${column}) + ${sql.raw(String(BUSINESS_OFFSET_SECONDS))}) / 86400)::int`;
const dayOfNumber = (n: number) => new Date(n * 86_400_000).toISOString().slice(0, 10);

const ledgerColumns = columnOf(
  {
    sysid: feeLedger.sysid,
    sch_id: feeLedger.sch_id,
    grade_id: feeLedger.grade_id,
    class_id: feeLedger.class_id,
    student_id: feeLedger.student_id,
    activity_id: feeLedger.activity_id,
    [PERIOD]: feeLedger.at,
  } as unknown as Record<string, AnyPgColumn>,
  "fee_ledger",
);

const billColumns = columnOf(
  {
    sysid: bills.sysid,
    sch_id: bills.sch_id,
    grade_id: classes.grade_id,
    class_id: bills.class_id,
    student_id: bills.student_id,
    activity_id: bills.activity_id,
    [PERIOD]: bills.created_at,
  },
  "bills",
);

const num = (value: unknown) => Number(value ?? 0) || 0;

const TIME_BUCKETS = new Set(["day", "month"]);

/** The grouping key of a dimension over a table's columns: a reference's id, or the day number of the period. */
function keyOf(dimension: FieldDecl, column: (name: string) => AnyPgColumn): SQL {
  return TIME_BUCKETS.has(dimension.name) ? dayNumberOf(column(PERIOD)) : sql`${column(dimension.name)}`;
}

/** Rows by key as the dimension names them: a day number as its day or its month, the figures of one added up. */
function byDimensionKey(dimension: FieldDecl, rows: { key: string; figures: ReportRow }[]): Map<string, ReportRow> {
  const out = new Map<string, ReportRow>();
  for (const { key, figures } of rows) {
    const named = TIME_BUCKETS.has(dimension.name) ? dayOfNumber(Number(key)).slice(0, dimension.name === "month" ? 7 : 10) : key;
    const held = out.get(named);
    if (!held) out.set(named, { ...figures });
    else for (const [name, value] of Object.entries(figures)) held[name] = num(held[name]) + num(value);
  }
  return out;
}

const dailyColumns = columnOf(
  {
    sysid: feeDaily.sysid,
    sch_id: feeDaily.sch_id,
    grade_id: classes.grade_id,
    class_id: feeDaily.class_id,
    activity_id: feeDaily.activity_id,
  },
  "fee_daily",
);

/** The period's bounds as business days, when they are days (an exact time is read from the ledger itself). */
function periodDays(payload: Record<string, unknown>): { start?: string; end?: string } | undefined {
  const bounds: { start?: string; end?: string } = {};
  for (const [end, name] of [["start", `${PERIOD}_start`], ["end", `${PERIOD}_end`]] as const) {
    const value = payload[name];
    if (isBlank(value)) continue;
    if (typeof value !== "string" || !isCalendarDay(value.trim())) return undefined;
    bounds[end] = value.trim();
  }
  return bounds;
}

/**
 * The money by the dimension's key from the daily figures: a few rows per class and day. For a dimension above
 * the student and a period of whole days; the figures are the ledger's added up in the same transactions.
 */
async function moneyFromDaily(db: DbOrTx, query: ReportQuery, days: { start?: string; end?: string }): Promise<Map<string, ReportRow>> {
  const key = TIME_BUCKETS.has(query.dimension.name) ? sql`(${feeDaily.day} - date '1970-01-01')` : sql`${dailyColumns(query.dimension.name)}`;
  const selection = {
    key: sql<string>`${key}::text`,
    orders: sql<number>`coalesce(sum(${feeDaily.orders}), 0)`.mapWith(Number),
    paid_amount: sql<number>`coalesce(sum(${feeDaily.paid}), 0)`.mapWith(Number),
    refund_amount: sql<number>`coalesce(sum(${feeDaily.refunded}), 0)`.mapWith(Number),
  };
  const where = and(
    query.where(dailyColumns, [PERIOD]),
    days.start ? gte(feeDaily.day, days.start) : undefined,
    days.end ? lte(feeDaily.day, days.end) : undefined,
  );
  // a class's grade is read only when a grade is
  const byGrade = query.dimension.name === "grade_id" || !isBlank(query.payload.grade_id);
  const rows = byGrade
    ? await db.select(selection).from(feeDaily).innerJoin(classes, eq(classes.id, feeDaily.class_id)).where(where).groupBy(key)
    : await db.select(selection).from(feeDaily).where(where).groupBy(key);
  return moneyRows(query, rows);
}

function moneyRows(query: ReportQuery, rows: { key: string; orders: number; paid_amount: number; refund_amount: number }[]): Map<string, ReportRow> {
  return byDimensionKey(
    query.dimension,
    rows.map((r) => ({ key: r.key, figures: { orders: r.orders, paid_amount: r.paid_amount, refund_amount: r.refund_amount, net_amount: r.paid_amount - r.refund_amount } })),
  );
}

/** The money by the dimension's key, in fen: from the daily figures where they answer, else from the ledger. */
async function moneyBy(db: DbOrTx, query: ReportQuery): Promise<Map<string, ReportRow>> {
  const days = query.dimension.name === "student_id" ? undefined : periodDays(query.payload);
  if (days) return moneyFromDaily(db, query, days);
  const key = keyOf(query.dimension, ledgerColumns);
  const rows = await db
    .select({
      key: sql<string>`${key}::text`,
      orders: sql<number>`coalesce(sum(${feeLedger.orders}), 0)`.mapWith(Number),
      paid_amount: sql<number>`coalesce(sum(${feeLedger.paid}), 0)`.mapWith(Number),
      refund_amount: sql<number>`coalesce(sum(${feeLedger.refunded}), 0)`.mapWith(Number),
    })
    .from(feeLedger)
    .where(query.where(ledgerColumns))
    .groupBy(key);
  return moneyRows(query, rows);
}

/** bills that count: neither waived nor closed */
const countedBill = sql`${bills.status} not in ('waived', 'closed')`;
/** bills paid at some time (a refund since does not unpay it) */
const paidBill = sql`${bills.status} in ('paid', 'part_refunded', 'refunded')`;

/** The bills by the dimension's key, as they stand whatever the period. */
async function billsBy(db: DbOrTx, query: ReportQuery): Promise<Map<string, ReportRow>> {
  const key = keyOf(query.dimension, billColumns);
  const selection = {
    key: sql<string>`${key}::text`,
    bills: count(),
    paid_bills: sql<number>`count(*) filter (where ${paidBill})`.mapWith(Number),
    unpaid_amount: sql<number>`coalesce(sum(${bills.amount}) filter (where ${bills.status} = 'unpaid'), 0)`.mapWith(Number),
  };
  const where = and(countedBill, query.where(billColumns, [PERIOD]));
  // a bill's grade is its class's: the class is read only when a grade is
  const byGrade = query.dimension.name === "grade_id" || !isBlank(query.payload.grade_id);
  const rows = byGrade
    ? await db.select(selection).from(bills).innerJoin(classes, eq(classes.id, bills.class_id)).where(where).groupBy(key)
    : await db.select(selection).from(bills).where(where).groupBy(key);
  return byDimensionKey(
    query.dimension,
    rows.map((r) => ({ key: r.key, figures: { bills: r.bills, paid_bills: r.paid_bills, unpaid_amount: r.unpaid_amount } })),
  );
}

type Titled = { id: number; title: string };

/** The titles of the records the rows name, in the order the rows are shown. */
async function titled(db: DbOrTx, dimension: string, ids: number[]): Promise<Titled[]> {
  if (ids.length === 0) return [];
  switch (dimension) {
    case "sysid":
      return db.select({ id: providers.id, title: providers.title }).from(providers).where(inArray(providers.id, ids)).orderBy(asc(providers.id));
    case "sch_id":
      return db.select({ id: schools.id, title: schools.title }).from(schools).where(inArray(schools.id, ids)).orderBy(asc(schools.id));
    case "activity_id":
      return db.select({ id: activities.id, title: activities.title }).from(activities).where(inArray(activities.id, ids)).orderBy(asc(activities.id));
    case "grade_id":
      return db.select({ id: grades.id, title: grades.title }).from(grades).where(inArray(grades.id, ids)).orderBy(asc(grades.sort), asc(grades.id));
    case "class_id":
      return db
        .select({ id: classes.id, title: sql<string>`${grades.title} || ' / ' || ${classes.title}` })
        .from(classes)
        .innerJoin(grades, eq(grades.id, classes.grade_id))
        .where(inArray(classes.id, ids))
        .orderBy(asc(grades.sort), asc(grades.id), asc(classes.id));
    case "student_id":
      return db
        .select({ id: students.id, title: sql<string>`${students.name} || ' (' || ${students.student_no} || ')'` })
        .from(students)
        .where(inArray(students.id, ids))
        .orderBy(asc(students.class_id), asc(students.student_no), asc(students.id));
    default:
      throw new Error(`no titles for the dimension ${dimension}`);
  }
}

const ZERO_MONEY: ReportRow = { orders: 0, paid_amount: 0, refund_amount: 0, net_amount: 0 };
const ZERO_BILLS: ReportRow = { bills: 0, paid_bills: 0, unpaid_amount: 0 };

/** The rows of the keys either query found, titled and ordered; a time bucket's rows by time. */
async function mergedRows(db: DbOrTx, dimension: FieldDecl, parts: Map<string, ReportRow>[], zero: ReportRow): Promise<ReportRow[]> {
  const keys = [...new Set(parts.flatMap((part) => [...part.keys()]))].filter((key) => key !== "null");
  const figures = (key: string) => Object.assign({}, zero, ...parts.map((part) => part.get(key) ?? {})) as ReportRow;
  if (dimension.type !== "ref") return keys.sort().map((key) => ({ [dimension.name]: key, ...figures(key) }));
  const records = await titled(db, dimension.name, keys.map(Number));
  return records.map((record) => ({ [dimension.name]: record.id, [refTitleKey(dimension.name)]: record.title, ...figures(String(record.id)) }));
}

/** The money alone (the pay counts). */
const moneySource: ReportSource = {
  async rows(db, query) {
    return mergedRows(db, query.dimension, [await moneyBy(db, query)], ZERO_MONEY);
  },
};

/** The money and the bills (the collection pages); `owing` keeps the rows with a bill still to pay. */
const collectionSource: ReportSource = {
  ownFilters: [OWING],
  async rows(db, query) {
    const [money, billed] = await Promise.all([moneyBy(db, query), billsBy(db, query)]);
    const rows = await mergedRows(db, query.dimension, [money, billed], { ...ZERO_MONEY, ...ZERO_BILLS });
    return query.payload[OWING] === "Y" ? rows.filter((row) => num(row.unpaid_amount) > 0) : rows;
  },
};

const reportsOfSource = (source: ReportSource, reports: readonly ReportDecl[]): ReportSources => Object.fromEntries(reports.map((r) => [r.name, source]));

export const collectionReportSources: ReportSources = {
  ...reportsOfSource(moneySource, [payServiceReport, payReport]),
  ...reportsOfSource(collectionSource, [schoolReport, activityReport, gradeReport, classesReport, classStudentsReport, studentReport]),
};
