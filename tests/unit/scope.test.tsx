/**
 * The scope the console acts in (spec 2.4): a provider who chooses a school on /secservice sees that school's
 * title in the top bar and on the dashboard (not its id), and a renewal made on a page moves the dates the
 * dashboard and the top bar show at once. Only fetch is fake.
 */
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { App as AntdApp, ConfigProvider } from "antd";
import { MemoryRouter, Route, Routes } from "react-router";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { Refine } from "@refinedev/core";
import routerProvider from "@refinedev/react-router";
import { dataProvider } from "../../providers/dataProvider";
import { changeLanguage } from "../../providers/i18n";
import { catalogueResources } from "../../src/engine";
import { REFINE_OPTIONS } from "../../src/refineOptions";
import { setSessionUser } from "../../providers/session";
import { Dashboard } from "../../src/pages/Dashboard";
import SelectionPage from "../../src/pages/SelectionPage";
import { useTermReload } from "../../src/shell/renewal/termReload";
import { ShellLayout } from "../../src/shell/ShellLayout";
import { HOME_PATH } from "../../src/shell/routes";
import { clearCookies, fakeWeapi, setCookies } from "../helpers/weapiFetch";

/** What a page that renews (recharge, contract maintenance) does once the renewal succeeded. */
function RenewedButton() {
  const reload = useTermReload();
  return <button type="button" data-testid="renewed" onClick={reload} />;
}

function renderConsole(path: string) {
  const pages = (
    <>
      <Route
        path={HOME_PATH}
        element={
          <>
            <Dashboard />
            <RenewedButton />
          </>
        }
      />
    </>
  );
  return render(
    <ConfigProvider theme={{ token: { motion: false } }}>
      <AntdApp>
        <MemoryRouter initialEntries={[path]}>
          <Refine routerProvider={routerProvider} dataProvider={dataProvider} resources={catalogueResources()} options={REFINE_OPTIONS}>
            <Routes>
              <Route path="/secservice" element={<SelectionPage />} />
              <Route path="*" element={<ShellLayout pages={pages} />} />
            </Routes>
          </Refine>
        </MemoryRouter>
      </AntdApp>
    </ConfigProvider>,
  );
}

let providerEnd = "2027-03-01";
let schoolEnd = "2027-01-31";

function server() {
  return fakeWeapi((body) => {
    switch (body.method) {
      case "schoollist":
        return { return_code: "SUCCESS", return_msg: "", data: { items: [{ id: 31, title: "Sunrise No.1 Primary School", endtime: schoolEnd }], total: 1 } };
      case "serviceinfo":
        return { return_code: "SUCCESS", return_msg: "", data: { items: { id: 5, title: "Sunrise Campus Services", end_time: providerEnd, open_activity_mode: "1", xcx_upload: "N" } } };
      case "schoolinfo":
        return body.sch_id === "31"
          ? { return_code: "SUCCESS", return_msg: "", data: { items: { title: "Sunrise No.1 Primary School", endtime: schoolEnd } } }
          : { return_code: "FAIL", return_msg: "no such school" };
      default:
        return { return_code: "FAIL", return_msg: "" };
    }
  });
}

beforeAll(async () => {
  await changeLanguage("en");
});
beforeEach(() => {
  clearCookies();
  providerEnd = "2027-03-01";
  schoolEnd = "2027-01-31";
  setCookies({ token: "tok", select_user_type: "service", login_user_type: "service", select_sysid: "5", servicer_ver: "v2", service_name: "Sunrise Campus Services" });
  setSessionUser({ roles: ["servicev2"], name: "Sunrise Admin", avatar: "", introduction: "", username: "svc", user_type: "service" });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  setSessionUser(null);
});

describe("the scope in the top bar and on the dashboard", () => {
  it("a school chosen on the selection page is named in the top bar and on the dashboard", async () => {
    const net = server();
    renderConsole("/secservice");
    fireEvent.click(await screen.findByTestId("select-school-31"));
    expect((await screen.findByTestId("header-school")).textContent).toBe("School: Sunrise No.1 Primary School");
    await waitFor(() => expect(screen.getByTestId("dashboard-school").textContent).toBe("Sunrise No.1 Primary School"));
    expect(screen.getByTestId("dashboard-school-end").textContent).toBe("2027-01-31");
    expect(screen.getByTestId("header-login-type").textContent).toBe("Provider: Sunrise Campus Services");
    expect(net.of("schoolinfo")[0].body).toMatchObject({ sch_id: "31", sysid: "5" });
  });

  it("no school chosen: no school tag and no school on the dashboard", async () => {
    server();
    renderConsole(HOME_PATH);
    await waitFor(() => expect(screen.getByTestId("header-login-type").textContent).toBe("Provider: Sunrise Campus Services"));
    expect(screen.queryByTestId("header-school")).toBeNull();
    expect(screen.queryByTestId("dashboard-school")).toBeNull();
  });

  it("after a renewal on a page the dashboard's dates move at once", async () => {
    setCookies({ select_schid: "31" });
    const net = server();
    renderConsole(HOME_PATH);
    await waitFor(() => expect(screen.getByTestId("dashboard-provider-end").textContent).toBe("2027-03-01"));
    await waitFor(() => expect(screen.getByTestId("dashboard-school-end").textContent).toBe("2027-01-31"));

    providerEnd = "2028-03-01";
    schoolEnd = "2028-01-31";
    fireEvent.click(screen.getByTestId("renewed"));
    await waitFor(() => expect(screen.getByTestId("dashboard-provider-end").textContent).toBe("2028-03-01"));
    await waitFor(() => expect(screen.getByTestId("dashboard-school-end").textContent).toBe("2028-01-31"));
    expect(net.of("serviceinfo")).toHaveLength(2);
    expect(net.of("schoolinfo")).toHaveLength(2);
  });
});
