/**
 * Payment vouchers in Chromium against the real server: svc opens a paid order's record and its voucher (school,
 * student, amount in words, number), downloads it as a PDF, then prints two orders chosen in the order list in one
 * go: the printed page holds the two vouchers alone, one A5 page each; a phone at 390 px reads a voucher whole.
 */
import fs from "node:fs";
import type { Page } from "playwright-core";
import { and, asc, eq } from "drizzle-orm";
import { expect, test } from "vitest";
import { feeOrders, schools, students } from "../../server/db/schema";
import { describeInBrowser, dismissExpiryReminder, login } from "../helpers/browser";
import { pdfPageTexts } from "../helpers/pdfText";

const SCHOOL = "Sunrise No.1 Primary School";
const active = (page: Page) => page.getByTestId("page-active");

describeInBrowser("payment vouchers", (suite) => {
  test("svc opens a paid order's voucher from its record, downloads its PDF and prints a selection of two", async () => {
    const { page } = suite;
    const db = suite.server.server.database.db;
    const [school] = await db.select({ id: schools.id }).from(schools).where(eq(schools.title, SCHOOL));
    const [order] = await db
      .select({ id: feeOrders.id, receipt_no: feeOrders.receipt_no, amount: feeOrders.amount, student: students.name })
      .from(feeOrders)
      .innerJoin(students, eq(students.id, feeOrders.student_id))
      .where(and(eq(feeOrders.sch_id, school.id), eq(feeOrders.status, "paid")))
      .orderBy(asc(feeOrders.id))
      .limit(1);
    expect(order.receipt_no).toMatch(/^\d{10}$/);

    await login(page, suite.url, "svc", { to: `/order/orderinfov2/${order.id}` });
    await dismissExpiryReminder(page);
    await active(page).getByTestId("show-orderprintsv2").click();
    await page.waitForURL((url) => url.pathname === `/order/orderprintsv2/${order.id}`);
    const voucher = active(page).getByTestId("voucher");
    await expect.poll(() => voucher.count()).toBe(1);
    expect(await voucher.getByTestId("voucher-school").textContent()).toBe(SCHOOL);
    expect(await voucher.getByTestId("voucher-student").textContent()).toContain(order.student);
    expect(await voucher.getByTestId("voucher-receipt-no").textContent()).toBe(order.receipt_no);
    const yuan = (Number(order.amount) / 100).toFixed(2);
    expect(await voucher.getByTestId("voucher-amount").textContent()).toBe(yuan);
    const words = (await voucher.getByTestId("voucher-amount-words").textContent()) ?? "";
    expect(words).toMatch(/^[壹贰叁肆伍陆柒捌玖零拾佰仟万]+元/);

    const [download] = await Promise.all([page.waitForEvent("download"), active(page).getByTestId("voucher-pdf").click()]);
    expect(download.suggestedFilename()).toBe(`voucher-${order.receipt_no}.pdf`);
    const pdf = fs.readFileSync((await download.path())!);
    const [text] = pdfPageTexts(pdf);
    expect(text).toContain(order.receipt_no);
    expect(text).toContain(yuan);
    expect(text).toContain(words);

    // two paid orders chosen in the list, printed in one go
    await page.goto(`${suite.url}/order/orderlistv2?filters[0][field]=status&filters[0][operator]=eq&filters[0][value]=paid`);
    const rows = active(page).locator(".ant-table-tbody tr.ant-table-row");
    await rows.first().waitFor();
    for (const i of [0, 1]) await rows.nth(i).locator(".ant-checkbox-input").check();
    await active(page).getByTestId("selection-orderprintsv2").click();
    await page.waitForURL((url) => url.pathname.startsWith("/order/orderprintsv2/") && url.searchParams.get("ids")?.split(",").length === 2);
    await expect.poll(() => active(page).getByTestId("voucher").count()).toBe(2);
    const numbers = await active(page).getByTestId("voucher-receipt-no").allTextContents();
    expect(new Set(numbers).size).toBe(2);

    await page.emulateMedia({ media: "print" });
    expect(await page.locator("#root").isVisible()).toBe(false);
    expect(await page.locator(".voucher-print .voucher").evaluateAll((sheets) => sheets.filter((s) => (s as HTMLElement).offsetHeight > 0).length)).toBe(2);
    // what the printer gets: one A5 page per voucher
    const printed = await page.pdf({ preferCSSPageSize: true, printBackground: true });
    expect(printed.toString("latin1").match(/\/Type\s*\/Page\b/g)?.length).toBe(2);
    await page.emulateMedia({ media: "screen" });

    // a phone reads a voucher without scrolling sideways
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${suite.url}/order/orderprintsv2/${order.id}`);
    const sheet = page.locator('[data-testid="voucher"]:visible');
    await expect.poll(() => sheet.count()).toBe(1);
    expect(await sheet.evaluate((el) => el.getBoundingClientRect().right)).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});
