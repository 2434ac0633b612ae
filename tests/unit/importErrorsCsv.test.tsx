/**
 * The import dialog's row errors saved as CSV (src/engine/ImportDialog.tsx) keep every text a text: a message
 * starting with `=`, `+`, `-`, `@`, a tab or a carriage return gets a single quote before it (OWASP CSV injection,
 * common/spreadsheetCell.ts), quoted as CSV quotes it; the row numbers stay numbers. Only fetch is fake.
 */
import { afterEach, beforeAll, beforeEach, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { Route } from "react-router";
import { studentEntity } from "../../catalogue/schools";
import { changeLanguage } from "../../providers/i18n";
import { ImportButton } from "../../src/engine/ImportDialog";
import { renderCrud } from "../helpers/renderCrud";
import { catchDownloads } from "../helpers/downloads";
import { clearCookies, fakeWeapi, setCookies } from "../helpers/weapiFetch";

const XLSX_MIME = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";


beforeAll(async () => {
  await changeLanguage("en");
});
beforeEach(() => {
  clearCookies();
  setCookies({ token: "tok", select_user_type: "service", login_user_type: "service", servicer_ver: "v2", language: "en", select_sysid: "2", select_schid: "5" });
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

it("saves the row errors as CSV whose texts no spreadsheet program reads as formulas", { timeout: 20000 }, async () => {
  const saved = catchDownloads();
  const messages = ['=HYPERLINK("http://x","y")', "+1 is not allowed", "-2+3", "@SUM(A1)", "\t=1+1", "\r=1+1", "A plain message"];
  fakeWeapi((body) =>
    body.method === "studentimport"
      ? {
          return_code: "FAIL",
          return_msg: "Nothing was imported",
          data: { items: { log_id: 1, total: messages.length, imported: 0, error_count: messages.length, errors: messages.map((message, i) => ({ row: i + 2, field: "name", message })) } },
        }
      : { return_code: "SUCCESS", return_msg: "", data: { items: [], total: 0 } },
  );
  renderCrud("/importtest", <Route path="importtest" element={<ImportButton entity={studentEntity} />} />);
  fireEvent.click(await screen.findByTestId("import-button", {}, { timeout: 10000 }));
  const dialog = await screen.findByRole("dialog");
  const input = document.querySelector<HTMLInputElement>(".ant-modal input[type=file]");
  if (!input) throw new Error("no file input");
  fireEvent.change(input, { target: { files: [new File([new Uint8Array([0x50, 0x4b, 3, 4])], "students.xlsx", { type: XLSX_MIME })] } });
  const start = within(dialog).getByTestId("import-start") as HTMLButtonElement;
  await waitFor(() => expect(start.disabled).toBe(false));
  fireEvent.click(start);
  const result = await within(dialog).findByTestId("import-result");
  fireEvent.click(within(result).getByTestId("import-download-errors"));
  await waitFor(() => expect(saved).toHaveLength(1));
  const csv = (await saved[0]!.blob.text()).replace(/^\uFEFF/, "");
  expect(csv).toBe(
    [
      "Row,Field,Error",
      `2,Student name,"'=HYPERLINK(""http://x"",""y"")"`,
      "3,Student name,'+1 is not allowed",
      "4,Student name,'-2+3",
      "5,Student name,'@SUM(A1)",
      "6,Student name,'\t=1+1",
      '7,Student name,"\'\r=1+1"',
      "8,Student name,A plain message",
      "",
    ].join("\r\n"),
  );
});
