/**
 * Pickup points in the browser (distrilist): the provider adds a point, choosing its verifier among its pickup
 * clerks only (named "name (username)") and the schools it serves; the list shows them as tags, whole on a phone.
 */
import type { Page } from "playwright-core";
import { expect, test } from "vitest";
import { choose, clickMenuEntry, describeInBrowser, dismissExpiryReminder, expectPath, login } from "../helpers/browser";
import { en } from "../helpers/locales";

const LIST = "/sysadminv2/distrilist";

function tableRows(page: Page) {
  return page.locator(".ant-table-tbody tr.ant-table-row").filter({ visible: true });
}

/** A select of the open dialog's form, by the placeholder it shows (its field's label). */
function select(page: Page, label: string) {
  return page.locator(".ant-modal .ant-select").filter({ visible: true, has: page.locator(".ant-select-selection-placeholder", { hasText: label }) });
}

describeInBrowser("pickup points", (suite) => {
  test("the provider adds a point with one of its pickup clerks as verifier and the schools it serves", async () => {
    const { page } = suite;
    await login(page, suite.url, "svc");
    await dismissExpiryReminder(page);
    await clickMenuEntry(page, LIST);
    await expectPath(page, LIST);
    await expect.poll(() => tableRows(page).count()).toBe(2);

    await page.getByRole("button", { name: en.crud.add }).filter({ visible: true }).click();
    const dialog = page.locator(".ant-modal").filter({ visible: true });
    await dialog.getByPlaceholder(en.retail.field.point_title, { exact: true }).fill("Sunrise West Gate Pickup");
    await dialog.getByPlaceholder(en.field.address, { exact: true }).fill("West Gate, 1 Sunrise Road");
    await dialog.getByPlaceholder(en.retail.field.opening_hours, { exact: true }).fill("Mon-Fri 07:30-17:30");

    // the verifiers offered are the provider's pickup clerks, not its other accounts
    const verifiers = select(page, en.retail.field.verifiers);
    await verifiers.click();
    const offered = page.locator(".ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option");
    await expect.poll(() => offered.allInnerTexts()).toEqual(["Sunrise Pickup Clerk (pickup)"]);
    await page.keyboard.press("Escape");
    await choose(page, verifiers, "Pickup", "Sunrise Pickup Clerk (pickup)");
    await page.keyboard.press("Escape");
    await choose(page, select(page, en.retail.field.sch_ids), "No.2", "Sunrise No.2 Primary School");
    await page.keyboard.press("Escape");

    await dialog.locator(".ant-modal-footer").getByRole("button", { name: en.crud.save }).click();
    await dialog.waitFor({ state: "hidden" });
    const added = tableRows(page).filter({ hasText: "Sunrise West Gate Pickup" });
    await expect.poll(() => added.count()).toBe(1);
    const text = await added.innerText();
    expect(text).toContain("Sunrise Pickup Clerk (pickup)");
    expect(text).toContain("Sunrise No.2 Primary School");

    // on a phone the point's card shows its verifier and schools whole, within the screen
    await page.setViewportSize({ width: 390, height: 844 });
    const card = page.getByText("Sunrise West Gate Pickup").filter({ visible: true }).first();
    await card.waitFor();
    const tag = page.locator(".ant-tag").filter({ visible: true, hasText: "Sunrise No.2 Primary School" }).first();
    // the cards are laid out again for the phone's width: the tag is measured once it is there
    await tag.waitFor();
    const box = (await tag.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
  });
});
