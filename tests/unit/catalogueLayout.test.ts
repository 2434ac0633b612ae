/**
 * The catalogue's layout (DESIGN 2.1, 6): each page reference is bound once, by one domain module, to a route name
 * that the menu trees use, and every menu entry of that name, in either generation, opens it. Catalogue code stays
 * free of React, antd and database code.
 */
import { describe, expect, it } from "vitest";
import { assembleCatalogue } from "../../catalogue/assemble";
import type { CatalogueDomain, EntityDecl, MenuTree, PageRef } from "../../common/catalogue";
import { catalogue } from "../../resources.config";

// the domain modules are found by what they export, so a module added to catalogue/ is checked the day it exists
const modules = import.meta.glob<Record<string, unknown>>("../../catalogue/*.ts", { eager: true });

function isDomain(value: unknown): value is CatalogueDomain {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Partial<CatalogueDomain>;
  return Array.isArray(v.entities) && typeof v.pages === "object" && v.pages !== null;
}

const domains = Object.entries(modules).flatMap(([file, exported]) =>
  Object.values(exported)
    .filter(isDomain)
    .map((domain) => ({ file, domain })),
);

const allEntries = catalogue.menus.flatMap((group) => group.children.map((entry) => ({ group, entry })));

describe("catalogue layout", () => {
  it("assembles every domain module found in catalogue/, each entity from exactly one", () => {
    expect(domains.length).toBeGreaterThanOrEqual(3);
    const declared = domains.flatMap(({ domain }) => domain.entities);
    expect(new Set(declared)).toEqual(new Set(catalogue.entities));
    expect(declared).toHaveLength(catalogue.entities.length);
  });

  it("binds no route name in two domains", () => {
    const boundBy = new Map<string, string[]>();
    for (const { file, domain } of domains) {
      for (const route of Object.keys(domain.pages)) boundBy.set(route, [...(boundBy.get(route) ?? []), file]);
    }
    const twice = [...boundBy].filter(([, files]) => files.length > 1);
    expect(twice).toEqual([]);
  });

  it("gives every menu entry the page its route name (or its group and route) is bound to, in both generations", () => {
    const bindings = new Map(domains.flatMap(({ domain }) => Object.entries(domain.pages)));
    const mismatched = allEntries
      .filter(({ group, entry }) => entry.page !== (bindings.get(`${group.path}/${entry.name}`) ?? bindings.get(entry.name)))
      .map(({ group, entry }) => `/${group.path}/${entry.name}`);
    expect(mismatched).toEqual([]);
  });

  it("uses every binding in at least one menu entry", () => {
    const bound = new Set(domains.flatMap(({ domain }) => Object.keys(domain.pages)));
    const opened = new Set(
      allEntries.filter(({ entry }) => entry.page).map(({ group, entry }) => (bound.has(`${group.path}/${entry.name}`) ? `${group.path}/${entry.name}` : entry.name)),
    );
    const unused = [...bound].filter((route) => !opened.has(route));
    expect(unused).toEqual([]);
  });

  it("binds pages only to declared entities", () => {
    const names = new Set(catalogue.entities.map((e) => e.name));
    const pages = domains.flatMap(({ domain }) => Object.values(domain.pages));
    const dangling = pages.filter((p) => "entity" in p && !names.has(p.entity));
    expect(dangling).toEqual([]);
  });

  it("imports nothing but the catalogue's own modules and common/", () => {
    const sources = import.meta.glob<string>(["../../catalogue/*.ts", "../../resources.config.ts"], {
      query: "?raw",
      import: "default",
      eager: true,
    });
    const outside: string[] = [];
    for (const [file, source] of Object.entries(sources)) {
      const allowed = file.startsWith("../../catalogue/") ? /^(\.\/|\.\.\/common\/)/ : /^\.\/(catalogue|common)\//;
      for (const [, spec] of source.matchAll(/\b(?:from|import)\s*["']([^"']+)["']/g)) {
        if (!allowed.test(spec)) outside.push(`${file}: ${spec}`);
      }
    }
    expect(Object.keys(sources)).toContain("../../resources.config.ts");
    expect(Object.keys(sources).length).toBeGreaterThan(domains.length);
    expect(outside).toEqual([]);
  });
});

describe("assembleCatalogue", () => {
  const entity = (name: string): EntityDecl => ({
    name,
    table: name,
    scope: "platform",
    title: `entity.${name}`,
    titleField: "title",
    fields: [{ name: "title", type: "string", label: "field.title" }],
    roles: {},
  });
  const tree = (generation: "v1" | "v2", ...routes: string[]): MenuTree => ({
    generation,
    groups: [{ path: `g${generation}`, title: "menu.group.g", children: routes.map((name) => ({ name, title: `menu.${name}` })) }],
  });
  const list: PageRef = { kind: "list", entity: "thing" };

  it("binds one page to its route in both generations and leaves unbound routes without a page", () => {
    const assembled = assembleCatalogue({ things: { entities: [entity("thing")], pages: { thinglist: list } } }, [
      tree("v1", "thinglist", "other"),
      tree("v2", "thinglist"),
    ]);
    expect(assembled.entities.map((e) => e.name)).toEqual(["thing"]);
    expect(assembled.menus.map((g) => g.generation)).toEqual(["v1", "v2"]);
    expect(assembled.menus[0].children).toEqual([
      { name: "thinglist", title: "menu.thinglist", page: list },
      { name: "other", title: "menu.other" },
    ]);
    expect(assembled.menus[1].children[0].page).toBe(list);
  });

  it("binds a route name that means two pages per group, the group's binding before the plain one", () => {
    const other: PageRef = { kind: "custom", id: "otherlist", calls: [] };
    const assembled = assembleCatalogue({ things: { entities: [entity("thing")], pages: { thinglist: list, "gv2/thinglist": other } } }, [
      tree("v1", "thinglist"),
      tree("v2", "thinglist"),
    ]);
    expect(assembled.menus.map((g) => g.children[0].page)).toEqual([list, other]);
    expect(() =>
      assembleCatalogue({ things: { entities: [entity("thing")], pages: { "gv3/thinglist": list } } }, [tree("v1", "thinglist")]),
    ).toThrow(/things binds route "gv3\/thinglist", which no menu names/);
  });

  it("throws when a domain binds a route no menu names", () => {
    expect(() =>
      assembleCatalogue({ things: { entities: [entity("thing")], pages: { thinglist: list, thinglsit: list } } }, [
        tree("v1", "thinglist"),
      ]),
    ).toThrow(/things binds route "thinglsit", which no menu names/);
  });

  it("throws when two domains bind the same route", () => {
    expect(() =>
      assembleCatalogue(
        {
          things: { entities: [entity("thing")], pages: { thinglist: list } },
          others: { entities: [], pages: { thinglist: { kind: "custom", id: "thinglist", calls: [] } } },
        },
        [tree("v2", "thinglist")],
      ),
    ).toThrow(/route "thinglist" is bound by both things and others/);
  });

  it("throws when two domains declare the same entity", () => {
    expect(() =>
      assembleCatalogue({ things: { entities: [entity("thing")], pages: {} }, others: { entities: [entity("thing")], pages: {} } }, []),
    ).toThrow(/entity "thing" is declared by both things and others/);
  });

  it("throws when a page names an entity no domain declares", () => {
    expect(() => assembleCatalogue({ things: { entities: [], pages: { thinglist: list } } }, [tree("v1", "thinglist")])).toThrow(
      /undeclared entity "thing"/,
    );
  });
});
