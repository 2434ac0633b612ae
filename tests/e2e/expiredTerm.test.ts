/**
 * Spec 4.2 in the browser: a provider whose term has run out (demo account harbour) is held in the renewal
 * dialog on every load. A reload, or opening another page by its address, brings it back; neither Esc, the
 * mask nor a close icon dismisses it, and the console behind it takes no clicks. Only renewing or logging out
 * leaves it. The once-per-session flag belongs to the reminder alone.
 */
import type { Page } from "playwright-core";
import { expect, test } from "vitest";
import { animationsSettled, describeInBrowser, login } from "../helpers/browser";

/** The forced dialog's box (antd puts the test id on a wrapper without a box of its own). */
function renewDialog(page: Page) {
  return page.getByTestId("provider-renew-dialog").locator(".ant-modal-content");
}

/** Whether the point at the centre of the top bar belongs to the dialog's mask rather than the console. */
async function consoleCoveredByDialog(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const bar = document.querySelector("[data-testid='top-bar']");
    if (!bar) return false;
    const box = bar.getBoundingClientRect();
    const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return top !== null && top.closest(".ant-modal-wrap, .ant-modal-mask") !== null;
  });
}

async function expectHeld(page: Page): Promise<void> {
  const dialog = renewDialog(page);
  await dialog.waitFor();
  await animationsSettled(page);
  expect(await page.getByTestId("provider-renew-dialog").locator(".ant-modal-close").count()).toBe(0);
  expect(await page.getByTestId("renew-expired").isVisible()).toBe(true);
  await page.keyboard.press("Escape");
  // a click on the mask, beside the dialog
  await page.mouse.click(8, 400);
  await animationsSettled(page);
  expect(await dialog.isVisible()).toBe(true);
  expect(await consoleCoveredByDialog(page)).toBe(true);
  // no reminder on top of it: the reminder is for terms that still run
  expect(await page.getByTestId("expiry-reminder-ok").isVisible()).toBe(false);
}

describeInBrowser("an expired provider", (suite) => {
  test("is held in the renewal dialog on every load until it renews or logs out", async () => {
    const { page } = suite;
    await login(page, suite.url, "harbour");
    await expectHeld(page);

    await page.reload();
    await page.getByTestId("console-layout").waitFor();
    await expectHeld(page);

    await page.goto(`${suite.url}/schoolv2/schoollist`);
    await expectHeld(page);

    await page.getByTestId("provider-renew-logout").click();
    await page.waitForURL((url) => url.pathname === "/login");
    expect(await renewDialog(page).count()).toBe(0);
  });
});
