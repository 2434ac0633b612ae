/**
 * The console's routes with their titles (translation keys), for tabs, breadcrumb, search and the palette:
 * the shell's own pages plus every built page of the catalogue.
 */
import { matchPath } from "react-router";
import type { MenuEntry, MenuGroup } from "../../common/catalogue";
import { isBuilt, reachableEntries } from "../../common/menu";
import { entryPattern } from "../../providers/accessControl";
import { menus } from "../../resources.config";
import { NOTICE_READERS } from "../../catalogue/notices";

export const HOME_PATH = "/Dashboard/Dashboard";
export const DOWNLOAD_PATH = "/download/downloadlist";
/** the notices sent: the sandbox notifier's outbox */
export const NOTICES_PATH = "/notice/noticelist";
/** the help centre's questions, as every signed-in user reads them */
export const HELP_PATH = "/helpcenter";

export interface RouteInfo {
  /** react-router pattern, e.g. /servicev2/serviceedit/:id */
  pattern: string;
  /** translation key */
  title: string;
  /** the tab cannot be closed */
  affix?: boolean;
  /** error pages get no tab */
  noTab?: boolean;
  /** menu group of a catalogue route (breadcrumb) */
  group?: MenuGroup;
  entry?: MenuEntry;
}

export const SHELL_ROUTES: RouteInfo[] = [
  { pattern: HOME_PATH, title: "shell.dashboard", affix: true },
  { pattern: DOWNLOAD_PATH, title: "shell.download" },
  { pattern: NOTICES_PATH, title: "notices.outbox.title" },
  { pattern: HELP_PATH, title: "help.centre.title" },
  { pattern: "/404", title: "pages.not_found_title", noTab: true },
  { pattern: "/401", title: "pages.forbidden_title", noTab: true },
];

export function catalogueRoutes(catalogueMenus: readonly MenuGroup[] = menus): RouteInfo[] {
  return catalogueMenus.flatMap((group) =>
    group.children
      .filter((entry) => entry.page)
      .map((entry) => ({ pattern: entryPattern(group, entry), title: entry.title, group, entry })),
  );
}

// built once: findRoute answers the same object for a page, so effects keyed on the route run only on navigation
const ALL_ROUTES: readonly RouteInfo[] = [...SHELL_ROUTES, ...catalogueRoutes()];

export function findRoute(pathname: string): RouteInfo | undefined {
  return ALL_ROUTES.find((r) => matchPath(r.pattern, pathname));
}

export interface SearchableRoute {
  path: string;
  /** translation key */
  title: string;
  /** translation key of the menu group, if any */
  groupTitle?: string;
}

/** hidden pages the search and the avatar's menu offer (not in the spec's menus): the audit log */
const OFFERED_HIDDEN = new Set(["auditlog"]);

/** The audit log's address for these role keys (their generation's), or none where they may not read it. */
export function auditLogPath(roles: readonly string[]): string | undefined {
  return reachableEntries(menus, roles).find(({ entry }) => entry.name === "auditlog" && isBuilt(entry))?.path;
}

/** Routes a user may open from search and the palette: visible, built, reachable pages. */
export function searchableRoutes(roles: readonly string[], hasProvider: boolean): SearchableRoute[] {
  const own: SearchableRoute[] = [
    { path: HOME_PATH, title: "shell.dashboard" },
    { path: HELP_PATH, title: "help.centre.title" },
  ];
  if (hasProvider) own.push({ path: DOWNLOAD_PATH, title: "shell.download" });
  if (hasProvider && roles.some((role) => NOTICE_READERS.includes(role))) own.push({ path: NOTICES_PATH, title: "notices.outbox.title" });
  const catalogue = reachableEntries(menus, roles)
    .filter(({ entry }) => (!entry.hidden || OFFERED_HIDDEN.has(entry.name)) && !entry.external && isBuilt(entry))
    .map(({ group, entry, path }) => ({ path, title: entry.title, groupTitle: group.title }));
  return [...own, ...catalogue];
}
