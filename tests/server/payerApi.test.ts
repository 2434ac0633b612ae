/**
 * The payer API (/weapi/h5api, no session), on both databases, through the sandbox: a payer opens a school's QR
 * code, finds a student, pays a bill, polls the payment and reads the e-receipt; a ticket reaches its own student
 * only and expires; every miss of h5find answers one neutral message, and lookups are throttled per address and
 * per code; a class of 50 payers paying at once pays every bill once.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { bills, feeOrders } from "../../server/db/schema";
import { describeOnDatabases } from "../helpers/db";
import {
  billOf,
  confirmSandbox,
  findStudent,
  h5,
  itemsOf,
  largestClass,
  payBills,
  payerWorld,
  unpaidStudents,
  type PayerStudent,
  type PayerWorld,
  type Row,
} from "./payerSupport";
import { createTestApp, type TestApp } from "./support";

const NEUTRAL = "No student matches these details. Please check them and try again.";

describeOnDatabases("the payer API", (kind) => {
  let t: TestApp;
  let world: PayerWorld;
  let pupils: PayerStudent[];
  let svc: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    svc = await t.login("svc");
    world = await payerWorld(t, svc);
    pupils = await unpaidStudents(t, world, 7);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("opens a code: the school and its open activities; an unknown or disabled code is refused", async () => {
    const entry = await h5(t, "h5entry", { code: world.code });
    expect(entry.return_code, entry.return_msg).toBe("SUCCESS");
    expect(itemsOf(entry)).toMatchObject({ school_title: "Sunrise No.1 Primary School", lookup: "name_and_student_no" });
    expect((itemsOf(entry).activities as Row[]).map((a) => a.id)).toContain(world.activityId);
    const unknown = await h5(t, "h5entry", { code: "AAAAAAAAAAAAAAAAAAAAAA" });
    expect(unknown).toMatchObject({ return_code: "FAIL", return_msg: "This payment code is not valid. Please scan the school's code again." });
    expect(unknown.data).toBeUndefined();
  });

  it("finds a student, pays a bill in the sandbox, sees it paid and reads the receipt", async () => {
    const pupil = pupils[0];
    const found = await h5(t, "h5find", { code: world.code, name: pupil.name, student_no: pupil.student_no });
    expect(found.return_code, found.return_msg).toBe("SUCCESS");
    const { ticket, student, bills: offered } = itemsOf(found) as { ticket: string; student: Row; bills: Row[] };
    expect(ticket).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // the name masked: its first and last characters
    expect(String(student.name)).not.toBe(pupil.name);
    expect(String(student.name)[0]).toBe(pupil.name[0]);
    expect(String(student.name)).toContain("*");
    expect(student.class_title).toEqual(expect.any(String));
    const bill = offered.find((b) => b.id === pupil.billId)!;
    expect(bill).toMatchObject({ status: "unpaid", amount: (pupil.billAmountFen / 100).toFixed(2) });
    expect((bill.items as Row[]).length).toBeGreaterThan(0);

    const order = await payBills(t, ticket, [pupil.billId]);
    expect(order).toMatchObject({ total_fee: bill.amount, sandbox: true });
    expect(order.payparam.code_url).toContain(`/pay/sandbox/${order.pay_no}`);
    expect(itemsOf(await h5(t, "h5checkpay", { ticket, pay_no: order.pay_no }))).toMatchObject({ status: "unpaid" });
    expect((await h5(t, "h5receipt", { ticket, pay_no: order.pay_no })).return_msg).toBe("This order has not been paid.");

    expect((await confirmSandbox(t, order.payparam.code_url)).return_code).toBe("SUCCESS");
    expect(itemsOf(await h5(t, "h5checkpay", { ticket, pay_no: order.pay_no }))).toMatchObject({ status: "paid", amount: bill.amount });
    const receipt = await h5(t, "h5receipt", { ticket, pay_no: order.pay_no });
    expect(receipt.return_code, receipt.return_msg).toBe("SUCCESS");
    expect(itemsOf(receipt)).toMatchObject({
      school_title: "Sunrise No.1 Primary School",
      student: { name: student.name, class_title: student.class_title },
      amount: bill.amount,
      transaction_id: `SANDBOX${order.pay_no}`,
      items: [{ title: bill.activity_title, amount: bill.amount }],
    });
    expect(Date.parse(String(itemsOf(receipt).paid_at))).toBe(t.clock.now().getTime());
    expect((await billOf(t, pupil.billId)).status).toBe("paid");
  });

  it("shows an adjusted bill's items with a line of the difference, so that they add up to what is owed", async () => {
    const pupil = pupils[6];
    const adjusted = await t.call("adminapiv2", "billadjust", { id: pupil.billId, amount: "100.00", reason: "Sibling discount" }, { token: svc });
    expect(adjusted.return_code, adjusted.return_msg).toBe("SUCCESS");
    const found = await h5(t, "h5find", { code: world.code, name: pupil.name, student_no: pupil.student_no });
    const bill = (itemsOf(found).bills as Row[]).find((b) => b.id === pupil.billId)!;
    const items = bill.items as { title: string; amount: string }[];
    expect(bill.amount).toBe("100.00");
    expect(items.at(-1)).toEqual({ title: "Adjustment", amount: ((10000 - pupil.billAmountFen) / 100).toFixed(2) });
    expect(items.reduce((sum, item) => sum + Math.round(Number(item.amount) * 100), 0)).toBe(10000);
  });

  it("answers nothing of another student: their bill and their order are not found with this ticket", async () => {
    const [mine, theirs] = [pupils[1], pupils[2]];
    const myOrders = async () => (await t.db.select().from(feeOrders).where(eq(feeOrders.student_id, mine.id))).length;
    const before = await myOrders();
    const myTicket = await findStudent(t, world, mine);
    const theirTicket = await findStudent(t, world, theirs);
    for (const billIds of [[theirs.billId], [mine.billId, theirs.billId]]) {
      const res = await h5(t, "h5pay", { ticket: myTicket, bill_ids: billIds });
      expect(res).toMatchObject({ return_code: "FAIL", return_msg: "Record not found" });
      expect(res.data).toBeUndefined();
    }
    const theirOrder = await payBills(t, theirTicket, [theirs.billId]);
    for (const method of ["h5checkpay", "h5receipt"]) {
      const res = await h5(t, method, { ticket: myTicket, pay_no: theirOrder.pay_no });
      expect(res, method).toMatchObject({ return_code: "FAIL", return_msg: "Record not found" });
      expect(res.data).toBeUndefined();
    }
    expect(await myOrders()).toBe(before);
  });

  it("answers every miss of h5find with one neutral message and nothing else", async () => {
    const pupil = pupils[3];
    const misses = [
      { code: "BBBBBBBBBBBBBBBBBBBBBB", name: pupil.name, student_no: pupil.student_no },
      { code: world.code, name: `${pupil.name}x`, student_no: pupil.student_no },
      { code: world.code, name: pupil.name, student_no: `${pupil.student_no}9` },
      { code: world.code, name: pupil.name },
      { code: world.code, name: pupil.name, phone4: (pupil.guardian_phone ?? "0000").slice(-4) },
    ];
    for (const [i, miss] of misses.entries()) {
      const res = await h5(t, "h5find", miss, `203.0.113.${100 + i}`);
      expect(res, JSON.stringify(miss)).toEqual({ return_code: "FAIL", return_msg: NEUTRAL });
    }
  });

  it("refuses an expired ticket", async () => {
    const pupil = pupils[4];
    const ticket = await findStudent(t, world, pupil);
    t.clock.advance(31 * 60_000);
    for (const [method, payload] of [
      ["h5pay", { ticket, bill_ids: [pupil.billId] }],
      ["h5checkpay", { ticket, pay_no: "P20260302100000123456789" }],
    ] as const) {
      expect(await h5(t, method, payload)).toMatchObject({ return_code: "FAIL", return_msg: "Your session has expired. Please find the student again." });
    }
    expect(await h5(t, "h5pay", { ticket: "not a ticket", bill_ids: [pupil.billId] })).toMatchObject({ return_code: "FAIL" });
    // the prune job forgets it
    await t.app.jobs.runDueJobs();
  });

  it("throttles h5find per client address and per code, with a clear message", async () => {
    const pupil = pupils[5];
    const ip = "203.0.113.200";
    for (let i = 0; i < 20; i++) expect((await h5(t, "h5find", { code: world.code, name: "Nobody", student_no: `X${i}` }, ip)).return_msg).toBe(NEUTRAL);
    // locked now, even for the right details, from that address only
    const locked = await h5(t, "h5find", { code: world.code, name: pupil.name, student_no: pupil.student_no }, ip);
    expect(locked).toMatchObject({ return_code: "FAIL", return_msg: "Too many attempts. Please try again in 1 minutes." });
    expect((await h5(t, "h5find", { code: world.code, name: pupil.name, student_no: pupil.student_no }, "203.0.113.201")).return_code).toBe("SUCCESS");

    // the code: a hundred misses from anywhere lock it for everyone
    for (let i = 0; i < 100; i++) await h5(t, "h5find", { code: world.code, name: "Nobody", student_no: `Y${i}` }, `198.18.${Math.floor(i / 10)}.${i % 10}`);
    const codeLocked = await h5(t, "h5find", { code: world.code, name: pupil.name, student_no: pupil.student_no }, "203.0.113.202");
    expect(codeLocked.return_msg).toMatch(/^Too many attempts/);
    t.clock.advance(2 * 60_000);
    expect((await h5(t, "h5find", { code: world.code, name: pupil.name, student_no: pupil.student_no }, "203.0.113.202")).return_code).toBe("SUCCESS");
  });

  it("takes a class of 50 payers finding and paying at once: no failure, every bill paid once", async () => {
    const classId = await largestClass(t, world);
    const svcToken = await t.login("svc");
    let payers = await unpaidStudents(t, world, 50, classId);
    // the class filled up to 50 (a student joining an open activity's class is billed)
    const [sample] = await t.db.select().from(bills).where(eq(bills.class_id, classId)).limit(1);
    const { students } = await import("../../server/db/schema");
    const [classmate] = await t.db.select().from(students).where(eq(students.id, sample.student_id));
    for (let i = payers.length; i < 50; i++) {
      const added = await t.call("adminapiv2", "studentadd", { sch_id: world.schId, name: `同学${i}`, student_no: `P50-${i}`, sex: "1", grade_id: classmate.grade_id, class_id: classId }, { token: svcToken });
      expect(added.return_code, added.return_msg).toBe("SUCCESS");
    }
    payers = await unpaidStudents(t, world, 50, classId);
    expect(payers).toHaveLength(50);
    const outcomes = await Promise.all(
      payers.map(async (payer, i) => {
        const ip = `10.50.0.${i + 1}`;
        const found = await h5(t, "h5find", { code: world.code, name: payer.name, student_no: payer.student_no }, ip);
        if (found.return_code !== "SUCCESS") return `find ${found.return_msg}`;
        const paid = await h5(t, "h5pay", { ticket: itemsOf(found).ticket, bill_ids: [payer.billId] }, ip);
        if (paid.return_code !== "SUCCESS") return `pay ${paid.return_msg}`;
        const order = itemsOf(paid) as { pay_no: string; payparam: { code_url: string } };
        const confirmed = await confirmSandbox(t, order.payparam.code_url, { ip });
        if (confirmed.return_code !== "SUCCESS") return `confirm ${confirmed.return_msg}`;
        const checked = await h5(t, "h5checkpay", { ticket: itemsOf(found).ticket, pay_no: order.pay_no }, ip);
        return itemsOf(checked).status === "paid" ? "ok" : `check ${JSON.stringify(checked)}`;
      }),
    );
    expect(outcomes.filter((o) => o !== "ok")).toEqual([]);
    for (const payer of payers) {
      const bill = await billOf(t, payer.billId);
      expect(bill).toMatchObject({ status: "paid", paid_amount: payer.billAmountFen });
      const orders = await t.db.select().from(feeOrders).where(and(eq(feeOrders.student_id, payer.id), eq(feeOrders.activity_id, world.activityId)));
      // (besides any order of the bill the demo closed unpaid before)
      expect(orders.filter((o) => o.status !== "closed").map((o) => `${o.status}/${o.duplicate}`)).toEqual(["paid/N"]);
    }
  });
});
