/**
 * The catalogue's pages for the SPA: refine resources and react-router routes for every built list / add /
 * edit / detail page of every entity (resources.config.ts), and routes for its custom pages (src/pages/custom).
 * Each page is its own lazy chunk, so the table and form code stays off the login page. The routes are
 * relative: mount them inside the authenticated layout route.
 */
import { lazy, Suspense, type ReactElement, type ReactNode } from "react";
import { Route } from "react-router";
import type { ResourceProps } from "@refinedev/core";
import { Spin } from "antd";
import type { MenuGroup } from "../../common/catalogue";
import { entryPattern } from "../../providers/accessControl";
import { menus as catalogueMenus } from "../../resources.config";
import { customPages } from "../pages/custom";
import { entityResources, type BuiltPage } from "./builtPages";

const CrudList = lazy(() => import("./CrudList"));
const CrudForm = lazy(() => import("./CrudForm"));
const CrudShow = lazy(() => import("./CrudShow"));

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

/** The custom pages the catalogue's menus open, with their route patterns; ids without a page are left out. */
export function customPageRoutes(menus: readonly MenuGroup[] = catalogueMenus): { route: string; element: ReactNode }[] {
  const routes = new Map<string, ReactNode>();
  for (const group of menus) {
    for (const entry of group.children) {
      const Page = entry.page?.kind === "custom" ? customPages[entry.page.id] : undefined;
      const route = entryPattern(group, entry);
      // a v1 and a v2 group may share a path and route names: one route serves both
      if (Page && !routes.has(route)) routes.set(route, <Page group={group} entry={entry} />);
    }
  }
  return [...routes].map(([route, element]) => ({ route, element }));
}

/** <Route> elements (paths relative to the layout route) for every built generic page and custom page. */
export function catalogueRouteElements(): ReactElement {
  const pages = [
    ...entityResources()
      .flatMap((r) => Object.values(r.pages))
      .map((page) => ({ route: page.route, element: pageElement(page) })),
    ...customPageRoutes(),
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
