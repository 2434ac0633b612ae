/**
 * Reconciliation (catalogue/reconciliation.ts): a channel's day, its trade bill against our orders and refunds.
 *
 * The bill is fetched into a temporary file (WeChat Pay's tradebill for the channel's sub_mchid, its SHA1 checked;
 * the sandbox's own), read by its header's names (server/payments/tradeBill.ts) and matched by number: a payment row
 * by its pay_no against the payment orders, a refund row by its refund_no against the refunds, the two sides'
 * amounts and states compared; our payments and refunds of that day that the bill does not have are listed too. The
 * batch and its items are written in one transaction that replaces the day's earlier batch. The bill is fetched and
 * read through before it (no transaction waits on the gateway), then read again from its file a thousand lines at a
 * time as they are matched: no bill is ever held whole, so a bill of any length takes the memory of a thousand
 * lines (and the numbers it named, to find ours it did not have). The file is removed when the day is done.
 *
 * `reconresolve` applies a difference's guided fix, asking the gateway first: a payment it reports paid is applied
 * as its lost notification would have been, a refund is synchronised as the refund job does. Other differences
 * are marked checked with a note. The job `recon.daily` reconciles each channel's yesterday once its bill exists.
 * Each reconciled day is settled (./settlements.ts) in the same transaction. Our payments and refunds of a channel's
 * day are those settlement reads (./channelDay.ts): every kind paid to the school's channel, fees and the shop's
 * orders alike.
 */
import { createReadStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { and, asc, eq, gt, inArray, sql } from "drizzle-orm";
import { reconEntity, reconItemEntity, reconResolve, reconRun, RECON_DIFFERENCES, RECON_MAX_DAYS_BACK } from "../../../catalogue/reconciliation";
import { paychnlEntity } from "../../../catalogue/fees";
import { addDays, businessDay, businessDayStart, businessTime } from "../../../common/term";
import { auditCall } from "../../auth/audit";
import type { DbOrTx } from "../../db/client";
import { refunds, paymentChannels, paymentOrders, reconBatches, reconItems } from "../../db/schema";
import { actionFieldFailure } from "../../engine/actions";
import { entityTenantConditions, serialiseRow, wrongState } from "../../engine/crud";
import { checkPayload } from "../../engine/declared";
import type { Row } from "../../engine/hooks";
import { applyGatewayTrade } from "../../jobs/closeExpiredOrders";
import { PaymentMismatchError } from "../../payments/apply";
import type { JobContext, JobServices } from "../../jobs/registry";
import { ApiFailure, notFound } from "../../protocol/envelope";
import type { OperationContext, OperationRegistry } from "../../protocol/registry";
import { GatewayRequestError, GatewayVerificationError, NO_STATEMENT_EXIST, type PaymentGateway } from "../../payments/gateway";
import { loadMerchant, wechatPayGatewayOf } from "../../payments/merchants";
import { SandboxGateway } from "../../payments/sandbox";
import { readTradeBillStream, TradeBillFormatError, type TradeBillLine, type TradeBillSummary } from "../../payments/tradeBill";
import { parseTenantId, resolveScope } from "../../auth/scope";
import { collectGarbage } from "../../lib/heap";
import { syncRefund } from "../../payments/refunds";
import { dayPayments, dayRefunds } from "./channelDay";
import { settleDay, settleOpenDays } from "./settlements";

export const RECON_DAILY = "recon.daily";
export const RECON_DAILY_EVERY_SECONDS = 3600;
/** WeChat Pay makes a day's bill from 09:00 the next day: the daily run asks after 10:00, China time */
const BILL_READY_HOUR = 10;
/** lines of a bill matched together: their records read by one statement per kind, their items written by one */
const ITEM_CHUNK = 1000;
/**
 * Chunks matched between two full collections of the heap. A chunk's lines, records and statement are garbage once
 * it is written, but they come so fast that V8 lets its heap grow by a hundred megabytes and more before it
 * collects (a 100,000-line bill took the embedded database's server past 600 MB): a collection now and then, a few
 * tens of milliseconds each, keeps the memory of a bill of any length bounded.
 */
const COLLECT_EVERY_CHUNKS = 10;

type Channel = typeof paymentChannels.$inferSelect;
type Batch = typeof reconBatches.$inferSelect;
/** an item as matching makes it: the batch, its channel, day and tenant are added when it is written */
type Item = Omit<typeof reconItems.$inferInsert, "batch_id" | "paychnl_id" | "bill_date" | "sysid">;

/** The gateway that holds a channel's bills: the sandbox, or the platform's WeChat Pay merchant as its service provider. */
async function billGateway(services: JobServices, channel: Channel): Promise<PaymentGateway> {
  if (channel.gateway === "sandbox") return new SandboxGateway(services.db, services.clock, services.publicUrl ?? "");
  const merchant = await loadMerchant(services.db, null, "wechatpay");
  if (!merchant) throw new GatewayRequestError("no WeChat Pay merchant is configured", 0);
  return wechatPayGatewayOf(services, merchant);
}

/** A bill fetched into its file and read through once: the file, read again while it is matched, and what it adds up to. */
interface CheckedBill {
  /** null: a day without trade, an empty bill */
  file: string | null;
  summary: TradeBillSummary;
  lines: number;
  /** the rows' own sums, which the summary must state */
  settlementFen: number;
  refundFen: number;
  feeFen: number;
}

/** A bill's file as it is read: its bytes a piece at a time. */
function billChunks(file: string): AsyncIterable<Uint8Array> {
  return createReadStream(file, { highWaterMark: BILL_READ_BYTES });
}
/** bytes of a bill's file read at a time */
const BILL_READ_BYTES = 64 * 1024;

/** Reads a bill's file through, holding none of its lines, and answers what it adds up to; throws as readTradeBillStream does. */
async function checkBill(file: string): Promise<CheckedBill> {
  const bill: CheckedBill = { file, summary: EMPTY_SUMMARY, lines: 0, settlementFen: 0, refundFen: 0, feeFen: 0 };
  const reading = readTradeBillStream(billChunks(file));
  for (let next = await reading.next(); ; next = await reading.next()) {
    if (next.done) return { ...bill, summary: next.value };
    bill.lines++;
    bill.settlementFen += next.value.settlementFen;
    bill.refundFen += next.value.refundFen;
    bill.feeFen += next.value.feeFen;
  }
}

const EMPTY_SUMMARY: TradeBillSummary = { count: 0, settlementFen: 0, refundFen: 0, feeFen: 0, orderFen: 0 };

/** The day's bill, fetched into the file, or why there is none: a day without trade is an empty bill, anything else a failure. */
async function fetchBill(services: JobServices, channel: Channel, billDate: string, file: string): Promise<CheckedBill | { error: string }> {
  try {
    const gateway = await billGateway(services, channel);
    await gateway.tradeBill(billDate, file, { subMchid: channel.sub_mchid ?? "" });
    return await checkBill(file);
  } catch (err) {
    if (err instanceof GatewayRequestError && err.code === NO_STATEMENT_EXIST) return { file: null, summary: EMPTY_SUMMARY, lines: 0, settlementFen: 0, refundFen: 0, feeFen: 0 };
    if (err instanceof GatewayRequestError || err instanceof GatewayVerificationError || err instanceof TradeBillFormatError) return { error: err.message.slice(0, 200) };
    throw err;
  }
}

interface LocalPayment {
  payNo: string;
  amount: number;
  status: string;
  schId: number | null;
  merchantId: string;
}

interface LocalRefund {
  refundNo: string;
  payNo: string;
  amount: number;
  status: string;
  schId: number;
}

const localPaymentColumns = { payNo: paymentOrders.payNo, amount: paymentOrders.totalFeeFen, status: paymentOrders.status, schId: paymentOrders.schId, merchantId: paymentOrders.merchantId };
const localRefundColumns = { refundNo: refunds.refund_no, payNo: refunds.pay_no, amount: refunds.amount, status: refunds.status, schId: refunds.sch_id };

/** Our payment orders and refunds of the numbers some lines of the bill name, whatever their day (a payment at midnight, a refund taken late). */
async function localOf(tx: DbOrTx, lines: readonly TradeBillLine[]) {
  const payNos = [...new Set(lines.filter((l) => l.tradeState !== "REFUND").map((l) => l.payNo))];
  const refundNos = [...new Set(lines.filter((l) => l.tradeState === "REFUND").map((l) => l.refundNo))];
  const payments = payNos.length ? ((await tx.select(localPaymentColumns).from(paymentOrders).where(inArray(paymentOrders.payNo, payNos))) as LocalPayment[]) : [];
  const localRefunds = refundNos.length ? ((await tx.select(localRefundColumns).from(refunds).where(inArray(refunds.refund_no, refundNos))) as LocalRefund[]) : [];
  return { payments: new Map(payments.map((p) => [p.payNo, p])), refunds: new Map(localRefunds.map((r) => [r.refundNo, r])) };
}

/** A payment row of the bill against our payment order of its number. */
function matchPayment(line: TradeBillLine, local: LocalPayment | undefined, merchant: string): Item {
  const item = { kind: "payment", pay_no: line.payNo.slice(0, 32), bill_amount: line.orderFen, bill_state: line.tradeState.slice(0, 32), fee: line.feeFen, trade_time: line.tradeTime.slice(0, 19) };
  if (!local || local.merchantId !== merchant) return { ...item, outcome: "missing_local", status: "open" };
  const known = { ...item, local_amount: local.amount, local_state: local.status, sch_id: local.schId };
  if (local.amount !== line.orderFen) return { ...known, outcome: "amount_mismatch", status: "open" };
  if (local.status !== "SUCCESS") return { ...known, outcome: "status_mismatch", status: "open" };
  return { ...known, outcome: "matched", status: "ok" };
}

/** the refund states of ours that the gateway's SUCCESS finishes */
const UNFINISHED_REFUNDS = new Set(["processing", "abnormal"]);

/** A refund row of the bill against our refund of its number. Its state in the bill is a snapshot: only a success says more than ours. */
function matchRefund(line: TradeBillLine, local: LocalRefund | undefined): Item {
  const item = { kind: "refund", pay_no: line.payNo.slice(0, 32), refund_no: line.refundNo.slice(0, 64), bill_amount: line.refundFen, bill_state: line.refundState.slice(0, 32), fee: line.feeFen, trade_time: line.tradeTime.slice(0, 19) };
  if (!local) return { ...item, outcome: "missing_local", status: "open" };
  const known = { ...item, local_amount: local.amount, local_state: local.status, sch_id: local.schId };
  if (local.amount !== line.refundFen) return { ...known, outcome: "amount_mismatch", status: "open" };
  if (line.refundState === "SUCCESS" && UNFINISHED_REFUNDS.has(local.status)) return { ...known, outcome: "status_mismatch", status: "open" };
  return { ...known, outcome: "matched", status: "ok" };
}

/** A batch's figures before anything is matched, and those of a bill that could not be had (with its error). */
const NO_FIGURES = { matched: 0, missing_local: 0, missing_gateway: 0, amount_mismatch: 0, status_mismatch: 0, open_items: 0, summary_ok: "Y", bill_count: 0, bill_paid: 0, bill_refund: 0, bill_fee: 0, local_count: 0, local_paid: 0, local_refund: 0, error: null };

/**
 * Writes the batch's items: each line of the bill matched against our record of its number, a thousand lines at a
 * time (their records read together, their items written by one statement), then our payments and refunds of the
 * day that the bill does not have. Answers the count of each outcome. Only a thousand lines are held at once, so a
 * bill of any length takes the same memory.
 */
async function writeItems(tx: DbOrTx, batch: Batch, channel: Channel, billDate: string, bill: CheckedBill): Promise<Record<string, number>> {
  const merchant = channel.sub_mchid ?? "";
  const counts: Record<string, number> = { matched: 0, missing_local: 0, missing_gateway: 0, amount_mismatch: 0, status_mismatch: 0 };
  const owner = { batch_id: batch.id, paychnl_id: channel.id, bill_date: billDate, sysid: channel.sysid };
  // the numbers the bill named, to find ours it did not (a few tens of bytes a line)
  const billed = { payments: new Set<string>(), refunds: new Set<string>() };
  let chunk: TradeBillLine[] = [];
  const writeChunk = async () => {
    const local = await localOf(tx, chunk);
    const items = chunk.map((line) => {
      let item: Item;
      if (line.tradeState === "REFUND") {
        billed.refunds.add(line.refundNo);
        item = matchRefund(line, local.refunds.get(line.refundNo));
      } else {
        billed.payments.add(line.payNo);
        item = matchPayment(line, local.payments.get(line.payNo), merchant);
      }
      counts[item.outcome]++;
      return item;
    });
    await tx.insert(reconItems).values(items.map((item) => ({ ...item, ...owner })));
    chunk = [];
    if (++chunks % COLLECT_EVERY_CHUNKS === 0) collectGarbage();
  };
  let chunks = 0;
  if (bill.file !== null) {
    // read again from the file, which checkBill has read through without a fault
    for await (const line of readTradeBillStream(billChunks(bill.file))) {
      chunk.push(line);
      if (chunk.length === ITEM_CHUNK) await writeChunk();
    }
    if (chunk.length) await writeChunk();
  }

  // ours, not in the bill: the day's payments and refunds, a thousand at a time, whose numbers no line named
  const { from, to } = dayOf(billDate);
  const missing = async (found: Item[]) => {
    counts.missing_gateway += found.length;
    if (found.length) await tx.insert(reconItems).values(found.map((item) => ({ ...item, ...owner })));
  };
  // in the order of the merchant's index of its payments by time (ties by id)
  for (let after = { paidAt: from, id: 0 }; ; ) {
    const page = await tx
      .select({ id: paymentOrders.id, paidAt: paymentOrders.paidAt, ...localPaymentColumns })
      .from(paymentOrders)
      .where(and(dayPayments(channel, after.paidAt, to), sql`(${paymentOrders.paidAt}, ${paymentOrders.id}) > (${after.paidAt}, ${after.id})`))
      .orderBy(asc(paymentOrders.paidAt), asc(paymentOrders.id))
      .limit(ITEM_CHUNK);
    if (page.length === 0) break;
    const last = page[page.length - 1];
    after = { paidAt: last.paidAt!, id: last.id };
    await missing(page.filter((p) => !billed.payments.has(p.payNo)).map((p) => ({ kind: "payment", pay_no: p.payNo, outcome: "missing_gateway", status: "open", local_amount: p.amount, local_state: p.status, sch_id: p.schId })));
  }
  for (let after = 0; ; ) {
    const page = await tx
      .select({ id: refunds.id, ...localRefundColumns })
      .from(refunds)
      .innerJoin(paymentOrders, eq(paymentOrders.payNo, refunds.pay_no))
      .where(and(dayRefunds(channel, from, to), gt(refunds.id, after)))
      .orderBy(asc(refunds.id))
      .limit(ITEM_CHUNK);
    if (page.length === 0) break;
    after = page[page.length - 1].id;
    await missing(
      page
        .filter((r) => r.refundNo && !billed.refunds.has(r.refundNo))
        .map((r) => ({ kind: "refund", pay_no: r.payNo, refund_no: r.refundNo, outcome: "missing_gateway", status: "open", local_amount: r.amount, local_state: r.status, sch_id: r.schId })),
    );
  }
  return counts;
}

/** A business day, China time, as the instants it runs between. */
function dayOf(billDate: string) {
  return { from: businessDayStart(billDate), to: businessDayStart(addDays(billDate, 1)) };
}

/** Our side's figures of the day: payments and refunds, counted and summed. */
async function localFigures(tx: DbOrTx, channel: Channel, billDate: string) {
  const { from, to } = dayOf(billDate);
  const figures = { n: sql<number>`count(*)::int`, fen: sql<string>`coalesce(sum(${paymentOrders.totalFeeFen}), 0)::text` };
  const [payments] = await tx.select(figures).from(paymentOrders).where(dayPayments(channel, from, to));
  const [refunded] = await tx
    .select({ ...figures, fen: sql<string>`coalesce(sum(${refunds.amount}), 0)::text` })
    .from(refunds)
    .innerJoin(paymentOrders, eq(paymentOrders.payNo, refunds.pay_no))
    .where(dayRefunds(channel, from, to));
  return { local_count: payments.n + refunded.n, local_paid: Number(payments.fen), local_refund: Number(refunded.fen) };
}

/** Matches a checked bill into a batch just made: its items written, its figures set. Answers the batch. */
async function matchDay(tx: DbOrTx, made: Batch, channel: Channel, billDate: string, bill: CheckedBill): Promise<Batch> {
  const counts = await writeItems(tx, made, channel, billDate, bill);
  const { summary } = bill;
  // the summary line against the bill's own rows: a bill cut short or altered does not add up
  const summaryOk = summary.count === bill.lines && summary.settlementFen === bill.settlementFen && summary.refundFen === bill.refundFen && summary.feeFen === bill.feeFen;
  const differences = RECON_DIFFERENCES.reduce((total, outcome) => total + counts[outcome], 0);
  const [batch] = await tx
    .update(reconBatches)
    .set({
      ...counts,
      open_items: differences,
      status: differences > 0 || !summaryOk ? "differences" : "balanced",
      summary_ok: summaryOk ? "Y" : "N",
      bill_count: summary.count,
      bill_paid: summary.settlementFen,
      bill_refund: summary.refundFen,
      bill_fee: summary.feeFen,
      ...(await localFigures(tx, channel, billDate)),
    })
    .where(eq(reconBatches.id, made.id))
    .returning();
  return batch;
}

/**
 * Reconciles a channel's day: fetches and checks its bill, then replaces the day's batch and items in one
 * transaction, matching the bill a thousand lines at a time. A bill that cannot be had (the gateway failing, a
 * digest or a format that is wrong) leaves a failed batch saying why, and no items.
 */
export async function reconcileDay(services: JobServices, channel: Channel, billDate: string, runBy: string, now: Date): Promise<Batch> {
  const directory = await mkdtemp(path.join(os.tmpdir(), "trade-bill-"));
  try {
    return await reconcileFetchedDay(services, channel, billDate, runBy, now, await fetchBill(services, channel, billDate, path.join(directory, "bill.csv")));
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

async function reconcileFetchedDay(services: JobServices, channel: Channel, billDate: string, runBy: string, now: Date, bill: CheckedBill | { error: string }): Promise<Batch> {
  return services.db.transaction(async (tx) => {
    const run = { run_by: runBy.slice(0, 50), run_at: now };
    const start = "error" in bill ? { ...NO_FIGURES, status: "failed", error: bill.error } : { ...NO_FIGURES, status: "differences" };
    // one batch a channel and day: made, or replaced with its items (its figures set once matched, in this transaction)
    const [made] = await tx
      .insert(reconBatches)
      .values({ paychnl_id: channel.id, bill_date: billDate, sysid: channel.sysid, ...start, ...run })
      .onConflictDoUpdate({ target: [reconBatches.paychnl_id, reconBatches.bill_date], set: { ...start, ...run } })
      .returning();
    await tx.delete(reconItems).where(eq(reconItems.batch_id, made.id));
    const batch = "error" in bill ? made : await matchDay(tx, made, channel, billDate, bill);
    // the day's settlement, with the bill's fees; settled when the bill and we agree
    await settleDay(tx, channel, billDate, batch.status === "balanced", now);
    return batch;
  });
}

/** A channel the caller may reconcile (its tenant's, in a state the action starts from), or a FAIL. */
async function callersChannel(ctx: OperationContext): Promise<Channel> {
  const id = parseTenantId(ctx.payload[reconRun.idField!]);
  if (id === undefined) throw notFound();
  const scope = await resolveScope(ctx.db, ctx.auth!, ctx.payload);
  const [channel] = await ctx.db
    .select()
    .from(paymentChannels)
    .where(and(eq(paymentChannels.id, id), ...entityTenantConditions(paychnlEntity, paymentChannels, ctx, scope)));
  if (!channel) throw notFound();
  if (!reconRun.from!.includes(channel.status)) throw wrongState(ctx, paychnlEntity, channel.status, reconRun.label);
  return channel;
}

/** reconrun {paychnl_id, bill_date}: the day reconciled now; answers the batch. */
async function reconRunOperation(ctx: OperationContext) {
  const channel = await callersChannel(ctx);
  const input = checkPayload(ctx, reconRun.fields ?? []);
  const billDate = String(input.bill_date);
  const today = businessDay(ctx.now);
  if (billDate > today) throw actionFieldFailure(ctx, "bill_date", "recon.validation.bill_date_future");
  if (billDate < addDays(today, -RECON_MAX_DAYS_BACK)) throw actionFieldFailure(ctx, "bill_date", "recon.validation.bill_date_old", { days: RECON_MAX_DAYS_BACK });
  const batch = await reconcileDay(ctx.services, channel, billDate, ctx.auth?.username ?? "", ctx.now);
  await auditCall(ctx.db, ctx, {
    action: reconRun.name,
    entity: paychnlEntity.name,
    entityId: String(channel.id),
    sysid: channel.sysid,
    schId: null,
    detail: { bill_date: billDate, status: batch.status, matched: batch.matched, differences: batch.open_items },
  });
  return {
    messageKey: batch.status === "failed" ? "recon.run_failed" : "recon.run_done",
    messageParams: { bill_date: billDate, matched: batch.matched, differences: batch.open_items, error: batch.error ?? "" },
    data: { items: serialiseRow(reconEntity, batch as unknown as Row) },
  };
}

/** The guided fix of a status difference: the gateway asked, and what it says applied. */
async function applyFix(ctx: OperationContext, item: typeof reconItems.$inferSelect): Promise<string> {
  if (item.kind === "payment") {
    const [order] = await ctx.db.select().from(paymentOrders).where(eq(paymentOrders.payNo, item.pay_no));
    if (!order) throw new ApiFailure("recon.fix_impossible");
    let outcome: Awaited<ReturnType<typeof applyGatewayTrade>>;
    try {
      outcome = await applyGatewayTrade(ctx.services, ctx.db, order);
    } catch (err) {
      // the gateway unreachable, or reporting a payment that is not this order's: said, nothing applied
      if (err instanceof GatewayRequestError || err instanceof GatewayVerificationError || err instanceof PaymentMismatchError) throw new ApiFailure("recon.fix_failed", { error: err.message.slice(0, 200) });
      throw err;
    }
    if (outcome !== "applied") throw new ApiFailure("recon.fix_not_paid");
    return "recon.resolved_payment";
  }
  const [refund] = await ctx.db.select({ id: refunds.id }).from(refunds).where(eq(refunds.refund_no, item.refund_no ?? ""));
  if (!refund) throw new ApiFailure("recon.fix_impossible");
  await syncRefund(ctx.services, ctx.db, refund.id, ctx.now);
  const [after] = await ctx.db.select({ status: refunds.status }).from(refunds).where(eq(refunds.id, refund.id));
  if (after && UNFINISHED_REFUNDS.has(after.status)) throw new ApiFailure("recon.fix_refund_open");
  return "recon.resolved_refund";
}

/**
 * reconresolve {id, note}: a status difference is mended by asking the gateway; any other difference needs the
 * note of what was done by hand. Then the item is resolved and its batch counts one difference fewer.
 */
async function reconResolveOperation(ctx: OperationContext) {
  const id = parseTenantId(ctx.payload.id);
  if (id === undefined) throw notFound();
  const scope = await resolveScope(ctx.db, ctx.auth!, ctx.payload);
  const tenant = entityTenantConditions(reconItemEntity, reconItems, ctx, scope);
  const [item] = await ctx.db.select().from(reconItems).where(and(eq(reconItems.id, id), ...tenant));
  if (!item) throw notFound();
  if (!reconResolve.from!.includes(item.status)) throw wrongState(ctx, reconItemEntity, item.status, reconResolve.label);
  const input = checkPayload(ctx, reconResolve.fields ?? []);
  const note = typeof input.note === "string" ? input.note : null;
  let messageKey = "recon.resolved_checked";
  if (item.outcome === "status_mismatch") messageKey = await applyFix(ctx, item);
  else if (!note) throw actionFieldFailure(ctx, "note", "recon.validation.note_required");

  const updated = await ctx.db.transaction(async (tx) => {
    const [held] = await tx.select().from(reconItems).where(eq(reconItems.id, id)).for("update");
    // resolved meanwhile by another call: said once
    if (held?.status !== "open") throw wrongState(ctx, reconItemEntity, held?.status, reconResolve.label);
    const [row] = await tx
      .update(reconItems)
      .set({ status: "resolved", note, resolved_by: ctx.auth?.username ?? null, resolved_at: ctx.now })
      .where(eq(reconItems.id, id))
      .returning();
    const [batch] = await tx
      .update(reconBatches)
      .set({
        open_items: sql`greatest(${reconBatches.open_items} - 1, 0)`,
        status: sql`case when ${reconBatches.open_items} <= 1 and ${reconBatches.summary_ok} = 'Y' then 'resolved' else ${reconBatches.status} end`,
      })
      .where(eq(reconBatches.id, item.batch_id))
      .returning();
    // a payment applied belongs to its day: the day is settled again, and settled for good once nothing is open
    const [channel] = await tx.select().from(paymentChannels).where(eq(paymentChannels.id, batch.paychnl_id));
    if (channel) await settleDay(tx, channel, batch.bill_date, batch.status === "resolved", ctx.now);
    await auditCall(tx, ctx, {
      action: reconResolve.name,
      entity: reconItemEntity.name,
      entityId: String(id),
      sysid: item.sysid,
      schId: item.sch_id,
      detail: { from: "open", to: "resolved", outcome: item.outcome, pay_no: item.pay_no, refund_no: item.refund_no, note },
    });
    return row;
  });
  return { messageKey, data: { items: serialiseRow(reconItemEntity, updated as unknown as Row) } };
}

/**
 * `recon.daily` (every hour): once yesterday's bills exist (10:00 China time), each channel that took payments is
 * reconciled for yesterday, unless it already is; a day that failed is tried again at the next run.
 */
export async function reconDailyJob({ services, db, now, log }: JobContext): Promise<{ reconciled: number; failed: number }> {
  const result = { reconciled: 0, failed: 0 };
  const channels = await db.select().from(paymentChannels).where(inArray(paymentChannels.status, ["approved", "disabled"])).orderBy(asc(paymentChannels.id));
  // today so far, and yesterday until it is reconciled: pending
  await settleOpenDays(db, now);
  if (Number(businessTime(now).slice(11, 13)) < BILL_READY_HOUR) return result;
  const day = addDays(businessDay(now), -1);
  const done = await db
    .select({ paychnl_id: reconBatches.paychnl_id })
    .from(reconBatches)
    .where(and(eq(reconBatches.bill_date, day), sql`${reconBatches.status} <> 'failed'`));
  const reconciled = new Set(done.map((b) => b.paychnl_id));
  for (const channel of channels) {
    if (reconciled.has(channel.id) || !channel.sub_mchid) continue;
    const batch = await reconcileDay(services, channel, day, "system", now);
    if (batch.status === "failed") {
      result.failed++;
      log.warn({ channel: channel.id, day, error: batch.error }, "a channel's trade bill could not be reconciled");
    } else result.reconciled++;
  }
  return result;
}

export function registerReconciliation(registry: OperationRegistry): void {
  registry.add({ path: "adminapiv2", method: reconRun.name, needsToken: true, roles: reconRun.roles, effect: "write", handler: reconRunOperation });
  registry.add({ path: "adminapiv2", method: reconResolve.name, needsToken: true, roles: reconResolve.roles, effect: "write", handler: reconResolveOperation });
}


