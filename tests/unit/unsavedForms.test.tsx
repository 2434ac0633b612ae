/**
 * Forms keep and guard the user's work in the console's layout (tabs kept alive): typed values survive a tab
 * switch; closing or refreshing the tab of a form with unsaved changes, leaving it through the sidebar when the
 * tabs view is off (by a link or by the browser's back and forward buttons), leaving the console and reloading the
 * page ask first; a dialog holding a changed form asks before its X, Esc, its mask or Cancel closes it; a save
 * closes the form's tab and returns to the list it came from (with its page and filters); "save and add another"
 * stays on a cleared add form. Only fetch is fake.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { ConfigProvider } from "antd";
import dayjs from "dayjs";
import type { ReactNode } from "react";
import { BrowserRouter, MemoryRouter, Route, Routes, useLocation } from "react-router";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { Refine } from "@refinedev/core";
import routerProvider from "@refinedev/react-router";
import { accessControlProvider } from "../../providers/accessControl";
import { authProvider } from "../../providers/authProvider";
import { dataProvider } from "../../providers/dataProvider";
import { changeLanguage, i18nProvider } from "../../providers/i18n";
import { setSessionUser } from "../../providers/session";
import { catalogueResources, catalogueRouteElements } from "../../src/engine";
import { updateSettings } from "../../src/lib/settings";
import { REFINE_OPTIONS } from "../../src/refineOptions";
import { ConsoleFeedback } from "../../src/shell/ConsoleFeedback";
import { HOME_PATH } from "../../src/shell/routes";
import { ShellLayout } from "../../src/shell/ShellLayout";
import { closeAllTabs, currentTabs } from "../../src/shell/tabs";
import { hasUnsavedChanges } from "../../src/shell/unsavedChanges";
import { clearCookies, fakeWeapi, setCookies } from "../helpers/weapiFetch";
import { en } from "../helpers/locales";

const LIST = "/servicev2/servicelist";
const ADD = "/servicev2/serviceadd";
const EDIT = "/servicev2/serviceedit/7";

const stored = {
  id: 7,
  title: "Sunrise Campus Services",
  contact: "Li Lei",
  phone: "13800000000",
  servicer_ver: "v2",
  end_time: "2099-12-01",
  year_fee: "365.00",
  xcx_upload: "Y",
  is_show_fee: "Y",
  open_activity_mode: "1",
  status: "1",
  remark: "",
  created_at: "2026-01-02T03:04:05.000Z",
};

const ok = (data: unknown) => ({ return_code: "SUCCESS", return_msg: "", data });

function server() {
  return fakeWeapi((body) => {
    switch (body.method) {
      case "servicelist":
        return ok({ items: [stored], total: 1 });
      case "serviceinfo":
        return ok({ items: stored });
      case "serviceadd":
      case "serviceedit":
        return ok({ items: { ...stored, ...body } });
      default:
        return ok({ items: {} });
    }
  });
}

function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location-probe">{`${location.pathname}${location.search}`}</output>;
}

/** `browser`: the router of the console itself, on the window's history (its back and forward buttons). */
function renderConsole(path: string, browser = false) {
  const pages = <>{catalogueRouteElements()}</>;
  const Router = ({ children }: { children: ReactNode }) =>
    browser ? <BrowserRouter>{children}</BrowserRouter> : <MemoryRouter initialEntries={[path]}>{children}</MemoryRouter>;
  if (browser && window.location.pathname !== path) window.history.pushState(null, "", path);
  return render(
    <ConfigProvider theme={{ token: { motion: false } }}>
      <ConsoleFeedback>
        <Router>
          <Refine
            routerProvider={routerProvider}
            dataProvider={dataProvider}
            authProvider={authProvider}
            accessControlProvider={accessControlProvider}
            i18nProvider={i18nProvider}
            resources={catalogueResources()}
            options={REFINE_OPTIONS}
          >
            <Routes>
              <Route path="/secservice" element={<div data-testid="selection-page" />} />
              <Route path="*" element={<ShellLayout pages={pages} />} />
            </Routes>
            <LocationProbe />
          </Refine>
        </Router>
      </ConsoleFeedback>
    </ConfigProvider>,
  );
}

/** The page of the active tab (the others stay mounted, hidden). */
const activePage = () => within(screen.queryByTestId("page-active") ?? screen.getByTestId("console-layout"));
const location = () => screen.getByTestId("location-probe").textContent ?? "";
const pathname = () => location().split("?")[0];
const tabKeys = () => currentTabs().map((tab) => tab.key);

async function typeContact(value: string) {
  const input = await activePage().findByLabelText("Contact person", {}, { timeout: 10000 });
  fireEvent.change(input, { target: { value } });
  return input as HTMLInputElement;
}

/** The open confirmation about unsaved changes. */
function confirmDialog(): Promise<HTMLElement> {
  return waitFor(() => {
    const dialog = [...document.querySelectorAll<HTMLElement>(".ant-modal-confirm")].find((d) => d.querySelector(".ant-modal-confirm-title")?.textContent === en.shell.unsaved_title);
    if (!dialog) throw new Error("no confirmation open");
    return dialog;
  });
}

const noConfirmDialog = () => document.querySelector(".ant-modal-confirm") === null;

async function answerConfirm(button: "ok" | "cancel") {
  const dialog = await confirmDialog();
  const label = button === "ok" ? en.shell.unsaved_discard : en.shell.unsaved_stay;
  fireEvent.click(within(dialog).getByRole("button", { name: label }));
  await waitFor(() => expect(noConfirmDialog()).toBe(true));
}

function clickTab(key: string) {
  fireEvent.click(screen.getByTestId(`tab-${key}`));
}

function closeTabIcon(key: string) {
  const tab = screen.getByTestId(`tab-${key}`).closest(".ant-tabs-tab") as HTMLElement;
  fireEvent.click(tab.querySelector(".ant-tabs-tab-remove") as HTMLElement);
}

beforeAll(async () => {
  await changeLanguage("en");
});
beforeEach(() => {
  clearCookies();
  setCookies({ token: "tok", select_user_type: "system", login_user_type: "system", servicer_ver: "v2", is_superadmin: "Y", language: "en" });
  setSessionUser({ roles: ["systemv2", "superadminv2"], name: "Platform Administrator", avatar: "", introduction: "", username: "sysadmin", user_type: "system" });
  // a desktop: the sidebar shows beside the page
  vi.spyOn(document.body, "getBoundingClientRect").mockReturnValue({ width: 1440, height: 900, top: 0, left: 0, right: 1440, bottom: 900, x: 0, y: 0, toJSON: () => ({}) });
  updateSettings({ tagsView: true });
  closeAllTabs();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  setSessionUser(null);
  document.querySelectorAll(".ant-modal-root, .ant-message").forEach((node) => node.remove());
});

describe("unsaved changes in the tabs view", { timeout: 30000 }, () => {
  it("keeps what was typed in an add form through a switch to another tab and back", async () => {
    server();
    renderConsole(LIST);
    fireEvent.click(await screen.findByTestId("add-button", {}, { timeout: 10000 }));
    await typeContact("Wang Fang");
    clickTab(LIST);
    await waitFor(() => expect(screen.getByTestId(`tab-${LIST}`).getAttribute("data-active")).toBe("true"));
    clickTab(ADD);
    await waitFor(() => expect(screen.getByTestId(`tab-${ADD}`).getAttribute("data-active")).toBe("true"));
    expect(((await activePage().findByLabelText("Contact person")) as HTMLInputElement).value).toBe("Wang Fang");
  });

  it("asks before closing the tab of a form with unsaved changes, and keeps it on 'keep editing'", async () => {
    server();
    renderConsole(ADD);
    await activePage().findByLabelText("Contact person", {}, { timeout: 10000 });
    // opening a form changes nothing
    expect(hasUnsavedChanges()).toBe(false);
    await typeContact("Wang Fang");
    expect(hasUnsavedChanges([ADD])).toBe(true);

    closeTabIcon(ADD);
    expect((await confirmDialog()).textContent).toContain(en.menu.serviceadd);
    await answerConfirm("cancel");
    expect(tabKeys()).toContain(ADD);
    expect(pathname()).toBe(ADD);
    expect(((await activePage().findByLabelText("Contact person")) as HTMLInputElement).value).toBe("Wang Fang");

    closeTabIcon(ADD);
    await answerConfirm("ok");
    await waitFor(() => expect(tabKeys()).not.toContain(ADD));
    await waitFor(() => expect(pathname()).toBe(HOME_PATH));
    expect(hasUnsavedChanges()).toBe(false);
  });

  it("closes the tab of an unchanged form without asking", async () => {
    server();
    renderConsole(ADD);
    await activePage().findByLabelText("Contact person", {}, { timeout: 10000 });
    closeTabIcon(ADD);
    await waitFor(() => expect(tabKeys()).not.toContain(ADD));
    expect(noConfirmDialog()).toBe(true);
  });

  it("asks before refreshing, or closing with the others, the tab of a form with unsaved changes", async () => {
    server();
    renderConsole(LIST);
    fireEvent.click(await screen.findByTestId("add-button", {}, { timeout: 10000 }));
    await typeContact("Wang Fang");
    clickTab(LIST);
    await waitFor(() => expect(pathname()).toBe(LIST));

    fireEvent.contextMenu(screen.getByTestId(`tab-${ADD}`));
    fireEvent.click(await screen.findByTestId("tab-menu-refresh"));
    await answerConfirm("cancel");
    expect(currentTabs().find((tab) => tab.key === ADD)?.version).toBe(0);

    fireEvent.contextMenu(screen.getByTestId(`tab-${LIST}`));
    const others = await screen.findAllByTestId("tab-menu-close-others");
    fireEvent.click(others[others.length - 1]);
    await answerConfirm("ok");
    await waitFor(() => expect(tabKeys()).toEqual([HOME_PATH, LIST]));
    expect(hasUnsavedChanges()).toBe(false);
  });

  it("leaves a changed form for another page through the sidebar without asking: its tab keeps it", async () => {
    server();
    renderConsole(ADD);
    await typeContact("Wang Fang");
    fireEvent.click(screen.getByTestId(`menu-${HOME_PATH}`));
    await waitFor(() => expect(pathname()).toBe(HOME_PATH));
    expect(noConfirmDialog()).toBe(true);
    clickTab(ADD);
    await waitFor(() => expect(pathname()).toBe(ADD));
    expect(((await activePage().findByLabelText("Contact person")) as HTMLInputElement).value).toBe("Wang Fang");
  });

  it("without the tabs view, asks before the sidebar leaves a changed form", async () => {
    updateSettings({ tagsView: false });
    server();
    renderConsole(ADD);
    await typeContact("Wang Fang");
    fireEvent.click(screen.getByTestId(`menu-${HOME_PATH}`));
    await answerConfirm("cancel");
    expect(pathname()).toBe(ADD);
    expect(((await activePage().findByLabelText("Contact person")) as HTMLInputElement).value).toBe("Wang Fang");

    fireEvent.click(screen.getByTestId(`menu-${HOME_PATH}`));
    await answerConfirm("ok");
    await waitFor(() => expect(pathname()).toBe(HOME_PATH));
    expect(hasUnsavedChanges()).toBe(false);
  });

  it("asks before leaving the console (switching provider) with a changed form in a tab", async () => {
    server();
    renderConsole(ADD);
    await typeContact("Wang Fang");
    fireEvent.click(screen.getByTestId(`menu-${HOME_PATH}`));
    await waitFor(() => expect(pathname()).toBe(HOME_PATH));
    fireEvent.click(screen.getByTestId("avatar-dropdown"));
    fireEvent.click(await screen.findByTestId("avatar-switch-provider"));
    await answerConfirm("cancel");
    expect(pathname()).toBe(HOME_PATH);
    fireEvent.click(screen.getByTestId("avatar-dropdown"));
    fireEvent.click(await screen.findByTestId("avatar-switch-provider"));
    await answerConfirm("ok");
    await screen.findByTestId("selection-page");
    expect(hasUnsavedChanges()).toBe(false);
  });

  it("holds a reload or the closing of the browser tab while a form has unsaved changes", async () => {
    server();
    renderConsole(ADD);
    await activePage().findByLabelText("Contact person", {}, { timeout: 10000 });
    const unload = () => {
      const event = new Event("beforeunload", { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    expect(unload()).toBe(false);
    await typeContact("Wang Fang");
    expect(unload()).toBe(true);
    closeTabIcon(ADD);
    await answerConfirm("ok");
    expect(unload()).toBe(false);
  });

  it("asks before the browser's back button leaves a changed form when the tabs view is off, and stays on 'keep editing'", async () => {
    updateSettings({ tagsView: false });
    server();
    // the list was open before the form, in the browser's history as the console's router writes it
    window.history.replaceState({ usr: null, key: "list", idx: 0 }, "", LIST);
    window.history.pushState({ usr: null, key: "add", idx: 1 }, "", ADD);
    renderConsole(ADD, true);
    await typeContact("Wang Fang");

    window.history.back();
    await answerConfirm("cancel");
    // the browser is back on the form's entry, the form as it was
    await waitFor(() => expect(window.location.pathname).toBe(ADD));
    expect(pathname()).toBe(ADD);
    expect(((await activePage().findByLabelText("Contact person")) as HTMLInputElement).value).toBe("Wang Fang");

    window.history.back();
    await answerConfirm("ok");
    await waitFor(() => expect(pathname()).toBe(LIST));
    expect(window.location.pathname).toBe(LIST);
    expect(hasUnsavedChanges()).toBe(false);

    // forward again: a fresh form, nothing to lose, no question
    window.history.forward();
    await waitFor(() => expect(pathname()).toBe(ADD));
    expect(noConfirmDialog()).toBe(true);
  });

  it("lets the browser's back button leave a changed form kept in its tab without asking", async () => {
    server();
    renderConsole(LIST, true);
    fireEvent.click(await screen.findByTestId("add-button", {}, { timeout: 10000 }));
    await waitFor(() => expect(pathname()).toBe(ADD));
    await typeContact("Wang Fang");
    window.history.back();
    await waitFor(() => expect(pathname()).toBe(LIST));
    expect(noConfirmDialog()).toBe(true);
    expect(hasUnsavedChanges([ADD])).toBe(true);
  });

  it("a save closes the edit form's tab and returns to the list as its tab left it", async () => {
    const net = server();
    renderConsole(`${LIST}?pageSize=10&currentPage=1`);
    fireEvent.click(await screen.findByTestId("row-edit-7", {}, { timeout: 10000 }));
    await waitFor(() => expect(pathname()).toBe(EDIT));
    await waitFor(() => expect((activePage().getByLabelText("Contact person") as HTMLInputElement).value).toBe(stored.contact));
    await typeContact("Wang Fang");
    fireEvent.click(activePage().getByTestId("form-save"));
    await waitFor(() => expect(net.of("serviceedit")).toHaveLength(1));
    await waitFor(() => expect(pathname()).toBe(LIST));
    expect(location()).toContain("pageSize=10");
    expect(tabKeys()).not.toContain(EDIT);
    expect(hasUnsavedChanges()).toBe(false);
    expect(await screen.findByText(en.crud.saved)).toBeTruthy();
  });

  it("'save and add another' saves, says so and stays on the add form, cleared to its defaults", async () => {
    const net = server();
    renderConsole(ADD);
    const page = activePage();
    const type = async (label: string, value: string) => fireEvent.change(await page.findByLabelText(label, {}, { timeout: 10000 }), { target: { value } });
    await type("Provider name", "Harbour Education");
    await type("Administrator username", "harbour_admin");
    await type("Administrator password", "secret123");
    await type("Contact person", "Wang Fang");
    const end = dayjs().startOf("month").add(14, "day");
    const picker = page.getByLabelText("Term ends");
    fireEvent.mouseDown(picker);
    fireEvent.click(picker);
    const cell = await waitFor(() => {
      const found = document.querySelector<HTMLElement>(`.ant-picker-dropdown td[title="${end.format("YYYY-MM-DD")}"] .ant-picker-cell-inner`);
      if (!found) throw new Error("calendar not open");
      return found;
    });
    fireEvent.click(cell);

    fireEvent.click(page.getByTestId("form-save-add-another"));
    await waitFor(() => expect(net.of("serviceadd")).toHaveLength(1));
    expect(net.of("serviceadd")[0].body).toMatchObject({ title: "Harbour Education", contact: "Wang Fang", servicer_ver: "v2" });
    expect(await screen.findByText(en.crud.created_next.replace("{{entity}}", en.entity.service))).toBeTruthy();
    expect(pathname()).toBe(ADD);
    expect(tabKeys()).toContain(ADD);
    await waitFor(() => expect((page.getByLabelText("Provider name") as HTMLInputElement).value).toBe(""));
    expect((page.getByLabelText("Contact person") as HTMLInputElement).value).toBe("");
    expect((page.getByLabelText("Annual fee (yuan)") as HTMLInputElement).value).toBe("0.00");
    expect(hasUnsavedChanges()).toBe(false);
  });
});

describe("a form in a dialog", { timeout: 30000 }, () => {
  const GRADES = "/schoolv2/gradelist";
  const dialog = () => screen.queryByTestId("record-modal-add");
  const shown = () => {
    const wrap = dialog()?.closest<HTMLElement>(".ant-modal-wrap");
    return Boolean(wrap && wrap.style.display !== "none");
  };
  const wrap = () => dialog()!.closest(".ant-modal-wrap") as HTMLElement;
  const ways: [string, () => void][] = [
    ["its X", () => fireEvent.click(wrap().querySelector(".ant-modal-close") as HTMLElement)],
    ["Esc", () => fireEvent.keyDown(wrap(), { key: "Escape", code: "Escape", keyCode: 27 })],
    [
      "its mask",
      () => {
        fireEvent.mouseDown(wrap());
        fireEvent.mouseUp(wrap());
        fireEvent.click(wrap());
      },
    ],
    ["Cancel", () => fireEvent.click(within(wrap()).getByRole("button", { name: en.common.cancel }))],
  ];

  beforeEach(() => {
    // a v2 school adds its grades in a dialog over their list
    setCookies({ select_user_type: "school", login_user_type: "school", is_superadmin: "N", select_sysid: "2", select_schid: "5" });
    setSessionUser({ roles: ["schoolv2"], name: "Sunrise No.1", avatar: "", introduction: "", username: "school", user_type: "school" });
    fakeWeapi(() => ok({ items: [{ id: 1, sch_id: 5, title: "Grade One", sort: 1 }], total: 1 }));
  });

  async function openDialog() {
    fireEvent.click(await activePage().findByTestId("add-button", {}, { timeout: 10000 }));
    await waitFor(() => expect(shown()).toBe(true));
  }

  it("closes at once by any way when nothing was changed", async () => {
    renderConsole(GRADES);
    for (const [way, close] of ways) {
      await openDialog();
      close();
      await waitFor(() => expect(shown(), way).toBe(false));
      expect(noConfirmDialog(), way).toBe(true);
    }
  });

  it("asks before its X, Esc, its mask or Cancel closes it with a changed value; 'keep editing' keeps the value", async () => {
    renderConsole(GRADES);
    await openDialog();
    const title = () => within(dialog()!).getByPlaceholderText("Grade name") as HTMLInputElement;
    fireEvent.change(title(), { target: { value: "Grade Two" } });
    for (const [way, close] of ways) {
      close();
      expect((await confirmDialog()).textContent, way).toContain(en.shell.unsaved_dialog);
      await answerConfirm("cancel");
      expect(shown(), way).toBe(true);
      expect(title().value, way).toBe("Grade Two");
    }
    ways[0]![1]();
    await answerConfirm("ok");
    await waitFor(() => expect(shown()).toBe(false));
  });
});
