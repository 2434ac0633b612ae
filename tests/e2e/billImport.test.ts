/**
 * The bill import in the browser (v2 provider, the page activityimportlog): the Import button asks for the activity
 * first; the template for it, headed by its fee items, is downloaded; a file filled from it is checked, then
 * imported; the log lists the import, and the bill has the imported amount.
 */
import fs from "node:fs";
import ExcelJS from "exceljs";
import { expect, test } from "vitest";
import { animationsSettled, cookieValue, describeInBrowser, dismissExpiryReminder, login } from "../helpers/browser";
import { en } from "../helpers/locales";
import { api } from "../helpers/server";

type Row = Record<string, unknown>;
const { collection } = en;

describeInBrowser("bill import", (suite) => {
  test("the provider chooses an open activity, fills its template and imports a student's bill", async () => {
    const { page } = suite;
    await login(page, suite.url, "svc");
    await dismissExpiryReminder(page);
    const token = await cookieValue(page, "token");
    await page.goto(`${suite.url}/activity/activityimportlog`);
    await page.getByTestId("import-button").filter({ visible: true }).first().click();
    const dialog = page.locator(".ant-modal").filter({ visible: true });
    await animationsSettled(page);
    expect(await dialog.getByTestId("import-waiting").innerText()).toBe(en.import.into.need_record.replace("{{label}}", collection.entity.activity));

    await dialog.getByTestId("import-into").click();
    const option = page.locator(".ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option").filter({ hasText: `Sunrise No.1 Primary School · ${collection.activity_status.open}` }).first();
    const activityTitle = (await option.innerText()).split(" · ")[0];
    await option.click();
    await animationsSettled(page);

    // the template: the student's number and name, then the activity's items
    const download = page.waitForEvent("download");
    await dialog.getByTestId("import-template").click();
    const file = await download;
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(fs.readFileSync((await file.path())!) as never);
    const sheet = book.worksheets[0];
    const header = (sheet.getRow(1).values as unknown[]).slice(1).map(String);
    expect(header.slice(0, 2)).toEqual([en.field.student_no, en.field.student_name]);
    expect(header.length).toBeGreaterThan(2);

    // a student of the activity with an unpaid bill owes 123.45 for the first item, the rest as the activity bills
    const activities = (await api(suite.url, "adminapiv2", "activitylist", { title: activityTitle, status: "open", limit: 100 }, token)).data?.items as Row[];
    const activity = activities.find((a) => a.sch_title === "Sunrise No.1 Primary School")!;
    const [bill] = (await api(suite.url, "adminapiv2", "billlist", { activity_id: activity.id, status: "unpaid", limit: 1 }, token)).data?.items as Row[];
    const student = (await api(suite.url, "adminapiv2", "studentinfo", { id: bill.student_id }, token)).data?.items as Row;
    sheet.addRow([student.student_no, student.name, "123.45"]);
    await dialog.locator("input[type=file]").setInputFiles({ name: "bills-e2e.xlsx", mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", buffer: Buffer.from(await book.xlsx.writeBuffer()) });
    await dialog.getByTestId("import-start").click();
    await dialog.getByTestId("import-preview").waitFor({ timeout: 20_000 });
    await dialog.getByTestId("import-confirm").click();
    const result = dialog.getByTestId("import-result");
    await result.waitFor({ timeout: 20_000 });
    expect(await result.innerText()).toContain("1 record imported");
    await dialog.getByTestId("import-close").click();

    // the log lists it, and the bill covers the first item at the amount imported
    await expect.poll(async () => page.locator(".ant-table-tbody").filter({ visible: true }).innerText(), { timeout: 10_000 }).toContain("bills-e2e.xlsx");
    const after = (await api(suite.url, "adminapiv2", "billinfo", { id: bill.id }, token)).data?.items as Row;
    expect((after.items as Row[])[0]).toMatchObject({ amount: "123.45" });
    expect(after.status).toBe("unpaid");
  });
});
