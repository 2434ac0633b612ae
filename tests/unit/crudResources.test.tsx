/** What the SPA mounts from the catalogue: refine resources and routes of the built generic pages. */
import { describe, expect, it } from "vitest";
import { isValidElement, type ReactElement } from "react";
import { catalogueResources, catalogueRouteElements } from "../../src/crud";

describe("catalogue resources and routes", () => {
  it("gives each generation of the provider and package pages its own resource named after the entity", () => {
    expect(catalogueResources()).toEqual([
      {
        name: "service",
        identifier: "service@service",
        list: "/service/servicelist",
        create: "/service/serviceadd",
        edit: "/service/serviceedit/:id",
        show: undefined,
        meta: { label: "entity.service", canDelete: false },
      },
      {
        name: "meal",
        identifier: "meal@meal",
        list: "/meal/meallist",
        create: "/meal/mealadd",
        edit: "/meal/mealedit/:id",
        show: undefined,
        meta: { label: "entity.meal", canDelete: false },
      },
      {
        name: "service",
        identifier: "service@servicev2",
        list: "/servicev2/servicelist",
        create: "/servicev2/serviceadd",
        edit: "/servicev2/serviceedit/:id",
        show: undefined,
        meta: { label: "entity.service", canDelete: false },
      },
      {
        name: "meal",
        identifier: "meal@schoolv2",
        list: "/schoolv2/meallist",
        create: "/schoolv2/mealadd",
        edit: "/schoolv2/mealedit/:id",
        show: undefined,
        meta: { label: "entity.meal", canDelete: false },
      },
    ]);
  });

  it("mounts a relative route for every built page and for nothing else", () => {
    const fragment = catalogueRouteElements() as ReactElement<{ children: ReactElement<{ path: string }>[] }>;
    const paths = fragment.props.children.filter(isValidElement).map((route) => route.props.path);
    expect(paths.sort()).toEqual(
      [
        "service/servicelist",
        "service/serviceadd",
        "service/serviceedit/:id",
        "servicev2/servicelist",
        "servicev2/serviceadd",
        "servicev2/serviceedit/:id",
        "meal/meallist",
        "meal/mealadd",
        "meal/mealedit/:id",
        "schoolv2/meallist",
        "schoolv2/mealadd",
        "schoolv2/mealedit/:id",
      ].sort(),
    );
  });
});
