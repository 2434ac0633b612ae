/**
 * Binds the menu trees to the domains' pages: every menu entry gets the page its route name is bound to, in
 * both generations, or the page bound to its group and route ("shop/orderlist") where one route name means two
 * pages. A binding no menu uses, a route bound twice, an entity or operation declared twice or a page
 * (or an operation's refresh) naming an undeclared entity, or an entity pickup clerks may use without a pickup-point
 * column, is a mistake in the catalogue: it throws when the catalogue loads, before anything serves it.
 */
import type { Catalogue, CatalogueDomain, MenuGroup, MenuTree, OperationDecl, PageRef, ReportDecl, SettingsDecl } from "../common/catalogue";
import { PICKUP_ROLES } from "../common/roleKeys";

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
      if (!field || field.type !== "ref" || field.ref?.entity !== entity.name) {
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
      ("entity" in page && !entityDomain.has(page.entity) && `entity "${page.entity}"`);
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
