/**
 * Activity forms and after-payment actions: a provider's form binds activities of its own
 * schools only, one form per activity, and its choices need options; the payer sees the questions of a bill's
 * activity, h5pay refuses a required question unanswered, a question of no form of the bills, a value outside the
 * options and a text too long, naming the question, and stores the answers per bill (the newest counts, the
 * earlier kept); activityformact lists them with the student and class, by activity, and exports them; the
 * after-payment actions come with the receipt of a paid order only, and only those of its activities.
 */
import { and, asc, eq, ne } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activities, activityForms, formAnswers, formQuestions, payEndActions, schools } from "../../server/db/schema";
import { describeOnEmbedded } from "../helpers/db";
import { confirmSandbox, findStudent, h5, itemsOf, payerWorld, unpaidStudents, type PayerStudent, type PayerWorld, type Row } from "./payerSupport";
import { sheetRows } from "./registryCases";
import { createTestApp, type TestApp } from "./support";

interface Question {
  id: number;
  label: string;
  kind: string;
  options: string[];
  required: boolean;
}

describeOnEmbedded("activity forms and after-payment actions", (kind) => {
  let t: TestApp;
  let svc: string;
  let harbour: string;
  let world: PayerWorld;
  let pupils: PayerStudent[];
  let formId: number;
  /** another activity of Sunrise No.1 (its draft outing) */
  let otherActivityId: number;

  const admin = (method: string, payload: Row, token = svc) => t.call("adminapiv2", method, payload, { token });
  const formPayload = (activityIds: number[]) => ({
    title: "Term details",
    activity_ids: activityIds,
    status: "1",
    questions: [
      { label: "Going home", kind: "choice", options: "Picked up\nSchool bus\n Walks home ", required: "Y" },
      { label: "Allergies", kind: "text", options: "left over", required: "Y" },
      { label: "Clubs", kind: "multi", options: "Chess\nChoir\nFootball", required: "N" },
    ],
  });

  beforeAll(async () => {
    t = await createTestApp(kind);
    svc = await t.login("svc");
    harbour = await t.login("harbour");
    world = await payerWorld(t, svc);
    pupils = await unpaidStudents(t, world, 3);
    const [demo] = await t.db.select({ id: activityForms.id }).from(activityForms).where(eq(activityForms.sysid, world.sysid));
    formId = demo.id;
    const [other] = await t.db
      .select({ id: activities.id })
      .from(activities)
      .where(and(eq(activities.sch_id, world.schId), ne(activities.id, world.activityId)))
      .orderBy(asc(activities.id));
    otherActivityId = other.id;
    // the provider asks its own questions on the demo form, bound to the open activity
    const edited = await admin("activityformedit", { id: formId, ...formPayload([world.activityId]) });
    expect(edited.return_code, edited.return_msg).toBe("SUCCESS");
  });
  afterAll(async () => {
    await t?.close();
  });

  async function questions(): Promise<Question[]> {
    const ticket = await findStudent(t, world, pupils[0]);
    const found = await h5(t, "h5find", { code: world.code, name: pupils[0].name, student_no: pupils[0].student_no });
    const bill = (itemsOf(found).bills as Row[]).find((b) => b.id === pupils[0].billId)!;
    expect(ticket).toBeTruthy();
    return (bill.form as { questions: Question[] }).questions;
  }

  describe("the form", () => {
    it("keeps its questions in order, a choice's options trimmed one per line and a text's none", async () => {
      const info = itemsOf(await admin("activityforminfo", { id: formId }));
      expect(info.activity_ids).toEqual([world.activityId]);
      expect((info.questions as Row[]).map((q) => [q.label, q.kind, q.options, q.required])).toEqual([
        ["Going home", "choice", "Picked up\nSchool bus\nWalks home", "Y"],
        ["Allergies", "text", null, "Y"],
        ["Clubs", "multi", "Chess\nChoir\nFootball", "N"],
      ]);
    });

    it("binds an activity to one form only, and a choice needs two different options; nothing is written when refused", async () => {
      const before = await t.db.select({ id: activityForms.id }).from(activityForms);
      const taken = await admin("activityformadd", formPayload([world.activityId]));
      expect(taken.return_code).toBe("FAIL");
      expect(taken.data?.errors).toEqual([{ field: "activity_ids", message: expect.stringContaining("Term details") }]);

      const oneOption = formPayload([otherActivityId]);
      oneOption.questions[0].options = "Picked up\n\nPicked up";
      const refused = await admin("activityformadd", oneOption);
      expect(refused.return_code).toBe("FAIL");
      expect((refused.data?.errors as Row[])[0].field).toBe("questions.0.options");

      // a choice's options are required of the row itself, by the rule its declaration states, before anything is saved
      const noOptions = formPayload([otherActivityId]);
      noOptions.questions[0].options = "";
      const bare = await admin("activityformadd", noOptions);
      expect(bare.return_code).toBe("FAIL");
      expect(bare.data?.errors).toEqual([{ field: "questions.0.options", message: expect.stringMatching(/^问题 1: 选项/) }]);

      const twice = formPayload([otherActivityId]);
      twice.questions[1].label = "Going home";
      expect(((await admin("activityformadd", twice)).data?.errors as Row[])[0].field).toBe("questions.1.label");
      expect(await t.db.select({ id: activityForms.id }).from(activityForms)).toHaveLength(before.length);

      const added = await admin("activityformadd", formPayload([otherActivityId]));
      expect(added.return_code, added.return_msg).toBe("SUCCESS");
      expect(await admin("activityformdel", { id: itemsOf(added).id })).toMatchObject({ return_code: "SUCCESS" });
    });

    it("binds activities of the provider's own schools only", async () => {
      const [harbourActivity] = await t.db.select({ id: activities.id }).from(activities).where(ne(activities.sysid, world.sysid)).limit(1);
      const foreign = await admin("activityformadd", formPayload([harbourActivity.id]));
      expect(foreign.return_code).toBe("FAIL");
      expect((foreign.data?.errors as Row[])[0].field).toBe("activity_ids");
      // and another provider does not see the form
      expect((await admin("activityforminfo", { id: formId }, harbour)).return_code).toBe("FAIL");
    });
  });

  describe("the payer's answers", () => {
    it("h5find gives each bill its activity's questions", async () => {
      const qs = await questions();
      expect(qs.map((q) => [q.label, q.kind, q.options, q.required])).toEqual([
        ["Going home", "choice", ["Picked up", "School bus", "Walks home"], true],
        ["Allergies", "text", [], true],
        ["Clubs", "multi", ["Chess", "Choir", "Football"], false],
      ]);
    });

    it("refuses a required question unanswered, a question of no form of the bills, a value outside the options and a text too long, naming the question", async () => {
      const [going, allergies, clubs] = await questions();
      const ticket = await findStudent(t, world, pupils[0]);
      const pay = (answers: Row[]) => h5(t, "h5pay", { ticket, bill_ids: [pupils[0].billId], answers });

      const missing = await pay([{ question_id: going.id, value: "School bus" }]);
      expect(missing).toMatchObject({ return_code: "FAIL", return_msg: 'Please answer "Allergies".' });
      expect((missing.data?.errors as Row[])[0]).toMatchObject({ question_id: allergies.id });
      expect((await pay([])).data?.errors).toEqual([expect.objectContaining({ question_id: going.id })]);

      // a question of Harbour's, or of no form at all
      const [foreign] = await t.db
        .insert(activityForms)
        .values({ sysid: (await t.db.select({ sysid: schools.sysid }).from(schools).where(eq(schools.title, "Harbour Bay School")))[0].sysid, title: "Harbour's", status: "1" })
        .returning({ id: activityForms.id });
      const [foreignQuestion] = await t.db.insert(formQuestions).values({ sysid: 0, form_id: foreign.id, label: "Theirs", kind: "text" }).returning({ id: formQuestions.id });
      for (const id of [foreignQuestion.id, 2_000_000_000]) {
        const refused = await pay([{ question_id: going.id, value: "School bus" }, { question_id: allergies.id, value: "none" }, { question_id: id, value: "x" }]);
        expect(refused.return_code).toBe("FAIL");
        expect((refused.data?.errors as Row[])[0]).toMatchObject({ question_id: id });
      }

      const notOption = await pay([{ question_id: going.id, value: "By helicopter" }, { question_id: allergies.id, value: "none" }]);
      expect(notOption).toMatchObject({ return_code: "FAIL", return_msg: '"Going home": choose one of the options.' });
      const twoForOne = await pay([{ question_id: going.id, value: ["School bus", "Picked up"] }, { question_id: allergies.id, value: "none" }]);
      expect((twoForOne.data?.errors as Row[])[0]).toMatchObject({ question_id: going.id });
      const tooLong = await pay([{ question_id: going.id, value: "School bus" }, { question_id: allergies.id, value: "x".repeat(201) }]);
      expect(tooLong).toMatchObject({ return_code: "FAIL", return_msg: '"Allergies": at most 200 characters.' });
      const notChoice = await pay([{ question_id: going.id, value: "School bus" }, { question_id: allergies.id, value: "none" }, { question_id: clubs.id, value: ["Chess", "Rugby"] }]);
      expect((notChoice.data?.errors as Row[])[0]).toMatchObject({ question_id: clubs.id });

      // nothing refused made an order or stored an answer
      expect(await t.db.select().from(formAnswers)).toHaveLength(0);
    });

    it("stores the answers with the order per bill and question: paying again keeps the earlier ones and the newest counts", async () => {
      const [going, allergies, clubs] = await questions();
      const pupil = pupils[0];
      const ticket = await findStudent(t, world, pupil);
      const first = await h5(t, "h5pay", { ticket, bill_ids: [pupil.billId], answers: [{ question_id: going.id, value: "School bus" }, { question_id: allergies.id, value: "=1+1 peanuts" }] });
      expect(first.return_code, first.return_msg).toBe("SUCCESS");
      const stored = () => t.db.select().from(formAnswers).where(eq(formAnswers.bill_id, pupil.billId)).orderBy(asc(formAnswers.id));
      expect((await stored()).map((a) => [a.question, a.value, a.student_id, a.activity_id, a.class_id, a.form_id])).toEqual([
        ["Going home", "School bus", pupil.id, world.activityId, pupil.class_id, formId],
        ["Allergies", "=1+1 peanuts", pupil.id, world.activityId, pupil.class_id, formId],
      ]);

      // the page finds them again with the student
      const again = await h5(t, "h5find", { code: world.code, name: pupil.name, student_no: pupil.student_no });
      const bill = (itemsOf(again).bills as Row[]).find((b) => b.id === pupil.billId)!;
      expect((bill.form as Row).answers).toEqual({ [going.id]: "School bus", [allergies.id]: "=1+1 peanuts" });

      // a second order for the same bill: the choice answered anew, the clubs for the first time
      const second = await h5(t, "h5pay", {
        ticket,
        bill_ids: [pupil.billId],
        answers: [{ question_id: going.id, value: "Picked up" }, { question_id: allergies.id, value: "=1+1 peanuts" }, { question_id: clubs.id, value: ["Football", "Chess"] }],
      });
      expect(second.return_code, second.return_msg).toBe("SUCCESS");
      const rows = await stored();
      expect(rows.map((a) => [a.question, a.value])).toEqual([
        ["Going home", "Picked up"],
        ["Allergies", "=1+1 peanuts"],
        ["Clubs", "Chess; Football"],
      ]);
      const [secondOrder] = await t.db.select({ id: formAnswers.order_id }).from(formAnswers).where(and(eq(formAnswers.bill_id, pupil.billId), eq(formAnswers.question, "Clubs")));
      expect(rows.every((a) => a.order_id === secondOrder.id)).toBe(true);
    });

    it("activityformact lists the answers with the student and class, by activity, and exports them as the list shows them", async () => {
      const list = await admin("formanswerlist", { form_id: formId, activity_id: world.activityId, limit: 50 });
      expect(list.return_code, list.return_msg).toBe("SUCCESS");
      const items = (list.data?.items ?? []) as Row[];
      expect(items).toHaveLength(3);
      expect(items[0]).toMatchObject({ question: "Clubs", value: "Chess; Football", student_id: pupils[0].id, student_title: `${pupils[0].name} (${pupils[0].student_no})`, class_title: expect.any(String), activity_id: world.activityId });
      expect((await admin("formanswerlist", { form_id: formId, activity_id: otherActivityId })).data?.items).toEqual([]);
      // another provider sees none of them
      expect((await admin("formanswerlist", { form_id: formId }, harbour)).data?.items ?? []).toEqual([]);

      const exported = await t.exportFile("adminapiv2", "formanswerexport", { form_id: formId, activity_id: world.activityId }, { token: svc });
      expect(exported.return_code, exported.return_msg).toBe("SUCCESS");
      const rows = await sheetRows(String((exported.data?.items as Row).content_base64));
      // in the caller's language (the console's default, Chinese)
      expect(rows[0]).toEqual(["学校", "活动", "学生", "班级", "问题", "回答", "填写时间"]);
      expect(rows).toHaveLength(4);
      // a text that would read as a formula stays text, as typed (a string cell, quote-prefixed: tests/server/exportCells.test.ts)
      expect(rows.slice(1).map((r) => [r[2], r[4], r[5]])).toContainEqual([`${pupils[0].name} (${pupils[0].student_no})`, "Allergies", "=1+1 peanuts"]);
    });
  });

  describe("after-payment actions", () => {
    it("answers only http(s) links, and a group QR code needs its image", async () => {
      const script = await admin("payendactionadd", { title: "Bad", kind: "link", url: "javascript:alert(1)", status: "1" });
      expect((script.data?.errors as Row[])[0].field).toBe("url");
      const noImage = await admin("payendactionadd", { title: "Group", kind: "group_qr", status: "1" });
      expect((noImage.data?.errors as Row[])[0].field).toBe("image");
    });

    it("binds an action to activities of the provider's schools only, by payendactionbind", async () => {
      const added = await admin("payendactionadd", { title: "Class group", kind: "group_qr", image: "https://img.example.com/group.png", text: "Scan to join", status: "1" });
      expect(added.return_code, added.return_msg).toBe("SUCCESS");
      const id = Number(itemsOf(added).id);
      expect(await admin("payendactionbind", { id, activity_ids: [otherActivityId] })).toMatchObject({ return_code: "SUCCESS" });
      expect(itemsOf(await admin("payendactioninfo", { id }))).toMatchObject({ activity_ids: [otherActivityId] });
      // another provider's action is not found; its activities are refused
      const [harbourActivity] = await t.db.select({ id: activities.id, sysid: activities.sysid }).from(activities).where(ne(activities.sysid, world.sysid)).limit(1);
      const [theirs] = await t.db.insert(payEndActions).values({ sysid: harbourActivity.sysid, title: "Theirs", kind: "link", url: "https://harbour.example.com" }).returning({ id: payEndActions.id });
      const notFound = (await admin("payendactioninfo", { id: 2_000_000_000 })).return_msg;
      expect(await admin("payendactionbind", { id: theirs.id, activity_ids: [otherActivityId] })).toMatchObject({ return_code: "FAIL", return_msg: notFound });
      expect((await t.db.select().from(payEndActions).where(eq(payEndActions.id, theirs.id)))[0].activity_ids).toBeNull();
      const foreign = await admin("payendactionbind", { id, activity_ids: [harbourActivity.id] });
      expect((foreign.data?.errors as Row[])[0].field).toBe("activity_ids");
      expect(itemsOf(await admin("payendactioninfo", { id }))).toMatchObject({ activity_ids: [otherActivityId] });
    });

    it("come with the receipt of a paid order only, and only those bound to its activities", async () => {
      const [going, allergies] = await questions();
      const pupil = pupils[1];
      const ticket = await findStudent(t, world, pupil);
      const order = itemsOf(
        await h5(t, "h5pay", { ticket, bill_ids: [pupil.billId], answers: [{ question_id: going.id, value: "Walks home" }, { question_id: allergies.id, value: "none" }] }),
      ) as { pay_no: string; payparam: { code_url: string } };
      const unpaid = await h5(t, "h5receipt", { ticket, pay_no: order.pay_no });
      expect(unpaid).toMatchObject({ return_code: "FAIL" });
      expect(unpaid.data).toBeUndefined();

      expect((await confirmSandbox(t, order.payparam.code_url)).return_code).toBe("SUCCESS");
      const receipt = itemsOf(await h5(t, "h5receipt", { ticket, pay_no: order.pay_no }));
      // the demo's link to the parents' group; the group QR code is bound to another activity
      expect(receipt.actions).toEqual([
        { id: expect.any(Number), kind: "link", title: "加入家长群 Parents' group", text: expect.any(String), url: "https://sunrise.example.com/parents-group", image: null },
      ]);

      const [groupQr] = await t.db.select({ id: payEndActions.id }).from(payEndActions).where(eq(payEndActions.kind, "group_qr"));
      expect(await admin("payendactionbind", { id: groupQr.id, activity_ids: [otherActivityId, world.activityId] })).toMatchObject({ return_code: "SUCCESS" });
      const bound = itemsOf(await h5(t, "h5receipt", { ticket, pay_no: order.pay_no }));
      expect((bound.actions as Row[]).map((a) => [a.kind, a.image ?? a.url])).toEqual([
        ["link", "https://sunrise.example.com/parents-group"],
        ["group_qr", "https://img.example.com/group.png"],
      ]);
      // switched off: no longer offered
      expect(await admin("payendactionedit", { id: groupQr.id, status: "0" })).toMatchObject({ return_code: "SUCCESS" });
      expect((itemsOf(await h5(t, "h5receipt", { ticket, pay_no: order.pay_no })).actions as Row[]).map((a) => a.kind)).toEqual(["link"]);
    });
  });
});
