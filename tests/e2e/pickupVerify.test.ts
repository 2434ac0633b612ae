/**
 * The pickup clerk at work in the browser (/shop/pickuprec, pickupreclist), on a phone: scans the QR code the payer
 * shows with the phone's camera (Chromium's fake camera playing a video of it; Chromium on Linux has no
 * BarcodeDetector, so the page's ZXing decoder reads it), checks the order it names (the student, the items and their
 * sizes), hands it over, and finds it in its records; the typed code then says it was collected already.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, expect, test } from "vitest";
import { shopOrders } from "../../server/db/schema";
import { clickMenuEntry, DEMO_PASSWORD, describeInBrowser, expectPath, login } from "../helpers/browser";
import { fakeCameraArgs, writeQrCodeVideo } from "../helpers/fakeCamera";
import { api } from "../helpers/server";
import { en } from "../helpers/locales";

/** what the clerk's camera sees: written once the order's QR token is known, before the camera opens */
const cameraVideo = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "cpc-camera-")), "payer-phone.y4m");
afterAll(() => fs.rmSync(path.dirname(cameraVideo), { recursive: true, force: true }));

const VERIFY = "/shop/pickuprec";
const RECORDS = "/shop/pickupreclist";

/** The demo's pickup order waiting at the North Gate, as the provider's API reads it: its number and code. */
async function waitingOrder(baseUrl: string): Promise<{ order_no: string; pickup_code: string }> {
  const login = await api(baseUrl, "adminapi", "login", { username: "svc", password: DEMO_PASSWORD });
  const list = await api(baseUrl, "adminapiv2", "shoporderlist", { status: "undelivered", delivery: "pickup" }, String(login.data?.token));
  expect(list.return_code, list.return_msg).toBe("SUCCESS");
  return (list.data?.items as { order_no: string; pickup_code: string }[])[0];
}

describeInBrowser(
  "pickup verification",
  (suite) => {
  test("on a phone, the clerk scans the payer's QR code, checks the order and hands it over once; the typed code then says collected; its record follows", async () => {
    const { page } = suite;
    const order = await waitingOrder(suite.url);
    expect(order.pickup_code).toMatch(/^\d{8}$/);
    // the QR code on the payer's phone carries the order's opaque token (the payer page shows it once paid)
    const [{ token }] = await suite.server.server.database.db.select({ token: shopOrders.pickup_token }).from(shopOrders).where(eq(shopOrders.pickup_code, order.pickup_code));
    writeQrCodeVideo(cameraVideo, token!);
    await login(page, suite.url, "pickup");
    await clickMenuEntry(page, VERIFY);
    await expectPath(page, VERIFY);
    // then on a phone, as a clerk holds it
    await page.setViewportSize({ width: 390, height: 844 });

    await page.getByTestId("lookup-scan").click();
    const found = page.getByTestId("lookup-record");
    await found.waitFor();
    const text = await found.innerText();
    expect(text).toContain(order.order_no);
    expect(text).toContain("冬季校服冲锋衣");
    expect(text).toContain("尺码 140");
    // the card and its button fit the phone's width
    const box = (await found.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);

    await page.getByTestId("lookup-confirm").click();
    await page.getByTestId("lookup-done").waitFor();
    expect(await page.getByText(en.retail.pickup.verified.replace("{{order_no}}", order.order_no)).count()).toBeGreaterThan(0);

    // the code typed now: collected already, by this clerk
    await page.getByTestId("lookup-value").fill(order.pickup_code);
    await page.getByTestId("lookup-find").click();
    await page.getByTestId("lookup-done").waitFor();
    expect(await page.getByTestId("lookup-done").innerText()).toContain("Sunrise Pickup Clerk");

    await page.setViewportSize({ width: 1440, height: 900 });
    await clickMenuEntry(page, RECORDS);
    await expectPath(page, RECORDS);
    const record = page.getByTestId("page-active").locator("tbody tr.ant-table-row").filter({ hasText: order.order_no });
    await expect.poll(() => record.count()).toBe(1);
    expect(await record.innerText()).toContain(en.retail.via.scan);
  });
  },
  { chromiumArgs: fakeCameraArgs(cameraVideo) },
);
