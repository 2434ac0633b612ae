/**
 * The payer's phone page in Chromium at 390 px, in Chinese, against the real server: a parent opens a school's
 * QR code address (/h5/{code}), sees the school and its open collection, is told neutrally when the student is not
 * found, finds the student by name and student number, chooses the unpaid bill, opens the sandbox's payment page
 * from the phone itself, which names the bill, pays there, is brought straight back and sees the result and the
 * e-receipt, which a reload keeps.
 */
import { eq } from "drizzle-orm";
import { expect, test } from "vitest";
import { businessTime } from "../../common/businessTime";
import { bills, feeOrders } from "../../server/db/schema";
import { describeInBrowser } from "../helpers/browser";
import { demoPayer } from "../helpers/payers";

const SCHOOL = "Sunrise No.1 Primary School";

describeInBrowser(
  "the payer's phone page",
  (suite) => {
    test("a parent finds the student, pays the bill in the sandbox from the phone and gets the e-receipt", async () => {
      // a phone abroad: its clock is Mexico City's (UTC-6), the receipt's time is still China time
      const phone = await suite.newContext(undefined, { timezoneId: "America/Mexico_City", viewport: { width: 390, height: 844 } });
      const page = await phone.newPage();
      const payer = await demoPayer(suite, SCHOOL, "校门口海报");

      await page.goto(`${suite.url}/h5/${payer.code}`);
      // the school's name replaces the page's own title once the code is read
      await expect.poll(() => page.getByTestId("h5-school-title").innerText(), { timeout: 15000 }).toBe(SCHOOL);
      expect(await page.getByTestId("h5-activity").allInnerTexts()).toContainEqual(expect.stringContaining(payer.activityTitle));
      // the page speaks Chinese, and fits the phone's width
      expect(await page.getByTestId("h5-find-submit").innerText()).toBe("查询账单");
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

      // a wrong student number: one neutral message, nothing else
      await page.getByTestId("h5-find-name").fill(payer.name);
      await page.getByTestId("h5-find-student-no").fill(`${payer.studentNo}9`);
      await page.getByTestId("h5-find-submit").click();
      const refusal = await page.getByTestId("h5-find-error").innerText();
      expect(refusal.trim().length).toBeGreaterThan(0);
      expect(await page.getByTestId("h5-student").count()).toBe(0);

      await page.getByTestId("h5-find-student-no").fill(payer.studentNo);
      await page.getByTestId("h5-find-submit").click();
      await page.getByTestId("h5-student").waitFor();
      // the name comes masked: its first character, never the whole name (a two-character name keeps only one)
      const shownName = (await page.locator(".student-name").innerText()).trim();
      expect(shownName.startsWith([...payer.name][0])).toBe(true);
      expect(shownName).toContain("*");
      const bill = page.getByTestId(`h5-bill-${payer.billId}`);
      expect(await bill.innerText()).toContain(payer.activityTitle);
      expect(await bill.locator(".items li").count()).toBeGreaterThan(0);
      // an unpaid bill comes chosen, with the total to pay
      expect(await page.getByTestId(`h5-bill-check-${payer.billId}`).isChecked()).toBe(true);
      expect(await page.getByTestId("h5-total").innerText()).toBe(`¥${payer.amount}`);

      await page.getByTestId("h5-pay").click();
      await page.getByTestId("h5-pay-no").waitFor();
      expect(await page.getByTestId("h5-pay-amount").innerText()).toBe(`¥${payer.amount}`);
      // the sandbox's page is a page of this server: the phone opens it, and the QR code serves another phone
      const openPage = page.getByTestId("h5-open-pay-page");
      expect(await openPage.getAttribute("href")).toMatch(/\/pay\/sandbox\/P\d+\?return=%2Fh5%2F/);
      await page.getByTestId("h5-qr-image").waitFor();
      expect(await page.getByTestId("h5-sandbox-note").isVisible()).toBe(true);
      const payNo = (await page.getByTestId("h5-pay-no").innerText()).trim();

      // the sandbox's page names the bill, asks for nothing it cannot find (its icon included), and once paid brings
      // the payer straight back: the payer page checks the order again and finds it paid
      const missing: string[] = [];
      page.on("response", (response) => {
        if (response.status() === 404) missing.push(response.url());
      });
      await openPage.click();
      await page.waitForURL((url) => url.pathname.startsWith("/pay/sandbox/"));
      expect(await page.getByTestId("sandbox-lines").innerText()).toContain(payer.activityTitle);
      // a browser asks for the page's icon (a headless one does not): the one it names is there
      const icon = await page.evaluate(async () => {
        const href = document.querySelector<HTMLLinkElement>('link[rel="icon"]')?.href;
        return href ? (await fetch(href)).status : 0;
      });
      expect(icon).toBe(200);
      await page.getByTestId("sandbox-pay").click();
      await page.waitForURL((url) => url.pathname.startsWith("/h5/"));
      expect(missing).toEqual([]);
      await page.getByTestId("h5-paid").waitFor({ timeout: 20000 });
      expect(await page.getByTestId("h5-receipt-school").innerText()).toBe(SCHOOL);
      expect(await page.getByTestId("h5-receipt-amount").innerText()).toBe(`¥${payer.amount}`);
      expect(await page.getByTestId("h5-receipt-student").innerText()).toBe(shownName);
      expect((await page.getByTestId("h5-receipt-transaction").innerText()).trim().length).toBeGreaterThan(0);
      expect(await page.getByTestId("h5-print").isVisible()).toBe(true);

      const [order] = await suite.server.server.database.db.select({ status: feeOrders.status, paidAt: feeOrders.paid_at }).from(feeOrders).where(eq(feeOrders.pay_no, payNo));
      expect(order?.status).toBe("paid");
      // the time paid as China reads it, the zone named after it for this phone, whose own clock reads it otherwise
      expect(await page.evaluate(() => new Date().getTimezoneOffset())).toBe(360);
      expect(await page.getByTestId("h5-receipt-paid-at").innerText()).toBe(businessTime(order!.paidAt!));
      expect(await page.getByTestId("h5-receipt-paid-at").locator("time").getAttribute("data-zone")).toBe("UTC+8");
      expect(await page.getByTestId("h5-receipt-paid-at").locator("time").evaluate((time) => getComputedStyle(time, "::after").content)).toContain("UTC+8");
      const [paidBill] = await suite.server.server.database.db.select({ status: bills.status }).from(bills).where(eq(bills.id, payer.billId));
      expect(paidBill?.status).toBe("paid");

      // a reload keeps the result (the ticket and the order live in the tab's session storage)
      await page.reload();
      await page.getByTestId("h5-receipt-amount").waitFor();
      expect(await page.getByTestId("h5-receipt-amount").innerText()).toBe(`¥${payer.amount}`);
    });

    test("an unknown code is refused with the server's message, and the language can be switched", async () => {
      const { page } = suite;
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`${suite.url}/h5/no-such-code`);
      const message = await page.getByTestId("h5-error").innerText();
      expect(message.trim().length).toBeGreaterThan(0);
      await page.getByTestId("h5-lang-en").click();
      await page.getByText("This payment page cannot be opened").waitFor();
      // the server answers in the chosen language too
      await expect.poll(async () => page.getByTestId("h5-error").innerText()).not.toBe(message);
    });
  },
  { locale: "zh-CN" },
);
