/**
 * The generic lists in the browser: on a phone (390 px) every row is a compact card, readable, its buttons
 * reachable on one line, the filters fold and fit; on a wide Spanish screen (1440 px) every column header
 * shows, none under the action column; a failed read shows one toast and a retry instead of a spinner, and a
 * missing record one error and a not-found page instead of an empty form.
 */
import type { Locator, Page } from "playwright-core";
import { beforeAll, expect, test } from "vitest";
import { addDays, businessDay } from "../../common/term";
import { describeInBrowser, dismissExpiryReminder, login } from "../helpers/browser";
import { api } from "../helpers/server";
import { en } from "../helpers/locales";


async function apiLogin(baseUrl: string, username: string): Promise<{ token: string; facts: Record<string, string> }> {
  const res = await api(baseUrl, "adminapi", "login", { username, password: "demo1234" });
  expect(res.return_code, res.return_msg).toBe("SUCCESS");
  const data = res.data as { token: string; items: { data: Record<string, string> } };
  return { token: data.token, facts: data.items.data };
}

/** Codes for the code list, and one school renewal for the renewal records. */
async function seedListRows(baseUrl: string): Promise<void> {
  const { token } = await apiLogin(baseUrl, "sysadmin");
  const expires = addDays(businessDay(new Date()), 30);
  const batch = await api(baseUrl, "adminapiv2", "actcodeadd", { count: 3, target: "school", term_months: 12, expires_on: expires, remark: "lists" }, token);
  expect(batch.return_code, batch.return_msg).toBe("SUCCESS");
  await api(baseUrl, "adminapiv2", "actcodeadd", { count: 2, target: "service", term_months: 6, expires_on: expires, sysid: 1 }, token);
  const codes = await api(baseUrl, "adminapiv2", "actcodelist", { batch_no: (batch.data?.items as { batch_no: string }).batch_no }, token);
  const code = (codes.data?.items as { code: string }[])[0].code;
  const school = await apiLogin(baseUrl, "school");
  const renewed = await api(baseUrl, "adminapiv2", "renew", { code, sch_id: school.facts.schid, sysid: school.facts.sysid }, school.token);
  expect(renewed.return_code, renewed.return_msg).toBe("SUCCESS");
}

/** Whether an element is shown whole inside the viewport's width (and below its top). */
async function insideViewport(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const viewport = page.viewportSize();
  if (!box || !viewport || !(await locator.isVisible())) return false;
  return box.x >= 0 && box.x + box.width <= viewport.width && box.y >= 0 && box.width > 0 && box.height > 0;
}

/** Whether the centre of an element is the element itself, not something drawn over it. */
async function uncovered(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return top !== null && (top === el || el.contains(top));
  });
}

/** The page of the active tab (the other open tabs stay mounted, hidden). */
/**
 * After the page's clock moved: a round trip through the page's own task queue (a message, which the test's clock
 * does not hold), so the calls its timers made are on their way before the test counts them.
 */
async function settled(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => resolve();
        channel.port2.postMessage(null);
      }),
  );
}

function active(page: Page): Locator {
  return page.getByTestId("page-active");
}

describeInBrowser("lists on a phone and on a wide screen", (suite) => {
  beforeAll(() => seedListRows(suite.url));

  test("390 px: provider, code and renewal lists show each row's name and status and a reachable button; the filters fold and fit", async () => {
    const { page } = suite;
    await page.setViewportSize({ width: 390, height: 844 });
    await login(page, suite.url, "sysadmin");

    await page.goto(`${suite.url}/servicev2/servicelist`);
    const card = active(page).getByTestId("record-card").first();
    await card.waitFor();
    expect(await card.getByTestId("record-card-title").innerText()).toBe("Old Town Education");
    expect(await card.getByTestId("record-card-status").innerText()).toBe(en.enum.status["1"]);
    for (const part of [card.getByTestId("record-card-title"), card.getByTestId("record-card-status"), card.getByTestId("row-servicedelayv2"), card.getByRole("button", { name: en.crud.edit })]) {
      expect(await insideViewport(page, part)).toBe(true);
    }
    // nothing is wider than the phone
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // the closed sidebar leaves nothing behind: no menu group pops up over the top bar
    expect(await page.locator(".ant-menu-submenu-popup").filter({ visible: true }).count()).toBe(0);
    expect(await uncovered(page.getByTestId("breadcrumb"))).toBe(true);

    // the filters are folded behind a toggle; opened, the date range fits the screen
    expect(await active(page).getByTestId("list-filters").count()).toBe(0);
    await active(page).getByTestId("list-filters-toggle").click();
    const range = active(page).getByTestId("list-filters").locator(".ant-picker-range");
    await range.waitFor();
    expect(await insideViewport(page, range)).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await active(page).getByTestId("list-filters").getByPlaceholder(en.field.service_title).fill("Harbour");
    await active(page).getByTestId("list-filters").getByRole("button", { name: en.crud.search }).click();
    await expect.poll(() => active(page).getByTestId("record-card-title").allInnerTexts()).toEqual(["Harbour Education Services"]);
    // searching folds the filters away again
    expect(await active(page).getByTestId("list-filters").count()).toBe(0);

    await active(page).getByTestId("record-card").first().getByRole("button", { name: en.crud.edit }).click();
    await page.waitForURL((url) => url.pathname === "/servicev2/serviceedit/2");

    await page.goto(`${suite.url}/schoolv2/actcodelist`);
    const code = active(page).getByTestId("record-card").first();
    await code.waitFor();
    expect(await code.getByTestId("record-card-title").innerText()).toMatch(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){4}$/);
    expect(await insideViewport(page, code.getByTestId("record-card-status"))).toBe(true);
    const voidButton = code.getByTestId("row-actcodevoid");
    expect(await insideViewport(page, voidButton)).toBe(true);
    await voidButton.click();
    await page.locator(".ant-popconfirm").waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    for (const username of ["svc", "school"]) {
      const other = await (await suite.newContext()).newPage();
      await other.setViewportSize({ width: 390, height: 844 });
      await login(other, suite.url, username);
      // the provider's term ends within 15 days (the school's was renewed above)
      if (username === "svc") await dismissExpiryReminder(other);
      if (username === "svc") {
        // the selection page's prompt keeps to one line above the table
        await other.goto(`${suite.url}/secservice`);
        const prompt = other.getByTestId("selection-prompt");
        await prompt.waitFor();
        expect(await insideViewport(other, prompt)).toBe(true);
        expect((await prompt.boundingBox())!.height).toBeLessThan(32);
        expect(await insideViewport(other, other.locator("[data-testid^='select-school-']").first())).toBe(true);
      }
      await other.goto(`${suite.url}/schoolv2/schoolrenewlist`);
      const record = active(other).getByTestId("record-card").first();
      await record.waitFor();
      expect(await insideViewport(other, record.getByTestId("record-card-title"))).toBe(true);
      expect(await record.innerText()).toContain("Sunrise No.1 Primary School");
      const details = record.getByRole("button", { name: en.crud.detail });
      expect(await insideViewport(other, details)).toBe(true);
      await details.click();
      await other.waitForURL((url) => url.pathname.startsWith("/schoolv2/schoolrenewinfo/"));
    }
  });

  test("390 px: a card is compact: title, key and status on one line, the fields two to a line, the buttons on one line, pages beyond it in a menu", async () => {
    const { page } = suite;
    await page.setViewportSize({ width: 390, height: 844 });
    await login(page, suite.url, "schoolv1", { to: "/activity/studentlist" });
    const card = active(page).getByTestId("record-card").first();
    await card.waitFor();
    const centre = async (locator: Locator) => {
      const box = (await locator.boundingBox())!;
      return box.y + box.height / 2;
    };
    // about half of a card listing every field a line each (305 px): five and more to a screen
    expect((await card.boundingBox())!.height).toBeLessThanOrEqual(170);
    expect(Math.abs((await centre(card.getByTestId("record-card-title"))) - (await centre(card.getByTestId("record-card-status"))))).toBeLessThan(8);
    // the student's number stands beside the name
    expect(await card.getByTestId("record-card-key").innerText()).toMatch(/^\d+$/);
    const fields = card.getByTestId("record-card-fields").locator(":scope > div");
    expect(await fields.count()).toBeGreaterThanOrEqual(4);
    expect(Math.abs((await centre(fields.nth(0))) - (await centre(fields.nth(1))))).toBeLessThan(4);
    expect(await fields.nth(0).innerText()).toContain(`${en.field.sex}:`);
    const buttons = card.getByTestId("record-card-buttons").getByRole("button");
    expect(await buttons.count()).toBe(2);
    expect(Math.abs((await centre(buttons.nth(0))) - (await centre(buttons.nth(1))))).toBeLessThan(4);
    for (const part of [card.getByTestId("record-card-title"), card.getByTestId("record-card-status"), buttons.nth(1)]) expect(await insideViewport(page, part)).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    // a provider's buttons keep to one line: the pages that do not fit open from its menu
    const operator = await (await suite.newContext()).newPage();
    await operator.setViewportSize({ width: 390, height: 844 });
    await login(operator, suite.url, "sysadmin", { to: "/servicev2/servicelist" });
    const provider = active(operator).getByTestId("record-card").first();
    await provider.waitFor();
    const line = provider.getByTestId("record-card-buttons").getByRole("button");
    const count = await line.count();
    for (let i = 0; i < count; i++) {
      expect(await insideViewport(operator, line.nth(i))).toBe(true);
      expect(Math.abs((await centre(line.nth(i))) - (await centre(line.nth(0))))).toBeLessThan(4);
    }
    await provider.getByTestId("record-card-more").click();
    await operator.getByTestId("row-serviceactcode").click();
    await operator.waitForURL((url) => url.pathname.startsWith("/servicev2/serviceactcode/"));
  });

  test("1440 px in Spanish: every column header of the provider, code and renewal lists is in view and uncovered", async () => {
    // each list with its short values (a state, dates), which must not wrap
    const lists: [string, string, string[]][] = [
      ["sysadmin", "/servicev2/servicelist", ["Estado", "Fin del plazo"]],
      ["sysadmin", "/schoolv2/actcodelist", ["Estado", "Válido hasta"]],
      ["svc", "/schoolv2/schoolrenewlist", ["Fin anterior", "Nuevo fin"]],
    ];
    for (const [username, path, shortColumns] of lists) {
      const page = await (await suite.newContext("es-ES")).newPage();
      await page.setViewportSize({ width: 1440, height: 900 });
      await login(page, suite.url, username);
      if (username === "svc") await dismissExpiryReminder(page);
      await page.goto(`${suite.url}${path}`);
      await active(page).locator(".ant-table-tbody tr.ant-table-row").first().waitFor();
      const headers = active(page).locator(".ant-table-thead th.ant-table-cell");
      const count = await headers.count();
      expect(count).toBeGreaterThan(5);
      for (let i = 0; i < count; i++) {
        const header = headers.nth(i);
        const text = (await header.innerText()).trim();
        if (!text) continue;
        expect(await insideViewport(page, header), `${path}: ${text}`).toBe(true);
        expect(await uncovered(header), `${path}: ${text}`).toBe(true);
      }
      // the table does not need a sideways scroll at this width
      const table = active(page).locator(".ant-table-content");
      expect(await table.evaluate((el) => el.scrollWidth <= el.clientWidth), path).toBe(true);
      // short values are never broken up: the first row's status and dates stay on one line
      const texts = (await headers.allInnerTexts()).map((t) => t.trim());
      const cells = active(page).locator(".ant-table-tbody tr.ant-table-row").first().locator("td");
      for (const name of shortColumns) {
        const index = texts.indexOf(name);
        expect(index, `${path} shows ${name}`).toBeGreaterThanOrEqual(0);
        expect(await cells.nth(index).innerText(), `${path}: ${name}`).not.toContain("\n");
      }
    }
  });

  test("a list whose read fails shows one toast and a retry, then the rows once the network is back", async () => {
    const { page } = suite;
    await login(page, suite.url, "sysadmin");
    let reads = 0;
    let failing = true;
    await page.route("**/weapi/**", async (route) => {
      if (route.request().postDataJSON()?.method !== "servicelist") return route.continue();
      reads++;
      return failing ? route.abort() : route.continue();
    });
    // the page's timers run on a clock the test moves: a retry cannot be missed for coming late, nor waited for
    await page.clock.install();
    await page.goto(`${suite.url}/servicev2/servicelist`);
    await page.getByTestId("list-load-failed").waitFor();
    expect(await active(page).locator(".ant-table .ant-spin-spinning").count()).toBe(0);
    // a retry would come within 3 s (1 s, then 2 s): none comes, and the toast is not repeated
    await page.clock.runFor(3500);
    await settled(page);
    expect(reads).toBe(1);
    expect(await page.locator(".ant-message-notice").filter({ hasText: en.errors.network }).count()).toBeLessThanOrEqual(1);
    // nor later
    await page.clock.runFor(10 * 60_000);
    await settled(page);
    expect(reads).toBe(1);

    failing = false;
    await page.getByTestId("list-retry").click();
    await active(page).locator(".ant-table-tbody tr.ant-table-row").first().waitFor();
    expect(reads).toBe(2);
    expect(await page.getByTestId("list-load-failed").count()).toBe(0);
  });

  test("editing a record that does not exist shows one error and a not-found page, not an empty form", async () => {
    const { page } = suite;
    await login(page, suite.url, "sysadmin");
    let reads = 0;
    page.on("request", (request) => {
      if (request.url().includes("/weapi/") && request.postDataJSON()?.method === "serviceinfo") reads++;
    });
    await page.clock.install();
    await page.goto(`${suite.url}/servicev2/serviceedit/999`);
    await page.getByTestId("record-not-found").waitFor();
    expect(await page.locator("#title").count()).toBe(0);
    expect(await page.getByRole("button", { name: en.crud.save }).count()).toBe(0);
    // no read again and no second error while the first is shown, nor later
    await page.clock.runFor(2500);
    await settled(page);
    expect(reads).toBe(1);
    expect(await page.locator(".ant-message-notice").count()).toBe(1);
    await page.clock.runFor(10 * 60_000);
    await settled(page);
    expect(reads).toBe(1);
    await page.getByTestId("record-back").click();
    await page.waitForURL((url) => url.pathname === "/servicev2/servicelist");
  });
});
