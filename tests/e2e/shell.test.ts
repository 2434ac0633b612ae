/** Spec 2.4, 9, DESIGN 7: language switching (persisted in the language cookie), the tab bar and the top bar's layout. */
import { expect, test } from "vitest";
import { cookieValue, describeInBrowser, dismissExpiryReminder, expectPath, HOME_PATH, login, clickMenuEntry, menuEntry, tabKeys, tabMenu } from "../helpers/browser";
import { en, es, zh } from "../helpers/locales";

const LIST = "/servicev2/servicelist";
const ADD = "/servicev2/serviceadd";

describeInBrowser("the console shell", (suite) => {
  test("a Chinese browser gets Chinese, the user switches to English then Spanish, and the choice survives a reload", async () => {
    const page = await (await suite.newContext("zh-CN")).newPage();
    await page.goto(`${suite.url}/login`);
    // antd spaces out two-character Chinese button texts
    await expect.poll(async () => (await page.getByTestId("login-submit").innerText()).replace(/\s/g, "")).toBe(zh.login.submit);

    await page.getByTestId("language-en").click();
    await expect.poll(() => page.getByTestId("login-submit").innerText()).toBe(en.login.submit);
    expect(await cookieValue(page, "language")).toBe("en");

    await login(page, suite.url, "sysadmin");
    const dashboardEntry = page.getByTestId(`menu-${HOME_PATH}`);
    await expect.poll(() => dashboardEntry.innerText()).toBe(en.shell.dashboard);

    await page.getByTestId("language-es").click();
    await expect.poll(() => dashboardEntry.innerText()).toBe(es.shell.dashboard);
    await expect.poll(async () => (await menuEntry(page, LIST)).innerText()).toBe(es.menu.servicelist);
    expect(await cookieValue(page, "language")).toBe("es");

    await page.reload();
    await expect.poll(() => page.getByTestId(`menu-${HOME_PATH}`).innerText()).toBe(es.shell.dashboard);
  });

  test("tabs: open several pages, switch, reload, close others, close all; the dashboard stays", async () => {
    const { page } = suite;
    await login(page, suite.url, "sysadmin");
    await expect.poll(() => tabKeys(page)).toEqual([HOME_PATH]);
    // the affixed dashboard tab has no close button
    expect(await page.locator(".ant-tabs-tab").filter({ has: page.getByTestId(`tab-${HOME_PATH}`) }).locator(".ant-tabs-tab-remove").count()).toBe(0);

    await clickMenuEntry(page, LIST);
    await expectPath(page, LIST);
    await page.getByRole("button", { name: en.crud.add }).filter({ visible: true }).click();
    await expectPath(page, ADD);
    await expect.poll(() => tabKeys(page)).toEqual([HOME_PATH, LIST, ADD]);
    await expect.poll(() => page.getByTestId(`tab-${ADD}`).getAttribute("data-active")).toBe("true");

    await page.getByTestId(`tab-${LIST}`).click();
    await expectPath(page, LIST);
    await expect.poll(() => page.getByTestId(`tab-${LIST}`).getAttribute("data-active")).toBe("true");

    await page.reload();
    await expect.poll(() => tabKeys(page)).toEqual([HOME_PATH, LIST, ADD]);
    await expectPath(page, LIST);

    await tabMenu(page, LIST, "close-others");
    await expect.poll(() => tabKeys(page)).toEqual([HOME_PATH, LIST]);

    // closing the current tab by its close button returns to the tab before
    await page.locator(".ant-tabs-tab").filter({ has: page.getByTestId(`tab-${LIST}`) }).locator(".ant-tabs-tab-remove").click();
    await expectPath(page, HOME_PATH);
    await expect.poll(() => tabKeys(page)).toEqual([HOME_PATH]);

    await clickMenuEntry(page, LIST);
    await expectPath(page, LIST);
    await page.getByRole("button", { name: en.crud.add }).filter({ visible: true }).click();
    await expectPath(page, ADD);
    await tabMenu(page, ADD, "close-all");
    await expectPath(page, HOME_PATH);
    await expect.poll(() => tabKeys(page)).toEqual([HOME_PATH]);
  });

  test("the school's crowded top bar stays one row on a 1366 px screen in Chinese, every tool inside the window", async () => {
    const page = await (await suite.newContext("zh-CN")).newPage();
    await login(page, suite.url, "school");
    await dismissExpiryReminder(page);
    await page.getByTestId("header-expiry").waitFor();
    const bar = (await page.getByTestId("top-bar").boundingBox())!;
    const breadcrumb = (await page.getByTestId("breadcrumb").boundingBox())!;
    const avatar = (await page.getByTestId("avatar-dropdown").boundingBox())!;
    expect(bar.height).toBeLessThanOrEqual(50);
    // on one row: the breadcrumb and the avatar share it, and the avatar is not pushed out of the window
    expect(Math.abs(breadcrumb.y + breadcrumb.height / 2 - (avatar.y + avatar.height / 2))).toBeLessThan(8);
    expect(avatar.x + avatar.width).toBeLessThanOrEqual(page.viewportSize()!.width);
    expect(await page.getByTestId("header-renew").isVisible()).toBe(true);
  });
});
