/**
 * The generic list page on the provider entity: spec 2.4 pagination, filters and sort as sent to the server,
 * and the buttons to the hidden add / edit routes. Only fetch is fake.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import dayjs from "dayjs";
import { changeLanguage } from "../../providers/i18n";
import { clearCookies, fakeWeapi, setCookies } from "../helpers/weapiFetch";
import { renderCrud } from "../helpers/renderCrud";

const rows = [
  { id: 2, title: "Sunrise Campus Services", contact: "Li Lei", phone: "13800000000", servicer_ver: "v2", end_time: "2026-12-01", xcx_upload: "Y", status: "1", created_at: "2026-01-02T03:04:05.000Z" },
  { id: 1, title: "Old Town Education", contact: "Han Meimei", phone: "13900000000", servicer_ver: "v1", end_time: "2027-01-01", xcx_upload: "N", status: "0", created_at: "2026-01-01T00:00:00.000Z" },
];

function listServer() {
  return fakeWeapi((body) =>
    body.method === "servicelist"
      ? { return_code: "SUCCESS", return_msg: "", data: { items: rows, total: 95 } }
      : { return_code: "FAIL", return_msg: "unexpected" },
  );
}

function openSelect(container: HTMLElement) {
  const selector = container.querySelector(".ant-select-selector");
  if (!selector) throw new Error("no select");
  fireEvent.mouseDown(selector);
}

async function chooseOption(title: string) {
  const option = await waitFor(() => {
    const found = [...document.querySelectorAll<HTMLElement>(".ant-select-item-option")].find(
      (o) => o.getAttribute("title") === title && !o.closest(".ant-select-dropdown-hidden"),
    );
    if (!found) throw new Error(`option ${title} not shown`);
    return found;
  });
  fireEvent.click(option);
}

function cell(date: string): HTMLElement {
  const found = document.querySelector<HTMLElement>(`.ant-picker-dropdown td[title="${date}"] .ant-picker-cell-inner`);
  if (!found) throw new Error(`no calendar cell ${date}`);
  return found;
}

function formItem(label: string): HTMLElement {
  const item = screen.getByText(label, { selector: "label" }).closest(".ant-form-item");
  if (!item) throw new Error(`no form item ${label}`);
  return item as HTMLElement;
}

describe("generic list page (provider entity)", { timeout: 20000 }, () => {
  beforeAll(async () => {
    await changeLanguage("en");
  });
  beforeEach(() => {
    clearCookies();
    setCookies({ token: "tok", select_user_type: "system", login_user_type: "system", servicer_ver: "v2", is_superadmin: "Y", language: "en" });
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it("asks for page 1 of 20 in the default order and shows the spec 2.4 pagination", async () => {
    const net = listServer();
    renderCrud("/servicev2/servicelist");
    await screen.findByText("Sunrise Campus Services", {}, { timeout: 10000 });
    expect(net.of("servicelist")[0].body).toEqual({ method: "servicelist", page: 1, limit: 20, sort: "-id" });

    expect(screen.getByText("95 in total")).toBeTruthy();
    const pagination = document.querySelector(".ant-pagination") as HTMLElement;
    expect(within(pagination).getByTitle("Previous Page")).toBeTruthy();
    expect(within(pagination).getByTitle("Next Page")).toBeTruthy();
    expect(within(pagination).getByTitle("5")).toBeTruthy();
    expect(pagination.querySelector(".ant-pagination-options-quick-jumper input")).toBeTruthy();
    const sizeChanger = pagination.querySelector(".ant-pagination-options-size-changer") as HTMLElement;
    expect(sizeChanger.textContent).toContain("20 / page");
    openSelect(sizeChanger);
    await chooseOption("50 / page");
    const options = [...document.querySelectorAll(".ant-select-item-option")].map((o) => o.getAttribute("title"));
    expect(options).toEqual(["10 / page", "20 / page", "30 / page", "50 / page"]);
    await waitFor(() => expect(net.of("servicelist").at(-1)?.body).toMatchObject({ page: 1, limit: 50 }));
  });

  it("shows the declared columns with translated labels and values", async () => {
    listServer();
    renderCrud("/servicev2/servicelist");
    await screen.findByText("Sunrise Campus Services", {}, { timeout: 10000 });
    const headers = [...document.querySelectorAll(".ant-table-thead th")].map((th) => th.textContent);
    expect(headers).toEqual(["ID", "Provider name", "Contact person", "Phone", "Version", "Term ends", "Mini-program upload", "Status", "Created", "Actions"]);
    expect(screen.getByText("Disabled")).toBeTruthy();
    expect(screen.getByText("New (v2)")).toBeTruthy();
  });

  it("changes page on the server and scrolls back to the top in 800 ms", async () => {
    const net = listServer();
    const scroller = { scrollTop: 600 };
    Object.defineProperty(document, "scrollingElement", { value: scroller, configurable: true });
    try {
      renderCrud("/servicev2/servicelist");
      await screen.findByText("Sunrise Campus Services", {}, { timeout: 10000 });
      // the animation's clock only: the page and the fake network keep real time
      vi.useFakeTimers({ toFake: ["requestAnimationFrame", "cancelAnimationFrame", "performance"] });
      fireEvent.click(screen.getByTitle("2"));
      await waitFor(() => expect(net.of("servicelist").at(-1)?.body).toEqual({ method: "servicelist", page: 2, limit: 20, sort: "-id" }));
      await waitFor(() => expect(screen.getByTestId("location").textContent).toContain("currentPage=2"));
      act(() => {
        vi.advanceTimersByTime(400);
      });
      // half-way through the 800 ms
      expect(scroller.scrollTop).toBeGreaterThan(0);
      expect(scroller.scrollTop).toBeLessThan(600);
      act(() => {
        vi.advanceTimersByTime(399);
      });
      expect(scroller.scrollTop).toBeGreaterThan(0);
      act(() => {
        vi.advanceTimersByTime(20);
      });
      expect(scroller.scrollTop).toBe(0);
    } finally {
      vi.useRealTimers();
      Reflect.deleteProperty(document, "scrollingElement");
    }
  });

  it("sends the filters: like as text, eq from a select, range as start and end", async () => {
    const net = listServer();
    renderCrud("/servicev2/servicelist");
    await screen.findByText("Sunrise Campus Services", {}, { timeout: 10000 });

    fireEvent.change(within(formItem("Provider name")).getByRole("textbox"), { target: { value: "  Sun " } });
    openSelect(formItem("Status"));
    await chooseOption("Disabled");
    openSelect(formItem("Version"));
    await chooseOption("Classic (v1)");
    // pick the range in the calendar panel: the first and the tenth day of the month it opens on
    const [start] = within(formItem("Term ends")).getAllByRole("textbox");
    fireEvent.mouseDown(start);
    fireEvent.click(start);
    const first = dayjs().startOf("month");
    const tenth = first.add(9, "day");
    fireEvent.click(await waitFor(() => cell(first.format("YYYY-MM-DD"))));
    fireEvent.click(await waitFor(() => cell(tenth.format("YYYY-MM-DD"))));

    fireEvent.click(screen.getByRole("button", { name: /Search/ }));
    await waitFor(() =>
      expect(net.of("servicelist").at(-1)?.body).toEqual({
        method: "servicelist",
        page: 1,
        limit: 20,
        sort: "-id",
        title: "Sun",
        status: "0",
        servicer_ver: "v1",
        end_time_start: first.format("YYYY-MM-DD"),
        end_time_end: tenth.format("YYYY-MM-DD"),
      }),
    );

    fireEvent.click(screen.getByRole("button", { name: /Reset/ }));
    await waitFor(() => expect(net.of("servicelist").at(-1)?.body).toEqual({ method: "servicelist", page: 1, limit: 20, sort: "-id" }));
  });

  it("sorts on the server when a sortable column header is clicked", async () => {
    const net = listServer();
    renderCrud("/servicev2/servicelist");
    await screen.findByText("Sunrise Campus Services", {}, { timeout: 10000 });
    // the table also renders its titles in a measuring row: take the header cell's
    const header = () => within(document.querySelector(".ant-table-thead") as HTMLElement).getAllByText("Provider name")[0];
    fireEvent.click(header());
    await waitFor(() => expect(net.of("servicelist").at(-1)?.body).toMatchObject({ sort: "title", page: 1 }));
    fireEvent.click(header());
    await waitFor(() => expect(net.of("servicelist").at(-1)?.body).toMatchObject({ sort: "-title" }));
  });

  it("opens the hidden edit route of its own generation for a row", async () => {
    listServer();
    renderCrud("/servicev2/servicelist");
    await screen.findByText("Sunrise Campus Services", {}, { timeout: 10000 });
    fireEvent.click(screen.getAllByRole("button", { name: /Edit/ })[1]);
    await waitFor(() => expect(screen.getByTestId("location").textContent).toBe("/servicev2/serviceedit/1"));
  });

  it("offers the provider's contract maintenance and activation codes on each row, opened with the row's id", async () => {
    listServer();
    renderCrud("/servicev2/servicelist");
    await screen.findByText("Sunrise Campus Services", {}, { timeout: 10000 });
    expect(screen.getAllByTestId("row-servicedelayv2").map((b) => b.textContent)).toEqual(["Contract maintenance", "Contract maintenance"]);
    fireEvent.click(screen.getAllByTestId("row-serviceactcode")[0]);
    await waitFor(() => expect(screen.getByTestId("location").textContent).toBe("/servicev2/serviceactcode/2"));
  });

  it("keeps the v1 provider list free of v2 record pages", async () => {
    setCookies({ servicer_ver: "v1" });
    listServer();
    renderCrud("/service/servicelist");
    await screen.findByText("Sunrise Campus Services", {}, { timeout: 10000 });
    expect(screen.queryByTestId("row-servicedelayv2")).toBeNull();
  });

  it("serves the v1 route with v1 role keys, and offers add only to those allowed to add", async () => {
    setCookies({ servicer_ver: "v1" });
    listServer();
    renderCrud("/service/servicelist");
    await screen.findByText("Sunrise Campus Services", {}, { timeout: 10000 });
    fireEvent.click(await screen.findByRole("button", { name: /Add/ }));
    await waitFor(() => expect(screen.getByTestId("location").textContent).toBe("/service/serviceadd"));
  });

  it("hides add and edit from role keys the entity does not allow them to", async () => {
    // a provider's staff may not list providers; the page must not offer writes it would be refused
    setCookies({ select_user_type: "service_schadmin" });
    listServer();
    renderCrud("/servicev2/servicelist");
    await screen.findByText("Sunrise Campus Services", {}, { timeout: 10000 });
    expect(screen.queryByRole("button", { name: /Add/ })).toBeNull();
    expect(screen.queryByRole("button", { name: /Edit/ })).toBeNull();
  });
});

describe("generic list page under 992 px", { timeout: 20000 }, () => {
  const desktopWidth = window.innerWidth;
  beforeAll(async () => {
    await changeLanguage("en");
  });
  beforeEach(() => {
    clearCookies();
    setCookies({ token: "tok", select_user_type: "system", login_user_type: "system", servicer_ver: "v2", is_superadmin: "Y", language: "en" });
    window.innerWidth = 390;
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    window.innerWidth = desktopWidth;
  });

  it("shows a compact card per row: its title, its status, every listed field by its label and the row's buttons, the pages beyond its line in a menu", async () => {
    listServer();
    renderCrud("/servicev2/servicelist");
    const cards = await screen.findAllByTestId("record-card", {}, { timeout: 10000 });
    expect(cards).toHaveLength(2);
    expect(document.querySelector(".ant-table")).toBeNull();
    const first = within(cards[0]);
    expect(first.getByTestId("record-card-title").textContent).toBe("Sunrise Campus Services");
    expect(first.getByTestId("record-card-status").textContent).toBe("Enabled");
    expect(within(first.getByTestId("record-card-fields")).getByText("Contact person:", { exact: false }).parentElement?.textContent).toBe("Contact person: Li Lei");
    expect(first.getByTestId("row-servicedelayv2")).toBeTruthy();
    fireEvent.click(first.getByTestId("record-card-more"));
    fireEvent.click(await screen.findByTestId("row-serviceactcode"));
    await waitFor(() => expect(screen.getByTestId("location").textContent).toBe("/servicev2/serviceactcode/2"));
  });

  it("folds the filters behind a toggle and sorts from a menu", async () => {
    const net = listServer();
    renderCrud("/servicev2/servicelist");
    await screen.findAllByTestId("record-card", {}, { timeout: 10000 });
    expect(screen.queryByTestId("list-filters")).toBeNull();
    fireEvent.click(screen.getByTestId("list-filters-toggle"));
    fireEvent.change(within(await screen.findByTestId("list-filters")).getByPlaceholderText("Provider name"), { target: { value: "Sun" } });
    fireEvent.click(screen.getByRole("button", { name: /Search/ }));
    await waitFor(() => expect(net.of("servicelist").at(-1)?.body).toMatchObject({ title: "Sun", page: 1 }));
    await waitFor(() => expect(screen.queryByTestId("list-filters")).toBeNull());

    openSelect(screen.getByTestId("list-sort").closest(".ant-select") as HTMLElement);
    await chooseOption("Provider name ↑");
    await waitFor(() => expect(net.of("servicelist").at(-1)?.body).toMatchObject({ sort: "title", title: "Sun" }));
  });
});
