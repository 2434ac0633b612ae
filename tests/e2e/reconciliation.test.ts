/**
 * Reconciliation in Chromium against the real server: svc opens its sandbox channel's record page, where a
 * reconciled day has a difference (a payment the sandbox took while the console was never told), finds it under
 * "To resolve", resolves it from its row, and sees the day resolved and the order paid.
 */
import type { Page } from "playwright-core";
import { and, eq } from "drizzle-orm";
import { expect, test } from "vitest";
import { feeOrders, paymentChannels, reconItems } from "../../server/db/schema";
import { animationsSettled, describeInBrowser, dismissExpiryReminder, login } from "../helpers/browser";
import { en } from "../helpers/locales";

const active = (page: Page) => page.getByTestId("page-active");

describeInBrowser("reconciliation", (suite) => {
  test("svc resolves a day's difference from its page: the lost payment is applied to its order", async () => {
    const { page } = suite;
    await login(page, suite.url, "svc");
    await dismissExpiryReminder(page);
    // the sandbox channel's record page: its reconciled days, and their items to resolve
    const db = suite.server.server.database.db;
    const [channel] = await db.select({ id: paymentChannels.id }).from(paymentChannels).where(eq(paymentChannels.title, "Sunrise Campus Services sandbox"));
    await page.goto(`${suite.url}/sysadminv2/paychnl_info/${channel.id}`);
    const days = active(page).getByTestId("related-recon");
    await days.locator("tbody tr.ant-table-row").filter({ hasText: en.recon.status.differences }).first().waitFor();

    const related = active(page).getByTestId("related-reconitem");
    await related.waitFor();
    await related.getByRole("tab", { name: new RegExp(en.recon.item_status.open) }).click();
    const row = related.locator("tbody tr.ant-table-row").filter({ hasText: en.recon.outcome.status_mismatch });
    await row.waitFor();
    expect(await related.locator("tbody tr.ant-table-row").count()).toBe(1);
    const [open] = await db.select({ payNo: reconItems.pay_no }).from(reconItems).where(and(eq(reconItems.paychnl_id, channel.id), eq(reconItems.status, "open")));
    const payNo = open.payNo;
    expect(await row.textContent()).toContain(payNo);
    await row.getByTestId("row-reconresolve").click();
    await page.getByTestId("row-form-reconresolve").waitFor();
    await animationsSettled(page);
    await page.locator(".ant-modal").getByRole("button", { name: en.common.confirm }).click();
    await page.getByText(en.recon.resolved_payment).waitFor();

    // nothing left to resolve: the day is resolved, the payment's order paid
    await expect.poll(() => related.locator("tbody tr.ant-table-row").count()).toBe(0);
    expect((await db.select({ status: reconItems.status }).from(reconItems).where(eq(reconItems.pay_no, payNo))).map((i) => i.status)).toEqual(["resolved"]);
    expect((await db.select({ status: feeOrders.status }).from(feeOrders).where(eq(feeOrders.pay_no, payNo)))[0].status).toBe("paid");
    await page.reload();
    await days.getByRole("tab", { name: new RegExp(en.recon.status.differences) }).waitFor();
    await expect.poll(() => days.locator("tbody tr.ant-table-row").filter({ hasText: en.recon.status.differences }).count()).toBe(0);
    expect(await days.locator("tbody tr.ant-table-row").filter({ hasText: en.recon.status.resolved }).count()).toBe(1);
  });
});
