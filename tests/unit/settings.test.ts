import Cookies from "js-cookie";
import { beforeEach, describe, expect, it, vi } from "vitest";

async function freshSettings() {
  vi.resetModules();
  return import("../../src/lib/settings");
}

beforeEach(() => {
  window.localStorage.clear();
  Cookies.remove("size");
});

describe("layout settings (spec 9, DESIGN 7)", () => {
  it("defaults: blue, tag bar on, fixed header off, sidebar logo off, size medium, eight colours", async () => {
    const s = await freshSettings();
    expect(s.settings()).toEqual({ themeColour: "#1890ff", dark: false, tagsView: true, fixedHeader: false, sidebarLogo: false, size: "medium" });
    expect(s.THEME_COLOURS).toHaveLength(8);
    expect(new Set(s.THEME_COLOURS).size).toBe(8);
  });

  it("maps the sizes to antd sizes", async () => {
    const { antdSize } = await freshSettings();
    expect(antdSize("default")).toEqual({ componentSize: "large", compact: false });
    expect(antdSize("medium")).toEqual({ componentSize: "middle", compact: false });
    expect(antdSize("small")).toEqual({ componentSize: "small", compact: false });
    expect(antdSize("mini")).toEqual({ componentSize: "small", compact: true });
  });

  it("persists across reloads: the size in the size cookie, the rest in localStorage", async () => {
    const first = await freshSettings();
    first.updateSettings({ size: "mini", themeColour: "#f5222d", fixedHeader: true });
    expect(Cookies.get("size")).toBe("mini");
    const reloaded = await freshSettings();
    expect(reloaded.settings()).toMatchObject({ size: "mini", themeColour: "#f5222d", fixedHeader: true, tagsView: true });
  });
});
