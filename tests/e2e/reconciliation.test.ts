/**
 * Reconciliation in Chromium against the real server: svc opens the reconciled day that has a difference (a
 * payment the sandbox took while the console was never told), finds it under "To resolve", resolves it from its
 * row, and sees the day resolved and the order paid.
 */
import type { Page } from "playwright-core";
import { eq } from "drizzle-orm";
import { expect, test } from "vitest";
import { feeOrders, reconItems } from "../../server/db/schema";
import { animationsSettled, describeInBrowser, dismissExpiryReminder, login } from "../helpers/browser";
import { en } from "../helpers/locales";

const active = (page: Page) => page.getByTestId("page-active");

describeInBrowser("reconciliation", (suite) => {
  test("svc resolves a day's difference from its page: the lost payment is applied to its order", async () => {
    const { page } = suite;
    await login(page, suite.url, "svc");
    await dismissExpiryReminder(page);
    await page.goto(`${suite.url}/datacount/reconlist`);
    const day = active(page).locator("tbody tr.ant-table-row").filter({ hasText: en.recon.status.differences });
    await day.waitFor();
    await day.getByRole("button", { name: en.crud.detail }).click();

    const related = active(page).getByTestId("related-reconitem");
    await related.waitFor();
    await related.getByRole("tab", { name: new RegExp(en.recon.item_status.open) }).click();
    const row = related.locator("tbody tr.ant-table-row").filter({ hasText: en.recon.outcome.status_mismatch });
    await row.waitFor();
    expect(await related.locator("tbody tr.ant-table-row").count()).toBe(1);
    const payNo = (await row.locator("td").nth(1).textContent())!.trim();
    await row.getByTestId("row-reconresolve").click();
    await page.getByTestId("row-form-reconresolve").waitFor();
    await animationsSettled(page);
    await page.locator(".ant-modal").getByRole("button", { name: en.common.confirm }).click();
    await page.getByText(en.recon.resolved_payment).waitFor();

    // nothing left to resolve: the day is resolved, the payment's order paid
    await expect.poll(() => related.locator("tbody tr.ant-table-row").count()).toBe(0);
    const db = suite.server.server.database.db;
    expect((await db.select({ status: reconItems.status }).from(reconItems).where(eq(reconItems.pay_no, payNo))).map((i) => i.status)).toEqual(["resolved"]);
    expect((await db.select({ status: feeOrders.status }).from(feeOrders).where(eq(feeOrders.pay_no, payNo)))[0].status).toBe("paid");
    await page.reload();
    await expect.poll(() => active(page).locator(".ant-descriptions-item, tr").filter({ hasText: en.recon.field.status }).first().textContent()).toContain(en.recon.status.resolved);
  });
});
