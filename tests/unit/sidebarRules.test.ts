import { describe, expect, it } from "vitest";
import type { MenuGroup } from "../../common/catalogue";
import { activeMenuKey, reachableEntries, sidebarItems } from "../../common/menu";
import { canReachPath } from "../../providers/accessControl";

const list = { kind: "list", entity: "thing" } as const;
const menus: MenuGroup[] = [
  {
    path: "things",
    generation: "v2",
    title: "menu.things",
    icon: "AppstoreOutlined",
    roles: ["systemv2", "servicev2"],
    children: [
      { name: "thinglist", title: "menu.thinglist", page: list },
      { name: "thingadd", title: "menu.thingadd", page: { kind: "add", entity: "thing" }, roles: ["systemv2"] },
      { name: "thingedit", title: "menu.thingedit", hidden: true, activeMenu: "thinglist", params: [":id"], page: { kind: "edit", entity: "thing" } },
      { name: "thingstats", title: "menu.thingstats" },
    ],
  },
  {
    path: "help",
    generation: "v2",
    title: "menu.help",
    icon: "QuestionOutlined",
    children: [{ name: "docs", title: "menu.docs", external: "https://docs.example.com" }],
  },
  {
    path: "kept",
    generation: "v2",
    title: "menu.kept",
    alwaysShow: true,
    roles: ["schoolv2"],
    children: [{ name: "only", title: "menu.only", page: list }],
  },
];

describe("sidebar rules (spec 2.4, 6)", () => {
  it("omits hidden and unbuilt entries and filters by role, recursively", () => {
    const items = sidebarItems(menus, ["systemv2"]);
    expect(items[0].key).toBe("/things");
    expect(items[0].children?.map((c) => c.key)).toEqual(["/things/thinglist", "/things/thingadd"]);
    expect(reachableEntries(menus, ["schoolv2"]).map((e) => e.path)).toEqual(["/help/docs", "/kept/only"]);
  });

  it("collapses a group with one visible child to that child, unless alwaysShow", () => {
    const service = sidebarItems(menus, ["servicev2"]);
    expect(service[0]).toMatchObject({ key: "/things/thinglist", path: "/things/thinglist", icon: "AppstoreOutlined" });
    const school = sidebarItems(menus, ["schoolv2"]);
    expect(school.find((i) => i.key === "/kept")?.children?.map((c) => c.key)).toEqual(["/kept/only"]);
  });

  it("marks external links to open in a new tab", () => {
    const help = sidebarItems(menus, ["servicev2"]).find((i) => i.key === "/help/docs");
    expect(help).toMatchObject({ external: true, path: "https://docs.example.com" });
  });

  it("highlights the parent list while a hidden route is open", () => {
    expect(activeMenuKey(menus, "/things/thingedit/7")).toBe("/things/thinglist");
    expect(activeMenuKey(menus, "/things/thingadd")).toBe("/things/thingadd");
    expect(activeMenuKey(menus, "/elsewhere")).toBeUndefined();
  });

  it("route access follows the group and the entry roles; admin reaches all", () => {
    expect(canReachPath(["servicev2"], "/things/thingedit/7", menus)).toBe(true);
    expect(canReachPath(["servicev2"], "/things/thingadd", menus)).toBe(false);
    expect(canReachPath(["schoolv2"], "/things/thinglist?page=2", menus)).toBe(false);
    expect(canReachPath(["admin"], "/things/thingadd", menus)).toBe(true);
    // routes outside the catalogue carry no role meta
    expect(canReachPath(["schoolv2"], "/Dashboard/Dashboard", menus)).toBe(true);
  });
});

describe("refine access control over the catalogue", () => {
  const serviceList = { name: "service", list: "/servicev2/servicelist", edit: "/servicev2/serviceedit/:id" };

  it("allows a resource action when the role keys reach its route", async () => {
    const { canAccess } = await import("../../providers/accessControl");
    expect(canAccess(["systemv2"], { resource: "service", action: "list", params: { resource: serviceList } })).toBe(true);
    expect(canAccess(["systemv2"], { resource: "service", action: "edit", params: { resource: serviceList, id: 3 } })).toBe(true);
    expect(canAccess(["schoolv2"], { resource: "service", action: "list", params: { resource: serviceList } })).toBe(false);
    expect(canAccess(["admin"], { resource: "service", action: "list", params: { resource: serviceList } })).toBe(true);
  });

  it("honours roles in the resource meta", async () => {
    const { canAccess } = await import("../../providers/accessControl");
    const resource = { name: "x", meta: { roles: ["superadminv2"] } };
    expect(canAccess(["systemv2"], { resource: "x", action: "list", params: { resource } })).toBe(false);
    expect(canAccess(["systemv2", "superadminv2"], { resource: "x", action: "list", params: { resource } })).toBe(true);
  });
});
