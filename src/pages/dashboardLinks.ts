/**
 * Where the dashboard leads: a figure to the first of its links the user's menu reaches (an entity's list opened
 * with the figure's filters, a report, a route by name), a record to its record page.
 */
import type { MenuGroup } from "../../common/catalogue";
import type { DashboardLink, LinkFilter } from "../../common/dashboard";
import { isBuilt, reachableEntries } from "../../common/menu";
import { entryPattern } from "../../providers/accessControl";
import { entityByName, menus as catalogueMenus } from "../../resources.config";

/**
 * A list's query opening it with these filters, as the list keeps its filters in the URL (refine's
 * syncWithLocation); filters the entity does not offer are left out.
 */
export function listQuery(entityName: string, filters: Record<string, LinkFilter> | undefined): string {
  const entity = entityByName(entityName);
  const params = new URLSearchParams();
  let i = 0;
  for (const [name, value] of Object.entries(filters ?? {})) {
    const field = entity?.fields.find((f) => f.name === name && f.filter);
    if (!field) continue;
    params.append(`filters[${i}][field]`, name);
    if (Array.isArray(value)) {
      params.append(`filters[${i}][operator]`, "between");
      value.forEach((v, j) => params.append(`filters[${i}][value][${j}]`, v));
    } else {
      params.append(`filters[${i}][operator]`, "eq");
      params.append(`filters[${i}][value]`, value);
    }
    i++;
  }
  return i > 0 ? `?${params.toString()}` : "";
}

/**
 * The route of the first link the role keys reach in the menus: an entity's plain list (no fixed filters, no
 * record) with the figure's filters, a report page or a route by name; undefined when the menu has none of them.
 */
export function figureRoute(links: readonly DashboardLink[], roles: readonly string[], menus: readonly MenuGroup[] = catalogueMenus): string | undefined {
  const reachable = reachableEntries(menus, roles).filter(({ entry }) => isBuilt(entry) && !entry.external && !entry.params?.length);
  for (const link of links) {
    const found = reachable.find(({ entry }) => {
      const page = entry.page;
      if ("route" in link) return entry.name === link.route;
      if ("report" in link) return page?.kind === "report" && page.report === link.report;
      return page?.kind === "list" && page.entity === link.entity && !page.filters && !page.recordFilter;
    });
    if (found) return `${entryPattern(found.group, found.entry)}${"entity" in link ? listQuery(link.entity, link.filters) : ""}`;
  }
  return undefined;
}

/**
 * The record page of one record when the role keys reach one, else undefined: the entity's info page, or a custom
 * page of a record that reads it (an activity's board calls activityinfo).
 */
export function recordRoute(entity: string, id: number, roles: readonly string[], menus: readonly MenuGroup[] = catalogueMenus): string | undefined {
  const found = reachableEntries(menus, roles).find(({ entry }) => {
    const page = entry.page;
    if (!isBuilt(entry) || !entry.params?.includes(":id")) return false;
    return (page?.kind === "info" && page.entity === entity) || (page?.kind === "custom" && page.calls.includes(`${entity}info`));
  });
  return found ? entryPattern(found.group, found.entry).replace(":id", String(id)) : undefined;
}
