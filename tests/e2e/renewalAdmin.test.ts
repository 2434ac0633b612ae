/**
 * Issue 3 from the operator's and the provider's side, in the browser: generating activation codes and finding,
 * exporting, voiding and seeing them; contract maintenance and the extension records; the school's renewal records; the
 * daily business report binding through its sandbox page. On the embedded database (the renewal flows of
 * renewal.test.ts are the ones on PostgreSQL too).
 */
import ExcelJS from "exceljs";
import type { Locator, Page } from "playwright-core";
import { expect, test } from "vitest";
import { addDays, businessDay, extendedEnd } from "../../common/term";
import { animationsSettled, clickMenuEntry, describeInBrowser, dismissExpiryReminder, expectPath, exportThroughDownloadCentre, login, payInSandbox } from "../helpers/browser";
import { en } from "../helpers/locales";

/** The page of the open tab (the tabs keep the pages they left mounted, hidden). */
function activePage(page: Page): Locator {
  return page.locator("[data-testid='console-layout'] .ant-card:visible").first();
}

/** Chooses an option of an antd select by its text, typing it first when the select searches. */
async function choose(page: Page, select: Locator, text: string, type = false): Promise<void> {
  await select.click();
  if (type) await select.locator("input").fill(text);
  const option = page.locator(".ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option").filter({ hasText: text }).first();
  await option.waitFor();
  await animationsSettled(page);
  await option.click();
}

/** The texts of one column of the list on the open tab, by the column's header. */
async function columnTexts(page: Page, header: string): Promise<string[]> {
  const table = activePage(page).locator(".ant-table");
  await table.locator(".ant-spin-blur").waitFor({ state: "detached" });
  const headers = await table.locator("thead th").allInnerTexts();
  const index = headers.findIndex((h) => h.trim() === header);
  if (index < 0) throw new Error(`no column ${header} in ${headers.join(", ")}`);
  return table.locator(`tbody tr.ant-table-row td:nth-child(${index + 1})`).allInnerTexts();
}

describeInBrowser("renewal administration", (suite) => {
  test("an operator generates provider codes from the code list, finds the batch by its number and day, exports it and voids a code; the provider sees its codes", async () => {
    const { page } = suite;
    await login(page, suite.url, "sysadmin");
    await clickMenuEntry(page, "/schoolv2/actcodelist");
    await page.getByTestId("open-actcodeadd").click();
    await expectPath(page, "/schoolv2/actcodeadd");

    const form = activePage(page);
    await form.locator("#count").fill("3");
    await form.getByText(en.renewal.target_service, { exact: true }).click();
    await form.getByText(en.renewal.term_by_months, { exact: true }).click();
    await form.locator("#term_months").fill("6");
    const lastDay = addDays(businessDay(new Date()), 30);
    await form.locator("#expires_on").fill(lastDay);
    // a typed date counts once the field is left (Enter would submit the form)
    await form.locator(".ant-card-head").click();
    await choose(page, form.locator(".ant-form-item").filter({ hasText: en.renewal.bound_provider }).locator(".ant-select"), "Sunrise Campus Services", true);
    await form.locator("#remark").fill("autumn contracts");
    await page.getByTestId("actcode-submit").click();

    const summary = await page.getByTestId("actcode-batch").innerText();
    const batchNo = /B\d{14}/.exec(summary)?.[0];
    expect(batchNo, summary).toBeDefined();
    expect(summary).toContain("3");
    await page.getByTestId("actcode-to-list").click();
    await expectPath(page, "/schoolv2/actcodelist");

    // the batch by its number and by today's business day
    const list = activePage(page);
    await list.locator("#batch_no").fill(batchNo!);
    const today = businessDay(new Date());
    const createdOn = async (start: string, end: string) => {
      const [from, to] = [0, 1].map((i) => list.locator(".ant-form-item:has(label[for='created_at']) .ant-picker-range input").nth(i));
      await from.fill(start);
      await to.fill(end);
      await list.locator(".ant-card-head").click();
      await list.getByRole("button", { name: en.crud.search }).click();
    };
    await createdOn(today, today);
    await expect.poll(() => columnTexts(page, en.field.batch_no)).toEqual([batchNo, batchNo, batchNo]);
    const codes = await columnTexts(page, en.field.act_code);
    expect(await columnTexts(page, en.field.bound_title)).toEqual(Array(3).fill("Sunrise Campus Services"));
    expect(await columnTexts(page, en.field.expires_on)).toEqual(Array(3).fill(lastDay));
    // a day the batch was not made on finds nothing of it
    await createdOn(addDays(today, -1), addDays(today, -1));
    await expect.poll(() => activePage(page).locator("tbody tr.ant-table-row").count()).toBe(0);
    await list.getByRole("button", { name: en.crud.reset }).click();
    await list.locator("#batch_no").fill(batchNo!);
    await list.getByRole("button", { name: en.crud.search }).click();
    await expect.poll(() => columnTexts(page, en.field.act_code)).toEqual(codes);

    const download = await exportThroughDownloadCentre(page, activePage(page).getByTestId("export-button"));
    expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(await download.path());
    const sheet = workbook.worksheets[0];
    const exported = Array.from({ length: sheet.rowCount - 1 }, (_, i) => (sheet.getRow(i + 2).values as unknown[]).map(String));
    expect(exported).toHaveLength(3);
    for (const code of codes) expect(exported.some((row) => row.includes(code))).toBe(true);

    // voiding the first code, after confirming
    const firstRow = activePage(page).locator("tbody tr.ant-table-row").filter({ hasText: codes[0] });
    await firstRow.getByTestId("row-actcodevoid").click();
    const question = page.locator(".ant-popconfirm").filter({ hasText: en.renewal.void_code_confirm });
    await question.waitFor();
    await animationsSettled(page);
    await question.getByRole("button", { name: en.common.confirm }).click();
    await page.getByText(en.api.action_done.replace("{{action}}", en.renewal.void_code)).waitFor();
    await expect.poll(() => columnTexts(page, en.field.code_status)).toEqual([en.enum.code_status.void, en.enum.code_status.unused, en.enum.code_status.unused]);
    expect(await firstRow.getByTestId("row-actcodevoid").count()).toBe(0);

    // the provider sees the codes bound to it, and cannot generate any
    const providerPage = await (await suite.newContext()).newPage();
    await login(providerPage, suite.url, "svc");
    await dismissExpiryReminder(providerPage);
    await clickMenuEntry(providerPage, "/schoolv2/actcodelist");
    await activePage(providerPage).locator("#batch_no").fill(batchNo!);
    await activePage(providerPage).getByRole("button", { name: en.crud.search }).click();
    await expect.poll(() => columnTexts(providerPage, en.field.act_code)).toEqual(codes);
    expect(await providerPage.getByTestId("open-actcodeadd").count()).toBe(0);
    expect(await providerPage.getByTestId("row-actcodevoid").count()).toBe(0);
  });

  test("an operator extends a provider's contract from the provider list and finds it in the extension records", async () => {
    const { page } = suite;
    await login(page, suite.url, "sysadmin");
    await clickMenuEntry(page, "/servicev2/servicelist");
    const harbourRow = activePage(page).locator("tbody tr.ant-table-row").filter({ hasText: "Harbour Education Services" });
    await harbourRow.getByTestId("row-servicedelayv2").click();
    await page.waitForURL((url) => url.pathname.startsWith("/servicev2/servicedelayv2/"));

    const currentEnd = page.getByTestId("delay-current-end");
    await expect.poll(() => currentEnd.innerText()).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const oldEnd = await currentEnd.innerText();
    // Harbour's term is over: the extension runs from today
    expect(oldEnd < businessDay(new Date())).toBe(true);
    const newEnd = extendedEnd(oldEnd, 12, businessDay(new Date()))!;
    const form = activePage(page);
    await form.locator("#term_months").fill("12");
    await expect.poll(() => page.getByTestId("delay-new-end").innerText()).toBe(newEnd);
    await form.locator("#fee").fill("¥3,650.505");
    expect(await form.locator("#fee").inputValue()).toBe("3650.50");
    await form.locator("#remark").fill("yearly contract");
    await page.getByTestId("delay-submit").click();
    await page.getByText(en.renewal.delay_done.replace("{{end}}", newEnd)).waitFor();
    await expect.poll(() => currentEnd.innerText()).toBe(newEnd);

    await clickMenuEntry(page, "/servicev2/servicedelaylist");
    await expect.poll(async () => (await columnTexts(page, en.field.service_title))[0]).toBe("Harbour Education Services");
    expect((await columnTexts(page, en.field.new_end))[0]).toBe(newEnd);
    // the list writes money as its language does
    expect((await columnTexts(page, en.field.fee))[0]).toBe("¥3,650.50");
    expect((await columnTexts(page, en.field.operator))[0]).toBe("sysadmin");
  });

  test("a school finds its renewal in its renewal records and opens its detail", async () => {
    const { page } = suite;
    await login(page, suite.url, "school");
    await dismissExpiryReminder(page);
    await page.getByTestId("header-renew").click();
    await page.locator("[data-testid^='renew-meal-']").filter({ hasText: "Half year" }).getByRole("button").click();
    await payInSandbox(page, (await page.getByTestId("pay-qr").getAttribute("data-code-url"))!);
    await page.getByTestId("pay-result-message").waitFor({ timeout: 10000 });
    const newEnd = /\d{4}-\d{2}-\d{2}/.exec(await page.getByTestId("pay-result-message").innerText())![0];
    await page.getByTestId("pay-result-ok").click();

    await clickMenuEntry(page, "/schoolv2/schoolrenewlist");
    await expect.poll(async () => (await columnTexts(page, en.field.new_end))[0]).toBe(newEnd);
    expect((await columnTexts(page, en.field.school_title))[0]).toBe("Sunrise No.1 Primary School");
    await activePage(page).locator("tbody tr.ant-table-row").first().getByRole("button", { name: en.crud.detail }).click();
    await page.waitForURL((url) => url.pathname.startsWith("/schoolv2/schoolrenewinfo/"));
    const detail = activePage(page);
    await detail.getByText("Half year").waitFor();
    await detail.getByText(newEnd).first().waitFor();
  });

  test("a provider binds a user to its daily report through the QR code's page, sees the user, and unbinds after confirming", async () => {
    const { page } = suite;
    await login(page, suite.url, "svc");
    await dismissExpiryReminder(page);
    await page.getByTestId("avatar-dropdown").click();
    await page.getByTestId("avatar-daily-report").click();
    const dialog = page.getByTestId("daily-report-dialog").locator(".ant-modal-content");
    await dialog.waitFor();
    const qr = page.getByTestId("daily-report-qr");
    await expect.poll(() => qr.getAttribute("data-auth-url")).toMatch(/\/notice\/sandbox\/bind\/[\w-]{43}$/);
    expect(await qr.locator("svg").count()).toBe(1);
    // the demo's users bound to Sunrise's report
    const bound = dialog.locator("[data-testid^='daily-report-user-']");
    await bound.filter({ hasText: "Finance Wang" }).waitFor();
    const boundBefore = await bound.count();

    const phone = await page.context().newPage();
    await phone.goto((await qr.getAttribute("data-auth-url"))!);
    await phone.getByTestId("bind-nickname").fill("Headmaster Zhou");
    await phone.getByTestId("bind-submit").click();
    await phone.getByTestId("bind-done").waitFor();
    await phone.close();

    const oldUrl = await qr.getAttribute("data-auth-url");
    await page.getByTestId("daily-report-refresh").click();
    const user = dialog.locator("[data-testid^='daily-report-user-']").filter({ hasText: "Headmaster Zhou" });
    await user.waitFor();
    // a fresh binding address: the one used is spent
    expect(await qr.getAttribute("data-auth-url")).not.toBe(oldUrl);

    const confirmBox = page.locator(".ant-modal-confirm").filter({ hasText: en.renewal.unbind_confirm });
    await user.click();
    await confirmBox.waitFor();
    await animationsSettled(page);
    await confirmBox.getByRole("button", { name: en.common.cancel }).click();
    await page.getByText(en.renewal.cancelled).waitFor();
    expect(await user.isVisible()).toBe(true);

    await confirmBox.waitFor({ state: "detached" });
    await user.click();
    await confirmBox.waitFor();
    await animationsSettled(page);
    await confirmBox.getByRole("button", { name: en.common.confirm }).click();
    await page.getByText(en.renewal.unbind_ok).waitFor();
    await user.waitFor({ state: "detached" });
    expect(await bound.count()).toBe(boundBefore);
  });
});
