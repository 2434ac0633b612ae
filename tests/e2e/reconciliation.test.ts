/**
 * Reconciliation in Chromium against the real server: svc opens its sandbox channel's record page, where a
 * reconciled day has a difference (a payment the sandbox took while the console was never told), reconciles that
 * day again, follows the message's link to the difference (its "To resolve" tab), resolves it from its row, and sees
 * the day's row resolved at once, the tab it emptied saying so, and the order paid.
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
    const dayRow = days.locator("tbody tr.ant-table-row").filter({ hasText: en.recon.status.differences }).first();
    await dayRow.waitFor();
    const billDate = (await dayRow.innerText()).match(/\d{4}-\d{2}-\d{2}/)![0];

    // the day reconciled again: the message counts its difference and leads to it
    await active(page).getByTestId("row-reconrun").click();
    const runForm = page.getByTestId("row-form-reconrun");
    await runForm.waitFor();
    await animationsSettled(page);
    const picker = runForm.locator("input#bill_date");
    await picker.click();
    await picker.fill(billDate);
    await picker.press("Enter");
    await page.locator(".ant-modal").filter({ has: runForm }).getByRole("button", { name: en.common.confirm }).click();
    const answer = page.getByTestId("answer-reconrun");
    await answer.waitFor();
    expect(await answer.innerText()).toContain(en.recon.run_done.replace("{{bill_date}}", billDate).split(":")[0]);
    await answer.getByTestId("answer-link-reconrun").click();

    const related = active(page).getByTestId("related-reconitem");
    await related.waitFor();
    await expect.poll(() => related.locator(".ant-tabs-tab-active").innerText()).toContain(en.recon.item_status.open);
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

    // nothing left to resolve: the emptied tab says so and leads to the rest; the day's row, read again without a
    // reload, is resolved with no open item; the payment's order is paid
    await related.getByTestId("related-reconitem-emptied").waitFor();
    expect(await related.getByTestId("related-reconitem-emptied").innerText()).toContain(en.crud.tab_emptied.replace("{{state}}", en.recon.item_status.open));
    expect((await db.select({ status: reconItems.status }).from(reconItems).where(eq(reconItems.pay_no, payNo))).map((i) => i.status)).toEqual(["resolved"]);
    expect((await db.select({ status: feeOrders.status }).from(feeOrders).where(eq(feeOrders.pay_no, payNo)))[0].status).toBe("paid");
    // the day's own row (its first cell), not another whose run time falls on that date
    const resolvedDay = days.locator("tbody tr.ant-table-row").filter({ hasText: new RegExp(`^\\s*${billDate}`) });
    await expect.poll(() => resolvedDay.innerText()).toContain(en.recon.status.resolved);
    expect(await days.locator("tbody tr.ant-table-row").filter({ hasText: en.recon.status.differences }).count()).toBe(0);
    await related.getByTestId("related-reconitem-show-all").click();
    await expect.poll(() => related.locator(".ant-tabs-tab-active").innerText()).toContain(en.crud.tab_all);
    await expect.poll(() => related.locator("tbody tr.ant-table-row").count()).toBeGreaterThan(0);
  });
});
