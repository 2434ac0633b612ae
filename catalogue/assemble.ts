/**
 * Binds the menu trees to the domains' pages: every menu entry gets the page its route name is bound to, in
 * both generations, or the page bound to its group and route ("shop/orderlist") where one route name means two
 * pages. A binding no menu uses, a route bound twice, an entity or operation declared twice or a page
 * (or an operation's refresh) naming an undeclared entity, or an entity pickup clerks may use without a pickup-point
 * column, is a mistake in the catalogue: it throws when the catalogue loads, before anything serves it.
 *
 * So is every convention the engine relies on while it serves (checkConventions below): a reference to an
 * undeclared entity, a state field that is no enum, an action's states that are no states of it, a rule between
 * fields naming a field that is not beside it, an action keyed by a field that is not unique or requiring a state of
 * a record that has none, a child entity without its sort field, a summary or a total that is
 * no number of its entity, a page's filter or an entity's default sort naming a field it does not have, a report's
 * drill or rate naming what it does not have, a lookup page naming an undeclared operation or a field its
 * operations lack (checkLookupPage). Each message names the declaration.
 */
import type { ActionDecl, Catalogue, CatalogueDomain, EntityDecl, FieldDecl, MenuGroup, MenuTree, OperationDecl, PageRef, ReportDecl, SettingsDecl } from "../common/catalogue";
import "../common/fieldExtras";
import { PICKUP_ROLES } from "../common/roleKeys";

/**
 * The int field of a child entity keeping its rows in the order the form gave them: the engine writes it and reads
 * the rows by it (server/engine/children.ts CHILD_ORDER_FIELD, which a server test holds equal to this).
 */
export const CHILD_SORT_FIELD = "sort";

/** `domains` in the order their entities are listed (domain name -> module). */
export function assembleCatalogue(domains: Record<string, CatalogueDomain>, trees: readonly MenuTree[]): Catalogue {
  const entityDomain = new Map<string, string>();
  const bindings = new Map<string, { domain: string; page: PageRef }>();
  for (const [domain, { entities, pages }] of Object.entries(domains)) {
    for (const entity of entities) {
      const other = entityDomain.get(entity.name);
      if (other) throw new Error(`catalogue: entity "${entity.name}" is declared by both ${other} and ${domain}`);
      entityDomain.set(entity.name, domain);
    }
    for (const [route, page] of Object.entries(pages)) {
      const other = bindings.get(route);
      if (other) throw new Error(`catalogue: route "${route}" is bound by both ${other.domain} and ${domain}`);
      bindings.set(route, { domain, page });
    }
  }
  // the records listed on a record's page (an order's refunds) are of a declared entity, referring to it by a field
  const declared = Object.values(domains).flatMap((d) => d.entities);
  for (const entity of declared) {
    for (const related of entity.related ?? []) {
      const other = declared.find((e) => e.name === related.entity);
      const field = other?.fields.find((f) => f.name === related.field);
      if (related.key !== undefined) {
        // by a value both hold: the other's field filters by it, and this record has it
        if (!field || field.filter !== "eq" || !entity.fields.some((f) => f.name === related.key)) {
          throw new Error(`catalogue: ${entity.name} lists related ${related.entity} records by ${related.field} = its ${related.key}, which is no "eq" filter of a declared entity or no field of ${entity.name}`);
        }
      } else if (!field || field.type !== "ref" || field.ref?.entity !== entity.name) {
        throw new Error(`catalogue: ${entity.name} lists related ${related.entity} records by ${related.field}, which is no reference of a declared entity to it`);
      }
    }
  }
  // a pickup clerk's tenant is its pickup points: a provider's or school's entity it may touch names the column
  // they are in (its provider's own record, platform-scoped, it reads as every account of the provider does)
  for (const entity of declared.filter((e) => e.scope !== "platform")) {
    const touchedByClerks = Object.values(entity.roles).some((roles) => roles?.some((role) => PICKUP_ROLES.includes(role)));
    if (touchedByClerks && !entity.tenantColumns?.pickupPoint) {
      throw new Error(`catalogue: pickup clerks may use ${entity.name}, which names no pickup-point column (tenantColumns.pickupPoint): the tenant filter would give them no records of it`);
    }
  }
  const operations = assembleOperations(domains, entityDomain);
  const settings = declaredOnce(domains, "settings", (d) => d.settings ?? []);
  const reports = declaredOnce(domains, "report", (d) => d.reports ?? []);
  for (const [route, { domain, page }] of bindings) {
    const missing =
      (page.kind === "settings" && !settings.some((s) => s.name === page.settings) && `settings "${page.settings}"`) ||
      (page.kind === "report" && !reports.some((r) => r.name === page.report) && `report "${page.report}"`) ||
      ("entity" in page && !entityDomain.has(page.entity) && `entity "${page.entity}"`) ||
      (page.kind === "lists" && page.parts.filter((part) => !entityDomain.has(part.entity)).map((part) => `entity "${part.entity}"`)[0]);
    if (missing) throw new Error(`catalogue: ${domain} binds route "${route}" to the undeclared ${missing}`);
  }

  const used = new Set<string>();
  const menus: MenuGroup[] = trees.flatMap(({ generation, groups }) =>
    groups.map(({ path, children, ...group }) => ({
      path,
      generation,
      ...group,
      children: children.map((entry) => {
        // a route name two generations give to different pages is bound per group: "shop/orderlist"
        const key = [`${path}/${entry.name}`, entry.name].find((k) => bindings.has(k));
        if (!key) return entry;
        used.add(key);
        return { ...entry, page: bindings.get(key)!.page };
      }),
    })),
  );
  for (const [route, { domain }] of bindings) {
    if (!used.has(route)) throw new Error(`catalogue: ${domain} binds route "${route}", which no menu names`);
  }
  checkConventions(declared, operations, settings, reports, bindings);

  return { entities: Object.values(domains).flatMap((d) => d.entities), operations, settings, reports, menus };
}

function declaredOnce<T extends SettingsDecl | ReportDecl>(domains: Record<string, CatalogueDomain>, what: string, of: (d: CatalogueDomain) => T[]): T[] {
  const declaredBy = new Map<string, string>();
  const all: T[] = [];
  for (const [domain, module] of Object.entries(domains)) {
    for (const decl of of(module)) {
      const other = declaredBy.get(decl.name);
      if (other) throw new Error(`catalogue: ${what} "${decl.name}" is declared by both ${other} and ${domain}`);
      declaredBy.set(decl.name, domain);
      all.push(decl);
    }
  }
  return all;
}

function assembleOperations(domains: Record<string, CatalogueDomain>, entityDomain: ReadonlyMap<string, string>): OperationDecl[] {
  const declaredBy = new Map<string, string>();
  const operations: OperationDecl[] = [];
  for (const [domain, { operations: declared = [] }] of Object.entries(domains)) {
    for (const operation of declared) {
      const other = declaredBy.get(operation.name);
      if (other) throw new Error(`catalogue: operation "${operation.name}" is declared by both ${other} and ${domain}`);
      declaredBy.set(operation.name, domain);
      for (const entity of operation.invalidates ?? []) {
        if (!entityDomain.has(entity)) throw new Error(`catalogue: operation "${operation.name}" refreshes the undeclared entity "${entity}"`);
      }
      operations.push(operation);
    }
  }
  return operations;
}

/**
 * The conventions the engine relies on while it serves, which a declaration could otherwise break silently (a
 * filter never applied, a state never reached) or only on the first call that meets it: checked once, when the
 * catalogue loads. Runs after the checks above, so every entity and report a page names is declared.
 */
function checkConventions(
  entities: readonly EntityDecl[],
  operations: readonly OperationDecl[],
  settings: readonly SettingsDecl[],
  reports: readonly ReportDecl[],
  bindings: ReadonlyMap<string, { domain: string; page: PageRef }>,
): void {
  const byName = new Map(entities.map((entity) => [entity.name, entity]));
  for (const entity of entities) checkEntity(entity, byName);
  for (const operation of operations) checkFields(`operation ${operation.name}`, operation.fields, byName);
  for (const decl of settings) checkFields(`settings ${decl.name}`, decl.fields, byName);
  for (const report of reports) checkReport(report, reports, byName);
  for (const [route, { domain, page }] of bindings) checkPage(`${domain} binds route "${route}"`, page, byName, reports, operations);
}

const NUMBER_TYPES: ReadonlySet<string> = new Set(["int", "money"]);

/** Whether a field is a column of its entity's table (server/db/catalogueTables.ts isColumnField). */
function isColumn(field: FieldDecl): boolean {
  return !field.virtual && field.type !== "password";
}

/** The columns of an entity's table: its column fields, its id and its tenant columns (server/db/generateTables.ts). */
function columnsOf(entity: EntityDecl): Set<string> {
  const names = new Set(entity.fields.filter(isColumn).map((f) => f.name));
  names.add("id");
  if (entity.scope !== "platform") names.add(entity.tenantColumns?.sysid ?? "sysid");
  if (entity.scope === "school") names.add(entity.tenantColumns?.schid ?? "sch_id");
  return names;
}

/** The states of an entity (the options of its `stateField`); undefined when it declares none. */
function statesOf(entity: EntityDecl): Set<string> | undefined {
  if (!entity.stateField) return undefined;
  return new Set(entity.fields.find((f) => f.name === entity.stateField)?.options?.map((o) => o.value) ?? []);
}

function checkEntity(entity: EntityDecl, byName: ReadonlyMap<string, EntityDecl>): void {
  const name = entity.name;
  const field = (fieldName: string) => entity.fields.find((f) => f.name === fieldName);
  const columns = columnsOf(entity);
  checkFields(name, entity.fields, byName, columns);
  if (!field(entity.titleField)) throw new Error(`catalogue: ${name}'s titleField ${entity.titleField} is no field of it`);
  const within = entity.refTitle?.within;
  if (within !== undefined && field(within)?.type !== "ref") throw new Error(`catalogue: ${name} is named within ${within}, which is no reference field of it`);
  const number = entity.refTitle?.number;
  if (number !== undefined && !field(number)) throw new Error(`catalogue: ${name} is named with the number ${number}, which is no field of it`);
  for (const f of entity.fields) {
    const unique = f.unique;
    if (typeof unique === "object" && !(field(unique.within)?.type === "ref" && isColumn(field(unique.within)!))) {
      throw new Error(`catalogue: ${name}.${f.name} is unique within ${unique.within}, which is no reference field of ${name}`);
    }
  }
  if (entity.defaultSort && !columns.has(entity.defaultSort.field)) {
    throw new Error(`catalogue: ${name} sorts by default by ${entity.defaultSort.field}, which is no column of it`);
  }
  if (entity.tenantFrom !== undefined) checkTenantFrom(entity, entity.tenantFrom, byName);
  const readers = new Set([...(entity.roles.list ?? []), ...(entity.roles.info ?? [])]);
  for (const f of entity.fields.filter((f) => f.roles)) {
    const stranger = f.roles!.find((role) => !readers.has(role));
    if (f.roles!.length === 0 || stranger !== undefined) throw new Error(`catalogue: ${name}.${f.name} is seen by ${stranger ?? "no role"}, which is no reader of ${name}`);
  }

  // states: the options of an enum column, and everything that names a state names one of them
  if (entity.stateField !== undefined) {
    const state = field(entity.stateField);
    if (!state || state.type !== "enum" || !state.options?.length || !isColumn(state)) {
      throw new Error(`catalogue: ${name}'s stateField ${entity.stateField} is no enum field with options of it`);
    }
  }
  const states = statesOf(entity);
  const stateOf = (what: string, values: readonly string[]) => {
    if (values.length === 0) return;
    if (!states) throw new Error(`catalogue: ${what} "${values[0]}", but ${name} declares no stateField`);
    const unknown = values.find((v) => !states.has(v));
    if (unknown !== undefined) throw new Error(`catalogue: ${what} "${unknown}", which is no state of ${name} (an option of ${name}.${entity.stateField})`);
  };
  stateOf(`${name} is editable in`, entity.editableIn ?? []);
  if (entity.stateTotals && !entity.stateField) throw new Error(`catalogue: ${name} keeps state totals but declares no stateField`);
  // only the time a record is made follows its id: a page read by the days it needs would miss records otherwise
  if (typeof entity.stateTotals === "object" && entity.stateTotals.idsFollowDays && entity.stateTotals.days !== "created_at") {
    throw new Error(`catalogue: ${name}'s ids follow the days of ${entity.stateTotals.days}, which is not when its records are made (created_at)`);
  }

  // a list's summary: money columns summed over its filter, and their sums over some of its states
  for (const summed of entity.summary ?? []) {
    const f = field(summed);
    if (!f || f.type !== "money" || !isColumn(f)) throw new Error(`catalogue: ${name}'s summary names ${summed}, which is no money column of it`);
  }
  for (const sum of entity.summaryInStates ?? []) {
    if (!entity.summary?.includes(sum.field)) throw new Error(`catalogue: ${name}'s summary in states ${sum.name} sums ${sum.field}, which is not in its summary`);
    if (sum.states.length === 0) throw new Error(`catalogue: ${name}'s summary in states ${sum.name} names no state`);
    stateOf(`${name}'s summary in states ${sum.name} counts the state`, sum.states);
    if (sum.orSet !== undefined) {
      const set = field(sum.orSet);
      if (!set || !isColumn(set)) throw new Error(`catalogue: ${name}'s summary in states ${sum.name} counts the records with ${sum.orSet} set, which is no column of it`);
    }
  }

  for (const action of entity.actions ?? []) checkAction(entity, action, byName, stateOf);
  for (const decl of entity.children ?? []) checkChildren(entity, decl, byName);

  const imported = entity.import;
  if (imported) {
    for (const column of imported.columns) {
      const f = field(column);
      if (!f || !isColumn(f) || !(f.form === true || f.form === "add") || (f.type === "ref" && f.multiple)) {
        throw new Error(`catalogue: ${name} imports the column ${column}, which is no single-valued column field of its add form`);
      }
    }
    const into = imported.into;
    if (into) {
      const target = byName.get(into.entity);
      if (!target) throw new Error(`catalogue: ${name} imports into records of the undeclared entity "${into.entity}"`);
      if (field(into.field)?.type !== "ref" || field(into.field)?.ref?.entity !== into.entity) {
        throw new Error(`catalogue: ${name} imports into the ${into.entity} named by ${into.field}, which is no reference field of ${name} to it`);
      }
      const targetStates = statesOf(target);
      const unknown = (into.states ?? []).find((s) => !targetStates?.has(s));
      if (unknown !== undefined) throw new Error(`catalogue: ${name} imports into ${into.entity} records in the state "${unknown}", which is no state of ${into.entity}`);
    }
  }
}

/** The tenant an entity takes from a reference (EntityDecl.tenantFrom) is one the referred record carries whole. */
function checkTenantFrom(entity: EntityDecl, fieldName: string, byName: ReadonlyMap<string, EntityDecl>): void {
  const where = `${entity.name} takes its tenant from ${fieldName}`;
  const field = entity.fields.find((f) => f.name === fieldName);
  if (!field || field.type !== "ref" || field.multiple || !isColumn(field) || !field.required) throw new Error(`catalogue: ${where}, which is no required single reference column of it`);
  if (entity.scope === "platform" || entity.tenantColumns?.schid === "id") throw new Error(`catalogue: ${where}, but it has no tenant columns to fill`);
  const referred = byName.get(field.ref!.entity)!;
  const carries = referred.scope === "school" || (referred.scope === "provider" && entity.scope === "provider");
  if (!carries) throw new Error(`catalogue: ${where}, a ${referred.scope}-scoped ${referred.name}, which does not carry a ${entity.scope}'s tenant`);
  if (entity.tenantColumns?.pickupPoint && !referred.tenantColumns?.pickupPoint) throw new Error(`catalogue: ${where}, but ${referred.name} names no pickup point for its pickup-point column`);
}

function checkAction(entity: EntityDecl, action: ActionDecl, byName: ReadonlyMap<string, EntityDecl>, stateOf: (what: string, values: readonly string[]) => void): void {
  const where = `${entity.name}.${action.name}`;
  const to = action.to === undefined ? [] : typeof action.to === "string" ? [action.to] : action.to;
  stateOf(`${where} starts from`, action.from ?? []);
  stateOf(`${where} leads to`, to);
  stateOf(`${where} is labelled for the state`, Object.keys(action.byState ?? {}));
  const result = action.result;
  if (result) {
    const field = action.fields?.find((f) => f.name === result.field);
    if (!field || field.type !== "enum" || !field.required) throw new Error(`catalogue: ${where}'s result ${result.field} is no required enum field of the action`);
    for (const option of field.options ?? []) {
      const state = result.to[option.value];
      if (state === undefined || !to.includes(state)) throw new Error(`catalogue: ${where}'s result "${option.value}" leads to no state of those it leads to (${to.join(", ")})`);
    }
  }
  for (const [name, allowed] of Object.entries(action.onlyWhere ?? {})) {
    const field = entity.fields.find((f) => f.name === name);
    if (!field?.options) throw new Error(`catalogue: ${where} is only for records whose "${name}" is given, which is no field of ${entity.name} with options`);
    const unknown = allowed.find((value) => !field.options!.some((o) => o.value === value));
    if (unknown !== undefined) throw new Error(`catalogue: ${where} is only for records whose ${name} is "${unknown}", which is no option of it`);
  }
  if (action.waiting !== undefined && !action.from?.length) throw new Error(`catalogue: ${where} waits for a decision (${action.waiting}) but names no state it is taken from`);
  for (const other of [action.creates, ...(action.refreshes ?? [])]) {
    if (other !== undefined && !byName.has(other)) throw new Error(`catalogue: ${where} creates or refreshes the undeclared entity "${other}"`);
  }
  const link = action.answerLink;
  if (link) {
    const related = entity.related?.find((r) => r.entity === link.related);
    if (!related) throw new Error(`catalogue: ${where} links its answer to related ${link.related} records, which ${entity.name} does not list (related)`);
    const linked = byName.get(link.related)!;
    if (!statesOf(linked)?.has(link.state)) throw new Error(`catalogue: ${where} links its answer to ${link.related} records in the state "${link.state}", which is no state of ${link.related}`);
  }
  checkFields(where, action.fields ?? [], byName, undefined, entity);
  checkRecordNaming(entity, action, where, stateOf);
  checkRequires(entity, action, where, byName);
  if (action.tool !== undefined && !entity.listTools?.includes(action.tool)) {
    throw new Error(`catalogue: ${where} is called by the list tool ${action.tool}, which ${entity.name} does not offer (listTools)`);
  }
}

/** An action's record named by a unique field (`key`) instead of its id, and refused in words of its own by state. */
function checkRecordNaming(entity: EntityDecl, action: ActionDecl, where: string, stateOf: (what: string, values: readonly string[]) => void): void {
  if (action.key !== undefined) {
    const key = entity.fields.find((f) => f.name === action.key);
    // the engine finds one record by the value in the caller's tenant: unique across it, or within each tenant
    if (!key || !(key.unique === true || key.unique === "tenant") || !isColumn(key) || key.multiple) {
      throw new Error(`catalogue: ${where} is keyed by ${action.key}, which is no field of ${entity.name} declared unique (true or "tenant")`);
    }
    if (action.idField !== undefined) throw new Error(`catalogue: ${where} names its record both by ${action.idField} and by its key ${action.key}`);
  } else if (action.keyUnknown !== undefined) {
    throw new Error(`catalogue: ${where} says how a key found nowhere is refused, but is keyed by none`);
  }
  const refused = Object.keys(action.refuseIn ?? {});
  stateOf(`${where} is refused in words of its own in the state`, refused);
  const startState = refused.find((state) => action.from?.includes(state));
  if (startState !== undefined) throw new Error(`catalogue: ${where} is refused in words of its own in the state "${startState}", which it starts from`);
}

/** The state an action requires of a record it refers to: a reference to a stateful entity, or to a child of one (its parent's state). */
function checkRequires(entity: EntityDecl, action: ActionDecl, where: string, byName: ReadonlyMap<string, EntityDecl>): void {
  const requires = action.requires;
  if (!requires) return;
  const field = action.fields?.find((f) => f.name === requires.field) ?? entity.fields.find((f) => f.name === requires.field);
  const referred = field?.type === "ref" && !field.multiple ? byName.get(field.ref?.entity ?? "") : undefined;
  if (!referred) throw new Error(`catalogue: ${where} requires a state of the record ${requires.field} names, which is no reference field of the action or of ${entity.name}`);
  const stateful = referred.stateField ? referred : [...byName.values()].find((parent) => parent.stateField && parent.children?.some((c) => c.entity === referred.name));
  if (!stateful) throw new Error(`catalogue: ${where} requires a state of the ${referred.name} record ${requires.field} names, but ${referred.name} declares no stateField and is no child record of an entity that does`);
  if (requires.states.length === 0) throw new Error(`catalogue: ${where} requires the record ${requires.field} names in no state`);
  const states = statesOf(stateful)!;
  const unknown = requires.states.find((state) => !states.has(state));
  if (unknown !== undefined) throw new Error(`catalogue: ${where} requires the ${stateful.name} of ${requires.field} in the state "${unknown}", which is no state of ${stateful.name}`);
}

function checkChildren(parent: EntityDecl, decl: NonNullable<EntityDecl["children"]>[number], byName: ReadonlyMap<string, EntityDecl>): void {
  const where = `${parent.name}'s child records ${decl.name}`;
  const child = byName.get(decl.entity);
  if (!child) throw new Error(`catalogue: ${where} are of the undeclared entity "${decl.entity}"`);
  const field = (name: string) => child.fields.find((f) => f.name === name);
  if (child.scope !== parent.scope) throw new Error(`catalogue: ${where} are ${child.name} records, ${child.scope}-scoped: a child has the tenant scope of its parent (${parent.scope})`);
  const parentField = field(decl.parentField);
  if (!parentField || parentField.type !== "ref" || parentField.ref?.entity !== parent.name || !isColumn(parentField)) {
    throw new Error(`catalogue: ${where} name their parent by ${child.name}.${decl.parentField}, which is no reference field of ${child.name} to ${parent.name}`);
  }
  const sort = field(CHILD_SORT_FIELD);
  if (!sort || sort.type !== "int" || !isColumn(sort)) {
    throw new Error(`catalogue: ${child.name}, the child records ${decl.name} of ${parent.name}, has no int field "${CHILD_SORT_FIELD}" keeping its rows' order`);
  }
  if (Object.values(child.roles).some((roles) => roles?.length)) {
    throw new Error(`catalogue: ${child.name}, the child records ${decl.name} of ${parent.name}, has roles of its own: its rows are written with their parent only`);
  }
  if ((decl.min ?? 0) > (decl.max ?? Infinity)) throw new Error(`catalogue: ${where} are at least ${decl.min} and at most ${decl.max}`);
  const total = decl.total;
  if (total) {
    const summed = field(total.field);
    if (!summed || !NUMBER_TYPES.has(summed.type) || !isColumn(summed)) {
      throw new Error(`catalogue: ${where} are totalled by ${child.name}.${total.field}, which is no number or money column of ${child.name}`);
    }
    const into = parent.fields.find((f) => f.name === total.into);
    if (!into || !NUMBER_TYPES.has(into.type) || !isColumn(into)) {
      throw new Error(`catalogue: ${where} are totalled into ${parent.name}.${total.into}, which is no number or money column of ${parent.name}`);
    }
    if (into.type !== summed.type) throw new Error(`catalogue: ${where} are totalled from ${child.name}.${total.field} (${summed.type}) into ${parent.name}.${total.into} (${into.type}): a total keeps its kind`);
    for (const counted of Object.keys(total.when ?? {})) {
      if (!field(counted)) throw new Error(`catalogue: ${where} count into their total by ${child.name}.${counted}, which is no field of ${child.name}`);
    }
  }
  for (const start of decl.startFrom ?? []) {
    const source = byName.get(start.entity);
    if (!source) throw new Error(`catalogue: ${where} start from records of the undeclared entity "${start.entity}"`);
    for (const [to, from] of Object.entries(start.copy)) {
      if (!field(to)) throw new Error(`catalogue: ${where} copy ${start.entity} records into ${child.name}.${to}, which is no field of ${child.name}`);
      const unknown = from.find((name) => !source.fields.some((f) => f.name === name));
      if (unknown !== undefined) throw new Error(`catalogue: ${where} copy ${start.entity}.${unknown} into ${child.name}.${to}, which is no field of ${start.entity}`);
    }
  }
}

/**
 * A record's fields (an entity's, an action's, an operation's payload, a settings record's, a report's filters):
 * the entities they refer to, the fields their rules name beside them, an enum's options. `beside`: a stored
 * record's columns, which a reference narrowed by another must be among (the server compares the two); a form's
 * fields (a report's filters, an operation's payload) narrow a reference only when the other is among them. `acted`:
 * the entity whose record an action's fields are filled in from.
 */
function checkFields(holder: string, fields: readonly FieldDecl[], byName: ReadonlyMap<string, EntityDecl>, beside?: ReadonlySet<string>, acted?: EntityDecl): void {
  const named = (name: string) => fields.find((f) => f.name === name);
  for (const field of fields) {
    const where = `${holder}.${field.name}`;
    // a choice without options takes no value at all: every call naming it would be refused
    if ((field.type === "enum" || field.type === "yesno") && !field.options?.length) {
      throw new Error(`catalogue: ${where} is ${field.type === "enum" ? "an enum" : "a yes/no field"} without options`);
    }
    if (field.type === "ref") {
      const ref = field.ref;
      if (!ref?.entity) throw new Error(`catalogue: ${where} is a reference naming no entity`);
      const target = byName.get(ref.entity);
      if (!target) throw new Error(`catalogue: ${where} refers to the undeclared entity "${ref.entity}"`);
      if (ref.narrowBy !== undefined) {
        if (beside && !named(ref.narrowBy) && !beside.has(ref.narrowBy)) throw new Error(`catalogue: ${where} is narrowed by ${ref.narrowBy}, which is no field beside it`);
        if (!columnsOf(target).has(ref.narrowBy)) throw new Error(`catalogue: ${where} is narrowed by ${ref.narrowBy}, which is no column of ${ref.entity}`);
      }
      if (ref.countField !== undefined && !NUMBER_TYPES.has(named(ref.countField)?.type ?? "")) {
        throw new Error(`catalogue: ${where} counts the records it stands for in ${ref.countField}, which is no number field beside it`);
      }
      const unknown = Object.keys(ref.where ?? {}).find((name) => !target.fields.some((f) => f.name === name));
      if (unknown !== undefined) throw new Error(`catalogue: ${where} requires a value of ${ref.entity}.${unknown}, which is no field of ${ref.entity}`);
    }
    for (const [rule, condition] of [
      ["required", field.requiredWhen],
      ["in the form", field.formWhen],
    ] as const) {
      if (!condition) continue;
      const other = named(condition.field);
      if (!other) throw new Error(`catalogue: ${where} is ${rule} when ${condition.field} is "${condition.value}", but ${condition.field} is no field beside it`);
      if (other.options && !other.options.some((o) => o.value === condition.value)) {
        throw new Error(`catalogue: ${where} is ${rule} when ${condition.field} is "${condition.value}", which is no option of ${holder}.${condition.field}`);
      }
    }
    if (field.atLeast && !NUMBER_TYPES.has(named(field.atLeast.field)?.type ?? "")) {
      throw new Error(`catalogue: ${where} is at least ${field.atLeast.field}, which is no number or money field beside it`);
    }
    if (field.prefill) {
      for (const from of [field.prefill.field, field.prefill.less]) {
        if (from !== undefined && !acted?.fields.some((f) => f.name === from)) {
          throw new Error(`catalogue: ${where} is filled in from ${acted?.name ?? "the record"}.${from}, which is no field of ${acted?.name ?? "the record it acts on"}`);
        }
      }
    }
  }
}

function checkReport(report: ReportDecl, reports: readonly ReportDecl[], byName: ReadonlyMap<string, EntityDecl>): void {
  const where = `report ${report.name}`;
  const dimensions = report.dimensions ?? [report.dimension];
  checkFields(where, [...report.filters], byName);
  for (const dimension of [report.dimension, ...dimensions]) checkFields(where, [dimension], byName);
  for (const measure of report.measures) if (measure.value) checkFields(`${where}'s measure ${measure.name}`, [measure.value.field], byName);
  const filter = (name: string) => report.filters.find((f) => f.name === name);
  if (report.period !== undefined && filter(report.period)?.filter !== "range") throw new Error(`catalogue: ${where}'s period ${report.period} is no range filter of it`);
  const measures = new Set(report.measures.map((m) => m.name));
  for (const measure of report.measures) {
    if (measure.type === "rate" && !(measure.of && measure.of.every((m) => measures.has(m) && m !== measure.name))) {
      throw new Error(`catalogue: ${where}'s rate ${measure.name} is of ${measure.of?.join(" and ") ?? "nothing"}, which are not two other measures of it`);
    }
  }
  const unknownChart = (report.chartMeasures ?? []).find((m) => !measures.has(m));
  if (unknownChart !== undefined) throw new Error(`catalogue: ${where} charts ${unknownChart}, which is no measure of it`);
  for (const [from, to] of Object.entries(report.drill ?? {})) {
    if (!dimensions.some((d) => d.name === from)) throw new Error(`catalogue: ${where} drills down from ${from}, which is no dimension of it`);
    if ("dimension" in to) {
      if (!dimensions.some((d) => d.name === to.dimension)) throw new Error(`catalogue: ${where} drills down from ${from} to ${to.dimension}, which is no dimension of it`);
      if (!filter(from)) throw new Error(`catalogue: ${where} drills down from ${from}, which is no filter of it to narrow the next dimension by`);
    } else if (!reports.some((r) => r.name === to.report)) {
      throw new Error(`catalogue: ${where} drills down from ${from} to the undeclared report "${to.report}"`);
    }
  }
}

function checkPage(binding: string, page: PageRef, byName: ReadonlyMap<string, EntityDecl>, reports: readonly ReportDecl[], operations: readonly OperationDecl[]): void {
  if (page.kind === "lookup") checkLookupPage(binding, page, operations);
  if (page.kind === "report" && page.recordFilter !== undefined) {
    const report = reports.find((r) => r.name === page.report)!;
    if (!report.filters.some((f) => f.name === page.recordFilter)) {
      throw new Error(`catalogue: ${binding} to the report ${report.name} filtered by the record's id in ${page.recordFilter}, which is no filter of it`);
    }
  }
  if (page.kind === "lists") {
    const keys = new Set(page.parts.map((part) => part.key));
    if (page.parts.length < 2 || keys.size < page.parts.length) throw new Error(`catalogue: ${binding} to a page of several lists, which needs two or more parts of different keys`);
    if (page.first !== undefined && !keys.has(page.first)) throw new Error(`catalogue: ${binding} to a page of several lists opening first "${page.first}", which is no part of it`);
    for (const part of page.parts) {
      const entity = byName.get(part.entity)!;
      checkListFilters(`${binding} to a page whose part ${part.key} is`, entity, part.filters);
      const unlisted = part.columns?.find((name) => !entity.fields.some((f) => f.name === name && f.list));
      if (unlisted !== undefined) throw new Error(`catalogue: ${binding} to a page whose part ${part.key} shows first ${unlisted}, which is no listed field of ${entity.name}`);
      const unknown = part.without?.find((name) => !entity.fields.some((f) => f.name === name && (f.list || f.filter)));
      if (unknown !== undefined) throw new Error(`catalogue: ${binding} to a page whose part ${part.key} leaves out ${unknown}, which is no listed or filter field of ${entity.name}`);
    }
    return;
  }
  if (page.kind !== "list") return;
  const entity = byName.get(page.entity)!;
  checkListFilters(`${binding} to`, entity, page.filters);
  if (page.recordFilter !== undefined && !filterField(entity, page.recordFilter)) {
    throw new Error(`catalogue: ${binding} to a list of ${entity.name} filtered by the record's id in ${page.recordFilter}, which is no filter field of ${entity.name}`);
  }
}

/** A field a list may filter by: the list applies its filter fields only (server/engine/crud.ts listFilters), any other name would be ignored. */
function filterField(entity: EntityDecl, name: string): FieldDecl | undefined {
  return entity.fields.find((f) => f.name === name && f.filter !== undefined && isColumn(f));
}

/** The filters a list page or a part of one always sends: filter fields of its entity, each an option of an enum. */
function checkListFilters(where: string, entity: EntityDecl, filters: Readonly<Record<string, string>> | undefined): void {
  for (const [name, value] of Object.entries(filters ?? {})) {
    const field = filterField(entity, name);
    if (!field) throw new Error(`catalogue: ${where} a list of ${entity.name} filtered by ${name}, which is no filter field of ${entity.name}`);
    if (field.options && !field.options.some((o) => o.value === value)) {
      throw new Error(`catalogue: ${where} a list of ${entity.name} filtered by ${name} "${value}", which is no option of ${entity.name}.${name}`);
    }
  }
}

/**
 * A lookup page (scan or type) fills its operations' fields itself: the value into `field` of both, how it was
 * entered into the confirming one's `via`. So each operation is declared, has those fields (`via` an enum offering
 * both ways) and requires no other; and what the page shows and decides by names fields of its record.
 */
function checkLookupPage(binding: string, page: Extract<PageRef, { kind: "lookup" }>, operations: readonly OperationDecl[]): void {
  const where = `catalogue: ${binding} to a lookup page`;
  const operation = (name: string, as: string) => {
    const found = operations.find((o) => o.name === name);
    if (!found) throw new Error(`${where} ${as} the undeclared operation "${name}"`);
    return found;
  };
  const find = operation(page.find, "finding by");
  const confirm = operation(page.confirm.operation, "confirming by");
  const via = page.confirm.via;
  for (const [op, filled] of [
    [find, [page.field]],
    [confirm, [page.field, ...(via ? [via.field] : [])]],
  ] as const) {
    for (const name of filled) {
      if (!op.fields.some((f) => f.name === name)) throw new Error(`${where} fills ${name}, which is no field of the operation ${op.name}`);
    }
    const unfilled = op.fields.find((f) => f.required && !filled.includes(f.name));
    if (unfilled) throw new Error(`${where} calls ${op.name}, which requires ${unfilled.name}, a field the page does not fill`);
  }
  if (via) {
    const options = confirm.fields.find((f) => f.name === via.field)?.options?.map((o) => o.value) ?? [];
    const missing = [via.typed, via.scanned].find((value) => !options.includes(value));
    if (missing !== undefined) throw new Error(`${where} records how the value was entered in ${confirm.name}.${via.field} as "${missing}", which is no option of it`);
  }
  const record = page.record;
  const field = (name: string, as: string) => {
    const found = record.fields.find((f) => f.name === name);
    if (!found) throw new Error(`${where} ${as} ${name}, which is no field of its record`);
    return found;
  };
  field(record.titleField, "titles its record by");
  if (record.status !== undefined && !field(record.status, "shows the state of its record in").options?.length) {
    throw new Error(`${where} shows the state of its record in ${record.status}, which has no options`);
  }
  const offered = field(page.confirm.offeredWhen.field, "offers its confirmation by");
  const unknown = offered.options ? page.confirm.offeredWhen.values.find((v) => !offered.options!.some((o) => o.value === v)) : undefined;
  if (unknown !== undefined) throw new Error(`${where} offers its confirmation while ${offered.name} is "${unknown}", which is no option of it`);
  if (record.done) {
    field(record.done.when, "says its record is confirmed by");
    for (const name of Object.values(record.done.params)) field(name, "says who confirmed it with");
  }
  if (record.items && !record.items.fields.some((f) => f.name === record.items!.titleField)) {
    throw new Error(`${where} titles its record's ${record.items.name} by ${record.items.titleField}, which is no field of them`);
  }
}
