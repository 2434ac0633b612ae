/**
 * A class within its grade, through /weapi/ on both databases: a class moved to another grade takes its students
 * with it (the student list by grade and the reports then agree with the class), and two classes of one grade
 * never share a name: adding, renaming or moving a class onto a taken name is a FAIL naming `title`, also when
 * two adds race (the unique index answers like the check).
 */
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { translator } from "../../server/lib/i18n";
import { describeOnDatabases } from "../helpers/db";
import { createTestApp, type TestApp } from "./support";

type Row = Record<string, unknown>;

const zh = translator("zh");

describeOnDatabases("a class within its grade", (kind) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  let no1 = 0;
  const made: Record<string, number> = {};
  const call = (user: string, method: string, payload: Row = {}) => t.call("adminapiv2", method, payload, { token: tokens[user] });
  const items = (res: { data?: Row }) => (res.data?.items ?? []) as Row[];
  const item = (res: { data?: Row }) => (res.data?.items ?? {}) as Row;
  const errorsOf = (res: { data?: Row }) => (res.data?.errors ?? []) as { field: string; message: string }[];
  const added = async (user: string, method: string, payload: Row) => {
    const res = await call(user, method, payload);
    expect(res.return_code, `${method}: ${res.return_msg}`).toBe("SUCCESS");
    return Number(item(res).id);
  };
  const studentNos = async (filter: Row) =>
    items(await call("svc", "studentlist", { sch_id: no1, limit: 100, sort: "student_no", ...filter })).map((s) => s.student_no);

  beforeAll(async () => {
    t = await createTestApp(kind);
    for (const u of ["sysadmin", "svc", "school"]) tokens[u] = await t.login(u);
    const schools = items(await call("sysadmin", "schoollist", { limit: 100, title: "Sunrise No.1" }));
    no1 = Number(schools.find((s) => s.title === "Sunrise No.1 Primary School")?.id);
    made.gradeA = await added("school", "gradeadd", { sch_id: no1, title: "Move grade A", sort: 1 });
    made.gradeB = await added("school", "gradeadd", { sch_id: no1, title: "Move grade B", sort: 2 });
    made.mover = await added("school", "classesadd", { sch_id: no1, grade_id: made.gradeA, title: "Mover" });
    made.stayer = await added("school", "classesadd", { sch_id: no1, grade_id: made.gradeA, title: "Stayer" });
    made.other = await added("school", "classesadd", { sch_id: no1, grade_id: made.gradeB, title: "Resident" });
    const student = (no: string, sex: string, grade: number, cls: number) =>
      added("svc", "studentadd", { sch_id: no1, name: `Pupil ${no}`, student_no: no, sex, grade_id: grade, class_id: cls });
    await student("MV-1", "1", made.gradeA, made.mover);
    await student("MV-2", "2", made.gradeA, made.mover);
    await student("MV-3", "1", made.gradeA, made.stayer);
    await student("MV-4", "2", made.gradeB, made.other);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("moves a class's students with it to its new grade, so lists and reports agree", async () => {
    const moved = await call("school", "classesedit", { id: made.mover, sch_id: no1, grade_id: made.gradeB });
    expect(moved.return_code, moved.return_msg).toBe("SUCCESS");

    expect(await studentNos({ class_id: made.mover })).toEqual(["MV-1", "MV-2"]);
    expect(await studentNos({ grade_id: made.gradeB })).toEqual(["MV-1", "MV-2", "MV-4"]);
    expect(await studentNos({ grade_id: made.gradeA })).toEqual(["MV-3"]);
    const record = item(await call("svc", "studentinfo", { id: items(await call("svc", "studentlist", { sch_id: no1, student_no: "MV-1" }))[0]!.id, sch_id: no1 }));
    expect(record).toMatchObject({ grade_id: made.gradeB, grade_title: "Move grade B", class_id: made.mover, class_title: "Mover" });

    // the reports by grade: by class (the class's grade) and by gender (the students' grade) count the same pupils
    const byClass = items(await call("school", "classstatis", { grade_id: made.gradeB }));
    expect(byClass.map((r) => [r.class_title, r.students])).toEqual(
      expect.arrayContaining([
        ["Move grade B Mover", 2],
        ["Move grade B Resident", 1],
      ]),
    );
    const bySex = await call("school", "sexstatis", { grade_id: made.gradeB });
    expect(bySex.data?.sums).toEqual({ students: 3 });
    expect((await call("school", "sexstatis", { grade_id: made.gradeA })).data?.sums).toEqual({ students: 1 });

    // a moved student is edited as any other: its class lies in its grade
    const student = items(await call("svc", "studentlist", { sch_id: no1, student_no: "MV-2" }))[0]!;
    const edit = await call("svc", "studentedit", { id: student.id, sch_id: no1, guardian_name: "Still here" });
    expect(edit.return_code, edit.return_msg).toBe("SUCCESS");
  });

  it("refuses a second class of one name in a grade, naming title, and allows it in another grade", async () => {
    const again = await call("school", "classesadd", { sch_id: no1, grade_id: made.gradeA, title: "Stayer" });
    expect(again.return_code).toBe("FAIL");
    expect(again.return_msg).toBe(zh("api.duplicate_within", { label: zh("field.class_title"), within: zh("field.grade") }));
    expect(errorsOf(again)).toEqual([{ field: "title", message: again.return_msg }]);

    const elsewhere = await call("school", "classesadd", { sch_id: no1, grade_id: made.gradeB, title: "Stayer" });
    expect(elsewhere.return_code, elsewhere.return_msg).toBe("SUCCESS");
    made.stayerB = Number(item(elsewhere).id);

    // renamed onto a taken name, or moved into a grade that has its name: refused, nothing changed
    const renamed = await call("school", "classesedit", { id: made.other, sch_id: no1, title: "Mover" });
    expect(errorsOf(renamed).map((e) => e.field)).toEqual(["title"]);
    const movedOnto = await call("school", "classesedit", { id: made.stayer, sch_id: no1, grade_id: made.gradeB });
    expect(errorsOf(movedOnto).map((e) => e.field)).toEqual(["title"]);
    expect(item(await call("school", "classesinfo", { id: made.stayer, sch_id: no1 }))).toMatchObject({ grade_id: made.gradeA, title: "Stayer" });
    expect(await studentNos({ grade_id: made.gradeA })).toEqual(["MV-3"]);
    // saved again under its own name, a class is no duplicate of itself
    expect((await call("school", "classesedit", { id: made.stayer, sch_id: no1, title: "Stayer", grade_id: made.gradeA })).return_code).toBe("SUCCESS");
  });

  it("keeps one class of a name when adds race, the others refused naming title", async () => {
    const race = await Promise.all([1, 2, 3].map(() => call("school", "classesadd", { sch_id: no1, grade_id: made.gradeA, title: "Raced" })));
    expect(race.filter((r) => r.return_code === "SUCCESS")).toHaveLength(1);
    for (const refused of race.filter((r) => r.return_code !== "SUCCESS")) {
      expect(refused.return_code).toBe("FAIL");
      expect(errorsOf(refused).map((e) => e.field)).toEqual(["title"]);
    }
    expect(items(await call("school", "classeslist", { grade_id: made.gradeA, title: "Raced" }))).toHaveLength(1);
  });

  it("leaves no student in a grade other than its class's when a class moves while a student is added to it", async () => {
    const cls = await added("school", "classesadd", { sch_id: no1, grade_id: made.gradeA, title: "Busy" });
    const first = await added("svc", "studentadd", { sch_id: no1, name: "First pupil", student_no: "MV-FIRST", sex: "2", grade_id: made.gradeA, class_id: cls });
    const move = () => call("school", "classesedit", { id: cls, sch_id: no1, grade_id: made.gradeB });
    const add = () => call("svc", "studentadd", { sch_id: no1, name: "Late pupil", student_no: "MV-LATE", sex: "1", grade_id: made.gradeA, class_id: cls });
    let results: { return_code: string; return_msg: string }[];
    if (kind === "postgres") {
      // on a server the two interleave: the move is held after it changed the class (a row of its students is
      // locked), the add checks the class meanwhile, then the move goes on
      const holder = new pg.Client({ connectionString: t.testDb.url });
      const watcher = new pg.Client({ connectionString: t.testDb.url });
      await Promise.all([holder.connect(), watcher.connect()]);
      const waiting = async (n: number) => {
        for (let i = 0; i < 500; i++) {
          const { rows } = await watcher.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'");
          if (rows[0].n >= n) return;
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        throw new Error(`fewer than ${n} writes waiting`);
      };
      try {
        await holder.query("BEGIN");
        await holder.query("SELECT id FROM students WHERE id = $1 FOR UPDATE", [first]);
        const moving = move();
        await waiting(1);
        const adding = add();
        await waiting(2);
        await holder.query("COMMIT");
        results = await Promise.all([moving, adding]);
      } finally {
        await Promise.all([holder.end(), watcher.end()]);
      }
    } else {
      // the embedded database runs one transaction at a time
      results = await Promise.all([move(), add()]);
    }
    expect(results[0]!.return_code, results[0]!.return_msg).toBe("SUCCESS");
    const students = items(await call("svc", "studentlist", { sch_id: no1, class_id: cls, limit: 100 }));
    // the add either came first and moved along, or found the class no longer in the grade it named
    expect(students.map((s) => s.grade_id)).toEqual(students.map(() => made.gradeB));
    expect(students.map((s) => s.student_no)).toEqual(results[1]!.return_code === "SUCCESS" ? ["MV-LATE", "MV-FIRST"] : ["MV-FIRST"]);
  });
});
