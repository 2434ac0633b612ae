/**
 * Child records (common/catalogue.ts ChildDecl): an activity's fee items, an order's lines. They are checked with
 * the parent's payload, written in the parent's transaction (the rows sent become the rows stored, in their
 * order, each stored row kept and updated in place: see save()), summed into the parent's total, answered with the parent's record and deleted with it.
 */
import { asc, eq, inArray } from "drizzle-orm";
import type { ChildDecl, EntityDecl } from "../../common/catalogue";
import { tableColumn, tenantColumnNames, type CatalogueTable } from "../db/catalogueTables";
import type { DbOrTx } from "../db/client";
import { catalogueTables } from "../db/schema";
import { labelText, type Translate } from "../lib/i18n";
import { References } from "./references";
import { ApiFailure } from "../protocol/envelope";
import type { OperationContext } from "../protocol/registry";
import { fieldErrors, recordSchema } from "./fieldSchemas";
import { brokenFieldRelation, inapplicableValues } from "./fieldRelations";
import type { Row } from "./hooks";

export const DEFAULT_MAX_CHILDREN = 50;
/** the child column keeping the rows in the order the form gave them */
export const CHILD_ORDER_FIELD = "sort";

interface ChildKind {
  decl: ChildDecl;
  entity: EntityDecl;
  table: CatalogueTable;
}

/** where a checked row keeps the id of the stored row it was sent as */
const SENT_ID = "__sent_id";

/** A combination of spec values as one text, whatever the order of its names. */
function combinationKey(values: unknown): string {
  if (values === null || typeof values !== "object") return JSON.stringify(values ?? null);
  return JSON.stringify(Object.entries(values as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The rows sent for each child kind (a kind not sent is left as stored on edit). */
export type ChildRows = Map<string, Row[]>;

export class ChildRecords {
  private readonly kinds: ChildKind[];

  constructor(
    private readonly parent: EntityDecl,
    private readonly catalogue: readonly EntityDecl[],
  ) {
    this.kinds = (parent.children ?? []).map((decl) => {
      const entity = catalogue.find((e) => e.name === decl.entity);
      const table = catalogueTables[decl.entity];
      if (!entity || !table) throw new Error(`${parent.name}.${decl.name}: the child entity ${decl.entity} has no table`);
      if (entity.scope !== parent.scope) throw new Error(`${decl.entity} must have the tenant scope of its parent ${parent.name}`);
      if (!entity.fields.some((f) => f.name === decl.parentField && f.ref?.entity === parent.name)) throw new Error(`${decl.entity}.${decl.parentField} must refer to ${parent.name}`);
      if (!entity.fields.some((f) => f.name === CHILD_ORDER_FIELD)) throw new Error(`${decl.entity} needs an int field "${CHILD_ORDER_FIELD}" keeping its rows' order`);
      return { decl, entity, table };
    });
  }

  get declared(): boolean {
    return this.kinds.length > 0;
  }

  /**
   * The rows of the payload, each checked as its entity's add form: a failure names the row and field
   * (`items.2.amount`). On add every kind must be sent when it needs rows; on edit a kind not sent is kept.
   */
  check(ctx: OperationContext, action: "add" | "edit"): ChildRows {
    const out: ChildRows = new Map();
    for (const { decl, entity } of this.kinds) {
      const sent = ctx.payload[decl.name];
      if (sent === undefined && action === "edit") continue;
      const min = decl.min ?? 0;
      const max = decl.max ?? DEFAULT_MAX_CHILDREN;
      const label = labelText(ctx.t, decl.label, decl.name);
      if (sent !== undefined && sent !== null && !Array.isArray(sent)) throw failure(decl.name, ctx.t("api.validation.text", { label }));
      const rows = (sent ?? []) as unknown[];
      if (rows.length < min || rows.length > max) throw failure(decl.name, ctx.t("api.validation.rows", { label, min, max }));
      const schema = recordSchema(entity, "add");
      out.set(
        decl.name,
        rows.map((row, i) => {
          const parsed = schema.safeParse(row !== null && typeof row === "object" && !Array.isArray(row) ? row : {});
          if (!parsed.success) {
            const [first] = fieldErrors(entity, parsed.error, ctx.t);
            throw failure(`${decl.name}.${i}.${first?.field ?? ""}`, `${label} ${i + 1}: ${first?.message ?? ""}`);
          }
          // the rules between the row's fields; a field its condition hides keeps no value
          const rowValues = { ...parsed.data, ...inapplicableValues(entity.fields, parsed.data) };
          const broken = brokenFieldRelation(ctx, entity.fields, rowValues);
          if (broken) throw failure(`${decl.name}.${i}.${broken.field}`, `${label} ${i + 1}: ${broken.message}`);
          // the id of a stored row the form sent back: that row is updated in place (save() keeps only the parent's own)
          const id = (row as { id?: unknown } | null)?.id;
          return Number.isSafeInteger(id) && (id as number) > 0 ? { ...rowValues, [SENT_ID]: id } : rowValues;
        }),
      );
    }
    return out;
  }

  /**
   * Makes the stored rows of each kind sent the rows sent, in their order, with the parent's tenant, and answers the
   * parent's totals as they now stand (the columns to update), in the caller's transaction. A row sent is the stored
   * row of its id, or (rows built as a product) of its combination of values, updated in place, so that what refers
   * to it (an order's item, a trace-source code refer to a SKU) still does; the others are added; stored rows not
   * sent are deleted (refused while something still refers to them).
   */
  async save(tx: DbOrTx, parentRow: Row, rows: ChildRows, t?: Translate): Promise<Row> {
    const totals: Row = {};
    const parentTenant = tenantColumnNames(this.parent);
    for (const { decl, entity, table } of this.kinds) {
      const sent = rows.get(decl.name);
      if (!sent) continue;
      const parentColumn = tableColumn(table, decl.parentField);
      const idColumn = tableColumn(table, "id");
      const valuesField = decl.product?.values;
      const stored = (await tx
        .select({ id: idColumn, ...(valuesField ? { combination: tableColumn(table, valuesField) } : {}) })
        .from(table)
        .where(eq(parentColumn, parentRow.id))) as { id: number; combination?: unknown }[];
      const unclaimed = new Set(stored.map((r) => r.id));
      const byCombination = new Map(stored.map((r) => [combinationKey(r.combination), r.id]));
      const tenant = tenantColumnNames(entity);
      const updates: { id: number; value: Row }[] = [];
      const inserts: Row[] = [];
      const written: Row[] = [];
      sent.forEach(({ [SENT_ID]: sentId, ...row }, i) => {
        const value: Row = { ...row, [decl.parentField]: parentRow.id, [CHILD_ORDER_FIELD]: i };
        written.push(value);
        if (tenant.sysid && parentTenant.sysid) value[tenant.sysid] = parentRow[parentTenant.sysid];
        if (tenant.schid && parentTenant.schid) value[tenant.schid] = parentRow[parentTenant.schid];
        let id = typeof sentId === "number" && unclaimed.has(sentId) ? sentId : undefined;
        if (id === undefined && valuesField) {
          const match = byCombination.get(combinationKey(row[valuesField]));
          if (match !== undefined && unclaimed.has(match)) id = match;
        }
        if (id === undefined) return void inserts.push(value);
        unclaimed.delete(id);
        updates.push({ id, value });
      });
      // a row's references (an activity item's goods) lie in the parent's tenant, as a record's own do: a failure names the row
      if (t) {
        const references = new References(entity, this.catalogue);
        for (const [i, value] of written.entries()) {
          const { [decl.parentField]: _parent, ...changed } = value;
          try {
            await references.check(tx, t, value, changed);
          } catch (err) {
            if (!(err instanceof ApiFailure)) throw err;
            const errors = (err.data?.errors ?? []) as { field: string; message: string }[];
            throw new ApiFailure(err.messageKey, { ...err.params, field: `${decl.name}.${i}.${String(err.params?.field ?? "")}` }, { errors: errors.map((e) => ({ ...e, field: `${decl.name}.${i}.${e.field}` })) });
          }
        }
      }
      if (unclaimed.size > 0) await tx.delete(table).where(inArray(idColumn, [...unclaimed]));
      for (const { id, value } of updates) await tx.update(table).set(value).where(eq(idColumn, id));
      if (inserts.length > 0) await tx.insert(table).values(inserts);
      if (decl.total) totals[decl.total.into] = totalOf(decl, sent);
    }
    return totals;
  }

  /** Adds each kind's rows (API form, in order) to the parent records, one query per kind. */
  async attach(db: DbOrTx, records: Row[], serialise: (entity: EntityDecl, row: Row) => Row): Promise<void> {
    if (records.length === 0) return;
    const ids = records.map((r) => r.id as number);
    for (const { decl, entity, table } of this.kinds) {
      const parentColumn = tableColumn(table, decl.parentField);
      const rows = (await db
        .select()
        .from(table)
        .where(inArray(parentColumn, ids))
        .orderBy(asc(parentColumn), asc(tableColumn(table, CHILD_ORDER_FIELD)), asc(tableColumn(table, "id")))) as Row[];
      for (const record of records) record[decl.name] = rows.filter((r) => r[decl.parentField] === record.id).map((r) => serialise(entity, r));
    }
  }

  /** Deletes the parent's rows of every kind (before the parent itself). */
  async deleteAll(tx: DbOrTx, parentId: number): Promise<void> {
    for (const { decl, table } of this.kinds) await tx.delete(table).where(eq(tableColumn(table, decl.parentField), parentId));
  }

  /** Whether `entity` is a child kind of this parent (its rows do not keep the parent from being deleted). */
  has(entity: string): boolean {
    return this.kinds.some((k) => k.entity.name === entity);
  }
}

/** The rows' total of the declared money field, counting the rows the declaration's `when` selects. */
export function totalOf(decl: ChildDecl, rows: readonly Row[]): number {
  const total = decl.total!;
  return rows
    .filter((row) => Object.entries(total.when ?? {}).every(([field, value]) => String(row[field]) === value))
    .reduce((sum, row) => sum + Number(row[total.field] ?? 0), 0);
}

/** A child row's refusal, under the field of the row that fails (`skus.0.price`). */
function failure(field: string, message: string): ApiFailure {
  return new ApiFailure("api.invalid_params", { field }, { errors: [{ field, message }] });
}
