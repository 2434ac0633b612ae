/**
 * Access control (spec 6): a route is allowed if it has no role meta or the user holds one of its roles,
 * checked recursively (the menu group, then the entry). Role 'admin' reaches everything (common/roleKeys.ts).
 */
import type { AccessControlProvider, CanParams } from "@refinedev/core";
import { matchPath } from "react-router";
import type { MenuEntry, MenuGroup } from "../common/catalogue";
import { routePath } from "../common/menu";
import { hasAnyRole } from "../common/roleKeys";
import { menus } from "../resources.config";
import { rolesFromCookies, sessionUser } from "./session";

/** The route pattern of a menu entry, with its path parameters (e.g. /servicev2/serviceedit/:id). */
export function entryPattern(group: MenuGroup, entry: MenuEntry): string {
  return [routePath(group, entry), ...(entry.params ?? [])].join("/");
}

/**
 * Whether a path is reachable with these role keys; paths outside the catalogue carry no role meta. A v1 and
 * a v2 group may share a path (/help, /activity, /order, /datacount): any matching route that allows it counts.
 */
export function canReachPath(roles: readonly string[], path: string, catalogueMenus: readonly MenuGroup[] = menus): boolean {
  const pathname = path.split("?")[0].replace(/\/+$/, "") || "/";
  let matched = false;
  for (const group of catalogueMenus) {
    if (pathname === `/${group.path}`) {
      if (hasAnyRole(roles, group.roles)) return true;
      matched = true;
    }
    for (const entry of group.children) {
      if (pathname === routePath(group, entry) || matchPath(entryPattern(group, entry), pathname)) {
        if (hasAnyRole(roles, group.roles) && hasAnyRole(roles, entry.roles)) return true;
        matched = true;
      }
    }
  }
  return !matched;
}

type ResourceRoutes = { list?: unknown; create?: unknown; edit?: unknown; show?: unknown; clone?: unknown };

/** The route a refine action on a resource opens (resource routes are strings in refine v5). */
function actionRoute(resource: ResourceRoutes | undefined, action: string): string | undefined {
  if (!resource) return undefined;
  const byAction: Record<string, unknown> = {
    list: resource.list,
    create: resource.create,
    edit: resource.edit,
    show: resource.show,
    clone: resource.clone,
  };
  const route = byAction[action] ?? resource.list;
  return typeof route === "string" ? route : undefined;
}

export function currentRoles(): string[] {
  return sessionUser()?.roles ?? rolesFromCookies();
}

export function canAccess(roles: readonly string[], { resource, action, params }: CanParams): boolean {
  const item = params?.resource;
  const metaRoles = item?.meta?.roles as string[] | undefined;
  if (metaRoles && !hasAnyRole(roles, metaRoles)) return false;
  const route = actionRoute(item, action) ?? (resource?.startsWith("/") ? resource : undefined);
  if (route && !canReachPath(roles, route)) return false;
  // a parent resource is shown when it or one of its children is reachable (recursive filtering)
  const children = item?.children;
  if (children && children.length > 0 && !route) {
    return children.some((child) => canAccess(roles, { resource: child.name, action: "list", params: { resource: child } }));
  }
  return true;
}

export const accessControlProvider: AccessControlProvider = {
  can: async (params) => ({ can: canAccess(currentRoles(), params) }),
  options: { buttons: { enableAccessControl: true, hideIfUnauthorized: true } },
};
