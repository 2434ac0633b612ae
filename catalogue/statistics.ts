/**
 * The statistics pages of fee collection, both generations (spec 2.2 / 2.3 data statistics): the money in and out
 * (paycount_service, paycount) and collection by school, activity, grade, class and student (schoolcount,
 * activitycount, gradecount, classescount, classescount_info, studentcount). Every page reads one ledger of the
 * money (payments in, refunds done out, server/domains/reports/collection.ts) and the bills, so a figure is the
 * same on every page and equals what payrecord and refundrecord list. Each has a period (today, 7 days, this month,
 * custom), the dimensions it can be read by, a drill-down to the next level (school, grade, class, the students
 * owing), a chart, a table with totals and an export through the download centre.
 */
import type { CatalogueDomain, FieldDecl, ReportDecl, ReportMeasure } from "../common/catalogue";
import { yesNo } from "./shared";

const PROVIDER_READERS = ["system", "service", "servicev2", "service_schadminv2"];
const PAY_READERS = ["system", "service", "school", "servicev2", "service_schadminv2"];
const PROVIDER_COLLECTION_READERS = ["service", "servicev2", "service_schadminv2"];
const SCHOOL_READERS = ["school", "schoolv2"];

const byProvider: FieldDecl = { name: "sysid", type: "ref", ref: { entity: "service" }, label: "reports.dimension.provider" };
export const bySchool: FieldDecl = { name: "sch_id", type: "ref", ref: { entity: "school" }, label: "reports.dimension.school" };
const byActivity: FieldDecl = { name: "activity_id", type: "ref", ref: { entity: "activity" }, label: "reports.dimension.activity" };
const byGrade: FieldDecl = { name: "grade_id", type: "ref", ref: { entity: "grade" }, label: "reports.dimension.grade" };
// each row is titled "grade / class"
const byClass: FieldDecl = { name: "class_id", type: "ref", ref: { entity: "classes" }, label: "reports.dimension.class" };
const byStudent: FieldDecl = { name: "student_id", type: "ref", ref: { entity: "student" }, label: "reports.dimension.student" };
export const byDay: FieldDecl = { name: "day", type: "date", label: "reports.dimension.day" };
export const byMonth: FieldDecl = { name: "month", type: "string", label: "reports.dimension.month" };

/** the period: when the money came in or went back (the bills are counted as they stand) */
export const PERIOD = "at";
const periodFilter: FieldDecl = { name: PERIOD, type: "datetime", label: "reports.filter.period", filter: "range" };
export const schoolFilter: FieldDecl = { name: "sch_id", type: "ref", ref: { entity: "school" }, label: "field.school", filter: "eq" };
const activityFilter: FieldDecl = { name: "activity_id", type: "ref", ref: { entity: "activity", narrowBy: "sch_id" }, label: "collection.field.activity", filter: "eq" };
const gradeFilter: FieldDecl = { name: "grade_id", type: "ref", ref: { entity: "grade", narrowBy: "sch_id" }, label: "field.grade", filter: "eq" };
const classFilter: FieldDecl = { name: "class_id", type: "ref", ref: { entity: "classes", narrowBy: "grade_id" }, label: "field.classes", filter: "eq" };
/** the students with a bill still to pay (applied by the source to the student rows) */
export const OWING = "owing";
const owingFilter: FieldDecl = { name: OWING, type: "yesno", label: "reports.filter.owing", options: yesNo, filter: "eq" };

/** the money: payments in the period, refunds done in it, and what stays */
const payMeasures: ReportMeasure[] = [
  { name: "orders", label: "reports.measure.orders", type: "int" },
  { name: "paid_amount", label: "reports.measure.paid_amount", type: "money" },
  { name: "refund_amount", label: "reports.measure.refund_amount", type: "money" },
  { name: "net_amount", label: "reports.measure.net_amount", type: "money" },
];

/** the bills as they stand: how many, how many paid, the rate, and what is still owed */
const collectionMeasures: ReportMeasure[] = [
  { name: "bills", label: "reports.measure.bills", type: "int" },
  { name: "paid_bills", label: "reports.measure.paid_bills", type: "int" },
  { name: "collection_rate", label: "reports.measure.collection_rate", type: "rate", of: ["paid_bills", "bills"] },
  { name: "unpaid_amount", label: "reports.measure.unpaid_amount", type: "money" },
];

const STUDENT_PAGE = 50;
/** a month of days */
const DAYS_PAGE = 31;
/** the money in and the money still owed, side by side */
const COLLECTION_CHART = ["paid_amount", "unpaid_amount"];
/** the money in and the money back */
const PAY_CHART = ["paid_amount", "refund_amount"];

/** What a statistics page declares of its own; the rest is the same on every page. */
interface StatisticsPage {
  name: string;
  roles: readonly string[];
  filters: FieldDecl[];
  /** the default first */
  dimensions: readonly FieldDecl[];
  drill?: ReportDecl["drill"];
  pageSize?: number;
  /** the pay counts read the money only; the collection pages the bills too */
  bills: boolean;
  chart?: ReportDecl["chart"];
}

/** A statistics page's declaration: read through the period, exported as `{name}export`, titled reports.title.{name}. */
function statisticsReport(page: StatisticsPage): ReportDecl {
  return {
    name: page.name,
    exportOperation: `${page.name}export`,
    // scoped to the caller's schools: a provider's staff reads the money of its own schools only
    scope: "school",
    title: `reports.title.${page.name}`,
    roles: page.roles,
    filters: page.filters,
    period: PERIOD,
    dimension: page.dimensions[0]!,
    ...(page.dimensions.length > 1 ? { dimensions: page.dimensions } : {}),
    ...(page.drill ? { drill: page.drill } : {}),
    ...(page.pageSize ? { pageSize: page.pageSize } : {}),
    measures: page.bills ? [...payMeasures, ...collectionMeasures] : payMeasures,
    chartMeasures: page.bills ? COLLECTION_CHART : PAY_CHART,
    chart: page.chart ?? "bar",
    // the bills are counted as they stand: the period narrows the money only
    ...(page.bills ? { note: "reports.note.bills_as_they_stand" } : {}),
  };
}

/** down a school's levels: a grade's classes, a class's students */
const toStudents = { grade_id: { dimension: "class_id" }, class_id: { dimension: "student_id" } } as const;

/** The money by day or month: a provider's, or the platform's over every provider. */
export const payServiceReport = statisticsReport({
  name: "payservicestatis",
  roles: PROVIDER_READERS,
  filters: [periodFilter],
  dimensions: [byDay, byMonth, byProvider],
  pageSize: DAYS_PAGE,
  bills: false,
  chart: "line",
});

/** The money by school, day or month. */
export const payReport = statisticsReport({
  name: "paystatis",
  roles: PAY_READERS,
  filters: [periodFilter, schoolFilter, activityFilter],
  dimensions: [bySchool, byDay, byMonth],
  pageSize: DAYS_PAGE,
  bills: false,
});

/** A provider's schools: the money and the bills, down to a school's grades, a grade's classes, a class's students. */
export const schoolReport = statisticsReport({
  name: "schoolstatis",
  roles: PROVIDER_COLLECTION_READERS,
  filters: [periodFilter, schoolFilter, gradeFilter, classFilter, activityFilter, owingFilter],
  dimensions: [bySchool, byGrade, byClass, byStudent],
  drill: { sch_id: { dimension: "grade_id" }, ...toStudents },
  pageSize: STUDENT_PAGE,
  bills: true,
});

const schoolFilters = [periodFilter, gradeFilter, classFilter, activityFilter, owingFilter];

/** A school's activities, down to their classes and students. */
export const activityReport = statisticsReport({
  name: "activitystatis",
  roles: SCHOOL_READERS,
  filters: schoolFilters,
  dimensions: [byActivity, byClass, byStudent],
  drill: { activity_id: { dimension: "class_id" }, class_id: toStudents.class_id },
  pageSize: STUDENT_PAGE,
  bills: true,
});

/** A school's grades, down to their classes and students. */
export const gradeReport = statisticsReport({
  name: "gradestatis",
  roles: SCHOOL_READERS,
  filters: schoolFilters,
  dimensions: [byGrade, byClass, byStudent],
  drill: toStudents,
  pageSize: STUDENT_PAGE,
  bills: true,
});

/** A class's students (classescount_info, opened from a class's row). */
export const classStudentsReport = statisticsReport({
  name: "classinfostatis",
  roles: SCHOOL_READERS,
  filters: [periodFilter, classFilter, activityFilter, owingFilter],
  dimensions: [byStudent],
  pageSize: STUDENT_PAGE,
  bills: true,
});

/** A school's classes; a class opens its students. */
export const classesReport = statisticsReport({
  name: "classesstatis",
  roles: SCHOOL_READERS,
  filters: [periodFilter, gradeFilter, classFilter, activityFilter],
  dimensions: [byClass],
  drill: { class_id: { report: classStudentsReport.name } },
  bills: true,
});

/** A school's students, a page at a time. */
export const studentReport = statisticsReport({
  name: "studentstatis",
  roles: SCHOOL_READERS,
  filters: schoolFilters,
  dimensions: [byStudent],
  pageSize: STUDENT_PAGE,
  bills: true,
});

export const statistics: CatalogueDomain = {
  entities: [],
  reports: [payServiceReport, payReport, schoolReport, activityReport, gradeReport, classesReport, classStudentsReport, studentReport],
  pages: {
    paycount_service: { kind: "report", report: payServiceReport.name },
    paycount_servicev2: { kind: "report", report: payServiceReport.name },
    paycount: { kind: "report", report: payReport.name },
    paycountv2: { kind: "report", report: payReport.name },
    schoolcount: { kind: "report", report: schoolReport.name },
    schoolcountv2: { kind: "report", report: schoolReport.name },
    activitycount: { kind: "report", report: activityReport.name },
    activitycountv2: { kind: "report", report: activityReport.name },
    gradecount: { kind: "report", report: gradeReport.name },
    gradecountv2: { kind: "report", report: gradeReport.name },
    classescount: { kind: "report", report: classesReport.name },
    classescountv2: { kind: "report", report: classesReport.name },
    classescount_info: { kind: "report", report: classStudentsReport.name, recordFilter: "class_id" },
    classescount_infov2: { kind: "report", report: classStudentsReport.name, recordFilter: "class_id" },
    studentcount: { kind: "report", report: studentReport.name },
  },
};
