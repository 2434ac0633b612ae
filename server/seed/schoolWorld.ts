/**
 * The demo schools' world: each school's grades (一年级…六年级, 初一…初三, …), 2 to 4 classes per grade and
 * 25 to 40 students per class, boys and girls, with student numbers unique in the school (enrolment year and
 * sequence), guardians with mobile numbers, an identity card number for most students and a few students
 * switched off. Drawn from a generator seeded by the school's title: the same rows on every seed of a school year.
 */
import { getTableName, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { DbOrTx } from "../db/client";
import { classes, grades, students } from "../db/schema";
import { ADULT_GIVEN, CHILD_GIVEN, givenName, idCard, mobile, seededRandom, surname, type Random } from "./people";

/** Kinds of school: which grades it teaches. */
export type SchoolStage = "primary" | "middle" | "high" | "nineYear";

interface GradeDecl {
  title: string;
  /** a pupil's age in the September of entering this grade */
  age: number;
}

const PRIMARY: GradeDecl[] = ["一年级", "二年级", "三年级", "四年级", "五年级", "六年级"].map((title, i) => ({ title, age: 6 + i }));

export const STAGE_GRADES: Readonly<Record<SchoolStage, readonly GradeDecl[]>> = {
  primary: PRIMARY,
  middle: ["初一", "初二", "初三"].map((title, i) => ({ title, age: 12 + i })),
  high: ["高一", "高二", "高三"].map((title, i) => ({ title, age: 15 + i })),
  nineYear: [...PRIMARY, ...["七年级", "八年级", "九年级"].map((title, i) => ({ title, age: 12 + i }))],
};

export interface WorldSchool {
  id: number;
  sysid: number;
  /** seeds the school's generator */
  title: string;
  stage: SchoolStage;
  /** the 6-digit administrative region code of its pupils' identity cards */
  region: string;
}

/** Rows per INSERT: hundreds, so that the seed stays quick without one huge statement. */
const BATCH = 500;

/** The year the current school year began (it begins on 1 September). */
export function schoolYearStart(today: string): number {
  const year = Number(today.slice(0, 4));
  return Number(today.slice(5, 7)) >= 9 ? year : year - 1;
}

/** A birth date of a pupil aged `age` on 1 September of `year` (born 1 September to 31 August). */
function birthDate(random: Random, year: number, age: number): string {
  const from = Date.UTC(year - age - 1, 8, 1);
  return new Date(from + Math.floor(random() * 365) * 86_400_000).toISOString().slice(0, 10);
}

/**
 * Inserts rows (all with the same keys, the table's column names) BATCH at a time, each batch one JSON
 * parameter: far quicker than as many bound parameters on the embedded database.
 */
export async function insertRows(tx: DbOrTx, table: PgTable, rows: readonly Record<string, unknown>[]): Promise<void> {
  if (rows.length === 0) return;
  const name = sql.identifier(getTableName(table));
  const columns = sql.join(Object.keys(rows[0]).map((c) => sql.identifier(c)), sql`, `);
  for (let i = 0; i < rows.length; i += BATCH) {
    const batch = JSON.stringify(rows.slice(i, i + BATCH));
    await tx.execute(sql`INSERT INTO ${name} (${columns}) SELECT ${columns} FROM json_populate_recordset(NULL::${name}, ${batch}::json)`);
  }
}

/** Seeds the grades, classes and students of the given schools (inside the demo seed's transaction). */
export async function seedSchoolWorld(tx: DbOrTx, schools: readonly WorldSchool[], today: string): Promise<void> {
  const startYear = schoolYearStart(today);
  const randoms = new Map(schools.map((s) => [s.id, seededRandom(`school-world:${s.title}`)]));

  const gradeRows = schools.flatMap((s) =>
    STAGE_GRADES[s.stage].map((g, i) => ({ sch_id: s.id, sysid: s.sysid, title: g.title, sort: i + 1 })),
  );
  const gradeIds = new Map<string, number>();
  for (const row of await tx.insert(grades).values(gradeRows).returning({ id: grades.id, sch_id: grades.sch_id, title: grades.title })) {
    gradeIds.set(`${row.sch_id}/${row.title}`, row.id);
  }

  const classRows: (typeof classes.$inferInsert)[] = [];
  for (const s of schools) {
    const random = randoms.get(s.id)!;
    for (const g of STAGE_GRADES[s.stage]) {
      const gradeId = gradeIds.get(`${s.id}/${g.title}`)!;
      const count = 2 + Math.floor(random() * 3);
      for (let c = 1; c <= count; c++) classRows.push({ sch_id: s.id, sysid: s.sysid, grade_id: gradeId, title: `${c}班` });
    }
  }
  const classesByGrade = new Map<number, number[]>();
  for (const row of await tx.insert(classes).values(classRows).returning({ id: classes.id, grade_id: classes.grade_id })) {
    const list = classesByGrade.get(row.grade_id) ?? [];
    list.push(row.id);
    classesByGrade.set(row.grade_id, list);
  }

  const studentRows: (typeof students.$inferInsert)[] = [];
  for (const s of schools) {
    const random = randoms.get(s.id)!;
    STAGE_GRADES[s.stage].forEach((g, gradeIndex) => {
      const gradeId = gradeIds.get(`${s.id}/${g.title}`)!;
      const enrolYear = startYear - gradeIndex;
      let sequence = 0;
      for (const classId of (classesByGrade.get(gradeId) ?? []).sort((a, b) => a - b)) {
        const size = 25 + Math.floor(random() * 16);
        for (let k = 0; k < size; k++) {
          sequence++;
          const sex = random() < 0.5 ? "1" : "2";
          const family = surname(random);
          const byFather = random() < 0.7;
          const guardian = byFather ? family + givenName(random, ADULT_GIVEN["1"]) : surname(random) + givenName(random, ADULT_GIVEN["2"]);
          const withCard = random() < 0.7;
          studentRows.push({
            sch_id: s.id,
            sysid: s.sysid,
            grade_id: gradeId,
            class_id: classId,
            name: family + givenName(random, CHILD_GIVEN[sex]),
            // enrolment year and sequence within the grade: unique in the school
            student_no: `${enrolYear}${String(sequence).padStart(4, "0")}`,
            sex,
            guardian_name: guardian,
            guardian_phone: mobile(random),
            id_card: withCard ? idCard(s.region, birthDate(random, startYear, g.age), sex, Math.floor(random() * 1000)) : null,
            status: random() < 0.03 ? "0" : "1",
          });
        }
      }
    });
  }
  await insertRows(tx, students, studentRows);
}
