/**
 * The generic catalogue operations of every entity in resources.config.ts: {name}list / info / add / edit / del,
 * allowed to the role keys the entity declares, validated from its fields and filtered by the caller's tenant.
 */
import { z } from "zod";
import { and, asc, count, desc, eq, gte, ilike, inArray, lt, lte, ne, sql, type SQL } from "drizzle-orm";
import type { CrudAction, EntityDecl, FieldDecl } from "../../../common/catalogue";
import { fenToYuan, yuanToFen } from "../../../common/money";
import { writeAudit } from "../../auth/audit";
import { parseTenantId, resolveScope, type Scope } from "../../auth/scope";
import { isColumnField, tableColumn, tenantColumnNames, type CatalogueTable } from "../../db/catalogueTables";
import type { DbOrTx } from "../../db/client";
import { catalogueTables } from "../../db/schema";
import { addDays, businessDay, businessDayStart, businessTime, isCalendarDay } from "../../../common/term";
import { labelText } from "../../lib/i18n";
import { ApiFailure, notFound } from "../../protocol/envelope";
import { MAX_INT, MIN_INT } from "../../protocol/validation";
import type { OperationContext, OperationRegistry } from "../../protocol/registry";
import { fieldErrors, formFields, recordSchema } from "./fieldSchemas";
import { entityHooks, type EntityHooks, type Row } from "./hooks";

const isoTime = z.iso.datetime({ offset: true });

export const MAX_PAGE_SIZE = 100;
/** rows an export may hold; a larger list must be narrowed by its filters first */
export const MAX_EXPORT_ROWS = 10_000;
export const DEFAULT_PAGE_SIZE = 20;

/** PostgreSQL's unique_violation */
const UNIQUE_VIOLATION = "23505";

function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err; e && typeof e === "object"; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === UNIQUE_VIOLATION) return true;
  }
  return false;
}

/** The record as the API carries it: money in yuan strings, times in ISO 8601, write-only fields left out. */
export function serialiseRow(entity: EntityDecl, row: Row): Row {
  const out: Row = {};
  for (const [name, value] of Object.entries(row)) {
    const field = entity.fields.find((f) => f.name === name);
    if (field?.type === "money" && value !== null && value !== undefined) out[name] = fenToYuan(Number(value));
    else if (value instanceof Date) out[name] = value.toISOString();
    else out[name] = value;
  }
  return out;
}

/**
 * A value as a spreadsheet cell: option labels in the caller's language, times as the business time zone reads
 * them (as the list shows them), everything else as the API gives it.
 */
function exportCell(ctx: OperationContext, field: FieldDecl, value: unknown): string | number | null {
  if (value === null || value === undefined) return null;
  if (field.type === "datetime" && typeof value === "string") return businessTime(new Date(value));
  const option = field.options?.find((o) => o.value === value);
  if (option) return labelText(ctx.t, option.label, String(value));
  return typeof value === "number" ? value : String(value);
}

function parseRecordId(value: unknown): number {
  const id = parseTenantId(value);
  if (id === undefined) throw notFound();
  return id;
}

class EntityCrud {
  private readonly tenant: { sysid?: string; schid?: string };
  private readonly hooks: EntityHooks;

  constructor(
    private readonly entity: EntityDecl,
    private readonly table: CatalogueTable,
  ) {
    this.tenant = tenantColumnNames(entity);
    this.hooks = entityHooks[entity.name] ?? {};
  }

  private column(name: string) {
    return tableColumn(this.table, name);
  }

  private label(ctx: OperationContext, field: FieldDecl): string {
    return labelText(ctx.t, field.label, field.name);
  }

  /** Conditions that keep a query inside the caller's tenant. */
  private tenantConditions(ctx: OperationContext, scope: Scope): SQL[] {
    const conditions: SQL[] = [];
    if (this.entity.scope === "platform") {
      if (this.entity.providerColumn && ctx.auth?.userType !== "system") {
        conditions.push(eq(this.column(this.entity.providerColumn), scope.sysid ?? -1));
      }
      return conditions;
    }
    if (this.tenant.sysid && scope.sysid !== null) conditions.push(eq(this.column(this.tenant.sysid), scope.sysid));
    if (this.tenant.schid && scope.schids !== null) {
      conditions.push(scope.schids.length > 0 ? inArray(this.column(this.tenant.schid), scope.schids) : sql`false`);
    }
    return conditions;
  }

  /** A field set only when the record is added (a school's first term) is refused on edit, never ignored. */
  private refuseAddOnlyFields(ctx: OperationContext): void {
    const field = this.entity.fields.find((f) => f.form === "add" && ctx.payload[f.name] !== undefined);
    if (!field) return;
    const label = this.label(ctx, field);
    throw new ApiFailure("api.field_readonly", { label }, { errors: [{ field: field.name, message: ctx.t("api.field_readonly", { label }) }] });
  }

  private async scoped(ctx: OperationContext): Promise<{ scope: Scope; conditions: SQL[] }> {
    const auth = ctx.auth;
    if (!auth) throw notFound();
    const scope = await resolveScope(ctx.db, auth, ctx.payload);
    return { scope, conditions: this.tenantConditions(ctx, scope) };
  }

  /** The record id of info/edit/del: `id`, or `sch_id` for the entity whose id is the school id. */
  private recordId(payload: Row): number {
    if (payload.id === undefined && this.tenant.schid === "id") return parseRecordId(payload.sch_id);
    return parseRecordId(payload.id);
  }

  private async findOne(db: DbOrTx, id: number, conditions: SQL[]): Promise<Row | undefined> {
    const [row] = await db
      .select()
      .from(this.table)
      .where(and(eq(this.column("id"), id), ...conditions));
    return row as Row | undefined;
  }

  private async assertUnique(ctx: OperationContext, db: DbOrTx, record: Row, exceptId?: number): Promise<void> {
    for (const field of this.entity.fields) {
      if (!field.unique || !isColumnField(field) || record[field.name] === undefined || record[field.name] === null) continue;
      const conditions = [eq(this.column(field.name), record[field.name])];
      if (exceptId !== undefined) conditions.push(ne(this.column("id"), exceptId));
      const [clash] = await db.select({ id: this.column("id") }).from(this.table).where(and(...conditions)).limit(1);
      if (clash) {
        const message = ctx.t("api.duplicate", { label: this.label(ctx, field) });
        throw new ApiFailure("api.duplicate", { label: this.label(ctx, field) }, { errors: [{ field: field.name, message }] });
      }
    }
  }

  private validate(ctx: OperationContext, action: "add" | "edit"): Row {
    if (action === "edit") this.refuseAddOnlyFields(ctx);
    const parsed = recordSchema(this.entity, action).safeParse(ctx.payload);
    if (parsed.success) return parsed.data;
    const errors = fieldErrors(this.entity, parsed.error, ctx.t);
    throw new ApiFailure("api.invalid_params", { field: errors[0]?.field ?? "" }, { errors });
  }

  /**
   * The filtered, sorted list (at most MAX_EXPORT_ROWS rows) as an xlsx file of the list columns, with
   * labels and option texts in the caller's language.
   */
  async export(ctx: OperationContext) {
    const { conditions } = await this.scoped(ctx);
    conditions.push(...this.filterConditions(ctx.payload));
    const where = and(...conditions);
    const [{ total }] = await ctx.db.select({ total: count() }).from(this.table).where(where);
    if (Number(total) > MAX_EXPORT_ROWS) throw new ApiFailure("api.export_too_large", { max: MAX_EXPORT_ROWS });
    const rows = (await ctx.db
      .select()
      .from(this.table)
      .where(where)
      .orderBy(...this.ordering(ctx.payload.sort))
      .limit(MAX_EXPORT_ROWS)) as Row[];

    const { default: ExcelJS } = await import("exceljs");
    const workbook = new ExcelJS.Workbook();
    const title = labelText(ctx.t, this.entity.title, this.entity.name);
    const sheet = workbook.addWorksheet(title.slice(0, 31));
    const fields = this.entity.fields.filter((f) => f.list);
    sheet.columns = fields.map((f) => ({ header: this.label(ctx, f), key: f.name, width: Math.max(12, this.label(ctx, f).length + 4) }));
    sheet.getRow(1).font = { bold: true };
    for (const row of rows) {
      const api = serialiseRow(this.entity, row);
      sheet.addRow(Object.fromEntries(fields.map((f) => [f.name, exportCell(ctx, f, api[f.name])])));
    }
    const content = Buffer.from(await workbook.xlsx.writeBuffer());
    await writeAudit(ctx.db, {
      userId: ctx.auth?.userId,
      username: ctx.auth?.username,
      action: `${this.entity.name}export`,
      entity: this.entity.name,
      ip: ctx.ip,
      detail: { rows: rows.length },
    });
    return {
      data: {
        items: {
          filename: `${this.entity.name}-${businessDay(ctx.now)}.xlsx`,
          mime: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
          content_base64: content.toString("base64"),
        },
      },
    };
  }

  async list(ctx: OperationContext) {
    const { conditions } = await this.scoped(ctx);
    const payload = ctx.payload;
    const page = payload.page === undefined || payload.page === "" ? 1 : Number(payload.page);
    if (!Number.isSafeInteger(page) || page < 1) throw new ApiFailure("api.bad_page");
    const limit = payload.limit === undefined || payload.limit === "" ? DEFAULT_PAGE_SIZE : Number(payload.limit);
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) throw new ApiFailure("api.bad_limit", { max: MAX_PAGE_SIZE });

    conditions.push(...this.filterConditions(payload));
    const where = and(...conditions);
    const order = this.ordering(payload.sort);
    const [rows, [{ total }]] = await Promise.all([
      ctx.db.select().from(this.table).where(where).orderBy(...order).limit(limit).offset((page - 1) * limit),
      ctx.db.select({ total: count() }).from(this.table).where(where),
    ]);
    return { data: { items: rows.map((r) => serialiseRow(this.entity, r as Row)), total: Number(total) } };
  }

  private filterConditions(payload: Row): SQL[] {
    const conditions: SQL[] = [];
    const invalid = (field: string) => new ApiFailure("api.invalid_params", { field });
    for (const field of this.entity.fields) {
      if (!field.filter || !isColumnField(field)) continue;
      const column = this.column(field.name);
      if (field.filter === "range") {
        for (const suffix of ["_start", "_end"] as const) {
          const raw = payload[`${field.name}${suffix}`];
          if (raw === undefined || raw === null || raw === "") continue;
          // a time range given in days covers those business days whole
          if (field.type === "datetime" && typeof raw === "string" && isCalendarDay(raw.trim())) {
            const day = raw.trim();
            conditions.push(suffix === "_start" ? gte(column, businessDayStart(day)) : lt(column, businessDayStart(addDays(day, 1))));
            continue;
          }
          const value = this.filterValue(field, raw);
          if (value === undefined) throw invalid(`${field.name}${suffix}`);
          conditions.push(suffix === "_start" ? gte(column, value) : lte(column, value));
        }
        continue;
      }
      const raw = payload[field.name];
      if (raw === undefined || raw === null || raw === "") continue;
      if (field.filter === "like") {
        if (typeof raw !== "string" && typeof raw !== "number") throw invalid(field.name);
        const escaped = String(raw).replace(/[\\%_]/g, (c) => `\\${c}`);
        conditions.push(ilike(column, `%${escaped}%`));
      } else {
        const value = this.filterValue(field, raw);
        if (value === undefined) throw invalid(field.name);
        conditions.push(eq(column, value));
      }
    }
    return conditions;
  }

  /** A filter value in the column's stored form, or undefined when it does not fit the field. */
  private filterValue(field: FieldDecl, raw: unknown): unknown {
    if (typeof raw !== "string" && typeof raw !== "number") return undefined;
    const text = String(raw).trim();
    switch (field.type) {
      case "int": {
        const n = /^-?\d{1,10}$/.test(text) ? Number(text) : NaN;
        return n >= MIN_INT && n <= MAX_INT ? n : undefined;
      }
      case "money":
        return yuanToFen(text) ?? undefined;
      case "date":
        return isCalendarDay(text) ? text : undefined;
      case "datetime":
        // ISO 8601 with an offset (DESIGN 4); Date alone would take "2026-02-30" as 2 March
        return isoTime.safeParse(text).success && isCalendarDay(text.slice(0, 10)) ? new Date(text) : undefined;
      case "yesno":
      case "enum":
        return (field.options ?? []).some((o) => o.value === text) ? text : undefined;
      default:
        return text;
    }
  }

  private ordering(sort: unknown): SQL[] {
    const fallback = this.entity.defaultSort ?? { field: "id", order: "desc" as const };
    let name = fallback.field;
    let direction: "asc" | "desc" = fallback.order;
    if (sort !== undefined && sort !== null && sort !== "") {
      const text = typeof sort === "string" ? sort.trim() : "";
      const match = /^([+-]?)([A-Za-z0-9_]+)$/.exec(text);
      const field = match ? this.entity.fields.find((f) => f.name === match[2]) : undefined;
      if (!match || !field || !field.sortable || !isColumnField(field)) throw new ApiFailure("api.bad_sort", { field: text.slice(0, 50) });
      name = field.name;
      direction = match[1] === "-" ? "desc" : "asc";
    }
    const by = direction === "desc" ? desc : asc;
    // id breaks ties so pages never overlap
    return name === "id" ? [by(this.column("id"))] : [by(this.column(name)), by(this.column("id"))];
  }

  async info(ctx: OperationContext) {
    const { conditions } = await this.scoped(ctx);
    const row = await this.findOne(ctx.db, this.recordId(ctx.payload), conditions);
    if (!row) throw notFound();
    return { data: { items: serialiseRow(this.entity, row) } };
  }

  async add(ctx: OperationContext) {
    const { scope } = await this.scoped(ctx);
    const record = this.validate(ctx, "add");
    this.hooks.beforeAdd?.(ctx, scope, record);
    const virtual: Row = {};
    for (const field of formFields(this.entity, "add")) {
      if (!isColumnField(field)) {
        virtual[field.name] = record[field.name];
        delete record[field.name];
      }
    }
    if (this.tenant.sysid && this.tenant.sysid !== "id") {
      if (scope.sysid === null) throw new ApiFailure("api.scope_required");
      record[this.tenant.sysid] = scope.sysid;
    }
    if (this.tenant.schid && this.tenant.schid !== "id") {
      if (scope.schids === null || scope.schids.length !== 1 || ctx.payload.sch_id === undefined) throw new ApiFailure("api.school_required");
      record[this.tenant.schid] = scope.schids[0];
    }
    const row = await this.writing(ctx, () =>
      ctx.db.transaction(async (tx) => {
        await this.assertUnique(ctx, tx, record);
        const [inserted] = (await tx.insert(this.table).values(record).returning()) as Row[];
        await this.hooks.afterAdd?.(ctx, tx, inserted, virtual);
        await this.audit(ctx, tx, "add", inserted.id, { fields: Object.keys(record) });
        return inserted;
      }),
    );
    return { data: { items: serialiseRow(this.entity, row) } };
  }

  async edit(ctx: OperationContext) {
    const { conditions } = await this.scoped(ctx);
    const id = this.recordId(ctx.payload);
    const record = this.validate(ctx, "edit");
    for (const field of formFields(this.entity, "edit")) if (!isColumnField(field)) delete record[field.name];
    const row = await this.writing(ctx, () =>
      ctx.db.transaction(async (tx) => {
        const before = await this.findOne(tx, id, conditions);
        if (!before) throw notFound();
        await this.assertUnique(ctx, tx, record, id);
        const after =
          Object.keys(record).length === 0
            ? before
            : ((await tx.update(this.table).set(record).where(eq(this.column("id"), id)).returning()) as Row[])[0];
        await this.hooks.afterEdit?.(ctx, tx, before, after);
        await this.audit(ctx, tx, "edit", id, { fields: Object.keys(record) });
        return after;
      }),
    );
    return { data: { items: serialiseRow(this.entity, row) } };
  }

  async del(ctx: OperationContext) {
    const { conditions } = await this.scoped(ctx);
    const id = this.recordId(ctx.payload);
    await ctx.db.transaction(async (tx) => {
      const deleted = await tx
        .delete(this.table)
        .where(and(eq(this.column("id"), id), ...conditions))
        .returning({ id: this.column("id") });
      if (deleted.length === 0) throw notFound();
      await this.audit(ctx, tx, "del", id, {});
    });
    return {};
  }

  /** A unique index that a concurrent write hit first answers like the check before it. */
  private async writing<T>(ctx: OperationContext, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if (err instanceof ApiFailure || !isUniqueViolation(err)) throw err;
      throw new ApiFailure("api.duplicate", { label: labelText(ctx.t, this.entity.title, this.entity.name) });
    }
  }

  private async audit(ctx: OperationContext, tx: DbOrTx, action: CrudAction, id: unknown, detail: Row): Promise<void> {
    await writeAudit(tx, {
      userId: ctx.auth?.userId,
      username: ctx.auth?.username,
      action: `${this.entity.name}${action}`,
      entity: this.entity.name,
      entityId: String(id),
      ip: ctx.ip,
      detail,
    });
  }
}

export function registerCatalogueOperations(registry: OperationRegistry, entities: readonly EntityDecl[]): void {
  for (const entity of entities) {
    const table = catalogueTables[entity.name];
    if (!table) throw new Error(`entity ${entity.name} has no table in server/db/schema.ts`);
    const crud = new EntityCrud(entity, table);
    const actions: Record<CrudAction, (ctx: OperationContext) => Promise<{ data?: Row }>> = {
      list: (ctx) => crud.list(ctx),
      info: (ctx) => crud.info(ctx),
      add: (ctx) => crud.add(ctx),
      edit: (ctx) => crud.edit(ctx),
      del: (ctx) => crud.del(ctx),
    };
    if (entity.exportOperation && entity.roles.list?.length) {
      registry.add({
        path: entity.apiPath ?? "adminapiv2",
        method: entity.exportOperation,
        needsToken: true,
        roles: entity.roles.list,
        effect: "read",
        handler: (ctx) => crud.export(ctx),
      });
    }
    for (const action of Object.keys(actions) as CrudAction[]) {
      const roles = entity.roles[action];
      if (!roles || roles.length === 0) continue;
      registry.add({
        path: entity.apiPath ?? "adminapiv2",
        method: `${entity.name}${action}`,
        needsToken: true,
        roles,
        effect: action === "list" || action === "info" ? "read" : "write",
        handler: (ctx) => actions[action](ctx),
      });
    }
  }
}
