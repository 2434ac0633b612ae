/**
 * A provider registers in the browser: it applies on /register from the login page (its licence's picture uploaded
 * without an account), follows its application by its link, an operator approves it on registeradmin choosing its
 * version, term and administrator's username, the applicant sets its password on its page and signs in to its own
 * provider's console. On a phone the form fits the screen.
 */
import sharp from "sharp";
import { expect, test } from "vitest";
import { animationsSettled, choose, describeInBrowser, expectPath, login } from "../helpers/browser";
import { en, zh } from "../helpers/locales";

describeInBrowser("provider registration", (suite) => {
  test("390 px: an organisation applies, is approved and signs in as its provider's administrator", async () => {
    const applicant = await (await suite.newContext("zh-CN")).newPage();
    await applicant.setViewportSize({ width: 390, height: 844 });
    await applicant.goto(`${suite.url}/login`);
    await applicant.getByTestId("login-register").click();
    await expectPath(applicant, "/register");
    const form = applicant.getByTestId("register-form");
    await form.locator("#org").fill("明远教育服务有限公司");
    await form.locator("#contact").fill("李娜");
    await form.locator("#mobile").fill("13912345001");
    await form.locator("#email").fill("lina@mingyuan.example.com");
    await choose(applicant, form.getByTestId("register-region"), "江苏");
    const licence = await sharp({ create: { width: 640, height: 420, channels: 3, background: "#f4efe1" } }).png().toBuffer();
    await form.locator("input[type=file]").setInputFiles({ name: "licence.png", mimeType: "image/png", buffer: licence });
    await expect.poll(() => form.locator(".ant-upload-list-item-done, .ant-upload-list-item").count()).toBeGreaterThan(0);
    await expect.poll(() => form.locator(".ant-upload-list-item-uploading").count()).toBe(0);
    await form.locator("#message").fill("为苏州工业园区的学校提供收费服务");
    expect(await applicant.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await applicant.getByTestId("register-submit").click();
    await applicant.getByTestId("register-status-pending").waitFor();
    const followUrl = applicant.url();
    expect(new URL(followUrl).pathname).toMatch(/^\/register\/[A-Za-z0-9_-]{40,}$/);
    expect(await applicant.getByTestId("register-org").innerText()).toBe("明远教育服务有限公司");

    // the operator finds it waiting and approves it
    const { page } = suite;
    await page.setViewportSize({ width: 1440, height: 900 });
    await login(page, suite.url, "sysadmin");
    await page.goto(`${suite.url}/registeradminv2/registeradmin`);
    const row = page.getByTestId("page-active").locator("tbody tr.ant-table-row").filter({ hasText: "明远教育服务有限公司" });
    await row.waitFor();
    await row.getByTestId("row-registerreview").click();
    const review = page.getByTestId("row-form-registerreview");
    await review.waitFor();
    await animationsSettled(page);
    await choose(page, review.locator(".ant-select").first(), en.register.result.approve);
    await review.locator("#end_time").click();
    await review.locator("#end_time").fill("2027-12-31");
    await review.locator("#end_time").press("Enter");
    await review.locator("#username").fill("mingyuan");
    await page.locator(".ant-modal").getByRole("button", { name: en.common.confirm }).click();
    await page.getByText(en.register.approved.replace("{{username}}", "mingyuan")).waitFor();

    // the applicant's page now asks for the password, once
    await applicant.goto(followUrl);
    await applicant.getByTestId("register-status-approved").waitFor();
    const passwordForm = applicant.getByTestId("register-password-form");
    await passwordForm.locator("#password").fill("mingyuan2027");
    await passwordForm.locator("#password2").fill("mingyuan2027");
    await applicant.getByTestId("register-password-submit").click();
    await applicant.getByTestId("register-sign-in").waitFor();
    expect(await applicant.getByTestId("register-status-approved").innerText()).toContain(zh.register.page.password_done.replace("{{username}}", "mingyuan"));
    await applicant.getByTestId("register-sign-in").click();
    await login(applicant, suite.url, "mingyuan", { password: "mingyuan2027" });
    // its own provider's console, greeting it by its organisation's name
    await applicant.getByText(zh.pages.welcome.replace("{{name}}", "明远教育服务有限公司")).waitFor();
  });
});
