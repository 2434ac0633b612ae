/**
 * Refunds of fee orders, on both databases: a provider's refund is accepted, numbered and sent by a job, and its end
 * (from a query or a notification, applied once) gives the money back on the order, its lines and its bills; a
 * school's or the staff's is a request the provider approves or rejects; what an order holds back never exceeds what
 * it paid, also when asked at once; at most 50 refunds an order; a duplicate payment is refunded by itself. Through
 * WeChat Pay in service-provider mode: a retry names the same refund number, an abnormal refund is shown as such
 * until it ends, and a notification delivered twice applies once.
 */
import { randomBytes } from "node:crypto";
import { and, asc, eq, inArray, notExists, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { fenToYuan } from "../../common/money";
import { queryRows } from "../../server/db/client";
import { auditLog, bills, feeOrderEvents, feeOrderLines, feeOrders, refunds, jobs, paymentChannels, schoolChannels, schools } from "../../server/db/schema";
import type { Voucher } from "../../common/voucher";
import { describeOnDatabases, describeOnEmbedded } from "../helpers/db";
import { pdfPageTexts } from "../helpers/pdfText";
import { platformServiceProvider, type FakeWechatPay, type SignedNotification } from "../helpers/fakeWechatPay";
import { billOf, confirmSandbox, dailyFiguresAndLedger, feeOrderOf, findStudent, payBills, payerWorld, unpaidStudents, type PayerWorld, type Row } from "./payerSupport";
import { createTestApp, type TestApp } from "./support";

const EN = { "accept-language": "en" };

type FeeOrder = typeof feeOrders.$inferSelect;

/** Paid orders of a school that no refund touched yet, first by id. */
async function untouchedPaidOrders(t: TestApp, schId: number, count: number): Promise<FeeOrder[]> {
  return t.db
    .select()
    .from(feeOrders)
    .where(and(eq(feeOrders.sch_id, schId), eq(feeOrders.status, "paid"), eq(feeOrders.duplicate, "N"), notExists(t.db.select().from(refunds).where(eq(refunds.order_id, feeOrders.id)))))
    .orderBy(asc(feeOrders.id))
    .limit(count);
}

async function refundsOf(t: TestApp, orderId: number) {
  return t.db.select().from(refunds).where(eq(refunds.order_id, orderId)).orderBy(asc(refunds.id));
}

/** The bill an order's only line paid. */
async function billOfOrder(t: TestApp, orderId: number) {
  const [line] = await t.db.select().from(feeOrderLines).where(eq(feeOrderLines.order_id, orderId));
  return billOf(t, line.bill_id);
}

describeOnDatabases("refunds", (kind) => {
  let t: TestApp;
  let world: PayerWorld;
  const tokens: Record<string, string> = {};
  const call = (user: string, method: string, payload: Row = {}) => t.call("adminapiv2", method, payload, { token: tokens[user], headers: EN });
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    t = await createTestApp(kind);
    for (const u of ["svc", "staff", "school", "svcv1", "schoolv1", "harbour"]) tokens[u] = await t.login(u);
    world = await payerWorld(t, tokens.svc);
    const [no2] = await t.db.select({ id: schools.id }).from(schools).where(eq(schools.title, "Sunrise No.2 Primary School"));
    ids.no2 = no2.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it("takes a provider's refund at once: numbered, sent by a job, and once done given back on the order, its line and its bill", async () => {
    const [order] = await untouchedPaidOrders(t, world.schId, 1);
    const part = Math.floor(order.amount / 3);
    const res = await call("svc", "refundadd", { order_id: order.id, amount: fenToYuan(part), reason: "Textbooks returned" });
    expect(res.return_code, res.return_msg).toBe("SUCCESS");
    expect(res.return_msg).toBe(`Refund ${order.pay_no}R01 (¥${fenToYuan(part)}) accepted: the money is going back the way it was paid`);
    const [accepted] = await refundsOf(t, order.id);
    expect(accepted).toMatchObject({ status: "processing", refund_no: `${order.pay_no}R01`, amount: part, applied_by: "svc", reviewed_by: "svc", kind: "request", submitted_at: null });
    // nothing moves before the gateway says so
    expect((await feeOrderOf(t, order.pay_no)).status).toBe("paid");

    await t.app.jobs.runDueJobs();
    const [done] = await refundsOf(t, order.id);
    expect(done).toMatchObject({ status: "success", user_received_account: "支付用户零钱", attempts: 1, last_error: null });
    expect(done.success_time).toBeInstanceOf(Date);
    expect(await feeOrderOf(t, order.pay_no)).toMatchObject({ status: "part_refunded", refunded_amount: part });
    expect(await billOfOrder(t, order.id)).toMatchObject({ status: "part_refunded", refunded_amount: part });
    const [line] = await t.db.select().from(feeOrderLines).where(eq(feeOrderLines.order_id, order.id));
    expect(line).toMatchObject({ settled: "Y", refunded_amount: part });
    const events = await t.db.select({ event: feeOrderEvents.event, note: feeOrderEvents.note }).from(feeOrderEvents).where(eq(feeOrderEvents.order_id, order.id)).orderBy(asc(feeOrderEvents.sort));
    expect(events.at(-1)).toEqual({ event: "refunded", note: `${order.pay_no}R01 ${fenToYuan(part)}` });

    // the rest: the order and its bill are refunded whole, and the order cannot be refunded again
    const rest = await call("svc", "refundadd", { order_id: order.id, amount: fenToYuan(order.amount - part), reason: "Left the school" });
    expect(rest.return_code, rest.return_msg).toBe("SUCCESS");
    await t.app.jobs.runDueJobs();
    expect((await refundsOf(t, order.id)).map((r) => [r.refund_no, r.status])).toEqual([
      [`${order.pay_no}R01`, "success"],
      [`${order.pay_no}R02`, "success"],
    ]);
    expect(await feeOrderOf(t, order.pay_no)).toMatchObject({ status: "refunded", refunded_amount: order.amount });
    expect(await billOfOrder(t, order.id)).toMatchObject({ status: "refunded", refunded_amount: order.amount });
    const again = await call("svc", "refundadd", { order_id: order.id, amount: "0.01", reason: "Again" });
    expect(again.return_code).toBe("FAIL");
    expect(again.return_msg).toMatch(/is not possible: the record is Refunded/);

    // the order's voucher is followed by a receipt of each done refund, on screen and in the PDF
    const printed = await call("svc", "orderprint", { id: order.id });
    expect((printed.data?.items as Voucher).refunds.map((r) => [r.refund_no, r.amount, r.user_received_account])).toEqual([
      [`${order.pay_no}R01`, fenToYuan(part), "支付用户零钱"],
      [`${order.pay_no}R02`, fenToYuan(order.amount - part), "支付用户零钱"],
    ]);
    const pdf = await call("svc", "orderprintpdf", { id: order.id });
    const pages = pdfPageTexts(Buffer.from((pdf.data?.items as { content_base64: string }).content_base64, "base64"));
    expect(pages.length).toBe(3);
    expect(pages[1]).toContain("Refund receipt");
    expect(pages[1]).toContain(`${order.pay_no}R01`);
    expect(pages[2]).toContain(fenToYuan(order.amount - part));

    // the lists read them: the refund list, the order's tabs
    const listed = await call("svc", "refundlist", { order_id: order.id });
    expect((listed.data?.items as Row[]).map((r) => r.status)).toEqual(["success", "success"]);
    expect(listed.data?.summary).toEqual({ count: 2, amount: fenToYuan(order.amount) });
    const tabs = (await call("svc", "orderlist", { sch_id: world.schId, status: "refunded" })).data?.tabs as { states: { value: string; count: number }[] };
    expect(tabs.states.find((s) => s.value === "refunded")!.count).toBeGreaterThan(0);
  });

  it("refuses more than what an order still holds, also when asked at once, and a 51st refund", async () => {
    const [order, many] = await untouchedPaidOrders(t, world.schId, 2);
    const tooMuch = await call("svc", "refundadd", { order_id: order.id, amount: fenToYuan(order.amount + 1), reason: "Too much" });
    expect(tooMuch.return_code).toBe("FAIL");
    expect(tooMuch.return_msg).toBe(`The refund is more than what is left: at most ¥${fenToYuan(order.amount)} of this order can still be refunded`);
    expect((tooMuch.data?.errors as { field: string }[])[0].field).toBe("amount");
    for (const bad of ["0", "-1.00", "1.001", "abc", ""]) {
      const res = await call("svc", "refundadd", { order_id: order.id, amount: bad, reason: "Bad" });
      expect(res.return_code, bad).toBe("FAIL");
      expect((res.data?.errors as { field: string }[] | undefined)?.[0]?.field, bad).toBe("amount");
    }
    const noReason = await call("svc", "refundadd", { order_id: order.id, amount: "1.00" });
    expect((noReason.data?.errors as { field: string }[])[0].field).toBe("reason");

    // five at once of 40% each: two fit, whatever the order they come in
    const share = fenToYuan(Math.floor(order.amount * 0.4));
    const answers = await Promise.all(Array.from({ length: 5 }, () => call("svc", "refundadd", { order_id: order.id, amount: share, reason: "At once" })));
    expect(answers.filter((a) => a.return_code === "SUCCESS").length).toBe(2);
    const held = await refundsOf(t, order.id);
    expect(held.map((r) => r.refund_no)).toEqual([`${order.pay_no}R01`, `${order.pay_no}R02`]);
    expect(held.reduce((sum, r) => sum + r.amount, 0)).toBeLessThanOrEqual(order.amount);

    // 50 refunds an order at most, closed ones counted (the gateway counts them), rejected requests not
    await t.db.insert(refunds).values(
      Array.from({ length: 50 }, (_, i) => ({
        order_id: many.id, pay_no: many.pay_no, sch_id: many.sch_id, sysid: many.sysid, student_id: many.student_id, gateway: many.gateway,
        amount: 1, reason: "Old", status: i < 49 ? "closed" : "rejected", applied_by: "svc", refund_no: i < 49 ? `${many.pay_no}X${i}` : null,
      })),
    );
    const fiftieth = await call("svc", "refundadd", { order_id: many.id, amount: "0.01", reason: "Fiftieth" });
    expect(fiftieth.return_code, fiftieth.return_msg).toBe("SUCCESS");
    const fiftyFirst = await call("svc", "refundadd", { order_id: many.id, amount: "0.01", reason: "51st" });
    expect(fiftyFirst.return_code).toBe("FAIL");
    expect(fiftyFirst.return_msg).toBe("An order can be refunded at most 50 times");
  });

  it("lets a school and the staff ask; the provider approves (then it is sent) or rejects with a reason", async () => {
    const [asked, toReject] = await untouchedPaidOrders(t, world.schId, 2);
    const request = await call("school", "refundadd", { order_id: asked.id, amount: fenToYuan(asked.amount), reason: "Parent asked" });
    expect(request.return_code, request.return_msg).toBe("SUCCESS");
    expect(request.return_msg).toBe(`Refund request (¥${fenToYuan(asked.amount)}) sent: it waits for the provider's decision`);
    const [applied] = await refundsOf(t, asked.id);
    expect(applied).toMatchObject({ status: "applied", refund_no: null, applied_by: "school" });
    const queued = await t.db.select().from(jobs).where(and(eq(jobs.kind, "refunds.send"), sql`${jobs.payload}->>'refund_id' = ${String(applied.id)}`));
    expect(queued).toEqual([]);
    // it holds the amount back: nothing more can be asked of the order meanwhile
    const more = await call("svc", "refundadd", { order_id: asked.id, amount: "0.01", reason: "More" });
    expect(more.return_msg).toBe("The refund is more than what is left: at most ¥0.00 of this order can still be refunded");

    // the after-sales list shows the requests waiting; only the provider decides
    const waiting = await call("svc", "refundlist", { status: "applied", sch_id: world.schId });
    expect((waiting.data?.items as Row[]).some((r) => r.id === applied.id)).toBe(true);
    expect((await call("school", "refundreview", { id: applied.id, result: "approve" })).return_code).toBe("FAIL");
    expect((await call("staff", "refundreview", { id: applied.id, result: "approve" })).return_code).toBe("FAIL");
    const approved = await call("svc", "refundreview", { id: applied.id, result: "approve" });
    expect(approved.return_code, approved.return_msg).toBe("SUCCESS");
    expect((await refundsOf(t, asked.id))[0]).toMatchObject({ status: "processing", refund_no: `${asked.pay_no}R01`, reviewed_by: "svc" });
    await t.app.jobs.runDueJobs();
    expect((await refundsOf(t, asked.id))[0].status).toBe("success");
    expect((await feeOrderOf(t, asked.pay_no)).status).toBe("refunded");
    // its page tells its story: who asked, who decided, when it was sent and when the money went back
    const story = ((await call("svc", "refundinfo", { id: applied.id })).data?.items as Row).timeline as Row[];
    expect(story.map((e) => [e.event, e.who, e.from, e.to])).toEqual([
      ["refund_created", "school", null, "applied"],
      ["refundreview", "svc", "applied", "processing"],
      ["refund_sent", "system", null, null],
      ["refund_success", "system", null, null],
    ]);
    expect(story[0].params).toMatchObject({ amount: fenToYuan(asked.amount), kind: "request" });
    expect(story[1].params).toMatchObject({ result: "approve" });
    expect(story[2].params).toMatchObject({ refund_no: `${asked.pay_no}R01`, attempts: 1 });
    // decided once: a second decision finds it in another state
    expect((await call("svc", "refundreview", { id: applied.id, result: "reject", reason: "Late" })).return_msg).toMatch(/is not possible: the record is Refunded/);

    // the staff asks for a school assigned to it; a rejection needs its reason, gives no number and sends nothing
    const staffAsk = await call("staff", "refundadd", { order_id: toReject.id, amount: "1.00", reason: "Wrong class" });
    expect(staffAsk.return_code, staffAsk.return_msg).toBe("SUCCESS");
    const [pending] = await refundsOf(t, toReject.id);
    const bare = await call("svc", "refundreview", { id: pending.id, result: "reject" });
    expect(bare.return_code).toBe("FAIL");
    expect((bare.data?.errors as { field: string }[])[0].field).toBe("reason");
    const rejected = await call("svc", "refundreview", { id: pending.id, result: "reject", reason: "Paid in full" });
    expect(rejected.return_code, rejected.return_msg).toBe("SUCCESS");
    expect((await refundsOf(t, toReject.id))[0]).toMatchObject({ status: "rejected", refund_no: null, review_reason: "Paid in full" });
    expect((await feeOrderOf(t, toReject.pay_no)).status).toBe("paid");
    // the amount is free again
    expect((await call("svc", "refundadd", { order_id: toReject.id, amount: fenToYuan(toReject.amount), reason: "After all" })).return_code).toBe("SUCCESS");
  });

  it("keeps refunds to each caller's schools and roles", async () => {
    const [other] = await untouchedPaidOrders(t, ids.no2, 1);
    // No.2 is not the school user's
    const bySchool = await call("school", "refundadd", { order_id: other.id, amount: "1.00", reason: "Not mine" });
    expect(bySchool.return_code).toBe("FAIL");
    expect(bySchool.return_msg).toBe("Record not found");
    // another provider's order: missing
    expect((await call("harbour", "refundadd", { order_id: other.id, amount: "1.00", reason: "Not mine" })).return_code).toBe("FAIL");
    expect((await call("svcv1", "refundadd", { order_id: other.id, amount: "1.00", reason: "Not mine" })).return_msg).toBe("Record not found");
    expect(await refundsOf(t, other.id)).toEqual([]);
    // the school lists its own school's refunds only
    const listed = (await call("school", "refundlist", { limit: 100 })).data?.items as Row[];
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.every((r) => r.sch_id === world.schId)).toBe(true);
  });

  it("refunds a duplicate payment by itself, leaving the bill paid by the other order", async () => {
    const [pupil] = await unpaidStudents(t, world, 1);
    const first = await payBills(t, await findStudent(t, world, pupil, "203.0.113.31"), [pupil.billId], "203.0.113.31");
    const second = await payBills(t, await findStudent(t, world, pupil, "203.0.113.32"), [pupil.billId], "203.0.113.32");
    expect((await confirmSandbox(t, first.payparam.code_url)).return_code).toBe("SUCCESS");
    expect((await confirmSandbox(t, second.payparam.code_url)).return_code).toBe("SUCCESS");
    const duplicate = await feeOrderOf(t, second.pay_no);
    expect(duplicate.duplicate).toBe("Y");
    const [refund] = await refundsOf(t, duplicate.id);
    expect(refund).toMatchObject({ kind: "duplicate", status: "processing", amount: duplicate.amount, applied_by: "system", refund_no: `${second.pay_no}R01`, reason: "重复支付退款" });
    await t.app.jobs.runDueJobs();
    expect((await refundsOf(t, duplicate.id))[0].status).toBe("success");
    expect(await feeOrderOf(t, second.pay_no)).toMatchObject({ status: "refunded", refunded_amount: duplicate.amount });
    expect(await feeOrderOf(t, first.pay_no)).toMatchObject({ status: "paid", refunded_amount: 0 });
    // the bill is paid, by the first order
    expect(await billOf(t, pupil.billId)).toMatchObject({ status: "paid", refunded_amount: 0 });
    const listed = await call("svc", "refundlist", { kind: "duplicate", order_id: duplicate.id });
    expect((listed.data?.items as Row[]).map((r) => r.kind)).toEqual(["duplicate"]);
  });

  it("holds demo refunds of every state", async () => {
    const states = await t.db.selectDistinct({ status: refunds.status }).from(refunds).where(inArray(refunds.sch_id, [world.schId]));
    expect(states.map((s) => s.status).sort()).toEqual(["abnormal", "applied", "closed", "rejected", "success"]);
    const [audit] = await t.db.select().from(auditLog).where(eq(auditLog.action, "refund_success")).limit(1);
    expect(audit).toBeDefined();
    const demoDuplicates = await t.db.select().from(refunds).where(and(eq(refunds.kind, "duplicate"), eq(refunds.status, "success")));
    expect(demoDuplicates.length).toBeGreaterThan(0);
    // every bill's refunded amount is what the refunds gave back on the lines that paid it
    const [{ off }] = await queryRows<{ off: number }>(
      t.db,
      sql`SELECT count(*)::int AS off FROM ${bills} b
          WHERE b.refunded_amount <> coalesce((SELECT sum(l.refunded_amount) FROM ${feeOrderLines} l WHERE l.bill_id = b.id AND l.settled = 'Y'), 0)`,
    );
    expect(off).toBe(0);
  });
});

describeOnEmbedded("a refund the provider has just made", (kind) => {
  it("is sent as soon as it is accepted, not at the job worker's next poll", async () => {
    // a worker polling once an hour: only being woken sends the refund while the test runs
    const t = await createTestApp(kind, { jobs: { pollIntervalMs: 3_600_000 } });
    try {
      const token = await t.login("svc");
      const world = await payerWorld(t, token);
      const [order] = await untouchedPaidOrders(t, world.schId, 1);
      // what is due already runs first: the loop's first poll then finds nothing, and waits its hour
      await t.app.jobs.runDueJobs();
      t.app.jobs.start();
      await vi.waitFor(() => expect(t.app.jobs.betweenPolls).toBe(true), { timeout: 20_000 });
      const res = await t.call("adminapiv2", "refundadd", { order_id: order.id, amount: fenToYuan(order.amount), reason: "Left the school" }, { token });
      expect(res.return_code, res.return_msg).toBe("SUCCESS");
      await vi.waitFor(async () => expect((await refundsOf(t, order.id))[0]).toMatchObject({ status: "success", attempts: 1 }), { timeout: 20_000 });
    } finally {
      await t.close();
    }
  });
});

describeOnEmbedded("refunds through WeChat Pay in service-provider mode", (kind) => {
  const provider = platformServiceProvider();
  const { spMchid: SP_MCHID, subMchid: SUB_MCHID } = provider;
  let t: TestApp;
  let fake: FakeWechatPay;
  let world: PayerWorld;
  let svc: string;
  const deliver = (notification: SignedNotification) =>
    t.app.inject({ method: "POST", url: new URL(notification.url).pathname, headers: notification.headers, payload: notification.body });

  /** An order of the school paid at WeChat Pay, notified. */
  async function paidOrder(index: number): Promise<FeeOrder> {
    const [pupil] = (await unpaidStudents(t, world, index + 1)).slice(index);
    const order = await payBills(t, await findStudent(t, world, pupil), [pupil.billId]);
    expect((await deliver(fake.notification(order.pay_no))).statusCode).toBe(204);
    return feeOrderOf(t, order.pay_no);
  }

  beforeAll(async () => {
    t = await createTestApp(kind, { paymentKey: { key: randomBytes(32).toString("base64") }, publicUrl: "https://pay.example.edu" });
    fake = await provider.start(t.clock);
    const set = await t.call("adminapiv2", "paymerchantset", provider.merchantSet(fake, provider.secrets()), { token: await t.login("sysadmin") });
    expect(set.return_code, set.return_msg).toBe("SUCCESS");
    svc = await t.login("svc");
    world = await payerWorld(t, svc);
    const [channel] = await t.db.update(paymentChannels).set({ status: "approved", sub_mchid: SUB_MCHID }).where(eq(paymentChannels.title, "Sunrise WeChat Pay")).returning();
    await t.db.update(schoolChannels).set({ paychnl_id: channel.id }).where(eq(schoolChannels.sch_id, world.schId));
  });
  afterAll(async () => {
    await fake?.close();
    await t?.close();
  });

  const refund = async (order: FeeOrder, amount: number) => {
    const res = await t.call("adminapiv2", "refundadd", { order_id: order.id, amount: fenToYuan(amount), reason: "退还多收费用" }, { token: svc, headers: EN });
    expect(res.return_code, res.return_msg).toBe("SUCCESS");
    const [row] = (await refundsOf(t, order.id)).slice(-1);
    return row;
  };

  it("sends the refund for the sub-merchant, retries a failed call under the same number, and applies its notification once", async () => {
    const order = await paidOrder(0);
    // WeChat Pay cannot be reached at first: the refund stays accepted, with the error, for the next run
    await fake.close();
    const failed = await refund(order, 500);
    await t.app.jobs.runDueJobs();
    const [waiting] = await refundsOf(t, order.id);
    // tried by the job sending it and by the one asking after every open refund: each try counted
    expect(waiting).toMatchObject({ status: "processing", submitted_at: null, refund_no: `${order.pay_no}R01` });
    expect(waiting.attempts).toBeGreaterThanOrEqual(1);
    expect(waiting.last_error).toBeTruthy();

    // back, at another address: the merchant's API base is the new stand-in's, which took the payment before
    fake = await provider.start(t.clock);
    expect((await t.call("adminapiv2", "paymerchantset", provider.merchantSet(fake), { token: await t.login("sysadmin") })).return_code).toBe("SUCCESS");
    fake.orders.set(order.pay_no, {
      outTradeNo: order.pay_no, mchid: SP_MCHID, appid: provider.appid, subMchid: SUB_MCHID, tradeType: "NATIVE", description: "fee", totalFen: order.amount,
      notifyUrl: "", timeExpire: "", state: "SUCCESS", transactionId: order.transaction_id ?? "", refunds: [],
    });
    t.clock.advance(61_000);
    await t.app.jobs.runDueJobs();
    const remote = fake.orders.get(order.pay_no)!.refunds;
    expect(remote.map((r) => r.outRefundNo)).toEqual([failed.refund_no]);
    expect(remote[0].notifyUrl).toBe(`https://pay.example.edu/pay/notify/wechatpay/${SP_MCHID}/refund`);
    const sent = () => fake.requests.filter((r) => r.method === "POST" && r.path === "/v3/refund/domestic/refunds").map((r) => JSON.parse(r.body) as Row);
    expect(sent()).toEqual([
      expect.objectContaining({ sub_mchid: SUB_MCHID, out_trade_no: order.pay_no, out_refund_no: failed.refund_no, reason: "退还多收费用", amount: { refund: 500, total: order.amount, currency: "CNY" } }),
    ]);
    expect((await refundsOf(t, order.id))[0]).toMatchObject({ status: "processing", attempts: waiting.attempts + 1, last_error: null });
    // sent again under its number (its acceptance was lost), it is the same refund at the gateway
    await t.db.update(refunds).set({ submitted_at: null }).where(eq(refunds.id, failed.id));
    t.clock.advance(61_000);
    await t.app.jobs.runDueJobs();
    expect(sent().map((body) => body.out_refund_no)).toEqual([failed.refund_no, failed.refund_no]);
    expect(fake.orders.get(order.pay_no)!.refunds.length).toBe(1);

    // done at WeChat Pay: its notification applies it, once
    fake.finishRefund(failed.refund_no!, "SUCCESS");
    expect((await deliver(fake.refundNotification(failed.refund_no!, { tamper: "signature" }))).statusCode).toBe(401);
    const notice = fake.refundNotification(failed.refund_no!);
    expect((await deliver(notice)).statusCode).toBe(204);
    expect((await deliver(notice)).statusCode).toBe(204);
    expect((await refundsOf(t, order.id))[0]).toMatchObject({ status: "success", user_received_account: "招商银行信用卡0403" });
    expect(await feeOrderOf(t, order.pay_no)).toMatchObject({ status: "part_refunded", refunded_amount: 500 });
    const [{ n }] = await queryRows<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM ${feeOrderEvents} WHERE order_id = ${order.id} AND event = 'refunded'`);
    expect(n).toBe(1);
  });

  it("shows an abnormal refund until the gateway ends it, and frees a closed one's amount", async () => {
    const order = await paidOrder(1);
    const abnormal = await refund(order, 300);
    await t.app.jobs.runDueJobs();
    fake.finishRefund(abnormal.refund_no!, "ABNORMAL");
    t.clock.advance(61_000);
    await t.app.jobs.runDueJobs();
    expect((await refundsOf(t, order.id))[0].status).toBe("abnormal");
    expect((await feeOrderOf(t, order.pay_no)).status).toBe("paid");
    // fixed in the merchant platform: the next query finds it done
    fake.finishRefund(abnormal.refund_no!, "SUCCESS", "建设银行储蓄卡7788");
    t.clock.advance(61_000);
    await t.app.jobs.runDueJobs();
    expect((await refundsOf(t, order.id))[0]).toMatchObject({ status: "success", user_received_account: "建设银行储蓄卡7788" });

    const closed = await refund(order, 200);
    await t.app.jobs.runDueJobs();
    fake.finishRefund(closed.refund_no!, "CLOSED");
    expect((await deliver(fake.refundNotification(closed.refund_no!))).statusCode).toBe(204);
    expect((await refundsOf(t, order.id))[1].status).toBe("closed");
    expect(await feeOrderOf(t, order.pay_no)).toMatchObject({ status: "part_refunded", refunded_amount: 300 });
    // a notice naming another amount than ours is refused, nothing applied
    const third = await refund(order, 100);
    await t.app.jobs.runDueJobs();
    fake.finishRefund(third.refund_no!, "SUCCESS");
    expect((await deliver(fake.refundNotification(third.refund_no!, { refundFen: 99 }))).statusCode).toBe(400);
    expect((await refundsOf(t, order.id))[2].status).toBe("processing");
    // nor is an authentic one naming another sub-merchant of the service provider than the order's
    expect((await deliver(fake.refundNotification(third.refund_no!, { subMchid: "1900000999" }))).statusCode).toBe(400);
    expect((await refundsOf(t, order.id))[2].status).toBe("processing");
    expect((await deliver(fake.refundNotification(third.refund_no!))).statusCode).toBe(204);
    expect((await refundsOf(t, order.id))[2].status).toBe("success");
  });

  it("keeps the statistics' daily figures equal to the ledger of the payments and refunds made here", async () => {
    const { daily, ledger } = await dailyFiguresAndLedger(t);
    expect(ledger.length).toBeGreaterThan(0);
    expect(daily).toEqual(ledger);
  });
});
