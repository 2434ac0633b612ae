/**
 * refine data provider over the /weapi/ catalogue operations (DESIGN 4, 6): the resource name is the entity
 * name; getList -> {entity}list, getOne -> {entity}info, create -> {entity}add, update -> {entity}edit,
 * deleteOne -> {entity}del, on the path the entity declares (default adminapiv2).
 *
 * custom -> an operation the catalogue declares beyond CRUD (a declared operation, a record's action, a settings
 * page's `{name}info` / `{name}edit`, a report's figures and export, the home page's figures): `url` names it,
 * its path comes from its declaration, and its payload is exactly the values given (the form decides what to send).
 *
 * refine merges URL query parameters into `meta`, so nothing here reads a string from `meta`: the path and method
 * come from the catalogue alone, and only filters and sorters on fields the entity declares reach the payload.
 */
import type {
  BaseRecord,
  CrudFilter,
  CrudSort,
  CustomResponse,
  DataProvider,
  HttpError,
  Pagination,
  ValidationErrors,
} from "@refinedev/core";
import type { CrudAction, EntityDecl } from "../common/catalogue";
import type { ListSummary, ListTabs } from "../common/listAnswer";
import { entities, entityByName, operationByName, reports, settingsPages } from "../resources.config";
import { getCookie } from "./session";
import { weapi, type Envelope } from "./weapi";
import { i18n } from "./i18n";

export const DEFAULT_API_PATH = "adminapiv2";
/** The server's largest page (DESIGN 6); also what an unpaginated list asks for. */
export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;

/** A FAIL envelope as refine sees it; `errors` maps field names to the server's messages for the form. */
export class ApiFailError extends Error implements HttpError {
  /** FAIL envelopes travel with HTTP 200 */
  readonly statusCode = 200;
  readonly errors?: ValidationErrors;

  constructor(readonly envelope: Envelope) {
    super(envelope.return_msg || i18n.t("errors.system"));
    this.name = "ApiFailError";
    const fieldErrors = (envelope.data as { errors?: unknown } | undefined)?.errors;
    if (Array.isArray(fieldErrors)) {
      const errors: ValidationErrors = {};
      for (const e of fieldErrors as { field?: unknown; message?: unknown }[]) {
        if (typeof e?.field === "string" && typeof e.message === "string") errors[e.field] = e.message;
      }
      if (Object.keys(errors).length > 0) this.errors = errors;
    }
  }
}

function entityOf(resource: string): EntityDecl {
  const entity = entityByName(resource);
  if (!entity) throw new Error(`unknown catalogue entity: ${resource}`);
  return entity;
}

/** The tenant the user acts in (common.md scope contract): sysid and sch_id from the session cookies. */
export function scope(): Record<string, string> {
  const out: Record<string, string> = {};
  const sysid = getCookie("select_sysid");
  const schid = getCookie("select_schid");
  if (sysid) out.sysid = sysid;
  if (schid) out.sch_id = schid;
  return out;
}

interface ListData<T> {
  items?: T[];
  total?: number;
  tabs?: ListTabs;
  summary?: ListSummary;
}

interface ItemData<T> {
  items?: T;
}

/**
 * Calls {entity}{action}. The weapi client has already shown FAIL's message as a toast, so the page hooks
 * disable refine's own error notification; a non-FAIL rejection (token_error, transport) passes through as
 * the client's WeapiError for authProvider.onError.
 */
async function call<T>(entity: EntityDecl, action: CrudAction, payload: Record<string, unknown>): Promise<T | undefined> {
  const envelope = await weapi<T>(entity.apiPath ?? DEFAULT_API_PATH, `${entity.name}${action}`, { ...scope(), ...payload });
  if (envelope.return_code !== "SUCCESS") throw new ApiFailError(envelope);
  return envelope.data;
}

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || value === "" || (Array.isArray(value) && value.length === 0);
}

/**
 * Filters as the list operation takes them: `field` for like/eq, `field_start` / `field_end` for ranges; the
 * state field is always a filter (the list's tabs set it).
 */
export function filterPayload(entity: EntityDecl, filters: readonly CrudFilter[] | undefined): Record<string, unknown> {
  const payload: Record<string, unknown> = {};
  for (const filter of filters ?? []) {
    if (!("field" in filter)) throw new Error("conditional filters are not supported by catalogue lists");
    const field = entity.fields.find((f) => f.name === filter.field && (f.filter || f.name === entity.stateField));
    if (!field || isBlank(filter.value)) continue;
    switch (filter.operator) {
      case "eq":
      case "contains":
        payload[field.name] = filter.value;
        break;
      case "gte":
        payload[`${field.name}_start`] = filter.value;
        break;
      case "lte":
        payload[`${field.name}_end`] = filter.value;
        break;
      case "between": {
        const [start, end] = filter.value as unknown[];
        if (!isBlank(start)) payload[`${field.name}_start`] = start;
        if (!isBlank(end)) payload[`${field.name}_end`] = end;
        break;
      }
      default:
        throw new Error(`filter operator ${filter.operator} is not supported by catalogue lists`);
    }
  }
  return payload;
}

/** The first sorter on a sortable field, as "field" or "-field"; the server sorts by one field. */
export function sortPayload(entity: EntityDecl, sorters: readonly CrudSort[] | undefined): string | undefined {
  const sorter = sorters?.find((s) => entity.fields.some((f) => f.name === s.field && f.sortable));
  if (!sorter) return undefined;
  return sorter.order === "desc" ? `-${sorter.field}` : sorter.field;
}

function pagePayload(pagination: Pagination | undefined): { page: number; limit: number } {
  if (pagination?.mode === "off" || pagination?.mode === "client") return { page: 1, limit: MAX_PAGE_SIZE };
  return { page: pagination?.currentPage ?? 1, limit: Math.min(pagination?.pageSize ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE) };
}

/**
 * What `custom` answers: the answer's data.items, the server's message saying what was done, and where the answer
 * has them (a report's figures) the row count over every page and the totals.
 */
export type CustomAnswer<T> = CustomResponse<T> & { message: string; total?: number; sums?: Record<string, unknown> };

/**
 * Operations of the console's own pages that no catalogue declaration names: the home page's figures, payment
 * vouchers, what waits for the user's decision (the menu's badges).
 */
const CONSOLE_READS: Readonly<Record<string, string>> = { dashboard: DEFAULT_API_PATH, orderprint: DEFAULT_API_PATH, waitingcounts: DEFAULT_API_PATH };

/**
 * The /weapi/ path of an operation `custom` may call: a declared operation, a record's action, a settings
 * page's info or edit, a report's figures and export, or one of the console's own reads.
 */
function customOperationPath(name: string): string | undefined {
  const declared = operationByName(name);
  if (declared) return declared.path ?? DEFAULT_API_PATH;
  const actionOf = entities.find((e) => e.actions?.some((a) => a.name === name));
  if (actionOf) return actionOf.apiPath ?? DEFAULT_API_PATH;
  const settings = settingsPages.find((s) => name === `${s.name}info` || name === `${s.name}edit`);
  if (settings) return settings.apiPath ?? DEFAULT_API_PATH;
  if (reports.some((r) => name === r.name || name === r.exportOperation)) return DEFAULT_API_PATH;
  return Object.hasOwn(CONSOLE_READS, name) ? CONSOLE_READS[name] : undefined;
}

export const dataProvider: DataProvider = {
  getApiUrl: () => "/weapi",

  getList: async <T extends BaseRecord>({ resource, pagination, sorters, filters }: Parameters<DataProvider["getList"]>[0]) => {
    const entity = entityOf(resource);
    const sort = sortPayload(entity, sorters);
    const data = await call<ListData<T>>(entity, "list", {
      ...filterPayload(entity, filters),
      ...pagePayload(pagination),
      ...(sort ? { sort } : {}),
    });
    // an entity with states answers their counts, one with a summary its sums: the list page shows them
    return { data: data?.items ?? [], total: Number(data?.total ?? 0), ...(data?.tabs && { tabs: data.tabs }), ...(data?.summary && { summary: data.summary }) };
  },

  getOne: async <T extends BaseRecord>({ resource, id }: Parameters<DataProvider["getOne"]>[0]) => {
    const entity = entityOf(resource);
    // a school's own id is its school id: schoolinfo takes sch_id (spec 7)
    const data = await call<ItemData<T>>(entity, "info", entity.tenantColumns?.schid === "id" ? { sch_id: id } : { id });
    // an answer without the record is a missing record, never an empty one to edit
    if (!data?.items) throw new ApiFailError({ return_code: "FAIL", return_msg: i18n.t("crud.not_found_title") });
    return { data: data.items };
  },

  create: async <T extends BaseRecord, V>({ resource, variables }: Parameters<DataProvider["create"]>[0] & { variables: V }) => {
    const data = await call<ItemData<T>>(entityOf(resource), "add", { ...(variables as Record<string, unknown>) });
    return { data: (data?.items ?? {}) as T };
  },

  update: async <T extends BaseRecord, V>({ resource, id, variables }: Parameters<DataProvider["update"]>[0] & { variables: V }) => {
    const data = await call<ItemData<T>>(entityOf(resource), "edit", { ...(variables as Record<string, unknown>), id });
    return { data: (data?.items ?? { id }) as T };
  },

  deleteOne: async <T extends BaseRecord>({ resource, id }: Parameters<DataProvider["deleteOne"]>[0]) => {
    const data = await call<ItemData<T>>(entityOf(resource), "del", { id });
    return { data: (data?.items ?? { id }) as T };
  },

  // `data` is the answer's data.items, as for create
  // `meta.silent` (a boolean, so never from the URL): the page shows the failure itself, no toast
  custom: async <T extends BaseRecord>({ url, payload, meta }: Parameters<NonNullable<DataProvider["custom"]>>[0]) => {
    const path = customOperationPath(url);
    if (path === undefined) throw new Error(`unknown declared operation: ${url}`);
    const envelope = await weapi<ItemData<T>>(path, url, { ...((payload ?? {}) as Record<string, unknown>) }, { silent: meta?.silent === true });
    if (envelope.return_code !== "SUCCESS") throw new ApiFailError(envelope);
    const data = envelope.data as (ItemData<T> & { total?: unknown; sums?: Record<string, unknown> }) | undefined;
    const answer: CustomAnswer<T> = {
      data: (data?.items ?? {}) as T,
      message: envelope.return_msg,
      ...(data?.total !== undefined && { total: Number(data.total) }),
      ...(data?.sums !== undefined && { sums: data.sums }),
    };
    return answer;
  },
};
