/**
 * The generic pages the catalogue asks for: every menu entry with a list/add/edit/info page (and each list of a
 * page of several), grouped into one refine resource per entity and menu group (the same entity appears once per
 * generation, e.g. /service and /servicev2 both open the provider pages).
 */
import type { EntityDecl, ListPart, MenuEntry, MenuGroup } from "../../common/catalogue";
import { entityByName, menus as catalogueMenus } from "../../resources.config";

export type GenericPageKind = "list" | "add" | "edit" | "info";

export interface BuiltPage {
  kind: GenericPageKind;
  entity: EntityDecl;
  group: MenuGroup;
  entry: MenuEntry;
  /** absolute route pattern, e.g. /servicev2/serviceedit/:id */
  route: string;
  /** refine resource identifier of the entity in this group */
  resource: string;
  /** a list that is one part of a page of several (its route is the page's, which shows one part at a time) */
  part?: ListPart;
}

export interface EntityResource {
  /** refine identifier (unique), e.g. service@servicev2, or school@schoolv2:all for a second list view */
  identifier: string;
  entity: EntityDecl;
  group: MenuGroup;
  pages: Partial<Record<GenericPageKind, BuiltPage>>;
}

export function resourceIdentifier(entity: string, group: MenuGroup, view?: string): string {
  return view ? `${entity}@${group.path}:${view}` : `${entity}@${group.path}`;
}

/** The route pattern of an entry, e.g. /servicev2/serviceedit/:id */
export function builtRoute(group: MenuGroup, entry: MenuEntry): string {
  return [`/${group.path}/${entry.name}`, ...(entry.params ?? [])].join("/");
}

export function builtPages(menus: readonly MenuGroup[] = catalogueMenus): BuiltPage[] {
  const pages: BuiltPage[] = [];
  for (const group of menus) {
    for (const entry of group.children) {
      const page = entry.page;
      if (page?.kind === "lists") {
        for (const part of page.parts) {
          const entity = entityByName(part.entity);
          if (!entity) throw new Error(`menu entry /${group.path}/${entry.name} names an unknown entity ${part.entity}`);
          pages.push({ kind: "list", entity, group, entry, route: builtRoute(group, entry), resource: resourceIdentifier(entity.name, group), part });
        }
        continue;
      }
      if (!page || !("entity" in page)) continue;
      const entity = entityByName(page.entity);
      if (!entity) throw new Error(`menu entry /${group.path}/${entry.name} names an unknown entity ${page.entity}`);
      pages.push({ kind: page.kind, entity, group, entry, route: builtRoute(group, entry), resource: resourceIdentifier(entity.name, group, page.view) });
    }
  }
  return pages;
}

export function entityResources(menus: readonly MenuGroup[] = catalogueMenus): EntityResource[] {
  const byId = new Map<string, EntityResource>();
  for (const page of builtPages(menus)) {
    let resource = byId.get(page.resource);
    if (!resource) {
      resource = { identifier: page.resource, entity: page.entity, group: page.group, pages: {} };
      byId.set(page.resource, resource);
    }
    const existing = resource.pages[page.kind];
    // a v1 and a v2 group may share a path and route names (/help, /activity): one route serves both
    if (existing && existing.route === page.route) continue;
    if (existing) throw new Error(`${page.resource} has two ${page.kind} pages: ${existing.route} and ${page.route}`);
    resource.pages[page.kind] = page;
  }
  return [...byId.values()];
}
