/**
 * A mini-program published in the browser through the sandbox: the operator submits Sunrise's experience version,
 * is refused once by an error code injected (said in words), has the sandbox pass the audit, checks it and releases
 * the version; the provider with the upload flag reads its own apps on a phone in Chinese without the platform's
 * provider column, and its mini-program settings hold its own ext config only.
 */
import type { Page } from "playwright-core";
import { expect, test } from "vitest";
import { animationsSettled, choose, describeInBrowser, login } from "../helpers/browser";
import { en, zh } from "../helpers/locales";

const APP = "Sunrise 校园缴费";

/** Runs a record action of the app's row: its dialog's fields filled by `fill`, then confirmed. */
async function act(page: Page, action: string, fill?: () => Promise<void>): Promise<void> {
  const row = page.getByTestId("page-active").locator("tbody tr.ant-table-row").filter({ hasText: APP });
  await row.getByTestId(`row-${action}`).click();
  const dialog = page.locator(".ant-modal, .ant-popover").filter({ visible: true });
  await dialog.first().waitFor();
  await animationsSettled(page);
  await fill?.();
  await dialog.getByRole("button", { name: en.common.confirm }).click();
}

describeInBrowser("mini-program publishing", (suite) => {
  test("1440 px: an experience version is submitted, refused once in words, audited in the sandbox and released", async () => {
    const { page } = suite;
    await page.setViewportSize({ width: 1440, height: 900 });
    await login(page, suite.url, "sysadmin", { to: "/sysadminv2/wxpublish" });
    const row = page.getByTestId("page-active").locator("tbody tr.ant-table-row").filter({ hasText: APP });
    await row.getByText(en.miniapps.state.committed).waitFor();

    await act(page, "miniappsandbox", async () => {
      const form = page.getByTestId("row-form-miniappsandbox");
      await choose(page, form.locator(".ant-select").first(), en.miniapps.sandbox_event.inject_error);
      await choose(page, form.locator(".ant-select").nth(1), en.miniapps.errcode["61039"]);
    });
    await page.getByText(en.miniapps.sandbox_done).first().waitFor();
    await act(page, "miniappsubmit", () => page.getByTestId("row-form-miniappsubmit").locator("#version_desc").fill("Test account: demo / demo"));
    await page.getByText(en.miniapps.errcode["61039"], { exact: false }).first().waitFor();
    // the dialog stays open on a refusal: sent again, the injected error was answered once
    const dialog = page.locator(".ant-modal").filter({ visible: true });
    expect(await dialog.getByTestId("row-form-miniappsubmit").locator("#version_desc").inputValue()).toBe("Test account: demo / demo");
    await dialog.getByRole("button", { name: en.common.confirm }).click();
    await row.getByText(en.miniapps.state.auditing).waitFor();
    await act(page, "miniappsandbox", () => choose(page, page.getByTestId("row-form-miniappsandbox").locator(".ant-select").first(), en.miniapps.sandbox_event.audit_success));
    await act(page, "miniappaudit");
    await row.getByText(en.miniapps.state.audit_passed).waitFor();
    await act(page, "miniapprelease");
    await row.getByText(en.miniapps.state.released).waitFor();
    expect(await row.innerText()).toContain("1.3.0");
  });

  test("390 px in Chinese: a provider reads its own apps and its own settings", async () => {
    const phone = await (await suite.newContext("zh-CN")).newPage();
    await phone.setViewportSize({ width: 390, height: 844 });
    await login(phone, suite.url, "svc", { to: "/sysadminv2/channellist" });
    const active = phone.getByTestId("page-active");
    await active.getByText("Sunrise 缴费（支付宝）").waitFor();
    const text = await active.innerText();
    expect(text).not.toContain("Harbour Pay");
    expect(text).not.toContain(zh.miniapps.field.provider);
    expect(await phone.locator(".ant-message-error").count()).toBe(0);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await phone.goto(`${suite.url}/sysadminv2/microappset`);
    const form = phone.getByTestId("settings-page-form");
    await form.locator("#ext_defaults").waitFor();
    expect(await form.locator("#component_appid").count()).toBe(0);
  });
});
