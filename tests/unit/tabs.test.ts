import { beforeEach, describe, expect, it, vi } from "vitest";
import { TABS_STORAGE_KEY } from "../../providers/session";

// the tab store reads localStorage when it loads: load it fresh for each case
async function freshTabs() {
  vi.resetModules();
  return import("../../src/shell/tabs");
}

beforeEach(() => window.localStorage.clear());

describe("tab bar state (spec 2.4, DESIGN 7)", () => {
  it("always has the affixed dashboard tab, and one tab per page", async () => {
    const t = await freshTabs();
    t.openTab("/servicev2/servicelist", "/servicev2/servicelist?currentPage=2", "menu.servicelist");
    t.openTab("/servicev2/servicelist", "/servicev2/servicelist?currentPage=3", "menu.servicelist");
    expect(t.currentTabs().map((tab) => [tab.key, tab.path, tab.affix])).toEqual([
      ["/Dashboard/Dashboard", "/Dashboard/Dashboard", true],
      ["/servicev2/servicelist", "/servicev2/servicelist?currentPage=3", false],
    ]);
  });

  it("closes one, others or all, never the affixed tab", async () => {
    const t = await freshTabs();
    ["/a/one", "/a/two", "/a/three"].forEach((p) => t.openTab(p, p, p));
    expect(t.closeTab("/Dashboard/Dashboard").map((tab) => tab.key)).toEqual(["/Dashboard/Dashboard", "/a/one", "/a/two", "/a/three"]);
    expect(t.closeTab("/a/two").map((tab) => tab.key)).toEqual(["/Dashboard/Dashboard", "/a/one", "/a/three"]);
    t.closeOtherTabs("/a/three");
    expect(t.currentTabs().map((tab) => tab.key)).toEqual(["/Dashboard/Dashboard", "/a/three"]);
    t.closeAllTabs();
    expect(t.currentTabs().map((tab) => tab.key)).toEqual(["/Dashboard/Dashboard"]);
  });

  it("refresh bumps only that tab's version (re-mounts only that page)", async () => {
    const t = await freshTabs();
    t.openTab("/a/one", "/a/one", "x");
    t.openTab("/a/two", "/a/two", "y");
    t.refreshTab("/a/one");
    expect(t.currentTabs().map((tab) => tab.version)).toEqual([0, 1, 0]);
  });

  it("is kept across reloads in localStorage", async () => {
    const first = await freshTabs();
    first.openTab("/a/one", "/a/one?q=1", "x");
    expect(JSON.parse(window.localStorage.getItem(TABS_STORAGE_KEY) ?? "[]")).toHaveLength(2);
    const reloaded = await freshTabs();
    expect(reloaded.currentTabs().map((tab) => tab.path)).toEqual(["/Dashboard/Dashboard", "/a/one?q=1"]);
  });

  it("a session that ends takes its tabs with it", async () => {
    const t = await freshTabs();
    // the session module instance the fresh tab store subscribed to
    const session = await import("../../providers/session");
    session.setSessionUser({ roles: ["systemv2"], name: "", avatar: "", introduction: "", username: "", user_type: "system" });
    t.openTab("/a/one", "/a/one", "x");
    session.setSessionUser(null);
    expect(t.currentTabs().map((tab) => tab.key)).toEqual(["/Dashboard/Dashboard"]);
  });
});
