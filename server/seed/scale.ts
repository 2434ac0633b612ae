/**
 * `npm run seed -- --scale N`: N x 10,000 students for benchmarks, in bench schools of the demo provider Sunrise
 * Campus Services (so its demo accounts reach them). Each scale unit is 4 schools of 6 grades with 10 classes
 * each and 2,500 students per school (41 or 42 per class). The rows are generated inside the database
 * (INSERT ... SELECT over generate_series), a block of schools per statement, deterministic like the demo data.
 */
import { and, count, eq, like, sql, type SQL } from "drizzle-orm";
import { queryRows, type Db, type DbOrTx } from "../db/client";
import { providers, schools } from "../db/schema";
import { addDays, businessDay } from "../../common/term";
import { seedScaleFeeOrders } from "./feeOrders";
import { rebuildFeeDaily } from "../domains/collection/feeDaily";
import { ADULT_GIVEN, CHILD_GIVEN, idCard, MOBILE_PREFIXES, seededRandom, SURNAMES } from "./people";
import { schoolYearStart, STAGE_GRADES } from "./schoolWorld";

export const STUDENTS_PER_SCALE_UNIT = 10_000;
export const BENCH_PROVIDER = "Sunrise Campus Services";
const BENCH_SCHOOL_PREFIX = "Sunrise Bench School ";
const SCHOOLS_PER_UNIT = 4;
const STUDENTS_PER_SCHOOL = STUDENTS_PER_SCALE_UNIT / SCHOOLS_PER_UNIT;
const GRADES = STAGE_GRADES.primary;
const CLASSES_PER_GRADE = 10;
const CLASSES_PER_SCHOOL = GRADES.length * CLASSES_PER_GRADE;
/** schools per INSERT of students: 50,000 rows */
const SCHOOLS_PER_STATEMENT = 20;
/** identity card numbers to choose from, per grade and sex */
const CARDS_PER_GROUP = 50;

export interface ScaleSeedResult {
  sysid: number;
  /** the bench schools made by this call */
  schoolIds: number[];
  students: number;
}

/** keeps a hash's bits but its sign */
const MAX_BIGINT = sql.raw("9223372036854775807");

/** A whole number written into the statement (our own constants and ids only). */
function int(n: number): SQL {
  if (!Number.isSafeInteger(n)) throw new Error(`not a whole number: ${n}`);
  return sql.raw(String(n));
}

interface TextArray {
  array: SQL;
  length: number;
}

/** A SQL array literal of our own constant strings (no quotes in them). */
function textArray(items: readonly string[]): TextArray {
  if (items.some((s) => s.includes("'"))) throw new Error("unexpected quote in a seed constant");
  return { array: sql.raw(`(ARRAY[${items.map((s) => `'${s}'`).join(",")}]::text[])`), length: items.length };
}

/** The element of `from` chosen by a non-negative number. */
function pickFrom(from: TextArray, by: SQL): SQL {
  return sql`${from.array}[(1 + (${by}) % ${int(from.length)})::int]`;
}

/** Valid identity card numbers of pupils of each grade (Shanghai Huangpu), boys then girls in each grade. */
function cardPool(today: string): string[] {
  const random = seededRandom("bench-cards");
  const year = schoolYearStart(today);
  const cards: string[] = [];
  for (const grade of GRADES) {
    for (const sex of ["1", "2"] as const) {
      for (let k = 0; k < CARDS_PER_GROUP; k++) {
        const birth = new Date(Date.UTC(year - grade.age - 1, 8, 1) + Math.floor(random() * 365) * 86_400_000).toISOString().slice(0, 10);
        cards.push(idCard("310101", birth, sex, Math.floor(random() * 1000)));
      }
    }
  }
  return cards;
}

async function benchSchoolCount(db: DbOrTx, sysid: number): Promise<number> {
  const [{ n }] = await db.select({ n: count() }).from(schools).where(and(eq(schools.sysid, sysid), like(schools.title, `${BENCH_SCHOOL_PREFIX}%`)));
  return Number(n);
}

/**
 * Adds `scale` x 10,000 students (and their schools, grades and classes) to the demo provider. `progress` hears
 * the students written so far.
 */
export async function seedScale(db: Db, options: { scale: number; now: Date; progress?: (students: number) => void }): Promise<ScaleSeedResult> {
  const { scale } = options;
  if (!Number.isSafeInteger(scale) || scale < 1) throw new Error("--scale needs a whole number of at least 1");
  const today = businessDay(options.now);
  const startYear = schoolYearStart(today);
  const [provider] = await db.select({ id: providers.id }).from(providers).where(eq(providers.title, BENCH_PROVIDER));
  if (!provider) throw new Error(`The demo provider "${BENCH_PROVIDER}" is missing: seed the demo data first (--demo).`);
  const sysid = provider.id;

  const first = (await benchSchoolCount(db, sysid)) + 1;
  const schoolCount = scale * SCHOOLS_PER_UNIT;
  const gradeTitles = textArray(GRADES.map((g) => g.title));
  const schoolRows = await queryRows<{ id: number }>(db, sql`
    INSERT INTO schools (sysid, title, endtime, status, select_paymode, address)
    SELECT ${sysid}, ${BENCH_SCHOOL_PREFIX} || lpad(n::text, 4, '0'), ${addDays(today, 365)}::date, '1', 'N', n::text || ' Bench Road'
    FROM generate_series(${first}::int, ${first + schoolCount - 1}::int) AS n
    RETURNING id`);
  const schoolIds = schoolRows.map((r) => Number(r.id)).sort((a, b) => a - b);

  const surnames = textArray(SURNAMES);
  const boys = textArray(CHILD_GIVEN["1"]);
  const girls = textArray(CHILD_GIVEN["2"]);
  const men = textArray(ADULT_GIVEN["1"]);
  const women = textArray(ADULT_GIVEN["2"]);
  const prefixes = textArray(MOBILE_PREFIXES);
  const cards = textArray(cardPool(today));
  let written = 0;

  for (let i = 0; i < schoolIds.length; i += SCHOOLS_PER_STATEMENT) {
    const block = schoolIds.slice(i, i + SCHOOLS_PER_STATEMENT);
    const ids = sql.raw(`ARRAY[${block.join(",")}]::int[]`);
    await db.transaction(async (tx) => {
      await tx.execute(sql`
        INSERT INTO grades (sch_id, sysid, title, sort)
        SELECT s, ${int(sysid)}, ${gradeTitles.array}[g], g
        FROM unnest(${ids}) AS s CROSS JOIN generate_series(1, ${int(GRADES.length)}) AS g`);
      await tx.execute(sql`
        INSERT INTO classes (sch_id, sysid, grade_id, title)
        SELECT g.sch_id, g.sysid, g.id, c || '班'
        FROM grades g CROSS JOIN generate_series(1, ${int(CLASSES_PER_GRADE)}) AS c
        WHERE g.sch_id = ANY(${ids})
        ORDER BY g.sch_id, g.sort, c`);
      // each class takes every CLASSES_PER_SCHOOL-th of the school's student numbers i (0..2499), so the first
      // classes hold 42 students and the last ones 41; h1..h4 are independent non-negative hashes of (school, i)
      await tx.execute(sql`
        WITH cls AS (
          SELECT c.id, c.sch_id, c.grade_id, g.sort AS grade,
                 (row_number() OVER (PARTITION BY c.sch_id ORDER BY g.sort, c.id) - 1)::int AS idx
          FROM classes c JOIN grades g ON g.id = c.grade_id
          WHERE c.sch_id = ANY(${ids})
        ), pupil AS (
          SELECT cls.*, i,
                 hashint8extended(cls.sch_id::bigint * 100000 + i, 1) & ${MAX_BIGINT} AS h1,
                 hashint8extended(cls.sch_id::bigint * 100000 + i, 2) & ${MAX_BIGINT} AS h2,
                 hashint8extended(cls.sch_id::bigint * 100000 + i, 3) & ${MAX_BIGINT} AS h3,
                 hashint8extended(cls.sch_id::bigint * 100000 + i, 4) & ${MAX_BIGINT} AS h4
          FROM cls CROSS JOIN LATERAL generate_series(cls.idx, ${int(STUDENTS_PER_SCHOOL - 1)}, ${int(CLASSES_PER_SCHOOL)}) AS i
        ), person AS (
          SELECT pupil.*,
                 CASE WHEN h2 % 2 = 0 THEN '1' ELSE '2' END AS sex,
                 -- the common surnames more often
                 ${surnames.array}[(1 + (h1 % 1000) * (h1 % 1000) * ${int(SURNAMES.length)} / 1000000)::int] AS family
          FROM pupil
        )
        INSERT INTO students (name, sch_id, sysid, student_no, sex, grade_id, class_id, guardian_name, guardian_phone, id_card, status)
        SELECT
          family || CASE WHEN sex = '1'
            THEN ${pickFrom(boys, sql`h3 / 7`)} || CASE WHEN h3 % 4 = 0 THEN '' ELSE ${pickFrom(boys, sql`h3 / 311`)} END
            ELSE ${pickFrom(girls, sql`h3 / 7`)} || CASE WHEN h3 % 4 = 0 THEN '' ELSE ${pickFrom(girls, sql`h3 / 311`)} END
          END,
          sch_id, ${int(sysid)},
          -- enrolment year and the number in the school
          (${int(startYear + 1)} - grade)::text || lpad((i + 1)::text, 5, '0'),
          sex, grade_id, id,
          CASE WHEN h4 % 10 < 7
            THEN family || ${pickFrom(men, sql`h4 / 10`)} || ${pickFrom(men, sql`h4 / 997`)}
            ELSE ${pickFrom(surnames, sql`h4 / 13`)} || ${pickFrom(women, sql`h4 / 10`)} || ${pickFrom(women, sql`h4 / 997`)}
          END,
          ${pickFrom(prefixes, sql`h1`)} || lpad(((h2 / 16) % 100000000)::text, 8, '0'),
          CASE WHEN h3 % 10 < 7
            THEN ${cards.array}[(1 + ((grade - 1) * 2 + sex::int - 1) * ${int(CARDS_PER_GROUP)} + (h1 / 7) % ${int(CARDS_PER_GROUP)})::int]
          END,
          CASE WHEN h4 % 50 = 0 THEN '0' ELSE '1' END
        FROM person`);
    });
    written += block.length * STUDENTS_PER_SCHOOL;
    options.progress?.(written);
  }
  // as autovacuum would leave them, at once: fresh statistics for the planner, and the new rows marked visible,
  // so that the first reads of each page neither check the rows' transactions nor write the page again
  await db.execute(sql`VACUUM (ANALYZE) schools, grades, classes, students`);
  // a paid fee order for every student (server/seed/feeOrders.ts)
  await seedScaleFeeOrders(db, sysid, schoolIds, options.now);
  await rebuildFeeDaily(db);
  return { sysid, schoolIds, students: written };
}
