/**
 * The catalogue's pages for the SPA: refine resources and react-router routes for every built list / add /
 * edit / detail page of every entity (resources.config.ts), and routes for its settings pages, its report
 * pages, its lookup pages (scan or type), its pages of several lists and its custom pages (src/domains).
 * Each page is its own lazy chunk, so the table and form code stays off the login page. The routes are
 * relative: mount them inside the authenticated layout route.
 */
import { lazy, Suspense, type ReactElement, type ReactNode } from "react";
import { Route } from "react-router";
import type { ResourceProps } from "@refinedev/core";
import { Spin } from "antd";
import type { MenuEntry, MenuGroup } from "../../common/catalogue";
import { entryPattern } from "../../providers/accessControl";
import { menus as catalogueMenus, reportByName, settingsByName } from "../../resources.config";
import { customPages } from "../domains";
import { entityResources, type BuiltPage } from "./builtPages";

const CrudList = lazy(() => import("./CrudList"));
const CrudForm = lazy(() => import("./CrudForm"));
const CrudShow = lazy(() => import("./CrudShow"));
const SettingsPage = lazy(() => import("./SettingsPage"));
// the report pages and their chart (echarts): loaded only when a report is opened
const ReportPage = lazy(() => import("./ReportPage"));
// scan or type: the camera's decoder is loaded by the scanner only when a scan starts
const LookupPage = lazy(() => import("./LookupPage"));
const ListsPage = lazy(() => import("./ListsPage"));

export { entityResources, builtPages, resourceIdentifier } from "./builtPages";

/**
 * One refine resource per entity and menu group, named after the entity (the data provider's resource name)
 * and told apart by `identifier`. `meta.label` is a translation key: resolve it with the i18n provider.
 */
export function catalogueResources(): ResourceProps[] {
  return entityResources().map(({ identifier, entity, pages }) => ({
    name: entity.name,
    identifier,
    list: pages.list?.route,
    create: pages.add?.route,
    edit: pages.edit?.route,
    show: pages.info?.route,
    meta: { label: entity.title, canDelete: false },
  }));
}

function pageElement(page: BuiltPage): ReactNode {
  switch (page.kind) {
    case "list":
      return <CrudList resource={page.resource} />;
    case "add":
      return <CrudForm resource={page.resource} action="add" />;
    case "edit":
      return <CrudForm resource={page.resource} action="edit" />;
    case "info":
      return <CrudShow resource={page.resource} />;
  }
}

/** The element of a menu entry's page beyond the entity pages (a settings, report, lookup, custom page or one of several lists), if built. */
function declaredPageElement(group: MenuGroup, entry: MenuEntry): ReactNode | undefined {
  const page = entry.page;
  switch (page?.kind) {
    case "settings": {
      const settings = settingsByName(page.settings);
      return settings && <SettingsPage settings={settings} group={group} entry={entry} />;
    }
    case "report": {
      const report = reportByName(page.report);
      return report && <ReportPage report={report} group={group} entry={entry} />;
    }
    case "custom": {
      const Page = customPages[page.id];
      return Page && <Page group={group} entry={entry} />;
    }
    case "lookup":
      return <LookupPage page={page} group={group} entry={entry} />;
    case "lists":
      return <ListsPage page={page} group={group} />;
    default:
      return undefined;
  }
}

/** The settings, report, lookup and custom pages the catalogue's menus open, with their route patterns. */
export function declaredPageRoutes(menus: readonly MenuGroup[] = catalogueMenus): { route: string; element: ReactNode }[] {
  const routes = new Map<string, ReactNode>();
  for (const group of menus) {
    for (const entry of group.children) {
      const route = entryPattern(group, entry);
      // a v1 and a v2 group may share a path and route names: one route serves both
      if (routes.has(route)) continue;
      const element = declaredPageElement(group, entry);
      if (element) routes.set(route, element);
    }
  }
  return [...routes].map(([route, element]) => ({ route, element }));
}

/** <Route> elements (paths relative to the layout route) for every built entity, settings, report, lookup and custom page. */
export function catalogueRouteElements(): ReactElement {
  const pages = [
    ...entityResources()
      .flatMap((r) => Object.values(r.pages))
      // a part of a page of several lists is shown by that page, on its route
      .filter((page) => !page.part)
      .map((page) => ({ route: page.route, element: pageElement(page) })),
    ...declaredPageRoutes(),
  ];
  return (
    <>
      {pages.map((page) => (
        <Route
          key={page.route}
          path={page.route.slice(1)}
          element={<Suspense fallback={<Spin style={{ display: "block", margin: "48px auto" }} />}>{page.element}</Suspense>}
        />
      ))}
    </>
  );
}
