/**
 * The tab bar's context menu (spec 2.4): closing a tab that is not the active one closes it and leaves the
 * active tab and the route as they were; closing the active one moves to the last tab left.
 */
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { ConfigProvider } from "antd";
import { MemoryRouter, useLocation } from "react-router";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { changeLanguage } from "../../providers/i18n";
import { TabBar } from "../../src/shell/TabBar";
import { closeAllTabs, currentTabs, openTab } from "../../src/shell/tabs";

function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname}</output>;
}

function renderTabBar(path: string) {
  return render(
    <ConfigProvider theme={{ token: { motion: false } }}>
      <MemoryRouter initialEntries={[path]}>
        <TabBar />
        <LocationProbe />
      </MemoryRouter>
    </ConfigProvider>,
  );
}

/** Right-clicks a tab and chooses an entry of its menu. */
async function tabMenu(key: string, action: "refresh" | "close" | "close-others" | "close-all") {
  fireEvent.contextMenu(screen.getByTestId(`tab-${key}`));
  const item = await screen.findByTestId(`tab-menu-${action}`);
  act(() => {
    fireEvent.click(item);
  });
}

const keys = () => currentTabs().map((tab) => tab.key);

beforeAll(async () => {
  await changeLanguage("en");
});
beforeEach(() => {
  closeAllTabs();
  ["/a/one", "/a/two", "/a/three"].forEach((p) => openTab(p, p, "shell.dashboard"));
});
afterEach(() => cleanup());

describe("tab bar context menu", () => {
  it("closes a tab that is not the active one without activating it", async () => {
    renderTabBar("/a/one");
    await tabMenu("/a/two", "close");
    await waitFor(() => expect(keys()).toEqual(["/Dashboard/Dashboard", "/a/one", "/a/three"]));
    expect(screen.getByTestId("location").textContent).toBe("/a/one");
    expect(screen.queryByTestId("tab-/a/two")).toBeNull();
    expect(screen.getByTestId("tab-/a/one").getAttribute("data-active")).toBe("true");
  });

  it("closing the active tab moves to the last tab left", async () => {
    renderTabBar("/a/two");
    await tabMenu("/a/two", "close");
    await waitFor(() => expect(screen.getByTestId("location").textContent).toBe("/a/three"));
    expect(keys()).toEqual(["/Dashboard/Dashboard", "/a/one", "/a/three"]);
  });

  it("refreshing a tab that is not the active one opens it without moving it", async () => {
    renderTabBar("/a/one");
    await tabMenu("/a/two", "refresh");
    await waitFor(() => expect(screen.getByTestId("location").textContent).toBe("/a/two"));
    expect(keys()).toEqual(["/Dashboard/Dashboard", "/a/one", "/a/two", "/a/three"]);
    expect(currentTabs().find((tab) => tab.key === "/a/two")?.version).toBe(1);
  });

  it("the close icon of a tab that is not the active one closes only that tab", async () => {
    renderTabBar("/a/one");
    const tab = screen.getByTestId("tab-/a/three").closest(".ant-tabs-tab") as HTMLElement;
    fireEvent.click(tab.querySelector(".ant-tabs-tab-remove") as HTMLElement);
    await waitFor(() => expect(keys()).toEqual(["/Dashboard/Dashboard", "/a/one", "/a/two"]));
    expect(screen.getByTestId("location").textContent).toBe("/a/one");
  });
});
