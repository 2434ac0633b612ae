/**
 * One truth for the money (DESIGN 8): on the demo data plus an order paying bills of two activities, a part refund of
 * it touching both, a full refund, a waived bill, payments on either side of midnight China time and the school
 * shop's orders (one refunded in part, one in full, one closed unpaid), every page that shows a figure of the money
 * shows the same figure, to the fen, for several filters and periods: every statistics page's totals, the order
 * list's paid summary, payrecord's and refundrecord's sums, the settlements, reconciliation's own figures, the shop
 * order list's and the goods statistics' sums, the order export and the dashboard's 30 days. One of the shop's items
 * is refunded through an after-sale: its money is in refundrecord, the after-sales list, the goods statistics (on its
 * own SKU), the shop order list, the settlement and the reconciliation, and not among the fees. A figure added to
 * the console joins this file.
 */
import { and, asc, eq, sql } from "drizzle-orm";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { fenToYuan, yuanToFen } from "../../common/money";
import { addDays, businessDay } from "../../common/term";
import { queryRows } from "../../server/db/client";
import { orderEntity } from "../../catalogue/collectionOrders";
import { paymentEntity } from "../../catalogue/collectionPayments";
import { refShownTitle } from "../../common/fieldRules";
import { activities, aftersales, bills, classes, feeOrderLines, goods, goodsSkus, notices, pickupPoints, shopOrderItems, shopOrders, students } from "../../server/db/schema";
import { settleOpenDays } from "../../server/domains/collection/settlements";
import { translator } from "../../server/lib/i18n";
import { describeOnDatabases } from "../helpers/db";
import { confirmSandbox, dailyFiguresAndLedger, feeOrderOf, findStudent, h5, itemsOf, payBills, payerWorld, type PayerWorld } from "./payerSupport";
import { createTestApp, type TestApp } from "./support";

type Row = Record<string, unknown>;
type Money = { orders: number; paid_amount: number; refund_amount: number; net_amount: number };
const MONEY = ["paid_amount", "refund_amount", "net_amount", "unpaid_amount"];
const zh = translator("zh");
/** a yuan string's fen; NaN for anything else, which no figure equals */
const fen = (value: unknown): number => yuanToFen(String(value)) ?? Number.NaN;
const CHANNEL_MATERIAL = {
  subject: "Sunrise No.1 Primary School",
  licence_no: "91310000MA1FL8XQ77",
  legal_person: "Wang Fang",
  contact_name: "Zhou Min",
  contact_phone: "13800138000",
  bank_name: "Bank of Shanghai",
  bank_account: "6222020200112299887",
};

describeOnDatabases("figures that agree on every page", (kind) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  let world: PayerWorld;
  /** the school's term activity and the outing opened for the test: an order pays a bill of each */
  let term: number;
  let outing: number;
  let multi: { payNo: string; orderId: number; lines: { activity_id: number; amount: number }[] };
  let today: string;
  let tomorrow: string;
  /** the channel the school moves to during the second day */
  let newChannel: number;
  /** the channel the school took payments on until then */
  let oldChannel: number;
  /** the second day's fee payments and refunds, each as its order or refund was made (fen) */
  let feeDay: { onOld: number; onNew: number; refundedOnOld: number };
  /** the shop's orders of the second day, paid on the new channel: two goods refunded in part, one refunded in full; one closed unpaid */
  let shop: { twoGoods: number; whole: number; closedUnpaid: number };
  /** the after-sale of the jacket of the order of two goods, refunded 100.00 on the second day */
  let afterSale: number;
  /** what it gave back (fen) */
  const AFTERSALE_FEN = 10_000;
  const call = async (user: string, method: string, payload: Row = {}) => {
    const res = await t.call("adminapiv2", method, payload, { token: tokens[user] });
    expect(res.return_code, `${method}: ${res.return_msg}`).toBe("SUCCESS");
    return res;
  };

  /** a report's totals, money in fen */
  async function sums(user: string, report: string, payload: Row): Promise<Row & Money> {
    const res = await call(user, report, payload);
    const raw = res.data?.sums as Row;
    return Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, MONEY.includes(k) ? fen(v) : Number(v)])) as Row & Money;
  }
  const money = (row: Money): Money => ({ orders: row.orders, paid_amount: row.paid_amount, refund_amount: row.refund_amount, net_amount: row.net_amount });
  /** a list's summary amount (fen) and count over a filter */
  async function listed(user: string, method: string, payload: Row): Promise<{ count: number; amount: number; paid_amount?: number }> {
    const summary = (await call(user, method, { limit: 1, ...payload })).data?.summary as Row;
    return {
      count: Number(summary.count),
      amount: fen(summary.amount),
      ...(summary.paid_amount === undefined ? {} : { paid_amount: fen(summary.paid_amount) }),
    };
  }

  /** pays the student's unpaid bills of these activities in one order, from the payer page, at the clock's time */
  async function payStudent(studentId: number, activityIds: number[]): Promise<string> {
    const [student] = await t.db.select().from(students).where(eq(students.id, studentId));
    const owed = await t.db
      .select({ id: bills.id })
      .from(bills)
      .where(and(eq(bills.student_id, studentId), eq(bills.status, "unpaid"), sql`${bills.activity_id} in (${sql.join(activityIds, sql`, `)})`))
      .orderBy(asc(bills.activity_id));
    expect(owed).toHaveLength(activityIds.length);
    const ticket = await findStudent(t, world, { ...student, billId: 0, billAmountFen: 0 } as never);
    const order = await payBills(t, ticket, owed.map((b) => b.id));
    expect((await confirmSandbox(t, order.payparam.code_url)).return_code).toBe("SUCCESS");
    expect((await feeOrderOf(t, order.pay_no)).status).toBe("paid");
    return order.pay_no;
  }

  beforeAll(async () => {
    t = await createTestApp(kind);
    for (const u of ["svc", "school", "staff", "sysadmin"]) tokens[u] = await t.login(u);
    world = await payerWorld(t, tokens.svc);
    term = world.activityId;
    const [draft] = await t.db.select({ id: activities.id }).from(activities).where(and(eq(activities.sch_id, world.schId), eq(activities.status, "draft")));
    outing = draft.id;
    await call("svc", "activityact", { id: outing, act: "open" });

    // at 23:59:30 China time an order pays a bill of each activity; a minute later, the next business day, another
    // student pays the term's bill alone
    today = businessDay(t.clock.now());
    tomorrow = addDays(today, 1);
    t.clock.advance(new Date(`${tomorrow}T00:00:00+08:00`).getTime() - 30_000 - t.clock.now().getTime());
    // students whose guardians are told of payments
    const [two, one, late] = await queryRows<{ student_id: number }>(
      t.db,
      sql`SELECT b.student_id FROM ${bills} b JOIN ${students} s ON s.id = b.student_id
           WHERE b.activity_id IN (${term}, ${outing}) AND b.status = 'unpaid' AND coalesce(s.guardian_phone, '') <> ''
           GROUP BY b.student_id HAVING count(*) = 2 ORDER BY b.student_id LIMIT 3`,
    );
    const payNo = await payStudent(two.student_id, [term, outing]);
    const order = await feeOrderOf(t, payNo);
    // named by its first line's activity, counting both
    expect({ activity_id: order.activity_id, activity_count: order.activity_count }).toEqual({ activity_id: term, activity_count: 2 });
    const lines = await queryRows<{ activity_id: number; amount: string }>(
      t.db,
      sql`SELECT b.activity_id, l.amount FROM ${feeOrderLines} l JOIN ${bills} b ON b.id = l.bill_id WHERE l.order_id = ${order.id} ORDER BY l.sort`,
    );
    multi = { payNo, orderId: order.id, lines: lines.map((l) => ({ activity_id: Number(l.activity_id), amount: Number(l.amount) })) };
    t.clock.advance(60_000);
    // the evening's sessions ran out meanwhile
    for (const u of ["svc", "school", "staff", "sysadmin"]) tokens[u] = await t.login(u);
    const single = await feeOrderOf(t, await payStudent(one.student_id, [term]));

    // later that day the school moves to a channel approved today; a third student pays on it
    oldChannel = Number(single.paychnl_id);
    const opened = await call("svc", "paychnladd", { title: "Sunrise No.1 new merchant", gateway: "sandbox", ...CHANNEL_MATERIAL });
    newChannel = Number((opened.data?.items as Row).id);
    await call("svc", "paychnlsubmit", { id: newChannel });
    await call("sysadmin", "paychnlreview", { id: newChannel, result: "approve" });
    await call("svc", "schoolpaychnlset", { sch_id: world.schId, paychnl_id: newChannel });
    t.clock.advance(3_600_000);
    for (const u of ["svc", "school", "staff", "sysadmin"]) tokens[u] = await t.login(u);
    const onNewChannel = await feeOrderOf(t, await payStudent(late.student_id, [term]));
    expect(onNewChannel.paychnl_id).toBe(newChannel);

    // a part refund of the order of two activities, reaching into its second line, and a full refund of the other
    await call("svc", "refundadd", { order_id: multi.orderId, amount: fenToYuan(multi.lines[0]!.amount + 100), reason: "Outing cancelled" });
    await call("svc", "refundadd", { order_id: single.id, amount: fenToYuan(single.amount), reason: "Left the school" });
    await t.app.jobs.runDueJobs();
    expect((await feeOrderOf(t, multi.payNo)).status).toBe("part_refunded");
    expect((await feeOrderOf(t, single.pay_no)).status).toBe("refunded");

    feeDay = { onOld: Number(single.amount), onNew: Number(onNewChannel.amount), refundedOnOld: multi.lines[0]!.amount + 100 + Number(single.amount) };

    // the school shop on the new channel: an order of two goods (128.00 and 268.00) refunded 33.33, one of three
    // uniforms (3 x 128.00) refunded in full and so cancelled, and one closed unpaid
    const skus = await t.db.select({ id: goodsSkus.id, title: goods.title, specs: goodsSkus.spec_values }).from(goodsSkus).innerJoin(goods, eq(goods.id, goodsSkus.goods_id));
    const skuOf = (title: string, specs: Record<string, string>) => skus.find((s) => s.title === title && Object.entries(specs).every(([k, v]) => s.specs[k] === v))!.id;
    const [point] = await t.db.select({ id: pickupPoints.id }).from(pickupPoints).where(eq(pickupPoints.title, "Sunrise North Gate Pickup"));
    const [pupil] = await t.db.select().from(students).where(and(eq(students.sch_id, world.schId), eq(students.status, "1"))).orderBy(asc(students.id)).offset(10).limit(1);
    const ip = "203.0.113.71";
    const ticket = String(itemsOf(await h5(t, "h5find", { code: world.code, name: pupil!.name, student_no: pupil!.student_no }, ip)).ticket);
    const shopOrder = async (items: { sku_id: number; qty: number }[], pay = true) => {
      const made = await h5(t, "h5shoporder", { ticket, items, delivery: "pickup", pickup_point_id: point!.id }, ip);
      expect(made.return_code, made.return_msg).toBe("SUCCESS");
      const order = itemsOf(made) as { id: number; payparam: { code_url: string } };
      if (pay) expect((await confirmSandbox(t, order.payparam.code_url)).return_code).toBe("SUCCESS");
      return order.id;
    };
    shop = {
      twoGoods: await shopOrder([
        { sku_id: skuOf("夏季校服短袖套装", { 尺码: "140", 颜色: "白色" }), qty: 1 },
        { sku_id: skuOf("冬季校服冲锋衣", { 尺码: "150" }), qty: 1 },
      ]),
      whole: await shopOrder([{ sku_id: skuOf("夏季校服短袖套装", { 尺码: "120", 颜色: "藏青" }), qty: 3 }]),
      closedUnpaid: await shopOrder([{ sku_id: skuOf("夏季校服短袖套装", { 尺码: "130", 颜色: "白色" }), qty: 1 }], false),
    };
    expect((await h5(t, "h5shopordercancel", { ticket, id: shop.closedUnpaid }, ip)).return_code).toBe("SUCCESS");
    for (const [id, amount] of [[shop.twoGoods, "33.33"], [shop.whole, "384.00"]] as const) await call("svc", "shoporderrefund", { id, amount, reason: "退货" });
    await t.app.jobs.runDueJobs();
    const shopStates = await t.db.select({ id: shopOrders.id, status: shopOrders.status }).from(shopOrders).where(sql`${shopOrders.id} in (${shop.twoGoods}, ${shop.whole}, ${shop.closedUnpaid})`);
    expect(new Map(shopStates.map((o) => [o.id, o.status]))).toEqual(new Map([[shop.twoGoods, "undelivered"], [shop.whole, "cancelled"], [shop.closedUnpaid, "cancelled"]]));

    // the parent of the order of two goods asks 100.00 back for the jacket (not handed over yet: the money only); the
    // provider agrees, and the refund goes back through the job
    const [jacket] = await t.db.select({ id: shopOrderItems.id }).from(shopOrderItems).where(and(eq(shopOrderItems.order_id, shop.twoGoods), eq(shopOrderItems.title, "冬季校服冲锋衣")));
    const asked = await h5(t, "h5aftersaleadd", { ticket, order_id: shop.twoGoods, item_id: jacket!.id, way: "refund", qty: 1, amount: fenToYuan(AFTERSALE_FEN), reason: "尺码偏大" }, ip);
    expect(asked.return_code, asked.return_msg).toBe("SUCCESS");
    afterSale = Number(itemsOf(asked).id);
    await call("svc", "aftersalereview", { id: afterSale, result: "agree" });
    await t.app.jobs.runDueJobs();
    expect((await t.db.select({ status: aftersales.status }).from(aftersales).where(eq(aftersales.id, afterSale)))[0]!.status).toBe("completed");

    // a bill waived: no longer owed anywhere
    const [toWaive] = await t.db.select({ id: bills.id }).from(bills).where(and(eq(bills.activity_id, term), eq(bills.status, "unpaid"))).orderBy(asc(bills.id)).limit(1);
    await call("svc", "billwaive", { id: toWaive.id, reason: "Hardship" });

    await settleOpenDays(t.db, t.clock.now());
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it("puts an order of two activities in each activity by its lines, counted once, and its refund by the lines it gave back on", async () => {
    const period = { at_start: today, at_end: tomorrow };
    const byActivity = await call("school", "activitystatis", period);
    const rows = byActivity.data?.items as Row[];
    const row = (id: number) => rows.find((r) => r.activity_id === id)!;
    expect(row(outing), "the outing's row").toBeDefined();
    // the first line's bill is the term's (bills in activity order): the order counts there, its money in both
    const first = multi.lines[0]!;
    const second = multi.lines[1]!;
    expect(first.activity_id).toBe(term);
    expect(fen(row(outing).paid_amount)).toBe(second.amount);
    expect(Number(row(outing).orders)).toBe(0);
    // the refund gave back the first line whole and 1.00 of the second
    expect(fen(row(outing).refund_amount)).toBe(100);
    const all = await sums("svc", "paystatis", { ...period, sch_id: world.schId });
    const activitiesSum = await sums("school", "activitystatis", period);
    expect(money(activitiesSum)).toEqual(money(all));
    // the daily figures the pages read equal the ledger they add up
    const { daily, ledger } = await dailyFiguresAndLedger(t);
    expect(daily).toEqual(ledger);
  });

  it("names the order of two activities by its first and their count in the lists, the export and its notices, in zh and en; either activity finds it", async () => {
    const [first] = await t.db.select({ title: activities.title }).from(activities).where(eq(activities.id, term));
    const named = { zh: `${first!.title} 等 2 项`, en: `${first!.title} and 1 more` };
    const languages = { zh: "zh-CN", en: "en" } as const;
    const inLanguage = (lang: keyof typeof languages) => ({ token: tokens.svc, headers: { "accept-language": languages[lang] } });
    const activityField = (entity: typeof orderEntity) => entity.fields.find((f) => f.name === "activity_id")!;

    // the order list and payrecord, each found by either activity's filter, name it as the pages show it
    for (const [method, entity, key] of [["orderlist", orderEntity, "id"], ["paymentlist", paymentEntity, "order_id"]] as const) {
      for (const activity of [term, outing]) {
        const rows = (await call("svc", method, { sch_id: world.schId, activity_id: activity, limit: 100 })).data?.items as Row[];
        const row = rows.find((r) => r[key] === multi.orderId);
        expect(row, `${method} by activity ${activity}`).toBeDefined();
        for (const lang of ["zh", "en"] as const) expect(refShownTitle(activityField(entity), row!, translator(lang)), `${method} ${lang}`).toBe(named[lang]);
      }
      // an activity of none of its lines does not find it
      const [closedTerm] = await t.db.select({ id: activities.id }).from(activities).where(and(eq(activities.sch_id, world.schId), eq(activities.status, "closed")));
      const others = (await call("svc", method, { sch_id: world.schId, activity_id: closedTerm!.id, limit: 100 })).data?.items as Row[];
      expect(others.some((r) => r[key] === multi.orderId), `${method} by another activity`).toBe(false);
    }
    // the school and the staff find it by either activity too
    for (const user of ["school", "staff"]) {
      for (const activity of [term, outing]) {
        const rows = (await call(user, "orderlist", { sch_id: world.schId, activity_id: activity, limit: 100 })).data?.items as Row[];
        expect(rows.some((r) => r.id === multi.orderId), `${user} by activity ${activity}`).toBe(true);
      }
    }

    // the export, in the caller's language
    for (const lang of ["zh", "en"] as const) {
      const exported = await t.exportFile("adminapiv2", "orderexport", { sch_id: world.schId, order_no: (await feeOrderOf(t, multi.payNo)).order_no }, inLanguage(lang));
      expect(exported.return_code, exported.return_msg).toBe("SUCCESS");
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(Buffer.from(String(itemsOf(exported).content_base64), "base64") as unknown as ArrayBuffer);
      const sheet = workbook.worksheets[0]!;
      const header = (sheet.getRow(1).values as unknown[]).map((v) => String(v ?? ""));
      const column = header.indexOf(translator(lang)("collection.field.activity"));
      expect(column, lang).toBeGreaterThan(0);
      expect(sheet.rowCount).toBe(2);
      expect(sheet.getRow(2).getCell(column).text, lang).toBe(named[lang]);
    }

    // the guardian's notices of its payment and of its refund: the gateways' text names it within a template's
    // short text, the notices page in the reader's language
    const told = await t.db.select().from(notices).where(and(eq(notices.studentId, (await feeOrderOf(t, multi.payNo)).student_id), sql`${notices.kind} in ('payment', 'refund')`));
    expect(told.filter((n) => n.channel === "sms").map((n) => n.kind).sort()).toEqual(["payment", "refund"]);
    for (const notice of told) {
      expect(notice.params.activity).toContain("等 2 项");
      expect(Array.from(notice.params.activity!).length).toBeLessThanOrEqual(20);
      for (const lang of ["zh", "en"] as const) {
        const listed = await t.call("adminapiv2", "noticelist", { kind: notice.kind, limit: 100 }, inLanguage(lang));
        const text = String((listed.data?.items as Row[]).find((n) => n.id === notice.id)?.text);
        expect(text, `${notice.kind} ${lang}`).toContain(lang === "zh" ? `“${named.zh}”` : `"${named.en}"`);
      }
    }
  });

  it("answers the same money on every page, for every filter and period, to the fen", async () => {
    const [grade] = await queryRows<{ grade_id: number; class_id: number }>(
      t.db,
      sql`SELECT c.grade_id, c.id AS class_id FROM ${classes} c JOIN ${students} s ON s.class_id = c.id JOIN ${feeOrderLines} l ON true
           JOIN ${bills} b ON b.id = l.bill_id AND b.student_id = s.id WHERE l.order_id = ${multi.orderId} LIMIT 1`,
    );
    const periods = [
      { at_start: today, at_end: today },
      { at_start: tomorrow, at_end: tomorrow },
      { at_start: addDays(today, -60), at_end: tomorrow },
    ];
    const filters: Row[] = [{}, { grade_id: grade.grade_id }, { class_id: grade.class_id }];
    for (const period of periods) {
      const label = `${period.at_start}..${period.at_end}`;
      // the provider's pages over its schools, and the school's own
      const provider = await sums("svc", "paystatis", { ...period, sch_id: world.schId });
      expect(money(await sums("svc", "payservicestatis", period)).paid_amount, label).toBeGreaterThanOrEqual(provider.paid_amount);
      for (const dimension of ["sch_id", "grade_id", "class_id", "student_id"]) {
        expect(money(await sums("svc", "schoolstatis", { ...period, sch_id: world.schId, dimension })), `${label} schoolstatis by ${dimension}`).toEqual(money(provider));
      }
      for (const dimension of ["sch_id", "day", "month"]) {
        expect(money(await sums("svc", "paystatis", { ...period, sch_id: world.schId, dimension })), `${label} paystatis by ${dimension}`).toEqual(money(provider));
      }
      for (const report of ["activitystatis", "gradestatis", "classesstatis"]) {
        expect(money(await sums("school", report, period)), `${label} ${report}`).toEqual(money(provider));
      }
      // what the lists sum over the same days
      const payments = await listed("svc", "paymentlist", { sch_id: world.schId, paid_at_start: period.at_start, paid_at_end: period.at_end });
      // refundrecord lists the refunds of every payment kind: the fees' are those of the fee pages
      const refunds = await listed("svc", "refundlist", { sch_id: world.schId, payment_kind: "fee", status: "success", success_time_start: period.at_start, success_time_end: period.at_end });
      const orders = await listed("svc", "orderlist", { sch_id: world.schId, paid_at_start: period.at_start, paid_at_end: period.at_end });
      expect({ orders: payments.count, paid: payments.amount, refunded: refunds.amount }, label).toEqual({ orders: provider.orders, paid: provider.paid_amount, refunded: provider.refund_amount });
      // every order paid in the period, refunded since or not, was received: its summary's paid figure
      expect({ count: orders.count, paid_amount: orders.paid_amount }, label).toEqual({ count: provider.orders, paid_amount: provider.paid_amount });

      for (const filter of filters) {
        const narrowed = await sums("svc", "schoolstatis", { ...period, sch_id: world.schId, ...filter });
        expect(money(await sums("school", "activitystatis", { ...period, ...filter })), `${label} ${JSON.stringify(filter)}`).toEqual(money(narrowed));
      }
      // an activity's money: the same on the provider's and the school's pages; the activities add up to the whole
      let byActivities = 0;
      for (const activity of [term, outing]) {
        const one = await sums("svc", "paystatis", { ...period, sch_id: world.schId, activity_id: activity });
        expect(money(await sums("school", "activitystatis", { ...period, activity_id: activity })), `${label} activity ${activity}`).toEqual(money(one));
        expect(money(await sums("svc", "schoolstatis", { ...period, sch_id: world.schId, activity_id: activity })), `${label} activity ${activity}`).toEqual(money(one));
        byActivities += one.paid_amount;
      }
      const [closedTerm] = await t.db.select({ id: activities.id }).from(activities).where(and(eq(activities.sch_id, world.schId), eq(activities.status, "closed")));
      byActivities += (await sums("svc", "paystatis", { ...period, sch_id: world.schId, activity_id: closedTerm.id })).paid_amount;
      expect(byActivities, label).toBe(provider.paid_amount);
    }
  });

  it("settles each school's day at what the statistics say it took, fees and the shop's orders, every channel included", async () => {
    for (const day of [today, tomorrow]) {
      const settled = await call("svc", "settlementlist", { day_start: day, day_end: day, limit: 50 });
      const bySchool = new Map<number, number>();
      for (const row of settled.data?.items as Row[]) bySchool.set(Number(row.sch_id), (bySchool.get(Number(row.sch_id)) ?? 0) + fen(row.gross));
      // the fee ledger's paid amount of the day plus the shop's orders paid that day, per school
      const expected = new Map<number, number>();
      const add = (rows: Row[], field: string) => {
        for (const r of rows) if (fen(r[field]) > 0) expected.set(Number(r.sch_id), (expected.get(Number(r.sch_id)) ?? 0) + fen(r[field]));
      };
      add((await call("svc", "paystatis", { at_start: day, at_end: day, dimension: "sch_id" })).data?.items as Row[], "paid_amount");
      add((await call("svc", "goodsstatis", { paid_at_start: day, paid_at_end: day, dimension: "sch_id" })).data?.items as Row[], "amount");
      expect(bySchool, day).toEqual(expected);
      expect(bySchool.get(world.schId), day).toBeGreaterThan(0);
    }
    // the day the school changed channel settles on both, the new one with the payment it took
    const moved = await call("svc", "settlementlist", { day_start: tomorrow, day_end: tomorrow, sch_id: world.schId, limit: 50 });
    const channels = (moved.data?.items as Row[]).map((row) => Number(row.paychnl_id));
    expect(channels).toContain(newChannel);
    expect(new Set(channels).size).toBeGreaterThanOrEqual(2);
  });

  it("sums the order list as its export does, and its paid figure leaves out the orders never paid", async () => {
    const filter = { sch_id: world.schId };
    const all = await listed("svc", "orderlist", filter);
    const closed = await listed("svc", "orderlist", { ...filter, status: "closed" });
    const paidStates = await Promise.all(["paid", "part_refunded", "refunded"].map((status) => listed("svc", "orderlist", { ...filter, status })));
    expect(closed.count).toBeGreaterThan(0);
    expect(closed.paid_amount).toBe(0);
    expect(all.paid_amount).toBe(paidStates.reduce((sum, s) => sum + s.amount, 0));
    expect(all.amount - all.paid_amount!).toBe(closed.amount + (await listed("svc", "orderlist", { ...filter, status: "unpaid" })).amount);
    // a filter the kept state totals do not answer gives the same sums
    expect(await listed("svc", "orderlist", { ...filter, paid_at_start: "2000-01-01" })).toMatchObject({ amount: all.paid_amount, paid_amount: all.paid_amount });

    const exported = await t.exportFile("adminapiv2", "orderexport", filter, { token: tokens.svc });
    expect(exported.return_code, exported.return_msg).toBe("SUCCESS");
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(String(itemsOf(exported).content_base64), "base64") as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const header = (sheet.getRow(1).values as unknown[]).map((v) => String(v ?? ""));
    const amountColumn = header.indexOf(zh("collection.field.order_amount"));
    expect(amountColumn).toBeGreaterThan(0);
    let count = 0;
    let amount = 0;
    sheet.eachRow((row, n) => {
      if (n === 1) return;
      count++;
      amount += fen(row.getCell(amountColumn).text.replace(/[^\d.-]/g, ""));
    });
    expect({ count, amount }).toEqual({ count: all.count, amount: all.amount });
  });

  it("owes no waived bill: statistics, the activity board and the dashboard count the unpaid bills only", async () => {
    const owed = await queryRows<{ n: string; amount: string }>(
      t.db,
      sql`SELECT count(*) AS n, coalesce(sum(amount), 0) AS amount FROM ${bills} WHERE sch_id = ${world.schId} AND activity_id = ${term} AND status = 'unpaid'`,
    );
    const counted = await queryRows<{ n: string }>(t.db, sql`SELECT count(*) AS n FROM ${bills} WHERE sch_id = ${world.schId} AND activity_id = ${term} AND status NOT IN ('waived', 'closed')`);
    const waived = await queryRows<{ n: string }>(t.db, sql`SELECT count(*) AS n FROM ${bills} WHERE activity_id = ${term} AND status = 'waived'`);
    expect(Number(waived[0]!.n)).toBeGreaterThan(0);
    const stats = await sums("school", "activitystatis", { activity_id: term });
    expect({ unpaid: stats.unpaid_amount, bills: stats.bills }).toEqual({ unpaid: Number(owed[0]!.amount), bills: Number(counted[0]!.n) });
    const arrears = await call("school", "arrearslist", { activity_id: term, limit: 1 });
    expect(Number(arrears.data?.total)).toBe(Number(owed[0]!.n));
    // the dashboard's unpaid list names the same bills and money
    const dashboard = await call("school", "dashboard");
    const unpaid = ((dashboard.data?.items as Row).collection as { unpaid: { activity_id: number; unpaid_bills: number; unpaid_amount: number }[] }).unpaid.find((a) => a.activity_id === term);
    expect(unpaid).toMatchObject({ unpaid_bills: Number(owed[0]!.n), unpaid_amount: Number(owed[0]!.amount) });
  });

  it("totals the dashboard's 30 days as the payment statistics do over the same days", async () => {
    const dashboard = await call("svc", "dashboard");
    const collection = (dashboard.data?.items as Row).collection as { days: { day: string }[]; total: { paid: number; refunded: number } };
    const first = collection.days[0]!.day;
    const last = collection.days.at(-1)!.day;
    expect(last).toBe(businessDay(t.clock.now()));
    const stats = await sums("svc", "payservicestatis", { at_start: first, at_end: last });
    expect(collection.total).toEqual({ paid: stats.paid_amount, refunded: stats.refund_amount });
    expect(collection.total.paid).toBeGreaterThan(0);
  });

  it("sells in the goods statistics, by every dimension, what the shop order list sums: its amount, its refunds and its paid figure", async () => {
    const goodsSums = async (payload: Row) => {
      const all = await sums("svc", "goodsstatis", payload);
      for (const dimension of ["goods_id", "sku_id", "day", "month"]) expect(await sums("svc", "goodsstatis", { ...payload, dimension }), `${JSON.stringify(payload)} by ${dimension}`).toEqual(all);
      // sums() reads the fee pages' money in fen: the shop's amount is still in yuan
      return { orders: all.orders, qty: all.qty, amount: fen(all.amount), refunded: all.refund_amount, net: all.net_amount };
    };
    const shopListed = async (payload: Row) => {
      const res = await call("svc", "shoporderlist", { limit: 1, ...payload });
      const summary = res.data?.summary as Row;
      return { count: Number(res.data?.total), amount: fen(summary.amount), refunded: fen(summary.refunded_amount), paid_amount: fen(summary.paid_amount) };
    };
    for (const period of [{ paid_at_start: today, paid_at_end: today }, { paid_at_start: tomorrow, paid_at_end: tomorrow }, { paid_at_start: addDays(today, -60), paid_at_end: tomorrow }, {}]) {
      const label = JSON.stringify(period);
      const sold = await goodsSums(period);
      expect(sold.net, label).toBe(sold.amount - sold.refunded);
      // the orders paid in the period (a filter on paid_at: never an order unpaid), refunded since or not
      const paid = await shopListed({ paid_at_start: "2000-01-01", ...period });
      expect({ orders: sold.orders, amount: sold.amount, refunded: sold.refunded }, label).toEqual({ orders: paid.count, amount: paid.amount, refunded: paid.refunded });
      // the list's paid figure is the money received, as the fee orders' is: an order refunded in full is cancelled,
      // and counts, its refund with the others
      expect(paid.paid_amount, label).toBe(sold.amount);
      const refundedInFull = await shopListed({ paid_at_start: "2000-01-01", ...period, status: "cancelled" });
      expect(refundedInFull.paid_amount, label).toBe(refundedInFull.amount);
      expect(refundedInFull.refunded, label).toBe(refundedInFull.amount);
    }
    const everything = await goodsSums({});
    // the shop order list's paid summary over every order (unpaid and closed ones too: never paid, never counted), and
    // the shop's refunds done
    const listedAll = await shopListed({});
    expect(everything.amount).toBe(listedAll.paid_amount);
    expect(listedAll.amount).toBeGreaterThan(listedAll.paid_amount);
    expect(listedAll.refunded).toBe(everything.refunded);
    const cancelled = await shopListed({ status: "cancelled" });
    const cancelledPaid = await shopListed({ status: "cancelled", refund_status: "all" });
    expect(cancelled.paid_amount).toBe(cancelledPaid.amount);
    expect(cancelled.amount).toBeGreaterThan(cancelled.paid_amount);
    expect(everything.amount).toBeGreaterThan(0);
    const refunds = await listed("svc", "refundlist", { payment_kind: "shop_order", status: "success" });
    expect(everything.refunded).toBe(refunds.amount);
    expect(everything.refunded).toBe(3_333 + AFTERSALE_FEN + 38_400);
    // the order of two goods (128.00 and 268.00): the jacket's after-sale is the jacket's (100.00); the order's 33.33
    // is split by what each still held (128.00 and 168.00), rounded down on the first (14.41) and the rest on the
    // last (18.92), on the day it was paid
    const bySku = (await call("svc", "goodsstatis", { dimension: "sku_id", paid_at_start: tomorrow, paid_at_end: tomorrow, sch_id: world.schId })).data?.items as Row[];
    expect(new Map(bySku.map((row) => [row.sku_title, fen(row.refund_amount)]))).toEqual(
      new Map([
        ["夏季校服短袖套装 (尺码 140 · 颜色 白色)", 1_441],
        ["冬季校服冲锋衣 (尺码 150 · 颜色 藏青)", AFTERSALE_FEN + 1_892],
        ["夏季校服短袖套装 (尺码 120 · 颜色 藏青)", 38_400],
      ]),
    );
  });

  it("gives an after-sale's money back as one refund, the same on refundrecord, the after-sales list and the shop order, and leaves it out of the fees", async () => {
    // refundrecord: the after-sale's one refund, done, of its amount
    const [sale] = await t.db.select({ amount: aftersales.amount, status: aftersales.status }).from(aftersales).where(eq(aftersales.id, afterSale));
    expect(sale).toEqual({ amount: AFTERSALE_FEN, status: "completed" });
    const itsRefunds = (await call("svc", "refundlist", { aftersale_id: afterSale, payment_kind: "shop_order" })).data?.items as Row[];
    expect(itsRefunds.map((r) => [r.kind, r.status, fen(r.amount)])).toEqual([["aftersale", "success", AFTERSALE_FEN]]);
    // the after-sales list's completed ones sum what refundrecord's after-sale refunds done sum, the provider's and the school's
    for (const filter of [{}, { sch_id: world.schId }]) {
      const completed = await listed("svc", "aftersalelist", { ...filter, status: "completed" });
      expect(completed, JSON.stringify(filter)).toEqual(await listed("svc", "refundlist", { ...filter, kind: "aftersale", status: "success" }));
      expect(completed, JSON.stringify(filter)).toEqual({ count: 1, amount: AFTERSALE_FEN });
    }
    // the shop order's record: refunded in part, the after-sale with its order's own refund
    const order = (await call("svc", "shoporderinfo", { id: shop.twoGoods })).data?.items as Row;
    expect({ refunded: fen(order.refunded_amount), status: order.refund_status }).toEqual({ refunded: 3_333 + AFTERSALE_FEN, status: "part" });
    // the home page's money is the fees' (the shop's has pages of its own): its refunds are refundrecord's fee refunds
    const dashboard = (await call("svc", "dashboard")).data?.items as { figures: { key: string; value: number }[]; collection: { days: { day: string }[]; total: { refunded: number } } };
    const days = { success_time_start: dashboard.collection.days[0]!.day, success_time_end: dashboard.collection.days.at(-1)!.day };
    expect(dashboard.collection.total.refunded).toBe((await listed("svc", "refundlist", { payment_kind: "fee", status: "success", ...days })).amount);
    const monthStart = `${tomorrow.slice(0, 7)}-01`;
    const refundedMonth = dashboard.figures.find((f) => f.key === "refunded_month")!.value;
    expect(refundedMonth).toBe((await listed("svc", "refundlist", { payment_kind: "fee", status: "success", success_time_start: monthStart })).amount);
  });

  it("settles the shop's money with the fees: settlement, reconciliation's own figures, the shop order list and the goods statistics agree on the day, to the fen", async () => {
    // what the second day's rows hold, apart from any page: the shop's two orders paid (128.00 + 268.00, 3 x 128.00)
    // and their refunds (33.33 and the jacket's after-sale's 100.00, 384.00), all on the new channel; the fees as the
    // beforeAll made them
    const shopRows = await t.db.select({ id: shopOrders.id, amount: shopOrders.amount, refunded: shopOrders.refunded_amount }).from(shopOrders).where(sql`${shopOrders.id} in (${shop.twoGoods}, ${shop.whole}, ${shop.closedUnpaid})`);
    const shopRow = (id: number) => shopRows.find((r) => r.id === id)!;
    expect([shopRow(shop.twoGoods), shopRow(shop.whole)].map((r) => [r.amount, r.refunded])).toEqual([[39_600, 3_333 + AFTERSALE_FEN], [38_400, 38_400]]);
    const shopPaid = 12_800 + 26_800 + 3 * 12_800;
    const shopRefunded = 3_333 + AFTERSALE_FEN + 38_400;
    const expected = new Map([
      [oldChannel, { orders: 1, gross: feeDay.onOld, refunds: 2, refund: feeDay.refundedOnOld }],
      [newChannel, { orders: 1 + 2, gross: feeDay.onNew + shopPaid, refunds: 3, refund: shopRefunded }],
    ]);
    const day = { day_start: tomorrow, day_end: tomorrow };
    const settledByChannel = async () => {
      const rows = (await call("svc", "settlementlist", { ...day, sch_id: world.schId, limit: 50 })).data?.items as Row[];
      return new Map(rows.map((r) => [Number(r.paychnl_id), { orders: Number(r.orders), gross: fen(r.gross), refunds: Number(r.refunds), refund: fen(r.refund) }]));
    };
    expect(await settledByChannel()).toEqual(expected);

    // the fee ledger of the day and the shop's, which the day's settlement adds up
    const fees = await sums("svc", "paystatis", { at_start: tomorrow, at_end: tomorrow, sch_id: world.schId });
    expect({ paid: fees.paid_amount, refunded: fees.refund_amount }).toEqual({ paid: feeDay.onOld + feeDay.onNew, refunded: feeDay.refundedOnOld });
    const sold = await sums("svc", "goodsstatis", { paid_at_start: tomorrow, paid_at_end: tomorrow, sch_id: world.schId });
    expect({ amount: fen(sold.amount), refunded: sold.refund_amount }).toEqual({ amount: shopPaid, refunded: shopRefunded });
    // the shop order list's money of the orders paid that day, and of the orders made that day (the one closed unpaid
    // in the amount, never in the money received)
    for (const filter of [{ paid_at_start: tomorrow, paid_at_end: tomorrow }, { created_at_start: tomorrow, created_at_end: tomorrow }]) {
      const summary = (await call("svc", "shoporderlist", { ...filter, sch_id: world.schId, limit: 1 })).data?.summary as Row;
      const made = "created_at_start" in filter ? shopRow(shop.closedUnpaid).amount : 0;
      expect({ amount: fen(summary.amount), paid: fen(summary.paid_amount), refunded: fen(summary.refunded_amount) }, JSON.stringify(filter)).toEqual({ amount: shopPaid + made, paid: shopPaid, refunded: shopRefunded });
    }

    // each channel's day reconciled: our figures are what it settles, and the bill agrees
    for (const [channel, figures] of expected) {
      const run = await call("svc", "reconrun", { paychnl_id: channel, bill_date: tomorrow });
      const batch = run.data?.items as Row;
      expect(batch.status, `channel ${channel}`).toBe("balanced");
      const settled = (await call("svc", "settlementlist", { ...day, paychnl_id: channel, limit: 50 })).data?.summary as Row;
      expect({ paid: fen(batch.local_paid), refunded: fen(batch.local_refund) }, `channel ${channel}`).toEqual({ paid: fen(settled.gross), refunded: fen(settled.refund) });
      expect({ paid: fen(batch.local_paid), refunded: fen(batch.local_refund) }, `channel ${channel}`).toEqual({ paid: figures.gross, refunded: figures.refund });
      expect({ paid: fen(batch.bill_paid), refunded: fen(batch.bill_refund) }, `channel ${channel}`).toEqual({ paid: figures.gross, refunded: figures.refund });
    }
    // settled now with the bill's fees, the same money
    expect(await settledByChannel()).toEqual(expected);
    const settledRows = (await call("svc", "settlementlist", { ...day, sch_id: world.schId, limit: 50 })).data?.items as Row[];
    expect(settledRows.map((r) => [r.status, r.fee_source])).toEqual(settledRows.map(() => ["settled", "bill"]));
  });
});
