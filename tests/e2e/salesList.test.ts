/**
 * The after-sales list (saleslist) in Chromium against the real server: one page holding the shop's after-sales and
 * the fee orders' refund requests, reached from the retail orders menu (opening on the shop's after-sales) and from
 * the orders menu (opening on the refund requests). Each part counts its records by state, as the database holds
 * them, and shows each row's amount, reason and who asked beside its decision; the part shown is kept in the address,
 * so a reload and the browser's back find it again; the switch counts what waits in each part. On a phone, both parts
 * fit the screen as cards.
 */
import type { Locator, Page } from "playwright-core";
import { and, count, eq } from "drizzle-orm";
import { expect, test } from "vitest";
import { fenToYuan } from "../../common/money";
import { aftersales, feeOrders, providers, refunds, students } from "../../server/db/schema";
import { clickMenuEntry, describeInBrowser, dismissExpiryReminder, expectPath, login } from "../helpers/browser";
import { en, zh } from "../helpers/locales";

const active = (page: Page) => page.getByTestId("page-active");
/** the name of the part the switch shows */
const shownPart = (page: Page) => active(page).getByTestId("list-parts").locator(".ant-segmented-item-selected").innerText();
/** what a state's tab counts, as shown; ALL for the tab of every state */
const ALL = "__all";
const tabCount = (page: Page, state: string) => active(page).getByTestId(`state-tab-${state}`).getByTestId("state-tab-count").textContent();
const rows = (page: Page) => active(page).locator("tbody tr.ant-table-row");

/** Each text is in a cell of the row seen beside its buttons, not scrolled out of view under them. */
async function inViewBesideButtons(row: Locator, texts: readonly string[]): Promise<void> {
  const buttons = (await row.locator("td").last().boundingBox())!;
  for (const text of texts) {
    const cell = (await row.locator("td").filter({ hasText: text }).first().boundingBox())!;
    expect(cell.x + cell.width, text).toBeLessThanOrEqual(buttons.x + 1);
  }
}

describeInBrowser("the after-sales list", (suite) => {
  const db = () => suite.server.server.database.db;
  const sunrise = async () => (await db().select({ id: providers.id }).from(providers).where(eq(providers.title, "Sunrise Campus Services")))[0]!.id;
  /** Sunrise's after-sales and fee refund requests by state, as the database holds them */
  const afterSaleCounts = async () =>
    new Map((await db().select({ status: aftersales.status, n: count() }).from(aftersales).where(eq(aftersales.sysid, await sunrise())).groupBy(aftersales.status)).map((r) => [r.status, r.n]));
  const requestCounts = async () =>
    new Map(
      (
        await db()
          .select({ status: refunds.status, n: count() })
          .from(refunds)
          .where(and(eq(refunds.sysid, await sunrise()), eq(refunds.payment_kind, "fee"), eq(refunds.kind, "request")))
          .groupBy(refunds.status)
      ).map((r) => [r.status, r.n]),
    );
  /** The tabs show each state's count and their total, every state counted. */
  const expectCounts = async (page: Page, counts: Map<string, number>, states: readonly string[]) => {
    const total = [...counts.values()].reduce((sum, n) => sum + n, 0);
    expect(total).toBeGreaterThan(0);
    await expect.poll(() => tabCount(page, ALL)).toBe(String(total));
    for (const state of states) expect(await tabCount(page, state), state).toBe(String(counts.get(state) ?? 0));
  };
  const AFTERSALE_STATES = ["applied", "agreed", "returning", "received", "refunding", "completed", "refused", "refused_receipt", "cancelled"];
  const REFUND_STATES = ["applied", "rejected", "processing", "success", "closed", "abnormal"];

  test("svc opens it from either menu on the part of that menu, each counted by state, with the amount, reason and who asked beside the decision", async () => {
    const { page } = suite;
    const sales = await afterSaleCounts();
    const requests = await requestCounts();
    const [asked] = await db()
      .select({ no: aftersales.aftersale_no, amount: aftersales.amount, reason: aftersales.reason, student: students.name })
      .from(aftersales)
      .innerJoin(students, eq(students.id, aftersales.student_id))
      .where(and(eq(aftersales.sysid, await sunrise()), eq(aftersales.status, "applied")));
    const [request] = await db()
      .select({ orderNo: feeOrders.order_no, amount: refunds.amount, reason: refunds.reason, by: refunds.applied_by })
      .from(refunds)
      .innerJoin(feeOrders, eq(feeOrders.id, refunds.order_id))
      .where(and(eq(refunds.sysid, await sunrise()), eq(refunds.status, "applied"), eq(refunds.kind, "request")));
    expect(asked && request).toBeTruthy();

    await login(page, suite.url, "svc");
    await dismissExpiryReminder(page);
    // the retail orders menu: the shop's after-sales first
    await clickMenuEntry(page, "/shop/saleslist");
    await expectPath(page, "/shop/saleslist");
    await expect.poll(() => shownPart(page)).toContain(en.aftersales.part.aftersales);
    await expectCounts(page, sales, AFTERSALE_STATES);
    const sale = rows(page).filter({ hasText: asked!.no });
    for (const shown of [fenToYuan(asked!.amount), asked!.reason, asked!.student]) expect(await sale.innerText()).toContain(shown);
    await inViewBesideButtons(sale, [fenToYuan(asked!.amount), asked!.reason, asked!.student, en.aftersales.status.applied]);
    await sale.getByTestId("row-aftersalereview").waitFor();
    // what waits in each part, on the switch: after-sales to review or to receive, requests to review
    await expect.poll(() => active(page).getByTestId("list-part-waiting-aftersales").textContent()).toBe(String((sales.get("applied") ?? 0) + (sales.get("returning") ?? 0)));
    await expect.poll(() => active(page).getByTestId("list-part-waiting-refunds").textContent()).toBe(String(requests.get("applied")));

    // the fee refund requests beside them, named in the address
    await active(page).getByTestId("list-part-refunds").click();
    await page.waitForURL((url) => url.pathname === "/shop/saleslist" && url.searchParams.get("part") === "refunds");
    await expect.poll(() => shownPart(page)).toContain(en.aftersales.part.refunds);
    await expectCounts(page, requests, REFUND_STATES);
    // a fee order's refund has no shop order nor after-sale: no filter for them, the order's filter there
    const filterLabels = () => active(page).getByTestId("list-filters").locator("label").allInnerTexts();
    await expect.poll(filterLabels).toContain(en.refunds.field.order);
    expect(await filterLabels()).not.toContain(en.retail.entity.shoporder);
    expect(await filterLabels()).not.toContain(en.aftersales.entity.aftersale);
    const refund = rows(page).filter({ hasText: request!.orderNo }).filter({ hasText: en.refunds.status.applied });
    for (const shown of [fenToYuan(request!.amount), request!.reason, request!.by]) expect(await refund.innerText()).toContain(shown);
    await inViewBesideButtons(refund, [fenToYuan(request!.amount), request!.reason, request!.by, en.refunds.status.applied]);
    await refund.getByTestId("row-refundreview").waitFor();
    // a reload finds the same part; back, the shop's after-sales again
    await page.reload();
    await expect.poll(() => shownPart(page)).toContain(en.aftersales.part.refunds);
    await expectCounts(page, requests, ["applied"]);
    await page.goBack();
    await page.waitForURL((url) => url.pathname === "/shop/saleslist" && !url.searchParams.has("part"));
    await expect.poll(() => shownPart(page)).toContain(en.aftersales.part.aftersales);
    await expectCounts(page, sales, ["applied"]);

    // the orders menu: the same page, on the fee refund requests first
    await clickMenuEntry(page, "/order/saleslist");
    await expectPath(page, "/order/saleslist");
    await expect.poll(() => shownPart(page)).toContain(en.aftersales.part.refunds);
    await expectCounts(page, requests, REFUND_STATES);
    await refund.getByTestId("row-refundreview").waitFor();
    await active(page).getByTestId("list-part-aftersales").click();
    await expect.poll(() => shownPart(page)).toContain(en.aftersales.part.aftersales);
    await expectCounts(page, sales, AFTERSALE_STATES);
    // an after-sale's page is the shop's: opened from here too
    await rows(page).filter({ hasText: asked!.no }).getByRole("button", { name: en.crud.detail }).click();
    await page.waitForURL((url) => url.pathname.startsWith("/shop/shopordersalesinfo/"));
    await active(page).getByText(asked!.no).first().waitFor();
  });

  test("on a phone, in Chinese, both parts fit the screen as cards with their counts", async () => {
    const phone = await (await suite.newContext("zh-CN", { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })).newPage();
    const requests = await requestCounts();
    const sales = await afterSaleCounts();
    await login(phone, suite.url, "svc", { to: "/order/saleslist" });
    await dismissExpiryReminder(phone);
    await expect.poll(() => shownPart(phone)).toContain(zh.aftersales.part.refunds);
    await expectCounts(phone, requests, ["applied"]);
    const fits = async () => {
      const box = await active(phone).getByTestId("list-parts").boundingBox();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(390);
      expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    };
    await fits();
    await active(phone).getByTestId("record-card").getByTestId("row-refundreview").first().waitFor();
    await active(phone).getByTestId("list-part-aftersales").click();
    await expect.poll(() => shownPart(phone)).toContain(zh.aftersales.part.aftersales);
    await expectCounts(phone, sales, ["applied", "returning"]);
    await active(phone).getByTestId("record-card").getByTestId("row-aftersalereview").first().waitFor();
    await fits();
  });
});
