/**
 * The payer API (/weapi/h5api, no session), on both databases, through the sandbox: a payer opens a school's QR
 * code, finds a student, pays a bill, polls the payment and reads the e-receipt; a ticket reaches its own student
 * only and expires; every miss of h5find answers one neutral message, and lookups are throttled per address and
 * per student, so that wrong guesses from a few addresses never lock the real payer out; h5pay answers the same bills
 * asked again with their open order, keeps at most three open per bill, is throttled per ticket and refuses a total
 * over the ceiling; h5checkpay asks the gateway about an unpaid order (a lost notification); a class of 50 payers
 * paying at once pays every bill once.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { activities, bills, feeOrders, feePayments, paymentOrders } from "../../server/db/schema";
import { BUSY_MS } from "../../server/auth/throttle";
import { GATEWAY_ASK_INTERVAL_MS } from "../../server/payments/checkpay";
import { recordOrderClosed } from "../../server/payments/close";
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

  /** the open orders of a student closed, as the closing job closes them */
  const closeOpenOrders = async (studentId: number) => {
    const open = await t.db
      .select({ id: paymentOrders.id })
      .from(paymentOrders)
      .innerJoin(feeOrders, eq(feeOrders.pay_no, paymentOrders.payNo))
      .where(and(eq(feeOrders.student_id, studentId), eq(feeOrders.status, "unpaid")));
    for (const { id } of open) await recordOrderClosed(t.db, id, t.clock.now());
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    svc = await t.login("svc");
    world = await payerWorld(t, svc);
    pupils = await unpaidStudents(t, world, 14);
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
    expect(unknown).toMatchObject({ return_code: "FAIL", return_msg: "This channel QR code is not valid. Please scan the school's channel QR code again." });
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

  it("throttles h5find per client address, with a clear message", async () => {
    const pupil = pupils[5];
    const ip = "203.0.113.200";
    for (let i = 0; i < 20; i++) expect((await h5(t, "h5find", { code: world.code, name: `Nobody${i}`, student_no: `X${i}` }, ip)).return_msg).toBe(NEUTRAL);
    // locked now, even for the right details, from that address only
    const locked = await h5(t, "h5find", { code: world.code, name: pupil.name, student_no: pupil.student_no }, ip);
    expect(locked).toMatchObject({ return_code: "FAIL", return_msg: "Too many attempts. Please try again in 1 minutes." });
    expect((await h5(t, "h5find", { code: world.code, name: pupil.name, student_no: pupil.student_no }, "203.0.113.201")).return_code).toBe("SUCCESS");
    t.clock.advance(2 * 60_000);
    expect((await h5(t, "h5find", { code: world.code, name: pupil.name, student_no: pupil.student_no }, ip)).return_code).toBe("SUCCESS");
  });

  it("lets the real payer find the student from another address after six addresses' wrong guesses", async () => {
    const pupil = pupils[7];
    const guessers = Array.from({ length: 6 }, (_, i) => `198.18.7.${i + 1}`);
    // each address guesses the student's number until it is held back, then other students' (112 misses on the code)
    const missesOnStudent: number[] = [];
    for (const ip of guessers) {
      let misses = 0;
      for (let i = 0; i < 10; i++) {
        const res = await h5(t, "h5find", { code: world.code, name: pupil.name, student_no: `G${i}` }, ip);
        if (res.return_msg !== NEUTRAL) {
          expect(res.return_msg).toMatch(/^Too many attempts/);
          break;
        }
        misses++;
      }
      missesOnStudent.push(misses);
      for (let i = 0; i < 15; i++) expect((await h5(t, "h5find", { code: world.code, name: `Someone${i}`, student_no: `G${i}` }, ip)).return_msg).toBe(NEUTRAL);
    }
    // five guesses per address, twenty per student; past that an address that has not missed yet gets one
    expect(missesOnStudent).toEqual([5, 5, 5, 5, 1, 1]);
    // the real payer, from an address of their own
    const found = await h5(t, "h5find", { code: world.code, name: pupil.name, student_no: pupil.student_no }, "203.0.113.77");
    expect(found.return_code, found.return_msg).toBe("SUCCESS");
    // and every other payer of the code
    expect((await h5(t, "h5find", { code: world.code, name: pupils[8].name, student_no: pupils[8].student_no }, "203.0.113.78")).return_code).toBe("SUCCESS");
    // a guessing address stays held back, even with the right number
    expect((await h5(t, "h5find", { code: world.code, name: pupil.name, student_no: pupil.student_no }, guessers[0])).return_msg).toMatch(/^Too many attempts/);
    // so does a new address once it has missed this student: the student's own limit is used up
    const newcomer = "198.18.8.1";
    expect((await h5(t, "h5find", { code: world.code, name: pupil.name, student_no: "G9" }, newcomer)).return_msg).toBe(NEUTRAL);
    expect((await h5(t, "h5find", { code: world.code, name: pupil.name, student_no: pupil.student_no }, newcomer)).return_msg).toMatch(/^Too many attempts/);
    // (it holds back lookups of that student only)
    expect((await h5(t, "h5find", { code: world.code, name: pupils[9].name, student_no: pupils[9].student_no }, newcomer)).return_code).toBe("SUCCESS");
  });

  it("answers the same bills asked again with their open order, keeps at most three open per bill and makes one at a time", async () => {
    const pupil = pupils[10];
    const openOrders = async () =>
      (await t.db.select().from(feeOrders).where(and(eq(feeOrders.student_id, pupil.id), eq(feeOrders.status, "unpaid")))).map((o) => o.pay_no);
    const ticket = await findStudent(t, world, pupil, "203.0.113.90");
    // forty at once from one ticket: one order, the others told to try again or given it
    const burst = await Promise.all(Array.from({ length: 40 }, () => h5(t, "h5pay", { ticket, bill_ids: [pupil.billId] }, "203.0.113.90")));
    const made = [...new Set(burst.filter((r) => r.return_code === "SUCCESS").map((r) => String(itemsOf(r).pay_no)))];
    expect(made).toHaveLength(1);
    for (const refused of burst.filter((r) => r.return_code !== "SUCCESS")) {
      expect(["An order for this student is being made: please try again in a moment", "Too many attempts. Please try again in 1 minutes."]).toContain(refused.return_msg);
    }
    expect(await openOrders()).toEqual(made);
    // a moment later (those told to wait are held back that long), asked again one after another: the same order, its QR code as before
    t.clock.advance(BUSY_MS);
    for (let i = 0; i < 10; i++) {
      const again = await h5(t, "h5pay", { ticket, bill_ids: [pupil.billId] }, "203.0.113.90");
      expect(itemsOf(again), again.return_msg).toMatchObject({ pay_no: made[0], trade_type: "NATIVE", payparam: { code_url: expect.stringContaining(made[0]) } });
    }
    // other phones of the family order for themselves, up to three open orders for the bill
    for (const ip of ["203.0.113.91", "203.0.113.92"]) await payBills(t, await findStudent(t, world, pupil, ip), [pupil.billId], ip);
    expect(await openOrders()).toHaveLength(3);
    const fourth = await h5(t, "h5pay", { ticket: await findStudent(t, world, pupil, "203.0.113.93"), bill_ids: [pupil.billId] }, "203.0.113.93");
    const [activity] = await t.db.select({ title: activities.title }).from(activities).where(eq(activities.id, world.activityId));
    expect(fourth).toMatchObject({ return_code: "FAIL", return_msg: `${activity.title}: 3 orders are already waiting to be paid. Pay one of them, or try again once they have closed` });
    expect(fourth.data).toBeUndefined();
    expect(await openOrders()).toHaveLength(3);
    // once one of them is closed, there is room for one more
    const [first] = await t.db.select().from(paymentOrders).where(eq(paymentOrders.payNo, made[0]));
    expect(await recordOrderClosed(t.db, first.id, t.clock.now())).toBe(true);
    expect((await h5(t, "h5pay", { ticket: await findStudent(t, world, pupil, "203.0.113.93"), bill_ids: [pupil.billId] }, "203.0.113.93")).return_code).toBe("SUCCESS");
    await closeOpenOrders(pupil.id);
  });

  it("throttles the orders one ticket makes", async () => {
    const pupil = pupils[11];
    const ticket = await findStudent(t, world, pupil, "203.0.113.95");
    // each order closed before the next is asked for: five made, the sixth refused
    for (let i = 0; i < 5; i++) {
      await payBills(t, ticket, [pupil.billId], "203.0.113.95");
      await closeOpenOrders(pupil.id);
    }
    expect(await h5(t, "h5pay", { ticket, bill_ids: [pupil.billId] }, "203.0.113.95")).toMatchObject({ return_code: "FAIL", return_msg: "Too many attempts. Please try again in 1 minutes." });
    // another phone of the family is not held back
    expect((await h5(t, "h5pay", { ticket: await findStudent(t, world, pupil, "203.0.113.96"), bill_ids: [pupil.billId] }, "203.0.113.96")).return_code).toBe("SUCCESS");
    await closeOpenOrders(pupil.id);
  });

  it("refuses an order over the ceiling with a message naming its bills", async () => {
    const pupil = pupils[12];
    const [activity] = await t.db.select({ title: activities.title }).from(activities).where(eq(activities.id, world.activityId));
    const adjust = async (amount: string) => expect((await t.call("adminapiv2", "billadjust", { id: pupil.billId, amount, reason: "Boarding" }, { token: svc })).return_code).toBe("SUCCESS");
    await adjust("50000.01");
    const ticket = await findStudent(t, world, pupil);
    const refused = await h5(t, "h5pay", { ticket, bill_ids: [pupil.billId] });
    expect(refused).toEqual({
      return_code: "FAIL",
      return_msg: `${activity.title}: ¥50000.01 in all, more than one payment may take (at most ¥50000.00). Choose fewer bills, or ask the school how to pay this amount`,
    });
    expect(await t.db.select().from(feeOrders).where(and(eq(feeOrders.student_id, pupil.id), eq(feeOrders.status, "unpaid")))).toEqual([]);
    // at the ceiling it is taken
    await adjust("50000.00");
    expect(await payBills(t, ticket, [pupil.billId])).toMatchObject({ total_fee: "50000.00" });
    await closeOpenOrders(pupil.id);
    await adjust((pupil.billAmountFen / 100).toFixed(2));
  });

  it("applies a payment whose notification was lost when the page polls it, asking the gateway once every few seconds", async () => {
    const pupil = pupils[13];
    const ticket = await findStudent(t, world, pupil);
    const order = await payBills(t, ticket, [pupil.billId]);
    const check = async () => itemsOf(await h5(t, "h5checkpay", { ticket, pay_no: order.pay_no })).status;
    expect(await check()).toBe("unpaid");
    // paid at the gateway, the console not told
    expect((await confirmSandbox(t, order.payparam.code_url, { notify: false })).return_code).toBe("SUCCESS");
    // the gateway was asked a moment ago: not again yet
    t.clock.advance(GATEWAY_ASK_INTERVAL_MS - 1);
    expect(await check()).toBe("unpaid");
    t.clock.advance(1);
    expect(await check()).toBe("paid");
    expect(await check()).toBe("paid");
    expect((await billOf(t, pupil.billId)).status).toBe("paid");
    // applied once
    expect(await t.db.select().from(feePayments).where(eq(feePayments.pay_no, order.pay_no))).toHaveLength(1);
    const receipt = await h5(t, "h5receipt", { ticket, pay_no: order.pay_no });
    expect(itemsOf(receipt)).toMatchObject({ transaction_id: `SANDBOX${order.pay_no}` });
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
