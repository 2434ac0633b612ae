/**
 * The provider imports a batch of trace-source codes in the browser (/goods/tracesourcelist): chooses the batch's
 * goods item and SKU and types its batch number, chooses a file of codes, reads the preview, imports, and finds the
 * codes in the list; a parent then opens a garment's public page on a phone and reads its facts.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "vitest";
import { choose, clickClosing, clickMenuEntry, DEMO_PASSWORD, describeInBrowser, dismissExpiryReminder, expectPath, login } from "../helpers/browser";
import { api } from "../helpers/server";
import { sheetBase64 } from "../helpers/xlsxParts";

const LIST = "/goods/tracesourcelist";

describeInBrowser("trace-source codes", (suite) => {
  test("imports a batch of codes for a SKU, lists them, and shows a garment's public page", async () => {
    const { page } = suite;
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "trace-")), "codes.xlsx");
    const rows = [["CG2412W00001"], ["CG2412W00002"], ["bad code!"]];
    fs.writeFileSync(file, Buffer.from(await sheetBase64(["Code"], rows), "base64"));

    await page.setViewportSize({ width: 1440, height: 900 });
    await login(page, suite.url, "svc");
    await dismissExpiryReminder(page);
    await clickMenuEntry(page, LIST);
    await expectPath(page, LIST);
    await page.getByTestId("list-tool-tracesourceimport").click();
    // the batch: a goods item, then one of its SKUs, and the batch's facts
    await choose(page, page.getByTestId("trace-import-goods_id"), "冬季校服冲锋衣");
    await choose(page, page.getByTestId("trace-import-sku_id"), "170", "尺码 170 · 颜色 藏青");
    await page.getByTestId("trace-import-batch_no").fill("CG2412-W03");
    await page.getByTestId("trace-import-manufacturer").fill("江苏晨光服饰有限公司");
    await page.getByTestId("trace-import-report_url").fill("https://www.example.com/reports/CG2412-W03.pdf");
    await page.locator(".ant-modal input[type=file]").setInputFiles(file);
    const preview = page.getByTestId("trace-import-rows");
    await preview.waitFor();
    await expect.poll(() => preview.locator("tbody tr.ant-table-row").count()).toBe(3);
    expect(await page.getByTestId("trace-import-message").innerText()).toBe("3 rows: 2 to import, 0 unchanged, 1 with problems");

    await page.getByTestId("trace-import-confirm").click();
    await page.getByTestId("trace-import-result-file").waitFor();
    expect(await page.getByTestId("trace-import-message").innerText()).toBe("3 rows: 2 imported, 0 unchanged, 1 failed");
    await clickClosing(page, page.getByTestId("trace-import-close"));
    // the list shows the new codes first, free, of the jacket in size 170
    await expect.poll(() => page.getByText("CG2412W00002").filter({ visible: true }).count()).toBeGreaterThan(0);
    await expect.poll(() => page.getByText("CG2412W00001").filter({ visible: true }).count()).toBeGreaterThan(0);
    await expect.poll(() => page.getByText("CG2412-W03").filter({ visible: true }).count()).toBeGreaterThan(0);

    // a parent scans the garment's label: its page within the school's payer page, on a phone
    const session = await api(suite.url, "adminapi", "login", { username: "svc", password: DEMO_PASSWORD });
    const token = String(session.data?.token);
    const schools = await api(suite.url, "adminapiv2", "schoollist", { title: "Sunrise No.1 Primary School" }, token);
    const [school] = schools.data?.items as { id: number }[];
    const qr = await api(suite.url, "adminapiv2", "qrchnladd", { sch_id: school.id, title: "Uniform labels" }, token);
    const code = String((qr.data?.items as { code: string }).code);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${suite.url}/h5/${encodeURIComponent(code)}/trace/CG2412W00001`);
    await page.getByTestId("trace-page").waitFor();
    expect(await page.getByTestId("trace-goods").innerText()).toBe("冬季校服冲锋衣");
    expect(await page.getByTestId("trace-batch").innerText()).toBe("CG2412-W03");
    expect(await page.getByTestId("trace-manufacturer").innerText()).toBe("江苏晨光服饰有限公司");
    expect(await page.getByTestId("trace-report").getAttribute("href")).toBe("https://www.example.com/reports/CG2412-W03.pdf");
    expect(await page.locator("body").innerText()).toContain("尺码 170");
    // nothing wider than the phone
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // a code unknown here says so
    await page.goto(`${suite.url}/h5/${encodeURIComponent(code)}/trace/NOPE0001`);
    await page.getByTestId("trace-error").waitFor();
  });
});
