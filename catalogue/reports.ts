/**
 * A school's statistics reports (spec 2.2, 2.3 data statistics): students by gender (sex_statis) and by class
 * (class_statis, class_statisv2). Each is a ReportDecl: filters, one row per value of its dimension with its
 * measures, a chart and an .xlsx export; the server's figures come from server/domains/reports/. Payment figures
 * join these reports once orders exist.
 */
import type { CatalogueDomain, FieldDecl, ReportDecl } from "../common/catalogue";
import { SCHOOL_ROLES } from "../common/roleKeys";
import { sexOptions } from "./schools";
import { statusOptions } from "./shared";

const gradeFilter: FieldDecl = { name: "grade_id", type: "ref", ref: { entity: "grade" }, label: "field.grade", filter: "eq" };

/** A student's gender: the pie's slices, and the value the boys and girls measures count. */
const sexDimension: FieldDecl = { name: "sex", type: "enum", label: "field.sex", options: sexOptions };

/** Students by gender: a slice per gender, with its share of the school's students. */
export const sexReport: ReportDecl = {
  name: "sexstatis",
  exportOperation: "sexstatisexport",
  scope: "school",
  title: "reports.title.sexstatis",
  roles: SCHOOL_ROLES,
  filters: [
    gradeFilter,
    { name: "class_id", type: "ref", ref: { entity: "classes", narrowBy: "grade_id" }, label: "field.classes", filter: "eq" },
    { name: "status", type: "status", label: "field.status", options: statusOptions, filter: "eq" },
    { name: "created_at", type: "datetime", label: "reports.filter.added", filter: "range" },
  ],
  dimension: sexDimension,
  measures: [{ name: "students", label: "reports.measure.students", type: "int" }],
  chart: "pie",
};

/** Students by class, boys and girls apart; every class of the school is a row, an empty one with zeros. */
export const classReport: ReportDecl = {
  name: "classstatis",
  exportOperation: "classstatisexport",
  scope: "school",
  title: "reports.title.classstatis",
  roles: SCHOOL_ROLES,
  filters: [gradeFilter],
  // each row is titled "grade / class"
  dimension: { name: "class_id", type: "ref", ref: { entity: "classes" }, label: "reports.dimension.class" },
  measures: [
    { name: "students", label: "reports.measure.students", type: "int" },
    { name: "boys", label: "reports.measure.boys", type: "int", value: { field: sexDimension, value: "1" } },
    { name: "girls", label: "reports.measure.girls", type: "int", value: { field: sexDimension, value: "2" } },
  ],
  chart: "bar",
};

export const reports: CatalogueDomain = {
  entities: [],
  reports: [sexReport, classReport],
  pages: {
    sex_statis: { kind: "report", report: sexReport.name },
    class_statis: { kind: "report", report: classReport.name },
    class_statisv2: { kind: "report", report: classReport.name },
  },
};
