/**
 * Types of the catalogue (resources.config.ts, assembled from the domain modules and menu trees of catalogue/):
 * entities with their fields, tenant scope and roles, and the menu groups of both generations. Shared by the SPA
 * and the server: no React, antd or database imports here.
 * Titles and labels are translation keys (locales/<lang>/<namespace>.json), icons are @ant-design/icons names.
 */

export type FieldType =
  | "string" // single-line text
  | "text" // multi-line text
  | "int"
  | "money" // stored as integer fen, carried as yuan string "0.00"
  | "date" // YYYY-MM-DD
  | "datetime" // ISO 8601 with offset
  | "enum" // one of options
  | "yesno" // 'Y' | 'N'
  | "password"; // write-only, never returned

export interface FieldOption {
  value: string;
  /** translation key */
  label: string;
}

export interface FieldDecl {
  /** API name (payload and result), snake_case */
  name: string;
  type: FieldType;
  /** translation key */
  label: string;
  required?: boolean;
  /** string: max length; int/money: max value */
  max?: number;
  /** string: min length; int/money: min value */
  min?: number;
  pattern?: string;
  /** translation key of the message shown when `pattern` fails */
  patternMessage?: string;
  options?: FieldOption[];
  default?: string | number;
  unique?: boolean;
  /** shown as a list column */
  list?: boolean;
  /** list filter: 'like' for text search, 'eq' for exact match, 'range' for date and time ranges (chosen by day) */
  filter?: "like" | "eq" | "range";
  sortable?: boolean;
  /** in the create/edit form: true for both, or only one of them */
  form?: boolean | "add" | "edit";
  detail?: boolean;
  /** not a database column of the entity (handled by the entity's server hooks, e.g. the first account) */
  virtual?: boolean;
}

/**
 * A named operation offered on each row of an entity's list, called with the row's `id` after a confirmation
 * (e.g. voiding an unused activation code). The server registers the operation with these role keys.
 */
export interface RowAction {
  operation: string;
  /** translation key of the row's button */
  label: string;
  /** translation key of the question asked first */
  confirm: string;
  roles: readonly string[];
  /** offered only on rows whose field holds this value */
  when?: { field: string; value: string };
}

export type TenantScope = "platform" | "provider" | "school";
export type CrudAction = "list" | "info" | "add" | "edit" | "del";

export interface EntityDecl {
  /** operation prefix: {name}list, {name}info, {name}add, {name}edit, {name}del */
  name: string;
  /** database table name */
  table: string;
  scope: TenantScope;
  /** translation key of the entity's name */
  title: string;
  /** field shown as the record's name */
  titleField: string;
  fields: FieldDecl[];
  /** role keys allowed per action; an action without roles is not offered */
  roles: Partial<Record<CrudAction, readonly string[]>>;
  defaultSort?: { field: string; order: "asc" | "desc" };
  /** /weapi/ path of its operations (default adminapiv2) */
  apiPath?: string;
  /**
   * Columns that carry the tenant: provider and school scope use `sysid` and `sch_id` unless named here
   * (the school entity's own id is its school id).
   */
  tenantColumns?: { sysid?: string; schid?: string };
  /**
   * A platform-scoped entity whose rows belong to a provider all the same (a provider's own record, the codes
   * bound to it): the column naming that provider. Callers other than the platform's operators see only the
   * rows of their own provider.
   */
  providerColumn?: string;
  /**
   * Operation exporting the filtered list as a file (same roles and filters as the list); its answer is
   * data.items {filename, mime, content_base64}. The list page then offers an Export button.
   */
  exportOperation?: string;
  rowActions?: RowAction[];
}

/** What a menu entry opens. */
export type PageRef =
  | {
      kind: "list";
      entity: string;
      /** filters the page always sends (field name -> value), never shown as filter inputs */
      filters?: Record<string, string>;
      /** on a route with :id, the field the list is filtered by that id (e.g. a provider's codes) */
      recordFilter?: string;
    }
  | { kind: "add" | "edit" | "info"; entity: string }
  | {
      kind: "custom";
      id: string;
      /** the operations the page calls: the menu may show it only to roles they all allow (a test checks it) */
      calls: readonly string[];
    };

export interface MenuEntry {
  /** route name, unique within its group (routes are /{group}/{name}) */
  name: string;
  /** translation key */
  title: string;
  icon?: string;
  /** role keys that see it; absent: every logged-in user */
  roles?: string[];
  /** reached from a parent list, never in the sidebar */
  hidden?: boolean;
  /** route name (same group) highlighted in the menu while this hidden route is open */
  activeMenu?: string;
  /** path parameters, e.g. [":id"] */
  params?: string[];
  /** the page it opens; absent while no page is built (the entry then stays out of the visible menu) */
  page?: PageRef;
  /** an external link opened in a new tab */
  external?: string;
}

export interface MenuGroup {
  /** group path without slash, e.g. 'servicev2'; a route is /{path}/{entry.name} */
  path: string;
  generation: "v1" | "v2";
  /** translation key */
  title: string;
  icon?: string;
  /** role keys of the group as a whole; entries narrow further */
  roles?: string[];
  /** keep the group even when it has a single visible child */
  alwaysShow?: boolean;
  children: MenuEntry[];
}

export interface Catalogue {
  entities: EntityDecl[];
  /** operations beyond CRUD, declared by the domains */
  operations: OperationDecl[];
  menus: MenuGroup[];
}

/**
 * A domain module of the catalogue (catalogue/<domain>.ts): its entities and the pages it binds to route names.
 * A binding serves every menu entry of that name in both generations, so a page reference is written once.
 */
export interface CatalogueDomain {
  entities: EntityDecl[];
  /** route name -> the page it opens */
  pages: Record<string, PageRef>;
  operations?: OperationDecl[];
}

/** A menu entry as a menu tree writes it: its page comes from the domain that binds its route name. */
export type MenuTreeEntry = Omit<MenuEntry, "page">;

export interface MenuTreeGroup extends Omit<MenuGroup, "generation" | "children"> {
  children: MenuTreeEntry[];
}

/** The menu groups of one generation (catalogue/menus.v1.ts, catalogue/menus.v2.ts). */
export interface MenuTree {
  generation: MenuGroup["generation"];
  groups: MenuTreeGroup[];
}

/**
 * What an operation does to data. While the caller's service term has expired only reading, renewing (and
 * paying for it) and managing the caller's own account stay open; a "write" is refused.
 */
export type OperationEffect = "read" | "write" | "renewal" | "account";

/**
 * An operation beyond CRUD, declared once: the server registers it with these roles and effect and checks its
 * payload against `fields`; the SPA renders its form from `fields` and calls it through the data provider.
 * Rules between fields (one of two, a date after today) stay in the handler and the page.
 */
export interface OperationDecl {
  /** the /weapi/ method */
  name: string;
  /** /weapi/ path (default adminapiv2) */
  path?: string;
  roles: readonly string[];
  effect: OperationEffect;
  /** its payload: the same kinds and rules as entity fields; an absent optional field reaches the handler as null */
  fields: FieldDecl[];
  /** translation keys of the form's title and of its submit button */
  title: string;
  submit: string;
  /** entities whose lists and records refresh after it */
  invalidates?: readonly string[];
}
