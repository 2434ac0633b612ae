/**
 * Reconciliation of a channel's day against its trade bill. With the sandbox: a payment and a
 * refund that agree are matched; a payment whose notification was lost and a refund whose end was not yet asked
 * are status differences that resolving mends by asking the gateway; an amount that differs and a payment the
 * gateway does not have need a note. Through the fake WeChat Pay, whose bill follows the real format (backticks,
 * the summary lines, the SHA1 in the signed answer): every outcome, the fees, a day without trade and an altered
 * file.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { and, asc, eq, ne, sql } from "drizzle-orm";
import { fenToYuan } from "../../common/money";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, businessDay, businessDayStart } from "../../common/term";
import { feeOrders, refunds, paymentChannels, paymentOrders, reconBatches, reconItems, sandboxPayments, schoolChannels, settlements } from "../../server/db/schema";
import { SandboxGateway } from "../../server/payments/sandbox";
import { parseTradeBill } from "../../server/payments/tradeBill";
import { describeOnEmbedded } from "../helpers/db";
import { platformServiceProvider, type FakeWechatPay, type SignedNotification } from "../helpers/fakeWechatPay";
import { confirmSandbox, feeOrderOf, findStudent, payBills, payerWorld, unpaidStudents, type PayerWorld, type Row } from "./payerSupport";
import { createTestApp, type TestApp } from "./support";

const EN = { "accept-language": "en" };

/** An order of the school for the next unpaid pupil: created, not paid. */
async function newOrder(t: TestApp, world: PayerWorld, index: number) {
  const [pupil] = (await unpaidStudents(t, world, index + 1)).slice(index);
  return payBills(t, await findStudent(t, world, pupil), [pupil.billId]);
}

async function itemsOf(t: TestApp, batchId: number) {
  return t.db.select().from(reconItems).where(eq(reconItems.batch_id, batchId)).orderBy(asc(reconItems.id));
}

describeOnEmbedded("reconciliation with the sandbox", (kind) => {
  let t: TestApp;
  let world: PayerWorld;
  let svc: string;
  let channelId: number;
  const call = (method: string, payload: Row, token = svc) => t.call("adminapiv2", method, payload, { token, headers: EN });

  beforeAll(async () => {
    t = await createTestApp(kind);
    svc = await t.login("svc");
    world = await payerWorld(t, svc);
    const [bound] = await t.db.select({ id: schoolChannels.paychnl_id }).from(schoolChannels).where(eq(schoolChannels.sch_id, world.schId));
    channelId = bound.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it("matches what agrees, and resolves each difference by asking the gateway or with a note", async () => {
    const today = businessDay(t.clock.now());
    // paid and notified; paid with its notification lost; paid, then its amount at the gateway differs; paid, then
    // unknown to the gateway
    const orders = [];
    for (let i = 0; i < 4; i++) orders.push(await newOrder(t, world, i));
    const [agreed, lost, altered, unknown] = orders;
    for (const order of [agreed, altered, unknown]) expect((await confirmSandbox(t, order.payparam.code_url)).return_code).toBe("SUCCESS");
    expect((await confirmSandbox(t, lost.payparam.code_url, { notify: false })).return_code).toBe("SUCCESS");
    await t.db.update(sandboxPayments).set({ amountFen: 1 }).where(eq(sandboxPayments.payNo, altered.pay_no));
    await t.db.delete(sandboxPayments).where(eq(sandboxPayments.payNo, unknown.pay_no));
    // a refund done and one the gateway finished before we asked after it
    const done = await feeOrderOf(t, agreed.pay_no);
    expect((await call("refundadd", { order_id: done.id, amount: "1.00", reason: "Textbooks returned" })).return_code).toBe("SUCCESS");
    await t.app.jobs.runDueJobs();
    expect((await call("refundadd", { order_id: done.id, amount: "2.00", reason: "Uniform returned" })).return_code).toBe("SUCCESS");
    const [, unasked] = await t.db.select().from(refunds).where(eq(refunds.order_id, done.id)).orderBy(asc(refunds.id));
    await new SandboxGateway(t.db, t.clock, "").refund({ payNo: done.pay_no, refundNo: unasked.refund_no!, amountFen: 200, totalFen: done.amount });
    await t.db.update(refunds).set({ submitted_at: t.clock.now() }).where(eq(refunds.id, unasked.id));

    // the bill, in WeChat Pay's format
    const [channel] = await t.db.select().from(paymentChannels).where(eq(paymentChannels.id, channelId));
    const file = path.join(await mkdtemp(path.join(os.tmpdir(), "sandbox-bill-")), "bill.csv");
    await new SandboxGateway(t.db, t.clock, "").tradeBill(today, file, { subMchid: channel.sub_mchid! });
    const text = await readFile(file, "utf8");
    await rm(path.dirname(file), { recursive: true });
    expect(text.split("\r\n")[0]).toMatch(/^交易时间,公众账号ID,商户号,特约商户号/);
    expect(text).toContain("`SUCCESS");
    const bill = parseTradeBill(text);
    expect(bill.summary.count).toBe(bill.lines.length);

    const run = await call("reconrun", { paychnl_id: channelId, bill_date: today });
    expect(run.return_code, run.return_msg).toBe("SUCCESS");
    const batch = run.data?.items as Row;
    expect(batch).toMatchObject({ bill_date: today, status: "differences", summary_ok: "Y", amount_mismatch: 1, missing_gateway: 1, status_mismatch: 2, open_items: 4 });
    expect(run.return_msg).toBe(`Reconciled ${today}: ${String(batch.matched)} matched, 4 differences`);
    const items = await itemsOf(t, Number(batch.id));
    const outcome = (payNo: string, kindOf = "payment") => items.find((i) => i.pay_no === payNo && i.kind === kindOf);
    expect(outcome(agreed.pay_no)).toMatchObject({ outcome: "matched", status: "ok", bill_amount: done.amount, local_amount: done.amount, fee: Math.round(done.amount * 0.006) });
    expect(outcome(lost.pay_no)).toMatchObject({ outcome: "status_mismatch", status: "open", bill_state: "SUCCESS", local_state: "NOTPAY" });
    expect(outcome(altered.pay_no)).toMatchObject({ outcome: "amount_mismatch", bill_amount: 1 });
    expect(outcome(unknown.pay_no)).toMatchObject({ outcome: "missing_gateway", bill_amount: null, local_state: "SUCCESS" });
    expect(items.filter((i) => i.kind === "refund" && i.pay_no === done.pay_no).map((i) => [i.refund_no, i.outcome])).toEqual([
      [`${done.pay_no}R01`, "matched"],
      [`${done.pay_no}R02`, "status_mismatch"],
    ]);
    // the batch's figures: the bill's summary and our own sums of the day
    const [stored] = await t.db.select().from(reconBatches).where(eq(reconBatches.id, Number(batch.id)));
    expect(stored.bill_paid).toBe(bill.summary.settlementFen);
    expect(stored.bill_fee).toBe(bill.summary.feeFen);
    expect(stored.bill_refund).toBe(bill.summary.refundFen);
    expect(bill.lines.filter((l) => l.payNo === done.pay_no && l.tradeState === "REFUND").map((l) => l.refundFen)).toEqual([100, 200]);

    // the lost payment is asked for and applied; the refund finished
    const resolve = (item: { id: number } | undefined, payload: Row = {}) => call("reconresolve", { id: item!.id, ...payload });
    const applied = await resolve(outcome(lost.pay_no));
    expect(applied.return_code, applied.return_msg).toBe("SUCCESS");
    expect(applied.return_msg).toBe("The payment is applied to its order");
    expect((await feeOrderOf(t, lost.pay_no)).status).toBe("paid");
    const finished = await resolve(outcome(done.pay_no, "refund") && items.find((i) => i.refund_no === unasked.refund_no));
    expect(finished.return_msg).toBe("The refund is finished as the gateway has it");
    const [refund] = await t.db.select().from(refunds).where(eq(refunds.id, unasked.id));
    expect(refund.status).toBe("success");
    // no fix mends an amount: it needs a note; a difference is resolved once
    const noNote = await resolve(outcome(altered.pay_no));
    expect(noNote).toMatchObject({ return_code: "FAIL", data: { errors: [{ field: "note", message: "Say what you checked or did: this difference has no automatic fix" }] } });
    expect((await resolve(outcome(altered.pay_no), { note: "Checked on the merchant platform" })).return_code).toBe("SUCCESS");
    const twice = await resolve(outcome(altered.pay_no), { note: "Again" });
    expect(twice).toMatchObject({ return_code: "FAIL", return_msg: expect.stringMatching(/Resolved/) });
    expect(await t.db.select({ status: reconBatches.status, open: reconBatches.open_items }).from(reconBatches).where(eq(reconBatches.id, Number(batch.id)))).toEqual([{ status: "differences", open: 1 }]);
    expect((await resolve(outcome(unknown.pay_no), { note: "Refunded by hand" })).return_code).toBe("SUCCESS");
    expect(await t.db.select({ status: reconBatches.status, open: reconBatches.open_items }).from(reconBatches).where(eq(reconBatches.id, Number(batch.id)))).toEqual([{ status: "resolved", open: 0 }]);

    // the day's settlement: per school, what was paid less what was refunded and the bill's fees, settled now that
    // nothing is open; the same figures on the payment accounts page
    const settled = await t.db.select().from(settlements).where(and(eq(settlements.paychnl_id, channelId), eq(settlements.day, today)));
    const [paidToday] = await t.db
      .select({ n: sql<number>`count(*)::int`, fen: sql<string>`sum(${paymentOrders.totalFeeFen})::text` })
      .from(paymentOrders)
      .where(and(eq(paymentOrders.merchantId, channel.sub_mchid!), eq(paymentOrders.status, "SUCCESS"), sql`${paymentOrders.paidAt} >= ${businessDayStart(today)}`));
    expect(settled.reduce((sum, row) => sum + row.gross, 0)).toBe(Number(paidToday.fen));
    expect(settled.reduce((sum, row) => sum + row.orders, 0)).toBe(paidToday.n);
    const mine = settled.find((row) => row.sch_id === world.schId)!;
    const billFee = (await itemsOf(t, Number(batch.id))).filter((i) => i.sch_id === world.schId).reduce((sum, i) => sum + (i.fee ?? 0), 0);
    expect(mine).toMatchObject({ status: "settled", fee_source: "bill", fee: billFee, net: mine.gross - mine.refund - billFee });
    const summary = await call("settlesummary", {});
    const channelFigures = (summary.data?.items as Row[]).find((r) => r.paychnl_id === channelId)!;
    const [all] = await t.db.select({ net: sql<string>`sum(${settlements.net}) filter (where ${settlements.status} = 'settled')` }).from(settlements).where(eq(settlements.paychnl_id, channelId));
    expect(channelFigures.settled).toBe(fenToYuan(BigInt(all.net)));

    // reconciled again, the day's batch is replaced: what was mended now matches
    const again = await call("reconrun", { paychnl_id: channelId, bill_date: today });
    expect(again.data?.items).toMatchObject({ id: batch.id, status_mismatch: 0, amount_mismatch: 1, missing_gateway: 1, open_items: 2 });
    expect((await itemsOf(t, Number(batch.id))).filter((i) => i.outcome === "matched").length).toBe(Number(batch.matched) + 2);

    // the list and its record page read it
    const list = await call("reconlist", { paychnl_id: channelId });
    expect((list.data?.items as Row[]).map((r) => r.bill_date)).toContain(today);
    const open = await call("reconitemlist", { batch_id: batch.id, status: "open" });
    expect((open.data?.items as Row[]).map((r) => r.outcome).sort()).toEqual(["amount_mismatch", "missing_gateway"]);

    // a refund the gateway closed gave nothing back: the day's settlement takes off only the others
    const settledRefund = async () => (await t.db.select().from(settlements).where(and(eq(settlements.paychnl_id, channelId), eq(settlements.day, today), eq(settlements.sch_id, world.schId))))[0]!;
    const before = await settledRefund();
    expect((await call("refundadd", { order_id: done.id, amount: "0.50", reason: "Card cancelled" })).return_code).toBe("SUCCESS");
    await t.app.jobs.runDueJobs();
    const [, , closing] = await t.db.select().from(refunds).where(eq(refunds.order_id, done.id)).orderBy(asc(refunds.id));
    expect(closing.submitted_at).not.toBeNull();
    await t.db.update(refunds).set({ status: "closed" }).where(eq(refunds.id, closing.id));
    expect((await call("reconrun", { paychnl_id: channelId, bill_date: today })).return_code).toBe("SUCCESS");
    expect(await settledRefund()).toMatchObject({ refund: before.refund, refunds: before.refunds, net: before.net });
  });

  it("refuses a day to come, a channel of another provider and one that takes no payments", async () => {
    const tomorrow = businessDay(new Date(t.clock.now().getTime() + 86_400_000));
    const future = await call("reconrun", { paychnl_id: channelId, bill_date: tomorrow });
    expect(future).toMatchObject({ return_code: "FAIL", return_msg: expect.stringContaining("today or an earlier day") });
    const old = await call("reconrun", { paychnl_id: channelId, bill_date: "2025-01-01" });
    expect(old).toMatchObject({ return_code: "FAIL", return_msg: expect.stringContaining("90 days") });
    const [foreign] = await t.db.select().from(paymentChannels).where(ne(paymentChannels.sysid, world.sysid)).limit(1);
    expect((await call("reconrun", { paychnl_id: foreign.id, bill_date: businessDay(t.clock.now()) })).return_code).toBe("FAIL");
    // the provider's real merchant, still awaiting the platform's review
    const [submitted] = await t.db.select().from(paymentChannels).where(eq(paymentChannels.title, "Sunrise WeChat Pay"));
    const refused = await call("reconrun", { paychnl_id: submitted.id, bill_date: businessDay(t.clock.now()) });
    expect(refused).toMatchObject({ return_code: "FAIL", return_msg: expect.stringContaining("is not possible: the record is Awaiting review") });
  });

  it("reconciles each channel's yesterday every day once its bills exist", async () => {
    const yesterday = businessDay(new Date(t.clock.now().getTime() - 86_400_000));
    await t.app.jobs.runDueJobs();
    const batches = await t.db.select().from(reconBatches).where(eq(reconBatches.bill_date, yesterday));
    expect(batches.length).toBeGreaterThan(0);
    expect(batches.every((b) => b.run_by === "system" && b.status !== "failed")).toBe(true);
  });

  it("matches a bill of thousands of lines a thousand at a time, and sums our side of the day", async () => {
    const day = addDays(businessDay(t.clock.now()), -3);
    const [channel] = await t.db.select().from(paymentChannels).where(eq(paymentChannels.id, channelId));
    const before = (await call("reconrun", { paychnl_id: channelId, bill_date: day })).data?.items as Row;
    // 2,345 payments of the day: one the gateway does not have (in the second thousand), one it took a fen more for
    // (in the third)
    const lines = 2345;
    const tag = randomBytes(4).toString("hex");
    const [missing, altered] = [`B${tag}1500`, `B${tag}2001`];
    const start = businessDayStart(day).toISOString();
    await t.db.execute(sql`
      INSERT INTO ${paymentOrders} (pay_no, orderid, kind, sysid, sch_id, title, term_months, total_fee_fen, gateway, merchant_id, status, paid_at, expires_at)
      SELECT 'B' || ${tag} || g, 'B' || ${tag} || g, 'fee', ${channel.sysid}::int, ${world.schId}::int, 'Tuition', 0, 100 + g, 'sandbox', ${channel.sub_mchid},
        'SUCCESS', ${start}::timestamptz + g * interval '30 seconds', ${start}::timestamptz + interval '1 day'
      FROM generate_series(1, ${lines}::int) g`);
    await t.db.execute(sql`
      INSERT INTO ${sandboxPayments} (pay_no, transaction_id, amount_fen, paid_at)
      SELECT pay_no, 'SANDBOX' || pay_no, total_fee_fen + CASE WHEN pay_no = ${altered} THEN 1 ELSE 0 END, paid_at
      FROM ${paymentOrders} WHERE pay_no LIKE ${`B${tag}%`} AND pay_no <> ${missing}`);
    const paid = lines * 100 + (lines * (lines + 1)) / 2;

    const run = await call("reconrun", { paychnl_id: channelId, bill_date: day });
    expect(run.return_code, run.return_msg).toBe("SUCCESS");
    const after = run.data?.items as Row;
    const grew = (field: string) => Number(after[field]) - Number(before[field]);
    expect(after).toMatchObject({ status: "differences", summary_ok: "Y" });
    expect(["matched", "missing_gateway", "amount_mismatch", "status_mismatch", "missing_local", "open_items"].map(grew)).toEqual([lines - 2, 1, 1, 0, 0, 2]);
    // amounts are answered in yuan
    const grewFen = (field: string) => Math.round(grew(field) * 100);
    expect([grew("bill_count"), grewFen("bill_paid"), grew("local_count"), grewFen("local_paid")]).toEqual([lines - 1, paid - 1600 + 1, lines, paid]);
    const items = await itemsOf(t, Number(after.id));
    const ours = items.filter((i) => i.pay_no.startsWith(`B${tag}`));
    expect(ours).toHaveLength(lines);
    expect(ours.filter((i) => i.outcome !== "matched").map((i) => [i.pay_no, i.outcome])).toEqual([
      [altered, "amount_mismatch"],
      [missing, "missing_gateway"],
    ]);
  });
});

describe("reconciliation with WeChat Pay in service-provider mode", () => {
  const provider = platformServiceProvider();
  const { subMchid: SUB_MCHID } = provider;
  let t: TestApp;
  let fake: FakeWechatPay;
  let world: PayerWorld;
  let svc: string;
  let channelId: number;
  const deliver = (notification: SignedNotification) =>
    t.app.inject({ method: "POST", url: new URL(notification.url).pathname, headers: notification.headers, payload: notification.body });
  const call = (method: string, payload: Row) => t.call("adminapiv2", method, payload, { token: svc, headers: EN });

  beforeAll(async () => {
    t = await createTestApp("pglite", { paymentKey: { key: randomBytes(32).toString("base64") }, publicUrl: "https://pay.example.edu" });
    fake = await provider.start(t.clock);
    const set = await t.call("adminapiv2", "paymerchantset", provider.merchantSet(fake, provider.secrets()), { token: await t.login("sysadmin") });
    expect(set.return_code, set.return_msg).toBe("SUCCESS");
    svc = await t.login("svc");
    world = await payerWorld(t, svc);
    const [channel] = await t.db.update(paymentChannels).set({ status: "approved", sub_mchid: SUB_MCHID }).where(eq(paymentChannels.title, "Sunrise WeChat Pay")).returning();
    channelId = channel.id;
    await t.db.update(schoolChannels).set({ paychnl_id: channel.id }).where(eq(schoolChannels.sch_id, world.schId));
  });
  afterAll(async () => {
    await fake?.close();
    await t?.close();
  });

  it("reads WeChat Pay's bill and finds every outcome", async () => {
    const today = businessDay(t.clock.now());
    const emptyDay = await call("reconrun", { paychnl_id: channelId, bill_date: today });
    expect(emptyDay.data?.items).toMatchObject({ status: "balanced", bill_count: 0, matched: 0 });

    const orders = [];
    for (let i = 0; i < 4; i++) orders.push(await newOrder(t, world, i));
    const [agreed, lost, altered, unknown] = orders;
    for (const order of [agreed, altered, unknown]) expect((await deliver(fake.notification(order.pay_no))).statusCode).toBe(204);
    // paid at WeChat Pay, its notification never delivered
    fake.markPaid(lost.pay_no);
    fake.orders.get(altered.pay_no)!.totalFen += 100;
    fake.orders.delete(unknown.pay_no);
    // a payment WeChat Pay took for the sub-merchant that we never ordered
    const stranger = { ...fake.orders.get(agreed.pay_no)!, outTradeNo: "P20260302999999999999", transactionId: undefined, state: "NOTPAY" as const, refunds: [] };
    fake.orders.set(stranger.outTradeNo, stranger);
    fake.markPaid(stranger.outTradeNo);
    // a refund, sent and finished
    const paid = await feeOrderOf(t, agreed.pay_no);
    expect((await call("refundadd", { order_id: paid.id, amount: "1.50", reason: "退还多收费用" })).return_code).toBe("SUCCESS");
    await t.app.jobs.runDueJobs();
    const [refund] = await t.db.select().from(refunds).where(eq(refunds.order_id, paid.id));
    fake.finishRefund(refund.refund_no!, "SUCCESS");
    // a payment of ours that another merchant took, in this sub-merchant's bill: not this channel's to match
    const [elsewhere] = await t.db.select().from(paymentOrders).where(and(eq(paymentOrders.status, "SUCCESS"), ne(paymentOrders.merchantId, SUB_MCHID))).limit(1);
    const borrowed = { ...stranger, outTradeNo: elsewhere.payNo, totalFen: Number(elsewhere.totalFeeFen), transactionId: undefined, state: "NOTPAY" as const, refunds: [] };
    fake.orders.set(borrowed.outTradeNo, borrowed);
    fake.markPaid(borrowed.outTradeNo);
    // a refund WeChat Pay took that we have no record of
    const strangeRefund = `${stranger.outTradeNo}R01`;
    fake.orders.get(stranger.outTradeNo)!.refunds.push({ outRefundNo: strangeRefund, refundFen: 100, refundId: "50300000000000000000000000000001", status: "SUCCESS", createTime: fake.orders.get(agreed.pay_no)!.refunds[0]!.createTime });

    const run = await call("reconrun", { paychnl_id: channelId, bill_date: today });
    expect(run.return_code, run.return_msg).toBe("SUCCESS");
    const batch = run.data?.items as Row;
    expect(batch).toMatchObject({ status: "differences", summary_ok: "Y", missing_local: 3, missing_gateway: 1, amount_mismatch: 1, status_mismatch: 2, open_items: 7 });
    // the bill was asked for the sub-merchant, and its file fetched with a signed request
    const asked = fake.requests.filter((r) => r.path.startsWith("/v3/bill/tradebill"));
    expect(asked.at(-1)!.path).toBe(`/v3/bill/tradebill?bill_date=${today}&bill_type=ALL&sub_mchid=${SUB_MCHID}`);
    expect(fake.requests.at(-1)!.path).toMatch(/^\/v3\/billdownload\/file\?token=/);
    const items = await itemsOf(t, Number(batch.id));
    const byPayNo = new Map(items.filter((i) => i.kind === "payment").map((i) => [i.pay_no, i]));
    expect(byPayNo.get(agreed.pay_no)).toMatchObject({ outcome: "matched", fee: Math.round(paid.amount * 0.006) });
    expect(byPayNo.get(lost.pay_no)).toMatchObject({ outcome: "status_mismatch", local_state: "NOTPAY" });
    expect(byPayNo.get(altered.pay_no)).toMatchObject({ outcome: "amount_mismatch" });
    expect(byPayNo.get(unknown.pay_no)).toMatchObject({ outcome: "missing_gateway" });
    expect(byPayNo.get(stranger.outTradeNo)).toMatchObject({ outcome: "missing_local", local_amount: null });
    expect(byPayNo.get(borrowed.outTradeNo)).toMatchObject({ outcome: "missing_local", local_amount: null, sch_id: null });
    const refundItems = new Map(items.filter((i) => i.kind === "refund").map((i) => [i.refund_no, i]));
    // the refund row's state is the bill's snapshot (the refund was still processing when the bill was made), ours
    // still processing: the gateway's success is a difference to resolve
    expect(refundItems.get(refund.refund_no)).toMatchObject({ outcome: "status_mismatch", bill_amount: 150 });
    expect(refundItems.get(strangeRefund)).toMatchObject({ outcome: "missing_local", status: "open", bill_amount: 100, local_amount: null });

    // the lost payment is applied from WeChat Pay's answer
    const fixed = await call("reconresolve", { id: byPayNo.get(lost.pay_no)!.id });
    expect(fixed.return_code, fixed.return_msg).toBe("SUCCESS");
    const [order] = await t.db.select().from(feeOrders).where(and(eq(feeOrders.pay_no, lost.pay_no)));
    expect(order.status).toBe("paid");
    const [payment] = await t.db.select().from(paymentOrders).where(eq(paymentOrders.payNo, lost.pay_no));
    expect(payment.status).toBe("SUCCESS");

    // a file that is not the one whose digest the signed answer gave is refused
    fake.alterNextBill();
    const altered2 = await call("reconrun", { paychnl_id: channelId, bill_date: today });
    expect(altered2.data?.items).toMatchObject({ status: "failed", error: expect.stringContaining("SHA1") });
    expect(altered2.return_msg).toContain("could not be reconciled");

    // a fix the gateway cannot confirm (unreachable) is said, and the difference stays open
    const late = await newOrder(t, world, 4);
    fake.markPaid(late.pay_no);
    const third = await call("reconrun", { paychnl_id: channelId, bill_date: today });
    const [pending] = (await itemsOf(t, Number((third.data?.items as Row).id))).filter((i) => i.pay_no === late.pay_no);
    expect(pending.outcome).toBe("status_mismatch");
    await fake.close();
    const unreachable = await call("reconresolve", { id: pending.id });
    expect(unreachable).toMatchObject({ return_code: "FAIL", return_msg: expect.stringContaining("The payment gateway could not confirm this payment") });
    expect((await t.db.select({ status: reconItems.status }).from(reconItems).where(eq(reconItems.id, pending.id)))[0].status).toBe("open");
  });
});
