/** What the SPA mounts from the catalogue: refine resources and routes of the built pages. */
import { describe, expect, it } from "vitest";
import { isValidElement, type ReactElement } from "react";
import { entryPattern } from "../../providers/accessControl";
import { menus } from "../../resources.config";
import { builtPages, catalogueResources, catalogueRouteElements } from "../../src/engine";

describe("catalogue resources and routes", () => {
  it("gives each group's pages of an entity their own resource named after the entity", () => {
    const resources = catalogueResources();
    expect(new Set(resources.map((r) => r.identifier)).size).toBe(resources.length);
    const pages = builtPages();
    expect(pages.length).toBeGreaterThan(0);
    for (const page of pages) {
      const resource = resources.find((r) => r.identifier === page.resource);
      expect(resource, page.route).toBeDefined();
      expect(resource!.name).toBe(page.entity.name);
      expect(resource!.meta).toEqual({ label: page.entity.title, canDelete: false });
      const action = { list: "list", add: "create", edit: "edit", info: "show" } as const;
      expect(resource![action[page.kind]], page.route).toBe(page.route);
      expect(page.resource.startsWith(`${page.entity.name}@${page.group.path}`)).toBe(true);
    }
  });

  it("mounts a relative route for every entry with a page and for nothing else", () => {
    const fragment = catalogueRouteElements() as ReactElement<{ children: ReactElement<{ path: string }>[] }>;
    const paths = fragment.props.children.filter(isValidElement).map((route) => route.props.path);
    const expected = new Set(menus.flatMap((group) => group.children.filter((entry) => entry.page).map((entry) => entryPattern(group, entry).slice(1))));
    expect(paths.length).toBe(new Set(paths).size);
    expect(paths.sort()).toEqual([...expected].sort());
  });
});
