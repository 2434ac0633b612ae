/**
 * The import dialog (src/engine/ImportDialog.tsx) on the student entity: the template saved as the server sends
 * it, the chosen .xlsx sent as base64 in the school the user acts in to be checked first, the progress shown and
 * the button held while the server works, then the row errors in a table that can be downloaded, or the preview
 * (rows ready, grades and classes to be created, accepted values) and, confirmed, the count imported; the errors'
 * CSV never hands a spreadsheet program a formula. Only fetch is fake.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { Route } from "react-router";
import { studentEntity } from "../../catalogue/schools";
import { changeLanguage } from "../../providers/i18n";
import { ImportButton } from "../../src/engine/ImportDialog";
import { renderCrud } from "../helpers/renderCrud";
import { catchDownloads } from "../helpers/downloads";
import { clearCookies, fakeWeapi, setCookies } from "../helpers/weapiFetch";

const XLSX_MIME = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";


function renderButton() {
  return renderCrud("/importtest", <Route path="importtest" element={<ImportButton entity={studentEntity} />} />);
}

function chooseFile(file: File) {
  const input = document.querySelector<HTMLInputElement>(".ant-modal input[type=file]");
  if (!input) throw new Error("no file input");
  fireEvent.change(input, { target: { files: [file] } });
}

const fileBytes = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3, 250]);
const fileBase64 = btoa(String.fromCharCode(...fileBytes));

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

describe("import dialog", { timeout: 20000 }, () => {
  it("saves the template, sends the file in the chosen school with progress shown, and lists the row errors for download", async () => {
    const saved = catchDownloads();
    let answerImport: (envelope: unknown) => void = () => undefined;
    const net = fakeWeapi((body) => {
      if (body.method === "studenttemplate") {
        return { return_code: "SUCCESS", return_msg: "", data: { items: { filename: "student-import-template.xlsx", mime: XLSX_MIME, content_base64: btoa("template") } } };
      }
      if (body.method === "studentimport") return new Promise((resolve) => (answerImport = resolve));
      return { return_code: "SUCCESS", return_msg: "", data: { items: [], total: 0 } };
    });
    renderButton();
    fireEvent.click(await screen.findByTestId("import-button", {}, { timeout: 10000 }));
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByText("Import: Student")).toBeTruthy();
    expect(within(dialog).getByText(/Grade \/ Class: matched by name, created when missing/)).toBeTruthy();

    fireEvent.click(within(dialog).getByTestId("import-template"));
    await waitFor(() => expect(saved.map((s) => s.filename)).toEqual(["student-import-template.xlsx"]));
    expect(net.of("studenttemplate")[0].body).toEqual({ method: "studenttemplate", sysid: "2", sch_id: "5" });
    expect(await saved[0].blob.text()).toBe("template");

    const start = within(dialog).getByTestId("import-start") as HTMLButtonElement;
    expect(start.disabled).toBe(true);
    // the grey button says why
    expect(within(dialog).getByTestId("import-waiting").textContent).toBe("Choose a file first");
    // not an .xlsx: refused in the page, nothing to send
    chooseFile(new File(["a,b"], "students.csv", { type: "text/csv" }));
    expect(await within(dialog).findByText("Choose an .xlsx file", { selector: ".ant-alert-message" })).toBeTruthy();
    expect(start.disabled).toBe(true);

    chooseFile(new File([fileBytes], "students.xlsx", { type: XLSX_MIME }));
    await waitFor(() => expect(start.disabled).toBe(false));
    expect(within(dialog).queryByTestId("import-waiting")).toBeNull();
    fireEvent.click(start);

    // the server works: progress shown, the dialog held open and the button busy
    const progress = await within(dialog).findByTestId("import-progress");
    expect(progress.querySelector(".ant-progress")).toBeTruthy();
    await waitFor(() => expect(net.of("studentimport")).toHaveLength(1));
    expect(within(progress).getByText(/Checking the file; nothing is written yet/)).toBeTruthy();
    expect((within(dialog).getByTestId("import-close") as HTMLButtonElement).disabled).toBe(true);
    // checked first, nothing written
    expect(net.of("studentimport")[0].body).toEqual({ method: "studentimport", sysid: "2", sch_id: "5", filename: "students.xlsx", content_base64: fileBase64, preview: true });

    answerImport({
      return_code: "FAIL",
      return_msg: "The file has 2 errors: nothing was imported",
      data: {
        items: {
          preview: true,
          total: 3,
          imported: 0,
          error_count: 2,
          errors: [
            { row: 3, field: "guardian_phone", message: "Guardian's phone is not a valid phone number" },
            { row: 4, field: "student_no", message: "Student number S1 is also in row 2" },
          ],
        },
      },
    });
    const result = await within(dialog).findByTestId("import-result");
    expect(within(result).getByText("Nothing was imported")).toBeTruthy();
    expect(within(result).getByText("The file has 2 errors: nothing was imported")).toBeTruthy();
    const rows = [...within(result).getByTestId("import-errors").querySelectorAll("tbody tr")].map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent));
    expect(rows).toEqual([
      ["3", "Guardian's phone", "Guardian's phone is not a valid phone number"],
      ["4", "Student number", "Student number S1 is also in row 2"],
    ]);
    expect(within(dialog).queryByTestId("import-progress")).toBeNull();

    fireEvent.click(within(result).getByTestId("import-download-errors"));
    await waitFor(() => expect(saved).toHaveLength(2));
    expect(saved[1].filename).toBe("import-errors-student.csv");
    const csv = await saved[1].blob.text();
    expect(csv.replace(/^\uFEFF/, "").split("\r\n")).toEqual([
      "Row,Field,Error",
      "3,Guardian's phone,Guardian's phone is not a valid phone number",
      "4,Student number,Student number S1 is also in row 2",
      "",
    ]);
  });

  it("shows what the file would create and the accepted values, then imports the checked file when confirmed", async () => {
    const net = fakeWeapi((body) => {
      if (body.method !== "studentimport") return { return_code: "SUCCESS", return_msg: "", data: { items: [], total: 0 } };
      const creates = [
        { field: "grade_id", entity: "grade", titles: ["Grade Elevn"] },
        { field: "class_id", entity: "classes", titles: ["Grade Elevn / Class A"] },
      ];
      const choices = [{ field: "sex", values: ["Male", "Female"] }];
      return body.preview
        ? { return_code: "SUCCESS", return_msg: "3 rows checked and ready to import", data: { items: { preview: true, total: 3, imported: 0, errors: [], creates, choices } } }
        : { return_code: "SUCCESS", return_msg: "3 records imported", data: { items: { log_id: 10, total: 3, imported: 3, errors: [], creates, choices } } };
    });
    renderButton();
    fireEvent.click(await screen.findByTestId("import-button", {}, { timeout: 10000 }));
    const dialog = await screen.findByRole("dialog");
    chooseFile(new File([fileBytes], "students.xlsx", { type: XLSX_MIME }));
    const start = within(dialog).getByTestId("import-start") as HTMLButtonElement;
    await waitFor(() => expect(start.disabled).toBe(false));
    fireEvent.click(start);

    const preview = await within(dialog).findByTestId("import-preview");
    expect(within(preview).getByText("3 rows checked and ready to import")).toBeTruthy();
    expect(within(preview).getByTestId("import-creates").textContent).toContain("Grade: Grade Elevn");
    expect(within(preview).getByTestId("import-creates").textContent).toContain("Class: Grade Elevn / Class A");
    expect(within(preview).getByTestId("import-choices").textContent).toContain("Male, Female");
    expect(net.of("studentimport")).toHaveLength(1);

    fireEvent.click(within(dialog).getByTestId("import-confirm"));
    const result = await within(dialog).findByTestId("import-result");
    expect(within(result).getByText("3 records imported")).toBeTruthy();
    expect(result.textContent).toContain("Grade Elevn / Class A");
    // the same file, read once, now imported
    expect(net.of("studentimport")[1].body).toEqual({ method: "studentimport", sysid: "2", sch_id: "5", filename: "students.xlsx", content_base64: fileBase64 });
    expect(within(dialog).queryByTestId("import-errors")).toBeNull();
    fireEvent.click(within(dialog).getByTestId("import-again"));
    expect(await within(dialog).findByTestId("import-template")).toBeTruthy();
  });

  it("saves the row errors as CSV whose texts no spreadsheet program reads as formulas (OWASP CSV injection)", async () => {
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
    renderButton();
    fireEvent.click(await screen.findByTestId("import-button", {}, { timeout: 10000 }));
    const dialog = await screen.findByRole("dialog");
    chooseFile(new File([fileBytes], "students.xlsx", { type: XLSX_MIME }));
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
});
