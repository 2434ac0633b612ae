/**
 * The import dialog for an import into a chosen record (ImportDecl.into), on the bill import: the activity is asked
 * first, among the draft and open activities of the provider's schools, each named with its school and state; the
 * template, the check and the import then name it (and no school is asked: the activity's is the import's), and the
 * row errors name the activity's fee items by the labels the server answers. Only fetch is fake.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { Route } from "react-router";
import { billEntity } from "../../catalogue/collection";
import { changeLanguage } from "../../providers/i18n";
import { ImportButton } from "../../src/engine/ImportDialog";
import { renderCrud } from "../helpers/renderCrud";
import { catchDownloads } from "../helpers/downloads";
import { clearCookies, fakeWeapi, setCookies } from "../helpers/weapiFetch";

const XLSX_MIME = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
const fileBytes = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3, 250]);
const fileBase64 = btoa(String.fromCharCode(...fileBytes));

const activities: Record<string, { id: number; title: string; sch_id: number; sch_title: string; status: string }[]> = {
  open: [{ id: 7, title: "Autumn fees", sch_id: 5, sch_title: "Sunrise No.1", status: "open" }],
  draft: [{ id: 9, title: "Winter camp", sch_id: 6, sch_title: "Sunrise No.2", status: "draft" }],
};

beforeAll(async () => {
  await changeLanguage("en");
});
beforeEach(() => {
  clearCookies();
  // a provider working across its schools: no school chosen
  setCookies({ token: "tok", select_user_type: "service", login_user_type: "service", servicer_ver: "v2", language: "en", select_sysid: "2" });
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe("bill import dialog", { timeout: 20000 }, () => {
  it("asks for the activity first, then sends the template, the check and the import for it, and labels the items' errors", async () => {
    const saved = catchDownloads();
    const net = fakeWeapi((body) => {
      if (body.method === "activitylist") return { return_code: "SUCCESS", return_msg: "", data: { items: activities[String(body.status)] ?? [], total: 1 } };
      if (body.method === "billimporttemplate") return { return_code: "SUCCESS", return_msg: "", data: { items: { filename: "bill-import-9.xlsx", mime: XLSX_MIME, content_base64: btoa("template") } } };
      if (body.method === "billimport") {
        return {
          return_code: "FAIL",
          return_msg: "The file has 1 error: nothing was imported",
          data: {
            items: {
              preview: true,
              total: 2,
              imported: 0,
              error_count: 1,
              errors: [{ row: 3, field: "item_41", message: "Tuition: “abc” is not an amount" }],
              columns: [
                { field: "student_no", label: "Student number" },
                { field: "item_41", label: "Tuition" },
              ],
            },
          },
        };
      }
      return { return_code: "SUCCESS", return_msg: "", data: { items: [], total: 0 } };
    });
    renderCrud("/importtest", <Route path="importtest" element={<ImportButton entity={billEntity} />} />);
    fireEvent.click(await screen.findByTestId("import-button", {}, { timeout: 10000 }));
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByText("Import: Bill")).toBeTruthy();
    expect(within(dialog).getByText(/A blank cell bills what opening the activity would/)).toBeTruthy();
    // nothing before the activity: no template, no school to choose, and the reason said
    expect((within(dialog).getByTestId("import-template") as HTMLButtonElement).disabled).toBe(true);
    expect(within(dialog).queryByTestId("import-school")).toBeNull();
    expect(within(dialog).getByTestId("import-waiting").textContent).toBe("Choose the Activity to import into first");

    // the draft and open activities of the provider's schools, each with its school and state
    await waitFor(() => expect(net.of("activitylist")).toHaveLength(2));
    expect(net.of("activitylist").map((c) => c.body.status).sort()).toEqual(["draft", "open"]);
    expect(net.of("activitylist")[0].body).toMatchObject({ sysid: "2", page: 1 });
    fireEvent.mouseDown(within(dialog).getByTestId("import-into").querySelector(".ant-select-selector")!);
    await screen.findByText("Autumn fees · Sunrise No.1 · Open", { selector: ".ant-select-item-option-content" });
    expect([...document.querySelectorAll(".ant-select-item-option-content")].map((o) => o.textContent)).toEqual(["Winter camp · Sunrise No.2 · Draft", "Autumn fees · Sunrise No.1 · Open"]);
    fireEvent.click(await screen.findByText("Winter camp · Sunrise No.2 · Draft", { selector: ".ant-select-item-option-content" }));

    const template = within(dialog).getByTestId("import-template") as HTMLButtonElement;
    await waitFor(() => expect(template.disabled).toBe(false));
    fireEvent.click(template);
    await waitFor(() => expect(saved.map((s) => s.filename)).toEqual(["bill-import-9.xlsx"]));
    expect(net.of("billimporttemplate")[0].body).toEqual({ method: "billimporttemplate", sysid: "2", activity_id: 9 });

    const input = document.querySelector<HTMLInputElement>(".ant-modal input[type=file]")!;
    fireEvent.change(input, { target: { files: [new File([fileBytes], "bills.xlsx", { type: XLSX_MIME })] } });
    const start = within(dialog).getByTestId("import-start") as HTMLButtonElement;
    await waitFor(() => expect(start.disabled).toBe(false));
    fireEvent.click(start);
    const result = await within(dialog).findByTestId("import-result");
    expect(net.of("billimport")[0].body).toEqual({ method: "billimport", sysid: "2", activity_id: 9, filename: "bills.xlsx", content_base64: fileBase64, preview: true });
    const rows = [...within(result).getByTestId("import-errors").querySelectorAll("tbody tr")].map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent));
    expect(rows).toEqual([["3", "Tuition", "Tuition: “abc” is not an amount"]]);
  });
});
