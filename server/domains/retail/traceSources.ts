/**
 * Trace-source codes (catalogue/traceSources.ts, tracesourcelist), beyond the engine's list/info/add/edit and void:
 * - a code keeps its SKU's specs (copied on every save: the garment's size is printed on it);
 * - tracesourceimport {filename, content_base64, preview?, sku_id?, batch_no?, manufacturer?, standard?, fabric?,
 *   report_url?}: an .xlsx of codes, one a row, each with its SKU (the SKU chosen for the file, or the row's SKU
 *   barcode or id) and its batch's facts (the row's, else those given for the file). A preview says what each row
 *   would do and writes nothing; the import adds the rows that can be added, one statement per chunk that skips a
 *   code added meanwhile; a row repeating what is stored (the same code, SKU and batch) is unchanged, so a file
 *   imported twice adds nothing twice; every other row says why not. Answered with the counts, each row and a
 *   result file; audited;
 * - tracesourcebind {code, order_item_id}, a declared action of the code found by its value (its effect here): at
 *   packing or at pickup, the garment's code bound to the item of a paid shop order of the caller's provider, free ->
 *   bound, of the item's SKU; the item's order locked meanwhile, so that no item holds more codes than its quantity;
 * - h5tracesource {code, trace_code} on the payer API, without a session: the garment's public facts (goods, specs,
 *   batch, maker, standard, fabric, report), looked up within the provider of the school's payer-page code; nothing
 *   of the order or the student.
 */
import { and, asc, eq, inArray, or, sql } from "drizzle-orm";
import { z } from "zod";
import { GOODS_MANAGERS } from "../../../catalogue/goods";
import { shopOrderEntity } from "../../../catalogue/shopOrders";
import { REPORT_URL_PATTERN, TRACE_CODE_MAX, TRACE_CODE_PATTERN, traceBatchFields, traceSourceBind, traceSourceEntity } from "../../../catalogue/traceSources";
import { auditCall } from "../../auth/audit";
import { resolveScope, type Scope } from "../../auth/scope";
import type { DbOrTx } from "../../db/client";
import { goods, goodsSkus, traceSources } from "../../db/schema";
import { actionFieldFailure, type ActionEffect, type ActionEffects } from "../../engine/actions";
import type { EntityHooksByName, Row } from "../../engine/hooks";
import { importPayload, inImportSlot, templateAnswer } from "../../engine/imports";
import { columnPlaces, outcomeCounts, resultFile, type SheetColumn } from "../../engine/rowImports";
import type { Translate } from "../../lib/i18n";
import { ApiFailure } from "../../protocol/envelope";
import type { OperationContext, OperationRegistry } from "../../protocol/registry";
import { PAYER_API_PATH, qrCodeOf } from "../collection/payerApi";

const PATH = "adminapiv2";
/** rows written per statement */
const WRITE_BATCH = 500;
/** rows answered in the preview and the result (the result file holds all) */
const MAX_ANSWERED_ROWS = 500;

const codePattern = new RegExp(TRACE_CODE_PATTERN);
const reportUrlPattern = new RegExp(REPORT_URL_PATTERN);

function refused(t: Translate, field: string, key: string, params: Record<string, string | number> = {}): ApiFailure {
  return new ApiFailure(key, params, { errors: [{ field, message: t(key, params) }] });
}

export function specsText(specs: Record<string, string> | null | undefined): string {
  return Object.entries(specs ?? {})
    .map(([name, value]) => `${name} ${value}`)
    .join(" · ");
}

// ---------------------------------------------------------------------------------------------------------
// The entity's hooks: a code keeps its SKU's specs

async function keepSpecs(tx: DbOrTx, row: Row): Promise<void> {
  const [sku] = await tx.select({ spec_values: goodsSkus.spec_values }).from(goodsSkus).where(eq(goodsSkus.id, Number(row.sku_id)));
  await tx.update(traceSources).set({ spec_values: sku?.spec_values ?? null }).where(eq(traceSources.id, Number(row.id)));
}

export const traceSourceHooks: EntityHooksByName = {
  [traceSourceEntity.name]: {
    afterAdd: async (_ctx, tx, row) => keepSpecs(tx, row),
    afterEdit: async (_ctx, tx, _before, after) => keepSpecs(tx, after),
  },
};

// ---------------------------------------------------------------------------------------------------------
// Binding a code to an order item (the declared action tracesourcebind): the engine finds the code by its value,
// free, and the item of a paid order, both of the caller's provider, the code and the item's order locked; what lies
// between the two is checked here

const bindEffect: ActionEffect = async ({ ctx, tx, row: code, referenced }) => {
  const { record: item, parent: order } = referenced.order_item_id!;
  // the garment in hand first: the clerk is told it is of another SKU before anything of the item's count
  if (code.sku_id !== item.sku_id) throw actionFieldFailure(ctx, "code", "retail.trace.errors.other_sku", { code: String(code.code), title: String(item.title) });
  // the order locked: no other bind to its items counts meanwhile
  const [{ count }] = await tx.select({ count: sql<number>`count(*)::int` }).from(traceSources).where(and(eq(traceSources.order_item_id, Number(item.id)), eq(traceSources.status, "bound")));
  const qty = Number(item.qty);
  if (Number(count) >= qty) throw actionFieldFailure(ctx, "order_item_id", "retail.trace.errors.item_full", { qty });
  // on the order's timeline too
  await auditCall(tx, ctx, {
    action: traceSourceBind.name,
    entity: shopOrderEntity.name,
    entityId: String(item.order_id),
    sysid: Number(order!.sysid),
    schId: Number(item.sch_id),
    detail: { code: String(code.code), title: String(item.title) },
  });
  return {
    changes: { order_id: item.order_id, order_item_id: item.id, bound_at: ctx.now, bound_by: ctx.auth!.username },
    messageKey: "retail.trace.bind.done",
    messageParams: { code: String(code.code), order_no: String(order!.order_no), count: Number(count) + 1, qty },
    // the code's entry names the order, and the school of the order it went with
    audit: { detail: { order_no: order!.order_no }, schId: Number(item.sch_id) },
  };
};

export const traceSourceEffects: ActionEffects = { [traceSourceBind.name]: bindEffect };

// ---------------------------------------------------------------------------------------------------------
// The import

/** The sheet's columns, by their label keys, found by their header in any language, in any order. */
type ColumnKey = "code" | "sku" | "batch_no" | "manufacturer" | "standard" | "fabric" | "report_url";
const COLUMNS: readonly SheetColumn<ColumnKey>[] = [
  { key: "code", label: "retail.trace.field.code", required: true },
  { key: "sku", label: "retail.trace.import.sku_column", required: false },
  ...traceBatchFields.map((f) => ({ key: f.name as ColumnKey, label: f.label, required: false })),
];
const BATCH_KEYS = ["batch_no", "manufacturer", "standard", "fabric", "report_url"] as const;
type BatchFacts = Record<(typeof BATCH_KEYS)[number], string>;
const batchMax = Object.fromEntries(traceBatchFields.map((f) => [f.name, f.max ?? 100])) as Record<(typeof BATCH_KEYS)[number], number>;

export type TraceRowOutcome = "add" | "added" | "unchanged" | "failed";

export interface TraceRow extends BatchFacts {
  row: number;
  code: string;
  sku_id: number | null;
  /** the SKU as the user reads it: the goods item's title and the specs */
  sku: string;
  outcome: TraceRowOutcome;
  message: string;
}

const optionalText = (max: number) => z.string().trim().max(max).optional().transform((v) => v || undefined);
const traceImportPayload = importPayload.extend({
  sku_id: z.union([z.number().int().positive().max(2_147_483_647), z.string().regex(/^\d{1,10}$/).transform(Number), z.literal("").transform(() => undefined)]).optional(),
  batch_no: optionalText(batchMax.batch_no),
  manufacturer: optionalText(batchMax.manufacturer),
  standard: optionalText(batchMax.standard),
  fabric: optionalText(batchMax.fabric),
  report_url: optionalText(batchMax.report_url).refine((v) => v === undefined || reportUrlPattern.test(v), { message: "report_url" }),
});
type TraceImportInput = z.infer<typeof traceImportPayload>;

interface SkuFacts {
  id: number;
  goods_id: number;
  barcode: string | null;
  spec_values: Record<string, string>;
  title: string;
}

/** The provider's SKUs a file names (by id or barcode) or the dialog chose, with their goods item's title. */
async function skusOf(db: DbOrTx, sysid: number, ids: number[], barcodes: string[]): Promise<SkuFacts[]> {
  if (ids.length === 0 && barcodes.length === 0) return [];
  return db
    .select({ id: goodsSkus.id, goods_id: goodsSkus.goods_id, barcode: goodsSkus.barcode, spec_values: goodsSkus.spec_values, title: goods.title })
    .from(goodsSkus)
    .innerJoin(goods, eq(goods.id, goodsSkus.goods_id))
    .where(and(eq(goods.sysid, sysid), or(ids.length ? inArray(goodsSkus.id, ids) : undefined, barcodes.length ? inArray(goodsSkus.barcode, barcodes) : undefined)));
}

const skuName = (sku: SkuFacts) => [sku.title, specsText(sku.spec_values)].filter(Boolean).join(" · ");

/** Each row's outcome as things stand, written nowhere. */
async function classify(ctx: OperationContext, scope: Scope, input: TraceImportInput, rows: { row: number; values: string[] }[]): Promise<TraceRow[]> {
  const t = ctx.t;
  const sysid = scope.sysid!;
  const [header, ...data] = rows;
  if (!header) throw new ApiFailure("import.empty_file");
  const at = columnPlaces(t, COLUMNS, header.values, "retail.trace.import.missing_column");
  const cell = (values: string[], key: ColumnKey) => (at[key] >= 0 ? (values[at[key]] ?? "").trim() : "");

  const skuCells = [...new Set(data.map((r) => cell(r.values, "sku")).filter(Boolean))];
  const found = await skusOf(ctx.db, sysid, [...(input.sku_id ? [input.sku_id] : []), ...skuCells.filter((s) => /^\d{1,9}$/.test(s)).map(Number)], skuCells);
  const chosen = input.sku_id ? found.find((s) => s.id === input.sku_id) : undefined;
  if (input.sku_id && !chosen) throw refused(t, "sku_id", "retail.trace.errors.sku_unknown", { sku: String(input.sku_id) });
  // a cell names a SKU by its barcode first, else by its id
  const skuByCell = (text: string) => found.find((s) => s.barcode === text) ?? (/^\d{1,9}$/.test(text) ? found.find((s) => s.id === Number(text)) : undefined);

  const codes = [...new Set(data.map((r) => cell(r.values, "code")).filter(Boolean))];
  const stored = new Map<string, { sku_id: number; batch_no: string; status: string }>();
  for (let i = 0; i < codes.length; i += WRITE_BATCH) {
    const rowsFound = await ctx.db
      .select({ code: traceSources.code, sku_id: traceSources.sku_id, batch_no: traceSources.batch_no, status: traceSources.status })
      .from(traceSources)
      .where(and(eq(traceSources.sysid, sysid), inArray(traceSources.code, codes.slice(i, i + WRITE_BATCH))));
    for (const r of rowsFound) stored.set(r.code, r);
  }

  const earlier = new Map<string, TraceRow>();
  return data.map(({ row, values }) => {
    const code = cell(values, "code");
    const skuCell = cell(values, "sku");
    const sku = skuCell ? skuByCell(skuCell) : chosen;
    const facts = Object.fromEntries(BATCH_KEYS.map((k) => [k, cell(values, k) || (input[k] ?? "")])) as BatchFacts;
    const base = { row, code, sku_id: sku?.id ?? null, sku: sku ? skuName(sku) : skuCell, ...facts };
    const failed = (key: string, params: Record<string, string | number> = {}): TraceRow => ({ ...base, outcome: "failed", message: t(key, params) });
    if (!code) return failed("retail.trace.import.no_code");
    if (code.length > TRACE_CODE_MAX || !codePattern.test(code)) return failed("retail.trace.errors.code_pattern");
    if (!sku) return skuCell ? failed("retail.trace.import.unknown_sku", { sku: skuCell }) : failed("retail.trace.import.no_sku");
    if (!facts.batch_no) return failed("retail.trace.import.no_batch");
    for (const key of BATCH_KEYS) {
      if (facts[key].length > batchMax[key]) return failed("retail.trace.import.too_long", { field: t(`retail.trace.field.${key}`), max: batchMax[key] });
    }
    if (facts.report_url && !reportUrlPattern.test(facts.report_url)) return failed("retail.trace.errors.report_url");
    const before = earlier.get(code);
    if (before) {
      if (before.outcome !== "failed" && before.sku_id === sku.id && before.batch_no === facts.batch_no) return { ...base, outcome: "unchanged", message: t("retail.trace.import.repeated", { row: before.row }) };
      return failed("retail.trace.import.twice", { row: before.row });
    }
    const kept = stored.get(code);
    const outcome: TraceRow = !kept
      ? { ...base, outcome: "add", message: "" }
      : kept.sku_id === sku.id && kept.batch_no === facts.batch_no
        ? { ...base, outcome: "unchanged", message: t("retail.trace.import.already") }
        : failed("retail.trace.import.duplicate", { code });
    earlier.set(code, outcome);
    return outcome;
  });
}

/** Adds the rows that would be added, in chunks; a code another import added meanwhile is that row's failure. */
async function addRows(ctx: OperationContext, sysid: number, skus: Map<number, number>, rows: TraceRow[]): Promise<void> {
  const adding = rows.filter((r) => r.outcome === "add");
  await ctx.db.transaction(async (tx) => {
    for (let i = 0; i < adding.length; i += WRITE_BATCH) {
      const chunk = adding.slice(i, i + WRITE_BATCH);
      const specs = new Map((await tx.select({ id: goodsSkus.id, spec_values: goodsSkus.spec_values }).from(goodsSkus).where(inArray(goodsSkus.id, [...new Set(chunk.map((r) => r.sku_id!))]))).map((s) => [s.id, s.spec_values]));
      const written = await tx
        .insert(traceSources)
        .values(
          chunk.map((r) => ({
            sysid,
            code: r.code,
            goods_id: skus.get(r.sku_id!)!,
            sku_id: r.sku_id!,
            spec_values: specs.get(r.sku_id!) ?? null,
            batch_no: r.batch_no,
            manufacturer: r.manufacturer || null,
            standard: r.standard || null,
            fabric: r.fabric || null,
            report_url: r.report_url || null,
            status: "free",
            created_at: ctx.now,
          })),
        )
        .onConflictDoNothing()
        .returning({ code: traceSources.code });
      const added = new Set(written.map((w) => w.code));
      for (const r of chunk) {
        if (added.has(r.code)) r.outcome = "added";
        else Object.assign(r, { outcome: "failed", message: ctx.t("retail.trace.import.duplicate", { code: r.code }) });
      }
    }
  });
}

const OUTCOMES: readonly TraceRowOutcome[] = ["add", "added", "unchanged", "failed"];
const counts = (rows: TraceRow[]) => outcomeCounts(rows, OUTCOMES);

/** The result file: the rows as sent, each with its outcome and why. */
function traceResultFile(t: Translate, filename: string, rows: TraceRow[]) {
  return resultFile(filename, {
    sheetName: t("retail.trace.import.result_sheet"),
    resultName: t("retail.trace.import.result"),
    reasonName: t("retail.trace.import.reason"),
    columns: [
      { header: t("retail.trace.field.code"), key: "code", width: 28, text: true },
      { header: t("retail.entity.goodssku"), key: "sku", width: 30 },
      ...BATCH_KEYS.map((k) => ({ header: t(`retail.trace.field.${k}`), key: k, width: k === "report_url" ? 36 : 18, text: true })),
    ],
    rows: rows.map((row) => ({ ...row, outcome: t(`retail.trace.import.outcome.${row.outcome}`) })),
  });
}

async function importCodes(ctx: OperationContext, input: TraceImportInput) {
  const filename = ((input.filename ?? "").split(/[\\/]/).pop()?.trim() || "codes.xlsx").slice(0, 255);
  const scope = await resolveScope(ctx.db, ctx.auth!, ctx.payload);
  if (!scope.sysid) throw new ApiFailure("api.forbidden");
  return inImportSlot(ctx.t, input.content_base64, async (sheet) => {
    const rows = await classify(ctx, scope, input, sheet);
    if (rows.length === 0) throw new ApiFailure("import.empty_file");
    if (input.preview) {
      const c = counts(rows);
      return { messageKey: "retail.trace.import.previewed", messageParams: c, data: { items: { preview: true, ...c, rows: rows.slice(0, MAX_ANSWERED_ROWS) } } };
    }
    const ids = [...new Set(rows.filter((r) => r.outcome === "add").map((r) => r.sku_id!))];
    const goodsOf = new Map((ids.length ? await ctx.db.select({ id: goodsSkus.id, goods_id: goodsSkus.goods_id }).from(goodsSkus).where(inArray(goodsSkus.id, ids)) : []).map((s) => [s.id, s.goods_id]));
    await addRows(ctx, scope.sysid!, goodsOf, rows);
    const c = counts(rows);
    await auditCall(ctx.db, ctx, {
      action: "tracesourceimport",
      entity: traceSourceEntity.name,
      sysid: scope.sysid,
      schId: null,
      detail: { filename, total: c.total, added: c.added, unchanged: c.unchanged, failed: c.failed },
    });
    return {
      messageKey: "retail.trace.import.done",
      messageParams: c,
      data: { items: { preview: false, ...c, rows: rows.slice(0, MAX_ANSWERED_ROWS), file: await traceResultFile(ctx.t, filename, rows) } },
    };
  });
}

async function template(ctx: OperationContext) {
  return templateAnswer(
    `${ctx.t("retail.trace.import.template")}.xlsx`,
    ctx.t("retail.trace.import.template"),
    COLUMNS.map((c) => ({ header: ctx.t(c.label), text: true, note: c.key === "sku" ? ctx.t("retail.trace.import.sku_note") : c.key === "code" ? ctx.t("retail.trace.import.code_note") : undefined })),
  );
}

// ---------------------------------------------------------------------------------------------------------
// What the payer reads

/** The codes bound to these order items, by item, in the order they were bound. */
export async function codesOfItems(db: DbOrTx, itemIds: readonly number[]): Promise<Map<number, string[]>> {
  const byItem = new Map<number, string[]>();
  if (itemIds.length === 0) return byItem;
  const rows = await db
    .select({ item: traceSources.order_item_id, code: traceSources.code })
    .from(traceSources)
    .where(and(inArray(traceSources.order_item_id, [...itemIds]), eq(traceSources.status, "bound")))
    .orderBy(asc(traceSources.bound_at), asc(traceSources.id));
  for (const r of rows) byItem.set(r.item!, [...(byItem.get(r.item!) ?? []), r.code]);
  return byItem;
}

const publicPayload = z.object({ code: z.string().trim().min(1).max(64), trace_code: z.string().trim().min(1).max(TRACE_CODE_MAX) });

/** h5tracesource {code, trace_code}: a garment's public facts; not found outside the school's provider. */
async function publicFacts(ctx: OperationContext, payload: z.infer<typeof publicPayload>) {
  const qr = await qrCodeOf(ctx.db, payload.code);
  if (!qr) throw new ApiFailure("collection.payer.code_unknown");
  const [found] = await ctx.db
    .select({
      code: traceSources.code,
      status: traceSources.status,
      spec_values: traceSources.spec_values,
      batch_no: traceSources.batch_no,
      manufacturer: traceSources.manufacturer,
      standard: traceSources.standard,
      fabric: traceSources.fabric,
      report_url: traceSources.report_url,
      goods_title: goods.title,
      images: goods.images,
      sku_image: goodsSkus.image,
    })
    .from(traceSources)
    .innerJoin(goods, eq(goods.id, traceSources.goods_id))
    .innerJoin(goodsSkus, eq(goodsSkus.id, traceSources.sku_id))
    .where(and(eq(traceSources.sysid, qr.sysid), eq(traceSources.code, payload.trace_code)));
  if (!found) throw new ApiFailure("retail.trace.errors.public_unknown");
  const { images, sku_image, status, ...facts } = found;
  return { data: { items: { ...facts, image: sku_image ?? images?.[0] ?? null, voided: status === "voided" } } };
}

export function registerTraceSourceOperations(registry: OperationRegistry): void {
  registry.add({ path: PATH, method: "tracesourcetemplate", needsToken: true, roles: GOODS_MANAGERS, effect: "read", handler: template });
  registry.add({ path: PATH, method: "tracesourceimport", needsToken: true, roles: GOODS_MANAGERS, effect: "write", schema: traceImportPayload, handler: importCodes });
  registry.add({ path: PAYER_API_PATH, method: "h5tracesource", needsToken: false, schema: publicPayload, handler: publicFacts });
}

