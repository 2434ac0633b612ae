/**
 * Pickup verification (pickupfind, pickupverify, pickupreclist): a clerk finds a paid pickup order by its code or
 * its QR token at its own points only, hands it over once (of clerks verifying one order at once exactly one
 * succeeds; the others are told who verified it and when), and reads the records of its points; codes not found are
 * throttled per account and audited. On both databases: the verification is one conditional update under load.
 */
import { and, eq, gt } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { auditLog, goodsSkus, loginThrottle, pickupPoints, shopOrders, students, users } from "../../server/db/schema";
import { describeOnDatabases } from "../helpers/db";
import { confirmSandbox, h5, itemsOf, payerWorld, type PayerWorld, type Row } from "./payerSupport";
import { createTestApp, type TestApp } from "./support";

describeOnDatabases("pickup verification", (kind) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  let world: PayerWorld;
  let ticket: string;
  let northGate: number;

  const call = (user: string, method: string, payload: Row = {}) => t.call("adminapiv2", method, payload, { token: tokens[user], headers: { "accept-language": "en" } });

  /** A paid pickup order of one item at a point: its id, number, code and QR token. */
  async function paidPickupOrder(pointId: number): Promise<{ id: number; code: string; token: string; order_no: string }> {
    const [sku] = await t.db.select({ id: goodsSkus.id }).from(goodsSkus).where(gt(goodsSkus.stock, 5)).limit(1);
    const made = await h5(t, "h5shoporder", { ticket, items: [{ sku_id: sku.id, qty: 1 }], delivery: "pickup", pickup_point_id: pointId });
    expect(made.return_code, made.return_msg).toBe("SUCCESS");
    const order = itemsOf(made) as { id: number; order_no: string; payparam: { code_url: string } };
    await confirmSandbox(t, order.payparam.code_url);
    const info = itemsOf(await h5(t, "h5shoporderinfo", { ticket, id: order.id }));
    return { id: order.id, order_no: order.order_no, code: String(info.pickup_code), token: String(info.pickup_token) };
  }

  /** A ticket of a pupil of the payer world's school: a payer makes a few orders per ticket only. */
  async function payerTicket(): Promise<string> {
    const [student] = await t.db.select().from(students).where(and(eq(students.sch_id, world.schId), eq(students.status, "1"))).limit(1);
    return String(itemsOf(await h5(t, "h5find", { code: world.code, name: student.name, student_no: student.student_no })).ticket);
  }

  beforeAll(async () => {
    t = await createTestApp(kind);
    for (const u of ["svc", "pickup", "harbour", "staff"]) tokens[u] = await t.login(u);
    world = await payerWorld(t, tokens.svc);
    ticket = await payerTicket();
    [{ id: northGate }] = await t.db.select({ id: pickupPoints.id }).from(pickupPoints).where(eq(pickupPoints.title, "Sunrise North Gate Pickup"));
  });
  afterAll(async () => {
    await t?.close();
  });

  it("finds a paid order by its code or its QR token at the clerk's points, and hands it over once", async () => {
    const order = await paidPickupOrder(northGate);
    const byCode = await call("pickup", "pickupfind", { code: order.code });
    expect(byCode.return_code, byCode.return_msg).toBe("SUCCESS");
    expect(itemsOf(byCode)).toMatchObject({ order_no: order.order_no, status: "undelivered", pickup_point: "Sunrise North Gate Pickup", verified: null });
    expect((itemsOf(byCode).items as Row[])[0]).toMatchObject({ qty: 1 });
    expect(itemsOf(await call("pickup", "pickupfind", { code: order.token }))).toMatchObject({ order_no: order.order_no });

    const handed = await call("pickup", "pickupverify", { code: order.token, via: "scan" });
    expect(handed.return_code, handed.return_msg).toBe("SUCCESS");
    expect(handed.return_msg).toBe(`Handed over: order ${order.order_no}`);
    expect((await t.db.select().from(shopOrders).where(eq(shopOrders.id, order.id)))[0]).toMatchObject({ status: "completed" });
    // a second attempt is told who verified it and when
    const again = await call("svc", "pickupverify", { code: order.code, via: "code" });
    expect(again.return_code).toBe("FAIL");
    expect(again.return_msg).toMatch(/^Already collected: verified by Sunrise Pickup Clerk at \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    // its record, in the clerk's list and on the order's timeline
    const records = (await call("pickup", "pickupreclist", { order_no: order.order_no })).data?.items as Row[];
    expect(records).toEqual([expect.objectContaining({ order_no: order.order_no, via: "scan", verifier_name: "Sunrise Pickup Clerk", pickup_point_id: northGate })]);
    const timeline = (itemsOf(await call("svc", "shoporderinfo", { id: order.id })).timeline as Row[]).map((e) => e.event);
    expect(timeline).toContain("pickupverify");
    // its audit entry, written by the hand-over's own statement as writeAudit would write it: the clerk, the order, where
    const [clerk] = await t.db.select({ id: users.id }).from(users).where(eq(users.username, "pickup"));
    const [order_] = await t.db.select({ sysid: shopOrders.sysid, sch_id: shopOrders.sch_id }).from(shopOrders).where(eq(shopOrders.id, order.id));
    const entries = await t.db.select().from(auditLog).where(and(eq(auditLog.action, "pickupverify"), eq(auditLog.entityId, String(order.id))));
    expect(entries).toEqual([
      expect.objectContaining({ userId: clerk.id, username: "pickup", entity: "shoporder", sysid: order_.sysid, schId: order_.sch_id, detail: { from: "undelivered", to: "completed", via: "scan", pickup_point_id: northGate } }),
    ]);
    expect(entries[0].ip).not.toBe("");
  });

  it("keeps the verifier's phone on the record as set on its account then, and none for an account with none", async () => {
    const recordOf = async (orderNo: string) => {
      const [listed] = (await call("pickup", "pickupreclist", { order_no: orderNo })).data?.items as Row[];
      return itemsOf(await call("pickup", "pickuprecinfo", { id: listed.id }));
    };
    const [clerk] = await t.db.select({ id: users.id }).from(users).where(eq(users.username, "pickup"));
    // set on the clerk's account by its provider, as the phone field takes it (spaces dropped)
    const edited = await call("svc", "usersedit", { id: clerk.id, phone: "139 0021 7788" });
    expect(edited.return_code, edited.return_msg).toBe("SUCCESS");
    expect(itemsOf(edited)).toMatchObject({ phone: "13900217788" });
    const byClerk = await paidPickupOrder(northGate);
    expect((await call("pickup", "pickupverify", { code: byClerk.code, via: "code" })).return_code).toBe("SUCCESS");
    expect(await recordOf(byClerk.order_no)).toMatchObject({ verifier_name: "Sunrise Pickup Clerk", verifier_phone: "13900217788" });
    // a snapshot: the account's phone changed or taken away later leaves the record as it was
    expect((await call("svc", "usersedit", { id: clerk.id, phone: "" })).return_code).toBe("SUCCESS");
    expect((await t.db.select({ phone: users.phone }).from(users).where(eq(users.id, clerk.id)))[0].phone).toBeNull();
    expect(await recordOf(byClerk.order_no)).toMatchObject({ verifier_phone: "13900217788" });
    // an account with no phone (the clerk's now, the provider's administrator's always) leaves the record's empty
    const byProvider = await paidPickupOrder(northGate);
    expect((await call("svc", "pickupverify", { code: byProvider.code, via: "code" })).return_code).toBe("SUCCESS");
    expect((await recordOf(byProvider.order_no)).verifier_phone ?? "").toBe("");
    ticket = await payerTicket();
  });

  it("lets exactly one of clerks verifying one order at once hand it over", async () => {
    const order = await paidPickupOrder(northGate);
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => call(i % 2 === 0 ? "pickup" : "svc", "pickupverify", { code: order.code, via: "code" })));
    expect(answers.filter((a) => a.return_code === "SUCCESS")).toHaveLength(1);
    expect(answers.filter((a) => a.return_code === "FAIL").every((a) => a.return_msg.startsWith("Already collected: verified by"))).toBe(true);
  });

  it("counts misses only: a verification gives its look-up back in its own statement, and the misses still lock", async () => {
    const [clerk] = await t.db.select({ id: users.id }).from(users).where(eq(users.username, "pickup"));
    const key = `pickupfind:user:${clerk.id}`;
    ticket = await payerTicket();
    const counted = async () => (await t.db.select({ failures: loginThrottle.failures }).from(loginThrottle).where(eq(loginThrottle.key, key)))[0]?.failures ?? 0;
    for (let i = 0; i < 9; i++) expect((await call("pickup", "pickupfind", { code: String(20_000_000 + i) })).return_code).toBe("FAIL");
    expect(await counted()).toBe(9);
    const order = await paidPickupOrder(northGate);
    expect((await call("pickup", "pickupverify", { code: order.code, via: "code" })).return_code).toBe("SUCCESS");
    expect((await call("pickup", "pickupfind", { code: order.token })).return_code).toBe("SUCCESS");
    expect((await call("pickup", "pickupverify", { code: order.code, via: "code" })).return_msg).toMatch(/^Already collected/);
    expect(await counted()).toBe(9);
    expect((await call("pickup", "pickupverify", { code: "20000009", via: "code" })).return_code).toBe("FAIL");
    expect((await call("pickup", "pickupfind", { code: order.code })).return_msg).toMatch(/^Too many codes not found/);
    await t.db.delete(loginThrottle).where(eq(loginThrottle.key, key));
  });

  it("finds the order waiting for a code before one collected with it earlier (a code is free again once collected)", async () => {
    const collected = await paidPickupOrder(northGate);
    expect((await call("pickup", "pickupverify", { code: collected.code, via: "code" })).return_code).toBe("SUCCESS");
    const waiting = await paidPickupOrder(northGate);
    await t.db.update(shopOrders).set({ pickup_code: collected.code }).where(eq(shopOrders.id, waiting.id));
    expect(itemsOf(await call("pickup", "pickupfind", { code: collected.code }))).toMatchObject({ order_no: waiting.order_no, status: "undelivered", verified: null });
    expect(itemsOf(await call("pickup", "pickupverify", { code: collected.code, via: "code" }))).toMatchObject({ order_no: waiting.order_no, status: "completed" });
  });

  it("finds nothing of another point or provider, throttles codes not found per account, and audits them", async () => {
    const [middle] = await t.db.select({ id: pickupPoints.id }).from(pickupPoints).where(eq(pickupPoints.title, "Sunrise Middle School Shop"));
    // an order of a point the clerk does not verify at: Sunrise Middle serves another school, so the point is given to this one first
    await t.db.update(pickupPoints).set({ sch_ids: [world.schId] }).where(eq(pickupPoints.id, middle.id));
    const elsewhere = await paidPickupOrder(middle.id);
    expect((await call("pickup", "pickupfind", { code: elsewhere.code })).return_msg).toBe("No order waiting to be collected at your pickup points has this code");
    expect((await call("pickup", "pickupverify", { code: elsewhere.token, via: "scan" })).return_code).toBe("FAIL");
    expect((await call("harbour", "pickupfind", { code: elsewhere.code })).return_code).toBe("FAIL");
    // the provider finds it at any of its points; its staff may not verify
    expect((await call("svc", "pickupfind", { code: elsewhere.code })).return_code).toBe("SUCCESS");
    expect((await call("staff", "pickupfind", { code: elsewhere.code })).return_msg).toBe("You are not allowed to do this");
    expect(await t.db.select().from(auditLog).where(eq(auditLog.action, "pickup_not_found"))).not.toHaveLength(0);

    // guessing: ten misses lock the account out for a while, whatever it sends then
    const misses = [];
    for (let i = 0; i < 12; i++) misses.push(await call("pickup", "pickupfind", { code: String(10_000_000 + i) }));
    expect(misses.at(-1)!.return_msg).toMatch(/^Too many codes not found: try again in \d+ minutes$/);
    expect((await call("pickup", "pickupfind", { code: elsewhere.code })).return_msg).toMatch(/^Too many codes not found/);
  });
});
