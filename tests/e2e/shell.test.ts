/**
 * Spec 2.4, 9, DESIGN 7: language switching (persisted in the language cookie), the tab bar and the top bar's
 * layout: one row on a desktop, and on a phone one compact row whose tools fold into one menu.
 */
import { expect, test } from "vitest";
import { businessDay } from "../../common/term";
import { animationsSettled, cookieValue, describeInBrowser, dismissExpiryReminder, expectPath, HOME_PATH, login, clickMenuEntry, menuEntry, tabKeys, tabMenu } from "../helpers/browser";
import { en, es, zh } from "../helpers/locales";

const LIST = "/servicev2/servicelist";
const NO1 = "Sunrise No.1 Primary School";
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
    // the copyright runs to this year, China's
    await expect.poll(() => page.getByTestId("footer").innerText()).toContain(`2018-${businessDay(new Date()).slice(0, 4)} ©`);
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

  test("390 px: the top bar is one compact row, its tools folded into one menu: who one is, renewal, fullscreen, size, language, settings", async () => {
    const page = await (await suite.newContext("zh-CN")).newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await login(page, suite.url, "school");
    await dismissExpiryReminder(page);
    const bar = page.getByTestId("top-bar");
    await page.getByTestId("header-more").waitFor();
    // one row of the height of a desktop's bar: the breadcrumb, the tools and the avatar side by side
    expect((await bar.boundingBox())!.height).toBeLessThanOrEqual(50);
    const middle = async (testId: string) => {
      const box = (await page.getByTestId(testId).boundingBox())!;
      return box.y + box.height / 2;
    };
    for (const testId of ["header-more", "avatar-dropdown", "header-search-open"]) expect(Math.abs((await middle(testId)) - (await middle("breadcrumb")))).toBeLessThan(8);
    expect((await page.getByTestId("avatar-dropdown").boundingBox())!.x + 32).toBeLessThanOrEqual(390);
    // the desktop's tools are not in the bar
    for (const testId of ["header-fullscreen", "header-size", "language-switch", "header-settings", "header-welcome", "header-renew"]) {
      expect(await bar.getByTestId(testId).count(), testId).toBe(0);
    }
    // customer service closes the page, in its footer, where a floating button would cover the page's content
    await expect.poll(() => page.getByTestId("footer").getByTestId("customer-service").isVisible()).toBe(true);
    expect(await page.locator(".ant-float-btn").count()).toBe(0);
    // the dashboard's day labels stand apart
    const labels = await page.getByTestId("collection-bars").locator("text").evaluateAll((texts) =>
      texts.filter((t) => /^\d\d-\d\d$/.test(t.textContent ?? "")).map((t) => t.getBoundingClientRect()).map((r) => [r.left, r.right]),
    );
    expect(labels.length).toBeGreaterThan(2);
    for (let i = 1; i < labels.length; i++) expect(labels[i]![0], `label ${i}`).toBeGreaterThan(labels[i - 1]![1]);

    await page.getByTestId("header-more").click();
    const menu = page.getByTestId("header-more-menu");
    await menu.waitFor();
    // the welcome shows whole, with the school one acts for and its term
    const welcome = menu.getByTestId("header-welcome");
    expect(await welcome.innerText()).toMatch(/Sunrise No\.1 Primary Administrator.school.$/);
    expect(await welcome.evaluate((el) => el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight + 1)).toBe(true);
    expect(await menu.getByTestId("header-login-type").innerText()).toContain(NO1);
    expect(await menu.getByTestId("header-expiry").isVisible()).toBe(true);
    for (const testId of ["more-renew", "more-qr", "more-manual", "more-download", "more-fullscreen", "more-settings", "more-size-small", "more-language-en"]) {
      expect(await menu.getByTestId(testId).isVisible(), testId).toBe(true);
    }
    const box = (await menu.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);

    // a size and a language apply at once, the menu staying open
    await menu.getByTestId("more-size-small").click();
    await expect.poll(() => cookieValue(page, "size")).toBe("small");
    await menu.getByTestId("more-language-en").click();
    await expect.poll(() => page.getByTestId("breadcrumb").innerText()).toBe(en.shell.dashboard);
    expect(await cookieValue(page, "language")).toBe("en");
    expect(await menu.isVisible()).toBe(true);
    await menu.getByTestId("more-settings").click();
    await page.getByTestId("settings-drawer").waitFor();
    await expect.poll(() => menu.isVisible()).toBe(false);

    // the search opens in the breadcrumb's place, on the same row
    await page.keyboard.press("Escape");
    await animationsSettled(page);
    await page.getByTestId("header-search-open").click();
    await page.getByTestId("header-search").fill("class");
    await expect.poll(async () => (await bar.boundingBox())!.height).toBeLessThanOrEqual(50);
    await page.getByTestId("search-result-/datacount/class_statisv2").click();
    await expectPath(page, "/datacount/class_statisv2");
    await page.getByTestId("breadcrumb").waitFor();

    // on a wide screen the tools stay in the bar
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.getByTestId("language-switch").waitFor();
    expect(await page.getByTestId("header-more").count()).toBe(0);
  });
});
