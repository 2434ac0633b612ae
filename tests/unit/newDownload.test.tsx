/**
 * The way to an exported file outlives its toast: once an export is queued the header's download icon shows a dot,
 * kept per user in the browser (a reload shows it, another user signing in does not see it), until the user opens
 * the download centre. Only fetch is fake.
 */
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { ConfigProvider } from "antd";
import { MemoryRouter, Route, Routes, useLocation } from "react-router";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { Refine } from "@refinedev/core";
import routerProvider from "@refinedev/react-router";
import { accessControlProvider } from "../../providers/accessControl";
import { dataProvider } from "../../providers/dataProvider";
import { changeLanguage, i18nProvider } from "../../providers/i18n";
import { setSessionUser } from "../../providers/session";
import { catalogueResources, catalogueRouteElements } from "../../src/engine";
import { REFINE_OPTIONS } from "../../src/refineOptions";
import { ConsoleFeedback } from "../../src/shell/ConsoleFeedback";
import { DOWNLOAD_PATH } from "../../src/shell/routes";
import { ShellLayout } from "../../src/shell/ShellLayout";
import { closeAllTabs } from "../../src/shell/tabs";
import { clearCookies, fakeWeapi, setCookies } from "../helpers/weapiFetch";

const STUDENTS = "/activity/studentlist";
const student = { id: 1, name: "Li Ming", sch_id: 5, student_no: "S001", sex: "1", grade_id: 1, class_id: 1, status: "1", created_at: "2026-01-02T03:04:05.000Z" };
const ok = (data: unknown) => ({ return_code: "SUCCESS", return_msg: "", data });

function LocationProbe() {
  return <output data-testid="location">{useLocation().pathname}</output>;
}

function renderConsole(path: string) {
  const pages = (
    <>
      {catalogueRouteElements()}
      <Route path={DOWNLOAD_PATH} element={<div data-testid="download-centre" />} />
    </>
  );
  return render(
    <ConfigProvider theme={{ token: { motion: false } }}>
      <ConsoleFeedback>
        <MemoryRouter initialEntries={[path]}>
          <Refine routerProvider={routerProvider} dataProvider={dataProvider} accessControlProvider={accessControlProvider} i18nProvider={i18nProvider} resources={catalogueResources()} options={REFINE_OPTIONS}>
            <Routes>
              <Route path="*" element={<ShellLayout pages={pages} />} />
            </Routes>
            <LocationProbe />
          </Refine>
        </MemoryRouter>
      </ConsoleFeedback>
    </ConfigProvider>,
  );
}

const signIn = (username: string) =>
  setSessionUser({ roles: ["servicev2"], name: "Sunrise Admin", avatar: "", introduction: "", username, user_type: "service" });
const dot = () => screen.queryByTestId("header-download-new");

beforeAll(async () => {
  await changeLanguage("en");
});
beforeEach(() => {
  clearCookies();
  window.localStorage.clear();
  closeAllTabs();
  setCookies({ token: "tok", select_user_type: "service", login_user_type: "service", servicer_ver: "v2", select_sysid: "5", language: "en" });
  signIn("svc");
  vi.spyOn(document.body, "getBoundingClientRect").mockReturnValue({ width: 1440, height: 900, top: 0, left: 0, right: 1440, bottom: 900, x: 0, y: 0, toJSON: () => ({}) });
  fakeWeapi((body) => {
    if (body.method === "studentlist") return ok({ items: [student], total: 1 });
    if (body.method === "studentexport") return ok({ items: { job_id: 9 } });
    return ok({ items: [], total: 0 });
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  setSessionUser(null);
  document.querySelectorAll(".ant-message").forEach((node) => node.remove());
});

describe("the header's download icon after an export", { timeout: 90000 }, () => {
  it("shows a dot from the export's queueing, through a reload, until the download centre is opened", async () => {
    renderConsole(STUDENTS);
    fireEvent.click(await screen.findByTestId("export-button", {}, { timeout: 20000 }));
    await screen.findByTestId("export-started");
    await waitFor(() => expect(dot()).not.toBeNull());

    // a reload of the console: the dot is still there, for this user only
    cleanup();
    renderConsole(STUDENTS);
    await screen.findByTestId("header-download", {}, { timeout: 10000 });
    expect(dot()).not.toBeNull();
    cleanup();
    signIn("staff");
    renderConsole(STUDENTS);
    await screen.findByTestId("header-download", {}, { timeout: 10000 });
    expect(dot()).toBeNull();
    cleanup();
    signIn("svc");
    renderConsole(STUDENTS);

    fireEvent.click(await screen.findByTestId("header-download", {}, { timeout: 10000 }));
    await waitFor(() => expect(screen.getByTestId("location").textContent).toBe(DOWNLOAD_PATH));
    await waitFor(() => expect(dot()).toBeNull());
    // gone for good: back on the list, after a reload
    cleanup();
    renderConsole(STUDENTS);
    await screen.findByTestId("header-download", {}, { timeout: 10000 });
    expect(dot()).toBeNull();
  });

  it("shows no dot when the export was refused", async () => {
    fakeWeapi((body) => {
      if (body.method === "studentlist") return ok({ items: [student], total: 1 });
      if (body.method === "studentexport") return { return_code: "FAIL", return_msg: "refused" };
      return ok({ items: [], total: 0 });
    });
    renderConsole(STUDENTS);
    fireEvent.click(await screen.findByTestId("export-button", {}, { timeout: 20000 }));
    await screen.findByText("refused");
    expect(dot()).toBeNull();
  });
});
