/**
 * Renewal by QR payment (issue 3): get_pay and get_sysdelay_pay create sandbox orders, the sandbox page and its
 * confirm endpoint pay them, checkpay reports them (asking the gateway about an unpaid order now and then: a lost
 * notification); a payment is applied once whatever arrives twice, only when amount and merchant match, and only in
 * the caller's own provider and school.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { tableColumn } from "../../server/db/catalogueTables";
import { auditLog, paymentOrders, providers, schoolRenewals, schools } from "../../server/db/schema";
import { applyPaidOrder, PaymentMismatchError } from "../../server/payments/apply";
import { ORDER_PAYABLE_MS } from "../../server/payments/orders";
import { GATEWAY_ASK_INTERVAL_MS } from "../../server/payments/checkpay";
import { CONFIRMS_PER_MINUTE, SandboxGateway } from "../../server/payments/sandbox";
import { describeOnDatabases } from "../helpers/db";
import { createTestApp, idByTitle, type TestApp } from "./support";

type Row = Record<string, unknown>;
const EN = { "accept-language": "en" };

describeOnDatabases("renewal by QR payment", (kind) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};
  const call = (username: string, method: string, payload: Row = {}) => t.call("adminapiv2", method, payload, { token: tokens[username], headers: EN });

  const schoolEnd = async (title: string) => {
    const [row] = await t.db.select({ end: tableColumn(schools, "endtime") }).from(schools).where(eq(tableColumn(schools, "title"), title));
    return String(row.end);
  };
  const providerEnd = async (title: string) => {
    const [row] = await t.db.select({ end: tableColumn(providers, "end_time") }).from(providers).where(eq(tableColumn(providers, "title"), title));
    return String(row.end);
  };
  const pathOf = (codeUrl: string) => new URL(codeUrl).pathname;
  const confirm = (codeUrl: string) => t.app.inject({ method: "POST", url: `${pathOf(codeUrl)}/confirm` });
  const buyOneYear = async (username = "school", school = ids.no1) => {
    const res = await call(username, "get_pay", { setmeal_id: ids.oneYear, sch_id: school, sysid: ids.sunrise });
    expect(res.return_code, res.return_msg).toBe("SUCCESS");
    return res.data?.items as { orderid: string; pay_no: string; total_fee: string; payparam: { code_url: string } };
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    for (const u of ["sysadmin", "svc", "staff", "pickup", "school", "harbour", "schoolv1", "svcv1"]) tokens[u] = await t.login(u);
    ids.sunrise = await idByTitle(t.db, providers, "Sunrise Campus Services");
    ids.harbour = await idByTitle(t.db, providers, "Harbour Education Services");
    ids.no1 = await idByTitle(t.db, schools, "Sunrise No.1 Primary School");
    ids.no2 = await idByTitle(t.db, schools, "Sunrise No.2 Primary School");
    ids.oldTown = await idByTitle(t.db, schools, "Old Town Middle School");
    const meals = (await call("school", "getsetmeal")).data?.items as Row[];
    ids.oneYear = Number(meals.find((m) => m.title === "One year")!.id);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("creates a school order whose QR code opens the sandbox page, and reports it unpaid until it is paid", async () => {
    const order = await buyOneYear();
    expect(order.total_fee).toBe("1000.00");
    expect(order.orderid).toMatch(/^\d{20}$/);
    expect(order.payparam.code_url).toMatch(new RegExp(`^https?://[^/]+/pay/sandbox/${order.pay_no}$`));
    // the dialogs say plainly that this is a test payment, and so does the page the QR code opens
    expect((order as { sandbox?: boolean }).sandbox).toBe(true);

    const pending = await call("school", "checkpay", { pay_no: order.pay_no });
    expect(pending).toMatchObject({ return_code: "FAIL", return_msg: "Payment not received yet" });
    expect(pending.data).toBeUndefined();

    const page = await t.app.inject({ method: "GET", url: pathOf(order.payparam.code_url), headers: EN });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toContain("text/html");
    expect(page.body).toContain(order.orderid);
    expect(page.body).toContain("¥1000.00");
    expect(page.body).toContain('data-testid="sandbox-pay"');
    expect(page.body).toContain('data-testid="sandbox-test-banner"');
    expect(page.body).not.toContain("<script");
  });

  it("applies a confirmed payment once: the school's term grows by the package from its current end, recorded and audited", async () => {
    const before = await schoolEnd("Sunrise No.1 Primary School");
    expect(before).toBe("2026-03-14");
    const order = await buyOneYear();
    const paid = await confirm(order.payparam.code_url);
    expect(paid.json()).toMatchObject({ return_code: "SUCCESS" });
    expect(await schoolEnd("Sunrise No.1 Primary School")).toBe("2027-03-14");

    const checked = await call("school", "checkpay", { pay_no: order.pay_no });
    expect(checked).toMatchObject({ return_code: "SUCCESS", return_msg: "Payment received: valid until 2027-03-14" });

    // the same payment reported again, and reported by several requests at once, changes nothing
    await confirm(order.payparam.code_url);
    await Promise.all([1, 2, 3, 4].map(() => confirm(order.payparam.code_url)));
    expect(await schoolEnd("Sunrise No.1 Primary School")).toBe("2027-03-14");
    const records = await t.db.select().from(schoolRenewals).where(eq(tableColumn(schoolRenewals, "pay_no"), order.pay_no));
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ way: "pay", title: "One year", term_months: 12, fee: 100000, old_end: "2026-03-14", new_end: "2027-03-14", operator: "school" });

    const list = await call("school", "schoolrenewlist", {});
    expect(list.return_code).toBe("SUCCESS");
    expect(list.data?.items).toEqual([expect.objectContaining({ school_title: "Sunrise No.1 Primary School", way: "pay", fee: "1000.00", new_end: "2027-03-14" })]);
    const audits = await t.db.select().from(auditLog).where(and(eq(auditLog.action, "payment"), eq(auditLog.entityId, order.pay_no)));
    expect(audits).toHaveLength(1);
  });

  it("pays concurrent confirmations of one order exactly once", async () => {
    const before = await schoolEnd("Sunrise No.1 Primary School");
    const order = await buyOneYear();
    const answers = await Promise.all([1, 2, 3, 4, 5, 6].map(() => confirm(order.payparam.code_url)));
    expect(answers.every((a) => a.json().return_code === "SUCCESS")).toBe(true);
    const records = await t.db.select().from(schoolRenewals).where(eq(tableColumn(schoolRenewals, "pay_no"), order.pay_no));
    expect(records).toHaveLength(1);
    expect(records[0].old_end).toBe(before);
  });

  it("refuses a payment report whose amount or merchant differs from the order, and keeps the order unpaid", async () => {
    const before = await schoolEnd("Sunrise No.1 Primary School");
    const order = await buyOneYear();
    const report = { payNo: order.pay_no, gateway: "sandbox" as const, amountFen: 100000, merchantId: "", transactionId: "T1", ip: "127.0.0.1" };
    await expect(applyPaidOrder(t.db, { ...report, amountFen: 1 }, t.clock.now())).rejects.toBeInstanceOf(PaymentMismatchError);
    await expect(applyPaidOrder(t.db, { ...report, merchantId: "1900000109" }, t.clock.now())).rejects.toBeInstanceOf(PaymentMismatchError);
    await expect(applyPaidOrder(t.db, { ...report, gateway: "wechatpay" }, t.clock.now())).rejects.toBeInstanceOf(PaymentMismatchError);
    expect(await applyPaidOrder(t.db, { ...report, payNo: "P0000" }, t.clock.now())).toBeNull();
    const [row] = await t.db.select().from(paymentOrders).where(eq(paymentOrders.payNo, order.pay_no));
    expect(row.status).toBe("NOTPAY");
    expect(await schoolEnd("Sunrise No.1 Primary School")).toBe(before);
    const mismatches = await t.db.select().from(auditLog).where(and(eq(auditLog.action, "payment_mismatch"), eq(auditLog.entityId, order.pay_no)));
    expect(mismatches).toHaveLength(3);
  });

  it("pays from the sandbox page's form and shows the paid page", async () => {
    const order = await buyOneYear();
    const res = await t.app.inject({
      method: "POST",
      url: `${pathOf(order.payparam.code_url)}/confirm`,
      headers: { "content-type": "application/x-www-form-urlencoded", ...EN },
      payload: "",
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('data-testid="sandbox-paid"');
    expect((await call("school", "checkpay", { pay_no: order.pay_no })).return_code).toBe("SUCCESS");
  });

  it("goes back from the sandbox page's form to the payer page it was opened from, and to no other address", async () => {
    const form = async (payNo: string, back: string) => {
      const url = `/pay/sandbox/${payNo}`;
      const page = await t.app.inject({ method: "GET", url: `${url}?return=${encodeURIComponent(back)}`, headers: EN });
      const confirmed = await t.app.inject({
        method: "POST",
        url: `${url}/confirm`,
        headers: { "content-type": "application/x-www-form-urlencoded", ...EN },
        payload: new URLSearchParams({ return: back }).toString(),
      });
      return { page: page.body, status: confirmed.statusCode, location: confirmed.headers.location, body: confirmed.body };
    };
    const good = await form((await buyOneYear()).pay_no, "/h5/ABCdef_12-3");
    expect(good.page).toContain('<input type="hidden" name="return" value="/h5/ABCdef_12-3">');
    expect({ status: good.status, location: good.location }).toEqual({ status: 303, location: "/h5/ABCdef_12-3" });
    // another site, or any other page of this one, is no way back (confirmed once: the sandbox takes a few confirms a minute)
    const bad = await form((await buyOneYear()).pay_no, "//evil.example/h5/x");
    expect({ status: bad.status, location: bad.location }).toEqual({ status: 200, location: undefined });
    expect(bad.body).toContain('data-testid="sandbox-paid"');
    const open = (await buyOneYear()).pay_no;
    for (const elsewhere of ["https://evil.example/h5/x", "//evil.example/h5/x", "/h5/x/../../admin", "/login", "/h5/a b"]) {
      const page = await t.app.inject({ method: "GET", url: `/pay/sandbox/${open}?return=${encodeURIComponent(elsewhere)}`, headers: EN });
      expect(page.body, elsewhere).toContain('data-testid="sandbox-pay"');
      expect(page.body, elsewhere).not.toContain('name="return"');
    }
  });

  it("lets the provider buy for its own school, and checks the order it made", async () => {
    const before = await schoolEnd("Sunrise No.2 Primary School");
    const order = await buyOneYear("svc", ids.no2);
    await confirm(order.payparam.code_url);
    const checked = await call("svc", "checkpay", { pay_no: order.pay_no });
    expect(checked.return_code).toBe("SUCCESS");
    expect(await schoolEnd("Sunrise No.2 Primary School")).not.toBe(before);
  });

  it("closes an order that was not paid in time: checkpay says so, the page shows it closed and a late confirm is refused", async () => {
    const before = await schoolEnd("Sunrise No.1 Primary School");
    const order = await buyOneYear();
    const [row] = await t.db.select().from(paymentOrders).where(eq(paymentOrders.payNo, order.pay_no));
    expect(row.expiresAt.getTime() - t.clock.now().getTime()).toBe(ORDER_PAYABLE_MS);
    // the order's time runs out (moving the clock two hours would also end the session)
    await t.db.update(paymentOrders).set({ expiresAt: t.clock.now() }).where(eq(paymentOrders.payNo, order.pay_no));
    expect(await call("school", "checkpay", { pay_no: order.pay_no })).toMatchObject({ return_code: "FAIL", return_msg: "This payment order has expired: please start a new one" });
    const page = await t.app.inject({ method: "GET", url: pathOf(order.payparam.code_url) });
    expect(page.body).toContain('data-testid="sandbox-closed"');
    expect(page.body).not.toContain('data-testid="sandbox-pay"');
    expect((await confirm(order.payparam.code_url)).json().return_code).toBe("FAIL");
    expect(await schoolEnd("Sunrise No.1 Primary School")).toBe(before);
  });

  it("refuses orders and checks outside the caller's provider and school, with no data", async () => {
    const order = await buyOneYear();
    for (const username of ["schoolv1", "harbour", "svcv1"]) {
      const res = await call(username, "checkpay", { pay_no: order.pay_no });
      expect(res, username).toMatchObject({ return_code: "FAIL", return_msg: "Record not found" });
      expect(res.data).toBeUndefined();
    }
    for (const [username, payload] of [
      ["school", { setmeal_id: ids.oneYear, sch_id: ids.no2, sysid: ids.sunrise }],
      ["school", { setmeal_id: ids.oneYear, sch_id: ids.oldTown }],
      ["svc", { setmeal_id: ids.oneYear, sch_id: ids.oldTown }],
      ["harbour", { setmeal_id: ids.oneYear, sch_id: ids.no1, sysid: ids.sunrise }],
    ] as const) {
      const res = await call(username, "get_pay", payload);
      expect(res.return_code, `${username} ${JSON.stringify(payload)}`).toBe("FAIL");
      expect(res.data).toBeUndefined();
    }
    for (const username of ["pickup", "staff", "sysadmin"]) {
      const res = await call(username, "get_pay", { setmeal_id: ids.oneYear, sch_id: ids.no1 });
      expect(res, username).toMatchObject({ return_code: "FAIL", return_msg: "You are not allowed to do this" });
    }
    expect((await t.call("adminapiv2", "checkpay", { pay_no: order.pay_no })).return_code).toBe("token_error");
  });

  it("answers a polling dialog on its session as long as the session stands, and not once after it ends", async () => {
    const token = await t.login("school");
    const poll = (payNo: string) => t.call("adminapiv2", "checkpay", { pay_no: payNo }, { token, headers: EN });
    const order = await buyOneYear();
    // the first poll resolves the session; the next ones are answered alike from the order's statement
    for (let i = 0; i < 3; i++) expect(await poll(order.pay_no)).toMatchObject({ return_code: "FAIL", return_msg: "Payment not received yet" });
    // a sibling school's order stays another's on the session kept
    const sibling = await buyOneYear("svc", ids.no2);
    expect(await poll(sibling.pay_no)).toMatchObject({ return_code: "FAIL", return_msg: "Record not found" });
    // paid from a phone of its own (the sandbox limits the confirmations of one address)
    const paid = await t.app.inject({ method: "POST", url: `${pathOf(order.payparam.code_url)}/confirm`, remoteAddress: "203.0.113.61" });
    expect(paid.json()).toMatchObject({ return_code: "SUCCESS" });
    expect(await poll(order.pay_no)).toMatchObject({ return_code: "SUCCESS" });
    expect((await t.call("adminapi", "logout", {}, { token })).return_code).toBe("SUCCESS");
    expect(await poll(order.pay_no)).toMatchObject({ return_code: "token_error" });
  });

  it("refuses malformed and unknown input: package, school and payment number", async () => {
    expect(await call("svc", "get_pay", { setmeal_id: ids.oneYear })).toMatchObject({ return_code: "FAIL", return_msg: "Choose a school first" });
    for (const setmeal of ["abc", -1, 999999, null, { id: 1 }]) {
      const res = await call("school", "get_pay", { setmeal_id: setmeal, sch_id: ids.no1 });
      expect(res, JSON.stringify(setmeal)).toMatchObject({ return_code: "FAIL", return_msg: "This package is no longer on offer" });
    }
    for (const payNo of ["", "x'; drop table payment_orders; --", 42, ["P1"], "P".repeat(40), "P20260302000000000000000"]) {
      const res = await call("school", "checkpay", { pay_no: payNo });
      expect(res.return_code, JSON.stringify(payNo)).toBe("FAIL");
      expect(res.data).toBeUndefined();
    }
    const missing = await t.app.inject({ method: "GET", url: "/pay/sandbox/P123" });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('data-testid="sandbox-missing"');
  });

  it("renews a provider for a year at its yearly price from the later of today and its current end", async () => {
    expect(await providerEnd("Sunrise Campus Services")).toBe("2026-03-12");
    const res = await call("svc", "get_sysdelay_pay", { sysid: ids.sunrise });
    expect(res.return_code, res.return_msg).toBe("SUCCESS");
    const order = res.data?.items as { pay_no: string; total_fee: string; payparam: { code_url: string } };
    expect(order.total_fee).toBe("3650.00");
    expect(res.data?.qrcode).toBe(order.payparam.code_url);
    expect((await call("svc", "checkpay", { pay_no: order.pay_no })).return_code).toBe("FAIL");
    await confirm(order.payparam.code_url);
    expect(await call("svc", "checkpay", { pay_no: order.pay_no })).toMatchObject({ return_code: "SUCCESS", return_msg: "Payment received: valid until 2027-03-12" });
    expect(await providerEnd("Sunrise Campus Services")).toBe("2027-03-12");

    // an expired provider's year starts today (2026-03-02), not at its past end
    const harbour = await call("harbour", "get_sysdelay_pay", { sysid: ids.harbour });
    expect((harbour.data?.items as Row).total_fee).toBe("2400.00");
    await confirm((harbour.data?.items as { payparam: { code_url: string } }).payparam.code_url);
    expect(await providerEnd("Harbour Education Services")).toBe("2027-03-02");

    const records = await call("sysadmin", "servicedelaylist", { sysid: ids.harbour });
    expect(records.data?.items).toEqual([expect.objectContaining({ service_title: "Harbour Education Services", way: "pay", fee: "2400.00", old_end: "2026-02-25", new_end: "2027-03-02" })]);
  });

  it("takes no sandbox payments when the sandbox is off and no WeChat Pay merchant is configured", async () => {
    const production = await createTestApp(kind, { paymentSandbox: false });
    try {
      const token = await production.login("school");
      const res = await production.call("adminapiv2", "get_pay", { setmeal_id: ids.oneYear, sch_id: ids.no1 }, { token, headers: EN });
      expect(res).toMatchObject({ return_code: "FAIL", return_msg: "The payment service is unavailable, please try again later" });
      expect(res.data).toBeUndefined();
      // no renewal order (the demo's fee and shop orders aside: they were paid to the schools' sandbox channels when it was seeded)
      expect((await production.db.select().from(paymentOrders)).filter((o) => o.kind !== "fee" && o.kind !== "shop_order")).toEqual([]);
      expect((await production.app.inject({ method: "GET", url: "/pay/sandbox/P1" })).statusCode).toBe(404);
      expect((await production.app.inject({ method: "POST", url: "/pay/sandbox/P1/confirm" })).statusCode).toBe(404);
    } finally {
      await production.close();
    }
  });

  it("limits the sandbox confirmations of one address", async () => {
    const order = await buyOneYear("svc", ids.no2);
    const answers = [];
    for (let i = 0; i <= CONFIRMS_PER_MINUTE; i++) answers.push(await t.app.inject({ method: "POST", url: `${pathOf(order.payparam.code_url)}/confirm`, remoteAddress: "198.51.100.7" }));
    expect(answers.slice(0, CONFIRMS_PER_MINUTE).every((a) => a.statusCode === 200)).toBe(true);
    const limited = answers[CONFIRMS_PER_MINUTE]!;
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ return_code: "FAIL" });
  });

  it("shows a school only its own school's payments, not a sibling school's of the same provider", async () => {
    const sibling = await buyOneYear("svc", ids.no2);
    const res = await call("school", "checkpay", { pay_no: sibling.pay_no });
    expect(res).toMatchObject({ return_code: "FAIL", return_msg: "Record not found" });
    // the provider itself may follow it
    expect((await call("svc", "checkpay", { pay_no: sibling.pay_no })).return_msg).toBe("Payment not received yet");
  });

  it("refuses a provider renewal without a yearly price, for another provider, or to a school", async () => {
    await t.db.update(providers).set({ year_fee: 0 }).where(eq(tableColumn(providers, "id"), ids.harbour));
    expect(await call("harbour", "get_sysdelay_pay", { sysid: ids.harbour })).toMatchObject({
      return_code: "FAIL",
      return_msg: "No renewal price is set for this provider: please contact the platform",
    });
    const other = await call("svc", "get_sysdelay_pay", { sysid: ids.harbour });
    expect(other).toMatchObject({ return_code: "FAIL", return_msg: "Record not found" });
    expect(other.data).toBeUndefined();
    expect((await call("school", "get_sysdelay_pay", { sysid: ids.sunrise })).return_msg).toBe("You are not allowed to do this");
    expect((await call("svc", "get_sysdelay_pay", { sysid: "1 or 1=1" })).return_code).toBe("FAIL");
  });

  it("applies a renewal paid without notification when checkpay polls it, the gateway asked once by pollers at once", async () => {
    const before = await schoolEnd("Sunrise No.2 Primary School");
    const order = await buyOneYear("svc", ids.no2);
    const queries = vi.spyOn(SandboxGateway.prototype, "query");
    try {
      // dialogs polling at once (as several server processes would): one of them asks
      const polls = await Promise.all([1, 2, 3, 4, 5].map(() => call("svc", "checkpay", { pay_no: order.pay_no })));
      expect(polls.map((p) => p.return_msg)).toEqual(Array(5).fill("Payment not received yet"));
      expect(queries).toHaveBeenCalledTimes(1);
      // paid at the sandbox, the console not told (a lost notification)
      const paid = await t.app.inject({ method: "POST", url: `${pathOf(order.payparam.code_url)}/confirm`, headers: { "content-type": "application/json" }, payload: { notify: false } });
      expect(paid.json()).toMatchObject({ return_code: "SUCCESS" });
      expect(await schoolEnd("Sunrise No.2 Primary School")).toBe(before);
      t.clock.advance(GATEWAY_ASK_INTERVAL_MS);
      const checked = await call("svc", "checkpay", { pay_no: order.pay_no });
      expect(checked.return_code, checked.return_msg).toBe("SUCCESS");
      expect(queries).toHaveBeenCalledTimes(2);
      const after = await schoolEnd("Sunrise No.2 Primary School");
      expect(after).not.toBe(before);
      expect(checked.return_msg).toBe(`Payment received: valid until ${after}`);
      // polled again, and the job's look at it later: applied once, the gateway not asked about a paid order
      expect((await call("svc", "checkpay", { pay_no: order.pay_no })).return_code).toBe("SUCCESS");
      expect(queries).toHaveBeenCalledTimes(2);
      expect(await t.db.select().from(schoolRenewals).where(eq(tableColumn(schoolRenewals, "pay_no"), order.pay_no))).toHaveLength(1);
    } finally {
      queries.mockRestore();
    }
  });
});
