/**
 * The school's world in the browser: the provider (svc, working across its schools) adds a grade and a class in
 * place on the v2 lists, choosing the school in the form, then a student with its grade and class narrowed by
 * those choices; the student list shows the names, filters by class and exports; a grade name the school already
 * has is refused under the field, the dialog kept open. The school and the provider's staff see only their own
 * schools' records.
 */
import { randomBytes } from "node:crypto";
import ExcelJS from "exceljs";
import type { Locator, Page } from "playwright-core";
import { expect, test } from "vitest";
import { choose, describeInBrowser, dismissExpiryReminder, expectPath, exportThroughDownloadCentre, login } from "../helpers/browser";
import { en } from "../helpers/locales";

const NO1 = "Sunrise No.1 Primary School";

function tableRows(page: Page) {
  return page.locator(".ant-table-tbody tr.ant-table-row").filter({ visible: true });
}

/** The select of a form item by its label, within `scope`. */
function selectOf(scope: Locator, label: string): Locator {
  return scope.locator(".ant-form-item").filter({ has: scope.page().locator(`label[title="${label}"]`) }).locator(".ant-select");
}

/** Saves the open dialog's form (its buttons sit outside the form). */
async function dialogSave(page: Page): Promise<void> {
  await page.locator(".ant-modal-footer").filter({ visible: true }).getByRole("button", { name: en.crud.save }).click();
}

/** Narrows the visible list by a text filter (the demo schools hold many records). */
async function filterList(page: Page, label: string, text: string): Promise<void> {
  const filters = page.getByTestId("list-filters").filter({ visible: true });
  await inputOf(filters, label).fill(text);
  await filters.getByRole("button", { name: en.crud.search }).click();
}

function inputOf(scope: Locator, label: string): Locator {
  return scope.getByPlaceholder(label, { exact: true });
}

describeInBrowser("the school's world", (suite) => {
  test("the provider adds a grade, a class and a student, finds it by class and exports the list", async () => {
    const { page } = suite;
    const tag = randomBytes(2).toString("hex");
    const grade = `E2E grade ${tag}`;
    const klass = `E2E class ${tag}`;
    await login(page, suite.url, "svc");
    await dismissExpiryReminder(page);

    // a grade, added in place (v2 gives the provider no add route), in a school chosen in the form
    await page.goto(`${suite.url}/schoolv2/gradelist`);
    await page.getByTestId("add-button").filter({ visible: true }).click();
    const gradeDialog = page.getByTestId("record-modal-add").filter({ visible: true });
    await choose(page, selectOf(gradeDialog, en.field.school), "No.1", NO1);
    await inputOf(gradeDialog, en.field.grade_title).fill(grade);
    await dialogSave(page);
    await filterList(page, en.field.grade_title, tag);
    await expect.poll(() => tableRows(page).filter({ hasText: grade }).count(), { timeout: 10_000 }).toBe(1);
    expect(await tableRows(page).filter({ hasText: grade }).innerText()).toContain(NO1);

    // the same name again in that school: the server's refusal under the field, the dialog still open, no error
    // escaping the page
    const pageErrors: string[] = [];
    page.on("pageerror", (error) => pageErrors.push(error.message));
    await page.getByTestId("add-button").filter({ visible: true }).click();
    const again = page.getByTestId("record-modal-add").filter({ visible: true });
    await choose(page, selectOf(again, en.field.school), "No.1", NO1);
    await inputOf(again, en.field.grade_title).fill(grade);
    await dialogSave(page);
    const duplicate = en.api.duplicate.replace("{{label}}", en.field.grade_title);
    await expect.poll(() => again.locator(".ant-form-item-explain-error").filter({ hasText: duplicate }).count(), { timeout: 10_000 }).toBe(1);
    await page.locator(".ant-modal-footer").filter({ visible: true }).getByRole("button", { name: en.common.cancel }).click();
    // the dialog holds typed values: cancelling asks before they are discarded
    await page.locator(".ant-modal-confirm").filter({ hasText: en.shell.unsaved_title }).getByRole("button", { name: en.shell.unsaved_discard }).click();
    await expect.poll(() => page.getByTestId("record-modal-add").filter({ visible: true }).count(), { timeout: 10_000 }).toBe(0);
    expect(pageErrors).toEqual([]);

    // a class of that grade: the grade select offers the chosen school's grades
    await page.goto(`${suite.url}/schoolv2/classeslist`);
    await page.getByTestId("add-button").filter({ visible: true }).click();
    const classDialog = page.getByTestId("record-modal-add").filter({ visible: true });
    await choose(page, selectOf(classDialog, en.field.school), "No.1", NO1);
    await choose(page, selectOf(classDialog, en.field.grade), tag, grade);
    await inputOf(classDialog, en.field.class_title).fill(klass);
    await dialogSave(page);
    await filterList(page, en.field.class_title, tag);
    await expect.poll(() => tableRows(page).filter({ hasText: klass }).count(), { timeout: 10_000 }).toBe(1);
    expect(await tableRows(page).filter({ hasText: klass }).innerText()).toContain(grade);

    // a student: the class waits for the grade, then offers that grade's classes
    await page.goto(`${suite.url}/activity/studentadd`);
    const form = page.locator("form").filter({ visible: true });
    await choose(page, selectOf(form, en.field.school), "No.1", NO1);
    await inputOf(form, en.field.student_name).fill(`Wang Fang ${tag}`);
    await inputOf(form, en.field.student_no).fill(`E2E-${tag}`);
    await choose(page, selectOf(form, en.field.sex), en.enum.sex["2"]);
    const classSelect = selectOf(form, en.field.classes);
    expect(await classSelect.getAttribute("class")).toContain("ant-select-disabled");
    await choose(page, selectOf(form, en.field.grade), tag, grade);
    await choose(page, classSelect, tag, klass);
    await inputOf(form, en.field.guardian_phone).fill("13912345678");
    // by its test id: "Save and add another" holds the word too
    await form.getByTestId("form-save").click();
    await expectPath(page, "/activity/studentlist");
    const row = tableRows(page).filter({ hasText: `E2E-${tag}` });
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(1);
    const text = await row.innerText();
    expect(text).toContain(grade);
    expect(text).toContain(klass);
    expect(text).toContain(en.enum.sex["2"]);

    // filtered by the class, the list holds that student alone
    const filters = page.getByTestId("list-filters").filter({ visible: true });
    await choose(page, selectOf(filters, en.field.classes), tag, klass);
    await filters.getByRole("button", { name: en.crud.search }).click();
    await expect.poll(() => tableRows(page).count(), { timeout: 10_000 }).toBe(1);
    expect(page.url()).toContain("class_id");

    const download = await exportThroughDownloadCentre(page, page.getByTestId("export-button").filter({ visible: true }));
    // named by the list and the class it was narrowed to
    expect(download.suggestedFilename()).toBe(`${en.entity.student}_${klass}.xlsx`);
  });

  test("the provider imports students: a file with a bad row imports nothing and says why; fixed, it imports", async () => {
    const { page } = suite;
    const tag = randomBytes(2).toString("hex");
    const xlsx = async (phone: string): Promise<Buffer> => {
      const workbook = new ExcelJS.Workbook();
      const sheet = workbook.addWorksheet("students");
      sheet.addRow([en.field.student_name, en.field.student_no, en.field.sex, en.field.grade, en.field.classes, en.field.guardian_phone]);
      sheet.addRow([`Zhou Jie ${tag}`, `IMP-${tag}-1`, en.enum.sex["1"], `Import grade ${tag}`, "1班", "13700001111"]);
      sheet.addRow([`Wu Lan ${tag}`, `IMP-${tag}-2`, "女", `Import grade ${tag}`, "1班", phone]);
      return Buffer.from(await workbook.xlsx.writeBuffer());
    };
    const importFile = async (buffer: Buffer) => {
      await page.locator(".ant-modal input[type=file]").setInputFiles({ name: `students-${tag}.xlsx`, mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", buffer });
      await page.getByTestId("import-start").click();
      // checked first: a file with errors ends there, a good one shows what it will create before it is imported
      await page.getByTestId("import-result").or(page.getByTestId("import-preview")).waitFor({ timeout: 20_000 });
      if (await page.getByTestId("import-preview").isVisible()) {
        expect(await page.getByTestId("import-creates").innerText()).toContain(`Import grade ${tag} / 1班`);
        await page.getByTestId("import-confirm").click();
      }
      await page.getByTestId("import-result").waitFor({ timeout: 20_000 });
    };
    /** The rows of this file's students, counted once the list shows the filtered answer, not the rows before it. */
    const imported = async () => {
      await filterList(page, en.field.student_no, `IMP-${tag}`);
      await expect
        .poll(async () => {
          if ((await page.locator(".ant-table-wrapper .ant-spin-spinning").count()) > 0) return false;
          const rows = await tableRows(page).allInnerTexts();
          return rows.every((row) => row.includes(`IMP-${tag}`)) && (rows.length > 0 || (await page.locator(".ant-table-placeholder").filter({ visible: true }).count()) > 0);
        }, { timeout: 10_000 })
        .toBe(true);
      return tableRows(page).count();
    };

    await login(page, suite.url, "svc", { to: "/activity/studentlist" });
    await dismissExpiryReminder(page);
    await page.getByRole("button", { name: en.import.button }).filter({ visible: true }).click();
    await choose(page, page.getByTestId("import-school").locator(".ant-select"), "No.1", NO1);

    await importFile(await xlsx("12345"));
    const errors = page.getByTestId("import-errors");
    await errors.waitFor();
    const errorText = await errors.innerText();
    expect(errorText).toContain("3");
    expect(errorText).toContain(en.field.guardian_phone);
    await page.getByTestId("import-close").click();
    expect(await imported()).toBe(0);

    await page.getByRole("button", { name: en.import.button }).filter({ visible: true }).click();
    await choose(page, page.getByTestId("import-school").locator(".ant-select"), "No.1", NO1);
    await importFile(await xlsx("13700002222"));
    await expect.poll(() => page.getByTestId("import-errors").count()).toBe(0);
    await page.getByTestId("import-close").click();
    await expect.poll(imported, { timeout: 10_000 }).toBe(2);
    expect(await tableRows(page).first().innerText()).toContain(`Import grade ${tag}`);
  });

  test("the school and the provider's staff see their own schools' grades only", async () => {
    const { page } = suite;
    await login(page, suite.url, "school", { to: "/schoolv2/gradelist" });
    await dismissExpiryReminder(page);
    await expect.poll(() => tableRows(page).count(), { timeout: 10_000 }).toBeGreaterThan(0);
    // a school sees no school column: every row is its own
    const headers = await page.locator(".ant-table-thead th").filter({ visible: true }).allInnerTexts();
    expect(headers).not.toContain(en.field.school);

    const staff = await suite.newContext();
    const staffPage = await staff.newPage();
    await login(staffPage, suite.url, "staff", { to: "/schoolv2/gradelist?pageSize=50" });
    await expect.poll(() => tableRows(staffPage).count(), { timeout: 10_000 }).toBeGreaterThan(0);
    const schools = new Set((await tableRows(staffPage).allInnerTexts()).map((r) => (r.includes(NO1) ? NO1 : r.includes("No.2") ? "No.2" : r)));
    expect([...schools].sort()).toEqual([NO1, "No.2"].sort());
  });
});
