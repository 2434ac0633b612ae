/**
 * The site settings page (sysset) in the browser: an operator edits the site title and sees it at once in the
 * browser tab and the sidebar logo, and again after a reload; another user already signed in sees it at their
 * next load; on a phone the form fits the screen, refuses an icon that is not an address under its field,
 * and saves.
 */
import type { Locator, Page } from "playwright-core";
import { expect, test } from "vitest";
import enSite from "../../locales/en/site.json";
import { describeInBrowser, dismissExpiryReminder, login } from "../helpers/browser";
import { api } from "../helpers/server";
import { en } from "../helpers/locales";

const SYSSET = "/sysadminv2/sysset";

/** The page of the active tab (the others stay mounted, hidden). */
function active(page: Page): Locator {
  return page.getByTestId("page-active");
}

/** The site title as getwebsetinfo gives it now. */
async function siteTitle(baseUrl: string): Promise<string> {
  const res = await api(baseUrl, "adminapiv2", "getwebsetinfo");
  return String((res.data?.items as { title: string }).title);
}

async function insideViewport(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const width = page.viewportSize()!.width;
  return box !== null && box.x >= 0 && box.x + box.width <= width;
}

/** Opens the site settings page and waits until the saved record fills its form. */
async function openSysset(page: Page, baseUrl: string, title: string): Promise<void> {
  await page.goto(`${baseUrl}${SYSSET}`);
  await expect.poll(() => active(page).getByTestId("settings-field-title").inputValue()).toBe(title);
}

describeInBrowser("site settings", (suite) => {
  test("an operator edits the site title and sees it; another signed-in user sees it at their next load", async () => {
    const { page } = suite;
    const before = await siteTitle(suite.url);
    const after = `${before} (edited)`;

    // a provider already has the console open with the title as it was
    const other = await (await suite.newContext()).newPage();
    await login(other, suite.url, "svc");
    await dismissExpiryReminder(other);
    await expect.poll(() => other.title()).toBe(before);

    await page.setViewportSize({ width: 1440, height: 900 });
    await login(page, suite.url, "sysadmin");
    await expect.poll(() => page.title()).toBe(before);
    // the sidebar logo shows the title once switched on in the layout settings
    await page.getByTestId("header-settings").click();
    await page.getByTestId("settings-sidebarLogo").click();
    await page.keyboard.press("Escape");
    const logo = page.getByTestId("sidebar-logo");
    await expect.poll(() => logo.innerText()).toBe(before);

    await openSysset(page, suite.url, before);
    expect(await active(page).getByText(en.menu.sysset).count()).toBeGreaterThan(0);
    await active(page).getByTestId("settings-field-title").fill(after);
    await active(page).getByTestId("settings-page-save").click();
    await page.getByText(en.crud.saved).waitFor();

    // the operator's own console follows at once, and after a reload
    await expect.poll(() => page.title()).toBe(after);
    await expect.poll(() => logo.innerText()).toBe(after);
    expect(await siteTitle(suite.url)).toBe(after);
    await page.reload();
    await expect.poll(() => active(page).getByTestId("settings-field-title").inputValue()).toBe(after);
    expect(await page.title()).toBe(after);
    await expect.poll(() => page.getByTestId("sidebar-logo").innerText()).toBe(after);

    // the provider's open console still shows the old title until its next load, which shows the new one
    expect(await other.title()).toBe(before);
    await other.reload();
    await other.getByTestId("console-layout").waitFor();
    await expect.poll(() => other.title()).toBe(after);

    // and so does the login page of someone who has not signed in yet
    const visitor = await (await suite.newContext()).newPage();
    await visitor.goto(`${suite.url}/login`);
    await expect.poll(() => visitor.title()).toBe(after);
    await visitor.getByText(after).first().waitFor();
  });

  test("390 px: the form fits the phone, refuses an icon that is not an address under its field, and saves", async () => {
    const { page } = suite;
    await page.setViewportSize({ width: 390, height: 844 });
    await login(page, suite.url, "sysadmin");
    const title = await siteTitle(suite.url);
    await openSysset(page, suite.url, title);

    const form = active(page).getByTestId("settings-page-form");
    for (const name of ["title", "keywords", "description", "icon", "kfurl", "user_manual_url"]) {
      expect(await insideViewport(page, form.getByTestId(`settings-field-${name}`)), name).toBe(true);
    }
    expect(await insideViewport(page, form.getByTestId("settings-page-save"))).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // labels stand above their fields: each label starts where its field starts
    const label = form.getByText(enSite.field.kfurl, { exact: true });
    const [labelBox, fieldBox] = [await label.boundingBox(), await form.getByTestId("settings-field-kfurl").boundingBox()];
    expect(labelBox!.y + labelBox!.height).toBeLessThanOrEqual(fieldBox!.y);

    const icon = form.getByTestId("settings-field-icon");
    await icon.fill("logo.png");
    await form.getByTestId("settings-page-save").click();
    await form.getByText(en.validation.image).waitFor();

    const address = `${suite.url}/favicon.svg`;
    await icon.fill(address);
    await form.getByTestId("settings-page-save").click();
    await page.getByText(en.crud.saved).waitFor();
    await expect.poll(() => page.evaluate(() => document.querySelector<HTMLLinkElement>('link[rel="icon"]')?.href)).toBe(address);
    const saved = await api(suite.url, "adminapiv2", "getwebsetinfo");
    expect((saved.data?.items as { icon: string }).icon).toBe(address);
  });
});
