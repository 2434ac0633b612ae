/**
 * The provider imports tracking numbers in the browser (/shop/orderdeliveryimportlog): chooses a file, reads the
 * preview of each row, sends the rows that can go, and finds the import in the log and the order sent; and the same
 * for the fee orders whose items are goods (/order/zdorderdeliveryimportlog, the demo's uniform order).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "vitest";
import { clickClosing, clickMenuEntry, DEMO_PASSWORD, describeInBrowser, dismissExpiryReminder, expectPath, login } from "../helpers/browser";
import { api } from "../helpers/server";
import { sheetBase64 } from "../helpers/xlsxParts";

const LOG = "/shop/orderdeliveryimportlog";
const FEE_LOG = "/order/zdorderdeliveryimportlog";

describeInBrowser("delivery import", (suite) => {
  test("previews a file of tracking numbers, sends the rows that can go, and logs the import", async () => {
    const { page } = suite;
    const session = await api(suite.url, "adminapi", "login", { username: "svc", password: DEMO_PASSWORD });
    const token = String(session.data?.token);
    const waiting = await api(suite.url, "adminapiv2", "shoporderlist", { status: "undelivered", delivery: "express" }, token);
    const [order] = waiting.data?.items as { id: number; order_no: string }[];
    expect(order).toBeDefined();
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "delivery-")), "deliveries.xlsx");
    const rows = [
      [order.order_no, "SF Express", "SF7788990011"],
      ["20990101000000000000", "SF", "SF7788990012"],
    ];
    fs.writeFileSync(file, Buffer.from(await sheetBase64(["Order no.", "Express company", "Tracking number"], rows), "base64"));

    await login(page, suite.url, "svc");
    await dismissExpiryReminder(page);
    await clickMenuEntry(page, LOG);
    await expectPath(page, LOG);
    await page.getByTestId("list-tool-deliveryimport").click();
    await page.locator(".ant-modal input[type=file]").setInputFiles(file);
    const preview = page.getByTestId("delivery-import-rows");
    await preview.waitFor();
    await expect.poll(() => preview.locator("tbody tr.ant-table-row").count()).toBe(2);
    expect(await page.getByTestId("delivery-import-message").innerText()).toBe("2 rows: 1 to send, 0 unchanged, 1 with problems");

    await page.getByTestId("delivery-import-confirm").click();
    await page.getByTestId("delivery-import-result-file").waitFor();
    expect(await page.getByTestId("delivery-import-message").innerText()).toBe("2 rows: 1 sent, 0 unchanged, 1 failed");
    await clickClosing(page, page.getByTestId("delivery-import-close"));
    // the log lists it first, and the order is sent
    await expect.poll(() => page.getByText("deliveries.xlsx").filter({ visible: true }).count()).toBeGreaterThan(0);
    const after = await api(suite.url, "adminapiv2", "shoporderinfo", { id: order.id }, token);
    expect(after.data?.items).toMatchObject({ status: "delivered", express_code: "SF", tracking_no: "SF7788990011" });
  });

  test("imports the tracking number of a fee order whose item is a uniform, from the order group's log", async () => {
    const { page } = suite;
    const session = await api(suite.url, "adminapi", "login", { username: "svc", password: DEMO_PASSWORD });
    const token = String(session.data?.token);
    const waiting = await api(suite.url, "adminapiv2", "orderlist", { fulfil_status: "undelivered" }, token);
    const order = (waiting.data?.items as { id: number; order_no: string; delivery: string }[]).find((o) => o.delivery === "express");
    expect(order).toBeDefined();
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "delivery-")), "uniforms.xlsx");
    fs.writeFileSync(file, Buffer.from(await sheetBase64(["Order no.", "Express company", "Tracking number"], [[order!.order_no, "YTO", "YT7788990013"]]), "base64"));

    await login(page, suite.url, "svc", { to: FEE_LOG });
    await dismissExpiryReminder(page);
    await expectPath(page, FEE_LOG);
    await page.getByTestId("list-tool-deliveryimport").click();
    await page.locator(".ant-modal input[type=file]").setInputFiles(file);
    await page.getByTestId("delivery-import-rows").waitFor();
    expect(await page.getByTestId("delivery-import-message").innerText()).toBe("1 rows: 1 to send, 0 unchanged, 0 with problems");
    await page.getByTestId("delivery-import-confirm").click();
    await page.getByTestId("delivery-import-result-file").waitFor();
    await clickClosing(page, page.getByTestId("delivery-import-close"));
    await expect.poll(() => page.getByText("uniforms.xlsx").filter({ visible: true }).count()).toBeGreaterThan(0);
    const after = await api(suite.url, "adminapiv2", "orderinfo", { id: order!.id }, token);
    expect(after.data?.items).toMatchObject({ fulfil_status: "delivered", express_code: "YTO", tracking_no: "YT7788990013" });
  });
});
