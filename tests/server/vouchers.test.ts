/**
 * Payment vouchers, on both databases: every paid order has a voucher number of its school and year (Asia/Shanghai),
 * the numbers of a school and year are consecutive and none is given twice, payments continue the sequence, at once
 * too, and a new year starts it again; the payer's e-receipt shows the number. `orderprint` answers the voucher
 * (amount in words, the provider's title line) to the order's readers only, within their tenant, for paid orders only,
 * and audits it; `orderprintpdf` answers the same vouchers as a PDF, one A5 page each.
 */
import { and, asc, eq, inArray, isNotNull } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { PAID_ORDER_STATES } from "../../catalogue/collectionOrders";
import { auditLog, feeOrders, receiptCounters, schools } from "../../server/db/schema";
import { receiptYear } from "../../server/domains/collection/receiptNumbers";
import { describeOnDatabases } from "../helpers/db";
import { pdfPageTexts } from "../helpers/pdfText";
import { confirmSandbox, feeOrderOf, findStudent, h5, itemsOf, payBills, payerWorld, unpaidStudents, type PayerStudent, type PayerWorld, type Row } from "./payerSupport";
import { createTestApp, type TestApp } from "./support";

const EN = { "accept-language": "en" };

describeOnDatabases("payment vouchers", (kind) => {
  let t: TestApp;
  let world: PayerWorld;
  let pupils: PayerStudent[];
  const tokens: Record<string, string> = {};
  const call = (user: string, method: string, payload: Row = {}) => t.call("adminapiv2", method, payload, { token: tokens[user], headers: EN });

  /** Pays the pupil's bill through the payer page and the sandbox; the fee order as stored. */
  const pay = async (pupil: PayerStudent) => {
    const ticket = await findStudent(t, world, pupil);
    const order = await payBills(t, ticket, [pupil.billId]);
    expect((await confirmSandbox(t, order.payparam.code_url)).return_code).toBe("SUCCESS");
    return { ...(await feeOrderOf(t, order.pay_no)), ticket };
  };
  const counter = async (schId: number, year: number) =>
    (await t.db.select().from(receiptCounters).where(and(eq(receiptCounters.schId, schId), eq(receiptCounters.year, year))))[0]?.last ?? 0;

  beforeAll(async () => {
    t = await createTestApp(kind);
    for (const u of ["svc", "staff", "school", "harbour", "svcv1", "sysadmin", "pickup"]) tokens[u] = await t.login(u);
    world = await payerWorld(t, tokens.svc);
    pupils = await unpaidStudents(t, world, 12);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("numbers every paid demo order per school and year, consecutively from 1, each number once, and only paid ones", async () => {
    const rows = await t.db.select({ sch_id: feeOrders.sch_id, status: feeOrders.status, paid_at: feeOrders.paid_at, receipt_no: feeOrders.receipt_no }).from(feeOrders);
    // paid, whatever was refunded of them since
    const paid = rows.filter((r) => (PAID_ORDER_STATES as readonly string[]).includes(r.status));
    expect(paid.length).toBeGreaterThan(100);
    expect(rows.filter((r) => !paid.includes(r)).every((r) => r.receipt_no === null)).toBe(true);
    const groups = new Map<string, number[]>();
    for (const r of paid) {
      const year = receiptYear(r.paid_at!);
      expect(r.receipt_no).toMatch(new RegExp(`^${year}\\d{6}$`));
      const key = `${r.sch_id}:${year}`;
      groups.set(key, [...(groups.get(key) ?? []), Number(r.receipt_no!.slice(4))]);
    }
    // the demo's 90 days run from December into the clock's March: two years of numbers
    expect(new Set([...groups.keys()].map((k) => k.split(":")[1]))).toEqual(new Set(["2025", "2026"]));
    for (const [key, numbers] of groups) {
      const [schId, year] = key.split(":").map(Number);
      expect(numbers.sort((a, b) => a - b)).toEqual(numbers.map((_, i) => i + 1));
      expect(await counter(schId, year)).toBe(numbers.length);
    }
  });

  it("gives a new payment the school's next number of the year, shown on the payer's e-receipt", async () => {
    const before = await counter(world.schId, 2026);
    const first = await pay(pupils[0]);
    const second = await pay(pupils[1]);
    expect(first.receipt_no).toBe(`2026${String(before + 1).padStart(6, "0")}`);
    expect(second.receipt_no).toBe(`2026${String(before + 2).padStart(6, "0")}`);
    const receipt = await h5(t, "h5receipt", { ticket: second.ticket, pay_no: second.pay_no });
    expect(receipt.return_code, receipt.return_msg).toBe("SUCCESS");
    expect(itemsOf(receipt).receipt_no).toBe(second.receipt_no);
  });

  it("gives payers of one school paying at once distinct consecutive numbers", async () => {
    const before = await counter(world.schId, 2026);
    const payers = pupils.slice(2, 10);
    const tickets = await Promise.all(payers.map((p, i) => findStudent(t, world, p, `10.9.0.${i + 1}`)));
    const orders = await Promise.all(payers.map((p, i) => payBills(t, tickets[i], [p.billId], `10.9.0.${i + 1}`)));
    const confirmed = await Promise.all(orders.map((o, i) => confirmSandbox(t, o.payparam.code_url, { ip: `10.9.1.${i + 1}` })));
    expect(confirmed.map((c) => c.return_code)).toEqual(payers.map(() => "SUCCESS"));
    const numbers = (await t.db.select({ n: feeOrders.receipt_no }).from(feeOrders).where(inArray(feeOrders.pay_no, orders.map((o) => o.pay_no)))).map((r) => Number(r.n!.slice(4)));
    expect(numbers.sort((a, b) => a - b)).toEqual(payers.map((_, i) => before + 1 + i));
    expect(await counter(world.schId, 2026)).toBe(before + payers.length);
  });

  it("answers the voucher of a paid order to its readers: number, school, title line, student, class, items, amount in words", async () => {
    const saved = await call("svc", "agentnoticesetedit", { voucher_title: "2025-2026 学年收费专用收据" });
    expect(saved.return_code, saved.return_msg).toBe("SUCCESS");
    const order = await feeOrderOf(t, (await t.db.select({ pay_no: feeOrders.pay_no }).from(feeOrders).where(eq(feeOrders.student_id, pupils[0].id)))[0].pay_no);
    for (const user of ["svc", "school", "staff"]) {
      const res = await call(user, "orderprint", { id: order.id });
      expect(res.return_code, `${user}: ${res.return_msg}`).toBe("SUCCESS");
      const voucher = itemsOf(res);
      expect(voucher).toMatchObject({
        id: order.id,
        receipt_no: order.receipt_no,
        order_no: order.order_no,
        school: "Sunrise No.1 Primary School",
        voucher_title: "2025-2026 学年收费专用收据",
        student: pupils[0].name,
        amount: (pupils[0].billAmountFen / 100).toFixed(2),
        paid_at: order.paid_at!.toISOString(),
        transaction_id: order.transaction_id,
      });
      expect(voucher.class).toMatch(/\S/);
      expect(voucher.items).toEqual([expect.objectContaining({ amount: (pupils[0].billAmountFen / 100).toFixed(2) })]);
      expect(voucher.amount_in_words).toMatch(/^[壹贰叁肆伍陆柒捌玖零拾佰仟万]+元/);
    }
    const printed = await t.db.select().from(auditLog).where(and(eq(auditLog.action, "orderprint"), eq(auditLog.entityId, String(order.id))));
    expect(printed.length).toBe(3);
    expect(printed.every((a) => a.schId === world.schId && a.sysid === world.sysid)).toBe(true);
  });

  it("refuses another tenant's or an unknown order as not found, and callers without the orders' roles", async () => {
    const [own] = await t.db.select({ id: feeOrders.id }).from(feeOrders).where(and(eq(feeOrders.sch_id, world.schId), isNotNull(feeOrders.receipt_no))).limit(1);
    const [otherSchool] = await t.db.select({ id: schools.id }).from(schools).where(eq(schools.title, "Sunrise No.2 Primary School"));
    const [sibling] = await t.db.select({ id: feeOrders.id }).from(feeOrders).where(and(eq(feeOrders.sch_id, otherSchool.id), isNotNull(feeOrders.receipt_no))).limit(1);
    expect((await call("harbour", "orderprint", { id: own.id })).return_msg).toBe("Record not found");
    expect((await call("svcv1", "orderprint", { id: own.id })).return_msg).toBe("Record not found");
    expect((await call("svc", "orderprint", { id: 2_000_000_000 })).return_msg).toBe("Record not found");
    expect((await call("school", "orderprint", { id: sibling.id })).return_msg).toBe("Record not found");
    // one foreign id spoils a selection, saying nothing of the others
    const mixed = await call("school", "orderprint", { ids: [own.id, sibling.id] });
    expect(mixed.return_msg).toBe("Record not found");
    expect(mixed.data).toBeUndefined();
    for (const user of ["pickup", "sysadmin"]) expect((await call(user, "orderprint", { id: own.id })).return_code).toBe("FAIL");
    expect((await call("pickup", "orderprintpdf", { id: own.id })).return_code).toBe("FAIL");
  });

  it("refuses an order never paid, naming it, and a request naming no order or too many", async () => {
    // an order the payer has not paid yet, and one closed unpaid
    await payBills(t, await findStudent(t, world, pupils[11]), [pupils[11].billId]);
    for (const status of ["unpaid", "closed"]) {
      const [order] = await t.db.select().from(feeOrders).where(and(eq(feeOrders.sch_id, world.schId), eq(feeOrders.status, status))).limit(1);
      expect(order, status).toBeDefined();
      const res = await call("svc", "orderprint", { id: order.id });
      expect(res.return_code).toBe("FAIL");
      expect(res.return_msg).toBe(`Order ${order.order_no} has not been paid: it has no payment voucher.`);
    }
    expect((await call("svc", "orderprint", {})).return_msg).toMatch(/\bid\b/);
    expect((await call("svc", "orderprint", { ids: Array.from({ length: 101 }, (_, i) => i + 1) })).return_msg).toMatch(/\bids\b/);
  });

  it("prints a selection in the order chosen, and the same vouchers as a PDF of one A5 page each", async () => {
    const paid = await t.db
      .select({ id: feeOrders.id, receipt_no: feeOrders.receipt_no, amount: feeOrders.amount })
      .from(feeOrders)
      .where(and(eq(feeOrders.sch_id, world.schId), eq(feeOrders.status, "paid")))
      .orderBy(asc(feeOrders.id))
      .limit(2);
    const ids = [paid[1].id, paid[0].id];
    const res = await call("staff", "orderprint", { ids });
    expect(res.return_code, res.return_msg).toBe("SUCCESS");
    const vouchers = res.data!.items as Row[];
    expect(vouchers.map((v) => v.receipt_no)).toEqual([paid[1].receipt_no, paid[0].receipt_no]);

    const pdf = await call("svc", "orderprintpdf", { ids });
    expect(pdf.return_code, pdf.return_msg).toBe("SUCCESS");
    const file = pdf.data!.items as { filename: string; mime: string; content_base64: string };
    expect(file).toMatchObject({ mime: "application/pdf", filename: "vouchers-2.pdf" });
    const bytes = Buffer.from(file.content_base64, "base64");
    expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(bytes.toString("latin1")).toMatch(/\/Type \/Pages \/Kids \[[^\]]+\] \/Count 2/);
    expect(bytes.toString("latin1")).toContain("/MediaBox [0 0 419.53 595.28]");
    const pages = pdfPageTexts(bytes);
    expect(pages).toHaveLength(2);
    vouchers.forEach((v, i) => {
      expect(pages[i]).toContain(String(v.receipt_no));
      expect(pages[i]).toContain(String(v.amount));
      expect(pages[i]).toContain(String(v.amount_in_words));
      expect(pages[i]).toContain("Sunrise No.1 Primary School");
      expect(pages[i]).toContain(String(v.student));
    });
    expect((await t.db.select().from(auditLog).where(eq(auditLog.action, "orderprintpdf"))).length).toBe(1);
  });
  it("starts a school's numbers again in a new year (Asia/Shanghai), leaving the last year's as they were", async () => {
    const lastYear = await counter(world.schId, 2026);
    // 00:30 on 1 January in Shanghai is still 31 December in UTC
    t.clock.advance(new Date("2026-12-31T16:30:00Z").getTime() - t.clock.now().getTime());
    const order = await pay(pupils[10]);
    expect(order.receipt_no).toBe("2027000001");
    expect(await counter(world.schId, 2026)).toBe(lastYear);
  });
});
