/**
 * Payment vouchers of fee orders (the print pages orderprints / orderprintsv2):
 *
 * - `orderprint` {id} or {ids: up to 100}: the voucher of each paid order: `receipt_no`, the school and the
 *   provider's voucher title line, the student, the class, the items (the order's lines), `amount`,
 *   `amount_in_words` (人民币大写), `paid_at`, `transaction_id`. `{id}` answers the voucher as `data.items`, `{ids}` the
 *   vouchers in the order asked. Each voucher carries its order's done refunds (`refunds`), printed as refund
 *   receipts after it.
 * - `orderprintpdf`, the same payload: the vouchers as a PDF file, one A5 page each (answered as an export is).
 *
 * Both for exactly the roles that read orders, within the caller's tenant as `orderinfo` is (an order outside it
 * answers not found); an order never paid (open, or closed unpaid) is refused naming its number. Each call is
 * audited per school, with the vouchers' numbers.
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { refundReceiptRows, type RefundReceipt, type Voucher } from "../../../common/voucher";
import { ORDER_READERS, orderEntity, PAID_ORDER_STATES } from "../../../catalogue/collectionOrders";
import { classesEntity, gradeEntity } from "../../../catalogue/schools";
import { amountInWords } from "../../../common/amountInWords";
import { fenToYuan } from "../../../common/money";
import { businessTime } from "../../../common/term";
import { auditCall } from "../../auth/audit";
import { resolveScope } from "../../auth/scope";
import { classes, feeOrderLines, feeOrders, refunds, grades, schools, students } from "../../db/schema";
import { entityTenantConditions } from "../../engine/crud";
import { recordTitleSql } from "../../engine/references";
import type { Translate } from "../../lib/i18n";
import { ApiFailure, notFound } from "../../protocol/envelope";
import type { OperationContext, OperationRegistry } from "../../protocol/registry";
import { collectionSettings } from "../fees";
import { A5_HEIGHT, A5_WIDTH, PdfPage, pdfDocument } from "./voucherPdf";

/** the most vouchers one call prints: a class's selection, a page of the list */
export const MAX_VOUCHERS = 100;

const ID = z.union([z.number().int().positive().max(2_147_483_647), z.string().regex(/^\d{1,10}$/).transform(Number)]);

export const voucherPayload = z
  .object({ id: ID.optional(), ids: z.array(ID).min(1).max(MAX_VOUCHERS).optional() })
  .superRefine((value, issues) => {
    if (value.id === undefined && value.ids === undefined) issues.addIssue({ code: "custom", path: ["id"], message: "an order id, or ids" });
  });


/** The vouchers of these orders in the caller's tenant, in the order asked; FAIL for any missing or unpaid one. */
async function readVouchers(ctx: OperationContext, ids: readonly number[]): Promise<{ vouchers: Voucher[]; schools: Map<number, { sysid: number; receiptNos: string[] }> }> {
  const scope = await resolveScope(ctx.db, ctx.auth!, ctx.payload);
  const rows = await ctx.db
    .select({
      id: feeOrders.id,
      sysid: feeOrders.sysid,
      sch_id: feeOrders.sch_id,
      order_no: feeOrders.order_no,
      receipt_no: feeOrders.receipt_no,
      status: feeOrders.status,
      amount: feeOrders.amount,
      refunded_amount: feeOrders.refunded_amount,
      paid_at: feeOrders.paid_at,
      transaction_id: feeOrders.transaction_id,
      gateway: feeOrders.gateway,
      duplicate: feeOrders.duplicate,
      school: schools.title,
      student: students.name,
      student_no: students.student_no,
      class: sql<string>`${recordTitleSql(classesEntity, classes, { entity: gradeEntity, table: grades })}`,
    })
    .from(feeOrders)
    .innerJoin(schools, eq(schools.id, feeOrders.sch_id))
    .innerJoin(students, eq(students.id, feeOrders.student_id))
    .innerJoin(classes, eq(classes.id, feeOrders.class_id))
    .leftJoin(grades, eq(grades.id, classes.grade_id))
    .where(and(inArray(feeOrders.id, [...ids]), ...entityTenantConditions(orderEntity, feeOrders, ctx, scope)));
  const byId = new Map(rows.map((row) => [row.id, row]));
  // one outside the caller's tenant is no order at all, whatever else was asked
  if (ids.some((id) => !byId.has(id))) throw notFound();
  const unpaid = rows.find((row) => !(PAID_ORDER_STATES as readonly string[]).includes(row.status) || !row.paid_at || !row.receipt_no);
  if (unpaid) throw new ApiFailure("collection.voucher.not_paid", { order_no: unpaid.order_no });

  const lines = await ctx.db
    .select({ order_id: feeOrderLines.order_id, title: feeOrderLines.title, amount: feeOrderLines.amount })
    .from(feeOrderLines)
    .where(inArray(feeOrderLines.order_id, [...ids]))
    .orderBy(asc(feeOrderLines.order_id), asc(feeOrderLines.sort), asc(feeOrderLines.id));
  const doneRefunds = await ctx.db
    .select()
    .from(refunds)
    .where(and(inArray(refunds.order_id, [...ids]), eq(refunds.status, "success")))
    .orderBy(asc(refunds.order_id), asc(refunds.id));
  const receiptOf = (refund: (typeof doneRefunds)[number]): RefundReceipt => ({
    refund_no: refund.refund_no ?? "",
    amount: fenToYuan(refund.amount),
    amount_in_words: amountInWords(refund.amount),
    reason: refund.reason,
    success_time: (refund.success_time ?? refund.created_at).toISOString(),
    user_received_account: refund.user_received_account ?? "",
    refund_id: refund.refund_id ?? "",
  });
  const titles = new Map<number, string>();
  for (const sysid of new Set(rows.map((row) => row.sysid))) titles.set(sysid, (await collectionSettings(ctx.db, sysid)).voucherTitle);

  const perSchool = new Map<number, { sysid: number; receiptNos: string[] }>();
  const vouchers = ids.map((id): Voucher => {
    const row = byId.get(id)!;
    const school = perSchool.get(row.sch_id) ?? { sysid: row.sysid, receiptNos: [] };
    school.receiptNos.push(row.receipt_no!);
    perSchool.set(row.sch_id, school);
    return {
      id: row.id,
      receipt_no: row.receipt_no!,
      order_no: row.order_no,
      school: row.school,
      voucher_title: titles.get(row.sysid) ?? "",
      student: row.student,
      student_no: row.student_no,
      class: row.class ?? "",
      items: lines.filter((line) => line.order_id === id).map((line) => ({ title: line.title, amount: fenToYuan(Number(line.amount)) })),
      amount: fenToYuan(row.amount),
      amount_in_words: amountInWords(row.amount),
      paid_at: row.paid_at!.toISOString(),
      transaction_id: row.transaction_id ?? "",
      gateway: row.gateway,
      status: row.status,
      refunded_amount: fenToYuan(row.refunded_amount ?? 0),
      duplicate: row.duplicate,
      refunds: doneRefunds.filter((refund) => refund.order_id === id).map(receiptOf),
    };
  });
  return { vouchers, schools: perSchool };
}

/** The orders a payload names, each once, in the order given. */
function orderIds(payload: z.infer<typeof voucherPayload>): number[] {
  return [...new Set(payload.ids ?? [payload.id!])];
}

async function auditPrint(ctx: OperationContext, action: string, schools: Map<number, { sysid: number; receiptNos: string[] }>, ids: readonly number[]): Promise<void> {
  for (const [schId, school] of schools) {
    await auditCall(ctx.db, ctx, {
      action,
      entity: orderEntity.name,
      entityId: ids.join(",").slice(0, 200),
      detail: { receipt_nos: school.receiptNos },
      sysid: school.sysid,
      schId,
    });
  }
}

/** a sheet's margins on the A5 page */
const SHEET_LEFT = 32;
const SHEET_RIGHT = A5_WIDTH - 32;
const SHEET_WIDTH = SHEET_RIGHT - SHEET_LEFT;

/** A sheet's head: the school, the sheet's title, its number on the left and its time on the right; answers where the rest starts. */
function sheetHead(page: PdfPage, school: string, title: string, number: string, time: string): number {
  let y = A5_HEIGHT - 56;
  page.text(school, A5_WIDTH / 2, y, 17, { align: "center", maxWidth: SHEET_WIDTH });
  y -= 24;
  page.text(title, A5_WIDTH / 2, y, 12.5, { align: "center", maxWidth: SHEET_WIDTH });
  y -= 26;
  page.text(number, SHEET_LEFT, y, 9.5);
  page.text(time, SHEET_RIGHT, y, 9.5, { align: "right" });
  return y;
}

/** A sheet's foot, under `y`: the payee's stamp and who handled it, and the sheet's note at the page's bottom. */
function sheetFoot(page: PdfPage, y: number, school: string, label: (key: string) => string, note: string): void {
  page.text(`${label("payee")}: ${school}`, SHEET_LEFT, y - 40, 10, { maxWidth: SHEET_WIDTH * 0.62 });
  page.text(`${label("handled_by")}:`, SHEET_LEFT + SHEET_WIDTH * 0.68, y - 40, 10);
  page.text(note, A5_WIDTH / 2, 36, 8, { align: "center", grey: true, maxWidth: SHEET_WIDTH });
}

/** One voucher on an A5 page: the school as header, the title line, the number and date, the table, the signatures. */
function voucherPage(v: Voucher, t: Translate): PdfPage {
  const page = new PdfPage();
  const [left, right, width] = [SHEET_LEFT, SHEET_RIGHT, SHEET_WIDTH];
  const label = (key: string) => t(`collection.voucher.${key}`);
  let y = sheetHead(page, v.school, v.voucher_title || label("title"), `${label("receipt_no")}: ${v.receipt_no}`, `${label("paid_at")}: ${businessTime(new Date(v.paid_at))}`);

  // the table: student and class, the items with their amounts, the total in figures and in words
  const row = 20;
  const split = left + width * 0.68;
  const top = y - 8;
  y = top;
  const cell = (text: string, x: number, size = 10, options: { align?: "left" | "right"; maxWidth?: number } = {}) => page.text(text, x, y - 14, size, options);
  const rule = () => page.line(left, y, right, y, 0.5);
  cell(`${label("student")}: ${v.student}${v.student_no ? ` (${v.student_no})` : ""}`, left + 6, 10, { maxWidth: width * 0.55 });
  cell(`${label("class")}: ${v.class}`, left + width * 0.58, 10, { maxWidth: width * 0.4 });
  y -= row;
  rule();
  cell(label("items"), left + 6, 9.5);
  cell(label("item_amount"), right - 6, 9.5, { align: "right" });
  y -= row;
  rule();
  const itemRow = v.items.length > 12 ? Math.max(11, (row * 12) / v.items.length) : row;
  for (const item of v.items) {
    page.text(item.title, left + 6, y - itemRow + 6, Math.min(10, itemRow - 3), { maxWidth: split - left - 12 });
    page.text(item.amount, right - 6, y - itemRow + 6, Math.min(10, itemRow - 3), { align: "right" });
    y -= itemRow;
  }
  rule();
  cell(label("amount"), left + 6, 10);
  cell(v.amount, right - 6, 11, { align: "right" });
  y -= row;
  rule();
  cell(`${label("amount_in_words")}: ${v.amount_in_words}`, left + 6, 10.5, { maxWidth: width - 12 });
  y -= row + 2;
  page.rect(left, y, width, top - y);
  page.line(split, top - row, split, y + row * 2 + 2, 0.5);

  y -= 22;
  page.text(`${label("transaction_id")}: ${v.transaction_id}`, left, y, 8.5, { maxWidth: width });
  y -= 15;
  page.text(`${label("order_no")}: ${v.order_no}`, left, y, 8.5, { maxWidth: width });
  if (v.status !== "paid") {
    y -= 15;
    page.text(`${label("refunded")}: ${v.refunded_amount}`, left, y, 8.5);
  }
  if (v.duplicate === "Y") {
    y -= 15;
    page.text(label("duplicate"), left, y, 8.5);
  }
  sheetFoot(page, y, v.school, label, label("note"));
  return page;
}

/** A done refund's receipt on an A5 page: the school, the refund's number and time, its payment, amount and reason. */
function refundPage(v: Voucher, r: RefundReceipt, t: Translate): PdfPage {
  const page = new PdfPage();
  const label = (key: string) => t(`collection.voucher.${key}`);
  let y = sheetHead(page, v.school, label("refund_title"), `${label("refund_no")}: ${r.refund_no}`, `${label("refunded_at")}: ${businessTime(new Date(r.success_time))}`);
  const row = 22;
  const top = y - 8;
  y = top;
  for (const fact of refundReceiptRows(v, r, { label, time: (iso) => businessTime(new Date(iso)) })) {
    page.text(fact.label, SHEET_LEFT + 6, y - 15, 10, { maxWidth: SHEET_WIDTH * 0.3 });
    page.text(fact.value, SHEET_LEFT + SHEET_WIDTH * 0.34, y - 15, 10, { maxWidth: SHEET_WIDTH * 0.64 });
    y -= row;
    page.line(SHEET_LEFT, y, SHEET_RIGHT, y, 0.5);
  }
  page.rect(SHEET_LEFT, y, SHEET_WIDTH, top - y);
  page.line(SHEET_LEFT + SHEET_WIDTH * 0.32, top, SHEET_LEFT + SHEET_WIDTH * 0.32, y, 0.5);
  y -= 22;
  page.text(`${label("refund_id")}: ${r.refund_id}`, SHEET_LEFT, y, 8.5, { maxWidth: SHEET_WIDTH });
  y -= 15;
  page.text(`${label("order_no")}: ${v.order_no}`, SHEET_LEFT, y, 8.5, { maxWidth: SHEET_WIDTH });
  sheetFoot(page, y, v.school, label, label("refund_note"));
  return page;
}

export function vouchersPdf(vouchers: readonly Voucher[], t: Translate): Buffer {
  return pdfDocument(
    vouchers.flatMap((v) => [voucherPage(v, t), ...v.refunds.map((r) => refundPage(v, r, t))]),
    vouchers.length === 1 ? `${t("collection.voucher.title")} ${vouchers[0].receipt_no}` : t("collection.voucher.title"),
  );
}

/** `orderprint` answers the vouchers, `orderprintpdf` the same as a PDF: one read, one audit entry per call. */
export function registerVoucherOperations(registry: OperationRegistry): void {
  const answers: Record<string, (vouchers: Voucher[], ctx: OperationContext, several: boolean) => Record<string, unknown>> = {
    orderprint: (vouchers, _ctx, several) => (several ? { items: vouchers, total: vouchers.length } : { items: vouchers[0] }),
    orderprintpdf: (vouchers, ctx) => {
      const content = vouchersPdf(vouchers, ctx.t);
      const filename = vouchers.length === 1 ? `voucher-${vouchers[0].receipt_no}.pdf` : `vouchers-${vouchers.length}.pdf`;
      return { items: { filename, mime: "application/pdf", content_base64: content.toString("base64") } };
    },
  };
  for (const [method, answer] of Object.entries(answers)) {
    registry.add({
      path: "adminapiv2",
      method,
      needsToken: true,
      roles: ORDER_READERS,
      effect: "read",
      schema: voucherPayload,
      async handler(ctx, payload) {
        const ids = orderIds(payload);
        const { vouchers, schools: printed } = await readVouchers(ctx, ids);
        await auditPrint(ctx, method, printed, ids);
        return { data: answer(vouchers, ctx, payload.ids !== undefined) };
      },
    });
  }
}
