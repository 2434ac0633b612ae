/**
 * References between catalogue entities (fields of kind "ref"): a referred record must lie in the record's own
 * tenant (and within the record it is narrowed by: a class of the chosen grade); lists and records carry the
 * referred record's name beside each id, resolved in one query per reference field and page, as the referred entity
 * says it is named elsewhere (EntityDecl.refTitle: a class with its grade, a student with their number); a record
 * still referred to cannot be deleted.
 */
import { and, count, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import { alias as aliasOf, type AnyPgColumn, type PgTable } from "drizzle-orm/pg-core";
import type { EntityDecl, FieldDecl } from "../../common/catalogue";
import { refTitleKey } from "../../common/fieldRules";
import { isColumnField, tableColumn, tenantColumnNames, type CatalogueTable } from "../db/catalogueTables";
import type { DbOrTx } from "../db/client";
import { catalogueTables } from "../db/schema";
import { labelText, type Translate } from "../lib/i18n";
import { ApiFailure } from "../protocol/envelope";
import type { Row } from "./hooks";

export interface ReferencedEntity {
  entity: EntityDecl;
  table: CatalogueTable;
}

/** The single reference fields of an entity that are columns of its table (a foreign key each). */
export function referenceFields(entity: EntityDecl): FieldDecl[] {
  return entity.fields.filter((f) => f.type === "ref" && f.ref && !f.multiple && isColumnField(f));
}

/** The reference fields holding several ids in one column (an activity's classes). */
export function multipleReferenceFields(entity: EntityDecl): FieldDecl[] {
  return entity.fields.filter((f) => f.type === "ref" && f.ref && f.multiple && isColumnField(f));
}

/** What a reference's records must hold besides being in the tenant (FieldRef.where: a verifier is a pickup account). */
function required(field: FieldDecl, table: CatalogueTable): SQL[] {
  return Object.entries(field.ref?.where ?? {}).map(([name, value]) => eq(tableColumn(table, name), value));
}

/** A referred record's name in SQL (EntityDecl.refTitle), over its table and the joined table of its `within`. */
export interface ReferredTitle {
  /** the table of the record that goes first (a class's grade), to join on `on`; none when it does not */
  within?: { table: PgTable; on: SQL };
  title: SQL;
  /** the title column itself, when the record is named by it alone */
  plain?: AnyPgColumn;
  /** what the title is: a text, a number (a record named by a reference), or another type's value (a date) */
  kind: "text" | "number" | "other";
}

const TEXT_COLUMNS = new Set(["PgVarchar", "PgText"]);
const NUMBER_COLUMNS = new Set(["PgSerial", "PgInteger", "PgBigInt53", "PgBigSerial53"]);

/**
 * How `field`'s referred record is named, over `table` (the referred entity's, or an alias of it): its title, after
 * its `within` record's title (joined under `alias`) unless the field is narrowed by that very field, and before its
 * number in brackets.
 */
export function referredTitle(entity: EntityDecl, table: PgTable, field: FieldDecl | undefined, alias: string, catalogue: readonly EntityDecl[]): ReferredTitle {
  const own = tableColumn(table, entity.titleField);
  const number = entity.refTitle?.number;
  const withinField = entity.refTitle?.within;
  if (!withinField || field?.ref?.narrowBy === withinField) {
    return { title: recordTitleSql(entity, table), plain: number ? undefined : own, kind: number || TEXT_COLUMNS.has(own.columnType) ? "text" : NUMBER_COLUMNS.has(own.columnType) ? "number" : "other" };
  }
  const withinEntity = catalogue.find((e) => e.name === entity.fields.find((f) => f.name === withinField)?.ref?.entity);
  const withinTable = withinEntity && catalogueTables[withinEntity.name];
  if (!withinEntity || !withinTable) throw new Error(`${entity.name} is named within ${withinField}, no reference with a table`);
  const joined = aliasOf(withinTable, alias);
  return {
    within: { table: joined, on: eq(tableColumn(joined, "id"), tableColumn(table, withinField)) },
    title: recordTitleSql(entity, table, { entity: withinEntity, table: joined }),
    kind: "text",
  };
}

/**
 * A record's name as other records show it (EntityDecl.refTitle), over its table and, for a record named within
 * another (a class in its grade), that other's table as the query joins it: the SQL the lists use, for a domain's
 * own queries (a voucher's class, the payer page's).
 */
export function recordTitleSql(entity: EntityDecl, table: PgTable, within?: { entity: EntityDecl; table: PgTable }): SQL {
  const own = tableColumn(table, entity.titleField);
  const number = entity.refTitle?.number;
  const title = number ? sql`${own} || ' (' || ${tableColumn(table, number)} || ')'` : sql`${own}`;
  // no record referred (a left join's nulls): no name, where concat_ws would give an empty one
  return within ? sql`nullif(concat_ws(' ', ${tableColumn(within.table, within.entity.titleField)}, ${title}), '')` : title;
}

export class References {
  constructor(
    private readonly entity: EntityDecl,
    private readonly catalogue: readonly EntityDecl[],
  ) {}

  private target(field: FieldDecl): ReferencedEntity {
    const entity = this.catalogue.find((e) => e.name === field.ref?.entity);
    const table = entity && catalogueTables[entity.name];
    if (!entity || !table) throw new Error(`${this.entity.name}.${field.name} refers to ${field.ref?.entity}, which has no table`);
    return { entity, table };
  }

  /**
   * The referred names as joins of a list's own query (`{name}_title` beside each reference), so a page of a list
   * costs one query however many references it shows.
   */
  titleJoins(): { key: string; joins: { table: PgTable; on: SQL }[]; title: SQL; kind: ReferredTitle["kind"] }[] {
    return referenceFields(this.entity).map((field, i) => {
      const { entity, table } = this.target(field);
      const joined = aliasOf(table, `ref${i}_${entity.table}`);
      const named = referredTitle(entity, joined, field, `ref${i}_within`, this.catalogue);
      const joins = [{ table: joined as PgTable, on: eq(tableColumn(joined, "id"), tableColumn(catalogueTables[this.entity.name], field.name)) }];
      if (named.within) joins.push(named.within);
      return { key: refTitleKey(field.name), joins, title: named.title, kind: named.kind };
    });
  }

  /**
   * The conditions of the references' `like` filters: the referred records whose title (or number,
   * EntityDecl.refTitle) holds the text, among those `tenant` keeps (the caller's, found by the referred table's
   * tenant index), read once for the statement (an array the list's index is then read by), never once per row.
   */
  searchConditions(tenant: (entity: EntityDecl, table: CatalogueTable) => SQL[]): Record<string, (pattern: unknown) => SQL> {
    const own = catalogueTables[this.entity.name];
    const out: Record<string, (pattern: unknown) => SQL> = {};
    for (const field of referenceFields(this.entity).filter((f) => f.filter === "like")) {
      const { entity, table } = this.target(field);
      const searched = [entity.titleField, ...(entity.refTitle?.number ? [entity.refTitle.number] : [])];
      out[field.name] = (pattern) =>
        sql`${tableColumn(own, field.name)} = any(array(select ${tableColumn(table, "id")} from ${table} where ${and(
          ...tenant(entity, table),
          or(...searched.map((name) => sql`${tableColumn(table, name)} ilike ${pattern}`)),
        )}))`;
    }
    return out;
  }

  /**
   * Adds `{name}_title` beside every reference of the rows (API form), one query per reference field; a multiple
   * reference gets its titles in the order of its ids.
   */
  async attachTitles(db: DbOrTx, rows: Row[], fields: readonly FieldDecl[] = [...referenceFields(this.entity), ...multipleReferenceFields(this.entity)]): Promise<Row[]> {
    await Promise.all(
      fields.map(async (field) => {
        const ids = [...new Set(rows.flatMap((r) => (Array.isArray(r[field.name]) ? (r[field.name] as unknown[]) : [r[field.name]])).filter((v): v is number => typeof v === "number"))];
        const titles = new Map<number, string>();
        if (ids.length > 0) {
          const { entity, table } = this.target(field);
          const named = referredTitle(entity, table, field, "within", this.catalogue);
          const query = db.select({ id: tableColumn(table, "id"), title: named.plain ?? sql<string>`${named.title}` }).from(table).$dynamic();
          const found = await (named.within ? query.leftJoin(named.within.table, named.within.on) : query).where(inArray(tableColumn(table, "id"), ids));
          for (const row of found) titles.set(Number(row.id), String(row.title));
        }
        for (const row of rows) {
          const value = row[field.name];
          row[refTitleKey(field.name)] = Array.isArray(value) ? value.map((id) => titles.get(id as number) ?? null) : (titles.get(value as number) ?? null);
        }
      }),
    );
    return rows;
  }

  /**
   * The tenant columns of a record added under EntityDecl.tenantFrom, taken from the record its reference names as
   * the caller may read it (`tenant`: the caller's conditions on the referred table), which stays locked until the
   * add commits; a record the caller may not read is refused naming the field, as one that does not exist.
   */
  async inheritedTenant(db: DbOrTx, t: Translate, record: Row, tenant: (entity: EntityDecl, table: CatalogueTable) => SQL[]): Promise<Row> {
    const field = referenceFields(this.entity).find((f) => f.name === this.entity.tenantFrom);
    if (!field) throw new Error(`${this.entity.name} takes its tenant from ${this.entity.tenantFrom}, no reference of it`);
    const { entity, table } = this.target(field);
    const [found] = await db
      .select()
      .from(table)
      .where(and(eq(tableColumn(table, "id"), Number(record[field.name])), ...tenant(entity, table), ...required(field, table)))
      .limit(1)
      .for("share");
    if (!found) throw this.invalid(t, field);
    const theirs = tenantColumnNames(entity);
    const own = tenantColumnNames(this.entity);
    const inherited: Row = {};
    for (const part of ["sysid", "schid", "pickupPoint"] as const) {
      const [to, from] = [own[part], theirs[part]];
      if (to && from && to !== "id") inherited[to] = (found as Row)[from];
    }
    return inherited;
  }

  /**
   * Refuses a reference to a record outside the record's tenant or outside the record it is narrowed by.
   * `merged` is the record as it will be stored (with its tenant columns); `changed` the fields written now.
   */
  async check(db: DbOrTx, t: Translate, merged: Row, changed: Row): Promise<void> {
    for (const field of referenceFields(this.entity)) {
      const narrowBy = field.ref?.narrowBy;
      const touched = changed[field.name] !== undefined || (narrowBy !== undefined && changed[narrowBy] !== undefined);
      const id = merged[field.name];
      if (!touched || id === null || id === undefined) continue;
      const { entity, table } = this.target(field);
      const conditions: SQL[] = [eq(tableColumn(table, "id"), Number(id)), ...this.sameTenant(entity, table, merged), ...required(field, table)];
      if (narrowBy) conditions.push(eq(tableColumn(table, narrowBy), Number(merged[narrowBy])));
      const query = db.select({ id: tableColumn(table, "id") }).from(table).where(and(...conditions)).limit(1);
      // a narrowed reference holds the referred record until the write commits: a class moving to another grade
      // meanwhile waits, then takes this record along (or this check sees the class in its new grade)
      const [found] = narrowBy ? await query.for("share") : await query;
      if (!found) throw this.invalid(t, field);
    }
    for (const field of multipleReferenceFields(this.entity)) {
      const ids = merged[field.name];
      if (changed[field.name] === undefined || !Array.isArray(ids) || ids.length === 0) continue;
      const { entity, table } = this.target(field);
      const conditions: SQL[] = [inArray(tableColumn(table, "id"), ids as number[])];
      conditions.push(...this.sameTenant(entity, table, merged), ...required(field, table));
      const [{ n }] = await db.select({ n: count() }).from(table).where(and(...conditions));
      // every id named once (the kind keeps each once) and each inside the record's tenant
      if (Number(n) !== ids.length) throw this.invalid(t, field);
    }
  }

  /**
   * The referred entity's rows in the record's own tenant: its school, else its provider; of a platform entity
   * whose rows are a provider's (its accounts), the record's provider's.
   */
  private sameTenant(entity: EntityDecl, table: CatalogueTable, merged: Row): SQL[] {
    const tenant = tenantColumnNames(entity);
    const own = tenantColumnNames(this.entity);
    if (entity.scope === "platform") return entity.providerColumn && own.sysid ? [eq(tableColumn(table, entity.providerColumn), Number(merged[own.sysid]))] : [];
    if (tenant.schid && own.schid) return [eq(tableColumn(table, tenant.schid), Number(merged[own.schid]))];
    if (tenant.sysid && own.sysid) return [eq(tableColumn(table, tenant.sysid), Number(merged[own.sysid]))];
    return [];
  }

  private invalid(t: Translate, field: FieldDecl): ApiFailure {
    const label = labelText(t, field.label, field.name);
    const message = t("api.validation.reference", { label });
    return new ApiFailure("api.invalid_params", { field: field.name }, { errors: [{ field: field.name, message }] });
  }

  /** Refuses to delete a record other records still refer to, naming how many of which. */
  async assertUnreferenced(db: DbOrTx, t: Translate, id: number): Promise<void> {
    for (const other of this.catalogue) {
      const table = catalogueTables[other.name];
      if (!table || other.implementedBy === "domain") continue;
      for (const field of referenceFields(other).filter((f) => f.ref?.entity === this.entity.name)) {
        const [{ n }] = await db.select({ n: count() }).from(table).where(eq(tableColumn(table, field.name), id));
        if (Number(n) > 0) throw stillReferenced(t, this.entity, other, Number(n));
      }
    }
  }
}

export function stillReferenced(t: Translate, entity: EntityDecl, by: EntityDecl | undefined, n?: number): ApiFailure {
  const params = { title: labelText(t, entity.title, entity.name), other: by ? labelText(t, by.title, by.name) : "", count: n ?? "" };
  return new ApiFailure(by && n ? "api.still_referenced" : "api.in_use", params);
}
