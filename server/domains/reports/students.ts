/**
 * The figures of a school's student reports (catalogue/reports.ts): students by gender and by class, each one
 * grouped query over the generated tables. Payment figures join them once orders exist.
 */
import { asc, count, eq, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { classReport, sexReport } from "../../../catalogue/reports";
import type { DbOrTx } from "../../db/client";
import { classes, grades, students } from "../../db/schema";
import type { ReportSource, ReportSources } from "../../engine/reports";

/** The columns a report's conditions read, by name. */
export function columnOf(columns: Record<string, AnyPgColumn>, report: string) {
  return (name: string): AnyPgColumn => {
    const column = columns[name];
    if (!column) throw new Error(`report ${report} reads no column ${name}`);
    return column;
  };
}

/** Students by gender: one row per gender that has students (the engine adds the others with zeros). */
const studentColumns = columnOf(
  { sysid: students.sysid, sch_id: students.sch_id, grade_id: students.grade_id, class_id: students.class_id, status: students.status, created_at: students.created_at },
  sexReport.name,
);
const bySex: ReportSource = {
  rows: (db: DbOrTx, { where }) => db.select({ sex: students.sex, students: count() }).from(students).where(where(studentColumns)).groupBy(students.sex),
};

const MALE = "1";
const FEMALE = "2";

/** Students by class: every class of the school (an empty one with zeros), named as every page names a class ("三年级 1班", common/fieldRules.ts referredTitle), in the grades' order. */
const classColumns = columnOf({ sysid: classes.sysid, sch_id: classes.sch_id, grade_id: classes.grade_id }, classReport.name);
const byClass: ReportSource = {
  async rows(db, { where }) {
    const rows = await db
      .select({
        class_id: classes.id,
        grade: grades.title,
        title: classes.title,
        students: count(students.id),
        boys: sql<number>`count(${students.id}) filter (where ${students.sex} = ${MALE})`.mapWith(Number),
        girls: sql<number>`count(${students.id}) filter (where ${students.sex} = ${FEMALE})`.mapWith(Number),
      })
      .from(classes)
      .innerJoin(grades, eq(grades.id, classes.grade_id))
      .leftJoin(students, eq(students.class_id, classes.id))
      .where(where(classColumns))
      .groupBy(classes.id, grades.id)
      .orderBy(asc(grades.sort), asc(grades.id), asc(classes.id));
    return rows.map(({ grade, title, ...figures }) => ({ ...figures, class_title: `${grade} ${title}` }));
  },
};

export const studentReportSources: ReportSources = {
  [sexReport.name]: bySex,
  [classReport.name]: byClass,
};
