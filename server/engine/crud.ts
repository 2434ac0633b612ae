/**
 * The generic catalogue operations of every entity in resources.config.ts: {name}list / info / add / edit / del,
 * allowed to the role keys the entity declares, validated from its fields and filtered by the caller's tenant.
 */
import { createHash } from "node:crypto";
import { and, asc, count, desc, eq, fillPlaceholders, getTableColumns, gte, ilike, lt, lte, ne, sql, type Placeholder, type SQL } from "drizzle-orm";
import type { AnyPgColumn, SelectedFields } from "drizzle-orm/pg-core";
import { FILTER_TEXT_MAX, type CrudAction, type EntityDecl, type FieldDecl, type SummaryInStates } from "../../common/catalogue";
import { auditCall } from "../auth/audit";
import { parseTenantId, resolveScope, schoolOfWrite, type Scope } from "../auth/scope";
import { tenantFilter } from "../auth/tenantFilter";
import { isColumnField, tableColumn, tenantColumnNames, uniqueColumns, uniqueIndexName, type CatalogueTable } from "../db/catalogueTables";
import { textRowsReader, type DbOrTx } from "../db/client";
import { errorConstraint, FOREIGN_KEY_VIOLATION, hasErrorCode, UNIQUE_VIOLATION } from "../db/errors";
import { catalogueTables } from "../db/schema";
import { businessDaySql, DAY, ROW_COUNT, stateTotalsDays, stateTotalsFlag, stateTotalsGrouping, stateTotalsSelection, stateTotalsTable } from "../db/stateTotals";
import { addDays, businessDayStart, isCalendarDay } from "../../common/term";
import { labelText, type Translate } from "../lib/i18n";
import { ApiFailure, JsonText, notFound } from "../protocol/envelope";
import type { OperationContext, OperationRegistry } from "../protocol/registry";
import { fieldSeenBy, refShownTitle } from "../../common/fieldRules";
import type { ListSummary, ListTabs } from "../../common/listAnswer";
import { fenToYuan } from "../../common/money";
import { kindOf } from "./fieldKinds";
import { checkFieldRelations, inapplicableValues } from "./fieldRelations";
import { recordTimeline } from "./timeline";
import { fieldErrors, fieldsSchema, formFields, recordSchema } from "./fieldSchemas";
import type { EntityHooks, EntityHooksByName, Row } from "./hooks";
import { multipleReferenceFields, References, stillReferenced } from "./references";
import { ChildRecords } from "./children";
import { pageColumns } from "./listPage";
import { EXPORT_BATCH_ROWS, MAX_SHEET_ROWS, registerExportOperation, type Exporter } from "./exports";

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;

/**
 * The record as the API carries it: each value in its kind's API form (money in yuan strings, times in ISO 8601);
 * a list's row as lists carry it (an identity card masked).
 */
export function serialiseRow(entity: EntityDecl, row: Row, form: "record" | "list" = "record"): Row {
  const fields = fieldsByName(entity);
  const out: Row = {};
  for (const [name, value] of Object.entries(row)) {
    const field = fields.get(name);
    // a secret column is read, never answered
    if (field?.secret) continue;
    out[name] = apiValue(field, form)(value);
  }
  return out;
}

type ApiValue = (value: unknown) => unknown;

/** a column no field declares: a time in ISO 8601, anything else as it is */
const undeclaredApiValue: ApiValue = (value) => (value instanceof Date ? value.toISOString() : value);
const apiValues = new WeakMap<FieldDecl, Record<"record" | "list", ApiValue>>();

/** How a stored value of `field` becomes its API form in a record or a list (made once per field). */
function apiValue(field: FieldDecl | undefined, form: "record" | "list"): ApiValue {
  if (!field) return undeclaredApiValue;
  let made = apiValues.get(field);
  if (!made) {
    const { toApi, listValue } = kindOf(field);
    const record: ApiValue = (value) => (value === null || value === undefined ? value : toApi ? toApi(field, value) : undeclaredApiValue(value));
    const list: ApiValue = listValue
      ? (value) => {
          const api = record(value);
          return api === null || api === undefined ? api : listValue(field, api);
        }
      : record;
    apiValues.set(field, (made = { record, list }));
  }
  return made[form];
}

/** An entity's fields by name, built once: every row of every answer looks its columns up here. */
const fieldMaps = new WeakMap<EntityDecl, Map<string, FieldDecl>>();
function fieldsByName(entity: EntityDecl): Map<string, FieldDecl> {
  let map = fieldMaps.get(entity);
  if (!map) {
    map = new Map(entity.fields.map((f) => [f.name, f]));
    fieldMaps.set(entity, map);
  }
  return map;
}

/**
 * A value as a spreadsheet cell: as its kind writes it (option labels in the caller's language, times as the list
 * shows them); the sheet keeps a text from being read as a formula (server/engine/exports.ts).
 */
function exportCell(ctx: OperationContext, field: FieldDecl, value: unknown): string | number | null {
  if (value === null || value === undefined) return null;
  const cell = kindOf(field).exportCell;
  if (cell) return cell(field, value, ctx.t);
  return typeof value === "number" ? value : String(value);
}

/** A column of a list's table by a field's API name. */
export type ColumnOf = (name: string) => AnyPgColumn;

/** `page` and `limit` of a list call (page from 1, limit at most MAX_PAGE_SIZE). */
export function listPaging(payload: Row): { page: number; limit: number } {
  const page = payload.page === undefined || payload.page === "" ? 1 : Number(payload.page);
  if (!Number.isSafeInteger(page) || page < 1) throw new ApiFailure("api.bad_page");
  const limit = payload.limit === undefined || payload.limit === "" ? DEFAULT_PAGE_SIZE : Number(payload.limit);
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) throw new ApiFailure("api.bad_limit", { max: MAX_PAGE_SIZE });
  return { page, limit };
}

/** A filter value in the column's stored form, or undefined when it does not fit the field. */
function filterValue(field: FieldDecl, raw: unknown): unknown {
  if (typeof raw !== "string" && typeof raw !== "number") return undefined;
  return kindOf(field).filterValue(field, String(raw).trim());
}

/**
 * The values of a statement kept apart from its text: each value becomes a placeholder, and the statement's shape
 * (which conditions it has, not their values) names it, so statements of one shape are built and planned once.
 */
export class StatementValues {
  readonly values: Record<string, unknown> = {};
  private readonly parts: string[] = [];

  /**
   * A placeholder for `value`, in `column`'s driver form (a placeholder's value skips the column's own encoding);
   * `part` says what it stands for in the statement's shape.
   */
  bind(part: string, value: unknown, column?: AnyPgColumn): Placeholder {
    const name = `p${this.parts.length}`;
    this.parts.push(part);
    this.values[name] = column && value !== null && value !== undefined ? column.mapToDriverValue(value) : value;
    return sql.placeholder(name);
  }

  /** A part of the shape that carries no value (a condition that is always false, an order). */
  mark(part: string): void {
    this.parts.push(`#${part}`);
  }

  get shape(): string {
    return this.parts.join("|");
  }
}

/** A value as itself, or through `values` as a placeholder when the statement is prepared. */
type Bind = <T>(part: string, value: T) => T | Placeholder;
const inline: Bind = (_part, value) => value;

/**
 * Filters whose condition is more than a comparison of their column, by field name: given the value as the filter
 * takes it (a `like` filter's pattern), as a placeholder when the statement is prepared.
 */
export type FilterConditions = Readonly<Record<string, (value: unknown) => SQL>>;

/**
 * The conditions of a list's filters (`field`, or `field_start` / `field_end` for ranges) on the entity's filter
 * fields; `values` makes them placeholders of a prepared statement. `skip`: fields already narrowed otherwise;
 * `own`: the conditions of filters that are not their column's comparison.
 */
export function listFilters(entity: EntityDecl, payload: Row, column: ColumnOf, values?: StatementValues, skip: readonly string[] = [], own: FilterConditions = {}): SQL[] {
  const conditions: SQL[] = [];
  const invalid = (field: string) => new ApiFailure("api.invalid_params", { field });
  for (const field of entity.fields) {
    if (!field.filter || !isColumnField(field) || skip.includes(field.name)) continue;
    const col = column(field.name);
    const condition = Object.hasOwn(own, field.name) ? own[field.name] : undefined;
    const bind: Bind = values ? (part, value) => values.bind(part, value, condition === undefined ? col : undefined) : inline;
    if (field.filter === "range") {
      for (const suffix of ["_start", "_end"] as const) {
        const raw = payload[`${field.name}${suffix}`];
        if (raw === undefined || raw === null || raw === "") continue;
        // a time range given in days covers those business days whole
        if (field.type === "datetime" && typeof raw === "string" && isCalendarDay(raw.trim())) {
          const day = raw.trim();
          // a day's bound reads otherwise than an exact time's (before the next day): its own part of the shape
          const part = `${field.name}${suffix} day`;
          conditions.push(suffix === "_start" ? gte(col, bind(part, businessDayStart(day))) : lt(col, bind(part, businessDayStart(addDays(day, 1)))));
          continue;
        }
        const value = filterValue(field, raw);
        if (value === undefined) throw invalid(`${field.name}${suffix}`);
        const part = `${field.name}${suffix}`;
        conditions.push(suffix === "_start" ? gte(col, bind(part, value)) : lte(col, bind(part, value)));
      }
      continue;
    }
    const raw = payload[field.name];
    if (raw === undefined || raw === null || raw === "") continue;
    if (field.filter === "like") {
      if (typeof raw !== "string" && typeof raw !== "number") throw invalid(field.name);
      if (String(raw).length > FILTER_TEXT_MAX) throw new ApiFailure("api.filter_too_long", { field: field.name, max: FILTER_TEXT_MAX });
      const escaped = String(raw).replace(/[\\%_]/g, (c) => `\\${c}`);
      const pattern = bind(field.name, `%${escaped}%`);
      conditions.push(condition ? condition(pattern) : ilike(col, pattern));
    } else {
      const value = filterValue(field, raw);
      if (value === undefined) throw invalid(field.name);
      conditions.push(condition ? condition(bind(field.name, value)) : eq(col, bind(field.name, value)));
    }
  }
  return conditions;
}

/** A list's order: `sort` ("field" or "-field", a sortable field) or the entity's default, id breaking ties. */
export interface ListSort {
  field: string;
  order: "asc" | "desc";
}

/** The list's sort: the `sort` asked (`field` or `-field`, a sortable field), else the entity's default. */
export function listSort(entity: EntityDecl, sort: unknown): ListSort {
  const fallback = entity.defaultSort ?? { field: "id", order: "desc" as const };
  if (sort === undefined || sort === null || sort === "") return { field: fallback.field, order: fallback.order };
  const text = typeof sort === "string" ? sort.trim() : "";
  const match = /^([+-]?)([A-Za-z0-9_]+)$/.exec(text);
  const field = match ? entity.fields.find((f) => f.name === match[2]) : undefined;
  if (!match || !field || !field.sortable || !isColumnField(field)) throw new ApiFailure("api.bad_sort", { field: text.slice(0, 50) });
  return { field: field.name, order: match[1] === "-" ? "desc" : "asc" };
}

function listOrderBy(sort: ListSort, column: ColumnOf): SQL[] {
  const by = sort.order === "desc" ? desc : asc;
  // id breaks ties so pages never overlap
  return sort.field === "id" ? [by(column("id"))] : [by(column(sort.field)), by(column("id"))];
}

export function listOrder(entity: EntityDecl, sort: unknown, column: ColumnOf): SQL[] {
  return listOrderBy(listSort(entity, sort), column);
}

/**
 * The rows after (`value`, `id`) in the order of `sort`, PostgreSQL's: nulls last ascending, first descending. A
 * row comparison, which an index on (field, id) reads as one range.
 */
function keysetAfter(sort: ListSort, column: AnyPgColumn, id: AnyPgColumn, value: unknown, lastId: unknown): SQL {
  const after = sort.order === "asc" ? ">" : "<";
  if (sort.field === "id") return sql`${id} ${sql.raw(after)} ${lastId}`;
  if (value === null || value === undefined) {
    return sort.order === "asc" ? sql`(${column} is null and ${id} > ${lastId})` : sql`(${column} is not null or ${id} < ${lastId})`;
  }
  const beyond = sql`(${column}, ${id}) ${sql.raw(after)} (${sql.param(value, column)}, ${lastId})`;
  return sort.order === "asc" ? sql`(${beyond} or ${column} is null)` : beyond;
}

/** Whether `sent` is `stored` (the field's stored form) once checked as the field's input: compared in API form. */
function holdsStoredValue(field: FieldDecl, sent: unknown, stored: unknown): boolean {
  const parsed = fieldsSchema([field], "add").safeParse({ [field.name]: sent });
  if (!parsed.success) return false;
  const api = apiValue(field, "record");
  return JSON.stringify(api(parsed.data[field.name]) ?? null) === JSON.stringify(api(stored) ?? null);
}

/**
 * A field set only when the record is added (a school's first term, an account's username) may be sent on edit
 * holding its current value, as a client sending back the whole record does, and changes nothing; any other
 * value is refused (api.field_readonly naming it), never ignored. A field the record does not carry (a password,
 * a virtual field) has no current value to hold and is refused whenever it is sent. `stored`: the record as
 * stored, by field name.
 */
export function refuseChangedAddOnlyFields(entity: EntityDecl, ctx: OperationContext, stored: Row): void {
  for (const field of entity.fields) {
    if (field.form !== "add" || ctx.payload[field.name] === undefined) continue;
    const carried = field.type !== "password" && !field.virtual && Object.hasOwn(stored, field.name);
    if (carried && holdsStoredValue(field, ctx.payload[field.name], stored[field.name])) continue;
    const label = labelText(ctx.t, field.label, field.name);
    throw new ApiFailure("api.field_readonly", { label }, { errors: [{ field: field.name, message: ctx.t("api.field_readonly", { label }) }] });
  }
}

export function parseRecordId(value: unknown): number {
  const id = parseTenantId(value);
  if (id === undefined) throw notFound();
  return id;
}

/**
 * A prepared query that also answers its rows as the driver gives them, keyed by column name, before drizzle maps
 * them: the prepared queries of both drivers have `all` (drizzle's own `session.all` calls it), which drizzle's
 * types keep internal. Every list test on either database goes through it.
 */
function rawRows<T extends object>(query: T): T & { all(values: Record<string, unknown>): Promise<Row[]> } {
  if (typeof (query as { all?: unknown }).all !== "function") throw new Error("this drizzle driver's prepared queries have no all()");
  return query as T & { all(values: Record<string, unknown>): Promise<Row[]> };
}

/**
 * Conditions that keep a query on an entity's table inside the caller's tenant (tenantFilter on its tenant
 * columns; a platform entity with a provider column, to its provider); `values` makes them placeholders.
 */
export function entityTenantConditions(entity: EntityDecl, table: CatalogueTable, ctx: OperationContext, scope: Scope, values?: StatementValues): SQL[] {
  const bind: Bind = values ? (part, value) => values.bind(part, value) : inline;
  if (entity.scope === "platform") {
    if (entity.providerColumn && ctx.auth?.userType !== "system") return [eq(tableColumn(table, entity.providerColumn), bind("provider", scope.sysid ?? -1))];
    return [];
  }
  const tenant = tenantColumnNames(entity);
  const columns = {
    sysid: tenant.sysid ? tableColumn(table, tenant.sysid) : undefined,
    schid: tenant.schid ? tableColumn(table, tenant.schid) : undefined,
    pickupPoint: tenant.pickupPoint ? tableColumn(table, tenant.pickupPoint) : undefined,
  };
  return tenantFilter(scope, columns, { bind, onNoSchool: () => values?.mark("no school") });
}

/**
 * FAIL when a record's state does not allow what is asked (an action from another state, an edit outside the
 * states it is editable in), naming the state as the user sees it.
 */
export function wrongState(ctx: OperationContext, entity: EntityDecl, state: unknown, actionLabel: string): ApiFailure {
  const field = entity.fields.find((f) => f.name === entity.stateField);
  const option = field?.options?.find((o) => o.value === String(state));
  return new ApiFailure("api.wrong_state", { action: ctx.t(actionLabel), state: option ? ctx.t(option.label) : String(state) });
}

/**
 * the name of a list page's total among its columns (no field's name); with a summary, the total and the sums
 * as one array `{count,sum,...}` in text
 */
const LIST_TOTAL = "__total";
const LIST_STATE_TOTALS = "__state_totals";
/** the caller's session's state, read beside the page (RecentSessions) */
const LIST_SESSION = "__session";

/** lists of one entity prepared at once, at most */
const MAX_LIST_SHAPES = 200;

type ListStatement = ReturnType<EntityCrud["listStatement"]>;
type TabsStatement = ReturnType<EntityCrud["tabsStatement"]>;
type StateTotalsStatement = ReturnType<EntityCrud["stateTotalsStatement"]>;

/** Prepared statements of one entity by database and shape, at most MAX_LIST_SHAPES a database. */
class ShapeCache<T> {
  private readonly byDatabase = new WeakMap<object, Map<string, T>>();

  get(db: object, shape: string, make: () => T): T {
    let statements = this.byDatabase.get(db);
    if (!statements) this.byDatabase.set(db, (statements = new Map()));
    let statement = statements.get(shape);
    if (!statement) {
      statement = make();
      // shapes are few (filters used together); a flood of odd ones starts the cache afresh
      if (statements.size >= MAX_LIST_SHAPES) statements.clear();
      statements.set(shape, statement);
    }
    return statement;
  }
}

/**
 * A list call made ready for its statement (EntityCrud.listPlan): a pure function of the caller's kind and scope
 * and of the payload, kept for calls asking the same so that a list read again binds its values without building
 * its conditions again (building them cost more than the rest of the server's part of the call).
 */
interface ListPlan {
  shape: string;
  /** the statement's values but the session's (read-only: shared by every call of the plan) */
  values: Readonly<Record<string, unknown>>;
  page: number;
  /** whether the page's statement reads the state totals (tabs, total and summary) */
  stateTotals: boolean;
  /** the range of whole days those totals are the day totals of (stateTotals: { days }) */
  dayRange?: DayRange;
  statement(db: DbOrTx, sessionState?: SQL): ListStatement;
  /** the count of each state, for a list with states the totals do not answer */
  tabs?: { shape: string; statement(db: DbOrTx): TabsStatement };
}

/** A range of business days (YYYY-MM-DD, both ends within it) of the day totals' field; an end not given is open. */
interface DayRange {
  start?: string;
  end?: string;
}

/** the longest range of days whose page is read day by day (a year); a longer one is read as any other list */
const MAX_PAGE_DAYS = 366;

/** plans kept of one entity, at most: the oldest goes first */
const MAX_LIST_PLANS = 1000;
/** a call whose key is longer (a payload of long searches or unknown fields) is planned afresh, not kept */
const MAX_LIST_PLAN_KEY = 2000;

/** What a list plan depends on, as text: the caller's kind, its scope and the payload. */
function listPlanKey(auth: NonNullable<OperationContext["auth"]>, scope: Scope, payload: Row, readsSession: boolean): string {
  return JSON.stringify([auth.userType, scope.sysid, scope.schids, scope.pickupPointIds, readsSession, payload]);
}

class ListPlans {
  private readonly plans = new Map<string, ListPlan>();

  get(key: string, make: () => ListPlan): ListPlan {
    const kept = this.plans.get(key);
    if (kept) return kept;
    const plan = make();
    if (key.length > MAX_LIST_PLAN_KEY) return plan;
    if (this.plans.size >= MAX_LIST_PLANS) this.plans.delete(this.plans.keys().next().value!);
    this.plans.set(key, plan);
    return plan;
  }
}

/**
 * A list's page in API form, and the columns its first row carries (none when it is empty): its totals, and the
 * session's state when the statement read it.
 */
interface ListRead {
  items: JsonText | Row[];
  totals: unknown;
  session: unknown;
}

/**
 * A page of a range of days read day by day: the days, the order of ids, and the conditions each day is read under
 * (the tenant's and the state's: the days themselves stand for the range). The days are every day of the range (a
 * bound text array), or, where ids follow the days (`stateTotals.idsFollowDays`), those the page needs, chosen from
 * the day totals under their conditions (`totals`) in the page's state (`state`, a condition on the totals).
 */
interface DayPage {
  days: { every: Placeholder } | { totals: SQL; state: SQL };
  order: "asc" | "desc";
  where: SQL;
}

/** The days from `start` to `end`, both included (none when the end comes first). */
function daysOf(start: string, end: string): string[] {
  const days: string[] = [];
  for (let day = start; day <= end && days.length <= MAX_PAGE_DAYS; day = addDays(day, 1)) days.push(day);
  return days;
}

/** A page's size and offset. */
interface ListPaging {
  limit: number;
  offset: number;
}

/**
 * A whole number written into a statement's text rather than bound (a page's LIMIT, for the planner to see), given
 * as drizzle's limit() takes it: any SQL object is written as it is.
 */
function inlineNumber(value: number): Placeholder {
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`not a row count: ${value}`);
  return sql.raw(String(value)) as unknown as Placeholder;
}

/** what a state value written into a statement's text may be made of (a catalogue's state values are such words) */
const STATE_LITERAL = /^[A-Za-z0-9_]{1,32}$/;

/** A prepared statement's name: the entity, what it reads and a digest of its shape. */
function statementName(entity: EntityDecl, what: string, shape: string): string {
  return `${entity.name}_${what}_${createHash("sha1").update(shape).digest("hex").slice(0, 16)}`;
}

/** The state field of an entity: an enum of the entity's columns with its states as options. */
function stateFieldOf(entity: EntityDecl): FieldDecl | undefined {
  if (!entity.stateField) return undefined;
  const field = entity.fields.find((f) => f.name === entity.stateField);
  if (!field || field.type !== "enum" || !field.options?.length || !isColumnField(field)) {
    throw new Error(`${entity.name}: its stateField ${entity.stateField} is no enum column with options`);
  }
  return field;
}

/** The money fields an entity's list sums (`summary`), checked: money columns of the entity. */
function summaryFieldsOf(entity: EntityDecl): readonly string[] {
  for (const name of entity.summary ?? []) {
    const field = entity.fields.find((f) => f.name === name);
    if (!field || field.type !== "money" || !isColumnField(field)) throw new Error(`${entity.name}: its summary names ${name}, no money column of it`);
  }
  return entity.summary ?? [];
}

/** The sums over some states (`summaryInStates`), checked: each of a summary field, over states of the entity. */
function summaryInStatesOf(entity: EntityDecl, stateField: FieldDecl | undefined): readonly SummaryInStates[] {
  for (const sum of entity.summaryInStates ?? []) {
    const states = new Set(stateField?.options?.map((option) => option.value));
    if (!entity.summary?.includes(sum.field) || sum.states.length === 0 || sum.states.some((state) => !states.has(state) || !STATE_LITERAL.test(state))) {
      throw new Error(`${entity.name}: its summary in states ${sum.name} names no summary field or no states of it`);
    }
    const orSet = sum.orSet === undefined ? undefined : entity.fields.find((f) => f.name === sum.orSet);
    if (sum.orSet !== undefined && (!orSet || !isColumnField(orSet))) {
      throw new Error(`${entity.name}: its summary in states ${sum.name} counts records by ${sum.orSet}, no column of it`);
    }
  }
  return entity.summaryInStates ?? [];
}

class EntityCrud {
  private readonly tenant: { sysid?: string; schid?: string };
  private readonly hooks: EntityHooks;
  private readonly references: References;
  private readonly children: ChildRecords;
  /** references to several records, named after the page is read */
  private readonly multipleReferences: FieldDecl[];
  /** what recent list calls asked, made ready for their statements (listPlan) */
  private readonly listPlans = new ListPlans();
  /** prepared list statements by database and shape */
  private readonly listStatements = new ShapeCache<ListStatement>();
  /** prepared counts of the states by database and shape (the list's without its state condition) */
  private readonly tabsStatements = new ShapeCache<TabsStatement>();
  private readonly stateField: FieldDecl | undefined;
  private readonly summary: readonly string[];
  private readonly summaryInStates: readonly SummaryInStates[];
  /** whether the entity keeps state totals (server/db/stateTotals.ts), and their reads by database and shape */
  private readonly stateTotals: boolean;
  /** the datetime field whose business days the state totals are kept by too, if any */
  private readonly totalsDays: string | undefined;
  /** whether its ids follow the days of that field (`stateTotals.idsFollowDays`): a range's page reads only the days it needs */
  private readonly idsFollowDays: boolean;
  private readonly stateTotalsStatements = new ShapeCache<StateTotalsStatement>();

  constructor(
    private readonly entity: EntityDecl,
    private readonly table: CatalogueTable,
    catalogue: readonly EntityDecl[],
    hooks: EntityHooks = {},
  ) {
    this.tenant = tenantColumnNames(entity);
    this.hooks = hooks;
    this.references = new References(entity, catalogue);
    this.children = new ChildRecords(entity, catalogue);
    this.multipleReferences = multipleReferenceFields(entity);
    this.stateField = stateFieldOf(entity);
    this.summary = summaryFieldsOf(entity);
    this.summaryInStates = summaryInStatesOf(entity, this.stateField);
    this.stateTotals = Boolean(entity.stateTotals && this.stateField);
    this.totalsDays = this.stateTotals ? stateTotalsDays(entity) : undefined;
    this.idsFollowDays = this.totalsDays !== undefined && typeof entity.stateTotals === "object" && entity.stateTotals.idsFollowDays === true;
  }

  /** The record in API form with its references' names and its child records. */
  private async answer(db: DbOrTx, row: Row): Promise<Row> {
    const [items] = await this.references.attachTitles(db, [serialiseRow(this.entity, row)]);
    await this.children.attach(db, [items], (entity, child) => serialiseRow(entity, child));
    return items;
  }

  /** Writes the child rows sent and the parent's totals they give; answers the parent as it now stands. */
  private async saveChildren(tx: DbOrTx, row: Row, rows: ReturnType<ChildRecords["check"]>, t: Translate): Promise<Row> {
    if (rows.size === 0) return row;
    const totals = await this.children.save(tx, row, rows, t);
    if (Object.keys(totals).length === 0) return row;
    return ((await tx.update(this.table).set(totals).where(eq(this.column("id"), row.id)).returning()) as Row[])[0];
  }

  private column(name: string) {
    return tableColumn(this.table, name);
  }

  private label(ctx: OperationContext, field: FieldDecl): string {
    return labelText(ctx.t, field.label, field.name);
  }

  /**
   * The filters that are not their column's comparison: a reference searched by its records' names (among the
   * caller's), the domain's own (hooks.filters).
   */
  private ownFilters(ctx: OperationContext, scope: Scope, values?: StatementValues): FilterConditions {
    return { ...this.references.searchConditions((entity, table) => entityTenantConditions(entity, table, ctx, scope, values)), ...this.hooks.filters };
  }

  /** Conditions that keep a query inside the caller's tenant; `values` makes them placeholders. */
  private tenantConditions(ctx: OperationContext, scope: Scope, values?: StatementValues): SQL[] {
    return entityTenantConditions(this.entity, this.table, ctx, scope, values);
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

  /** `lock`: held FOR UPDATE until the transaction ends (a record about to be changed) */
  private async findOne(db: DbOrTx, id: number, conditions: SQL[], lock = false): Promise<Row | undefined> {
    const query = db
      .select()
      .from(this.table)
      .where(and(eq(this.column("id"), id), ...conditions));
    const [row] = lock ? await query.for("update") : await query;
    return row as Row | undefined;
  }

  /**
   * `record` holds the fields written; `stored` the whole record as it will be (its tenant columns, the reference a
   * field is unique within). A field is checked when it or what it is unique within is written.
   */
  private async assertUnique(ctx: OperationContext, db: DbOrTx, record: Row, stored: Row, exceptId?: number): Promise<void> {
    for (const field of this.entity.fields) {
      if (!field.unique || !isColumnField(field)) continue;
      const on = uniqueColumns(this.entity, field);
      if (!on.some((name) => record[name] !== undefined) || stored[field.name] === undefined || stored[field.name] === null) continue;
      const conditions = on.map((name) => eq(this.column(name), stored[name]));
      if (exceptId !== undefined) conditions.push(ne(this.column("id"), exceptId));
      const [clash] = await db.select({ id: this.column("id") }).from(this.table).where(and(...conditions)).limit(1);
      if (clash) throw this.duplicate(ctx, field);
    }
  }

  /** FAIL naming a unique field whose value is taken: within its tenant, or within the record it is unique within. */
  private duplicate(ctx: OperationContext, field: FieldDecl): ApiFailure {
    const label = this.label(ctx, field);
    const unique = field.unique;
    const within = typeof unique === "object" ? this.entity.fields.find((f) => f.name === unique.within) : undefined;
    const key = within ? "api.duplicate_within" : "api.duplicate";
    const params: Record<string, string> = within ? { label, within: this.label(ctx, within) } : { label };
    return new ApiFailure(key, params, { errors: [{ field: field.name, message: ctx.t(key, params) }] });
  }

  /** The fields of the action's form, checked (an edit's fields set only on add are checked against the record). */
  private validate(ctx: OperationContext, action: "add" | "edit"): Row {
    const parsed = recordSchema(this.entity, action).safeParse(ctx.payload);
    if (parsed.success) return parsed.data;
    const errors = fieldErrors(this.entity, parsed.error, ctx.t);
    throw new ApiFailure("api.invalid_params", { field: errors[0]?.field ?? "" }, { errors });
  }

  /** The list's conditions and sort as an export reads them: the filtered list on its tab, as the list shows it. */
  private async exportQuery(ctx: OperationContext): Promise<{ where: SQL | undefined; sort: ListSort }> {
    const { scope, conditions } = await this.scoped(ctx);
    conditions.push(...this.filterConditions(ctx.payload, this.ownFilters(ctx, scope)));
    const state = this.stateCondition(ctx.payload);
    if (state) conditions.push(state);
    return { where: and(...conditions), sort: listSort(this.entity, ctx.payload.sort) };
  }

  private async exportCount(ctx: OperationContext, where: SQL | undefined): Promise<number> {
    const [{ total }] = await ctx.db.select({ total: count() }).from(this.table).where(where);
    const rows = Number(total);
    if (rows > MAX_SHEET_ROWS) throw new ApiFailure("api.export_too_large", { max: MAX_SHEET_ROWS });
    return rows;
  }

  /**
   * The export of the list (a job of the download centre, server/engine/exports.ts): the list columns (and the fields
   * written in exports only) with labels
   * and option texts in the caller's language, read in pages that follow the list's order from where the last one
   * ended, so that every page is a short indexed read however long the list.
   */
  exporter(): Exporter {
    return {
      check: async (ctx) => {
        const { where } = await this.exportQuery(ctx);
        await this.exportCount(ctx, where);
      },
      write: async (ctx, out) => {
        const { where, sort } = await this.exportQuery(ctx);
        const total = await this.exportCount(ctx, where);
        const fields = this.entity.fields.filter((f) => (f.list || f.exported) && fieldSeenBy(f, ctx.roles));
        out.begin(
          labelText(ctx.t, this.entity.title, this.entity.name),
          fields.map((f) => ({ key: f.name, header: this.label(ctx, f), format: f.type === "money" || f.type === "date" || f.type === "datetime" ? f.type : undefined })),
        );
        const order = listOrderBy(sort, (name) => this.column(name));
        let last: Row | undefined;
        let written = 0;
        while (written < total) {
          const after = last && keysetAfter(sort, this.column(sort.field), this.column("id"), last[sort.field], last.id);
          const page = (await ctx.db
            .select()
            .from(this.table)
            .where(and(where, after))
            .orderBy(...order)
            .limit(Math.min(EXPORT_BATCH_ROWS, total - written))) as Row[];
          if (page.length === 0) break;
          const apiRows = await this.references.attachTitles(ctx.db, page.map((row) => serialiseRow(this.entity, row)));
          for (const api of apiRows) {
            // a reference is written by the referred record's name (the first of several's, with their count)
            out.row(Object.fromEntries(fields.map((f) => [f.name, exportCell(ctx, f, f.type === "ref" ? refShownTitle(f, api, ctx.t) : api[f.name])])));
          }
          written += page.length;
          last = page[page.length - 1];
          await out.progress((written * 100) / total);
        }
        return written;
      },
    };
  }

  /**
   * A page of the list and its total in one statement, prepared once per shape (its conditions and order, not
   * their values) and database, so a list read again is neither built nor planned again. An entity with states
   * also answers each state's count under the other conditions (`data.tabs`), one grouped statement prepared the
   * same way; one with a summary answers its money fields' sums over the conditions (`data.summary`), computed
   * with the total.
   */
  async list(ctx: OperationContext) {
    const auth = ctx.auth;
    if (!auth) throw notFound();
    const scope = await resolveScope(ctx.db, auth, ctx.payload);
    const payload = ctx.payload;
    // the session's state read beside the page confirms a session this process resolved lately (RecentSessions)
    const sessionState = ctx.sessionState;
    const plan = this.listPlans.get(listPlanKey(auth, scope, payload, Boolean(sessionState)), () => this.listPlan(ctx, scope, Boolean(sessionState)));
    const values = sessionState ? { ...plan.values, ...sessionState.values } : plan.values;
    const statement = this.listStatements.get(ctx.db, plan.shape, () => plan.statement(ctx.db, sessionState?.sql));
    const tabsPlan = plan.tabs;
    const tabs = tabsPlan ? this.tabsStatements.get(ctx.db, tabsPlan.shape, () => tabsPlan.statement(ctx.db)) : undefined;
    const data: Row = {};
    // the states' counts are read alongside the page
    const [read, stateCounts] = await Promise.all([statement.page(values), tabs?.execute(values)]);
    if (sessionState && read.session !== undefined) sessionState.read = read.session;
    if (plan.stateTotals) {
      // an empty page carries no totals: they are read apart
      const stateRows = read.totals !== undefined ? (JSON.parse(String(read.totals)) as Row[]) : await this.stateTotalsRead(ctx, scope, plan.dayRange);
      data.items = read.items;
      Object.assign(data, this.readStateTotals(stateRows, payload[this.stateField!.name]));
    } else {
      // an empty page says nothing of the total but on the first page; beyond the last one it is counted apart
      const aggregate = read.totals !== undefined ? read.totals : plan.page === 1 ? undefined : (await statement.count.all(values))[0]?.[LIST_TOTAL];
      const { total, summary } = this.readAggregate(aggregate);
      data.items = read.items;
      data.total = total;
      if (stateCounts) data.tabs = this.readTabs(stateCounts);
      if (summary) data.summary = summary;
    }
    // the names of references to several records (an activity's classes) come with the page, one query each
    if (this.multipleReferences.length > 0) await this.references.attachTitles(ctx.db, data.items as Row[], this.multipleReferences);
    return { data };
  }

  /**
   * What a list call asks, made ready for its statement: the shape and values of its page (the session's values
   * come per call), and how to build the statements of that shape when they are not prepared yet.
   */
  private listPlan(ctx: OperationContext, scope: Scope, readsSession: boolean): ListPlan {
    const payload = ctx.payload;
    const { page, limit } = listPaging(payload);
    const values = new StatementValues();
    const conditions = this.tenantConditions(ctx, scope, values);
    const tenantConditions = [...conditions];
    // the scope already holds the records to the school and provider the payload names
    const tenantColumns = [this.tenant.schid, this.tenant.sysid].filter((name): name is string => Boolean(name) && name !== "id");
    const skipped = this.stateField ? [...tenantColumns, this.stateField.name] : tenantColumns;
    const filters = listFilters(this.entity, payload, (name) => this.column(name), values, skipped, this.ownFilters(ctx, scope, values));
    conditions.push(...filters);
    // narrowed by nothing but its tenant and state: its tabs, total and summary are the kept state totals, read by
    // the page's own statement (one round trip: on this kind of machine a query's write and read cost more than
    // the reading of the totals); narrowed by a range of whole days too, the day totals of those days
    const dayRange = filters.length > 0 ? this.totalsDayRange(payload, skipped) : undefined;
    const totals = this.stateTotals && (filters.length === 0 || dayRange) ? this.stateTotalsWhere(ctx, scope, values, dayRange) : undefined;
    if (totals) values.mark(dayRange ? "day totals" : "state totals");
    // the state's condition comes last, so that the tabs' statement is the list's shape and values up to here
    const tabsShape = values.shape;
    const tabsWhere = this.stateField && !totals ? (and(...conditions) ?? sql`true`) : undefined;
    const state = this.stateCondition(payload, values);
    if (state) conditions.push(state);
    const order = this.ordering(payload.sort);
    values.mark(`sort ${typeof payload.sort === "string" ? payload.sort.trim() : ""}`);
    const sort = listSort(this.entity, payload.sort);
    // a range of a year's days at most, in id order: its page read day by day (the days' text array, bound)
    const pageDays = dayRange?.start && dayRange.end && sort.field === "id" ? daysOf(dayRange.start, dayRange.end) : undefined;
    // each day read without the range's own bounds: the planner, which cannot see a bound range's width, took it for
    // a narrow one, costed every day's read as a scan of the day and planned each call anew (half of the page's time)
    // where ids follow the days, the days it needs, counted from the day totals in the page's state
    const totalsState = pageDays && totals && this.idsFollowDays ? this.totalsStateCondition(payload) : undefined;
    const dayPage: DayPage | undefined =
      pageDays && pageDays.length <= MAX_PAGE_DAYS
        ? {
            days: totalsState && totals ? { totals, state: totalsState } : { every: values.bind("page days", `{${pageDays.join(",")}}`) },
            order: sort.order,
            where: and(...tenantConditions, ...(state ? [state] : [])) ?? sql`true`,
          }
        : undefined;
    // the page's size, and the first page's offset, are part of the statement's text: the planner then knows how
    // few rows are wanted and keeps one plan for every call of the shape (a LIMIT or OFFSET it cannot see makes it
    // expect a tenth of the matches and plan every call anew, which cost more than the read)
    const paging: ListPaging = { limit, offset: (page - 1) * limit };
    values.mark(`limit ${limit}${paging.offset === 0 ? " first page" : ""}`);
    if (paging.offset > 0) values.values.offset = paging.offset;
    if (readsSession) values.mark("session state");
    const where = and(...conditions) ?? sql`true`;
    const shape = values.shape;
    return {
      shape,
      values: Object.freeze(values.values),
      page,
      stateTotals: totals !== undefined,
      dayRange,
      statement: (db, sessionState) => this.listStatement(db, where, order, shape, paging, totals && { where: totals, byDay: dayRange !== undefined }, sessionState, dayPage),
      tabs: tabsWhere ? { shape: tabsShape, statement: (db) => this.tabsStatement(db, tabsWhere, tabsShape) } : undefined,
    };
  }

  /**
   * The range of whole days a list is narrowed to, when its filters are nothing but that range of the day totals'
   * field (each end given as a day: an exact time is counted from the rows); else undefined.
   */
  private totalsDayRange(payload: Row, skipped: readonly string[]): DayRange | undefined {
    if (!this.totalsDays) return undefined;
    const given = (value: unknown) => value !== undefined && value !== null && value !== "";
    const range: DayRange = {};
    for (const field of this.entity.fields) {
      if (!field.filter || !isColumnField(field) || skipped.includes(field.name)) continue;
      const keys = field.filter === "range" ? [`${field.name}_start`, `${field.name}_end`] : [field.name];
      for (const key of keys) {
        const raw = payload[key];
        if (!given(raw)) continue;
        if (field.name !== this.totalsDays || typeof raw !== "string" || !isCalendarDay(raw.trim())) return undefined;
        if (key.endsWith("_start")) range.start = raw.trim();
        else range.end = raw.trim();
      }
    }
    return range.start !== undefined || range.end !== undefined ? range : undefined;
  }

  /**
   * The state totals' rows within the caller's tenant (the totals carry the entity's tenant columns, and its
   * conditions), or the day totals' rows of a range of days.
   */
  private stateTotalsWhere(ctx: OperationContext, scope: Scope, values: StatementValues, dayRange?: DayRange): SQL {
    const table = stateTotalsTable(this.entity, dayRange !== undefined);
    const conditions = entityTenantConditions(this.entity, table, ctx, scope, values);
    if (dayRange?.start !== undefined) conditions.push(gte(tableColumn(table, DAY), values.bind("totals from day", dayRange.start)));
    if (dayRange?.end !== undefined) conditions.push(lte(tableColumn(table, DAY), values.bind("totals to day", dayRange.end)));
    return and(...conditions) ?? sql`true`;
  }

  /** Each state's count and sums under `where`, from the state totals (or the day totals): one grouped read. */
  private stateTotalsQuery(db: DbOrTx, where: SQL, byDay = false) {
    const table = stateTotalsTable(this.entity, byDay);
    const selection = Object.fromEntries(Object.entries(stateTotalsSelection(this.entity, byDay)).map(([key, value]) => [key, value.as(key)]));
    return db.select(selection).from(table).where(where).groupBy(...stateTotalsGrouping(this.entity, byDay));
  }

  /** The state (or day) totals within the caller's tenant, read apart from a page: prepared per shape of their conditions. */
  private async stateTotalsRead(ctx: OperationContext, scope: Scope, dayRange?: DayRange): Promise<Row[]> {
    const values = new StatementValues();
    const where = this.stateTotalsWhere(ctx, scope, values, dayRange);
    const byDay = dayRange !== undefined;
    const statement = this.stateTotalsStatements.get(ctx.db, values.shape, () => this.stateTotalsStatement(ctx.db, where, values.shape, byDay));
    return (await statement.execute(values.values)) as Row[];
  }

  private stateTotalsStatement(db: DbOrTx, where: SQL, shape: string, byDay: boolean) {
    return this.stateTotalsQuery(db, where, byDay).prepare(statementName(this.entity, "totals", shape));
  }

  /** The total, tabs and summary a list narrowed to `stateValue` (none: every state) answers from its state totals. */
  private readStateTotals(rows: Record<string, unknown>[], stateValue: unknown): Row {
    const chosen = stateValue === undefined || stateValue === null || stateValue === "" ? undefined : String(stateValue).trim();
    const counted = rows.filter((row) => chosen === undefined || row.value === chosen);
    const total = counted.reduce((sum, row) => sum + Number(row.count), 0);
    const answer: Row = { total, tabs: this.readTabs(rows.map((row) => ({ value: row.value, count: Number(row.count) }))) };
    if (this.summary.length > 0) {
      const sumOf = (rows: Row[], name: string) => fenToYuan(rows.reduce((sum, row) => sum + BigInt(String(row[name] ?? 0)), 0n));
      const summary: ListSummary = { count: total };
      for (const name of this.summary) summary[name] = sumOf(counted, name);
      for (const sum of this.summaryInStates) {
        // a state's totals come in a row per flag: those of records whose `orSet` column is set count whatever their state
        const flag = sum.orSet === undefined ? undefined : stateTotalsFlag(sum.orSet);
        summary[sum.name] = sumOf(counted.filter((row) => sum.states.includes(String(row.value)) || (flag !== undefined && row[flag] === true)), sum.field);
      }
      answer.summary = summary;
    }
    return answer;
  }

  /**
   * The condition of the state the list is narrowed to (a tab): the state field is always a filter of its list,
   * declared one or not; with `values`, a declared state is written into the statement (its shape names it) and
   * any other value is bound.
   */
  private stateCondition(payload: Row, values?: StatementValues): SQL | undefined {
    const field = this.stateField;
    const raw = field ? payload[field.name] : undefined;
    if (!field || raw === undefined || raw === null || raw === "") return undefined;
    const value = filterValue(field, raw);
    if (value === undefined) throw new ApiFailure("api.invalid_params", { field: field.name });
    const column = this.column(field.name);
    if (!values) return eq(column, value);
    // a declared state is written into the statement's text: the planner then reads its share of the rows from the
    // column's statistics and keeps one generic plan per state, where a bound state (a share it cannot know) made
    // every call plan anew, at several times the read's cost. The states are the catalogue's few fixed values.
    const literal = this.literalState(value);
    if (literal) {
      values.mark(`${field.name}=${literal}`);
      return sql`${column} = ${sql.raw(`'${literal}'`)}`;
    }
    return eq(column, values.bind(field.name, value, column));
  }

  /** A declared state, as statements write it into their text; undefined for any other value. */
  private literalState(value: unknown): string | undefined {
    const declared = this.stateField?.options?.find((option) => option.value === value);
    return declared && STATE_LITERAL.test(declared.value) ? declared.value : undefined;
  }

  /**
   * What a list counts over its conditions: the total, or with a summary the total and the sums as one array
   * (fen, summed exactly as bigint) in text.
   */
  private aggregate(): SQL {
    if (this.summary.length === 0) return sql`count(*)`;
    const sums = this.summary.map((name) => sql`coalesce(sum(${this.column(name)}), 0)`);
    for (const sum of this.summaryInStates) {
      // the states are the catalogue's fixed values (checked when the entity is built): written into the text
      const states = sql.raw(sum.states.map((state) => `'${state}'`).join(", "));
      const orSet = sum.orSet === undefined ? sql`` : sql` or ${this.column(sum.orSet)} is not null`;
      sums.push(sql`coalesce(sum(${this.column(sum.field)}) filter (where ${this.column(this.stateField!.name)} in (${states})${orSet}), 0)`);
    }
    return sql`array[count(*), ${sql.join(sums, sql`, `)}]::text`;
  }

  private readAggregate(raw: unknown): { total: number; summary?: ListSummary } {
    if (this.summary.length === 0) return { total: Number(raw ?? 0) };
    const parts = typeof raw === "string" ? raw.replace(/[{}]/g, "").split(",") : [];
    const total = Number(parts[0] ?? 0);
    const summary: ListSummary = { count: total };
    [...this.summary, ...this.summaryInStates.map((sum) => sum.name)].forEach((name, i) => (summary[name] = fenToYuan(BigInt(parts[i + 1] ?? 0))));
    return { total, summary };
  }

  /** Every declared state with its count (none: 0), and the total of all rows, whatever their state. */
  private readTabs(rows: { value: unknown; count: number }[]): ListTabs {
    // a state may come in several rows (the state totals' flags): its count is theirs together
    const counts = new Map<string, number>();
    for (const row of rows) counts.set(String(row.value), (counts.get(String(row.value)) ?? 0) + Number(row.count));
    const total = rows.reduce((sum, row) => sum + Number(row.count), 0);
    return { total, states: (this.stateField?.options ?? []).map((option) => ({ value: option.value, count: counts.get(option.value) ?? 0 })) };
  }

  /**
   * The prepared page (with its total) and count of a list of one shape, and the reading of the page. Where the
   * database can write every value's API form, the page is read as text and passed on as JSON (listPage.ts);
   * otherwise the driver's rows go straight to their API form, each column decoded as drizzle would, by a reader
   * made once per statement (drizzle's generic mapping of every value costs more than the rest of the answer).
   */
  private listStatement(db: DbOrTx, where: SQL, order: SQL[], shape: string, paging: ListPaging, stateTotals?: { where: SQL; byDay: boolean }, sessionState?: SQL, dayPage?: DayPage) {
    const name = statementName(this.entity, "list", shape);
    const tableColumns = getTableColumns(this.table);
    // the referred names come with the page, joined, rather than one query each
    const joins = this.references.titleJoins();
    for (const join of joins) {
      if (tableColumns[join.key] !== undefined) throw new Error(`${this.entity.name}: the name of ${join.key} is a column of its own`);
    }
    // the total (and a summary's sums) rides on the page as an uncorrelated subquery, computed once: one
    // statement a page, not two; or, for a list the state totals answer, those totals as JSON text, from the same
    // kind of subquery
    const aggregate = this.aggregate();
    const totalsKey = stateTotals ? LIST_STATE_TOTALS : LIST_TOTAL;
    const totals = stateTotals
      ? sql<string>`(select coalesce(json_agg(t), '[]')::text from (${this.stateTotalsQuery(db, stateTotals.where, stateTotals.byDay)}) t)`
      : sql<string>`(select ${aggregate} from ${this.table} where ${where})`;
    const reader = textRowsReader(db);
    const text = reader && this.multipleReferences.length === 0 ? pageColumns(this.entity, tableColumns, joins) : undefined;
    const selection: Record<string, unknown> = text ? { ...text.selection } : { ...tableColumns };
    if (!text) for (const join of joins) selection[join.key] = sql<string>`${join.title}`.as(join.key);
    selection[totalsKey] = totals.as(totalsKey);
    if (sessionState) selection[LIST_SESSION] = sessionState.as(LIST_SESSION);
    let pageQuery = db
      .select(selection as SelectedFields)
      .from(this.table)
      .$dynamic();
    for (const join of joins) for (const { table, on } of join.joins) pageQuery = pageQuery.leftJoin(table, on);
    const paged = pageQuery.where(dayPage ? this.dayPageCondition(order, paging, dayPage) : where).orderBy(...order).limit(inlineNumber(paging.limit)).offset(paging.offset === 0 ? 0 : sql.placeholder("offset"));
    const count = rawRows(db.select({ [LIST_TOTAL]: sql<string>`${aggregate}`.as(LIST_TOTAL) }).from(this.table).where(where).prepare(`${name}_count`));
    if (reader && text) {
      const query = paged.toSQL();
      const totalsAt = Object.keys(text.selection).length;
      return {
        count,
        /** the page as JSON text, and its totals' and session's columns (none when it is empty) */
        async page(values: Record<string, unknown>): Promise<ListRead> {
          const rows = await reader(`${name}_text`, query.sql, fillPlaceholders(query.params, values));
          const first = rows[0];
          return { items: new JsonText(text.json(rows)), totals: first?.[totalsAt], session: sessionState ? first?.[totalsAt + 1] : undefined };
        },
      };
    }
    const fields = fieldsByName(this.entity);
    // a secret column is never answered (FieldDecl.secret)
    const columns = Object.entries(tableColumns).filter(([key]) => !fields.get(key)?.secret).map(([key, column]) => {
      const toApi = apiValue(fields.get(key), "list");
      return { key, raw: column.name, value: (raw: unknown) => toApi(raw === null ? null : column.mapFromDriverValue(raw)) };
    });
    for (const join of joins) columns.push({ key: join.key, raw: join.key, value: (raw) => raw ?? null });
    const prepared = rawRows(paged.prepare(name));
    return {
      count,
      async page(values: Record<string, unknown>): Promise<ListRead> {
        const rows = await prepared.all(values);
        const items = rows.map((raw) => {
          const item: Row = {};
          for (const column of columns) item[column.key] = column.value(raw[column.raw]);
          return item;
        });
        const first = rows[0];
        return { items, totals: first?.[totalsKey], session: sessionState ? first?.[LIST_SESSION] : undefined };
      },
    };
  }

  /**
   * The ids of a page of a range of days in id order, read day by day: each day's first rows under the list's
   * conditions from the index on the tenant, state, day and id (stateTotals.ts dayPageIndexes), then the page of
   * theirs. A month's page reads a page of rows a day, where one read of the range read the month's rows or every
   * newer row of the state.
   */
  private dayPageCondition(order: SQL[], paging: ListPaging, dayPage: DayPage): SQL {
    const id = this.column("id");
    const rows = paging.offset === 0 ? inlineNumber(paging.limit) : sql`${inlineNumber(paging.limit)} + ${sql.placeholder("offset")}`;
    const direction = sql.raw(dayPage.order);
    const day = sql.raw(businessDaySql(this.totalsDays!));
    return sql`${id} in (select p.id from ${this.pageDaysSource(dayPage, rows)} cross join lateral (select ${id} from ${this.table} where ${dayPage.where} and ${day} = d.day order by ${sql.join(order, sql`, `)} limit ${rows}) as p order by p.id ${direction} limit ${rows})`;
  }

  /**
   * The days a page of a range reads, as `d(day)`: every day of the range; or, where ids follow the days, from the day
   * totals, the days in the page's order until they hold its rows, and the day after them (ids follow the days give
   * or take less than a day: a record of the day after may come before the last day's, one of any day beyond never).
   */
  private pageDaysSource(dayPage: DayPage, rows: SQL | Placeholder): SQL {
    if ("every" in dayPage.days) return sql`unnest(${dayPage.days.every}::date[]) as d(day)`;
    const table = stateTotalsTable(this.entity, true);
    const dayColumn = tableColumn(table, DAY);
    const count = tableColumn(table, ROW_COUNT);
    const direction = sql.raw(dayPage.order);
    // each day's rows and those of the days before it in the page's order; a day is read while those before it fall short
    return sql`(select c.day from (
        select b.day, lag(b.before) over (order by b.day ${direction}) as held
        from (select ${dayColumn} as day, sum(sum(${count})) over (order by ${dayColumn} ${direction}) - sum(${count}) as before
              from ${table} where ${dayPage.days.totals} and ${dayPage.days.state} group by ${dayColumn} having sum(${count}) > 0) b
      ) c where c.held is null or c.held < ${rows}) as d(day)`;
  }

  /**
   * The day totals' condition of the state a list is narrowed to (none: every state), where the state is a declared
   * one (written into the text, as stateCondition writes it); undefined for any other value, whose page reads every day.
   */
  private totalsStateCondition(payload: Row): SQL | undefined {
    const field = this.stateField!;
    const raw = payload[field.name];
    if (raw === undefined || raw === null || raw === "") return sql`true`;
    const literal = this.literalState(filterValue(field, raw));
    if (!literal) return undefined;
    return sql`${tableColumn(stateTotalsTable(this.entity, true), field.name)} = ${sql.raw(`'${literal}'`)}`;
  }

  /** The count of each state under a list's conditions but its state's: one grouped statement, read by the same indexes. */
  private tabsStatement(db: DbOrTx, where: SQL, shape: string) {
    const column = this.column(this.stateField!.name);
    return db.select({ value: column, count: count() }).from(this.table).where(where).groupBy(column).prepare(statementName(this.entity, "tabs", shape));
  }

  /** The list's filters but the state's (its own condition, `stateCondition`) and the tenant's. */
  private filterConditions(payload: Row, own: FilterConditions): SQL[] {
    return listFilters(this.entity, payload, (name) => this.column(name), undefined, this.stateField ? [this.stateField.name] : [], own);
  }

  private ordering(sort: unknown): SQL[] {
    return listOrder(this.entity, sort, (name) => this.column(name));
  }

  async info(ctx: OperationContext) {
    const { conditions } = await this.scoped(ctx);
    const row = await this.findOne(ctx.db, this.recordId(ctx.payload), conditions);
    if (!row) throw notFound();
    const items = await this.answer(ctx.db, row);
    if (this.entity.timeline) items.timeline = await recordTimeline(ctx.db, this.entity, Number(row.id));
    return { data: { items } };
  }

  async add(ctx: OperationContext) {
    const { scope } = await this.scoped(ctx);
    const record = this.validate(ctx, "add");
    const childRows = this.children.check(ctx, "add");
    // the rules between its fields, as the form checks them; a field its condition hides keeps no value
    Object.assign(record, inapplicableValues(this.entity.fields, record));
    checkFieldRelations(ctx, this.entity.fields, record);
    this.hooks.beforeAdd?.(ctx, scope, record);
    const virtual: Row = {};
    for (const field of formFields(this.entity, "add")) {
      if (!isColumnField(field)) {
        virtual[field.name] = record[field.name];
        delete record[field.name];
      }
    }
    const inherits = this.entity.tenantFrom !== undefined;
    if (!inherits && this.tenant.sysid && this.tenant.sysid !== "id") {
      if (scope.sysid === null) throw new ApiFailure("api.scope_required");
      record[this.tenant.sysid] = scope.sysid;
    }
    if (!inherits && this.tenant.schid && this.tenant.schid !== "id") {
      record[this.tenant.schid] = schoolOfWrite(scope, ctx.payload);
    }
    const row = await this.writing(ctx, () =>
      ctx.db.transaction(async (tx) => {
        if (inherits) Object.assign(record, await this.references.inheritedTenant(tx, ctx.t, record, (entity, table) => entityTenantConditions(entity, table, ctx, scope)));
        await this.assertUnique(ctx, tx, record, record);
        await this.references.check(tx, ctx.t, record, record);
        const inserted = await this.saveChildren(tx, ((await tx.insert(this.table).values(record).returning()) as Row[])[0], childRows, ctx.t);
        const answeredOnce = await this.hooks.afterAdd?.(ctx, tx, inserted, virtual);
        await this.audit(ctx, tx, "add", inserted, { fields: [...Object.keys(record), ...childRows.keys()] });
        const answer = this.children.declared ? await this.answer(tx, inserted) : serialiseRow(this.entity, inserted);
        return answeredOnce ? { ...answer, ...answeredOnce } : answer;
      }),
    );
    return { data: { items: row } };
  }

  async edit(ctx: OperationContext) {
    const { conditions } = await this.scoped(ctx);
    const id = this.recordId(ctx.payload);
    const record = this.validate(ctx, "edit");
    const childRows = this.children.check(ctx, "edit");
    for (const field of formFields(this.entity, "edit")) if (!isColumnField(field)) delete record[field.name];
    const row = await this.writing(ctx, () =>
      ctx.db.transaction(async (tx) => {
        const before = await this.findOne(tx, id, conditions, true);
        if (!before) throw notFound();
        this.assertEditable(ctx, before, "crud.edit");
        // a field set only on add (a school's first term) sent back as it stands is no change; another value is refused
        refuseChangedAddOnlyFields(this.entity, ctx, before);
        // the rules between fields hold for the record as it will be stored; a field its condition now hides is emptied
        Object.assign(record, inapplicableValues(this.entity.fields, { ...before, ...record }));
        const merged = { ...before, ...record };
        checkFieldRelations(ctx, this.entity.fields, merged);
        await this.assertUnique(ctx, tx, record, merged, id);
        await this.references.check(tx, ctx.t, merged, record);
        await this.hooks.beforeEdit?.(ctx, tx, before);
        const updated =
          Object.keys(record).length === 0
            ? before
            : ((await tx.update(this.table).set(record).where(eq(this.column("id"), id)).returning()) as Row[])[0];
        const after = await this.saveChildren(tx, updated, childRows, ctx.t);
        await this.hooks.afterEdit?.(ctx, tx, before, after);
        await this.audit(ctx, tx, "edit", after, { fields: [...Object.keys(record), ...childRows.keys()] });
        return this.children.declared ? this.answer(tx, after) : serialiseRow(this.entity, after);
      }),
    );
    return { data: { items: row } };
  }

  async del(ctx: OperationContext) {
    const { conditions } = await this.scoped(ctx);
    const id = this.recordId(ctx.payload);
    await this.writing(ctx, () =>
      ctx.db.transaction(async (tx) => {
        // another tenant's record is missing, whatever refers to it: look within the tenant first
        const found = await this.findOne(tx, id, conditions, true);
        if (!found) throw notFound();
        this.assertEditable(ctx, found, "crud.delete");
        // its own child records go with it; any other record referring to it keeps it
        await this.children.deleteAll(tx, id);
        await this.references.assertUnreferenced(tx, ctx.t, id);
        const deleted = await tx
        .delete(this.table)
        .where(and(eq(this.column("id"), id), ...conditions))
        .returning({ id: this.column("id") });
        if (deleted.length === 0) throw notFound();
        await this.audit(ctx, tx, "del", found, {});
      }),
      true,
    );
    return {};
  }

  /** A record with states is edited and deleted only in those its entity allows (a channel while draft or rejected). */
  private assertEditable(ctx: OperationContext, row: Row, actionLabel: string): void {
    const state = this.entity.stateField ? row[this.entity.stateField] : undefined;
    if (this.entity.editableIn && !this.entity.editableIn.includes(String(state))) throw wrongState(ctx, this.entity, state, actionLabel);
  }

  /** A unique index or a reference that a concurrent write hit first answers like the checks before it. */
  private async writing<T>(ctx: OperationContext, write: () => Promise<T>, deleting = false): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if (err instanceof ApiFailure) throw err;
      if (hasErrorCode(err, UNIQUE_VIOLATION)) {
        // the unique index a concurrent write hit first names its field, as the check before it would have
        const constraint = errorConstraint(err);
        const field = this.entity.fields.find((f) => f.unique && isColumnField(f) && uniqueIndexName(this.entity, f) === constraint);
        if (field) throw this.duplicate(ctx, field);
        throw new ApiFailure("api.duplicate", { label: labelText(ctx.t, this.entity.title, this.entity.name) });
      }
      // deleting: a record was added that refers to it; writing: the record it refers to was deleted meanwhile
      if (hasErrorCode(err, FOREIGN_KEY_VIOLATION)) throw deleting ? stillReferenced(ctx.t, this.entity, undefined) : new ApiFailure("api.reference_gone");
      throw err;
    }
  }

  /** Audits a write of `row`, with the provider and school its tenant columns hold (a provider's own record: its id). */
  private async audit(ctx: OperationContext, tx: DbOrTx, action: CrudAction, row: Row, detail: Row): Promise<void> {
    const tenantOf = (column: string | undefined): number | null => {
      const value = column === undefined ? null : row[column];
      return typeof value === "number" ? value : null;
    };
    await auditCall(tx, ctx, {
      action: `${this.entity.name}${action}`,
      entity: this.entity.name,
      entityId: String(row.id),
      detail,
      sysid: tenantOf(this.tenant.sysid ?? this.entity.providerColumn),
      schId: tenantOf(this.tenant.schid),
    });
  }
}

/** The generic operations of every entity, with the behaviour its domain adds (`hooks`, by entity name). */
export function registerCatalogueOperations(registry: OperationRegistry, entities: readonly EntityDecl[], hooks: EntityHooksByName = {}): void {
  // a domain's hooks under a misspelt or a hand-implemented entity's name would never run: refused at start
  for (const name of Object.keys(hooks)) {
    const entity = entities.find((e) => e.name === name);
    if (!entity || entity.implementedBy === "domain") throw new Error(`hooks are given for "${name}", which is no entity of the generic operations`);
  }
  for (const entity of entities) {
    if (entity.implementedBy === "domain") continue;
    const table = catalogueTables[entity.name];
    if (!table) throw new Error(`entity ${entity.name} has no table in server/db/schema.ts`);
    const crud = new EntityCrud(entity, table, entities, hooks[entity.name]);
    const actions: Record<CrudAction, (ctx: OperationContext) => Promise<{ data?: Row }>> = {
      list: (ctx) => crud.list(ctx),
      info: (ctx) => crud.info(ctx),
      add: (ctx) => crud.add(ctx),
      edit: (ctx) => crud.edit(ctx),
      del: (ctx) => crud.del(ctx),
    };
    if (entity.exportOperation && entity.roles.list?.length) {
      registerExportOperation(registry, {
        path: entity.apiPath ?? "adminapiv2",
        method: entity.exportOperation,
        roles: entity.roles.list,
        subject: entity.name,
        exporter: crud.exporter(),
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
        // a list's page reads the session's state beside its rows
        confirmsSession: action === "list",
        handler: (ctx) => actions[action](ctx),
      });
    }
  }
}
