/**
 * Fee collection's activities and bills: an activity's fee items are saved with it (its
 * amount due the required fixed items), its targets must lie in its school, opening it bills each active
 * student targeted once, a student joining a targeted class gets a bill, bills are waived and adjusted only while
 * unpaid, closing closes the unpaid ones, the board counts each class, and the dates job opens and closes
 * activities. Every caller stays inside its own schools.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { activities, bills, classes, students } from "../../server/db/schema";
import { describeOnEmbedded } from "../helpers/db";
import { createTestApp, type TestApp } from "./support";

type Row = Record<string, unknown>;
const EN = { "accept-language": "en" };

describeOnEmbedded("fee collection activities", (kind) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const school: Record<string, number> = {};
  const call = (user: string, method: string, payload: Row = {}) => t.call("adminapiv2", method, payload, { token: tokens[user], headers: EN });
  const item = (res: { data?: Row }) => (res.data?.items ?? {}) as Row;
  const items = (res: { data?: Row }) => (res.data?.items ?? []) as Row[];
  const fieldOf = (res: { data?: Row }) => ((res.data?.errors ?? []) as { field: string }[])[0]?.field;
  let classA: { id: number; grade_id: number };
  let classB: { id: number };
  let foreignClass: number;

  const feeItems = [
    { title: "Tuition", amount: "150.50", amount_mode: "fixed", required: "Y" },
    { title: "Books", amount: "5.00", amount_mode: "fixed", required: "Y" },
    { title: "Donation", amount: "0.00", amount_mode: "open", required: "N" },
  ];
  const activity = (overrides: Row = {}): Row => ({
    sch_id: school.no1,
    title: "Spring term fees",
    start_date: "2026-03-01",
    end_date: "2026-03-31",
    target: "classes",
    class_ids: [classA.id],
    items: feeItems,
    ...overrides,
  });
  const activeStudentsOf = async (classId: number) => (await t.db.select().from(students).where(and(eq(students.class_id, classId), eq(students.status, "1")))).length;
  const billsOf = async (activityId: number) => (await t.db.select().from(bills).where(eq(bills.activity_id, activityId))) as Row[];

  beforeAll(async () => {
    t = await createTestApp(kind);
    for (const u of ["sysadmin", "svc", "staff", "school", "harbour", "svcv1", "schoolv1"]) tokens[u] = await t.login(u);
    for (const s of items(await call("sysadmin", "schoollist", { limit: 100 }))) {
      const key = { "Sunrise No.1 Primary School": "no1", "Sunrise No.2 Primary School": "no2", "Old Town Middle School": "oldtown" }[String(s.title)];
      if (key) school[key] = Number(s.id);
    }
    const [a, b] = await t.db.select().from(classes).where(eq(classes.sch_id, school.no1)).limit(2);
    classA = { id: a.id, grade_id: a.grade_id };
    classB = { id: b.id };
    foreignClass = (await t.db.select().from(classes).where(eq(classes.sch_id, school.oldtown)).limit(1))[0].id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it("saves an activity with its fee items in order, its amount due the required fixed items, and replaces the items on edit", async () => {
    const added = await call("svc", "activityadd", activity());
    expect(added.return_code, added.return_msg).toBe("SUCCESS");
    expect(item(added)).toMatchObject({ status: "draft", amount: "155.50", class_ids: [classA.id] });
    expect((item(added).items as Row[]).map((i) => [i.title, i.amount, i.amount_mode, i.required])).toEqual([
      ["Tuition", "150.50", "fixed", "Y"],
      ["Books", "5.00", "fixed", "Y"],
      ["Donation", "0.00", "open", "N"],
    ]);
    const id = item(added).id;
    const edited = await call("svc", "activityedit", { id, items: [{ title: "Tuition", amount: "200.00", amount_mode: "fixed", required: "Y" }] });
    expect(edited.return_code, edited.return_msg).toBe("SUCCESS");
    const info = item(await call("svc", "activityinfo", { id }));
    expect(info.amount).toBe("200.00");
    expect((info.items as Row[]).map((i) => i.title)).toEqual(["Tuition"]);
    expect(info.class_ids_title).toEqual([expect.any(String)]);
    // an edit that leaves the items out keeps them
    await call("svc", "activityedit", { id, title: "Spring fees" });
    expect((item(await call("svc", "activityinfo", { id })).items as Row[]).length).toBe(1);
    expect((await call("svc", "activitydel", { id })).return_code).toBe("SUCCESS");
  });

  it("refuses bad items and targets, naming the field", async () => {
    const before = (await t.db.select().from(activities)).length;
    expect(fieldOf(await call("svc", "activityadd", activity({ items: [] })))).toBe("items");
    expect(fieldOf(await call("svc", "activityadd", activity({ items: "tuition" })))).toBe("items");
    expect(fieldOf(await call("svc", "activityadd", activity({ items: [{ title: "Tuition", amount: "-1" }] })))).toBe("items.0.amount");
    expect(fieldOf(await call("svc", "activityadd", activity({ items: [...feeItems, { title: "", amount: "1" }] })))).toBe("items.3.title");
    expect(fieldOf(await call("svc", "activityadd", activity({ items: Array.from({ length: 21 }, () => feeItems[0]) })))).toBe("items");
    // a class of another provider's school, or of another school of the same provider
    expect(fieldOf(await call("svc", "activityadd", activity({ class_ids: [foreignClass] })))).toBe("class_ids");
    const no2Class = (await t.db.select().from(classes).where(eq(classes.sch_id, school.no2)).limit(1))[0].id;
    expect(fieldOf(await call("svc", "activityadd", activity({ class_ids: [classA.id, no2Class] })))).toBe("class_ids");
    expect((await t.db.select().from(activities)).length).toBe(before);
  });

  it("opens an activity once, billing each active student targeted; a student joining the class gets a bill; closing closes what is unpaid", async () => {
    const id = item(await call("svc", "activityadd", activity())).id as number;
    const opened = await call("svc", "activityact", { id, act: "open" });
    expect(opened.return_code, opened.return_msg).toBe("SUCCESS");
    const expected = await activeStudentsOf(classA.id);
    expect(expected).toBeGreaterThan(10);
    expect(opened.return_msg).toBe(`Activity opened: ${expected} bills issued`);
    let issued = await billsOf(id);
    expect(issued).toHaveLength(expected);
    expect(new Set(issued.map((b) => `${b.amount}/${b.status}/${b.class_id}/${b.sch_id}`))).toEqual(new Set([`15550/unpaid/${classA.id}/${school.no1}`]));

    // opened once: again is the wrong state, and an open activity is no longer edited
    expect((await call("svc", "activityact", { id, act: "open" })).return_msg).toBe("“Open” is not possible: the record is Open");
    expect((await call("svc", "activityedit", { id, title: "Changed" })).return_msg).toBe("“Edit” is not possible: the record is Open");

    // a student joining the targeted class is billed; one joining another class is not
    const joined = await call("svc", "studentadd", { sch_id: school.no1, name: "Han Meimei", student_no: "C-0001", sex: "2", grade_id: classA.grade_id, class_id: classA.id });
    expect(joined.return_code, joined.return_msg).toBe("SUCCESS");
    const other = await t.db.select().from(classes).where(eq(classes.id, classB.id));
    await call("svc", "studentadd", { sch_id: school.no1, name: "Li Lei", student_no: "C-0002", sex: "1", grade_id: other[0].grade_id, class_id: classB.id });
    issued = await billsOf(id);
    expect(issued).toHaveLength(expected + 1);
    expect(issued.some((b) => b.student_id === item(joined).id)).toBe(true);

    // bills are waived and adjusted while unpaid, with a reason
    const [first, second, third] = issued;
    expect(fieldOf(await call("svc", "billwaive", { id: first.id }))).toBe("reason");
    expect((await call("svc", "billwaive", { id: first.id, reason: "Hardship" })).return_code).toBe("SUCCESS");
    expect((await call("svc", "billwaive", { id: first.id, reason: "Again" })).return_msg).toBe("“Waive” is not possible: the record is Waived");
    expect(fieldOf(await call("svc", "billadjust", { id: second.id, amount: "0", reason: "x" }))).toBe("amount");
    const adjusted = await call("svc", "billadjust", { id: second.id, amount: "100.00", reason: "Sibling discount" });
    expect(item(adjusted)).toMatchObject({ amount: "100.00", status: "unpaid", remark: "Sibling discount" });

    // the board counts the class
    const board = item(await call("svc", "activityboard", { id }));
    expect(board.classes).toEqual([
      expect.objectContaining({ class_id: classA.id, bills: expected + 1, paid: 0, unpaid: expected, rate: 0, due: (((expected - 1) * 15550 + 10000) / 100).toFixed(2), collected: "0.00" }),
    ]);
    expect(board.total).toMatchObject({ bills: expected + 1, unpaid: expected });

    // closing closes the unpaid bills; the waived one stays waived
    const closed = await call("svc", "activityact", { id, act: "close" });
    expect(closed.return_msg).toBe(`Activity closed: ${expected} unpaid bills closed`);
    const states = (await billsOf(id)).reduce<Row>((m, b) => ({ ...m, [String(b.status)]: Number(m[String(b.status)] ?? 0) + 1 }), {});
    expect(states).toEqual({ waived: 1, closed: expected });
    expect((await call("svc", "billwaive", { id: third.id, reason: "Late" })).return_msg).toBe("“Waive” is not possible: the record is Closed");
    // a closed activity is kept, with its bills
    expect((await call("svc", "activitydel", { id })).return_msg).toBe("“Delete” is not possible: the record is Closed");
  });

  it("refuses to open an activity with nothing due", async () => {
    const id = item(await call("svc", "activityadd", activity({ title: "Voluntary", items: [feeItems[2]] }))).id;
    expect((await call("svc", "activityact", { id, act: "open" })).return_msg).toBe("Nothing is due: at least one required item needs a fixed amount above zero");
    expect((await t.db.select().from(activities).where(eq(activities.id, Number(id))))[0].status).toBe("draft");
  });

  it("keeps every caller inside its own schools", async () => {
    const id = item(await call("svc", "activityadd", activity({ title: "Visible to Sunrise" }))).id;
    expect((await call("harbour", "activityinfo", { id })).return_code).toBe("FAIL");
    expect((await call("svcv1", "activityinfo", { id })).return_msg).toBe("Record not found");
    expect((await call("svcv1", "activityact", { id, act: "open" })).return_msg).toBe("Record not found");
    expect((await call("schoolv1", "billlist", { activity_id: id })).data).toMatchObject({ items: [], total: 0 });
    // the v2 school reads its bills but does not open activities
    expect((await call("school", "activityact", { id, act: "open" })).return_msg).toBe("You are not allowed to do this");
  });

  it("opens a draft set to open on its start date, and closes an open activity once its end date has passed", async () => {
    const auto = item(await call("svc", "activityadd", activity({ title: "Opens by itself", start_date: "2026-03-03", auto_open: "Y" }))).id as number;
    const manual = item(await call("svc", "activityadd", activity({ title: "Stays a draft", start_date: "2026-03-03" }))).id as number;
    const ending = item(await call("svc", "activityadd", activity({ title: "Ends soon", end_date: "2026-03-03", class_ids: [classB.id] }))).id as number;
    expect((await call("svc", "activityact", { id: ending, act: "open" })).return_code).toBe("SUCCESS");
    const state = async (id: number) => (await t.db.select().from(activities).where(eq(activities.id, id)))[0].status;

    await t.app.jobs.runDueJobs();
    expect([await state(auto), await state(manual), await state(ending)]).toEqual(["draft", "draft", "open"]);
    t.clock.advance(24 * 3600 * 1000); // 2026-03-03
    await t.app.jobs.runDueJobs();
    expect([await state(auto), await state(manual), await state(ending)]).toEqual(["open", "draft", "open"]);
    expect((await billsOf(auto)).length).toBe(await activeStudentsOf(classA.id));
    t.clock.advance(24 * 3600 * 1000); // 2026-03-04: the 3rd has passed
    await t.app.jobs.runDueJobs();
    expect(await state(ending)).toBe("closed");
    expect(new Set((await billsOf(ending)).map((b) => b.status))).toEqual(new Set(["closed"]));
  });
});
