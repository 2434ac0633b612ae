/**
 * The list page's state tabs, summary and column settings: the tabs show each state's count from the list's
 * answer and set its state filter (kept in the URL, read back from it); the summary of the money fields shows
 * under the rows in the user's language, on a phone too; the columns a user hides or moves stay so for that user
 * and list, and a phone's cards keep every field. Only fetch is fake.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { changeLanguage } from "../../providers/i18n";
import { clearCookies, fakeWeapi, setCookies } from "../helpers/weapiFetch";
import { renderCrud } from "../helpers/renderCrud";

const SYSADMIN = { token: "tok", select_user_type: "system", login_user_type: "system", servicer_ver: "v2", is_superadmin: "Y", language: "en" };
const userinfo = (username: string) => JSON.stringify({ username, name: username, user_type: "system", login_usertype: "system", servicer_ver: "v2", is_show_fee: "N", sysid: "", schid: "" });

const code = (id: number, status: string) => ({
  id, code: `AAAA-BBBB-CCCC-DDDD-000${id}`, batch_no: "B1", target: "school", bound_title: "Sunrise", title: "One year", status, expires_on: "2027-01-01", used_at: null, used_by: null, created_at: "2026-01-01T00:00:00.000Z",
});
const TABS = { total: 9, states: [{ value: "unused", count: 7 }, { value: "used", count: 1 }, { value: "void", count: 1 }] };

function codeServer() {
  return fakeWeapi((body) => {
    if (body.method !== "actcodelist") return { return_code: "FAIL", return_msg: "unexpected" };
    const rows = [code(3, "unused"), code(2, "used"), code(1, "void")].filter((r) => !body.status || r.status === body.status);
    return { return_code: "SUCCESS", return_msg: "", data: { items: rows, total: rows.length, tabs: TABS } };
  });
}

const renewal = (id: number, fee: string) => ({ id, school_title: "Sunrise No.1", way: "pay", title: "One year", term_months: 12, fee, old_end: "2026-01-01", new_end: "2027-01-01", operator: "svc", created_at: "2026-01-02T03:04:05.000Z" });

function renewalServer() {
  return fakeWeapi((body) =>
    body.method === "schoolrenewlist"
      ? { return_code: "SUCCESS", return_msg: "", data: { items: [renewal(2, "1000.00"), renewal(1, "600.50")], total: 5, summary: { count: 5, fee: "12345.67" } } }
      : { return_code: "FAIL", return_msg: "unexpected" },
  );
}

function tab(key: string): HTMLElement {
  return screen.getByTestId(`state-tab-${key}`);
}

function headers(): string[] {
  // the selection's column has no title
  return [...document.querySelectorAll(".ant-table-thead th")].map((th) => th.textContent ?? "").filter(Boolean);
}

describe("list tabs, summary and columns", { timeout: 20000 }, () => {
  const desktopWidth = window.innerWidth;
  beforeAll(async () => {
    await changeLanguage("en");
  });
  beforeEach(() => {
    clearCookies();
    window.localStorage.clear();
    setCookies({ ...SYSADMIN, userinfo: userinfo("sysadmin") });
  });
  afterEach(async () => {
    cleanup();
    vi.unstubAllGlobals();
    window.innerWidth = desktopWidth;
    await changeLanguage("en");
  });

  it("shows a tab per state with its count, sets the state filter from a tab and keeps it in the URL", async () => {
    const net = codeServer();
    renderCrud("/schoolv2/actcodelist");
    await screen.findByText("AAAA-BBBB-CCCC-DDDD-0003", {}, { timeout: 10000 });
    expect(within(screen.getByTestId("state-tabs")).getAllByRole("tab").map((t) => t.textContent)).toEqual(["All9", "Unused7", "Used1", "Void1"]);
    expect(tab("__all").closest(".ant-tabs-tab")?.classList.contains("ant-tabs-tab-active")).toBe(true);
    // the tabs are the state's filter: the filter bar does not ask it again
    expect(within(screen.getByTestId("list-filters")).queryByText("Status")).toBeNull();

    fireEvent.click(tab("void"));
    await waitFor(() => expect(net.of("actcodelist").at(-1)?.body).toMatchObject({ status: "void", page: 1 }));
    await waitFor(() => expect(screen.queryByText("AAAA-BBBB-CCCC-DDDD-0003")).toBeNull());
    expect(tab("void").closest(".ant-tabs-tab")?.classList.contains("ant-tabs-tab-active")).toBe(true);
    // the counts stand whatever the tab
    expect(within(tab("void")).getByTestId("state-tab-count").textContent).toBe("1");
    expect(within(tab("__all")).getByTestId("state-tab-count").textContent).toBe("9");
    const location = decodeURIComponent(screen.getByTestId("location").textContent ?? "");
    expect(location).toContain("filters[0][field]=status");
    expect(location).toContain("filters[0][value]=void");

    fireEvent.click(tab("__all"));
    await waitFor(() => expect(net.of("actcodelist").at(-1)?.body).not.toHaveProperty("status"));
    await screen.findByText("AAAA-BBBB-CCCC-DDDD-0003");
  });

  it("opens on the tab the URL names", async () => {
    const net = codeServer();
    renderCrud("/schoolv2/actcodelist?currentPage=1&pageSize=20&filters[0][field]=status&filters[0][operator]=eq&filters[0][value]=used");
    await screen.findByText("AAAA-BBBB-CCCC-DDDD-0002", {}, { timeout: 10000 });
    expect(net.of("actcodelist")[0].body).toMatchObject({ status: "used", page: 1, limit: 20 });
    expect(tab("used").closest(".ant-tabs-tab")?.classList.contains("ant-tabs-tab-active")).toBe(true);
  });

  it("shows a phone the filters the URL applies when it opens them", async () => {
    const net = codeServer();
    window.innerWidth = 390;
    renderCrud("/schoolv2/actcodelist?filters[0][field]=batch_no&filters[0][operator]=eq&filters[0][value]=B1");
    await screen.findAllByTestId("record-card", {}, { timeout: 10000 });
    expect(net.of("actcodelist")[0].body).toMatchObject({ batch_no: "B1" });
    fireEvent.click(screen.getByTestId("list-filters-toggle"));
    const filters = await screen.findByTestId("list-filters");
    await waitFor(() => expect(within(filters).getByDisplayValue("B1")).toBeTruthy());
  });

  it("shows the summary of the whole filter under the rows, in the user's language, and under the cards on a phone", async () => {
    setCookies({ select_user_type: "service", login_user_type: "service", is_superadmin: "N", select_sysid: "2" });
    renewalServer();
    const view = renderCrud("/schoolv2/schoolrenewlist");
    const summary = await screen.findByTestId("list-summary", {}, { timeout: 10000 });
    expect(summary.closest(".ant-table-footer")).not.toBeNull();
    expect(summary.textContent).toBe("Sum of 5 records:Price ¥12,345.67");
    // no state, no tabs
    expect(screen.queryByTestId("state-tabs")).toBeNull();
    view.unmount();

    await changeLanguage("zh");
    renderCrud("/schoolv2/schoolrenewlist");
    expect((await screen.findByTestId("list-summary", {}, { timeout: 10000 })).textContent).toBe("共 5 条合计：价格 ¥12,345.67");
    cleanup();

    await changeLanguage("es");
    window.innerWidth = 390;
    renderCrud("/schoolv2/schoolrenewlist");
    const phone = await screen.findByTestId("list-summary", {}, { timeout: 10000 });
    expect(phone.textContent).toBe("Suma de 5 registros:Precio ¥12.345,67");
    expect(phone.closest(".ant-list-footer")).not.toBeNull();
    expect(screen.getAllByTestId("record-card")).toHaveLength(2);
  });

  it("keeps the columns a user hides and moves for that user and list, and leaves a phone's cards whole", async () => {
    codeServer();
    const view = renderCrud("/schoolv2/actcodelist");
    await screen.findByText("AAAA-BBBB-CCCC-DDDD-0003", {}, { timeout: 10000 });
    const declared = headers();
    expect(declared.slice(0, 3)).toEqual(["Activation code", "Batch", "For"]);

    fireEvent.click(screen.getByTestId("column-settings"));
    const panel = await screen.findByTestId("column-settings-panel");
    fireEvent.click(within(within(panel).getByTestId("column-setting-batch_no")).getByRole("checkbox"));
    await waitFor(() => expect(headers()).not.toContain("Batch"));
    fireEvent.click(within(panel).getByRole("button", { name: "Move For up" }));
    fireEvent.click(within(panel).getByRole("button", { name: "Move For up" }));
    await waitFor(() => expect(headers().slice(0, 2)).toEqual(["For", "Activation code"]));
    view.unmount();

    // back on the list: as the user left it
    renderCrud("/schoolv2/actcodelist");
    await screen.findByText("AAAA-BBBB-CCCC-DDDD-0003", {}, { timeout: 10000 });
    expect(headers().slice(0, 2)).toEqual(["For", "Activation code"]);
    expect(headers()).not.toContain("Batch");
    cleanup();

    // another user of the same browser has the declared columns
    setCookies({ userinfo: userinfo("sysop") });
    renderCrud("/schoolv2/actcodelist");
    await screen.findByText("AAAA-BBBB-CCCC-DDDD-0003", {}, { timeout: 10000 });
    expect(headers()).toEqual(declared);
    cleanup();

    // a phone shows every listed field on its cards
    setCookies({ userinfo: userinfo("sysadmin") });
    window.innerWidth = 390;
    renderCrud("/schoolv2/actcodelist");
    const cards = await screen.findAllByTestId("record-card", {}, { timeout: 10000 });
    expect(within(cards[0]).getByText("Batch:", { exact: false })).toBeTruthy();
    expect(screen.queryByTestId("column-settings")).toBeNull();
    cleanup();

    // reset: the declared columns again
    window.innerWidth = desktopWidth;
    renderCrud("/schoolv2/actcodelist");
    await screen.findByText("AAAA-BBBB-CCCC-DDDD-0003", {}, { timeout: 10000 });
    fireEvent.click(screen.getByTestId("column-settings"));
    fireEvent.click(await screen.findByTestId("column-settings-reset"));
    await waitFor(() => expect(headers()).toEqual(declared));
  });
});
