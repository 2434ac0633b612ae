/**
 * Receipts of paid orders on the provider's printers (catalogue/devices.ts). Paying an order (a fee order or a shop
 * order: each kind's applyPaid calls queueReceipts) queues, in the payment's transaction, one automatic print job for
 * every auto-printing printer of the order's school: the job's de-duplication key is the printer and the order, so
 * however often a payment is applied, or by how many processes, one receipt a printer is queued. The job queue sends
 * it (print.send, one run at a time, retried with backoff); a job not queued any more (sent, printed, failed) is
 * never sent again. A cloud printer's job is sent, then asked after until it printed (print.check); the sandbox
 * printer prints at once, or fails as it is switched (offline, out of paper). devicemtprint prints an order again
 * on purpose: a manual job of its own key, a "reprint" where the printer had printed it before.
 *
 * Once-only at the vendor: Yilianyun refuses a second print of a job's key (origin_id) and the sandbox prints a key
 * once; Feie has no such key, so a process stopped between Feie's answer and the job's record could print one
 * receipt twice when the job runs again: the one case not covered.
 */
import { createHash, randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { and, asc, eq, gte, inArray, isNotNull, sql } from "drizzle-orm";
import { deviceManualPrint } from "../../../catalogue/devices";
import { timeText } from "../../../common/businessTime";
import { fenToYuan } from "../../../common/money";
import type { Db, DbOrTx } from "../../db/client";
import { devices, deviceSecrets, feeOrderLines, feeOrders, pickupPoints, printJobs, providers, schools, shopOrderItems, shopOrders, students } from "../../db/schema";
import { actionFieldFailure } from "../../engine/actions";
import { registerDeclared } from "../../engine/declared";
import { enqueueJob } from "../../jobs/worker";
import type { JobContext, JobServices } from "../../jobs/registry";
import { translator } from "../../lib/i18n";
import { PaymentKeyMissingError, type PaymentSecrets } from "../../payments/secrets";
import { ApiFailure, notFound } from "../../protocol/envelope";
import type { AppServices, OperationContext, OperationRegistry } from "../../protocol/registry";
import { printerDriver, PrinterError, type Printer, type PrinterDriver, type PrinterStatus, type SandboxPrinter } from "./printers";
import { feieReceipt, receiptPreview, yilianyunReceipt, type Receipt, type ReceiptLabels } from "./receipt";

export const SEND_PRINT_JOB = "print.send";
/** runs of a job before it fails for good (10 s, 20 s, 40 s, 80 s, 160 s apart) */
export const PRINT_JOB_ATTEMPTS = 6;
export const CHECK_PRINT_JOBS = "print.check";
export const CHECK_PRINT_JOBS_EVERY_SECONDS = 60;
/** sent jobs asked after per run, and for how long after they were sent */
const CHECKED_PER_RUN = 100;
const CHECKED_FOR_MS = 86_400_000;

/** the purposes the printer's secrets are encrypted under (a ciphertext of one never decrypts as the other) */
const KEY_PURPOSE = "device.printer_key";
const SECRET_PURPOSE = "device.account_secret";

export type ReceiptOrderKind = "shop_order" | "fee_order";

type DeviceRow = typeof devices.$inferSelect;
type PrintJobRow = typeof printJobs.$inferSelect;

function autoKey(deviceId: number, orderNo: string): string {
  return createHash("md5").update(`auto:${deviceId}:${orderNo}`).digest("hex");
}

export async function enqueueSend(tx: DbOrTx, jobId: number, now: Date): Promise<void> {
  await enqueueJob(tx, SEND_PRINT_JOB, { print_job_id: jobId }, { now, uniqueKey: `print:${jobId}`, maxAttempts: PRINT_JOB_ATTEMPTS });
}

/**
 * In a payment's transaction: one automatic receipt of the order for each auto-printing printer of its school, none
 * where the order has one already (its key).
 */
export async function queueReceipts(tx: DbOrTx, order: { kind: ReceiptOrderKind; orderNo: string; sysid: number; schId: number }, now: Date): Promise<void> {
  const printers = await tx
    .select({ id: devices.id, copies: devices.copies })
    .from(devices)
    .where(and(eq(devices.sysid, order.sysid), eq(devices.auto_print, "Y"), sql`${order.schId} = any(${devices.sch_ids})`));
  if (printers.length === 0) return;
  const queued = await tx
    .insert(printJobs)
    .values(
      printers.map((p) => ({
        sysid: order.sysid,
        sch_id: order.schId,
        device_id: p.id,
        order_kind: order.kind,
        order_no: order.orderNo,
        kind: "auto",
        status: "queued",
        copies: p.copies,
        dedupe_key: autoKey(p.id, order.orderNo),
        created_at: now,
      })),
    )
    .onConflictDoNothing({ target: printJobs.dedupe_key })
    .returning({ id: printJobs.id });
  for (const { id } of queued) await enqueueSend(tx, id, now);
}

// ---------------------------------------------------------------------------------------------------------------
// the printer as its driver sees it

/** The sandbox printer prints into the console: at once, unless it is switched offline or out of paper. */
function sandboxDriver(state: string | null): PrinterDriver<SandboxPrinter> {
  return {
    vendor: "sandbox",
    addPrinter: async () => {},
    removePrinter: async () => {},
    print: async (_printer, job) => {
      if (state === "offline" || state === "no_paper") throw new PrinterError(state, `the sandbox printer is switched ${state}`);
      return { providerJobId: job.dedupeKey };
    },
    jobStatus: async () => "printed",
    printerStatus: async () => (state ?? "online") as PrinterStatus,
  };
}

/** Where Feie posts a print's report (its `backurl`), under the server's public address. */
export const FEIE_CALLBACK_PATH = "/print/callback/feie";

export function driverOf(device: Pick<DeviceRow, "vendor" | "sandbox_state">, services: Pick<JobServices, "printerClouds" | "publicUrl">): PrinterDriver {
  const clouds = services.printerClouds ?? {};
  // Feie reports back only where it can verify the report's signature and reach the server
  const backUrl = clouds.feieCallbackPublicKey && services.publicUrl ? `${services.publicUrl}${FEIE_CALLBACK_PATH}` : undefined;
  return printerDriver(device.vendor as Printer["vendor"], {
    feie: { origin: clouds.feieOrigin, callbackPublicKey: clouds.feieCallbackPublicKey, backUrl },
    yilianyun: { origin: clouds.yilianyunOrigin },
    sandbox: sandboxDriver(device.sandbox_state),
  });
}

/** The printer with its secrets decrypted, for its driver only. */
export async function printerOf(db: DbOrTx, device: DeviceRow, secrets: PaymentSecrets): Promise<Printer> {
  const base = { sn: device.sn, title: device.title, copies: device.copies };
  if (device.vendor === "sandbox") return { ...base, vendor: "sandbox", key: "" };
  const [stored] = await db.select().from(deviceSecrets).where(eq(deviceSecrets.deviceId, device.id));
  const key = stored?.printerKey ? secrets.decrypt(stored.printerKey, KEY_PURPOSE) : "";
  const secret = stored?.accountSecret ? secrets.decrypt(stored.accountSecret, SECRET_PURPOSE) : "";
  const user = device.account_user ?? "";
  return device.vendor === "feie"
    ? { ...base, vendor: "feie", key, account: { user, ukey: secret } }
    : { ...base, vendor: "yilianyun", key, account: { client_id: user, client_secret: secret } };
}

/** Stores the secrets sent (encrypted), leaving one not sent as it was. */
export async function storeSecrets(tx: DbOrTx, deviceId: number, sent: { printerKey?: string; accountSecret?: string }, secrets: PaymentSecrets): Promise<void> {
  const encrypt = (plain: string, purpose: string) => {
    try {
      return secrets.encrypt(plain, purpose);
    } catch (err) {
      // a server on PostgreSQL without PAYMENT_KEY keeps no secret: said as the merchants' keys say it
      if (err instanceof PaymentKeyMissingError) throw new ApiFailure("api.payment_key_missing");
      throw err;
    }
  };
  const values = {
    ...(sent.printerKey ? { printerKey: encrypt(sent.printerKey, KEY_PURPOSE) } : {}),
    ...(sent.accountSecret ? { accountSecret: encrypt(sent.accountSecret, SECRET_PURPOSE) } : {}),
  };
  if (Object.keys(values).length === 0) return;
  await tx.insert(deviceSecrets).values({ deviceId, ...values }).onConflictDoUpdate({ target: deviceSecrets.deviceId, set: values });
}

/** whether a device has the secrets its vendor needs */
export async function hasSecrets(db: DbOrTx, deviceId: number): Promise<{ printerKey: boolean; accountSecret: boolean }> {
  const [stored] = await db.select().from(deviceSecrets).where(eq(deviceSecrets.deviceId, deviceId));
  return { printerKey: Boolean(stored?.printerKey), accountSecret: Boolean(stored?.accountSecret) };
}

// ---------------------------------------------------------------------------------------------------------------
// the receipt

const receiptText = translator("zh");

const LABELS: ReceiptLabels = {
  orderNo: receiptText("devices.receipt.order_no"),
  paidAt: receiptText("devices.receipt.paid_at"),
  total: receiptText("devices.receipt.total"),
  pickupPoint: receiptText("devices.receipt.pickup_point"),
  pickupCode: receiptText("devices.receipt.pickup_code"),
  receiver: receiptText("devices.receipt.receiver"),
  moreItems: (count) => receiptText("devices.receipt.more_items", { count }),
};

function specText(specs: Record<string, string> | null): string | undefined {
  const values = Object.values(specs ?? {});
  return values.length > 0 ? values.join(" / ") : undefined;
}

/** The receipt of a paid order of the job's school, in Chinese (the paper the school's staff read); null when gone. */
async function receiptOf(db: DbOrTx, job: Pick<PrintJobRow, "order_kind" | "order_no" | "sch_id" | "sysid">): Promise<Receipt | null> {
  const [place] = await db
    .select({ school: schools.title, provider: providers.title })
    .from(schools)
    .innerJoin(providers, eq(providers.id, schools.sysid))
    .where(eq(schools.id, job.sch_id));
  if (!place) return null;
  const orders = job.order_kind === "shop_order" ? shopOrders : feeOrders;
  const [order] = await db
    .select({
      id: orders.id,
      amount: orders.amount,
      paidAt: orders.paid_at,
      student: students.name,
      delivery: orders.delivery,
      point: pickupPoints.title,
      pickupCode: orders.pickup_code,
      receiverName: orders.receiver_name,
      receiverPhone: orders.receiver_phone,
      receiverAddress: orders.receiver_address,
    })
    .from(orders)
    .innerJoin(students, eq(students.id, orders.student_id))
    .leftJoin(pickupPoints, eq(pickupPoints.id, orders.pickup_point_id))
    .where(and(eq(orders.order_no, job.order_no), eq(orders.sch_id, job.sch_id)));
  if (!order?.paidAt) return null;
  const items =
    job.order_kind === "shop_order"
      ? (await db.select().from(shopOrderItems).where(eq(shopOrderItems.order_id, order.id)).orderBy(asc(shopOrderItems.sort), asc(shopOrderItems.id))).map((i) => ({
          title: i.title,
          spec: specText(i.spec_values),
          qty: i.qty,
          amount: fenToYuan(i.amount),
        }))
      : (await db.select().from(feeOrderLines).where(eq(feeOrderLines.order_id, order.id)).orderBy(asc(feeOrderLines.sort), asc(feeOrderLines.id))).map((l) => ({
          title: l.title,
          qty: 1,
          amount: fenToYuan(Number(l.amount)),
        }));
  return {
    title: place.provider,
    school: place.school,
    orderNo: job.order_no,
    paidAt: timeText(order.paidAt),
    items,
    total: fenToYuan(Number(order.amount)),
    delivery:
      order.delivery === "pickup" && order.point
        ? { kind: "pickup", point: order.point, code: order.pickupCode ?? "" }
        : order.delivery === "express" && order.receiverName
          ? { kind: "receiver", name: order.receiverName, phone: order.receiverPhone ?? undefined, address: order.receiverAddress ?? "" }
          : undefined,
    footer: receiptText("devices.receipt.footer", { student: order.student }),
  };
}

function contentFor(vendor: string, receipt: Receipt, copies: number): string {
  return vendor === "yilianyun" ? yilianyunReceipt(receipt, LABELS, copies) : feieReceipt(receipt, LABELS);
}

// ---------------------------------------------------------------------------------------------------------------
// sending

async function setDeviceStatus(db: DbOrTx, deviceId: number, status: PrinterStatus, now: Date): Promise<void> {
  await db.update(devices).set({ status, status_at: now }).where(eq(devices.id, deviceId));
}

/** print.send {print_job_id}: a queued job sent to its printer; a failure is tried again until the last run fails it. */
export async function sendPrintJob({ db, services, payload, now, attempt }: JobContext): Promise<{ outcome: string }> {
  const id = Number(payload.print_job_id);
  const [job] = Number.isSafeInteger(id) ? await db.select().from(printJobs).where(eq(printJobs.id, id)) : [];
  if (!job || job.status !== "queued") return { outcome: "skipped" };
  const [device] = await db.select().from(devices).where(eq(devices.id, job.device_id));
  const receipt = await receiptOf(db, job);
  const preview = receipt ? receiptPreview(receipt, LABELS).join("\n") : null;
  const stillQueued = and(eq(printJobs.id, job.id), eq(printJobs.status, "queued"));
  if (!device || !receipt) {
    await db.update(printJobs).set({ status: "failed", attempts: job.attempts + 1, last_error: !device ? "device_gone" : "rejected", preview }).where(stillQueued);
    return { outcome: "failed" };
  }
  try {
    const printer = await printerOf(db, device, services.paymentSecrets);
    const { providerJobId } = await driverOf(device, services).print(printer, { dedupeKey: job.dedupe_key, content: contentFor(device.vendor, receipt, job.copies), copies: job.copies });
    const printedNow = device.vendor === "sandbox";
    await db
      .update(printJobs)
      .set({ status: printedNow ? "printed" : "sent", provider_job_id: providerJobId, attempts: job.attempts + 1, last_error: null, preview, sent_at: now, printed_at: printedNow ? now : null })
      .where(stillQueued);
    await setDeviceStatus(db, device.id, "online", now);
    return { outcome: printedNow ? "printed" : "sent" };
  } catch (error) {
    // the vendor has this job's key already: it was sent, not lost
    if (error instanceof PrinterError && error.code === "duplicate") {
      await db.update(printJobs).set({ status: "sent", attempts: job.attempts + 1, last_error: null, preview, sent_at: now }).where(stillQueued);
      return { outcome: "sent" };
    }
    const code = error instanceof PrinterError ? error.code : "network";
    const last = attempt >= PRINT_JOB_ATTEMPTS;
    await db
      .update(printJobs)
      .set({ status: last ? "failed" : "queued", attempts: job.attempts + 1, last_error: code, preview })
      .where(stillQueued);
    if (code === "offline" || code === "no_paper") await setDeviceStatus(db, device.id, code, now);
    if (last) return { outcome: "failed" };
    // the queue runs it again later (its backoff); the message names no secret (PrinterError's never do)
    throw new Error(`print job ${job.id}: ${code}`);
  }
}

/** print.check (every minute): sent jobs of cloud printers asked after until they printed, for a day. */
export async function checkPrintJobs({ db, services, now }: JobContext): Promise<Record<string, number>> {
  const sent = await db
    .select({ job: printJobs, device: devices })
    .from(printJobs)
    .innerJoin(devices, eq(devices.id, printJobs.device_id))
    .where(and(eq(printJobs.status, "sent"), isNotNull(printJobs.provider_job_id), gte(printJobs.sent_at, new Date(now.getTime() - CHECKED_FOR_MS))))
    .orderBy(asc(printJobs.id))
    .limit(CHECKED_PER_RUN);
  const counts: Record<string, number> = {};
  for (const { job, device } of sent) {
    let status: string;
    try {
      status = await driverOf(device, services).jobStatus(await printerOf(db, device, services.paymentSecrets), job.provider_job_id!);
    } catch {
      status = "unanswered";
    }
    if (status === "printed") await db.update(printJobs).set({ status: "printed", printed_at: now }).where(and(eq(printJobs.id, job.id), eq(printJobs.status, "sent")));
    counts[status] = (counts[status] ?? 0) + 1;
  }
  return counts;
}

// ---------------------------------------------------------------------------------------------------------------
// printing an order on purpose

/** The paid order of this number among the printer's schools, of either kind. */
async function paidOrderOf(ctx: OperationContext, db: Db, device: DeviceRow, orderNo: string): Promise<{ kind: ReceiptOrderKind; schId: number }> {
  for (const [kind, orders] of [
    ["shop_order", shopOrders],
    ["fee_order", feeOrders],
  ] as const) {
    const [found] = await db.select({ schId: orders.sch_id, sysid: orders.sysid, paidAt: orders.paid_at }).from(orders).where(eq(orders.order_no, orderNo));
    if (!found || found.sysid !== device.sysid) continue;
    if (!device.sch_ids.includes(found.schId)) throw actionFieldFailure(ctx, "order_no", "devices.errors.order_other_school", { order_no: orderNo });
    if (!found.paidAt) throw actionFieldFailure(ctx, "order_no", "devices.errors.order_not_paid", { order_no: orderNo });
    return { kind, schId: found.schId };
  }
  throw actionFieldFailure(ctx, "order_no", "devices.errors.order_unknown", { order_no: orderNo });
}

/** devicemtprint {device_id, order_no}: a manual job (a reprint where the printer printed the order before), sent now. */
async function manualPrint(ctx: OperationContext, payload: { device_id: number; order_no: string }) {
  const [device] = await ctx.db
    .select()
    .from(devices)
    .where(and(eq(devices.id, payload.device_id), eq(devices.sysid, ctx.auth?.sysid ?? -1)));
  if (!device) throw notFound();
  const order = await paidOrderOf(ctx, ctx.db, device, payload.order_no);
  const job = await ctx.db.transaction(async (tx) => {
    const [before] = await tx
      .select({ id: printJobs.id })
      .from(printJobs)
      .where(and(eq(printJobs.device_id, device.id), eq(printJobs.order_no, payload.order_no), inArray(printJobs.status, ["sent", "printed"])))
      .limit(1);
    const [created] = await tx
      .insert(printJobs)
      .values({
        sysid: device.sysid,
        sch_id: order.schId,
        device_id: device.id,
        order_kind: order.kind,
        order_no: payload.order_no,
        kind: before ? "reprint" : "manual",
        status: "queued",
        copies: device.copies,
        dedupe_key: randomBytes(16).toString("hex"),
        created_at: ctx.now,
      })
      .returning();
    await enqueueSend(tx, created.id, ctx.now);
    return created;
  });
  ctx.services.wakeJobs?.();
  return { data: { items: { id: job.id, kind: job.kind, status: job.status, device_title: device.title } } };
}

export function registerPrinting(registry: OperationRegistry): void {
  registerDeclared<{ device_id: number; order_no: string }>(registry, deviceManualPrint, manualPrint);
}

/**
 * POST FEIE_CALLBACK_PATH: Feie's report that a print came out, a form {orderId, status, stime, sign} signed with
 * Feie's key (FEIE_CALLBACK_PUBLIC_KEY). A report verified marks the sent job of that Feie order printed, once
 * (print.check would find the same later); a forged one, or one while no key is set, is refused. Feie is answered
 * SUCCESS for every report it need not send again.
 */
export function registerPrintCallbackRoutes(app: FastifyInstance, services: AppServices): void {
  void app.register(async (scope) => {
    scope.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string", bodyLimit: 2048 }, (_request, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    scope.post(FEIE_CALLBACK_PATH, async (request, reply) => {
      const key = services.printerClouds?.feieCallbackPublicKey;
      const fields = typeof request.body === "object" && request.body !== null ? (request.body as Record<string, unknown>) : {};
      let report;
      try {
        if (!key) throw new PrinterError("auth", "no Feie callback public key is configured");
        report = printerDriver("feie", { feie: { callbackPublicKey: key } }).verifyCallback!(fields);
      } catch (err) {
        if (!(err instanceof PrinterError)) throw err;
        request.log.warn({ printCallback: { vendor: "feie", refused: err.message } }, "print callback refused");
        return reply.status(400).type("text/plain").send("FAIL");
      }
      if (report.printed) {
        const now = services.clock.now();
        const printed = await services.db
          .update(printJobs)
          .set({ status: "printed", printed_at: now })
          .where(and(eq(printJobs.provider_job_id, report.providerJobId), eq(printJobs.status, "sent"), inArray(printJobs.device_id, services.db.select({ id: devices.id }).from(devices).where(eq(devices.vendor, "feie")))))
          .returning({ id: printJobs.id });
        request.log.info({ printCallback: { vendor: "feie", providerJobId: report.providerJobId, jobs: printed.map((j) => j.id) } }, "print callback");
      }
      return reply.type("text/plain").send("SUCCESS");
    });
  });
}
