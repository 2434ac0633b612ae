/** What the SPA mounts from the catalogue: refine resources and routes of the built generic pages. */
import { describe, expect, it } from "vitest";
import { isValidElement, type ReactElement } from "react";
import { catalogueResources, catalogueRouteElements } from "../../src/crud";

describe("catalogue resources and routes", () => {
  it("gives each group's pages of an entity their own resource named after the entity", () => {
    const resource = (name: string, group: string, pages: { list: string; create?: string; edit?: string; show?: string }) => ({
      name,
      identifier: `${name}@${group}`,
      create: undefined,
      edit: undefined,
      show: undefined,
      ...pages,
      meta: { label: `entity.${name}`, canDelete: false },
    });
    expect(catalogueResources()).toEqual([
      resource("service", "service", { list: "/service/servicelist", create: "/service/serviceadd", edit: "/service/serviceedit/:id" }),
      resource("schoolrenew", "school", { list: "/school/schoolrenewlist", show: "/school/schoolrenewinfo/:id" }),
      resource("meal", "meal", { list: "/meal/meallist", create: "/meal/mealadd", edit: "/meal/mealedit/:id" }),
      resource("actcode", "actcode", { list: "/actcode/actcodelist" }),
      resource("service", "servicev2", { list: "/servicev2/servicelist", create: "/servicev2/serviceadd", edit: "/servicev2/serviceedit/:id" }),
      resource("actcode", "servicev2", { list: "/servicev2/serviceactcode/:id" }),
      resource("servicedelay", "servicev2", { list: "/servicev2/servicedelaylist" }),
      resource("schoolrenew", "schoolv2", { list: "/schoolv2/schoolrenewlist", show: "/schoolv2/schoolrenewinfo/:id" }),
      resource("meal", "schoolv2", { list: "/schoolv2/meallist", create: "/schoolv2/mealadd", edit: "/schoolv2/mealedit/:id" }),
      resource("actcode", "schoolv2", { list: "/schoolv2/actcodelist" }),
    ]);
  });

  it("mounts a relative route for every built and custom page and for nothing else", () => {
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
        "school/schoolrenewlist",
        "school/schoolrenewinfo/:id",
        "schoolv2/schoolrenewlist",
        "schoolv2/schoolrenewinfo/:id",
        "actcode/actcodelist",
        "schoolv2/actcodelist",
        "servicev2/serviceactcode/:id",
        "servicev2/servicedelaylist",
        // custom pages
        "school/recharge",
        "schoolv2/recharge",
        "actcode/actcodeadd",
        "schoolv2/actcodeadd",
        "servicev2/servicedelayv2/:id",
      ].sort(),
    );
  });
});
