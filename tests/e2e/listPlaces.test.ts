/**
 * Lists users keep coming back to, in the browser: the state tabs count the codes and narrow the list, a
 * selection's action works on a tab and the counts follow; the page, filters, sort and tab survive a reload and
 * coming back from a record (the browser's back and the record's Back button); the summary sums the whole filter;
 * the columns a user hides and moves stay so after a reload, and in another browser of the same user.
 */
import type { Locator, Page } from "playwright-core";
import { beforeAll, expect, test } from "vitest";
import { addDays, businessDay } from "../../common/term";
import { schoolRenewals, schools } from "../../server/db/schema";
import { describeInBrowser, dismissExpiryReminder, login } from "../helpers/browser";
import { api } from "../helpers/server";
import { en } from "../helpers/locales";

/** The page of the active tab (the other open tabs stay mounted, hidden). */
function active(page: Page): Locator {
  return page.getByTestId("page-active");
}

/** A state tab's count as shown. */
async function tabCount(page: Page, state: string): Promise<number> {
  return Number(await active(page).getByTestId(`state-tab-${state}`).getByTestId("state-tab-count").innerText());
}

async function tabActive(page: Page, state: string): Promise<boolean> {
  return active(page)
    .getByTestId(`state-tab-${state}`)
    .evaluate((el) => Boolean(el.closest(".ant-tabs-tab")?.classList.contains("ant-tabs-tab-active")));
}

/** The text of a column of the table's rows (by its header). */
async function column(page: Page, header: string): Promise<string[]> {
  const headers = await active(page).locator(".ant-table-thead th").allInnerTexts();
  const index = headers.findIndex((text) => text.trim() === header);
  if (index < 0) throw new Error(`no column ${header} among ${headers.join(", ")}`);
  return active(page).locator(`.ant-table-tbody tr.ant-table-row td:nth-child(${index + 1})`).allInnerTexts();
}

/** The query of the page's URL, decoded. */
function query(page: Page): string {
  return decodeURIComponent(new URL(page.url()).search);
}

describeInBrowser("lists users keep coming back to", (suite) => {
  /** renewals of the two first Sunrise schools: 30, every fourth by code (no fee) */
  const renewalFees: number[] = [];

  beforeAll(async () => {
    const login0 = await api(suite.url, "adminapi", "login", { username: "sysadmin", password: "demo1234" });
    const token = (login0.data as { token: string }).token;
    const db = suite.server.server.database.db;
    const sunrise = (await db.select({ id: schools.id, sysid: schools.sysid, title: schools.title }).from(schools)).filter((s) => s.title.startsWith("Sunrise No."));
    const expires = addDays(businessDay(new Date()), 60);
    for (let i = 0; i < 2; i++) {
      const batch = await api(suite.url, "adminapiv2", "actcodeadd", { count: 5, target: "school", term_months: 12, expires_on: expires, sysid: sunrise[0].sysid }, token);
      expect(batch.return_code, batch.return_msg).toBe("SUCCESS");
    }
    const rows = Array.from({ length: 30 }, (_, i) => {
      const school = sunrise[i % 2];
      const fee = i % 4 === 0 ? 0 : 100000 + i * 1001;
      renewalFees.push(fee);
      return {
        sysid: school.sysid, sch_id: school.id, school_title: school.title, way: i % 4 === 0 ? "code" : "pay", title: `Renewal ${i + 1}`, term_months: 12, fee,
        old_end: "2026-01-01", new_end: addDays("2027-01-01", i), operator: "svc", created_at: new Date(Date.now() - i * 3_600_000),
      };
    });
    await db.insert(schoolRenewals).values(rows);
  });

  test("state tabs count the codes, narrow the list from the URL, survive a reload and follow a selection's action", async () => {
    const { page } = suite;
    await page.setViewportSize({ width: 1440, height: 900 });
    await login(page, suite.url, "sysadmin", { to: "/schoolv2/actcodelist" });
    await active(page).getByTestId("state-tabs").waitFor();
    // the demo's Sunrise and Harbour codes (one void) and the two batches
    await expect.poll(() => tabCount(page, "__all")).toBe(16);
    expect(await tabCount(page, "unused")).toBe(15);
    expect(await tabCount(page, "used")).toBe(0);
    expect(await tabCount(page, "void")).toBe(1);
    expect(await active(page).getByTestId(`state-tab-__all`).innerText()).toContain(en.crud.tab_all);

    await active(page).getByTestId("state-tab-unused").click();
    await page.waitForURL((url) => decodeURIComponent(url.search).includes("filters[0][value]=unused"));
    await expect.poll(async () => new Set(await column(page, en.field.code_status))).toEqual(new Set([en.enum.code_status.unused]));
    // two codes voided from the tab's selection
    const rows = active(page).locator(".ant-table-tbody tr.ant-table-row");
    await rows.nth(0).locator(".ant-checkbox-input").check();
    await rows.nth(1).locator(".ant-checkbox-input").check();
    await active(page).getByTestId("bulk-actcodevoid").click();
    await page.locator(".ant-popconfirm").getByRole("button", { name: en.common.confirm }).click();
    // each row's outcome, then the counts as they now stand
    const outcome = page.getByTestId("bulk-result");
    await expect.poll(() => outcome.locator(".ant-list-item").count()).toBe(2);
    await outcome.locator(".ant-modal-footer").getByRole("button", { name: en.common.close }).click();
    await expect.poll(() => tabCount(page, "void")).toBe(3);
    expect(await tabCount(page, "unused")).toBe(13);
    expect(await tabCount(page, "__all")).toBe(16);
    await expect.poll(() => rows.count()).toBe(13);
    expect(await active(page).getByTestId("bulk-bar").count()).toBe(0);

    // a selection is left behind with its tab
    await rows.nth(0).locator(".ant-checkbox-input").check();
    await active(page).getByTestId("bulk-bar").waitFor();
    await active(page).getByTestId("state-tab-void").click();
    await expect.poll(() => rows.count()).toBe(3);
    expect(await active(page).getByTestId("bulk-bar").count()).toBe(0);

    await page.reload();
    await active(page).getByTestId("state-tabs").waitFor();
    expect(await tabActive(page, "void")).toBe(true);
    await expect.poll(() => rows.count()).toBe(3);
    expect(await tabCount(page, "void")).toBe(3);
    expect(new Set(await column(page, en.field.code_status))).toEqual(new Set([en.enum.code_status.void]));
  });

  test("the page, filters and sort survive a reload and coming back from a record; the summary sums the whole filter", async () => {
    const { page } = suite;
    await page.setViewportSize({ width: 1440, height: 900 });
    await login(page, suite.url, "svc", { to: "/schoolv2/schoolrenewlist" });
    await dismissExpiryReminder(page);
    const rows = active(page).locator(".ant-table-tbody tr.ant-table-row");
    await rows.first().waitFor();

    // paid renewals, the earliest new term end first, page 2 of 10 a page
    const filters = active(page).getByTestId("list-filters");
    await filters.locator(".ant-form-item").filter({ hasText: en.field.renew_way }).locator(".ant-select").click();
    await page.locator(".ant-select-dropdown:visible .ant-select-item-option").filter({ hasText: en.enum.renew_way.pay }).click();
    await filters.getByRole("button", { name: en.crud.search }).click();
    await page.waitForURL((url) => decodeURIComponent(url.search).includes("[value]=pay"));
    await active(page).locator(".ant-table-thead th").filter({ hasText: en.field.new_end }).click();
    await page.waitForURL((url) => decodeURIComponent(url.search).includes("sorters[0][order]=asc"));
    await active(page).locator(".ant-pagination-options .ant-select").click();
    await page.locator(".ant-select-dropdown:visible .ant-select-item-option").filter({ hasText: "10 / page" }).click();
    await active(page).locator(".ant-pagination-item-2").click();
    await page.waitForURL((url) => url.search.includes("currentPage=2") && url.search.includes("pageSize=10"));

    const paid = renewalFees.map((fee, i) => ({ fee, i })).filter(({ i }) => i % 4 !== 0);
    // the new term ends one day apart in the order the renewals were made: page 2 holds the 11th to 20th paid
    const expected = paid.slice(10, 20).map(({ i }) => `Renewal ${i + 1}`);
    await expect.poll(() => column(page, en.field.renew_title)).toEqual(expected);
    const sum = paid.reduce((total, { fee }) => total + fee, 0) / 100;
    const summary = active(page).getByTestId("list-summary");
    expect(await summary.innerText()).toContain(`${paid.length} records`);
    expect(await active(page).getByTestId("list-summary-fee").innerText()).toBe(`${en.field.fee} ¥${sum.toLocaleString("en", { minimumFractionDigits: 2 })}`);
    const place = query(page);

    const keptPlace = async (how: string) => {
      await expect.poll(() => column(page, en.field.renew_title), { message: how }).toEqual(expected);
      expect(query(page), how).toBe(place);
      expect(await active(page).locator(".ant-pagination-item-active").innerText(), how).toBe("2");
      expect(await filters.locator(".ant-form-item").filter({ hasText: en.field.renew_way }).locator(".ant-select-selection-item").innerText(), how).toBe(en.enum.renew_way.pay);
      expect(await active(page).locator(".ant-table-thead th.ant-table-column-sort").innerText(), how).toContain(en.field.new_end);
    };

    await page.reload();
    await rows.first().waitFor();
    await keptPlace("after a reload");

    await rows.nth(0).getByRole("button", { name: en.crud.detail }).click();
    await page.waitForURL((url) => url.pathname.startsWith("/schoolv2/schoolrenewinfo/"));
    await page.goBack();
    await page.waitForURL((url) => url.pathname === "/schoolv2/schoolrenewlist");
    await keptPlace("after the browser's back");

    await rows.nth(1).getByRole("button", { name: en.crud.detail }).click();
    await page.waitForURL((url) => url.pathname.startsWith("/schoolv2/schoolrenewinfo/"));
    await active(page).getByRole("button", { name: en.crud.back }).click();
    await page.waitForURL((url) => url.pathname === "/schoolv2/schoolrenewlist");
    await keptPlace("after the record's Back button");

    // and again after a reload of the record's page
    await rows.nth(2).getByRole("button", { name: en.crud.detail }).click();
    await page.waitForURL((url) => url.pathname.startsWith("/schoolv2/schoolrenewinfo/"));
    await page.reload();
    await active(page).getByRole("button", { name: en.crud.back }).click();
    await page.waitForURL((url) => url.pathname === "/schoolv2/schoolrenewlist");
    await keptPlace("after a reload of the record and its Back button");
  });

  test("the columns a user hides and moves stay so after a reload", async () => {
    const { page } = suite;
    await page.setViewportSize({ width: 1440, height: 900 });
    await login(page, suite.url, "sysadmin", { to: "/schoolv2/actcodelist" });
    const headers = () => active(page).locator(".ant-table-thead th").allInnerTexts().then((texts) => texts.map((t) => t.trim()).filter(Boolean));
    await active(page).locator(".ant-table-tbody tr.ant-table-row").first().waitFor();
    expect((await headers()).slice(0, 2)).toEqual([en.field.act_code, en.field.batch_no]);

    await active(page).getByTestId("column-settings").click();
    const panel = page.getByTestId("column-settings-panel");
    await panel.getByTestId("column-setting-batch_no").getByRole("checkbox").uncheck();
    await panel.getByRole("button", { name: `Move ${en.field.code_target} up` }).click();
    await panel.getByRole("button", { name: `Move ${en.field.code_target} up` }).click();
    await expect.poll(headers).not.toContain(en.field.batch_no);
    expect((await headers()).slice(0, 2)).toEqual([en.field.code_target, en.field.act_code]);

    await page.reload();
    await active(page).locator(".ant-table-tbody tr.ant-table-row").first().waitFor();
    expect((await headers()).slice(0, 2)).toEqual([en.field.code_target, en.field.act_code]);
    expect(await headers()).not.toContain(en.field.batch_no);

    // they are the user's, kept on the server: another browser signed in as the same user shows them too
    const other = await (await suite.newContext()).newPage();
    await other.setViewportSize({ width: 1440, height: 900 });
    await login(other, suite.url, "sysadmin", { to: "/schoolv2/actcodelist" });
    await active(other).locator(".ant-table-tbody tr.ant-table-row").first().waitFor();
    const otherHeaders = () => active(other).locator(".ant-table-thead th").allInnerTexts().then((texts) => texts.map((t) => t.trim()).filter(Boolean));
    await expect.poll(async () => (await otherHeaders()).slice(0, 2), { timeout: 15000 }).toEqual([en.field.code_target, en.field.act_code]);
    expect(await otherHeaders()).not.toContain(en.field.batch_no);
  });
});
