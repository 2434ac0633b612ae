/**
 * Route filtering and sidebar rules (spec 2.4, 6): shared by the SPA and the menu tests.
 */
import type { ListPart, MenuEntry, MenuGroup, PageRef } from "./catalogue";
import { hasAnyRole } from "./roleKeys";

export interface ReachableEntry {
  group: MenuGroup;
  entry: MenuEntry;
  /** /{group}/{name} */
  path: string;
}

export function routePath(group: MenuGroup, entry: MenuEntry): string {
  return `/${group.path}/${entry.name}`;
}

/** A route is reachable if the user holds a role of its group and of the entry (recursively). */
export function reachableEntries(menus: readonly MenuGroup[], roles: readonly string[]): ReachableEntry[] {
  const out: ReachableEntry[] = [];
  for (const group of menus) {
    if (!hasAnyRole(roles, group.roles)) continue;
    for (const entry of group.children) {
      if (hasAnyRole(roles, entry.roles)) out.push({ group, entry, path: routePath(group, entry) });
    }
  }
  return out;
}

/** The part a page of several lists opens when its address names none. */
export function firstPart(page: Extract<PageRef, { kind: "lists" }>): ListPart {
  return page.parts.find((part) => part.key === page.first) ?? page.parts[0]!;
}

/** Whether the entry has something to open: a built page or an external link. */
export function isBuilt(entry: MenuEntry): boolean {
  return Boolean(entry.page || entry.external);
}

export interface SidebarItem {
  key: string;
  title: string;
  icon?: string;
  /** route path, or the external URL when `external` */
  path?: string;
  external?: boolean;
  children?: SidebarItem[];
}

/**
 * The sidebar: reachable and built entries, hidden ones omitted; a group with one visible child collapses to
 * that child unless it is alwaysShow; a group with none disappears.
 */
export function sidebarItems(menus: readonly MenuGroup[], roles: readonly string[]): SidebarItem[] {
  const items: SidebarItem[] = [];
  for (const group of menus) {
    if (!hasAnyRole(roles, group.roles)) continue;
    const children: SidebarItem[] = group.children
      .filter((e) => !e.hidden && isBuilt(e) && hasAnyRole(roles, e.roles))
      .map((e) => ({
        key: routePath(group, e),
        title: e.title,
        icon: e.icon,
        path: e.external ?? routePath(group, e),
        external: Boolean(e.external),
      }));
    if (children.length === 0) continue;
    if (children.length === 1 && !group.alwaysShow) {
      items.push({ ...children[0], icon: children[0].icon ?? group.icon });
      continue;
    }
    items.push({ key: `/${group.path}`, title: group.title, icon: group.icon, children });
  }
  return items;
}

/** The menu key to highlight for a path: a hidden route highlights its activeMenu parent. */
export function activeMenuKey(menus: readonly MenuGroup[], pathname: string): string | undefined {
  for (const group of menus) {
    for (const entry of group.children) {
      const base = routePath(group, entry);
      if (pathname === base || pathname.startsWith(`${base}/`)) {
        return entry.activeMenu ? `/${group.path}/${entry.activeMenu}` : base;
      }
    }
  }
  return undefined;
}
