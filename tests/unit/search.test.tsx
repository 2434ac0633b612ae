import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { registerFeedback } from "../../providers/feedback";
import { changeLanguage, i18n, i18nReady } from "../../providers/i18n";
import { FUSE_OPTIONS, routeFuse, translateRoutes } from "../../src/shell/HeaderSearch";
import { DOWNLOAD_PATH, HOME_PATH, searchableRoutes } from "../../src/shell/routes";
import { FullscreenToggle } from "../../src/shell/TopBar";

beforeAll(async () => {
  await i18nReady;
  await changeLanguage("en");
});
afterEach(cleanup);

describe("header search and palette routes (spec 2.4, 9)", () => {
  it("covers only the visible pages the role keys reach, plus home and the download centre with a provider", () => {
    const system = searchableRoutes(["systemv2", "superadminv2"], false).map((r) => r.path);
    expect(system[0]).toBe(HOME_PATH);
    expect(system).toContain("/servicev2/servicelist");
    expect(system).not.toContain(DOWNLOAD_PATH);
    expect(system.some((p) => p.includes("serviceedit"))).toBe(false);
    const school = searchableRoutes(["schoolv2"], true).map((r) => r.path);
    expect(school).toContain(DOWNLOAD_PATH);
    expect(school).not.toContain("/servicev2/servicelist");
  });

  it("uses Fuse with threshold 0.4 and weights title 0.7 / path 0.3, tolerating typos", async () => {
    expect(FUSE_OPTIONS).toEqual({ threshold: 0.4, keys: [{ name: "title", weight: 0.7 }, { name: "path", weight: 0.3 }] });
    const routes = translateRoutes(searchableRoutes(["systemv2"], false), (k) => String(i18n.t(k)));
    const fuse = await routeFuse(routes);
    expect(fuse.search("Dashbaord")[0]?.item.path).toBe(HOME_PATH);
    expect(fuse.search("servicelist")[0]?.item.path).toBe("/servicev2/servicelist");
  });
});

describe("fullscreen toggle (spec 8)", () => {
  it("warns 'you browser can not work' when fullscreen is unsupported", () => {
    const warnings: string[] = [];
    const unregister = registerFeedback({ error: () => {}, success: () => {}, confirm: () => {}, warning: (t) => void warnings.push(t) });
    Object.defineProperty(document, "fullscreenEnabled", { configurable: true, value: false });
    render(<FullscreenToggle />);
    act(() => fireEvent.click(screen.getByTestId("header-fullscreen")));
    expect(warnings).toEqual(["you browser can not work"]);
    unregister();
  });
});
