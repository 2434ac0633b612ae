/**
 * The public website in the browser: a visitor goes from the login page to the site and reads an article; an
 * operator changes the home page's slogan and publishes an article, and the site shows both.
 */
import { expect, test } from "vitest";
import { choose, describeInBrowser, expectPath, login } from "../helpers/browser";
import { en } from "../helpers/locales";

describeInBrowser("the public website", (suite) => {
  test("390 px: from the login page to the site and an article, with no script on the way", async () => {
    const page = await (await suite.newContext("zh-CN")).newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${suite.url}/login`);
    await page.getByTestId("login-site").click();
    await expectPath(page, "/site");
    expect(await page.getByTestId("site-title").innerText()).toBe("校园缴费平台");
    // nothing wider than the phone
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.getByTestId("site-article").first().click();
    expect(await page.getByTestId("site-article-title").innerText()).toBe("秋季校服征订开始，支持按尺码在线选购");
    expect(await page.locator("script").count()).toBe(0);
    await page.getByTestId("site-nav-login").click();
    await page.getByTestId("login-form").waitFor();
  });

  test("an operator changes the slogan and publishes an article; the site shows both", async () => {
    const { page } = suite;
    await page.setViewportSize({ width: 1440, height: 900 });
    await login(page, suite.url, "sysadmin");
    await page.goto(`${suite.url}/homesv2/syshome`);
    const form = page.getByTestId("page-active");
    const slogan = form.getByTestId("settings-field-slogan");
    await expect.poll(() => slogan.inputValue()).not.toBe("");
    await slogan.fill("一码收齐，家校省心");
    await form.getByTestId("settings-field-sections-add").click();
    await form.getByTestId("section-4-title").fill("数据报表");
    await form.getByTestId("section-4-text").fill("按学校、年级、班级查看收费进度。");
    await form.getByTestId("settings-page-save").click();
    await page.getByText(en.crud.saved).waitFor();

    await page.goto(`${suite.url}/homesv2/articleadd`);
    await form.locator("#title").fill("期末缴费提醒");
    await form.locator("#content").fill("<p>请于 12 月 31 日前完成缴费。</p>");
    await choose(page, form.locator(".ant-select").filter({ has: page.locator("#status") }), en.site.article.published);
    await form.getByTestId("form-save").click();
    await page.getByText(en.crud.created.replace("{{entity}}", en.site.article.entity)).waitFor();

    const visitor = await (await suite.newContext("zh-CN")).newPage();
    await visitor.goto(`${suite.url}/site`);
    expect(await visitor.getByTestId("site-slogan").innerText()).toBe("一码收齐，家校省心");
    expect(await visitor.getByTestId("site-sections").innerText()).toContain("数据报表");
    await visitor.getByTestId("site-article").filter({ hasText: "期末缴费提醒" }).click();
    expect(await visitor.getByTestId("site-article-content").innerText()).toBe("请于 12 月 31 日前完成缴费。");
  });
});
