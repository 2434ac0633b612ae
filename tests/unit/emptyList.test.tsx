/**
 * An empty generic list says what to do next: with filters applied, that nothing matches and a button that
 * clears them; without, that there are no records yet, with a button to add the first one and one to import
 * them where the user may, or only that when the user may do neither. Only fetch is fake.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { changeLanguage } from "../../providers/i18n";
import { clearCookies, fakeWeapi, setCookies } from "../helpers/weapiFetch";
import { renderCrud } from "../helpers/renderCrud";
import { en } from "../helpers/locales";

const row = { id: 2, title: "Sunrise Campus Services", contact: "Li Lei", phone: "13800000000", servicer_ver: "v2", end_time: "2099-12-01", xcx_upload: "Y", status: "1", created_at: "2026-01-02T03:04:05.000Z" };

/** Every list answers empty, except the provider list, which holds one provider named Sunrise. */
function server() {
  return fakeWeapi((body) => {
    const items = body.method === "servicelist" && (!body.title || row.title.includes(String(body.title))) ? [row] : [];
    return { return_code: "SUCCESS", return_msg: "", data: { items, total: items.length } };
  });
}

const location = () => screen.getByTestId("location").textContent ?? "";

beforeAll(async () => {
  await changeLanguage("en");
});
beforeEach(() => {
  clearCookies();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("an empty list", { timeout: 20000 }, () => {
  beforeEach(() => setCookies({ token: "tok", select_user_type: "system", login_user_type: "system", servicer_ver: "v2", is_superadmin: "Y", language: "en" }));

  it("with filters applied: says no record matches, and its button clears the filters", async () => {
    const net = server();
    renderCrud("/servicev2/servicelist");
    await screen.findByText(row.title, {}, { timeout: 10000 });
    const filters = screen.getByTestId("list-filters");
    fireEvent.change(within(filters).getByLabelText("Provider name"), { target: { value: "Harbour" } });
    fireEvent.click(within(filters).getByRole("button", { name: /Search/ }));

    const empty = await screen.findByTestId("list-empty-filtered");
    expect(empty.textContent).toContain(en.crud.empty_filtered);
    expect(screen.queryByTestId("list-empty-add")).toBeNull();
    fireEvent.click(within(empty).getByTestId("list-clear-filters"));
    await screen.findByText(row.title);
    expect(net.of("servicelist").at(-1)?.body).toEqual({ method: "servicelist", page: 1, limit: 20, sort: "-id" });
    expect((within(filters).getByLabelText("Provider name") as HTMLInputElement).value).toBe("");
    expect(location()).not.toContain("Harbour");
  });

  it("without filters, to whoever may add: no records yet, and a button to add the first", async () => {
    server();
    renderCrud("/schoolv2/meallist");
    const empty = await screen.findByTestId("list-empty", {}, { timeout: 10000 });
    expect(empty.textContent).toContain(en.crud.empty);
    expect(empty.textContent).toContain(en.crud.empty_add);
    expect(within(empty).queryByTestId("list-empty-import")).toBeNull();
    fireEvent.click(within(empty).getByTestId("list-empty-add"));
    await waitFor(() => expect(location()).toBe("/schoolv2/mealadd"));
  });

  it("without filters, to whoever may neither add nor import: only that there are no records yet", async () => {
    server();
    renderCrud("/servicev2/servicedelaylist");
    const empty = await screen.findByTestId("list-empty", {}, { timeout: 10000 });
    expect(empty.querySelector(".ant-empty-description")?.textContent).toBe(en.crud.empty);
    expect(within(empty).queryAllByRole("button")).toHaveLength(0);
  });
});

/** Answers an empty student list until the import has written its rows; the import checks, then writes. */
function importServer() {
  let imported = false;
  const student = { id: 1, name: "Zhou Jie", student_no: "S1", sex: "1", status: "1", sch_id: 5 };
  return fakeWeapi((body) => {
    if (body.method === "studentimport") {
      if (body.preview) return { return_code: "SUCCESS", return_msg: "1 row checked and ready to import", data: { items: { preview: true, total: 1, imported: 0, errors: [], creates: [], choices: [] } } };
      imported = true;
      return { return_code: "SUCCESS", return_msg: "1 record imported", data: { items: { log_id: 10, total: 1, imported: 1, errors: [], creates: [], choices: [] } } };
    }
    const items = body.method === "studentlist" && imported ? [student] : [];
    return { return_code: "SUCCESS", return_msg: "", data: { items, total: items.length } };
  });
}

describe("an empty list of an entity with an import", { timeout: 20000 }, () => {
  it("an import started from the empty list shows its result while the list fills with the rows imported", async () => {
    importServer();
    renderCrud("/activity/studentlist");
    fireEvent.click(within(await screen.findByTestId("list-empty", {}, { timeout: 10000 })).getByTestId("list-empty-import"));
    const dialog = await screen.findByRole("dialog");
    const input = dialog.querySelector<HTMLInputElement>("input[type=file]");
    fireEvent.change(input as HTMLInputElement, { target: { files: [new File([new Uint8Array([0x50, 0x4b, 3, 4])], "students.xlsx", { type: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" })] } });
    const start = within(dialog).getByTestId("import-start") as HTMLButtonElement;
    await waitFor(() => expect(start.disabled).toBe(false));
    fireEvent.click(start);
    fireEvent.click(await within(dialog).findByTestId("import-confirm"));
    expect(await within(dialog).findByText("1 record imported")).toBeTruthy();
    // the list has read its new rows, and the result is still there to read
    await screen.findByText("Zhou Jie");
    expect(screen.queryByTestId("list-empty")).toBeNull();
    expect(within(screen.getByRole("dialog")).getByTestId("import-result")).toBeTruthy();
  });

  beforeEach(() => setCookies({ token: "tok", select_user_type: "service", login_user_type: "service", servicer_ver: "v2", language: "en", select_sysid: "2", select_schid: "5" }));

  it("offers to add the first record or to import them", async () => {
    server();
    renderCrud("/activity/studentlist");
    const empty = await screen.findByTestId("list-empty", {}, { timeout: 10000 });
    expect(empty.textContent).toContain(en.crud.empty_add_import);
    expect(within(empty).getByTestId("list-empty-add")).toBeTruthy();
    fireEvent.click(within(empty).getByTestId("list-empty-import"));
    expect(within(await screen.findByRole("dialog")).getByText(/Import/)).toBeTruthy();
  });
});
