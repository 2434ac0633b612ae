/**
 * Receipt printing (devicelist, devicemtprint; issue 34 items 13-16), tried as a provider meets it: a printer added
 * (a Feie printer at its stand-in, which checks its signatures; the sandbox printer), its secrets never answered and
 * stored encrypted; a paid order printing once on every auto-printing printer of its school, however often its
 * payment is applied; a printer offline retried with backoff, failed for good, sent again; an order printed again on
 * purpose, a reprint; and, on PostgreSQL, the jobs of one order sent once by two workers of their own connections.
 */
import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openDatabase, type Database } from "../../server/db/client";
import { devices, deviceSecrets, printJobs, shopOrders, students } from "../../server/db/schema";
import { PRINT_JOB_ATTEMPTS } from "../../server/domains/devices/printing";
import { JobWorker } from "../../server/jobs/worker";
import { PaymentSecrets } from "../../server/payments/secrets";
import { describeOnEmbedded, describeOnPostgres } from "../helpers/db";
import { FakeFeieCloud } from "../helpers/fakePrinterClouds";
import { confirmSandbox, h5, itemsOf, payerWorld, type Row } from "./payerSupport";
import { createTestApp } from "./support";

const FEIE = { user: "ops@sunrise.example", ukey: "UKEY-feie-secret-1234" };
const FEIE_PRINTER = { sn: "918500123", key: "kx9wq2ma" };
const PUBLIC_URL = "https://pay.sunrise.example";
/** the payment key the printers' secrets are encrypted under, the same in every process */
const PAYMENT_KEY = randomBytes(32).toString("base64");

/** A world of svc's with the Feie stand-in: a Feie printer and the demo's sandbox printer print for Sunrise No.1. */
async function printingWorld(kind: "pglite" | "postgres") {
  const feie = await FakeFeieCloud.start([FEIE], [FEIE_PRINTER]);
  // Feie reports each print back to the server's public address, signed with the stand-in's key
  const t = await createTestApp(kind, { printerClouds: { feieOrigin: feie.url, feieCallbackPublicKey: feie.publicKeyPem }, publicUrl: PUBLIC_URL, paymentKey: { key: PAYMENT_KEY } });
  const token = await t.login("svc");
  const world = await payerWorld(t, token);
  const call = (method: string, payload: Row = {}, as = token) => t.call("adminapiv2", method, payload, { token: as, headers: { "accept-language": "en" } });
  const [student] = await t.db.select().from(students).where(and(eq(students.sch_id, world.schId), eq(students.status, "1"))).orderBy(students.id).offset(13).limit(1);
  const ticket = String(itemsOf(await h5(t, "h5find", { code: world.code, name: student.name, student_no: student.student_no })).ticket);
  const [{ id: sandboxId }] = await t.db.select({ id: devices.id }).from(devices).where(eq(devices.sn, "SANDBOX-NORTH"));
  const points = itemsOf(await h5(t, "h5pickuppoints", { code: world.code })) as unknown as Row[];
  const skus = itemsOf(await h5(t, "h5goodsinfo", { code: world.code, id: Number((itemsOf(await h5(t, "h5goodslist", { code: world.code })).goods as Row[])[0].id) })).skus as Row[];
  const sku = skus.find((s) => Number(s.stock) > 5)!;
  /** an order made, unpaid: its number and its sandbox payment's address */
  const madeOrder = async () => {
    const answer = await h5(t, "h5shoporder", { ticket, items: [{ sku_id: sku.id, qty: 1 }], delivery: "pickup", pickup_point_id: points[0].id });
    expect(answer.return_code, answer.return_msg).toBe("SUCCESS");
    const made = itemsOf(answer) as { id: number; payparam: { code_url: string } };
    const [order] = await t.db.select().from(shopOrders).where(eq(shopOrders.id, made.id));
    return { orderNo: order.order_no, codeUrl: made.payparam.code_url };
  };
  const paidOrder = async () => {
    const order = await madeOrder();
    expect((await confirmSandbox(t, order.codeUrl)).return_code).toBe("SUCCESS");
    return order;
  };
  const jobsOf = (orderNo: string) => t.db.select().from(printJobs).where(eq(printJobs.order_no, orderNo)).orderBy(printJobs.device_id, printJobs.id);
  return { feie, t, token, world, call, sandboxId, madeOrder, paidOrder, jobsOf };
}

describeOnEmbedded("receipt printing", (kind) => {
  let w: Awaited<ReturnType<typeof printingWorld>>;
  let feieId: number;

  beforeAll(async () => {
    w = await printingWorld(kind);
  });
  afterAll(async () => {
    await w?.t.close();
    await w?.feie.close();
  });

  it("adds a Feie printer at its platform, its secrets stored encrypted and never answered", async () => {
    const base = { title: "Canteen printer", vendor: "feie", sn: FEIE_PRINTER.sn, sch_ids: [w.world.schId], copies: 2, auto_print: "Y" };
    // a cloud printer needs its account and both secrets
    const bare = await w.call("deviceadd", base);
    expect(bare.data?.errors).toEqual([{ field: "account_user", message: "A cloud printer needs its Platform account." }]);
    // Feie refuses a wrong UKEY: the save is undone, the refusal names the key
    const wrong = await w.call("deviceadd", { ...base, account_user: FEIE.user, account_secret: "not-the-ukey", printer_key: FEIE_PRINTER.key });
    expect(wrong.data?.errors).toEqual([{ field: "printer_key", message: "The printing platform did not take this printer: Wrong printer number, key or platform account" }]);
    expect(await w.t.db.select().from(devices).where(eq(devices.sn, FEIE_PRINTER.sn))).toEqual([]);

    const added = await w.call("deviceadd", { ...base, account_user: FEIE.user, account_secret: FEIE.ukey, printer_key: FEIE_PRINTER.key });
    expect(added.return_code, added.return_msg).toBe("SUCCESS");
    feieId = Number(itemsOf(added).id);
    expect(w.feie.boundTo(FEIE_PRINTER.sn)).toBe(FEIE.user);
    const answers = JSON.stringify([added, await w.call("deviceinfo", { id: feieId }), await w.call("devicelist")]);
    expect(answers).not.toContain(FEIE.ukey);
    expect(answers).not.toContain(FEIE_PRINTER.key);
    const [stored] = await w.t.db.select().from(deviceSecrets).where(eq(deviceSecrets.deviceId, feieId));
    expect(stored.accountSecret).not.toContain(FEIE.ukey);
    expect(stored.printerKey).not.toContain(FEIE_PRINTER.key);
    // another provider neither reads nor prints on it
    const harbour = await w.t.login("harbour");
    expect((await w.call("deviceinfo", { id: feieId }, harbour)).return_code).toBe("FAIL");
  });

  it("prints a paid order once on every auto-printing printer of its school, however often the payment is applied", async () => {
    const order = await w.paidOrder();
    const queued = await w.jobsOf(order.orderNo);
    expect(queued.map((j) => [j.device_id, j.kind, j.status, j.copies])).toEqual([
      [w.sandboxId, "auto", "queued", 1],
      [feieId, "auto", "queued", 2],
    ]);
    // the payment told again: nothing more queued
    await confirmSandbox(w.t, order.codeUrl);
    await w.t.app.jobs.runDueJobs();
    await w.t.app.jobs.runDueJobs();
    const [sandbox, feie] = await w.jobsOf(order.orderNo);
    expect(sandbox).toMatchObject({ status: "printed", attempts: 1, last_error: null });
    expect(sandbox.preview).toContain(order.orderNo);
    // 32 columns a line of 58 mm paper, a Chinese character two
    for (const line of sandbox.preview!.split("\n")) expect([...line].reduce((n, c) => n + (c.charCodeAt(0) < 128 ? 1 : 2), 0)).toBeLessThanOrEqual(32);
    // handed to Feie (then asked after by print.check, which may have run already)
    expect(feie).toMatchObject({ attempts: 1, last_error: null });
    expect(feie.sent_at).not.toBeNull();
    const atFeie = w.feie.orders.filter((o) => o.content.includes(order.orderNo));
    expect(atFeie.map((o) => [o.sn, o.times])).toEqual([[FEIE_PRINTER.sn, 2]]);
    expect(feie.provider_job_id).toBe(atFeie[0].orderId);
    // asked after: Feie says it printed
    w.t.clock.advance(61_000);
    await w.t.app.jobs.runDueJobs();
    expect((await w.jobsOf(order.orderNo))[1]).toMatchObject({ status: "printed" });
    expect(w.feie.orders.filter((o) => o.content.includes(order.orderNo))).toHaveLength(1);
  });

  it("marks a Feie receipt printed when Feie reports it, once, and refuses a report not signed by Feie", async () => {
    // out of paper: Feie holds the receipt, and asking after it says it waits
    w.feie.setPaper(FEIE_PRINTER.sn, false);
    const order = await w.paidOrder();
    await w.t.app.jobs.runDueJobs();
    const sent = (await w.jobsOf(order.orderNo))[1];
    expect(sent.status).toBe("sent");
    expect(w.feie.orders.find((o) => o.orderId === sent.provider_job_id)?.backurl).toBe(`${PUBLIC_URL}/print/callback/feie`);
    const report = (fields: Record<string, string>) =>
      w.t.app.inject({ method: "POST", url: "/print/callback/feie", headers: { "content-type": "application/x-www-form-urlencoded" }, payload: new URLSearchParams(fields).toString() });
    // a report of this order signed over another's fields, and one without its signature
    const forged = { ...w.feie.callbackFields(sent.provider_job_id!), sign: w.feie.callbackFields("0000000000").sign };
    expect((await report(forged)).statusCode).toBe(400);
    const { sign: _sign, ...unsigned } = w.feie.callbackFields(sent.provider_job_id!);
    expect((await report(unsigned)).statusCode).toBe(400);
    expect((await w.jobsOf(order.orderNo))[1].status).toBe("sent");
    // paper in, printed, reported: the job is printed; Feie reporting it again changes nothing
    w.feie.setPaper(FEIE_PRINTER.sn, true);
    const answered = await report(w.feie.callbackFields(sent.provider_job_id!));
    expect([answered.statusCode, answered.body]).toEqual([200, "SUCCESS"]);
    const printed = (await w.jobsOf(order.orderNo))[1];
    expect(printed).toMatchObject({ status: "printed", printed_at: w.t.clock.now() });
    expect((await report(w.feie.callbackFields(sent.provider_job_id!))).body).toBe("SUCCESS");
    expect((await w.jobsOf(order.orderNo))[1]).toEqual(printed);
  });

  it("retries a printer offline with backoff, fails for good, and sends the job again on the provider's word", async () => {
    expect((await w.call("deviceedit", { id: w.sandboxId, sandbox_state: "offline" })).return_code).toBe("SUCCESS");
    const order = await w.paidOrder();
    const sandboxJob = async () => (await w.jobsOf(order.orderNo)).find((j) => j.device_id === w.sandboxId)!;
    for (let run = 1; run <= PRINT_JOB_ATTEMPTS; run++) {
      await w.t.app.jobs.runDueJobs();
      expect(await sandboxJob()).toMatchObject({ attempts: run, last_error: "offline", status: run < PRINT_JOB_ATTEMPTS ? "queued" : "failed" });
      // the next run waits its backoff: not due a second before it
      w.t.clock.advance(10_000 * 2 ** (run - 1) - 1000);
      await w.t.app.jobs.runDueJobs();
      expect((await sandboxJob()).attempts).toBe(run);
      w.t.clock.advance(1000);
    }
    expect(itemsOf(await w.call("deviceinfo", { id: w.sandboxId })).status).toBe("offline");
    const failed = await sandboxJob();
    // back online, the provider sends it again: the same job, printed once
    expect((await w.call("deviceedit", { id: w.sandboxId, sandbox_state: "online" })).return_code).toBe("SUCCESS");
    const retried = await w.call("printjobretry", { id: failed.id });
    expect(retried.return_code, retried.return_msg).toBe("SUCCESS");
    await w.t.app.jobs.runDueJobs();
    expect(await sandboxJob()).toMatchObject({ id: failed.id, status: "printed", last_error: null, dedupe_key: failed.dedupe_key });
    expect((await w.call("printjobretry", { id: failed.id })).return_code).toBe("FAIL");
  });

  it("prints an order again on purpose: a reprint; refuses an unpaid order, another provider's, and another's printer", async () => {
    const order = await w.paidOrder();
    await w.t.app.jobs.runDueJobs();
    const again = await w.call("devicemtprint", { device_id: w.sandboxId, order_no: order.orderNo });
    expect(again.return_code, again.return_msg).toBe("SUCCESS");
    expect(itemsOf(again)).toMatchObject({ kind: "reprint", status: "queued" });
    await w.t.app.jobs.runDueJobs();
    const jobs = (await w.jobsOf(order.orderNo)).filter((j) => j.device_id === w.sandboxId);
    expect(jobs.map((j) => [j.kind, j.status])).toEqual([
      ["auto", "printed"],
      ["reprint", "printed"],
    ]);

    expect((await w.call("devicemtprint", { device_id: w.sandboxId, order_no: "NO-SUCH-ORDER" })).data?.errors).toEqual([{ field: "order_no", message: "No order NO-SUCH-ORDER was found." }]);
    const unpaid = await w.madeOrder();
    expect((await w.call("devicemtprint", { device_id: w.sandboxId, order_no: unpaid.orderNo })).data?.errors).toEqual([{ field: "order_no", message: `Order ${unpaid.orderNo} is not paid: it has no receipt yet.` }]);
    const harbour = await w.t.login("harbour");
    expect((await w.call("devicemtprint", { device_id: w.sandboxId, order_no: order.orderNo }, harbour)).return_code).toBe("FAIL");
    expect((await w.call("devicemtprint", { device_id: "x", order_no: order.orderNo })).data?.errors).toEqual([expect.objectContaining({ field: "device_id" })]);
  });
});

describeOnPostgres("receipt printing under two processes", () => {
  let w: Awaited<ReturnType<typeof printingWorld>>;
  const others: Database[] = [];

  beforeAll(async () => {
    w = await printingWorld("postgres");
    const added = await w.call("deviceadd", { title: "Canteen printer", vendor: "feie", sn: FEIE_PRINTER.sn, sch_ids: [w.world.schId], copies: 1, auto_print: "Y", account_user: FEIE.user, account_secret: FEIE.ukey, printer_key: FEIE_PRINTER.key });
    expect(added.return_code, added.return_msg).toBe("SUCCESS");
  });
  afterAll(async () => {
    for (const other of others) await other.close();
    await w?.t.close();
    await w?.feie.close();
  });

  it("sends each receipt once when two workers of their own connections run the jobs at once", async () => {
    const orders = [];
    // as many as one payer may make in ten minutes (the payer page's throttle)
    for (let i = 0; i < 5; i++) orders.push(await w.paidOrder());
    const workers = [];
    for (let i = 0; i < 2; i++) {
      const other = await openDatabase({ kind: "postgres", url: w.t.testDb.url!, poolSize: 2 });
      others.push(other);
      // the same key as the app's: the printer's secrets decrypt in every process
      workers.push(new JobWorker({ services: { db: other.db, clock: w.t.clock, paymentSecrets: new PaymentSecrets({ key: PAYMENT_KEY }), printerClouds: { feieOrigin: w.feie.url } }, id: `process-${i}` }));
    }
    await Promise.all(workers.map((worker) => worker.runDueJobs()));
    await Promise.all(workers.map((worker) => worker.runDueJobs()));
    for (const order of orders) {
      expect(w.feie.orders.filter((o) => o.content.includes(order.orderNo)), order.orderNo).toHaveLength(1);
      const [sandbox, feie] = await w.jobsOf(order.orderNo);
      expect([sandbox.status, sandbox.attempts, feie.attempts]).toEqual(["printed", 1, 1]);
      // sent, and perhaps asked after already
      expect(["sent", "printed"]).toContain(feie.status);
    }
  });
});
