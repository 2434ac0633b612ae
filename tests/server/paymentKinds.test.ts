/**
 * A payment does what its order's kind does, and nothing else (server/payments/kinds.ts): an order of another
 * kind than a renewal, paid, leaves every term as it was, and an order of a kind no domain registered is refused
 * like a mismatch, unpaid, whatever reports it. Orders are made as a school buys a package, then given the kind
 * under test.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { tableColumn } from "../../server/db/catalogueTables";
import { auditLog, paymentOrders, providers, schools } from "../../server/db/schema";
import { registerPaymentKind, type PaymentOrder } from "../../server/payments/kinds";
import { describeOnEmbedded } from "../helpers/db";
import { createTestApp, idByTitle, type TestApp } from "./support";

/** a kind paid like a fee will be: its effect is only what the test records */
const applied: PaymentOrder[] = [];
registerPaymentKind({
  kind: "test_fee",
  payee: "platform",
  async applyPaid(_tx, order) {
    applied.push(order);
    return { appliedEnd: null };
  },
});

describeOnEmbedded("payment kinds", (kind) => {
  let t: TestApp;
  let token: string;
  const ids: Record<string, number> = {};

  const terms = async () => {
    const [school] = await t.db.select({ end: tableColumn(schools, "endtime") }).from(schools).where(eq(tableColumn(schools, "id"), ids.no1));
    const [provider] = await t.db.select({ end: tableColumn(providers, "end_time") }).from(providers).where(eq(tableColumn(providers, "id"), ids.sunrise));
    return { school: String(school.end), provider: String(provider.end) };
  };
  /** an order as a school buys a package, then of the kind given */
  const orderOf = async (orderKind: string) => {
    const meals = (await t.call("adminapiv2", "getsetmeal", {}, { token })).data?.items as { id: number; title: string }[];
    const res = await t.call("adminapiv2", "get_pay", { setmeal_id: meals[0].id, sch_id: ids.no1, sysid: ids.sunrise }, { token });
    expect(res.return_code, res.return_msg).toBe("SUCCESS");
    const order = res.data?.items as { pay_no: string; payparam: { code_url: string } };
    await t.db.update(paymentOrders).set({ kind: orderKind }).where(eq(paymentOrders.payNo, order.pay_no));
    return order;
  };
  const confirm = (codeUrl: string) => t.app.inject({ method: "POST", url: `${new URL(codeUrl).pathname}/confirm`, headers: { "content-type": "application/json" }, payload: "{}" });
  const status = async (payNo: string) => (await t.db.select().from(paymentOrders).where(eq(paymentOrders.payNo, payNo)))[0];

  beforeAll(async () => {
    t = await createTestApp(kind);
    token = await t.login("school");
    ids.sunrise = await idByTitle(t.db, providers, "Sunrise Campus Services");
    ids.no1 = await idByTitle(t.db, schools, "Sunrise No.1 Primary School");
  });
  afterAll(async () => {
    await t?.close();
  });

  it("applies an order of another kind than a renewal through its own kind, once, leaving every term as it was", async () => {
    const before = await terms();
    const order = await orderOf("test_fee");
    applied.length = 0;
    expect((await confirm(order.payparam.code_url)).json()).toMatchObject({ return_code: "SUCCESS" });
    expect((await confirm(order.payparam.code_url)).json()).toMatchObject({ return_code: "SUCCESS" });
    expect(applied.map((o) => o.payNo)).toEqual([order.pay_no]);
    expect(await status(order.pay_no)).toMatchObject({ status: "SUCCESS", appliedEnd: null });
    expect(await terms()).toEqual(before);
  });

  it("refuses an order of a kind no domain registered: unpaid, no term changed, the refusal audited", async () => {
    const before = await terms();
    const order = await orderOf("unheard_of");
    const res = await confirm(order.payparam.code_url);
    expect(res.statusCode).toBeLessThan(500);
    expect(res.json()).toMatchObject({ return_code: "FAIL" });
    expect((await status(order.pay_no)).status).toBe("NOTPAY");
    expect(await terms()).toEqual(before);
    const [refusal] = await t.db.select().from(auditLog).where(and(eq(auditLog.action, "payment_mismatch"), eq(auditLog.entityId, order.pay_no)));
    expect(refusal?.detail).toMatchObject({ unknown_kind: "unheard_of" });
  });

  it("still renews through the renewal kinds", async () => {
    const before = await terms();
    const order = await orderOf("school_renewal");
    expect((await confirm(order.payparam.code_url)).json()).toMatchObject({ return_code: "SUCCESS" });
    const after = await terms();
    expect(after.school > before.school).toBe(true);
    expect(after.provider).toBe(before.provider);
  });
});
