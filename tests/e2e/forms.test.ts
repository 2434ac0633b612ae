/**
 * The generic forms in the browser, where the tabs view keeps pages alive and the browser itself may be asked
 * to reload: typed values survive a switch to another tab and back; a reload, closing the form's tab and
 * leaving the console ask before changes are lost; a save closes the form's tab and returns to the list.
 */
import type { Page } from "playwright-core";
import { expect, test } from "vitest";
import { clickClosing, clickSettled, describeInBrowser, expectPath, login, tabKeys } from "../helpers/browser";
import { en } from "../helpers/locales";

const LIST = "/servicev2/servicelist";
const ADD = "/servicev2/serviceadd";

const active = (page: Page) => page.getByTestId("page-active");
const contact = (page: Page) => active(page).getByRole("textbox", { name: en.field.contact });
const confirmation = (page: Page) => page.locator(".ant-modal-confirm").filter({ hasText: en.shell.unsaved_title });

function closeIcon(page: Page, key: string) {
  return page.locator(".ant-tabs-tab", { has: page.getByTestId(`tab-${key}`) }).locator(".ant-tabs-tab-remove");
}

describeInBrowser("unsaved changes of a form", (suite) => {
  test("typed values survive a tab switch; a reload and closing the tab ask first", async () => {
    const { page } = suite;
    await login(page, suite.url, "sysadmin", { to: LIST });
    await active(page).getByTestId("add-button").click();
    await expectPath(page, ADD);
    await contact(page).fill("Wang Fang");

    await page.getByTestId(`tab-${LIST}`).click();
    await expectPath(page, LIST);
    await page.getByTestId(`tab-${ADD}`).click();
    await expectPath(page, ADD);
    expect(await contact(page).inputValue()).toBe("Wang Fang");

    // the browser asks before a reload; staying keeps the page as it was
    const dialog = page.waitForEvent("dialog");
    void page.reload().catch(() => undefined);
    const asked = await dialog;
    expect(asked.type()).toBe("beforeunload");
    await asked.dismiss();
    expect(await contact(page).inputValue()).toBe("Wang Fang");

    await clickSettled(page, closeIcon(page, ADD));
    await clickClosing(page, confirmation(page).getByRole("button", { name: en.shell.unsaved_stay }));
    expect(await tabKeys(page)).toContain(ADD);
    expect(await contact(page).inputValue()).toBe("Wang Fang");

    await clickSettled(page, closeIcon(page, ADD));
    await clickClosing(page, confirmation(page).getByRole("button", { name: en.shell.unsaved_discard }));
    await expect.poll(() => tabKeys(page)).not.toContain(ADD);

    // nothing left to lose: a reload asks nothing
    let askedAgain = false;
    page.on("dialog", (d) => {
      askedAgain = true;
      void d.dismiss();
    });
    await page.reload();
    await page.getByTestId("console-layout").waitFor();
    expect(askedAgain).toBe(false);
  });

  test("a save closes the edit form's tab and returns to the list, which shows the change", async () => {
    const { page } = suite;
    await login(page, suite.url, "sysadmin", { to: LIST });
    const row = active(page).locator("tr", { hasText: "Sunrise Campus Services" });
    await row.locator("[data-testid^='row-edit-']").click();
    await page.waitForURL((url) => url.pathname.startsWith("/servicev2/serviceedit/"));
    const editKey = new URL(page.url()).pathname;
    await expect.poll(() => contact(page).inputValue()).not.toBe("");
    await contact(page).fill("Zhao Lei");
    await active(page).getByTestId("form-save").click();

    await expectPath(page, LIST);
    expect(await tabKeys(page)).not.toContain(editKey);
    await expect.poll(() => active(page).locator("tr", { hasText: "Sunrise Campus Services" }).innerText()).toContain("Zhao Lei");
  });
});
