/**
 * Refunds in Chromium against the real server and its job worker: svc refunds part of a paid order from its record
 * and, once the worker has sent it to the sandbox and asked after it, sees the order partly refunded with the refund
 * done on its record and the refund's receipt after the order's voucher; the school asks for a refund from its order list, and svc, whose home page and
 * after-sales menu entry count the requests waiting for it, reviews it with the order's paid and refunded amounts, the amount asked, the reason and who
 * asked in view (on a phone too) and approves it: it then no longer waits, and the counts (the list's and the menu's) say
 * so at once.
 */
import type { Page } from "playwright-core";
import { and, asc, eq, notExists } from "drizzle-orm";
import { expect, test } from "vitest";
import { fenToYuan } from "../../common/money";
import { feeOrders, refunds, providers, schools } from "../../server/db/schema";
import { animationsSettled, choose, describeInBrowser, dismissExpiryReminder, login } from "../helpers/browser";
import { en } from "../helpers/locales";

const SCHOOL = "Sunrise No.1 Primary School";
const active = (page: Page) => page.getByTestId("page-active");
/** the worker looks for due jobs every five seconds: a refund is done within a few polls */
const WORKER_POLLS = { timeout: 30_000, interval: 500 };

/** What the pay count by school (paycountv2) shows refunded to the school's payers, in fen. */
async function schoolRefunded(page: Page): Promise<number> {
  await page.goto(`${new URL(page.url()).origin}/datacount/paycountv2`);
  const row = active(page).getByTestId("report-table").locator("tbody tr.ant-table-row").filter({ hasText: SCHOOL });
  await row.waitFor();
  const header = (await active(page).getByTestId("report-table").locator(".ant-table-thead th").allInnerTexts()).map((h) => h.trim());
  const cell = (await row.locator("td").allInnerTexts())[header.indexOf(en.reports.measure.refund_amount)]!;
  return Math.round(Number(cell.replace(/[¥,\s]/g, "")) * 100);
}

describeInBrowser("refunds", (suite) => {
  /** paid orders of the school no refund touched, first by id */
  const untouched = async (count: number) => {
    const db = suite.server.server.database.db;
    const [school] = await db.select({ id: schools.id }).from(schools).where(eq(schools.title, SCHOOL));
    return db
      .select()
      .from(feeOrders)
      .where(and(eq(feeOrders.sch_id, school.id), eq(feeOrders.status, "paid"), notExists(db.select().from(refunds).where(eq(refunds.order_id, feeOrders.id)))))
      .orderBy(asc(feeOrders.id))
      .limit(count);
  };

  /**
   * Fills the refund dialog of the page's refund button and sends it; answers the server's message shown. The
   * amount starts as what is left to refund of the order (`prefilled`).
   */
  const refund = async (page: Page, scope: ReturnType<typeof active>, amount: string, reason: string, prefilled?: string) => {
    await scope.getByTestId("row-refundadd").first().click();
    const form = page.getByTestId("row-form-refundadd");
    await form.waitFor();
    await animationsSettled(page);
    if (prefilled !== undefined) expect(await form.locator("#amount").inputValue()).toBe(prefilled);
    await form.locator("#amount").fill(amount);
    await form.locator("#reason").fill(reason);
    await page.locator(".ant-modal").getByRole("button", { name: en.common.confirm }).click();
  };

  test("svc refunds part of an order from its record and sees it done on the order once the gateway has it", async () => {
    const { page } = suite;
    const [order] = await untouched(1);
    const part = fenToYuan(Math.floor(order.amount / 4));
    await login(page, suite.url, "svc");
    await dismissExpiryReminder(page);
    const refundedBefore = await schoolRefunded(page);
    await page.goto(`${suite.url}/order/orderinfov2/${order.id}`);
    await refund(page, active(page), part, "Books returned", fenToYuan(order.amount));
    await page.getByText(en.refunds.accepted.replace("{{refund_no}}", `${order.pay_no}R01`).replace("{{amount}}", part)).waitFor();

    // the job worker sends it and asks after it: the record, read again, shows the order partly refunded
    const status = active(page).locator(".ant-descriptions-item, tr").filter({ hasText: en.collection.field.order_status }).first();
    await expect
      .poll(async () => {
        await page.reload();
        await active(page).getByText(order.order_no).first().waitFor();
        return status.textContent();
      }, WORKER_POLLS)
      .toContain(en.collection.order_status.part_refunded);
    const refunds = active(page).getByTestId("related-refund").locator("tbody tr").filter({ hasText: `${order.pay_no}R01` });
    await expect.poll(() => refunds.textContent()).toContain(en.refunds.status.success);
    expect(await refunds.textContent()).toContain(part);
    expect(await refunds.textContent()).toContain("支付用户零钱");
    // the school's pay count has it among its refunds
    expect(await schoolRefunded(page)).toBe(refundedBefore + Math.floor(order.amount / 4));

    // its voucher is followed by the refund's receipt
    await page.goto(`${suite.url}/order/orderprintsv2/${order.id}`);
    const receipt = active(page).getByTestId("refund-receipt");
    await receipt.waitFor();
    expect(await receipt.getByTestId("refund-receipt-no").textContent()).toBe(`${order.pay_no}R01`);
    expect(await receipt.getByTestId("refund-receipt-amount").textContent()).toBe(part);
  });

  test("the school asks for a refund; svc approves it from the after-sales list", async () => {
    const { page } = suite;
    const [order] = await untouched(1);
    const whole = fenToYuan(order.amount);
    await login(page, suite.url, "school", { to: `/order/orderlistv2?filters[0][field]=order_no&filters[0][operator]=eq&filters[0][value]=${order.order_no}` });
    await dismissExpiryReminder(page);
    await active(page).getByText(order.order_no).first().waitFor();
    await refund(page, active(page), whole, "Moved away");
    await page.getByText(en.refunds.requested.replace("{{amount}}", whole)).waitFor();

    // what waits for Sunrise's decision, as the database holds it
    const db = suite.server.server.database.db;
    const [sunrise] = await db.select({ id: providers.id }).from(providers).where(eq(providers.title, "Sunrise Campus Services"));
    const waiting = async () => (await db.select({ id: refunds.id }).from(refunds).where(and(eq(refunds.sysid, sunrise.id), eq(refunds.status, "applied")))).length;
    const before = await waiting();

    const provider = await (await suite.newContext()).newPage();
    await login(provider, suite.url, "svc");
    await dismissExpiryReminder(provider);
    // counted on the home page and on the after-sales entry of the menu (its group's too, while closed)
    await expect.poll(() => provider.getByTestId("dashboard-waiting-refunds-value").textContent()).toBe(String(before));
    await expect.poll(() => provider.getByTestId("waiting-badge-/order").textContent()).toBe(String(before));
    await provider.getByTestId("menu-/order").click();
    await expect.poll(() => provider.getByTestId("waiting-badge-/order/saleslist").textContent()).toBe(String(before));
    await provider.getByTestId("dashboard-waiting-refunds").click();
    await provider.waitForURL((url) => url.pathname === "/order/saleslist");
    const row = active(provider).locator("tbody tr.ant-table-row").filter({ hasText: order.order_no });
    await row.waitFor();
    expect(await row.textContent()).toContain(en.refunds.status.applied);
    await row.getByTestId("row-refundreview").click();
    const form = provider.getByTestId("row-form-refundreview");
    await form.waitFor();
    await animationsSettled(provider);
    // what the decision is about: the order's money, the amount asked, why and who asked
    const context = provider.getByTestId("refund-review-context");
    await expect.poll(() => context.getByTestId("refund-review-paid").textContent()).toContain(whole);
    expect(await context.getByTestId("refund-review-refunded").textContent()).toContain("0.00");
    expect(await context.getByTestId("refund-review-asked").textContent()).toContain(whole);
    expect(await context.getByTestId("refund-review-reason").textContent()).toBe("Moved away");
    expect(await context.getByTestId("refund-review-by").textContent()).toContain("school");
    expect(await context.getByTestId("refund-review-order").textContent()).toContain(order.order_no);
    await choose(provider, form.locator(".ant-select").first(), en.refunds.result.approve);
    await provider.locator(".ant-modal").getByRole("button", { name: en.common.confirm }).click();
    await provider.getByText(en.refunds.approved).waitFor();
    // decided: it waits no more (its row, beside the others, offers no review), and the counts say so without a reload
    await expect.poll(() => row.getByTestId("row-refundreview").count()).toBe(0);
    await expect.poll(() => active(provider).getByTestId("state-tab-applied").getByTestId("state-tab-count").textContent()).toBe(String(before - 1));
    const badge = provider.getByTestId("waiting-badge-/order/saleslist");
    if (before > 1) await expect.poll(() => badge.textContent()).toBe(String(before - 1));
    else await expect.poll(() => badge.count()).toBe(0);
    await expect
      .poll(async () => (await suite.server.server.database.db.select({ status: feeOrders.status }).from(feeOrders).where(eq(feeOrders.id, order.id)))[0].status, WORKER_POLLS)
      .toBe("refunded");
  });

  test("on a phone, the review shows the order's money, the amount asked, the reason and who asked, within the screen", async () => {
    const [order] = await untouched(1);
    const db = suite.server.server.database.db;
    await db.insert(refunds).values({
      order_id: order.id, pay_no: order.pay_no, sch_id: order.sch_id, sysid: order.sysid, student_id: order.student_id,
      amount: 100, reason: "Uniform too small", status: "applied", kind: "request", applied_by: "school", gateway: order.gateway, created_at: new Date(),
    });
    const phone = await (await suite.newContext(undefined, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })).newPage();
    await login(phone, suite.url, "svc", { to: "/order/saleslist" });
    await dismissExpiryReminder(phone);
    const card = active(phone).getByTestId("record-card").filter({ hasText: order.order_no });
    await card.getByTestId("row-refundreview").click();
    const context = phone.getByTestId("refund-review-context");
    await expect.poll(() => context.getByTestId("refund-review-paid").textContent()).toContain(fenToYuan(order.amount));
    expect(await context.getByTestId("refund-review-asked").textContent()).toContain("1.00");
    expect(await context.getByTestId("refund-review-reason").textContent()).toBe("Uniform too small");
    const box = await context.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
  });
});
