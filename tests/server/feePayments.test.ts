/**
 * Fee payments, on both databases: a fee order is paid to the school's channel (the sandbox, in service-provider
 * mode with the channel's sub-merchant) and settles its bills, once, whatever reports it and however often; two
 * payers paying one bill at once pay it once and the second order is kept, flagged duplicate; the other open orders
 * of a paid bill are closed at their gateway by a job; a payment whose notification never came is applied by the
 * closing job, not closed; no fee touches a term. The console's order list and record keep to each caller's schools.
 */
import { randomBytes } from "node:crypto";
import { and, count, desc, eq } from "drizzle-orm";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { tableColumn } from "../../server/db/catalogueTables";
import type { ActivityBoard } from "../../common/activityBoard";
import { yuanToFen } from "../../common/money";
import { auditLog, bills, feeOrderEvents, jobs, paymentChannels, paymentMerchants, providers, schoolChannels, schools } from "../../server/db/schema";
import { describeOnDatabases, describeOnEmbedded } from "../helpers/db";
import { platformServiceProvider, type FakeJsapiPayParams, type FakeWechatPay, type SignedNotification } from "../helpers/fakeWechatPay";
import { FakeWechatOAuth, openidOf } from "../helpers/fakeWechatOAuth";
import { billOf, confirmSandbox, dailyFiguresAndLedger, feeOrderOf, findStudent, h5, itemsOf, payBills, payerWorld, paymentOrderOf, unpaidStudents, type PayerStudent, type PayerWorld, type Row } from "./payerSupport";
import { createTestApp, type TestApp } from "./support";

const EN = { "accept-language": "en" };

describeOnDatabases("fee payments", (kind) => {
  let t: TestApp;
  let world: PayerWorld;
  let pupils: PayerStudent[];
  const tokens: Record<string, string> = {};
  const call = (user: string, method: string, payload: Row = {}) => t.call("adminapiv2", method, payload, { token: tokens[user], headers: EN });
  const events = async (orderId: number) =>
    (await t.db.select({ event: feeOrderEvents.event }).from(feeOrderEvents).where(eq(feeOrderEvents.order_id, orderId)).orderBy(feeOrderEvents.sort)).map((e) => e.event);

  const terms = async () => {
    const schoolTerms = await t.db.select({ id: tableColumn(schools, "id"), end: tableColumn(schools, "endtime") }).from(schools);
    const providerTerms = await t.db.select({ id: tableColumn(providers, "id"), end: tableColumn(providers, "end_time") }).from(providers);
    return { schools: schoolTerms.map((s) => `${s.id}:${String(s.end)}`).sort(), providers: providerTerms.map((p) => `${p.id}:${String(p.end)}`).sort() };
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    for (const u of ["svc", "staff", "school", "harbour", "svcv1", "schoolv1", "sysadmin", "pickup"]) tokens[u] = await t.login(u);
    world = await payerWorld(t, tokens.svc);
    pupils = await unpaidStudents(t, world, 12);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("pays a fee to the school's channel in service-provider mode, settles the bill once and leaves every term unchanged", async () => {
    const before = await terms();
    const pupil = pupils[0];
    const order = await payBills(t, await findStudent(t, world, pupil), [pupil.billId]);
    expect(order.total_fee).toBe((pupil.billAmountFen / 100).toFixed(2));
    const payment = await paymentOrderOf(t, order.pay_no);
    // the school's sandbox channel: its sub-merchant is the payee, the sandbox the gateway
    expect(payment).toMatchObject({ kind: "fee", gateway: "sandbox", status: "NOTPAY", spMerchantId: "", termMonths: 0 });
    expect(payment.merchantId).toMatch(/^99\d{8}$/);

    expect((await confirmSandbox(t, order.payparam.code_url)).return_code).toBe("SUCCESS");
    // a notification delivered twice applies once
    expect((await confirmSandbox(t, order.payparam.code_url)).return_code).toBe("SUCCESS");
    const fee = await feeOrderOf(t, order.pay_no);
    expect(fee).toMatchObject({ status: "paid", duplicate: "N", amount: pupil.billAmountFen, transaction_id: `SANDBOX${order.pay_no}` });
    expect(await billOf(t, pupil.billId)).toMatchObject({ status: "paid", paid_amount: pupil.billAmountFen });
    expect(await events(fee.id)).toEqual(["created", "paid"]);
    const [{ n }] = await t.db.select({ n: count() }).from(auditLog).where(and(eq(auditLog.action, "payment"), eq(auditLog.entityId, order.pay_no)));
    expect(Number(n)).toBe(1);
    // the order names the channel that took it; the ledger (payrecord) holds the payment once
    const [binding] = await t.db.select().from(schoolChannels).where(eq(schoolChannels.sch_id, world.schId));
    expect(fee.paychnl_id).toBe(binding.paychnl_id);
    const ledger = await call("svc", "paymentlist", { pay_no: order.pay_no });
    expect(ledger.return_code, ledger.return_msg).toBe("SUCCESS");
    expect(ledger.data?.items).toEqual([
      expect.objectContaining({ pay_no: order.pay_no, order_id: fee.id, sch_id: world.schId, student_id: pupil.id, amount: order.total_fee, paychnl_id: binding.paychnl_id, duplicate: "N" }),
    ]);
    expect((ledger.data?.summary as Row).amount).toBe(order.total_fee);
    // exported as the list shows it
    const exported = await t.exportFile("adminapiv2", "paymentexport", { pay_no: order.pay_no }, { token: tokens.svc, headers: EN });
    expect(exported.return_code, exported.return_msg).toBe("SUCCESS");
    const workbook = new ExcelJS.Workbook();
    const file = exported.data?.items as { content_base64: string };
    await workbook.xlsx.load(Buffer.from(file.content_base64, "base64") as unknown as Parameters<typeof workbook.xlsx.load>[0]);
    const sheet = workbook.worksheets[0]!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header).toContain("Payment no.");
    expect(sheet.rowCount).toBe(2);
    expect(sheet.getRow(2).getCell(header.indexOf("Payment no.") + 1).value).toBe(order.pay_no);
    expect(await terms()).toEqual(before);

    // the bill is paid: it cannot be ordered again
    const again = await h5(t, "h5pay", { ticket: await findStudent(t, world, pupil), bill_ids: [pupil.billId] });
    expect(again.return_code).toBe("FAIL");
    expect(again.return_msg).toBe("A bill chosen can no longer be paid. Please refresh the list.");
  });

  it("refuses bad bill lists and a payment whose amount differs from its order", async () => {
    const pupil = pupils[1];
    const ticket = await findStudent(t, world, pupil);
    for (const bill_ids of [[], Array.from({ length: 21 }, (_, i) => i + 1), ["x"], [-1], [pupil.billId, 2 ** 31]]) {
      expect((await h5(t, "h5pay", { ticket, bill_ids })).return_code, JSON.stringify(bill_ids)).toBe("FAIL");
    }
    const order = await payBills(t, ticket, [pupil.billId]);
    // a report of another amount is a mismatch: audited, nothing applied
    const { applyPaidOrder, PaymentMismatchError } = await import("../../server/payments/apply");
    const payment = await paymentOrderOf(t, order.pay_no);
    await expect(
      applyPaidOrder(t.db, { payNo: order.pay_no, gateway: "sandbox", amountFen: payment.totalFeeFen - 1, merchantId: payment.merchantId, transactionId: "T1", ip: "" }, t.clock.now()),
    ).rejects.toBeInstanceOf(PaymentMismatchError);
    await expect(
      applyPaidOrder(t.db, { payNo: order.pay_no, gateway: "sandbox", amountFen: payment.totalFeeFen, merchantId: "1900000109", transactionId: "T1", ip: "" }, t.clock.now()),
    ).rejects.toBeInstanceOf(PaymentMismatchError);
    expect((await feeOrderOf(t, order.pay_no)).status).toBe("unpaid");
    expect((await billOf(t, pupil.billId)).status).toBe("unpaid");
  });

  it("pays a bill once when two payers pay it at once: the second order is kept paid, flagged duplicate and audited", async () => {
    const pupil = pupils[2];
    const first = await payBills(t, await findStudent(t, world, pupil, "203.0.113.21"), [pupil.billId], "203.0.113.21");
    const second = await payBills(t, await findStudent(t, world, pupil, "203.0.113.22"), [pupil.billId], "203.0.113.22");
    const answers = await Promise.all([confirmSandbox(t, first.payparam.code_url, { ip: "198.51.100.21" }), confirmSandbox(t, second.payparam.code_url, { ip: "198.51.100.22" })]);
    expect(answers.map((a) => a.return_code)).toEqual(["SUCCESS", "SUCCESS"]);
    const orders = [await feeOrderOf(t, first.pay_no), await feeOrderOf(t, second.pay_no)];
    expect(orders.map((o) => o.status)).toEqual(["paid", "paid"]);
    expect(orders.map((o) => o.duplicate).sort()).toEqual(["N", "Y"]);
    expect(await billOf(t, pupil.billId)).toMatchObject({ status: "paid", paid_amount: pupil.billAmountFen });
    const flagged = orders.find((o) => o.duplicate === "Y")!;
    expect(await events(flagged.id)).toEqual(["created", "duplicate"]);
    const [audit] = await t.db.select().from(auditLog).where(and(eq(auditLog.action, "fee_duplicate_payment"), eq(auditLog.entityId, String(flagged.id))));
    expect(audit).toMatchObject({ schId: world.schId, sysid: world.sysid });
    // both were money paid: the ledger lists both, the second flagged
    const ledger = await call("svc", "paymentlist", { student_id: pupil.id, limit: 100 });
    const recorded = (ledger.data?.items as Row[]).filter((p) => p.pay_no === first.pay_no || p.pay_no === second.pay_no);
    expect(recorded.map((p) => `${p.order_id}:${p.duplicate}`).sort()).toEqual(orders.map((o) => `${o.id}:${o.duplicate}`).sort());
  });

  it("closes the other open orders of a paid bill at their gateway, by a job", async () => {
    const pupil = pupils[3];
    const ticket = await findStudent(t, world, pupil);
    const paid = await payBills(t, ticket, [pupil.billId]);
    // (another phone of the family: the same page asking again would be answered the same order)
    const sibling = await payBills(t, await findStudent(t, world, pupil, "203.0.113.23"), [pupil.billId], "203.0.113.23");
    expect((await confirmSandbox(t, paid.payparam.code_url)).return_code).toBe("SUCCESS");
    const queued = await t.db.select().from(jobs).where(and(eq(jobs.kind, "collection.close_sibling_orders"), eq(jobs.status, "queued")));
    expect(queued.map((j) => j.payload)).toContainEqual({ pay_nos: [sibling.pay_no] });
    await t.app.jobs.runDueJobs();
    expect((await paymentOrderOf(t, sibling.pay_no)).status).toBe("CLOSED");
    const closed = await feeOrderOf(t, sibling.pay_no);
    expect(closed.status).toBe("closed");
    expect(await events(closed.id)).toEqual(["created", "closed"]);
    // the closed order can no longer be paid at the sandbox
    expect((await confirmSandbox(t, sibling.payparam.code_url)).return_code).toBe("FAIL");
    expect((await feeOrderOf(t, paid.pay_no)).status).toBe("paid");
  });

  it("lists orders with their states' counts and the amount over the filter, each caller inside its own schools", async () => {
    const list = await call("svc", "orderlist", { sch_id: world.schId, limit: 5 });
    expect(list.return_code, list.return_msg).toBe("SUCCESS");
    const rows = list.data?.items as Row[];
    expect(rows.length).toBeGreaterThan(0);
    const summary = list.data?.summary as Row;
    expect(summary).toMatchObject({ count: list.data?.total });
    expect(typeof summary.amount).toBe("string");
    expect((list.data?.tabs as Row[] | Row | undefined) !== undefined).toBe(true);
    const paid = await call("svc", "orderlist", { sch_id: world.schId, status: "paid", limit: 100 });
    expect((paid.data?.items as Row[]).every((r) => r.status === "paid")).toBe(true);

    const id = rows[0].id;
    const info = await call("school", "orderinfo", { id });
    expect(info.return_code, info.return_msg).toBe("SUCCESS");
    expect((itemsOf(info).lines as Row[]).length).toBeGreaterThan(0);
    expect((itemsOf(info).events as Row[]).map((e) => e.event)[0]).toBe("created");
    // another provider's and another school's accounts find nothing
    for (const user of ["harbour", "svcv1", "schoolv1"]) {
      expect((await call(user, "orderinfo", { id })).return_msg, user).toBe("Record not found");
      const theirs = await call(user, "orderlist", { limit: 100 });
      expect((theirs.data?.items as Row[]).filter((r) => Number(r.sch_id) === world.schId), user).toEqual([]);
    }
    // roles the order pages are not for
    for (const user of ["sysadmin", "pickup"]) expect((await call(user, "orderlist", {})).return_code, user).toBe("FAIL");
    // the payment ledger is the v2 provider's (payrecord): another provider's finds none of these schools' payments
    for (const user of ["staff", "school", "svcv1", "sysadmin"]) expect((await call(user, "paymentlist", {})).return_code, user).toBe("FAIL");
    const theirPayments = await call("harbour", "paymentlist", { limit: 100 });
    expect((theirPayments.data?.items as Row[] | undefined)?.filter((r) => Number(r.sch_id) === world.schId) ?? [], "harbour").toEqual([]);
    // read-only: no add, edit or delete
    expect((await call("svc", "orderdel", { id })).return_code).toBe("FAIL");
  });

  it("makes channel QR codes with a random url-safe code and the payer page's address, for the provider only", async () => {
    const added = await call("svc", "qrchnladd", { sch_id: world.schId, title: "Hall", code: "chosen" });
    expect(added.return_code, added.return_msg).toBe("SUCCESS");
    const a = itemsOf(added);
    const b = itemsOf(await call("svc", "qrchnladd", { sch_id: world.schId, title: "Office" }));
    expect(String(a.code)).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(a.code).not.toBe("chosen");
    expect(a.code).not.toBe(b.code);
    // the server's public address (here the one the request was sent to) and the code
    expect(String(a.url)).toMatch(new RegExp(`^http://localhost(:80)?/h5/${String(a.code)}$`));
    expect((await call("school", "qrchnladd", { sch_id: world.schId, title: "Mine" })).return_code).toBe("FAIL");
    const harbourSchool = (await t.db.select({ id: schools.id }).from(schools).where(eq(schools.title, "Harbour Bay School")))[0].id;
    expect((await call("svc", "qrchnladd", { sch_id: harbourSchool, title: "Theirs" })).return_code).toBe("FAIL");
  });
  it("closes a bill's open order at its gateway before adjusting or waiving the bill, so that nobody pays the old amount", async () => {
    const [adjusted, waived] = [pupils[6], pupils[7]];
    const open = await payBills(t, await findStudent(t, world, adjusted), [adjusted.billId]);
    const answer = await call("svc", "billadjust", { id: adjusted.billId, amount: "1.50", reason: "Sibling discount" });
    expect(answer.return_code, answer.return_msg).toBe("SUCCESS");
    expect(await billOf(t, adjusted.billId)).toMatchObject({ status: "unpaid", amount: 150 });
    // closed at the sandbox too: its QR code can no longer be paid
    expect((await paymentOrderOf(t, open.pay_no)).status).toBe("CLOSED");
    expect(await events((await feeOrderOf(t, open.pay_no)).id)).toEqual(["created", "closed"]);
    expect((await confirmSandbox(t, open.payparam.code_url)).return_code).toBe("FAIL");
    // the new amount is what a new order asks
    const again = await payBills(t, await findStudent(t, world, adjusted), [adjusted.billId]);
    expect(again.total_fee).toBe("1.50");
    // an order made between the gateway's close and the bill's lock refuses the change under the lock, to be tried again
    const { refuseWhileOrderOpen } = await import("../../server/domains/collection/feeOrders");
    await expect(refuseWhileOrderOpen(t.db, adjusted.billId)).rejects.toMatchObject({ messageKey: "collection.errors.order_open", params: { pay_no: again.pay_no } });

    const waiting = await payBills(t, await findStudent(t, world, waived), [waived.billId]);
    expect((await call("svc", "billwaive", { id: waived.billId, reason: "Hardship" })).return_code).toBe("SUCCESS");
    expect((await billOf(t, waived.billId)).status).toBe("waived");
    expect((await feeOrderOf(t, waiting.pay_no)).status).toBe("closed");
    expect((await confirmSandbox(t, waiting.payparam.code_url)).return_code).toBe("FAIL");
  });

  it("applies an open order its payer had paid when the bill is adjusted, and refuses the adjustment", async () => {
    const pupil = pupils[8];
    const order = await payBills(t, await findStudent(t, world, pupil), [pupil.billId]);
    // paid at the gateway, its notification not arrived yet
    expect((await confirmSandbox(t, order.payparam.code_url, { notify: false })).return_code).toBe("SUCCESS");
    const answer = await call("svc", "billadjust", { id: pupil.billId, amount: "1.00", reason: "Sibling discount" });
    expect(answer.return_code).toBe("FAIL");
    expect(answer.return_msg).toBe("This bill has just been paid by its payer: nothing was changed");
    expect(await billOf(t, pupil.billId)).toMatchObject({ status: "paid", amount: pupil.billAmountFen, paid_amount: pupil.billAmountFen });
    expect((await feeOrderOf(t, order.pay_no)).status).toBe("paid");
    // applied by the user who asked the gateway, and said so in the trail
    const [audit] = await t.db.select().from(auditLog).where(and(eq(auditLog.action, "payment"), eq(auditLog.entityId, order.pay_no)));
    expect(audit.username).toBe("svc");
  });

  it("pays a bill whose amount changed under its open order with what was paid, flags it and counts it on the board", async () => {
    const pupil = pupils[9];
    const order = await payBills(t, await findStudent(t, world, pupil), [pupil.billId]);
    // the bill changed after the order was made (as a change racing the order would)
    const owed = pupil.billAmountFen + 2000;
    await t.db.update(bills).set({ amount: owed }).where(eq(bills.id, pupil.billId));
    const before = itemsOf(await call("svc", "activityboard", { id: world.activityId })) as unknown as ActivityBoard;
    expect((await confirmSandbox(t, order.payparam.code_url)).return_code).toBe("SUCCESS");
    // the money is kept: the order paid, in the ledger, and on the bill as what came in
    const fee = await feeOrderOf(t, order.pay_no);
    expect(fee).toMatchObject({ status: "paid", duplicate: "N" });
    expect(await billOf(t, pupil.billId)).toMatchObject({ status: "amount_differs", amount: owed, paid_amount: pupil.billAmountFen });
    expect(await events(fee.id)).toEqual(["created", "paid", "amount_differs"]);
    const info = await call("svc", "orderinfo", { id: fee.id });
    const flagged = (itemsOf(info).events as Row[]).find((e) => e.event === "amount_differs");
    expect(flagged?.note).toBe(`#${pupil.billId} ${(pupil.billAmountFen / 100).toFixed(2)}/${(owed / 100).toFixed(2)}`);
    const ledger = await call("svc", "paymentlist", { pay_no: order.pay_no });
    expect((ledger.data?.items as Row[]).map((p) => p.amount)).toEqual([order.total_fee]);
    const [audit] = await t.db.select().from(auditLog).where(and(eq(auditLog.action, "fee_amount_differs"), eq(auditLog.entityId, String(fee.id))));
    expect(audit.detail).toMatchObject({ pay_no: order.pay_no, bills: [{ id: pupil.billId, paid_fen: pupil.billAmountFen, amount_fen: owed }] });
    // the board: one bill more flagged, neither paid nor unpaid, its money collected
    const after = itemsOf(await call("svc", "activityboard", { id: world.activityId })) as unknown as ActivityBoard;
    expect(after.total.differs).toBe(before.total.differs + 1);
    expect(after.total.paid).toBe(before.total.paid);
    expect(after.total.unpaid).toBe(before.total.unpaid - 1);
    expect(yuanToFen(after.total.collected)! - yuanToFen(before.total.collected)!).toBe(pupil.billAmountFen);
    expect(after.classes.find((c) => c.class_id === pupil.class_id)?.differs).toBeGreaterThanOrEqual(1);
    // a bill paid in full is not flagged
    expect(after.classes.reduce((sum, c) => sum + c.differs, 0)).toBe(after.total.differs);
  });

  it("applies a payment whose notification never came when the closing job finds it paid, and closes the unpaid ones", async () => {
    const [lost, unpaid] = [pupils[4], pupils[5]];
    const lostOrder = await payBills(t, await findStudent(t, world, lost), [lost.billId]);
    const unpaidOrder = await payBills(t, await findStudent(t, world, unpaid), [unpaid.billId]);
    expect((await confirmSandbox(t, lostOrder.payparam.code_url, { notify: false })).return_code).toBe("SUCCESS");
    expect((await feeOrderOf(t, lostOrder.pay_no)).status).toBe("unpaid");
    // past the provider's order timeout (two hours by default)
    // (the last test: sessions idle this long have ended)
    t.clock.advance(2 * 3600_000 + 60_000);
    await t.app.jobs.runDueJobs();
    expect(await feeOrderOf(t, lostOrder.pay_no)).toMatchObject({ status: "paid", duplicate: "N" });
    expect((await billOf(t, lost.billId)).status).toBe("paid");
    // the job applied it: the trail names the job, not nobody
    const applied = await t.db.select().from(auditLog).where(and(eq(auditLog.action, "payment"), eq(auditLog.entityId, lostOrder.pay_no)));
    expect(applied.map((a) => [a.userId, a.username])).toEqual([[null, "job:payments.close_expired_orders"]]);
    expect((await feeOrderOf(t, unpaidOrder.pay_no)).status).toBe("closed");
    expect((await billOf(t, unpaid.billId)).status).toBe("unpaid");
  });

});

describeOnEmbedded("fee payments through WeChat Pay in service-provider mode", (kind) => {
  const provider = platformServiceProvider();
  const { spMchid: SP_MCHID, subMchid: SUB_MCHID, appid: APPID, appSecret: APP_SECRET } = provider;
  let t: TestApp;
  let fake: FakeWechatPay;
  let oauth: FakeWechatOAuth;
  let world: PayerWorld;
  let pupils: PayerStudent[];
  const deliver = (notification: SignedNotification) =>
    t.app.inject({ method: "POST", url: new URL(notification.url).pathname, headers: notification.headers, payload: notification.body });
  /** the platform's merchant as paymerchantset takes it (its secrets kept when left out) */
  const merchantPayload = (changes: Row = {}): Row => provider.merchantSet(fake, changes);

  beforeAll(async () => {
    // the stand-in's clock is the app's, made just after
    oauth = await FakeWechatOAuth.start([{ appid: APPID, secret: APP_SECRET }], { now: () => t.clock.now() });
    t = await createTestApp(kind, { paymentKey: { key: randomBytes(32).toString("base64") }, wechatOAuth: oauth.endpoints });
    fake = await provider.start(t.clock);
    const set = await t.call("adminapiv2", "paymerchantset", merchantPayload(provider.secrets()), { token: await t.login("sysadmin") });
    expect(set.return_code, set.return_msg).toBe("SUCCESS");
    world = await payerWorld(t, await t.login("svc"));
    // the school's channel: Sunrise's WeChat Pay sub-merchant, approved
    const [channel] = await t.db.update(paymentChannels).set({ status: "approved", sub_mchid: SUB_MCHID }).where(eq(paymentChannels.title, "Sunrise WeChat Pay")).returning();
    await t.db.update(schoolChannels).set({ paychnl_id: channel.id }).where(eq(schoolChannels.sch_id, world.schId));
    pupils = await unpaidStudents(t, world, 6);
  });
  afterAll(async () => {
    await oauth?.close();
    await fake?.close();
    await t?.close();
  });

  it("orders for the school's sub-merchant through the platform merchant, and applies its notification once", async () => {
    const pupil = pupils[0];
    const order = await payBills(t, await findStudent(t, world, pupil), [pupil.billId]);
    const remote = fake.orders.get(order.pay_no)!;
    expect(remote).toMatchObject({ mchid: SP_MCHID, subMchid: SUB_MCHID, totalFen: pupil.billAmountFen });
    expect(new URL(remote.notifyUrl).pathname).toBe(`/pay/notify/wechatpay/${SP_MCHID}`);
    expect(await paymentOrderOf(t, order.pay_no)).toMatchObject({ gateway: "wechatpay", merchantId: SUB_MCHID, spMerchantId: SP_MCHID });

    // another sub-merchant named: refused, nothing paid
    expect((await deliver(fake.notification(order.pay_no, { subMchid: "1900000110" }))).statusCode).toBe(400);
    expect((await feeOrderOf(t, order.pay_no)).status).toBe("unpaid");
    const notification = fake.notification(order.pay_no);
    expect((await deliver(notification)).statusCode).toBe(204);
    expect((await deliver(notification)).statusCode).toBe(204);
    expect(await feeOrderOf(t, order.pay_no)).toMatchObject({ status: "paid", transaction_id: remote.transactionId });
    expect((await billOf(t, pupil.billId)).status).toBe("paid");
  });

  it("queries and closes fee orders at the gateway naming the sub-merchant: a lost notification applied, an unpaid order closed", async () => {
    const [lost, unpaid] = [pupils[1], pupils[2]];
    const lostOrder = await payBills(t, await findStudent(t, world, lost), [lost.billId]);
    const unpaidOrder = await payBills(t, await findStudent(t, world, unpaid), [unpaid.billId]);
    fake.markPaid(lostOrder.pay_no);
    t.clock.advance(2 * 3600_000 + 60_000);
    await t.app.jobs.runDueJobs();
    expect((await feeOrderOf(t, lostOrder.pay_no)).status).toBe("paid");
    expect((await feeOrderOf(t, unpaidOrder.pay_no)).status).toBe("closed");
    expect(fake.orders.get(unpaidOrder.pay_no)?.state).toBe("CLOSED");
  });

  it("pays inside WeChat: the payer page signs the payer in through WeChat's OAuth and pays on the JSAPI sheet", async () => {
    const [pupil, another] = [pupils[3], pupils[4]];
    const sysadmin = await t.login("sysadmin");
    // without the app's AppSecret nobody is signed in: the page offers QR codes only
    expect(itemsOf(await h5(t, "h5entry", { code: world.code })).wechat_oauth).toBeNull();
    const early = await h5(t, "h5oauth", { code: world.code, oauth_code: oauth.issueCode(APPID) });
    expect(early.return_code).toBe("FAIL");
    expect(early.return_msg).toMatch(/not available/);

    const stored = await t.call("adminapiv2", "paymerchantset", merchantPayload({ app_secret: APP_SECRET }), { token: sysadmin });
    expect(stored.return_code, stored.return_msg).toBe("SUCCESS");
    const info = await t.call("adminapiv2", "paymerchantinfo", {}, { token: sysadmin });
    expect(itemsOf(info).has_app_secret).toBe(true);
    expect(JSON.stringify(info)).not.toContain(APP_SECRET);
    const signIn = itemsOf(await h5(t, "h5entry", { code: world.code })).wechat_oauth as { appid: string; authorize_url: string };
    expect(signIn).toEqual({ appid: APPID, authorize_url: oauth.endpoints.authorizeUrl });

    // WeChat's browser follows the authorize page and comes back to the payer page with a code
    const page = `http://school.example/h5/${world.code}`;
    const authorize = new URL(signIn.authorize_url);
    authorize.search = new URLSearchParams({ appid: signIn.appid, redirect_uri: page, response_type: "code", scope: "snsapi_base", state: "s1" }).toString();
    const redirected = await fetch(authorize, { redirect: "manual" });
    expect(redirected.status).toBe(302);
    const back = new URL(redirected.headers.get("location") ?? "");
    expect(`${back.origin}${back.pathname}`).toBe(page);
    expect(back.searchParams.get("state")).toBe("s1");
    const oauthCode = back.searchParams.get("code") ?? "";

    const signedIn = await h5(t, "h5oauth", { code: world.code, oauth_code: oauthCode });
    expect(signedIn.return_code, signedIn.return_msg).toBe("SUCCESS");
    const wxToken = String(itemsOf(signedIn).wx_token);
    expect(Object.fromEntries(oauth.exchanges.at(-1)!)).toEqual({ appid: APPID, secret: APP_SECRET, code: oauthCode, grant_type: "authorization_code" });
    // a code works once
    const again = await h5(t, "h5oauth", { code: world.code, oauth_code: oauthCode });
    expect(again.return_code).toBe("FAIL");
    expect(again.return_msg).toMatch(/WeChat could not confirm/);

    // h5pay with the token: a JSAPI order for the payer's openid, to the school's sub-merchant
    const paid = itemsOf(await h5(t, "h5pay", { ticket: await findStudent(t, world, pupil), bill_ids: [pupil.billId], wx_token: wxToken }));
    expect(paid.trade_type).toBe("JSAPI");
    const remote = fake.orders.get(String(paid.pay_no))!;
    expect(remote).toMatchObject({ tradeType: "JSAPI", mchid: SP_MCHID, subMchid: SUB_MCHID, appid: APPID, payer: { spOpenid: openidOf(oauth.user, APPID) }, totalFen: pupil.billAmountFen });
    // the parameters the page hands WeChat's JS bridge are the service provider's signature over this order
    expect(fake.checkJsapiPayParams(paid.payparam as FakeJsapiPayParams)).toBe(remote);
    expect((await deliver(fake.notification(String(paid.pay_no)))).statusCode).toBe(204);
    expect((await feeOrderOf(t, String(paid.pay_no))).status).toBe("paid");
    expect((await billOf(t, pupil.billId)).status).toBe("paid");

    // an unknown token (or none: any other browser) leaves a QR code to pay by
    const byQr = itemsOf(await h5(t, "h5pay", { ticket: await findStudent(t, world, another), bill_ids: [another.billId], wx_token: randomBytes(32).toString("base64url") }));
    expect(byQr.trade_type).toBe("NATIVE");
    expect((byQr.payparam as { code_url: string }).code_url).toBe(fake.orders.get(String(byQr.pay_no))?.codeUrl);
  });

  it("closes an expired order whose merchant was removed here, once, with that reason, and leaves the gateway alone", async () => {
    const pupil = pupils[5];
    const order = await payBills(t, await findStudent(t, world, pupil), [pupil.billId]);
    const [merchant] = await t.db.delete(paymentMerchants).where(eq(paymentMerchants.merchantId, SP_MCHID)).returning();
    try {
      t.clock.advance(2 * 3600_000 + 60_000);
      await t.app.jobs.runDueJobs();
      expect((await paymentOrderOf(t, order.pay_no)).status).toBe("CLOSED");
      const fee = await feeOrderOf(t, order.pay_no);
      expect(fee.status).toBe("closed");
      const timeline = await t.db.select({ event: feeOrderEvents.event, note: feeOrderEvents.note }).from(feeOrderEvents).where(eq(feeOrderEvents.order_id, fee.id)).orderBy(feeOrderEvents.sort);
      expect(timeline).toEqual([{ event: "created", note: null }, { event: "merchant_gone", note: SP_MCHID }]);
      // nobody could ask the gateway: it still holds the order as it was
      expect(fake.orders.get(order.pay_no)?.state).toBe("NOTPAY");
      expect((await billOf(t, pupil.billId)).status).toBe("unpaid");
      const closedBy = await t.db.select().from(auditLog).where(and(eq(auditLog.action, "payment_closed"), eq(auditLog.entityId, order.pay_no)));
      expect(closedBy.map((a) => [a.username, a.detail])).toEqual([["job:payments.close_expired_orders", { reason: "merchant_gone", gateway: "wechatpay", merchant_id: SP_MCHID }]]);

      // the next runs find nothing more to do with it
      t.clock.advance(120_000);
      await t.app.jobs.runDueJobs();
      const [run] = await t.db.select().from(jobs).where(and(eq(jobs.kind, "payments.close_expired_orders"), eq(jobs.status, "done"))).orderBy(desc(jobs.id)).limit(1);
      expect(run.result).toMatchObject({ due: 0, gone: 0 });
      expect(await t.db.select().from(auditLog).where(and(eq(auditLog.action, "payment_closed"), eq(auditLog.entityId, order.pay_no)))).toHaveLength(1);
      expect(await t.db.select().from(feeOrderEvents).where(eq(feeOrderEvents.order_id, fee.id))).toHaveLength(2);
    } finally {
      await t.db.insert(paymentMerchants).values(merchant);
    }
  });

  it("keeps the statistics' daily figures equal to the ledger of the payments and refunds made here", async () => {
    const { daily, ledger } = await dailyFiguresAndLedger(t);
    expect(ledger.length).toBeGreaterThan(0);
    expect(daily).toEqual(ledger);
  });
});
