/**
 * Types of the catalogue (resources.config.ts, assembled from the domain modules and menu trees of catalogue/):
 * entities with their fields, tenant scope and roles, and the menu groups of both generations, whose entries open
 * pages (PageRef): an entity's list, form or record, a settings page, a report, a lookup page (scan or type: one
 * value finds a record, shown, then confirmed) or a custom page of the SPA. Shared by the SPA and the server: no
 * React, antd or database imports here.
 * Titles and labels are translation keys (locales/<lang>/<namespace>.json), icons are @ant-design/icons names.
 */

/**
 * The longest text a `like` filter searches for: longer than any name, number or address a list holds, and short
 * enough that no search text makes a list read slowly (each row's columns are matched against it).
 */
export const FILTER_TEXT_MAX = 100;

/** The field kinds of the registry (server/engine/fieldKinds, src/engine/fieldKinds): one module per kind. */
export type FieldType =
  | "string" // single-line text
  | "text" // multi-line text
  | "int"
  | "money" // stored as integer fen, carried as yuan string "0.00"
  | "date" // YYYY-MM-DD
  | "datetime" // ISO 8601 with offset
  | "enum" // one of options
  | "enums" // several of options, in the options' order (an express template rule's provinces)
  | "yesno" // 'Y' | 'N'
  | "status" // '1' in use | '0' disabled: a switch in lists for whoever may edit the record
  | "password" // write-only, never returned
  | "ref" // the id of a record of another entity (`ref`), shown by that record's name
  | "phone" // a mainland mobile or landline number
  | "image" // an image by its http(s) URL
  | "idcard" // a resident identity card number (18 characters, checksum), masked in lists and exports
  | "richtext" // HTML, kept to an allow-list on the server (a goods item's description)
  | "images" // several image URLs in order, at most `max` (default 9): a goods item's pictures
  | "strings" // several short texts, each at most `max` characters (default 20), at most 5: a goods item's spec names
  | "specs" // a short text per name, at most 5 names: a SKU's spec values {"尺码": "130", "颜色": "藏青"}
  | "specgroups" // spec names, each with its values: a spec template's [{"name": "尺码", "values": ["120", "130"]}]
  | "blocks" // a DIY page's blocks in order (common/shopDiy.ts), checked and stored as JSON
  | "sections" // the public home page's sections in order, each a heading, a text and a picture (common/siteHome.ts)
  | "json"; // a document only the server writes (an audit entry's change), shown as its keys and values

/** What a `ref` field refers to. */
export interface FieldRef {
  /** the entity referred to (same or wider tenant scope) */
  entity: string;
  /**
   * another ref field of the same record that narrows this one (a class within the chosen grade): the referred
   * entity has a field of that name, and the record's value must match it
   */
  narrowBy?: string;
  /**
   * a number field of the same record counting the records it stands for, of which it names the first (an order
   * paying bills of several activities names its first line's): above 1, it is shown as "<name> 等 N 项"
   */
  countField?: string;
  /**
   * values the referred records must hold (a pickup point's verifiers are pickup accounts): the server refuses
   * others, and the form's picker offers only those (the referred list filters by these fields)
   */
  where?: Readonly<Record<string, string>>;
}

export interface FieldOption {
  value: string;
  /** translation key */
  label: string;
  /**
   * role keys the option is offered to in forms and filters (any of them); without it, everyone. Where the
   * server decides by the caller who may choose a value (an account's type), these say the same.
   */
  roles?: readonly string[];
  /** an entity's state (the options of its `stateField`): the colour of its tag */
  tone?: StateTone;
  /**
   * translation key of what a state means for the user and what to do about it (an abnormal refund): the tag's
   * tooltip, and a line beside it on the record's page
   */
  hint?: string;
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
  /** type "ref": the entity referred to */
  ref?: FieldRef;
  /** type "ref": several records (a list of ids, e.g. the schools assigned to an account; a virtual field) */
  multiple?: boolean;
  default?: string | number;
  /**
   * true: unique platform-wide; "tenant": unique within the record's school (or provider); `{ within }`: unique among
   * the records that refer to the same record through the reference field `within` (a class's title within its grade)
   */
  unique?: boolean | "tenant" | { within: string };
  /** shown as a list column */
  list?: boolean;
  /** written in the list's export beside its columns (a tracking number, too long for the list's width) */
  exported?: boolean;
  /**
   * The roles that see the field, where some readers of the entity have nothing in it (a fee order's goods
   * fulfilment, which only the second generation has): the others get no column, filter, card line, detail row or
   * export column of it. Absent: whoever reads the entity.
   */
  roles?: readonly string[];
  /**
   * list filter: 'like' for text search, 'eq' for exact match, 'range' for date and time ranges (chosen by day);
   * 'like' on a reference searches the referred records' titles (and their `refTitle.number`), typed, not picked;
   * a 'like' text holds at most FILTER_TEXT_MAX characters
   */
  filter?: "like" | "eq" | "range";
  sortable?: boolean;
  /** in the create/edit form: true for both, or only one of them */
  form?: boolean | "add" | "edit";
  /** in the form only while another field holds this value (an account's schools, for a school administrator) */
  formWhen?: { field: string; value: string };
  detail?: boolean;
  /** type "date": the last day of a term (a provider's): lists and details flag it as expired once it is past */
  termEnd?: boolean;
  /** not a database column of the entity (handled by the entity's server hooks, e.g. the first account) */
  virtual?: boolean;
  /**
   * a column the server reads but never answers, in lists, records or exports (a fee order's pickup code and QR
   * token, which the school's readers of its orders must not be able to hand to a clerk)
   */
  secret?: boolean;
  /**
   * an action's money field, filled in from the record it acts on: the record's `field`, less its `less` (a refund's
   * amount: what the order paid less what was refunded of it); the user may change it, the server checks it
   */
  prefill?: { field: string; less?: string };
}

/** The colour of a state's tag (antd's status colours): what the state means to the user at a glance. */
export type StateTone = "default" | "processing" | "success" | "warning" | "error";

/**
 * An action of an entity's records beyond edit and delete (submit a channel for review, approve it, waive a
 * bill, void a code), called with the record's `id` and its fields. The engine runs every action alike: it loads
 * the record in the caller's tenant under a row lock, checks its state, the roles and the fields, applies the
 * state change and the domain's effect and writes the audit entry, in one transaction.
 */
export interface ActionDecl {
  /** the /weapi/ method (path: the entity's) */
  name: string;
  /** translation key of its button */
  label: string;
  /** translation key of the question asked first (or of the dialog's explanation when it asks for fields) */
  confirm: string;
  roles: readonly string[];
  /** the states of the entity's `stateField` it may start from; absent for an entity without states */
  from?: readonly string[];
  /**
   * values the record's other fields must hold besides its state, each field's allowed values (a delivery by express
   * only is sent): a record without them is refused, and offers no button
   */
  onlyWhere?: Readonly<Record<string, readonly string[]>>;
  /** the state it leads to; several: its `result` field or the domain's effect chooses one (an approval or a rejection) */
  to?: string | readonly string[];
  /**
   * the field of its input whose value chooses the state it leads to, one of `to` per option (a review's decision:
   * approve -> processing, reject -> rejected); the engine sets that state, the effect does the rest
   */
  result?: { field: string; to: Readonly<Record<string, string>> };
  /** a small form asked with the confirmation (an amount, a reason, a new password), sent beside the id */
  fields?: FieldDecl[];
  /**
   * what the action is in a given state, where that differs: its button's label and the values of its fields
   * (an activity's `activityact` is "open" from a draft and "close" when open); a button whose fields are all
   * given asks a confirmation only
   */
  byState?: Readonly<Record<string, { label: string; values: Readonly<Record<string, string>> }>>;
  /** it may be applied to a selection of rows: one call per row, a result for each */
  bulk?: boolean;
  /** the payload field naming the record (default `id`): `order_id` for a refund asked of an order */
  idField?: string;
  /**
   * the field of the entity naming the record instead of its id, one declared `unique` (true or "tenant"): the
   * payload gives its value (tracesourcebind {code}, a code scanned) and the record is found in the caller's tenant
   */
  key?: string;
  /** translation key of the refusal of a `key` value found nowhere (params: the value under the key's name; default api.key_unknown) */
  keyUnknown?: string;
  /**
   * the refusal of a record in a state the action does not start from, by state, where the state alone says too
   * little (a code bound: to which order): translation keys whose params are the record's fields as its page reads
   * them (a reference's title under `{name}_title`), naming the field that names the record
   */
  refuseIn?: Readonly<Record<string, string>>;
  /**
   * the states a record it refers to must be in (the order an item belongs to, paid): `field` a reference among
   * its fields or the record's, to a stateful entity or to a child record of one (whose parent's state it has). The
   * referred record is read in the caller's tenant and locked; a record found nowhere is refused naming the field
   * (`unknown`, default api.validation.reference), one in another state naming the field and that state (`message`,
   * params `state`, default api.requires_state). An absent reference requires nothing.
   */
  requires?: { field: string; states: readonly string[]; message?: string; unknown?: string };
  /** the list tool (`listTools`) that calls it instead of a button on each record: a code scanned into an order's item */
  tool?: string;
  /** the entity whose record the action makes (a refund of an order): its lists are read again after it */
  creates?: string;
  /** its button is red (it takes something away: voiding, rejecting, disabling) */
  danger?: boolean;
  /**
   * "domain": its domain registers the operation (it calls a gateway before its transaction, which the engine's
   * one transaction cannot hold); the engine declares it, and the SPA offers it like any other
   */
  implementedBy?: "engine" | "domain";
  /**
   * the records in its `from` states wait for its roles' decision (a refund request, a channel submitted for
   * review): counted for whoever may take it (`waitingcounts`, under this key), on the menu entries listing them
   * and on the home page
   */
  waiting?: string;
  /**
   * id of the SPA's view of what the decision is about (src/domains/index.ts `actionContexts`: a refund request's
   * order, amount, reason and asker), shown above the fields of one record's dialog
   */
  context?: string;
  /** the step a new record takes next (a channel's submission): its add form says so and offers to save and take it */
  afterAdd?: { hint: string; label: string };
  /** entities whose lists and records it changes beside its own (a difference resolved changes its day's figures) */
  refreshes?: readonly string[];
  /**
   * the record it answers (of `creates`) has rows to look at: its message links to them, the related list of
   * `related` on the acted record's page in state `state`, when the answer's field `when` is above 0 (a
   * reconciled day's differences); `label` the link's translation key
   */
  answerLink?: { related: string; state: string; when: string; label: string };
}

/**
 * Child records of an entity (an activity's fee items, an order's lines): rows of another entity, declared with
 * no roles of its own, edited in the parent's form and saved in the parent's transaction (the rows sent replace
 * those stored), answered with the parent's record under `name`.
 */
export interface ChildDecl {
  /** the payload's and the record's key holding the rows */
  name: string;
  /** the child entity: the parent's tenant scope, a ref field to the parent, its form fields */
  entity: string;
  /** the child's ref field naming the parent */
  parentField: string;
  /** translation key of the rows' heading */
  label: string;
  /** how many rows a parent holds (default 0 .. 50) */
  min?: number;
  max?: number;
  /**
   * a money field of the rows summed into a field of the parent on every save (an activity's amount due: its
   * required fixed items), counting only the rows whose field holds the value given in `when`
   */
  total?: { field: string; into: string; when?: Readonly<Record<string, string>> };
  /**
   * records of other entities a row may start from (an activity's fee items from fee projects): the form offers
   * those the user may list (enabled ones, of the form's school), each chosen one added as a row whose fields take
   * the first of the named fields of the record that holds a value
   */
  startFrom?: readonly { entity: string; copy: Readonly<Record<string, readonly string[]>> }[];
  /**
   * the rows may be copied from another record of the parent entity (an activity's fee items from an earlier
   * activity of the same school): the form offers the parent's records of its school, newest first, and adds the
   * chosen one's rows as its info answers them (so within the caller's tenant, the server's scope checked)
   */
  copyFromEarlier?: boolean;
  /**
   * the rows are the combinations of values chosen for each name of the parent's `names` field (a `strings` field:
   * a goods item's spec names), each row's `values` field (a `specs` field) holding its combination: the form builds
   * them from the values typed per name, keeping what rows already had; the domain checks them on the server.
   * `template`: an entity of saved names and values the form may start from (a provider's spec templates), its
   * `field` a `specgroups` field ([{name, values}]): a user who may list that entity chooses one of its enabled
   * records, and the names, the values and the rows are set from it
   */
  product?: { names: string; values: string; template?: { entity: string; field: string } };
}

/** Records of another entity that point at this one, listed on its detail page (an activity's bills). */
export interface RelatedDecl {
  entity: string;
  /** the other entity's field naming this record: a reference to it, or the value of its `key` */
  field: string;
  /**
   * this record's field whose value the other entity's `field` holds (an order's number, which names it to its
   * print jobs, orders of both kinds alike); none: its id, by a reference
   */
  key?: string;
  /** translation key of the list's heading */
  label: string;
}

/** A sum of a summary field over the records in some states (EntityDecl.summaryInStates). */
export interface SummaryInStates {
  /** its key in `data.summary` */
  name: string;
  /** the summed field, one of the entity's `summary` */
  field: string;
  states: readonly string[];
  /**
   * A column whose value set counts a record too, whatever its state: a shop order refunded in full is cancelled,
   * like one closed unpaid, but its payment time says it was paid. State totals keep whether it is set beside the
   * state.
   */
  orSet?: string;
  label: string;
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
  /**
   * How the records referring to this one name it where its title alone could be another's (their lists, details
   * and exports): `within`, a ref field whose record's title goes first (a class: "三年级 1班"), unless the
   * referring record narrows its reference by that field and so shows it beside; `number`, a field whose value
   * follows in brackets (a student: "张三 (S001)"), which a reference's `like` filter searches too
   */
  refTitle?: { within?: string; number?: string };
  fields: FieldDecl[];
  /** role keys allowed per action; an action without roles is not offered */
  roles: Partial<Record<CrudAction, readonly string[]>>;
  defaultSort?: { field: string; order: "asc" | "desc" };
  /** /weapi/ path of its operations (default adminapiv2) */
  apiPath?: string;
  /**
   * Columns that carry the tenant: provider and school scope use `sysid` and `sch_id` unless named here
   * (the school entity's own id is its school id). `pickupPoint`: the column naming the pickup point a record
   * belongs to, by which a pickup clerk reads the records of its own points only; an entity any pickup role may
   * touch must name it (the catalogue refuses to load otherwise), and a clerk reads nothing of one without it.
   */
  tenantColumns?: { sysid?: string; schid?: string; pickupPoint?: string };
  /**
   * A platform-scoped entity whose rows belong to a provider all the same (a provider's own record, the codes
   * bound to it): the column naming that provider. Callers other than the platform's operators see only the
   * rows of their own provider.
   */
  providerColumn?: string;
  /**
   * A required reference whose record gives this one its tenant when it is added (a class or a student is in
   * its grade's school): the referred record is read in the caller's scope and held until the add
   * commits, and its provider, school and pickup point are this record's. The payload then needs no school (a
   * provider adding a class across its schools), and a record of another tenant is refused as unknown, naming the
   * field. The reference cannot later move the record out of that tenant: an edit's reference must lie in it.
   */
  tenantFrom?: string;
  /**
   * Operation exporting the filtered list, on its tab and in its order, as an .xlsx file of the download centre
   * (same roles and filters as the list); its answer is data.items {job_id}. The list page then offers an Export
   * button.
   */
  exportOperation?: string;
  /**
   * Import of the entity's records from an .xlsx file: the list page then offers Import (template download,
   * every row checked before anything is written, all or nothing, progress, row errors) and the import is logged.
   */
  import?: ImportDecl;
  /**
   * The enum field holding the record's state (a channel's draft, submitted, approved...): its options, with their
   * tones, are the states; the entity's `actions` move a record between them.
   */
  stateField?: string;
  /**
   * Money fields summed over the list's whole filter, not its page (an order list's amount): the list answers
   * `data.summary` {count, <field>: yuan string} and the list page shows it under its rows.
   */
  summary?: readonly string[];
  /**
   * Sums of a `summary` field over some states only, answered in `data.summary` beside the fields' sums under their
   * own names (an order list's money received: the amount of the orders paid, refunded since or not, where the
   * amount's sum counts orders closed unpaid too). Shown after the fields' sums.
   */
  summaryInStates?: readonly SummaryInStates[];
  /**
   * Indexes for the reads a list makes most, beyond those its filters and tenant imply: the columns in order,
   * those compared for equality first, then the order, then any the read only takes, so that the page, its
   * state tabs' counts and its summary's sums are read from the index alone (a school's paid orders).
   */
  indexes?: readonly (readonly string[])[];
  /**
   * Keep each state's count and the summary's sums per tenant in a table of their own (`{table}_state_totals`,
   * server/db/stateTotals.ts), written by the database as rows change: a list narrowed by nothing but its tenant
   * and state reads its tabs, total and summary there instead of counting its rows (the order list at a million
   * orders). Needs `stateField`.
   *
   * `{ days: field }` keeps them per business day of a datetime field too (`{table}_day_totals`, the day cut in the
   * business time zone; a record whose field is empty is in no day): a list narrowed by its tenant, its state and a
   * range of whole days of that field (`field_start` / `field_end` given as days) sums the days' rows instead of
   * counting the range's records, and reads its first pages (in id order) day by day from an index on the tenant,
   * the state, the day and id, so a month's page reads some rows a day rather than the month's.
   *
   * `idsFollowDays`: the field is when the record was made (`created_at`), so its ids follow its days, give or take
   * the seconds between a record's time and its insert: a page in id order then reads only the days it needs, counted
   * from the day totals, and the one after them, not a page of every day of the range.
   */
  stateTotals?: boolean | { days: string; idsFollowDays?: boolean };
  /** the states in which the record may be edited (a channel only while draft or rejected); absent: any */
  editableIn?: readonly string[];
  /** the actions offered on a record (on its row, its detail page and, when `bulk`, a selection) */
  actions?: ActionDecl[];
  /** child records edited with the record (an activity's fee items) */
  children?: ChildDecl[];
  /** records of other entities pointing at it, listed on its detail page */
  related?: RelatedDecl[];
  /**
   * The record's timeline on its page (server/engine/timeline.ts): the events shown, each an action of the entity or
   * an event its domain writes to the audit log under the entity's name and the record's id, with the translation
   * key of its text, whose parameters are `who`, `from` and `to` (the states, as the reader reads them) and the
   * event's details (a reason, a refund number)
   */
  timeline?: Readonly<Record<string, string>>;
  /**
   * Tools of the browser offered on each record beside its actions (a QR code's printable poster): ids of the
   * SPA's record tools (src/domains/index.ts), which work from the record as its list read it and call nothing.
   */
  recordTools?: readonly string[];
  /**
   * Tools of the SPA offered as buttons of the entity's list page (the import of tracking numbers beside its log):
   * ids of the SPA's list tools (src/domains/index.ts), whose dialogs call operations of the list's roles.
   */
  listTools?: readonly string[];
  /**
   * Values answered once and never again (an API client's secret, kept only as its hash): the add and the actions
   * that make them answer them beside the record, and the SPA shows them in a dialog to copy, with `hint` saying
   * they cannot be read later.
   */
  answeredOnce?: { fields: readonly { name: string; label: string }[]; title: string; hint: string };
  /**
   * "domain": the entity's operations and table are its domain's own (server/domains/<domain>/); the engine
   * builds its pages from the declaration but registers no generic operation and generates no table.
   */
  implementedBy?: "engine" | "domain";
  /**
   * its table is written by hand (server/db/schema.ts: the audit log, which every operation writes) and read by the
   * generic operations through a view of its columns by their API names (server/db/referableTables.ts); no table
   * is generated for it
   */
  ownTable?: true;
}

/** An entity's spreadsheet import (see EntityDecl.import). */
export interface ImportDecl {
  /** the operation taking {sch_id, filename, content_base64}; answers items {log_id, total, imported, errors} */
  operation: string;
  /** the operation answering the template like an export */
  templateOperation: string;
  /** the columns of the template and of a file, in order: field names of the entity, or a ref field's title */
  columns: readonly string[];
  /** translation key of the dialog's hint on what the file holds (default: the generic one on headers) */
  hint?: string;
  /** who may import; absent: whoever may add the entity's records */
  roles?: readonly string[];
  /**
   * An import into one record chosen first, whose columns come from that record (bills into an activity, a column
   * per fee item): the payload field naming it, its entity and the states it may be chosen in. Its domain registers
   * the operations (registerSheetImport of server/engine/imports.ts); the dialog asks for the record first.
   */
  into?: { field: string; entity: string; states?: readonly string[] };
}

/**
 * A lookup page's record: what the finding operation answers, shown as a card of its fields (src/engine/RecordCard.tsx).
 * A field of a nested object of the answer is named by its path: `student.name`.
 */
export interface LookupRecordDecl {
  /** the field the card is titled by (an order's number) */
  titleField: string;
  /** the enum field of its state, a tag beside the title */
  status?: string;
  /** the fields shown, the title and status among them */
  fields: FieldDecl[];
  /** rows of the answer listed under it, each a card of its fields (an order's items, their specs) */
  items?: { name: string; label: string; titleField: string; fields: FieldDecl[] };
  /**
   * the record confirmed already, by whoever confirmed it: while the field `when` holds a value, the message (a
   * translation key) is shown instead of the button, its parameters filled from the record's fields named here (who
   * and when); those fields are said there, not on the card
   */
  done?: { when: string; message: string; params: Readonly<Record<string, string>> };
}

/** The operation a lookup page confirms its record with, sending the same value. */
export interface LookupConfirmDecl {
  operation: string;
  /** translation key of its button; default the operation's `submit` */
  button?: string;
  /** translation key of what a success says, its parameters filled from the record shown after (the order's number) */
  success: string;
  /**
   * an enum field of the operation recording how the value was entered, and its options for a value typed and one
   * scanned (a pickup's `via`: code or scan)
   */
  via?: { field: string; typed: string; scanned: string };
  /** offered only while the record's field holds one of the values (an order waiting to be collected) */
  offeredWhen: { field: string; values: readonly string[] };
  /** translation key said instead of the button on a record neither offered nor done (an order refunded in full) */
  unavailable: string;
  /** the record shown after: the operation's answer ("answer", in the finding operation's shape) or found again ("find") */
  then: "answer" | "find";
}

/** One list of a page of several (PageRef `lists`): an entity's list, with the filters it always sends. */
export interface ListPart {
  /** its name in the page's address (`?part=`) */
  key: string;
  /** translation key of its option in the switch at the page's top */
  title: string;
  entity: string;
  /** filters the part always sends (field name -> value), never shown as filter inputs nor columns */
  filters?: Record<string, string>;
  /** listed fields its table shows first, in this order (what its decisions need in view), the others after */
  columns?: readonly string[];
  /** fields its filters leave empty on every row (a fee refund's shop order): neither a filter input nor a column */
  without?: readonly string[];
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
      /** a second list of the entity in the same menu group (the operators' list of every school): its own resource */
      view?: string;
    }
  | {
      kind: "add" | "edit" | "info";
      entity: string;
      /** the record pages of a list `view` (a v2 group sharing a v1 group's path under other route names) */
      view?: string;
    }
  /**
   * Several entities' lists on one page, one at a time under a switch at its top, each its entity's list with its
   * state tabs, columns and actions (the after-sales list: the shop's after-sales and the fee orders' refund
   * requests); the address's `part` names the one shown. Its menu entry counts what waits for a decision in the part
   * it opens first (common/waiting.ts).
   */
  | {
      kind: "lists";
      parts: readonly ListPart[];
      /** the key of the part opened when the address names none (each route of a page bound per group its own); default the first */
      first?: string;
    }
  /** one record per tenant edited in a form, no list (a declared SettingsDecl) */
  | { kind: "settings"; settings: string }
  /** figures by a dimension with filters, a table and a chart, exported (a declared ReportDecl) */
  | {
      kind: "report";
      report: string;
      /** on a record route (:id): the report's filter the id fills (a class's statistics: class_id) */
      recordFilter?: string;
    }
  | {
      kind: "custom";
      id: string;
      /** the operations the page calls: the menu may show it only to roles they all allow (a test checks it) */
      calls: readonly string[];
      /** on a record route (:id): offered only on records whose field holds one of the values (a voucher: paid orders) */
      offeredWhen?: { field: string; values: readonly string[] };
      /** on a record route: a list's selection opens it too, for the rows chosen it is offered on (`?ids=1,2`) */
      selection?: boolean;
    }
  /**
   * Scan or type: one value typed, or scanned from a QR code with the camera, looks a record up (`find`), which is
   * shown, then confirmed with one button (`confirm`): the pickup clerk's page. Rendered by src/engine/LookupPage.tsx,
   * on a phone first; the menu may show it only to roles both operations allow (a test checks it).
   */
  | {
      kind: "lookup";
      /** the operation finding the record from the value; it answers the record */
      find: string;
      /** the field of both operations the value fills */
      field: string;
      /** the value may be scanned from a QR code with the camera, where the browser can open one */
      scan?: boolean;
      /** the value typed is digits: a phone offers its numeric keyboard */
      numeric?: boolean;
      /** translation keys of the field's placeholder and of what the page says before a record is found */
      placeholder: string;
      hint: string;
      /** translation key of the camera's button */
      scanButton?: string;
      record: LookupRecordDecl;
      confirm: LookupConfirmDecl;
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
  settings: SettingsDecl[];
  reports: ReportDecl[];
  menus: MenuGroup[];
}

/**
 * A domain module of the catalogue (catalogue/<domain>.ts): its entities and the pages it binds to route names.
 * A binding serves every menu entry of that name in both generations, so a page reference is written once.
 */
export interface CatalogueDomain {
  entities: EntityDecl[];
  /** route name (or "group/route", where two groups give one route name to different pages) -> the page it opens */
  pages: Record<string, PageRef>;
  operations?: OperationDecl[];
  settings?: SettingsDecl[];
  reports?: ReportDecl[];
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

/**
 * A settings page: one record per tenant (the platform, a provider or a school) edited in a form, no list. The
 * server registers `{name}info` (the record, defaults while none is saved) and `{name}edit` (saves the fields sent).
 */
export interface SettingsDecl {
  name: string;
  scope: TenantScope;
  /** translation key of the page's title */
  title: string;
  roles: { info: readonly string[]; edit: readonly string[] };
  /**
   * a platform page whose callers of these role keys (outside the operators) read and write a record of their own
   * provider instead (the mini-program settings: the platform's credentials for the operators, a provider's own for
   * a provider with the upload flag); each field says whose it is by its `roles`
   */
  ownRecordFor?: readonly string[];
  fields: FieldDecl[];
  /** /weapi/ path of its operations (default adminapiv2) */
  apiPath?: string;
}

/** A figure of a report: a count or sum per row of the dimension, or the rate of two of them. */
export interface ReportMeasure {
  name: string;
  /** translation key */
  label: string;
  /** a rate is a percentage with one decimal, `of` [numerator, denominator], in every row and in the totals */
  type: "int" | "money" | "rate";
  of?: readonly [string, string];
  /**
   * the value of a choice this measure counts (boys: the students of sex 1): drawn in that value's colour, as
   * the value is on every chart; a measure of no one value (all students) is drawn in the theme colour
   */
  value?: { field: FieldDecl; value: string };
}

/**
 * A report page: filters, then one row per value of its dimension (a class, a gender, a day) with its measures,
 * drawn as a chart and exported to .xlsx. The server registers `name` (answer items: rows, total: row count)
 * and `exportOperation`; the figures come from the domain's query.
 */
export interface ReportDecl {
  /** the /weapi/ method answering the figures */
  name: string;
  exportOperation: string;
  scope: TenantScope;
  /** translation key of the page's title */
  title: string;
  /** translation key of a line under the title saying how to read the figures (what the period does not narrow) */
  note?: string;
  roles: readonly string[];
  /** filter inputs (date range, a reference, a choice); sent as the list filters are */
  filters: FieldDecl[];
  /** the field naming each row (its label: a class title, a gender's option label); the default of `dimensions` */
  dimension: FieldDecl;
  /**
   * every dimension the figures may be read by (payload `dimension`), the default first: a school, a grade, a
   * day (`day` and `month` are time buckets of the report's period). Absent: `dimension` alone.
   */
  dimensions?: readonly FieldDecl[];
  /**
   * a row opens the figures of its value one level down: the next dimension, filtered by the row's value (the
   * filter named like the dimension), or the report of a record page (a class's own statistics)
   */
  drill?: Readonly<Record<string, { dimension: string } | { report: string }>>;
  /** the date range filter (today, 7 days, this month, custom) that the time buckets and the money fall in */
  period?: string;
  /** the table is paged (a dimension of many values: students): rows per page */
  pageSize?: number;
  measures: ReportMeasure[];
  /** the measures the chart draws (those of one unit: money); absent: every count and sum */
  chartMeasures?: readonly string[];
  chart: "bar" | "pie" | "line";
}
