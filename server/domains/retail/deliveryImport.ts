/**
 * Tracking numbers imported from a spreadsheet, for every kind of order that carries goods (catalogue/fulfilment.ts):
 * shop orders (orderdeliveryimport, orderdeliverytemplate; the log orderdeliveryimportlog) and fee orders whose items
 * are goods (zdorderdeliveryimport, zdorderdeliverytemplate; zdorderdeliveryimportlog). Columns 订单号, 快递公司 (our
 * code or the company's name in any language), 快递单号 and 备注. A preview says what each row would do and writes
 * nothing; the import sends each row through the order's own deliver action (shoporderdeliver, zdorderdeliver: its
 * roles, tenant, state and field checks, its audit and timeline), one row at a time, so a row that fails leaves the
 * others. A row that repeats what is already stored (the same order sent with the same company and number) changes
 * nothing: importing a file twice is harmless. Every import is logged with its counts and failed rows, and answers
 * a result file naming each row's outcome.
 */
import { and, inArray } from "drizzle-orm";
import { z } from "zod";
import { EXPRESS_COMPANIES, expressNameKey, TRACKING_NO_PATTERN } from "../../../common/expressCompanies";
import { deliveryImportEntity } from "../../../catalogue/fulfilment";
import { GOODS_MANAGERS } from "../../../catalogue/goods";
import { auditCall } from "../../auth/audit";
import { resolveScope } from "../../auth/scope";
import type { CatalogueTable } from "../../db/catalogueTables";
import { deliveryImports } from "../../db/schema";
import { entityTenantConditions } from "../../engine/crud";
import { everyLanguage, importPayload, inImportSlot, MAX_LISTED_ERRORS, normalised, templateAnswer } from "../../engine/imports";
import { columnPlaces, outcomeCounts, resultFile, type SheetColumn } from "../../engine/rowImports";
import type { Translate } from "../../lib/i18n";
import { ApiFailure } from "../../protocol/envelope";
import type { OperationContext, OperationRegistry } from "../../protocol/registry";
import { FEE_ORDER_KIND, SHOP_KIND, type FulfilledKind, type FulfilledOrder } from "./fulfilment";

/** The import's operations for each kind of order. */
const OPERATIONS: readonly { kind: FulfilledKind; operation: string; template: string }[] = [
  { kind: SHOP_KIND, operation: "orderdeliveryimport", template: "orderdeliverytemplate" },
  { kind: FEE_ORDER_KIND, operation: "zdorderdeliveryimport", template: "zdorderdeliverytemplate" },
];

const PATH = "adminapiv2";
/** orders looked up per statement */
const LOOKUP_BATCH = 1000;
/** rows answered in the preview and the result (the result file holds all) */
const MAX_ANSWERED_ROWS = 500;

/** The columns of the sheet, by their label keys: found by their header in any language, in any order. */
type ColumnKey = "order_no" | "express" | "tracking_no" | "remark";
const COLUMNS: readonly SheetColumn<ColumnKey>[] = [
  { key: "order_no", label: "collection.field.order_no", required: true },
  { key: "express", label: "retail.field.express_company", required: true },
  { key: "tracking_no", label: "retail.field.tracking_no", required: true },
  { key: "remark", label: "retail.field.remark", required: false },
];

/** What a row does: sends its order, finds it sent already as the row says, or cannot (why in `message`). */
export type RowOutcome = "deliver" | "delivered" | "unchanged" | "failed";

export interface DeliveryRow {
  row: number;
  /** the order the row names, found in the caller's tenant (null: none) */
  order_id: number | null;
  order_no: string;
  express_code: string;
  tracking_no: string;
  remark: string;
  outcome: RowOutcome;
  message: string;
}

/** Every name a company is known by (our code, its names in each language), normalised, to our code. */
const companyByName: ReadonlyMap<string, string> = new Map(
  EXPRESS_COMPANIES.flatMap((c) => [c.code, c.kdniao, c.kuaidi100, ...everyLanguage(expressNameKey(c.code), c.code)].map((name) => [normalised(name), c.code] as const)),
);
const trackingNo = new RegExp(TRACKING_NO_PATTERN);

/**
 * Each row's outcome as things stand, written nowhere: the order looked up in the caller's tenant by its number,
 * the company and number checked, a row repeating an earlier one of the file or what is stored told apart.
 */
async function classify(ctx: OperationContext, kind: FulfilledKind, rows: { row: number; values: string[] }[]): Promise<DeliveryRow[]> {
  const t = ctx.t;
  const [header, ...data] = rows;
  if (!header) throw new ApiFailure("import.empty_file");
  const at = columnPlaces(t, COLUMNS, header.values, "retail.delivery_import.missing_column");
  const cell = (values: string[], key: ColumnKey) => (at[key] >= 0 ? (values[at[key]] ?? "").trim() : "");
  const scope = await resolveScope(ctx.db, ctx.auth!, ctx.payload);
  const numbers = [...new Set(data.map((r) => cell(r.values, "order_no")).filter(Boolean))];
  const orders = new Map<string, FulfilledOrder>();
  for (let i = 0; i < numbers.length; i += LOOKUP_BATCH) {
    const batch = numbers.slice(i, i + LOOKUP_BATCH);
    const found = await kind.select(ctx.db, (t) => and(inArray(t.order_no, batch), ...entityTenantConditions(kind.entity, t as unknown as CatalogueTable, ctx, scope)));
    for (const order of found) orders.set(order.order_no, order);
  }
  const earlier = new Map<string, DeliveryRow>();
  return data.map(({ row, values }) => {
    const orderNo = cell(values, "order_no");
    const company = cell(values, "express");
    const number = cell(values, "tracking_no").replace(/\s+/g, "");
    const code = companyByName.get(normalised(company)) ?? "";
    const order = orders.get(orderNo);
    const base = { row, order_id: order?.id ?? null, order_no: orderNo, express_code: code || company, tracking_no: number, remark: cell(values, "remark").slice(0, 200) };
    const failed = (key: string, params: Record<string, string | number> = {}): DeliveryRow => ({ ...base, outcome: "failed", message: t(key, params) });
    if (!orderNo) return failed("retail.delivery_import.no_order_no");
    if (!order) return failed("retail.delivery_import.unknown_order", { order_no: orderNo });
    if (!code) return failed("retail.delivery_import.unknown_company", { company });
    if (!trackingNo.test(number)) return failed("retail.errors.tracking_no");
    const same = order.express_code === code && order.tracking_no === number;
    const before = earlier.get(orderNo);
    if (before) {
      // a row repeating one that cannot be sent fails as it does
      if (before.outcome === "failed") return { ...base, outcome: "failed", message: before.message };
      if (before.express_code === code && before.tracking_no === number) return { ...base, outcome: "unchanged", message: t("retail.delivery_import.repeated", { row: before.row }) };
      return failed("retail.delivery_import.twice", { row: before.row });
    }
    // a fee order of fees alone carries nothing to send
    if (order.delivery === null) return failed("retail.delivery_import.no_goods");
    if (order.delivery !== "express") return failed("retail.delivery_import.pickup_order");
    const outcome: DeliveryRow =
      order.state === "delivered" || order.state === "completed"
        ? same
          ? { ...base, outcome: "unchanged", message: t("retail.delivery_import.already") }
          : failed("retail.delivery_import.sent_otherwise", { express: t(expressNameKey(order.express_code ?? "")), tracking_no: order.tracking_no ?? "" })
        : order.state === "undelivered"
          ? { ...base, outcome: "deliver", message: "" }
          : failed("retail.delivery_import.not_undelivered", { state: t(kind.stateLabel(order.state)) });
    earlier.set(orderNo, outcome);
    return outcome;
  });
}

/** Sends each row that would deliver through the kind's deliver action itself: a refusal there is the row's failure. */
async function deliverRows(ctx: OperationContext, registry: OperationRegistry, kind: FulfilledKind, rows: DeliveryRow[]): Promise<void> {
  const deliver = registry.get(PATH, kind.deliver.name)!;
  for (const row of rows) {
    if (row.outcome !== "deliver") continue;
    try {
      await deliver.handler({ ...ctx, payload: { ...ctx.payload, id: row.order_id, express_code: row.express_code, tracking_no: row.tracking_no } }, undefined);
      row.outcome = "delivered";
    } catch (err) {
      if (!(err instanceof ApiFailure)) throw err;
      row.outcome = "failed";
      row.message = ctx.t(err.messageKey, err.params);
    }
  }
}

const OUTCOMES: readonly RowOutcome[] = ["deliver", "delivered", "unchanged", "failed"];
const counts = (rows: DeliveryRow[]) => outcomeCounts(rows, OUTCOMES);

/** The result file: the rows as sent, each with its outcome and why. */
function deliveryResultFile(t: Translate, filename: string, rows: DeliveryRow[]) {
  const companyName = (code: string) => (EXPRESS_COMPANIES.some((c) => c.code === code) ? t(expressNameKey(code)) : code);
  return resultFile(filename, {
    sheetName: t("retail.delivery_import.result_sheet"),
    resultName: t("retail.delivery_import.result"),
    reasonName: t("retail.delivery_import.reason"),
    columns: [
      { header: t("collection.field.order_no"), key: "order_no", width: 26, text: true },
      { header: t("retail.field.express_company"), key: "express", width: 16 },
      { header: t("retail.field.tracking_no"), key: "tracking_no", width: 24, text: true },
      { header: t("retail.field.remark"), key: "remark", width: 20 },
    ],
    rows: rows.map((row) => ({ ...row, express: companyName(row.express_code), outcome: t(`retail.delivery_import.outcome.${row.outcome}`) })),
  });
}

/** orderdeliveryimport, zdorderdeliveryimport {filename, content_base64, preview?}: the preview, or the import with its log and result file. */
async function importDeliveries(ctx: OperationContext, registry: OperationRegistry, kind: FulfilledKind, operation: string, input: z.infer<typeof importPayload>) {
  const filename = ((input.filename ?? "").split(/[\\/]/).pop()?.trim() || "deliveries.xlsx").slice(0, 255);
  return inImportSlot(ctx.t, input.content_base64, async (sheet) => {
    const rows = await classify(ctx, kind, sheet);
    if (rows.length === 0) throw new ApiFailure("import.empty_file");
    if (input.preview) {
      const c = counts(rows);
      return { messageKey: "retail.delivery_import.previewed", messageParams: c, data: { items: { preview: true, ...c, rows: rows.slice(0, MAX_ANSWERED_ROWS) } } };
    }
    await deliverRows(ctx, registry, kind, rows);
    const c = counts(rows);
    const failedRows = rows.filter((r) => r.outcome === "failed");
    const [log] = await ctx.db
      .insert(deliveryImports)
      .values({
        kind: kind.kind,
        sysid: (await resolveScope(ctx.db, ctx.auth!, ctx.payload)).sysid!,
        filename,
        username: ctx.auth!.username,
        created_at: ctx.now,
        total: c.total,
        delivered: c.delivered,
        unchanged: c.unchanged,
        failed: c.failed,
        errors: JSON.stringify(failedRows.slice(0, MAX_LISTED_ERRORS).map((r) => ({ row: r.row, order_no: r.order_no, message: r.message }))),
      })
      .returning({ id: deliveryImports.id, sysid: deliveryImports.sysid });
    await auditCall(ctx.db, ctx, {
      action: operation,
      entity: deliveryImportEntity.name,
      entityId: String(log.id),
      sysid: log.sysid,
      schId: null,
      detail: { filename, ...c },
    });
    return {
      messageKey: "retail.delivery_import.done",
      messageParams: c,
      data: { items: { preview: false, log_id: log.id, ...c, rows: rows.slice(0, MAX_ANSWERED_ROWS), file: await deliveryResultFile(ctx.t, filename, rows) } },
    };
  });
}

/** orderdeliverytemplate, zdorderdeliverytemplate: the sheet to fill in, its headers in the caller's language. */
async function template(ctx: OperationContext) {
  return templateAnswer(
    `${ctx.t("retail.delivery_import.template")}.xlsx`,
    ctx.t("retail.delivery_import.template"),
    COLUMNS.map((c) => ({ header: ctx.t(c.label), text: c.key !== "express", note: c.key === "express" ? ctx.t("retail.delivery_import.express_note") : undefined })),
  );
}

export function registerDeliveryImport(registry: OperationRegistry): void {
  for (const { kind, operation, template: templateOperation } of OPERATIONS) {
    registry.add({ path: PATH, method: templateOperation, needsToken: true, roles: GOODS_MANAGERS, effect: "read", handler: template });
    registry.add({ path: PATH, method: operation, needsToken: true, roles: GOODS_MANAGERS, effect: "write", schema: importPayload, handler: (ctx, input) => importDeliveries(ctx, registry, kind, operation, input) });
  }
}
