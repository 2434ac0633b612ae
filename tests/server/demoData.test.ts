/**
 * The demo data's school world: every demo school has grades, classes and hundreds of students of both sexes,
 * with student numbers unique in the school, each student's class in its grade and school, guardians' mobile
 * numbers and identity card numbers that the product's own rules accept, some students without a card and a
 * few switched off; the staff account keeps its two schools; the code list has codes to show and redeem; the same
 * day seeds the same rows. The bench scale
 * (npm run seed -- --scale N) adds N x 10,000 such students in schools of the demo provider.
 */
import { asc, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { isIdCard, isPhone } from "../../common/fieldRules";
import { PasswordHasher } from "../../server/auth/passwords";
import { classes, grades, schools, students, users, userSchools } from "../../server/db/schema";
import { seedDemo } from "../../server/seed/demo";
import { seedScale } from "../../server/seed/scale";
import { createTestDatabase, describeOnEmbedded } from "../helpers/db";
import { createTestApp, TEST_PASSWORD_COST, type TestApp } from "./support";

type Row = Record<string, unknown>;

describeOnEmbedded("demo data", (kind) => {
  let t: TestApp;
  let allSchools: (typeof schools.$inferSelect)[];
  let allGrades: (typeof grades.$inferSelect)[];
  let allClasses: (typeof classes.$inferSelect)[];
  let allStudents: (typeof students.$inferSelect)[];

  beforeAll(async () => {
    t = await createTestApp(kind);
    allSchools = await t.db.select().from(schools).orderBy(asc(schools.id));
    allGrades = await t.db.select().from(grades);
    allClasses = await t.db.select().from(classes);
    allStudents = await t.db.select().from(students).orderBy(asc(students.id));
  });
  afterAll(async () => {
    await t?.close();
  });

  it("gives every school grades, classes of every grade and at least 100 students of both sexes", () => {
    expect(allSchools.length).toBeGreaterThanOrEqual(7);
    for (const school of allSchools) {
      const own = allStudents.filter((s) => s.sch_id === school.id);
      const ownGrades = allGrades.filter((g) => g.sch_id === school.id);
      expect(ownGrades.length, school.title).toBeGreaterThanOrEqual(3);
      for (const grade of ownGrades) {
        expect(allClasses.filter((c) => c.grade_id === grade.id).length, `${school.title} ${grade.title}`).toBeGreaterThanOrEqual(2);
      }
      expect(own.length, school.title).toBeGreaterThanOrEqual(100);
      expect(own.filter((s) => s.sex === "1").length, school.title).toBeGreaterThan(own.length / 4);
      expect(own.filter((s) => s.sex === "2").length, school.title).toBeGreaterThan(own.length / 4);
      // most have an identity card, some not; a few are switched off
      expect(own.some((s) => s.id_card === null) && own.some((s) => s.id_card !== null), school.title).toBe(true);
      const off = own.filter((s) => s.status === "0").length;
      expect(off, school.title).toBeGreaterThan(0);
      expect(off, school.title).toBeLessThan(own.length / 10);
    }
  });

  it("names grades in Chinese in their teaching order", () => {
    const no1 = allSchools.find((s) => s.title === "Sunrise No.1 Primary School")!;
    const middle = allSchools.find((s) => s.title === "Old Town Middle School")!;
    const titles = (schId: number) => allGrades.filter((g) => g.sch_id === schId).sort((a, b) => a.sort - b.sort).map((g) => g.title);
    expect(titles(no1.id)).toEqual(["一年级", "二年级", "三年级", "四年级", "五年级", "六年级"]);
    expect(titles(middle.id)).toEqual(["初一", "初二", "初三"]);
    expect(allStudents.every((s) => /^\p{Script=Han}{2,3}$/u.test(s.name))).toBe(true);
  });

  it("keeps student numbers unique within a school and every student in a class of its grade and school", () => {
    const gradeById = new Map(allGrades.map((g) => [g.id, g]));
    const classById = new Map(allClasses.map((c) => [c.id, c]));
    const schoolById = new Map(allSchools.map((s) => [s.id, s]));
    const numbers = new Set<string>();
    for (const s of allStudents) {
      const key = `${s.sch_id}/${s.student_no}`;
      expect(numbers.has(key), key).toBe(false);
      numbers.add(key);
      expect(s.student_no).toMatch(/^[A-Za-z0-9_-]+$/);
      const grade = gradeById.get(s.grade_id)!;
      const klass = classById.get(s.class_id)!;
      expect(grade.sch_id).toBe(s.sch_id);
      expect(klass.grade_id).toBe(s.grade_id);
      expect(klass.sch_id).toBe(s.sch_id);
      expect(schoolById.get(s.sch_id)!.sysid).toBe(s.sysid);
    }
    for (const c of allClasses) expect(gradeById.get(c.grade_id)!.sch_id).toBe(c.sch_id);
  });

  it("gives guardians valid mobile numbers and students valid identity cards matching their sex", () => {
    for (const s of allStudents) {
      expect(s.guardian_name, s.name).toBeTruthy();
      expect(isPhone(s.guardian_phone ?? ""), s.guardian_phone ?? "").toBe(true);
      expect(s.guardian_phone).toMatch(/^1[3-9]\d{9}$/);
      if (s.id_card === null) continue;
      expect(isIdCard(s.id_card), s.id_card).toBe(true);
      // GB 11643: the 17th digit is odd for a man, even for a woman
      expect(Number(s.id_card[16]) % 2 === 1 ? "1" : "2", s.id_card).toBe(s.sex);
    }
  });

  it("assigns the staff account two Sunrise schools", async () => {
    const [staff] = await t.db.select().from(users).where(eq(users.username, "staff"));
    const assigned = await t.db.select({ schId: userSchools.schId }).from(userSchools).where(eq(userSchools.userId, staff.id));
    const titles = assigned.map((a) => allSchools.find((s) => s.id === a.schId)?.title).sort();
    expect(titles).toEqual(["Sunrise No.1 Primary School", "Sunrise No.2 Primary School"]);
    const token = await t.login("staff");
    const grades = await t.call("adminapiv2", "gradelist", { limit: 100 }, { token });
    expect(new Set(((grades.data?.items ?? []) as Row[]).map((g) => g.sch_id))).toEqual(new Set(assigned.map((a) => a.schId)));
  });

  it("lists a class's students, 20 to a page, for the provider", async () => {
    const no1 = allSchools.find((s) => s.title === "Sunrise No.1 Primary School")!;
    const klass = allClasses.find((c) => c.sch_id === no1.id)!;
    const inClass = allStudents.filter((s) => s.class_id === klass.id);
    const token = await t.login("svc");
    const res = await t.call("adminapiv2", "studentlist", { sch_id: no1.id, class_id: klass.id, page: 1, limit: 20 }, { token });
    expect(res.return_code, res.return_msg).toBe("SUCCESS");
    const rows = (res.data?.items ?? []) as Row[];
    expect(rows).toHaveLength(20);
    expect(Number(res.data?.total)).toBe(inClass.length);
    expect(rows.map((r) => r.id)).toEqual(inClass.map((s) => s.id).sort((a, b) => b - a).slice(0, 20));
    expect(rows[0]).toMatchObject({ class_title: klass.title, grade_title: allGrades.find((g) => g.id === klass.grade_id)!.title });
  });

  it("gives the code list codes to show: Sunrise's school codes, one voided, and two that Harbour redeems", async () => {
    const svcCodes = await t.call("adminapiv2", "actcodelist", { limit: 100 }, { token: await t.login("svc") });
    const sunriseRows = (svcCodes.data?.items ?? []) as Row[];
    expect(sunriseRows.map((r) => r.status).sort()).toEqual(["unused", "unused", "unused", "void"]);
    expect(sunriseRows.every((r) => r.target === "school" && r.bound_title === "Sunrise Campus Services" && r.term_months === 12)).toBe(true);

    const all = await t.call("adminapiv2", "actcodelist", { target: "service", limit: 100 }, { token: await t.login("sysadmin") });
    const harbourCodes = (all.data?.items ?? []) as Row[];
    expect(harbourCodes.map((r) => r.bound_title)).toEqual(["Harbour Education Services", "Harbour Education Services"]);
    const harbour = allSchools.find((s) => s.title === "Harbour Bay School")!.sysid;
    const renewed = await t.call("adminapiv2", "delay_foractcode", { sysid: harbour, act_code: harbourCodes[0].code }, { token: await t.login("harbour") });
    expect(renewed.return_code, renewed.return_msg).toBe("SUCCESS");
  });

  it("reconciles and settles every sandbox channel's last week: balanced, but for one payment whose notification was lost", async () => {
    const svc = await t.login("svc");
    const list = await t.call("adminapiv2", "reconlist", { limit: 100 }, { token: svc });
    const batches = (list.data?.items ?? []) as Row[];
    expect(batches.length).toBe(7);
    expect(batches.map((b) => b.status)).toEqual(["differences", ...Array<string>(6).fill("balanced")]);
    expect(batches.every((b) => Number(b.matched) > 0)).toBe(true);
    // the bill's money and ours agree on a balanced day
    expect(batches.slice(1).every((b) => b.bill_paid === b.local_paid && b.bill_refund === b.local_refund)).toBe(true);
    const open = await t.call("adminapiv2", "reconitemlist", { batch_id: batches[0].id, status: "open" }, { token: svc });
    expect((open.data?.items as Row[]).map((i) => [i.kind, i.outcome, i.bill_state, i.local_state])).toEqual([["payment", "status_mismatch", "SUCCESS", "CLOSED"]]);
    // each school's settled days: what it was paid, as reconciled
    const settled = await t.call("adminapiv2", "settlementlist", { status: "settled", paychnl_id: batches[1].paychnl_id, day_start: batches[1].bill_date, day_end: batches[1].bill_date }, { token: svc });
    expect((settled.data?.summary as Row).gross).toBe(batches[1].local_paid);
    // the payment ledger (payrecord) of that channel and day holds the same money
    const paid = await t.call("adminapiv2", "paymentlist", { paychnl_id: batches[1].paychnl_id, paid_at_start: batches[1].bill_date, paid_at_end: batches[1].bill_date }, { token: svc });
    expect(paid.return_code, paid.return_msg).toBe("SUCCESS");
    expect((paid.data?.summary as Row).amount).toBe(batches[1].local_paid);
    // every reconciled day settles what reconciliation counted of ours, the shop's orders paid that day with the fees
    for (const batch of batches.slice(1)) {
      const day = await t.call("adminapiv2", "settlementlist", { status: "settled", paychnl_id: batch.paychnl_id, day_start: batch.bill_date, day_end: batch.bill_date }, { token: svc });
      const summary = day.data?.summary as Row;
      expect({ gross: summary.gross, refund: summary.refund }, String(batch.bill_date)).toEqual({ gross: batch.local_paid, refund: batch.local_refund });
    }
    const shopDays = await t.call("adminapiv2", "goodsstatis", { dimension: "day", paid_at_start: batches.at(-1)!.bill_date, paid_at_end: batches[1].bill_date }, { token: svc });
    expect((shopDays.data?.items as Row[]).length, "the demo's shop orders paid on reconciled days").toBeGreaterThan(0);
    const pending = await t.call("adminapiv2", "settlementlist", { status: "pending", day_start: batches[0].bill_date, day_end: batches[0].bill_date }, { token: svc });
    expect(Number(pending.data?.total)).toBeGreaterThan(0);
  });

  if (kind === "pglite") {
    it("seeds the same students again on the same day", async () => {
      // migrated only, as the first was before its seed
      const again = await createTestDatabase(kind, "migrated");
      try {
        await seedDemo(again.database.db, { hasher: new PasswordHasher(TEST_PASSWORD_COST), now: t.clock.now() });
        const strip = ({ id, created_at, ...rest }: typeof students.$inferSelect) => rest;
        const second = await again.database.db.select().from(students).orderBy(asc(students.id));
        expect(second.map(strip)).toEqual(allStudents.map(strip));
      } finally {
        await again.dispose();
      }
    });
  }
});

describeOnEmbedded("bench scale", (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("adds 10,000 students per unit in bench schools of Sunrise, 6 grades of 10 classes each, valid like the demo's", async () => {
    const before = await t.db.select({ id: students.id }).from(students);
    const result = await seedScale(t.db, { scale: 1, now: t.clock.now() });
    expect(result.students).toBe(10_000);
    expect(result.schoolIds).toHaveLength(4);
    const [sunrise] = await t.db.select({ sysid: schools.sysid }).from(schools).where(eq(schools.title, "Sunrise No.1 Primary School"));
    const benchSchools = await t.db.select().from(schools).where(inArray(schools.id, result.schoolIds));
    expect(benchSchools.every((s) => s.sysid === sunrise.sysid && s.title.startsWith("Sunrise Bench School "))).toBe(true);
    const added = await t.db.select().from(students).where(inArray(students.sch_id, result.schoolIds));
    expect(added).toHaveLength(10_000);
    expect((await t.db.select({ id: students.id }).from(students)).length).toBe(before.length + 10_000);

    const benchGrades = await t.db.select().from(grades).where(inArray(grades.sch_id, result.schoolIds));
    const benchClasses = await t.db.select().from(classes).where(inArray(classes.sch_id, result.schoolIds));
    expect(benchGrades).toHaveLength(4 * 6);
    expect(benchClasses).toHaveLength(4 * 60);
    const gradeById = new Map(benchGrades.map((g) => [g.id, g]));
    const classById = new Map(benchClasses.map((c) => [c.id, c]));
    const perClass = new Map<number, number>();
    const numbers = new Set<string>();
    for (const s of added) {
      expect(classById.get(s.class_id)?.grade_id).toBe(s.grade_id);
      expect(gradeById.get(s.grade_id)?.sch_id).toBe(s.sch_id);
      expect(s.sysid).toBe(sunrise.sysid);
      numbers.add(`${s.sch_id}/${s.student_no}`);
      perClass.set(s.class_id, (perClass.get(s.class_id) ?? 0) + 1);
      expect(s.student_no).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(s.name).toMatch(/^\p{Script=Han}{2,4}$/u);
      expect(isPhone(s.guardian_phone ?? ""), s.guardian_phone ?? "").toBe(true);
      if (s.id_card !== null) {
        expect(isIdCard(s.id_card), s.id_card).toBe(true);
        expect(Number(s.id_card[16]) % 2 === 1 ? "1" : "2").toBe(s.sex);
      }
    }
    expect(numbers.size).toBe(10_000);
    expect(new Set(perClass.values())).toEqual(new Set([41, 42]));
    const boys = added.filter((s) => s.sex === "1").length;
    expect(boys).toBeGreaterThan(4500);
    expect(boys).toBeLessThan(5500);
    expect(added.filter((s) => s.id_card === null).length).toBeGreaterThan(1000);
    expect(added.filter((s) => s.status === "0").length).toBeGreaterThan(50);

    // a second call adds further schools after the first ones
    const more = await seedScale(t.db, { scale: 1, now: t.clock.now() });
    const titles = (await t.db.select({ title: schools.title }).from(schools).where(inArray(schools.id, more.schoolIds))).map((s) => s.title).sort();
    expect(titles).toEqual(["Sunrise Bench School 0005", "Sunrise Bench School 0006", "Sunrise Bench School 0007", "Sunrise Bench School 0008"]);
    // two seeds of 10,000 students: about 25 s on an idle embedded database, more on a busy machine; not what is tested
  }, 120_000);

  it("lists a bench class for the provider", async () => {
    const [klass] = await t.db.select().from(classes).where(eq(classes.title, "10班")).limit(1);
    const token = await t.login("svc");
    const res = await t.call("adminapiv2", "studentlist", { sch_id: klass.sch_id, class_id: klass.id, page: 1, limit: 20 }, { token });
    expect(res.return_code, res.return_msg).toBe("SUCCESS");
    expect((res.data?.items as Row[]).length).toBe(20);
    expect(Number(res.data?.total)).toBeGreaterThanOrEqual(41);
  });

  it("refuses a database without the demo provider", async () => {
    const empty = await createTestDatabase(kind, "migrated");
    try {
      await expect(seedScale(empty.database.db, { scale: 1, now: t.clock.now() })).rejects.toThrow(/--demo/);
    } finally {
      await empty.dispose();
    }
  });
});
