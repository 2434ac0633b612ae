/**
 * The operator and the providers it manages: on the selection page a provider is chosen by its Manage button,
 * its name or a click on its row; a provider whose term has run out is flagged "expired" there and in the
 * provider list; and an operator acting in a provider finds the way back to the operator console in the avatar
 * menu and in the command palette. Only fetch is fake.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { App as AntdApp, ConfigProvider } from "antd";
import { MemoryRouter, Route, Routes, useLocation } from "react-router";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { Refine } from "@refinedev/core";
import routerProvider from "@refinedev/react-router";
import { addDays, businessDay } from "../../common/term";
import { dataProvider } from "../../providers/dataProvider";
import { changeLanguage, i18nProvider } from "../../providers/i18n";
import { sessionUser, setSessionUser } from "../../providers/session";
import { catalogueResources } from "../../src/engine";
import SelectionPage from "../../src/pages/SelectionPage";
import { REFINE_OPTIONS } from "../../src/refineOptions";
import { HOME_PATH } from "../../src/shell/routes";
import { ShellLayout } from "../../src/shell/ShellLayout";
import { currentTabs, openTab } from "../../src/shell/tabs";
import { renderCrud } from "../helpers/renderCrud";
import { clearCookies, fakeWeapi, setCookies } from "../helpers/weapiFetch";
import { en } from "../helpers/locales";

const today = businessDay(new Date());
const providers = [
  { id: 5, title: "Sunrise Campus Services", end_time: addDays(today, 10), servicer_ver: "v2", xcx_upload: "Y", status: "1", created_at: "2026-01-02T03:04:05.000Z" },
  { id: 6, title: "Harbour Education Services", end_time: addDays(today, -1), servicer_ver: "v2", xcx_upload: "N", status: "1", created_at: "2026-01-02T03:04:05.000Z" },
  // its last day is today: not yet expired
  { id: 7, title: "Old Town Education", end_time: today, servicer_ver: "v1", xcx_upload: "N", status: "1", created_at: "2026-01-02T03:04:05.000Z" },
];

function server() {
  return fakeWeapi((body) => {
    switch (body.method) {
      case "servicelist":
        return { return_code: "SUCCESS", return_msg: "", data: { items: providers, total: providers.length } };
      case "serviceinfo": {
        const found = providers.find((p) => String(p.id) === String(body.id));
        return { return_code: "SUCCESS", return_msg: "", data: { items: { ...found, open_activity_mode: "1" } } };
      }
      default:
        return { return_code: "SUCCESS", return_msg: "", data: { items: {} } };
    }
  });
}

function LocationProbe() {
  return <output data-testid="location">{useLocation().pathname}</output>;
}

function renderConsole(path: string) {
  const pages = <Route path={HOME_PATH} element={<div data-testid="home" />} />;
  return render(
    <ConfigProvider theme={{ token: { motion: false } }}>
      <AntdApp>
        <MemoryRouter initialEntries={[path]}>
          <Refine routerProvider={routerProvider} dataProvider={dataProvider} i18nProvider={i18nProvider} resources={catalogueResources()} options={REFINE_OPTIONS}>
            <Routes>
              <Route path="/secservice" element={<SelectionPage />} />
              <Route path="*" element={<ShellLayout pages={pages} />} />
            </Routes>
            <LocationProbe />
          </Refine>
        </MemoryRouter>
      </AntdApp>
    </ConfigProvider>,
  );
}

const location = () => screen.getByTestId("location").textContent;
/** The providers the selection page asked serviceinfo about (by its row's numeric id; the shell then reads the scope's). */
const chosen = (net: ReturnType<typeof server>) => net.of("serviceinfo").map((call) => call.body.id).filter((id) => typeof id === "number");
const cookie = (name: string) => new RegExp(`(?:^|; )${name}=([^;]*)`).exec(document.cookie)?.[1] ?? "";
const operatorLogin = { username: "sysadmin", name: "Platform Administrator", user_type: "system", login_usertype: "system", servicer_ver: "v2", is_show_fee: "N", sysid: "", schid: "" };

beforeAll(async () => {
  await changeLanguage("en");
  // the command palette animates and measures its box; jsdom draws nothing, so nothing to animate or measure
  Element.prototype.animate ??= () => ({ cancel() {}, finish() {} }) as unknown as Animation;
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
});
beforeEach(() => {
  clearCookies();
  setCookies({ token: "tok", select_user_type: "system", login_user_type: "system", servicer_ver: "v2", is_superadmin: "Y", language: "en", userinfo: JSON.stringify(operatorLogin) });
  setSessionUser({ roles: ["systemv2", "superadminv2"], name: "Platform Administrator", avatar: "", introduction: "", username: "sysadmin", user_type: "system" });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  setSessionUser(null);
});

describe("choosing a provider on the selection page", { timeout: 20000 }, () => {
  it("flags the provider whose term has run out, and only that one", async () => {
    server();
    renderConsole("/secservice");
    const expired = await screen.findByTestId("selection-row-6", {}, { timeout: 10000 });
    expect(within(expired).getByTestId("expired-tag").textContent).toBe(en.common.expired);
    expect(within(screen.getByTestId("selection-row-5")).queryByTestId("expired-tag")).toBeNull();
    expect(within(screen.getByTestId("selection-row-7")).queryByTestId("expired-tag")).toBeNull();
  });

  it("a click on the provider's name enters it", async () => {
    const net = server();
    renderConsole("/secservice");
    fireEvent.click(await screen.findByTestId("select-name-provider-5", {}, { timeout: 10000 }));
    await waitFor(() => expect(location()).toBe(HOME_PATH));
    expect(chosen(net)).toEqual([5]);
    expect(cookie("select_sysid")).toBe("5");
    expect(cookie("select_user_type")).toBe("service");
  });

  it("a click anywhere on the provider's row enters it", async () => {
    const net = server();
    renderConsole("/secservice");
    const row = await screen.findByTestId("selection-row-6", {}, { timeout: 10000 });
    fireEvent.click(row.querySelector("td") as HTMLElement);
    await waitFor(() => expect(location()).toBe(HOME_PATH));
    expect(chosen(net)).toEqual([6]);
    expect(cookie("select_sysid")).toBe("6");
  });

  it("the Manage button enters the provider once", async () => {
    const net = server();
    renderConsole("/secservice");
    fireEvent.click(await screen.findByTestId("select-provider-7", {}, { timeout: 10000 }));
    await waitFor(() => expect(location()).toBe(HOME_PATH));
    expect(chosen(net)).toEqual([7]);
  });
});

describe("the provider list", { timeout: 20000 }, () => {
  it("flags the provider whose term has run out beside its end date", async () => {
    server();
    renderCrud("/servicev2/servicelist");
    const harbour = (await screen.findByText("Harbour Education Services", {}, { timeout: 10000 })).closest("tr") as HTMLElement;
    expect(within(harbour).getByTestId("expired-tag").textContent).toBe(en.common.expired);
    expect(within(harbour).getByTestId("expired-tag").parentElement?.textContent).toContain(providers[1].end_time);
    const others = ["Sunrise Campus Services", "Old Town Education"].map((title) => screen.getByText(title).closest("tr") as HTMLElement);
    others.forEach((tr) => expect(within(tr).queryByTestId("expired-tag")).toBeNull());
  });
});

describe("back to the operator console from a provider", { timeout: 20000 }, () => {
  async function avatarEntries() {
    fireEvent.click(await screen.findByTestId("avatar-dropdown", {}, { timeout: 10000 }));
    await screen.findByTestId("avatar-home");
    return [...document.querySelectorAll("[data-testid^='avatar-']")].map((el) => el.getAttribute("data-testid"));
  }

  it("an operator acting in a provider goes back from the avatar menu, leaving the provider's scope", async () => {
    server();
    setCookies({ select_user_type: "service", select_sysid: "5", service_name: "Sunrise Campus Services", service_end_time: providers[0].end_time, select_xcxupload: "Y" });
    setSessionUser({ roles: ["servicev2", "xcxuploadv2"], name: "Platform Administrator", avatar: "", introduction: "", username: "sysadmin", user_type: "system" });
    openTab("/schoolv2/schoollist", "/schoolv2/schoollist", "menu.schoollist");
    renderConsole(HOME_PATH);
    expect(await avatarEntries()).toContain("avatar-return-operator");
    expect(screen.getByTestId("avatar-return-operator").textContent).toBe(en.shell.return_to_operator);
    fireEvent.click(screen.getByTestId("avatar-return-operator"));
    await waitFor(() => expect(cookie("select_user_type")).toBe("system"));
    expect(cookie("select_sysid")).toBe("");
    expect(cookie("service_name")).toBe("");
    expect(sessionUser()?.roles).toEqual(["systemv2", "superadminv2"]);
    expect(location()).toBe(HOME_PATH);
    // the provider's pages are closed
    expect(currentTabs().map((tab) => tab.key)).toEqual([HOME_PATH]);
  });

  /** The names of the palette's entries, opened with Ctrl-K and searched for `query`. */
  async function paletteEntries(query: string) {
    await screen.findByTestId("avatar-dropdown", {}, { timeout: 10000 });
    fireEvent.keyDown(window, { key: "k", ctrlKey: true });
    const search = await screen.findByTestId("command-palette-search", {}, { timeout: 10000 });
    fireEvent.change(search, { target: { value: query } });
    return search;
  }

  it("the command palette offers the same way back, and takes it", async () => {
    server();
    setCookies({ select_user_type: "service", select_sysid: "5", service_name: "Sunrise Campus Services", service_end_time: providers[0].end_time, select_xcxupload: "Y" });
    setSessionUser({ roles: ["servicev2", "xcxuploadv2"], name: "Platform Administrator", avatar: "", introduction: "", username: "sysadmin", user_type: "system" });
    renderConsole(HOME_PATH);
    await paletteEntries(en.shell.return_to_operator);
    fireEvent.click(await screen.findByText(en.shell.return_to_operator, {}, { timeout: 10000 }));
    await waitFor(() => expect(cookie("select_user_type")).toBe("system"));
    expect(cookie("select_sysid")).toBe("");
    expect(sessionUser()?.roles).toEqual(["systemv2", "superadminv2"]);
    expect(location()).toBe(HOME_PATH);
  });

  it("the command palette does not offer it where the avatar menu does not", async () => {
    server();
    renderConsole(HOME_PATH);
    await paletteEntries(en.shell.switch_provider);
    // the palette shows its actions: the operator's own switch is there, the way back is not
    await screen.findByText(en.shell.switch_provider, {}, { timeout: 10000 });
    expect(screen.queryByText(en.shell.return_to_operator)).toBeNull();
  });

  it("is not offered to an operator in its own console, nor to a provider's own account", async () => {
    server();
    renderConsole(HOME_PATH);
    expect(await avatarEntries()).not.toContain("avatar-return-operator");
    cleanup();

    setCookies({ select_user_type: "service", login_user_type: "service", select_sysid: "5", userinfo: JSON.stringify({ ...operatorLogin, username: "svc", user_type: "service", login_usertype: "service", sysid: "5" }) });
    setSessionUser({ roles: ["servicev2"], name: "Sunrise Admin", avatar: "", introduction: "", username: "svc", user_type: "service" });
    renderConsole(HOME_PATH);
    expect(await avatarEntries()).not.toContain("avatar-return-operator");
  });
});
