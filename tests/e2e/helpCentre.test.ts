/**
 * The help centre in the browser: an operator writes a question (its answer pasted with a script in it) and a
 * school reads it clean on the help page, opened from the header's help icon, searched in Chinese; a pickup clerk
 * on a phone opens it from the header's menu and from the search, and reads what is meant for clerks.
 */
import type { Locator, Page } from "playwright-core";
import { expect, test } from "vitest";
import { choose, describeInBrowser, dismissExpiryReminder, expectPath, login } from "../helpers/browser";
import { en, zh } from "../helpers/locales";

const HELP = "/helpcenter";

function active(page: Page): Locator {
  return page.getByTestId("page-active");
}

/** the questions' titles as the help page shows them */
async function questions(page: Page): Promise<string[]> {
  const titles = await active(page).locator('[data-testid^="help-question-"]').allInnerTexts();
  return titles.map((t) => t.trim());
}

describeInBrowser("the help centre", (suite) => {
  test("an operator writes a question; a school finds it by a Chinese word and reads its answer clean", async () => {
    const { page } = suite;
    await page.setViewportSize({ width: 1440, height: 900 });
    await login(page, suite.url, "sysadmin");
    await page.goto(`${suite.url}/help/probladd`);
    const form = active(page);
    await form.locator("#title").fill("退款多久到账？");
    await choose(page, form.locator(".ant-select").filter({ has: page.locator("#cate_id") }), "退款");
    await form.locator("#content").fill('<p>退款原路退回，一般 1 至 3 个工作日到账。<script>window.__helpScript = 1</script><img src="https://cdn.example.com/x.png" onerror="window.__helpScript = 2"></p>');
    await choose(page, form.locator(".ant-select").filter({ has: page.locator("#roles") }), en.help.audience.school);
    await page.keyboard.press("Escape");
    await form.getByTestId("form-save").click();
    await page.getByText(en.crud.created.replace("{{entity}}", en.help.entity.probl)).waitFor();

    const school = await (await suite.newContext("zh-CN")).newPage();
    await school.setViewportSize({ width: 1440, height: 900 });
    await login(school, suite.url, "school");
    await dismissExpiryReminder(school);
    await school.getByTestId("header-manual").click();
    await expectPath(school, HELP);
    await active(school).getByTestId("help-questions").waitFor();
    // the categories the school may read, each with its count, and the user manual of the site settings
    expect(await active(school).locator(".ant-tabs-tab").allInnerTexts()).toEqual([`${zh.help.centre.all} 8`, "账号与登录 2", "收费与缴费 3", "退款 3"]);
    expect(await active(school).getByTestId("help-user-manual").getAttribute("href")).toBe("https://docs.example.com/campus-pay-console/manual");

    await active(school).getByTestId("help-search").fill("退款");
    await active(school).getByTestId("help-search").press("Enter");
    // the operator's question first, as its order (0) puts it
    await expect.poll(() => questions(school)).toEqual(["退款多久到账？退款", "如何退款？退款", "部分退款后还能再次退款吗？退款"]);
    // the words found are marked, and the search is kept in the address
    expect(await active(school).locator("mark").first().innerText()).toBe("退款");
    expect(new URL(school.url()).searchParams.get("q")).toBe("退款");
    await active(school).getByText("退款多久到账？").click();
    const answer = active(school).locator('[data-testid^="help-answer-"]').filter({ hasText: "一般 1 至 3 个工作日到账" });
    await answer.waitFor();
    expect(await answer.locator("script").count()).toBe(0);
    expect(await answer.locator("img").getAttribute("onerror")).toBeNull();
    expect(await school.evaluate(() => (window as unknown as { __helpScript?: number }).__helpScript)).toBeUndefined();

    // a word nothing holds says so
    await active(school).getByTestId("help-search").fill("打印机");
    await active(school).getByTestId("help-search").press("Enter");
    await expect.poll(() => active(school).getByTestId("help-empty").innerText()).toContain("打印机");
  });

  test("390 px: a pickup clerk opens the help page from the header's menu and the search, and reads what is meant for clerks", async () => {
    const page = await (await suite.newContext("zh-CN")).newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await login(page, suite.url, "pickup");
    await page.getByTestId("header-more").click();
    await page.getByTestId("header-more-menu").getByTestId("more-manual").click();
    await expectPath(page, HELP);
    await active(page).getByTestId("help-questions").waitFor();
    expect(await active(page).locator(".ant-tabs-tab").allInnerTexts()).toContain("商城与核销 1");
    await active(page).getByTestId("help-search").fill("核销");
    await active(page).getByTestId("help-search").press("Enter");
    // the one question found opens at once
    await expect.poll(() => questions(page)).toEqual(["核销员如何核销自提订单？商城与核销"]);
    await active(page).locator('[data-testid^="help-answer-"]').filter({ hasText: "8 位取货码" }).waitFor();
    const box = (await active(page).getByTestId("help-centre").boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);

    // the search of the pages finds it too
    await page.goto(`${suite.url}/Dashboard/Dashboard`);
    await page.getByTestId("header-search-open").click();
    await page.getByTestId("header-search").fill("帮助");
    await page.getByTestId(`search-result-${HELP}`).click();
    await expectPath(page, HELP);
  });
});
