/**
 * The audit log in the browser: a provider opens it from the avatar's menu and finds its own change by the
 * operation's name, with who made it and what changed; the operator finds it too (a provider's own entries only:
 * tests/server/auditLog.test.ts).
 */
import type { Page } from "playwright-core";
import { expect, test } from "vitest";
import { describeInBrowser, dismissExpiryReminder, expectPath, login } from "../helpers/browser";
import { api } from "../helpers/server";

const AUDIT = "/sysadminv2/auditlog";

/** the table's rows of the page shown */
function rows(page: Page) {
  return page.getByTestId("page-active").locator(".ant-table-tbody tr.ant-table-row");
}

describeInBrowser("the audit log", (suite) => {
  test("a provider finds its own change by the operation's name, and the operator finds it too", async () => {
    const { page } = suite;
    await page.setViewportSize({ width: 1440, height: 900 });
    await login(page, suite.url, "svc");
    await dismissExpiryReminder(page);
    // a change to find: the provider changes a school's contact through the API, as its own console does
    const token = (await page.context().cookies()).find((c) => c.name === "token")!.value;
    const schools = await api(suite.url, "adminapiv2", "schoollist", { limit: 1 }, token);
    const school = (schools.data?.items as { id: number; title: string }[])[0];
    expect((await api(suite.url, "adminapiv2", "schooledit", { id: school.id, contact: "Audit Trail" }, token)).return_code).toBe("SUCCESS");

    await page.getByTestId("avatar-dropdown").click();
    await page.getByTestId("avatar-audit-log").click();
    await expectPath(page, AUDIT);
    const filters = page.getByTestId("page-active").getByTestId("list-filters");
    await filters.locator("#action").fill("schooledit");
    await filters.locator("#action").press("Enter");
    await expect.poll(async () => (await rows(page).first().innerText()).includes("schooledit")).toBe(true);
    const first = await rows(page).first().innerText();
    expect(first).toContain("svc");
    expect(first).toContain(school.title);
    expect(first).toContain("contact");

    // the operator finds it among every provider's entries
    const operator = await (await suite.newContext()).newPage();
    await operator.setViewportSize({ width: 1440, height: 900 });
    await login(operator, suite.url, "sysadmin");
    await operator.goto(`${suite.url}${AUDIT}`);
    const operatorFilters = operator.getByTestId("page-active").getByTestId("list-filters");
    await operatorFilters.locator("#action").fill("schooledit");
    await operatorFilters.locator("#action").press("Enter");
    await expect.poll(() => rows(operator).filter({ hasText: school.title }).count()).toBeGreaterThan(0);
  });
});
