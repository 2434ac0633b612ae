/**
 * The pickup clerk at work in the browser (/shop/pickuprec, pickupreclist), on a phone: types the payer's pickup code,
 * checks the order it names (the student, the items and their sizes), hands it over, and finds it in its records;
 * the same code again says it was collected already.
 */
import { expect, test } from "vitest";
import { clickMenuEntry, DEMO_PASSWORD, describeInBrowser, expectPath, login } from "../helpers/browser";
import { api } from "../helpers/server";
import { en } from "../helpers/locales";

const VERIFY = "/shop/pickuprec";
const RECORDS = "/shop/pickupreclist";

/** The demo's pickup order waiting at the North Gate, as the provider's API reads it: its number and code. */
async function waitingOrder(baseUrl: string): Promise<{ order_no: string; pickup_code: string }> {
  const login = await api(baseUrl, "adminapi", "login", { username: "svc", password: DEMO_PASSWORD });
  const list = await api(baseUrl, "adminapiv2", "shoporderlist", { status: "undelivered", delivery: "pickup" }, String(login.data?.token));
  expect(list.return_code, list.return_msg).toBe("SUCCESS");
  return (list.data?.items as { order_no: string; pickup_code: string }[])[0];
}

describeInBrowser("pickup verification", (suite) => {
  test("on a phone, the clerk types a code, checks the order and hands it over once; its record follows", async () => {
    const { page } = suite;
    const order = await waitingOrder(suite.url);
    expect(order.pickup_code).toMatch(/^\d{8}$/);
    await login(page, suite.url, "pickup");
    await clickMenuEntry(page, VERIFY);
    await expectPath(page, VERIFY);
    // then on a phone, as a clerk holds it
    await page.setViewportSize({ width: 390, height: 844 });

    await page.getByTestId("pickup-code").fill(order.pickup_code);
    await page.getByTestId("pickup-find").click();
    const found = page.getByTestId("pickup-order");
    await found.waitFor();
    const text = await found.innerText();
    expect(text).toContain(order.order_no);
    expect(text).toContain("冬季校服冲锋衣");
    expect(text).toContain("尺码 140");
    // the card and its button fit the phone's width
    const box = (await found.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);

    await page.getByTestId("pickup-verify").click();
    await page.getByTestId("pickup-verified").waitFor();
    expect(await page.getByText(en.retail.pickup.verified.replace("{{order_no}}", order.order_no)).count()).toBeGreaterThan(0);

    // the same code again: collected already, by this clerk
    await page.getByTestId("pickup-find").click();
    await page.getByTestId("pickup-verified").waitFor();
    expect(await page.getByTestId("pickup-verified").innerText()).toContain("Sunrise Pickup Clerk");

    await page.setViewportSize({ width: 1440, height: 900 });
    await clickMenuEntry(page, RECORDS);
    await expectPath(page, RECORDS);
    await expect.poll(() => page.getByText(order.order_no).filter({ visible: true }).count()).toBeGreaterThan(0);
  });
});
