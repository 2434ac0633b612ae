/**
 * Issue 2 item 6 in the browser: the system user adds a provider on /servicev2, finds it with the list's filter,
 * and edits it.
 */
import { randomBytes } from "node:crypto";
import type { Page } from "playwright-core";
import { expect, test } from "vitest";
import { describeInBrowser, expectPath, login, clickMenuEntry } from "../helpers/browser";
import { en } from "../helpers/locales";

const LIST = "/servicev2/servicelist";

async function filterByTitle(page: Page, title: string): Promise<void> {
  await field(page, en.field.service_title).fill(title);
  await page.getByRole("button", { name: en.crud.search }).filter({ visible: true }).click();
}

// pages stay mounted (hidden) in their tabs when another one is shown: look at the visible page only
/** Saves the visible form and waits until the list has replaced it (the form's page stays mounted, hidden). */
async function saveAndReturnToList(page: Page): Promise<void> {
  // by its test id: "Save and add another" holds the word too
  const save = page.getByTestId("form-save").filter({ visible: true });
  await save.click();
  await expectPath(page, LIST);
  await expect.poll(() => save.count()).toBe(0);
}

function tableRows(page: Page) {
  return page.locator(".ant-table-tbody tr.ant-table-row").filter({ visible: true });
}

/** An input of the visible add or edit form, by its placeholder (the field's label). */
function field(page: Page, label: string) {
  return page.getByPlaceholder(label, { exact: true }).filter({ visible: true });
}

describeInBrowser("providers (catalogue list, add and edit)", (suite) => {
  test("sysadmin adds a provider, the list and its filter find it, and an edit is saved", async () => {
    const { page } = suite;
    const suffix = randomBytes(3).toString("hex");
    const title = `E2E Provider ${suffix}`;
    const renamed = `E2E Renamed ${suffix}`;

    await login(page, suite.url, "sysadmin");
    await clickMenuEntry(page, LIST);
    await expectPath(page, LIST);
    await expect.poll(() => tableRows(page).count()).toBeGreaterThan(0);

    await page.getByRole("button", { name: en.crud.add }).filter({ visible: true }).click();
    await expectPath(page, "/servicev2/serviceadd");
    // the form applies its defaults once mounted: fill it after that
    await page.locator(".ant-select-selection-item").filter({ visible: true, hasText: en.enum.ver.v2 }).waitFor();
    await field(page, en.field.service_title).fill(title);
    await field(page, en.field.contact).fill("Li Lei");
    await field(page, en.field.phone).fill("13800000000");
    const endTime = page.locator("input#end_time").filter({ visible: true });
    await endTime.click();
    await endTime.fill("2030-06-30");
    await endTime.press("Enter");
    await field(page, en.field.admin_username).fill(`e2e_${suffix}`);
    await field(page, en.field.admin_password).fill("secret123");
    await saveAndReturnToList(page);
    await expect.poll(() => tableRows(page).filter({ hasText: title }).count()).toBe(1);

    await filterByTitle(page, suffix);
    await expect.poll(() => tableRows(page).count()).toBe(1);
    const row = tableRows(page).filter({ hasText: title });
    expect(await row.innerText()).toContain("2030-06-30");

    await row.getByRole("button", { name: en.crud.edit }).click();
    await page.waitForURL((url) => url.pathname.startsWith("/servicev2/serviceedit/"));
    const titleInput = field(page, en.field.service_title);
    await expect.poll(() => titleInput.inputValue()).toBe(title);
    await titleInput.fill(renamed);
    await saveAndReturnToList(page);
    await filterByTitle(page, renamed);
    await expect.poll(() => tableRows(page).count()).toBe(1);
    expect(await tableRows(page).first().innerText()).toContain(renamed);
    await filterByTitle(page, title);
    await expect.poll(() => page.locator(".ant-table-tbody .ant-empty").filter({ visible: true }).count()).toBe(1);
  });
});
