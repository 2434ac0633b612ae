/**
 * The bill import (`billimport`, `billimporttemplate`; catalogue/collection.ts billEntity.import): an .xlsx of
 * student numbers and, per fee item of one activity, what each student owes, run by the engine's import
 * (server/engine/imports.ts runImport: limits, the school's lock, one transaction or nothing, preview, row errors,
 * log, audit). Its columns are the activity's items, so this module gives the engine the header, the row checks,
 * the checks against the stored students and bills, and the writes.
 *
 * What a file means (docs/architecture.md, "Bill imports"): each row is what that student owes for the activity.
 * A blank cell is what opening the activity would bill (a required fixed item its amount, any other item nothing);
 * a filled one overrides it, fixed items too (a reduced fee), from 0 to MAX_FEE_YUAN. The bill's amount is the sum
 * of the row; its items (the `billitem` rows, those above zero) are what the payer sees. A student without a bill
 * gets one (unpaid); an unpaid bill takes the new amount and items; a bill paid, refunded, waived or closed, or one
 * an order is being paid for, is a row error. Students not in the file are left as they are.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { activityEntity, billEntity, billStates, MAX_FEE_YUAN } from "../../../catalogue/collection";
import { studentEntity } from "../../../catalogue/schools";
import { fenToYuan, yuanToFen } from "../../../common/money";
import { resolveScope } from "../../auth/scope";
import type { DbOrTx } from "../../db/client";
import { activities, activityItems, billItems, bills, feeOrderLines, feeOrders, students } from "../../db/schema";
import { entityTenantConditions } from "../../engine/crud";
import {
  badFile,
  everyLanguage,
  importPayload,
  normalised,
  registerSheetImport,
  runRowImport,
  templateAnswer,
  type ImportColumn,
  type ImportCreation,
  type ImportTarget,
  type PreparedSheet,
  type RowError,
  type SheetImporter,
  type SheetRow,
} from "../../engine/imports";
import { labelText, type Translate } from "../../lib/i18n";
import { ApiFailure, notFound } from "../../protocol/envelope";
import type { OperationContext, OperationRegistry, OperationResult } from "../../protocol/registry";

const decl = billEntity.import!;
const MAX_FEE_FEN = MAX_FEE_YUAN * 100;
/** rows per INSERT or UPDATE statement: a few parameters per row, well under PostgreSQL's 65,535 */
const WRITE_BATCH = 500;
/** values per `IN (...)` of a lookup */
const LOOKUP_BATCH = 1000;
/** the states an activity takes imported bills in */
const IMPORTABLE_STATES = decl.into?.states ?? ["draft", "open"];

const ACTIVITY_ID = z.union([z.number().int().positive().max(2_147_483_647), z.string().regex(/^\d{1,9}$/).transform(Number)]);
const billImportPayload = importPayload.extend({ activity_id: ACTIVITY_ID });
type BillImportPayload = z.infer<typeof billImportPayload>;
const templatePayload = z.object({ activity_id: ACTIVITY_ID });

const STUDENT_NO = "student_no";
const STUDENT_NAME = "name";
/** the row's total: not a column, but named by a row whose items add up to nothing */
const TOTAL = "amount";

interface ActivityItem {
  id: number;
  title: string;
  amount: number;
  amount_mode: string;
  required: string;
}

/** The activity imported into: its school is the import's. */
interface BillTarget extends ImportTarget {
  activityId: number;
  title: string;
  items: ActivityItem[];
}

interface PreparedBill {
  row: number;
  studentNo: string;
  /** each item's amount in fen, in the activity's order */
  amounts: number[];
  total: number;
  failed: boolean;
  /** found by check() */
  studentId?: number;
  classId?: number;
  billId?: number;
}

/** An item's column key, stable whatever its title. */
const itemKey = (item: ActivityItem) => `item_${item.id}`;

/** An item's header: its title, numbered when two items share it ("Books (2)"). */
function itemHeaders(items: readonly ActivityItem[]): string[] {
  const seen = new Map<string, number>();
  return items.map((item) => {
    const n = (seen.get(item.title) ?? 0) + 1;
    seen.set(item.title, n);
    return n === 1 ? item.title : `${item.title} (${n})`;
  });
}

/** What a blank cell bills: a required fixed item its amount (as opening the activity would), anything else nothing. */
const defaultAmount = (item: ActivityItem) => (item.required === "Y" && item.amount_mode === "fixed" ? Number(item.amount) : 0);

/** A cell's amount in fen: digits with at most two decimals, a currency sign and thousands separators allowed; null otherwise. */
function cellFen(text: string): number | null {
  return yuanToFen(text.replace(/^[¥￥]/, "").replace(/[,\s]/g, ""));
}

function fieldLabel(t: Translate, entityFields: typeof studentEntity.fields, name: string): string {
  const field = entityFields.find((f) => f.name === name);
  return field ? labelText(t, field.label, name) : name;
}

/** The activity's items in their order. */
async function itemsOf(db: DbOrTx, activityId: number): Promise<ActivityItem[]> {
  const rows = await db
    .select({ id: activityItems.id, title: activityItems.title, amount: activityItems.amount, amount_mode: activityItems.amount_mode, required: activityItems.required })
    .from(activityItems)
    .where(eq(activityItems.activity_id, activityId))
    .orderBy(activityItems.sort, activityItems.id);
  return rows.map((r) => ({ ...r, amount: Number(r.amount) }));
}

/** The activity named by the payload, in the caller's scope and not closed, with its items; not found otherwise. */
async function activityTarget(ctx: OperationContext, activityId: number): Promise<BillTarget> {
  const scope = await resolveScope(ctx.db, ctx.auth!, ctx.payload);
  const [activity] = await ctx.db
    .select({ id: activities.id, title: activities.title, status: activities.status, sysid: activities.sysid, sch_id: activities.sch_id })
    .from(activities)
    .where(and(eq(activities.id, activityId), ...entityTenantConditions(activityEntity, activities, ctx, scope)));
  if (!activity) throw notFound();
  if (!IMPORTABLE_STATES.includes(activity.status)) throw activityClosed(ctx.t);
  return { sysid: activity.sysid, schid: activity.sch_id, activityId: activity.id, title: activity.title, items: await itemsOf(ctx.db, activity.id) };
}

function activityClosed(t: Translate): ApiFailure {
  const message = t("collection.bill_import.activity_closed");
  return new ApiFailure("collection.bill_import.activity_closed", {}, { errors: [{ field: "activity_id", message }] });
}

class BillImport implements SheetImporter<BillTarget, PreparedBill, BillImportPayload> {
  readonly logEntity = billEntity.name;
  readonly operation = decl.operation;

  target(ctx: OperationContext, payload: BillImportPayload): Promise<BillTarget> {
    return activityTarget(ctx, payload.activity_id);
  }

  auditDetail(target: BillTarget): Record<string, unknown> {
    return { activity_id: target.activityId };
  }

  /** The columns as the caller reads them: the student's number and name, each item, and the bill's total. */
  columns(t: Translate, target: BillTarget): ImportColumn[] {
    const headers = itemHeaders(target.items);
    return [
      { field: STUDENT_NO, label: fieldLabel(t, studentEntity.fields, STUDENT_NO) },
      { field: STUDENT_NAME, label: fieldLabel(t, studentEntity.fields, STUDENT_NAME) },
      ...target.items.map((item, i) => ({ field: itemKey(item), label: headers[i] })),
      { field: TOTAL, label: labelText(t, "collection.field.bill_amount", TOTAL) },
    ];
  }

  describe(t: Translate, target: BillTarget) {
    return { columns: this.columns(t, target) };
  }

  prepare(ctx: OperationContext, target: BillTarget, sheetRows: SheetRow[]): PreparedSheet<PreparedBill> {
    const t = ctx.t;
    const [header, ...dataRows] = sheetRows;
    if (!header || dataRows.length === 0) throw badFile(t, "import.empty_file");
    const labels = new Map(this.columns(t, target).map((c) => [c.field, c.label]));
    const label = (field: string) => labels.get(field) ?? field;

    // the header: the student number (a label in any language, or its name), the name (for the reader's eye) and the items by title
    const byHeader = new Map<string, string>();
    for (const name of [STUDENT_NO, ...everyLanguage("field.student_no", STUDENT_NO)]) byHeader.set(normalised(name), STUDENT_NO);
    for (const name of [STUDENT_NAME, ...everyLanguage("field.student_name", STUDENT_NAME)]) if (!byHeader.has(normalised(name))) byHeader.set(normalised(name), STUDENT_NAME);
    itemHeaders(target.items).forEach((text, i) => byHeader.set(normalised(text), itemKey(target.items[i])));
    const headerErrors: RowError[] = [];
    const columnOf = new Map<string, number>();
    header.values.forEach((text, column) => {
      if (text.trim() === "") return;
      const field = byHeader.get(normalised(text));
      // a column the activity has no item for may be a misspelt one: its amounts would be lost, so it is an error
      if (!field) headerErrors.push({ row: header.row, field: "", message: t("collection.bill_import.unknown_column", { label: text.trim(), items: itemHeaders(target.items).join(t("import.list_separator")) }) });
      else if (columnOf.has(field)) headerErrors.push({ row: header.row, field, message: t("import.duplicate_column", { label: label(field) }) });
      else columnOf.set(field, column);
    });
    if (!columnOf.has(STUDENT_NO)) headerErrors.push({ row: header.row, field: STUDENT_NO, message: t("import.missing_column", { label: label(STUDENT_NO) }) });

    const cell = (values: string[], field: string) => {
      const column = columnOf.get(field);
      return column === undefined ? "" : (values[column] ?? "").trim();
    };
    const read = dataRows.filter(({ values }) => [...columnOf.keys()].some((field) => cell(values, field) !== ""));
    if (read.length === 0) throw badFile(t, "import.empty_file");
    if (headerErrors.length > 0) return { rows: [], total: read.length, errors: headerErrors };

    const errors: RowError[] = [];
    const firstRowOf = new Map<string, number>();
    const rows = read.map(({ row, values }): PreparedBill => {
      const fail = (field: string, message: string) => {
        prepared.failed = true;
        errors.push({ row, field, message });
      };
      const studentNo = cell(values, STUDENT_NO);
      const prepared: PreparedBill = { row, studentNo, amounts: [], total: 0, failed: false };
      if (studentNo === "") fail(STUDENT_NO, t("api.validation.required", { label: label(STUDENT_NO) }));
      else {
        const first = firstRowOf.get(studentNo);
        if (first === undefined) firstRowOf.set(studentNo, row);
        else fail(STUDENT_NO, t("import.duplicate_in_file", { label: label(STUDENT_NO), value: studentNo, row: first }));
      }
      for (const item of target.items) {
        const text = cell(values, itemKey(item));
        const fen = text === "" ? defaultAmount(item) : cellFen(text);
        if (fen === null) fail(itemKey(item), t("collection.bill_import.not_amount", { label: label(itemKey(item)), value: text }));
        else if (fen > MAX_FEE_FEN) fail(itemKey(item), t("api.validation.too_big", { label: label(itemKey(item)), max: fenToYuan(MAX_FEE_FEN) }));
        prepared.amounts.push(fen ?? 0);
      }
      prepared.total = prepared.amounts.reduce((sum, fen) => sum + fen, 0);
      if (!prepared.failed && prepared.total <= 0) fail(TOTAL, t("collection.bill_import.nothing_due", { label: label(TOTAL) }));
      return prepared;
    });
    return { rows, total: rows.length, errors };
  }

  async check(ctx: OperationContext, tx: DbOrTx, target: BillTarget, rows: PreparedBill[], errors: RowError[]): Promise<ImportCreation[]> {
    const t = ctx.t;
    const labelOfStudentNo = fieldLabel(t, studentEntity.fields, STUDENT_NO);
    // the activity held as it is until the import commits: closing it, or editing its items, waits
    const [activity] = await tx.select({ status: activities.status }).from(activities).where(eq(activities.id, target.activityId)).for("share");
    if (!activity || !IMPORTABLE_STATES.includes(activity.status)) throw activityClosed(t);
    const items = await itemsOf(tx, target.activityId);
    if (JSON.stringify(items) !== JSON.stringify(target.items)) throw new ApiFailure("import.conflict");

    const wanted = rows.filter((r) => !r.failed);
    const byNumber = new Map(wanted.map((r) => [r.studentNo, r]));
    const numbers = [...byNumber.keys()];
    for (let i = 0; i < numbers.length; i += LOOKUP_BATCH) {
      const found = await tx
        .select({ id: students.id, student_no: students.student_no, status: students.status, class_id: students.class_id })
        .from(students)
        .where(and(eq(students.sch_id, target.schid), inArray(students.student_no, numbers.slice(i, i + LOOKUP_BATCH))))
        // a student moved to another class meanwhile would leave the bill in the old one
        .for("share");
      for (const student of found) {
        const row = byNumber.get(student.student_no);
        if (!row) continue;
        if (student.status !== "1") {
          row.failed = true;
          errors.push({ row: row.row, field: STUDENT_NO, message: t("collection.bill_import.student_disabled", { label: labelOfStudentNo, value: student.student_no }) });
          continue;
        }
        row.studentId = student.id;
        row.classId = student.class_id;
      }
    }
    for (const row of wanted) {
      if (row.studentId !== undefined || row.failed) continue;
      row.failed = true;
      errors.push({ row: row.row, field: STUDENT_NO, message: t("import.reference_missing", { label: labelOfStudentNo, value: row.studentNo }) });
    }

    // the bills the activity has for these students, held until the import commits: a payment settling one waits
    const found = wanted.filter((r) => !r.failed);
    const byStudent = new Map(found.map((r) => [r.studentId!, r]));
    const studentIds = [...byStudent.keys()];
    const unpaid: PreparedBill[] = [];
    for (let i = 0; i < studentIds.length; i += LOOKUP_BATCH) {
      const existing = await tx
        .select({ id: bills.id, student_id: bills.student_id, status: bills.status })
        .from(bills)
        .where(and(eq(bills.activity_id, target.activityId), inArray(bills.student_id, studentIds.slice(i, i + LOOKUP_BATCH))))
        .orderBy(bills.id)
        .for("update");
      for (const bill of existing) {
        const row = byStudent.get(bill.student_id)!;
        row.billId = bill.id;
        if (bill.status === "unpaid") {
          unpaid.push(row);
          continue;
        }
        row.failed = true;
        const state = billStates.find((s) => s.value === bill.status);
        errors.push({ row: row.row, field: STUDENT_NO, message: t("collection.bill_import.bill_settled", { value: row.studentNo, id: bill.id, status: state ? t(state.label) : bill.status }) });
      }
    }
    // an unpaid bill a payer is paying now (an order awaiting payment) keeps the amount that order holds
    const billIds = unpaid.map((r) => r.billId!);
    for (let i = 0; i < billIds.length; i += LOOKUP_BATCH) {
      const paying = await tx
        .selectDistinct({ bill_id: feeOrderLines.bill_id })
        .from(feeOrderLines)
        .innerJoin(feeOrders, eq(feeOrders.id, feeOrderLines.order_id))
        .where(and(inArray(feeOrderLines.bill_id, billIds.slice(i, i + LOOKUP_BATCH)), eq(feeOrders.status, "unpaid")));
      const held = new Set(paying.map((p) => p.bill_id));
      for (const row of unpaid) {
        if (!held.has(row.billId!)) continue;
        row.failed = true;
        errors.push({ row: row.row, field: STUDENT_NO, message: t("collection.bill_import.bill_paying", { value: row.studentNo, id: row.billId! }) });
      }
    }
    return [];
  }

  async write(_ctx: OperationContext, tx: DbOrTx, target: BillTarget, rows: PreparedBill[]): Promise<void> {
    const fresh = rows.filter((r) => r.billId === undefined);
    const updated = rows.filter((r) => r.billId !== undefined);
    for (let i = 0; i < fresh.length; i += WRITE_BATCH) {
      const batch = fresh.slice(i, i + WRITE_BATCH);
      const created = await tx
        .insert(bills)
        .values(batch.map((r) => ({ activity_id: target.activityId, sch_id: target.schid, sysid: target.sysid, student_id: r.studentId!, class_id: r.classId!, amount: r.total, status: "unpaid" })))
        .returning({ id: bills.id, student_id: bills.student_id });
      const idOf = new Map(created.map((c) => [c.student_id, c.id]));
      for (const r of batch) r.billId = idOf.get(r.studentId!);
    }
    for (let i = 0; i < updated.length; i += WRITE_BATCH) {
      const batch = updated.slice(i, i + WRITE_BATCH);
      const values = sql.join(
        batch.map((r) => sql`(${r.billId!}::integer, ${r.total}::bigint)`),
        sql`, `,
      );
      await tx.execute(sql`UPDATE ${bills} SET amount = v.amount FROM (VALUES ${values}) AS v(id, amount) WHERE ${bills.id} = v.id`);
      await tx.delete(billItems).where(
        inArray(
          billItems.bill_id,
          batch.map((r) => r.billId!),
        ),
      );
    }
    const lines = rows.flatMap((r) =>
      target.items
        .map((item, i) => ({ bill_id: r.billId!, sort: i, title: item.title, amount: r.amounts[i], sysid: target.sysid, sch_id: target.schid }))
        .filter((line) => line.amount > 0),
    );
    for (let i = 0; i < lines.length; i += WRITE_BATCH) await tx.insert(billItems).values(lines.slice(i, i + WRITE_BATCH));
  }

  /** The template of one activity: the student's number and name, then a column per item, each saying what a blank cell bills. */
  async template(ctx: OperationContext, activityId: number) {
    const t = ctx.t;
    const target = await activityTarget(ctx, activityId);
    const headers = itemHeaders(target.items);
    return templateAnswer(`bill-import-${target.activityId}.xlsx`, target.title, [
      { header: fieldLabel(t, studentEntity.fields, STUDENT_NO), text: true },
      { header: fieldLabel(t, studentEntity.fields, STUDENT_NAME), text: true, note: t("collection.bill_import.note_name") },
      ...target.items.map((item, i) => ({
        header: headers[i],
        numFmt: "0.00",
        note: t("collection.bill_import.note_item", { amount: fenToYuan(defaultAmount(item)) }),
      })),
    ]);
  }
}

const billImporter = new BillImport();

/** `billimporttemplate` {activity_id} and `billimport` {activity_id, filename, content_base64, preview}, for the collection's managers. */
export function registerBillImport(registry: OperationRegistry): void {
  registerSheetImport(registry, {
    path: billEntity.apiPath ?? "adminapiv2",
    roles: decl.roles ?? [],
    operation: decl.operation,
    templateOperation: decl.templateOperation,
    schema: billImportPayload,
    templateSchema: templatePayload,
    importer: billImporter,
    template: (ctx, input) => billImporter.template(ctx, input.activity_id),
  });
}

/**
 * Bills of one activity sent as data (the open API): a header row of `student_no` and the items' titles, then a row
 * per student, imported as a file's rows are; `source` names the sender in the import log.
 */
export async function importBillRows(ctx: OperationContext, activityId: number, rows: SheetRow[], source: string): Promise<OperationResult> {
  return runRowImport(billImporter, ctx, { filename: source }, await activityTarget(ctx, activityId), rows);
}

/** The items of an activity as the rows of its bills name them: their titles (numbered when two share one). */
export async function billItemTitles(db: DbOrTx, activityId: number): Promise<string[]> {
  return itemHeaders(await itemsOf(db, activityId));
}
