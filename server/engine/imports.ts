/**
 * The spreadsheet import of every entity that declares `import` (common/catalogue.ts ImportDecl): the template
 * (`templateOperation`, answered like an export) and the import itself (`operation`), allowed to the roles that
 * may add the entity's records, into exactly one school of the caller's authority.
 *
 * An import reads the first sheet of an .xlsx file: its first non-empty row names the columns (a field's label
 * in any of the console's languages, or its name), every row below is checked with the same rules as
 * `{entity}add` (choices also by their labels in any language), unique fields against the file itself and the
 * records already stored, and references by the referred record's title within the school (a class within its
 * grade), created when missing and the caller may add them. Then every row is written in one transaction, in
 * batches, or none when any row fails: the answer names each failing row (as the spreadsheet numbers it) and
 * field. Imports into one school run one at a time (a transaction-scoped advisory lock on the school), so two
 * imports of the same records cannot both pass their checks. Every import whose file could be read is logged
 * (the `schoolimportlog` entity) and audited.
 *
 * The flow from the payload to the log is `runImport`'s, for any `SheetImporter`: an entity's fixed columns
 * (`EntityImport`, below) or a domain's import whose columns come from a record chosen first (a bill import's
 * activity and its fee items, server/domains/collection/billImport.ts), registered with `registerSheetImport`.
 */
import { and, inArray, sql, type SQL } from "drizzle-orm";
import pLimit from "p-limit";
import { z, type ZodType } from "zod";
import type { EntityDecl, FieldDecl, ImportDecl } from "../../common/catalogue";
import { hasAnyRole } from "../../common/roleKeys";
import { auditCall } from "../auth/audit";
import { resolveScope, schoolOfWrite } from "../auth/scope";
import { tenantFilter, type TenantColumns } from "../auth/tenantFilter";
import { isColumnField, tableColumn, tenantColumnNames, type CatalogueTable } from "../db/catalogueTables";
import type { DbOrTx } from "../db/client";
import { catalogueTables, schoolImportLogs } from "../db/schema";
import { LANGUAGES, labelText, translator, type Translate } from "../lib/i18n";
import { readFirstSheet, XlsxRefusal, type XlsxLimits } from "../lib/xlsxReader";
import { ApiFailure } from "../protocol/envelope";
import type { OperationContext, OperationRegistry, OperationResult } from "../protocol/registry";
import { FOREIGN_KEY_VIOLATION, hasErrorCode, UNIQUE_VIOLATION } from "../db/errors";
import { fieldErrors, fieldsSchema, formFields, storedDefault } from "./fieldSchemas";
import type { Row } from "./hooks";

/** the largest file taken, decoded */
export const MAX_IMPORT_BYTES = 5 * 1024 * 1024;
/** the most data rows a file may hold */
export const MAX_IMPORT_ROWS = 10_000;
/** the most row errors an answer (and the log) lists; the count covers them all */
export const MAX_LISTED_ERRORS = 500;
/**
 * What the parts of an .xlsx may expand to, counted as they inflate: a sheet of 10,000 rows is a few megabytes of
 * XML, its shared strings less. The sheet is read row by row and kept as rows, the other parts are held whole.
 */
const XLSX_LIMITS: XlsxLimits = { maxPartBytes: 16 * 1024 * 1024, maxSheetBytes: 32 * 1024 * 1024, maxTotalBytes: 48 * 1024 * 1024, maxColumns: 256 };
/** imports read and checked at once in one server process; more wait their turn, up to IMPORTS_WAITING */
const IMPORTS_AT_ONCE = 2;
const IMPORTS_WAITING = 8;
/** rows per INSERT statement: a few parameters per row, well under PostgreSQL's 65,535 */
const INSERT_BATCH = 500;
/** values per `IN (...)` of a lookup */
const LOOKUP_BATCH = 1000;
/** rows of the template that offer a choice field's options as a drop-down */
const TEMPLATE_CHOICE_ROWS = 1000;
/** first key of pg_advisory_xact_lock(key, sch_id): the imports' own lock space */
const IMPORT_LOCK_SPACE = 0x1_7e_a1;

export const XLSX_MIME = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** A problem with one row (its number as the spreadsheet shows it) and field. */
export interface RowError {
  row: number;
  field: string;
  message: string;
}

/** The referred records an import creates (or, checked only, would create), by reference field. */
export interface ImportCreation {
  field: string;
  entity: string;
  /** their titles, a narrowed record's after its parent's ("Grade 7 / Class 3") */
  titles: string[];
}

/** A choice column's accepted values, in the caller's language. */
export interface ImportChoice {
  field: string;
  values: string[];
}

/** A column's label in the caller's language, for the row errors of an import whose columns are not fields. */
export interface ImportColumn {
  field: string;
  label: string;
}

/** What an import answers in data.items, succeeded or not; a check (`preview`) writes nothing and has no log. */
export interface ImportAnswer {
  log_id?: number;
  preview?: boolean;
  total: number;
  imported: number;
  error_count: number;
  errors: RowError[];
  creates: ImportCreation[];
  choices: ImportChoice[];
  /** the columns' labels, when a row error's field is no field of the entity (an activity's fee item) */
  columns?: ImportColumn[];
}

/** The payload every import takes; an import into a chosen record extends it with the record's field. */
export const importPayload = z.object({
  filename: z.string().max(1000).optional(),
  content_base64: z.string(),
  /** check the file and say what it would write, writing nothing */
  preview: z.boolean().optional(),
});
export type ImportPayload = z.infer<typeof importPayload>;

// ---------------------------------------------------------------------------------------------------------
// Reading the file

/** A refusal of the file itself, naming content_base64. */
export function badFile(t: Translate, key: string, params: Record<string, string | number> = {}): ApiFailure {
  return new ApiFailure(key, params, { errors: [{ field: "content_base64", message: t(key, params) }] });
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function decodeFile(t: Translate, content: string): Buffer {
  const text = content.replace(/\s+/g, "");
  const maxMb = MAX_IMPORT_BYTES / (1024 * 1024);
  if (text.length > Math.ceil(MAX_IMPORT_BYTES / 3) * 4) throw badFile(t, "import.file_too_large", { max: maxMb });
  if (text.length === 0 || text.length % 4 === 1 || !BASE64.test(text)) throw badFile(t, "import.bad_file");
  const bytes = Buffer.from(text, "base64");
  if (bytes.length > MAX_IMPORT_BYTES) throw badFile(t, "import.file_too_large", { max: maxMb });
  return bytes;
}

/** A sheet's rows, read within the limits and stopped at the import's row limit; empty rows left out. */
async function readRows(t: Translate, bytes: Buffer): Promise<{ row: number; values: string[] }[]> {
  const rows: { row: number; values: string[] }[] = [];
  let tooMany = false;
  try {
    await readFirstSheet(bytes, XLSX_LIMITS, (row, values) => {
      if (!values.some((v) => v.trim() !== "")) return;
      // the header row and MAX_IMPORT_ROWS data rows
      if (rows.length > MAX_IMPORT_ROWS) {
        tooMany = true;
        return false;
      }
      rows.push({ row, values });
    });
  } catch (err) {
    if (!(err instanceof XlsxRefusal)) throw err;
    if (err.reason === "too_large") throw badFile(t, "import.expands_too_large", { max: Math.round(err.limit / (1024 * 1024)) });
    throw badFile(t, "import.bad_file");
  }
  if (tooMany) throw badFile(t, "import.too_many_rows", { max: MAX_IMPORT_ROWS });
  return rows;
}

/** The imports running in this process and those waiting: each holds its file and rows in memory. */
const importSlots = pLimit(IMPORTS_AT_ONCE);

/**
 * A sheet import of a domain's own (tracking numbers for orders): its file decoded and read within the limits of
 * every import, in one of the process's import slots (refused when they are all taken and waited for).
 */
export async function inImportSlot<T>(t: Translate, content: string, work: (rows: { row: number; values: string[] }[]) => Promise<T>): Promise<T> {
  if (importSlots.activeCount + importSlots.pendingCount >= IMPORTS_AT_ONCE + IMPORTS_WAITING) throw new ApiFailure("import.busy");
  return importSlots(async () => work(await readRows(t, decodeFile(t, content))));
}

/** How a header or a choice is compared: width forms folded, case and surrounding marks ignored. */
export function normalised(text: string): string {
  return text
    .normalize("NFKC")
    .trim()
    .replace(/^\*+|\*+$/g, "")
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase();
}

const translators: Translate[] = LANGUAGES.map((language) => translator(language));

/** A label key's text in every language. */
export function everyLanguage(key: string, fallback: string): string[] {
  return translators.map((t) => labelText(t, key, fallback));
}

// ---------------------------------------------------------------------------------------------------------
// One entity's import

interface PreparedRow {
  row: number;
  /** the record in stored form; references hold a placeholder until resolved */
  record: Row;
  /** reference field -> the title the cell gives */
  titles: Record<string, string>;
  /** fields with an error already */
  failed: Set<string>;
}

/** Failures of rows: nothing is written, the answer lists them. */
class RowErrors extends Error {
  constructor(readonly errors: RowError[]) {
    super("row errors");
  }
}

class EntityImport implements SheetImporter<Tenant, PreparedRow> {
  readonly logEntity: string;
  readonly operation: string;
  private readonly columns: FieldDecl[];
  private readonly schema: ReturnType<typeof fieldsSchema>;
  private readonly tenant: { sysid?: string; schid?: string };
  /** normalised header text -> field */
  private readonly headers = new Map<string, FieldDecl>();
  /** choice field -> normalised label or value -> stored value */
  private readonly choices = new Map<string, Map<string, string>>();
  /** reference fields among the columns, the ones that narrow others first */
  private readonly references: FieldDecl[];

  constructor(
    private readonly entity: EntityDecl,
    decl: ImportDecl,
    private readonly table: CatalogueTable,
    private readonly catalogue: readonly EntityDecl[],
  ) {
    this.logEntity = entity.name;
    this.operation = decl.operation;
    const addFields = formFields(entity, "add");
    this.columns = decl.columns.map((name) => {
      const field = entity.fields.find((f) => f.name === name);
      if (!field || !isColumnField(field) || !addFields.includes(field) || (field.type === "ref" && (field.multiple || !field.ref))) {
        throw new Error(`${entity.name} imports column ${name}, which is no single-valued column field of its add form`);
      }
      return field;
    });
    this.schema = fieldsSchema(addFields, "add");
    this.tenant = tenantColumnNames(entity);
    for (const field of this.columns) {
      for (const name of this.headerNames(field)) {
        const key = normalised(name);
        if (key && !this.headers.has(key)) this.headers.set(key, field);
      }
      if (field.options && ["enum", "yesno", "status"].includes(field.type)) {
        const byText = new Map<string, string>();
        for (const option of field.options) {
          byText.set(normalised(option.value), option.value);
          for (const label of everyLanguage(option.label, option.value)) if (!byText.has(normalised(label))) byText.set(normalised(label), option.value);
        }
        this.choices.set(field.name, byText);
      }
    }
    const refs = this.columns.filter((f) => f.type === "ref");
    this.references = refs.sort((a, b) => (a.ref?.narrowBy === b.name ? 1 : b.ref?.narrowBy === a.name ? -1 : 0));
  }

  /** The names a header may give a column: its field's name and label, and a reference's short name and entity. */
  private headerNames(field: FieldDecl): string[] {
    const names = [field.name, ...everyLanguage(field.label, field.name)];
    if (field.type === "ref" && field.ref) {
      const target = this.referred(field);
      names.push(field.name.replace(/_id$/, ""), target.name, ...everyLanguage(target.title, target.name));
    }
    return names;
  }

  private referred(field: FieldDecl): EntityDecl {
    const target = this.catalogue.find((e) => e.name === field.ref?.entity);
    if (!target || !catalogueTables[target.name]) throw new Error(`${this.entity.name}.${field.name} refers to ${field.ref?.entity}, which has no table`);
    return target;
  }

  private label(t: Translate, field: FieldDecl): string {
    return labelText(t, field.label, field.name);
  }

  // -- the template ------------------------------------------------------------------------------------------

  async template(ctx: OperationContext): Promise<OperationResult> {
    const columns = this.columns.map((field) => ({ header: this.label(ctx.t, field), text: ["string", "text", "phone", "idcard"].includes(field.type) }));
    return templateAnswer(`${this.entity.name}-import-template.xlsx`, labelText(ctx.t, this.entity.title, this.entity.name), columns, (sheet) => {
      this.columns.forEach((field, i) => {
        const labels = this.choices.has(field.name) ? (field.options ?? []).map((o) => labelText(ctx.t, o.label, o.value)) : [];
        if (labels.length === 0 || labels.some((l) => /[",]/.test(l))) return;
        for (let row = 2; row <= TEMPLATE_CHOICE_ROWS + 1; row++) {
          sheet.getCell(row, i + 1).dataValidation = { type: "list", allowBlank: !field.required, formulae: [`"${labels.join(",")}"`] };
        }
      });
    });
  }

  // -- the import (run by runImport) ---------------------------------------------------------------------------

  async target(ctx: OperationContext): Promise<Tenant> {
    const auth = ctx.auth;
    if (!auth) throw new ApiFailure("api.not_found");
    const scope = await resolveScope(ctx.db, auth, ctx.payload);
    if (scope.sysid === null) throw new ApiFailure("api.scope_required");
    return { sysid: scope.sysid, schid: schoolOfWrite(scope, ctx.payload) };
  }

  describe(t: Translate): { choices: ImportChoice[] } {
    return { choices: this.acceptedChoices(t) };
  }

  async check(ctx: OperationContext, tx: DbOrTx, target: Tenant, rows: PreparedRow[], errors: RowError[], preview: boolean): Promise<ImportCreation[]> {
    const creates = await this.resolveReferences(ctx, tx, target, rows, errors, preview);
    await this.checkStored(ctx, tx, target, rows, errors);
    return creates;
  }

  async write(_ctx: OperationContext, tx: DbOrTx, target: Tenant, rows: PreparedRow[]): Promise<void> {
    for (let i = 0; i < rows.length; i += INSERT_BATCH) {
      const values = rows.slice(i, i + INSERT_BATCH).map(({ record }) => this.stored(record, target));
      await tx.insert(this.table).values(values);
    }
  }

  /** Every choice column's accepted values, as the caller reads them. */
  private acceptedChoices(t: Translate): ImportChoice[] {
    return this.columns
      .filter((field) => this.choices.has(field.name))
      .map((field) => ({ field: field.name, values: (field.options ?? []).map((o) => labelText(t, o.label, o.value)) }));
  }

  /**
   * The sheet's rows checked one by one (no database): records in stored form, and every row error found. A header
   * row that lacks a column (or names one twice) is the only error reported: every row would repeat it.
   */
  prepare(ctx: OperationContext, _target: Tenant, sheetRows: SheetRow[]): PreparedSheet<PreparedRow> {
    const t = ctx.t;
    const [header, ...dataRows] = sheetRows;
    if (!header || dataRows.length === 0) throw badFile(t, "import.empty_file");
    const headerErrors: RowError[] = [];
    const columnOf = this.mapHeader(t, header.values, header.row, headerErrors);
    const read: { row: number; texts: Map<FieldDecl, string> }[] = [];
    for (const { row, values } of dataRows) {
      const texts = new Map<FieldDecl, string>();
      for (const [column, field] of columnOf) texts.set(field, (values[column] ?? "").trim());
      if ([...texts.values()].every((text) => text === "")) continue;
      read.push({ row, texts });
    }
    if (read.length === 0) throw badFile(t, "import.empty_file");
    if (headerErrors.length > 0) return { rows: [], total: read.length, errors: headerErrors };
    const errors: RowError[] = [];
    const firstRowOf = new Map<string, Map<unknown, number>>();
    const rows = read.map(({ row, texts }) => this.prepareRow(t, row, texts, errors, firstRowOf));
    return { rows, total: rows.length, errors };
  }

  /** Which sheet column holds which field; a column the import does not know is left aside. */
  private mapHeader(t: Translate, values: string[], rowNumber: number, errors: RowError[]): Map<number, FieldDecl> {
    const columnOf = new Map<number, FieldDecl>();
    values.forEach((value, column) => {
      const field = this.headers.get(normalised(value));
      if (!field) return;
      if ([...columnOf.values()].includes(field)) {
        errors.push({ row: rowNumber, field: field.name, message: t("import.duplicate_column", { label: this.label(t, field) }) });
        return;
      }
      columnOf.set(column, field);
    });
    for (const field of this.columns) {
      const required = field.required && storedDefault(field) === undefined;
      if (required && ![...columnOf.values()].includes(field)) {
        errors.push({ row: rowNumber, field: field.name, message: t("import.missing_column", { label: this.label(t, field) }) });
      }
    }
    return columnOf;
  }

  private prepareRow(t: Translate, row: number, texts: Map<FieldDecl, string>, errors: RowError[], firstRowOf: Map<string, Map<unknown, number>>): PreparedRow {
    const input: Row = {};
    const titles: Record<string, string> = {};
    const failed = new Set<string>();
    const fail = (field: FieldDecl, message: string) => {
      if (failed.has(field.name)) return;
      failed.add(field.name);
      errors.push({ row, field: field.name, message });
    };
    for (const [field, text] of texts) {
      if (field.type === "ref") {
        titles[field.name] = text;
        // the id is found by title later; the record check only needs to see whether one was given
        input[field.name] = text === "" ? undefined : 1;
        const target = this.referred(field);
        const titleField = target.fields.find((f) => f.name === target.titleField);
        if (titleField?.max !== undefined && text.length > titleField.max) fail(field, t("api.validation.too_long", { label: this.label(t, field), max: titleField.max }));
        continue;
      }
      const choice = this.choices.get(field.name);
      if (choice && text !== "" && !choice.has(normalised(text))) {
        const values = (field.options ?? []).map((o) => labelText(t, o.label, o.value)).join(t("import.choice_separator"));
        fail(field, t("import.choice_invalid", { label: this.label(t, field), value: text, values }));
      }
      input[field.name] = choice && text !== "" ? (choice.get(normalised(text)) ?? text) : text;
    }
    const parsed = this.schema.safeParse(input);
    const record: Row = parsed.success ? parsed.data : {};
    if (!parsed.success) {
      for (const error of fieldErrors(this.entity, parsed.error, t)) {
        const field = this.entity.fields.find((f) => f.name === error.field);
        if (field) fail(field, error.message);
        else errors.push({ row, ...error });
      }
      // the fields that passed, for the checks between rows
      const alone = fieldsSchema(
        formFields(this.entity, "add").filter((f) => !failed.has(f.name)),
        "add",
      ).safeParse(input);
      if (alone.success) Object.assign(record, alone.data);
    }
    // a unique field twice in the file (within the same referred record, for one unique within it): the later row names the earlier
    for (const field of this.columns) {
      const value = record[field.name];
      if (!field.unique || failed.has(field.name) || value === null || value === undefined) continue;
      const within = uniqueWithinField(field);
      const key = within ? `${titles[within] ?? String(record[within] ?? "")}\u0000${String(value)}` : value;
      let seen = firstRowOf.get(field.name);
      if (!seen) firstRowOf.set(field.name, (seen = new Map()));
      const first = seen.get(key);
      if (first === undefined) seen.set(key, row);
      else fail(field, t("import.duplicate_in_file", { label: this.label(t, field), value: String(value), row: first }));
    }
    return { row, record, titles, failed };
  }

  /**
   * Unique fields against the records already stored: in the school (or provider) for a "tenant"-unique one, among
   * the records referring to the same record for one unique within a reference (run after the references are
   * resolved), everywhere for a platform-wide one.
   */
  private async checkStored(ctx: OperationContext, tx: DbOrTx, target: Tenant, rows: PreparedRow[], errors: RowError[]): Promise<void> {
    for (const field of this.columns.filter((f) => f.unique)) {
      const withinField = uniqueWithinField(field);
      const withinColumn = withinField ? tableColumn(this.table, withinField) : undefined;
      const rowsOf = new Map<unknown, PreparedRow[]>();
      for (const prepared of rows) {
        const value = prepared.record[field.name];
        if (prepared.failed.has(field.name) || value === null || value === undefined) continue;
        rowsOf.set(value, [...(rowsOf.get(value) ?? []), prepared]);
      }
      const values = [...rowsOf.keys()];
      const column = tableColumn(this.table, field.name);
      const within = field.unique === "tenant" || withinColumn ? tenantFilter(scopeOf(target), tenantColumnsOf(this.table, this.tenant)) : [];
      for (let i = 0; i < values.length; i += LOOKUP_BATCH) {
        const conditions: SQL[] = [inArray(column, values.slice(i, i + LOOKUP_BATCH)), ...within];
        const found: { value: unknown; parent?: unknown }[] = await tx
          .select({ value: column, ...(withinColumn ? { parent: withinColumn } : {}) })
          .from(this.table)
          .where(and(...conditions));
        for (const { value, parent } of found) {
          for (const prepared of rowsOf.get(value) ?? []) {
            if (withinField && prepared.record[withinField] !== parent) continue;
            prepared.failed.add(field.name);
            errors.push({ row: prepared.row, field: field.name, message: ctx.t("import.exists", { label: this.label(ctx.t, field), value: String(value) }) });
          }
        }
      }
    }
  }

  /**
   * Each reference's title to the referred record's id within the school (and within the record that narrows it),
   * creating the records missing when the caller may add them; otherwise the rows naming them fail. Answers the
   * records created; a check (`dryRun`) creates none and answers those it would create (a record under a parent
   * it would create is new too: it gets a placeholder id no stored record has).
   */
  private async resolveReferences(ctx: OperationContext, tx: DbOrTx, target: Tenant, rows: PreparedRow[], errors: RowError[], dryRun: boolean): Promise<ImportCreation[]> {
    const creations: ImportCreation[] = [];
    let placeholder = 0;
    for (const field of this.references) {
      const entity = this.referred(field);
      const table = catalogueTables[entity.name];
      const narrowBy = field.ref?.narrowBy;
      const id = tableColumn(table, "id");
      const title = tableColumn(table, entity.titleField);
      const parent = narrowBy ? tableColumn(table, narrowBy) : undefined;
      const tenant = tenantColumnNames(entity);
      const conditions = tenantFilter(scopeOf(target), tenantColumnsOf(table, tenant));
      const tenantValues: Row = {};
      if (tenant.schid && tenant.schid !== "id") tenantValues[tenant.schid] = target.schid;
      if (tenant.sysid && tenant.sysid !== "id") tenantValues[tenant.sysid] = target.sysid;
      const key = (parentId: unknown, text: string) => `${parentId === undefined ? "" : String(parentId)}\u0000${text}`;

      // the rows needing a record of this kind, by parent and title
      const wanted = new Map<string, { parentId: unknown; title: string; rows: PreparedRow[] }>();
      for (const prepared of rows) {
        const text = prepared.titles[field.name];
        if (!text || prepared.failed.has(field.name)) continue;
        const parentId = narrowBy ? prepared.record[narrowBy] : undefined;
        if (narrowBy && (prepared.failed.has(narrowBy) || typeof parentId !== "number")) continue;
        const k = key(parentId, text);
        const entry = wanted.get(k) ?? { parentId, title: text, rows: [] };
        entry.rows.push(prepared);
        wanted.set(k, entry);
      }
      if (wanted.size === 0) continue;

      const known = new Map<string, number>();
      const query = tx
        .select({ id, title, ...(parent ? { parent } : {}) })
        .from(table)
        .where(and(...conditions))
        .orderBy(id);
      // a record found under its parent (a class in its grade) stays there until the import commits: a class moved to
      // another grade meanwhile would otherwise leave the imported students in the old one
      const existing = parent ? await query.for("share") : await query;
      for (const row of existing as { id: number; title: unknown; parent?: unknown }[]) {
        const k = key(parent ? row.parent : undefined, String(row.title));
        if (!known.has(k)) known.set(k, Number(row.id));
      }

      const missing = [...wanted].filter(([k]) => !known.has(k));
      if (missing.length > 0 && this.mayCreate(ctx, entity, narrowBy)) {
        creations.push({
          field: field.name,
          entity: entity.name,
          titles: missing.map(([, { title: text, rows: needing }]) => (narrowBy ? `${needing[0].titles[narrowBy] ?? ""} / ${text}` : text)),
        });
        if (dryRun) for (const [k] of missing) known.set(k, --placeholder);
        else for (let i = 0; i < missing.length; i += INSERT_BATCH) {
          const values = missing.slice(i, i + INSERT_BATCH).map(([, { parentId, title: text }]) => ({
            ...tenantValues,
            [entity.titleField]: text,
            ...(narrowBy ? { [narrowBy]: parentId } : {}),
          }));
          const created = await tx
            .insert(table)
            .values(values)
            .returning({ id, title, ...(parent ? { parent } : {}) });
          for (const row of created as { id: number; title: unknown; parent?: unknown }[]) known.set(key(parent ? row.parent : undefined, String(row.title)), Number(row.id));
        }
      }
      for (const [k, { title: text, rows: needing }] of wanted) {
        const found = known.get(k);
        for (const prepared of needing) {
          if (found !== undefined) {
            prepared.record[field.name] = found;
            continue;
          }
          prepared.failed.add(field.name);
          errors.push({ row: prepared.row, field: field.name, message: ctx.t("import.reference_missing", { label: this.label(ctx.t, field), value: text }) });
        }
      }
    }
    return creations;
  }

  /** Whether missing referred records may be created: the caller may add them, and a title (and parent) is all they need. */
  private mayCreate(ctx: OperationContext, entity: EntityDecl, narrowBy: string | undefined): boolean {
    if (!hasAnyRole(ctx.roles, entity.roles.add)) return false;
    const tenant = tenantColumnNames(entity);
    const given = new Set(["id", "created_at", entity.titleField, narrowBy, tenant.schid, tenant.sysid]);
    return entity.fields.every((f) => given.has(f.name) || !isColumnField(f) || !f.required || storedDefault(f) !== undefined);
  }

  /** A prepared record as its table stores it: column fields only, and the tenant columns. */
  private stored(record: Row, target: Tenant): Row {
    const out: Row = {};
    for (const field of formFields(this.entity, "add")) if (isColumnField(field) && record[field.name] !== undefined) out[field.name] = record[field.name];
    if (this.tenant.sysid && this.tenant.sysid !== "id") out[this.tenant.sysid] = target.sysid;
    if (this.tenant.schid && this.tenant.schid !== "id") out[this.tenant.schid] = target.schid;
    return out;
  }
}

/** An import's school (and provider): the log's tenant, the lock's key and the audit's. */
export interface ImportTarget {
  sysid: number;
  schid: number;
}
type Tenant = ImportTarget;

/** Holds the school's imports (and writes of many of its records at once) until the transaction ends: one at a time. */
export async function lockSchoolImports(tx: DbOrTx, schid: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${IMPORT_LOCK_SPACE}::integer, ${schid}::integer)`);
}

/** A sheet's row as read: its number as the spreadsheet shows it and its cells' texts. */
export interface SheetRow {
  row: number;
  values: string[];
}

/** The rows of a sheet checked alone: a header error leaves no row to check. */
export interface PreparedSheet<Prepared> {
  rows: Prepared[];
  total: number;
  errors: RowError[];
}

/**
 * One kind of import, as `runImport` runs it: an entity's fixed columns (`EntityImport`) or a domain's own (a bill
 * import, whose columns are the chosen activity's fee items). The engine does the rest alike: the payload, the
 * file's limits and reading, the imports at once, the school's lock, one transaction, the preview, the row errors,
 * the answer, the log and the audit.
 */
export interface SheetImporter<Target extends ImportTarget, Prepared, Payload extends ImportPayload = ImportPayload> {
  /** the entity whose records it writes: the log's `entity` and the audit's */
  readonly logEntity: string;
  /** the import operation: the audit's action */
  readonly operation: string;
  /** where the import writes, from the payload, in the caller's scope (a FAIL when it may not); before the file is read */
  target(ctx: OperationContext, payload: Payload): Promise<Target>;
  /** what every answer carries beside the rows: the choice columns' values, the columns' labels */
  describe(t: Translate, target: Target): { choices?: ImportChoice[]; columns?: ImportColumn[] };
  /** the sheet's rows checked one by one, no database: records to write and the row errors */
  prepare(ctx: OperationContext, target: Target, sheetRows: SheetRow[]): PreparedSheet<Prepared>;
  /** in the import's transaction, under the school's lock: the checks against what is stored; answers the records it creates (or would) */
  check(ctx: OperationContext, tx: DbOrTx, target: Target, rows: Prepared[], errors: RowError[], preview: boolean): Promise<ImportCreation[]>;
  /** writes the rows, every check passed, in the same transaction */
  write(ctx: OperationContext, tx: DbOrTx, target: Target, rows: Prepared[]): Promise<void>;
  /** what the audit entry says beyond the school, the file and the counts (the activity imported into) */
  auditDetail?(target: Target): Record<string, unknown>;
}

/**
 * An import from its payload to its answer: the target checked, a slot among the imports at once, the file read
 * within its limits and checked, then under the school's advisory lock in one transaction checked against what is
 * stored and written, or nothing (a preview writes nothing and logs nothing); every import whose file could be read
 * is logged and audited.
 */
export async function runImport<Target extends ImportTarget, Prepared, Payload extends ImportPayload>(importer: SheetImporter<Target, Prepared, Payload>, ctx: OperationContext, input: Payload): Promise<OperationResult> {
  const target = await importer.target(ctx, input);
  // each import holds its file and rows: a few at a time, the next ones wait, beyond that the server is busy
  if (importSlots.activeCount + importSlots.pendingCount >= IMPORTS_AT_ONCE + IMPORTS_WAITING) throw new ApiFailure("import.busy");
  return importSlots(async () => importRows(importer, ctx, input, target, await readRows(ctx.t, decodeFile(ctx.t, input.content_base64))));
}

/**
 * An import of rows that came as data rather than in a file (the open API's bills): the same checks, lock,
 * transaction, log and audit as a file's, its header the first row. `input.filename` names where they came from.
 */
export function runRowImport<Target extends ImportTarget, Prepared, Payload extends ImportPayload>(
  importer: SheetImporter<Target, Prepared, Payload>,
  ctx: OperationContext,
  input: Omit<ImportPayload, "content_base64">,
  target: Target,
  sheetRows: SheetRow[],
): Promise<OperationResult> {
  return importRows(importer, ctx, { ...input, content_base64: "" }, target, sheetRows);
}

async function importRows<Target extends ImportTarget, Prepared, Payload extends ImportPayload>(
  importer: SheetImporter<Target, Prepared, Payload>,
  ctx: OperationContext,
  input: ImportPayload,
  target: Target,
  sheetRows: SheetRow[],
): Promise<OperationResult> {
  const filename = cleanFilename(input.filename);
  const preview = input.preview === true;
  const described = importer.describe(ctx.t, target);
  const choices = described.choices ?? [];
  const columns = described.columns ? { columns: described.columns } : {};
  const logged = (tx: DbOrTx, outcome: ImportOutcome) => logImport(ctx, tx, importer, target, filename, outcome);

  // from here on the file was read: whatever the outcome, an import (not a check) is logged
  let total = 0;
  let creates: ImportCreation[] = [];
  try {
    const prepared = importer.prepare(ctx, target, sheetRows);
    total = prepared.total;
    // a header row that lacks a column: no row to check
    if (prepared.rows.length === 0) throw new RowErrors(prepared.errors);
    const logId = await ctx.db.transaction(async (tx) => {
      await lockSchoolImports(tx, target.schid);
      const errors = [...prepared.errors];
      creates = await importer.check(ctx, tx, target, prepared.rows, errors, preview);
      if (errors.length > 0) throw new RowErrors(errors);
      if (preview) return undefined;
      await importer.write(ctx, tx, target, prepared.rows);
      return logged(tx, { total, imported: total, errors: [] });
    });
    const answer: ImportAnswer = { ...(preview ? { preview } : { log_id: logId }), total, imported: preview ? 0 : total, error_count: 0, errors: [], creates, choices, ...columns };
    return { messageKey: preview ? "import.checked" : "import.succeeded", messageParams: { count: total }, data: { items: answer } };
  } catch (err) {
    let errors: RowError[];
    let failure: ApiFailure | undefined;
    if (err instanceof RowErrors) errors = err.errors;
    else if (err instanceof ApiFailure) {
      failure = err;
      errors = [{ row: 0, field: "content_base64", message: ctx.t(err.messageKey, err.params) }];
    } else if (hasErrorCode(err, UNIQUE_VIOLATION) || hasErrorCode(err, FOREIGN_KEY_VIOLATION)) {
      // a write beside the import (a record added by hand, a grade deleted) took the same values meanwhile
      failure = new ApiFailure("import.conflict");
      errors = [{ row: 0, field: "", message: ctx.t("import.conflict") }];
    } else throw err;
    errors.sort((a, b) => a.row - b.row);
    const listed = errors.slice(0, MAX_LISTED_ERRORS);
    const logId = preview ? undefined : await logged(ctx.db, { total, imported: 0, errors, listed });
    const answer: ImportAnswer = { ...(preview ? { preview } : { log_id: logId }), total, imported: 0, error_count: errors.length, errors: listed, creates: [], choices, ...columns };
    if (failure) throw new ApiFailure(failure.messageKey, failure.params, { ...failure.data, items: answer });
    throw new ApiFailure("import.failed", { count: errors.length }, { items: answer });
  }
}

interface ImportOutcome {
  total: number;
  imported: number;
  errors: RowError[];
  listed?: RowError[];
}

/** The import's log row and audit entry; its id. */
async function logImport<Target extends ImportTarget>(
  ctx: OperationContext,
  db: DbOrTx,
  importer: Pick<SheetImporter<Target, unknown>, "logEntity" | "operation" | "auditDetail">,
  target: Target,
  filename: string,
  outcome: ImportOutcome,
): Promise<number> {
  const failed = outcome.errors.length > 0;
  const [row] = await db
    .insert(schoolImportLogs)
    .values({
      entity: importer.logEntity,
      sysid: target.sysid,
      sch_id: target.schid,
      filename,
      username: ctx.auth?.username ?? "",
      created_at: ctx.now,
      total: outcome.total,
      imported: outcome.imported,
      error_count: outcome.errors.length,
      status: failed ? "failed" : "succeeded",
      errors: failed ? JSON.stringify(outcome.listed ?? outcome.errors.slice(0, MAX_LISTED_ERRORS)) : null,
    })
    .returning({ id: schoolImportLogs.id });
  await auditCall(db, ctx, {
    action: importer.operation,
    entity: importer.logEntity,
    entityId: row.id,
    detail: { sch_id: target.schid, ...importer.auditDetail?.(target), filename, total: outcome.total, imported: outcome.imported, errors: outcome.errors.length },
    sysid: target.sysid,
    schId: target.schid,
  });
  return row.id;
}

/** A template column: its header, and whether its cells are text (a number kept as typed: a student number, a phone). */
export interface TemplateColumn {
  header: string;
  text?: boolean;
  /** the cells' number format (money: "0.00") */
  numFmt?: string;
  /** a note on the header cell: what the column takes */
  note?: string;
}

/** An import template as an export answers it: an .xlsx whose bold, frozen first row names the columns. */
export async function templateAnswer(
  filename: string,
  sheetTitle: string,
  columns: readonly TemplateColumn[],
  decorate?: (sheet: import("exceljs").Worksheet) => void,
): Promise<OperationResult> {
  const { default: ExcelJS } = await import("exceljs");
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(sheetTitle.replace(/[\\/?*[\]:]/g, " ").slice(0, 31) || "Sheet1");
  sheet.columns = columns.map((column, i) => ({
    header: column.header,
    key: String(i),
    width: Math.max(14, column.header.length * 2 + 4),
    // text columns stay text: a long number (an identity card, a phone) must not become a rounded number
    style: column.text ? { numFmt: "@" } : column.numFmt ? { numFmt: column.numFmt } : {},
  }));
  sheet.getRow(1).font = { bold: true };
  sheet.views = [{ state: "frozen", ySplit: 1 }];
  columns.forEach((column, i) => {
    if (column.note) sheet.getCell(1, i + 1).note = column.note;
  });
  decorate?.(sheet);
  const content = Buffer.from(await workbook.xlsx.writeBuffer());
  return { data: { items: { filename, mime: XLSX_MIME, content_base64: content.toString("base64") } } };
}

/** An import's two operations: the template (effect read) and the import (effect write), for the same roles. */
export interface SheetImportRegistration<Target extends ImportTarget, Prepared, Payload extends ImportPayload, TemplateInput> {
  path: string;
  roles: readonly string[];
  operation: string;
  templateOperation: string;
  /** the import's payload: `importPayload`, extended with what names its target */
  schema: ZodType<Payload>;
  /** the template's payload (an entity's template takes none beyond the tenant) */
  templateSchema?: ZodType<TemplateInput>;
  importer: SheetImporter<Target, Prepared, Payload>;
  template: (ctx: OperationContext, input: TemplateInput) => Promise<OperationResult>;
}

export function registerSheetImport<Target extends ImportTarget, Prepared, Payload extends ImportPayload, TemplateInput>(
  registry: OperationRegistry,
  registration: SheetImportRegistration<Target, Prepared, Payload, TemplateInput>,
): void {
  const { path, roles, importer } = registration;
  if (roles.length === 0) throw new Error(`the import ${registration.operation} names no role`);
  registry.add<TemplateInput>({ path, method: registration.templateOperation, needsToken: true, roles: [...roles], effect: "read", schema: registration.templateSchema, handler: (ctx, input) => registration.template(ctx, input) });
  registry.add<Payload>({ path, method: registration.operation, needsToken: true, roles: [...roles], effect: "write", schema: registration.schema, handler: (ctx, payload) => runImport(importer, ctx, payload) });
}


/** The import's one school as a scope, for the tenant filter. */
const scopeOf = (target: Tenant) => ({ sysid: target.sysid, schids: [target.schid] });

/** A table's tenant columns (an entity whose id is the school itself has none of its own). */
function tenantColumnsOf(table: CatalogueTable, tenant: { sysid?: string; schid?: string }): TenantColumns {
  return {
    sysid: tenant.sysid && tenant.sysid !== "id" ? tableColumn(table, tenant.sysid) : undefined,
    schid: tenant.schid && tenant.schid !== "id" ? tableColumn(table, tenant.schid) : undefined,
  };
}

/** The reference field a field is unique within (a class's title within its grade), if any. */
function uniqueWithinField(field: FieldDecl): string | undefined {
  return typeof field.unique === "object" ? field.unique.within : undefined;
}

/** The file's name as given, without any folder, bounded to the log's column. */
function cleanFilename(name: string | undefined): string {
  const base = (name ?? "").split(/[\\/]/).pop()?.trim() ?? "";
  return (base || "import.xlsx").slice(0, 255);
}

/** The template and import operations of every entity that declares an `import` of its own fixed columns. */
export function registerImportOperations(registry: OperationRegistry, entities: readonly EntityDecl[]): void {
  for (const entity of entities) {
    const decl = entity.import;
    // an import into a chosen record is its domain's (registerSheetImport)
    if (!decl || decl.into) continue;
    const table = catalogueTables[entity.name];
    const roles = entity.roles.add;
    if (!table || entity.implementedBy === "domain") throw new Error(`entity ${entity.name} declares an import but has no generated table`);
    if (!roles || roles.length === 0) throw new Error(`entity ${entity.name} declares an import but no role may add its records`);
    if (entity.scope !== "school") throw new Error(`entity ${entity.name} declares an import but is not school-scoped`);
    const importer = new EntityImport(entity, decl, table, entities);
    registerSheetImport(registry, {
      path: entity.apiPath ?? "adminapiv2",
      roles,
      operation: decl.operation,
      templateOperation: decl.templateOperation,
      schema: importPayload,
      importer,
      template: (ctx) => importer.template(ctx),
    });
  }
}

