/**
 * Spec 2.2, 2.3, 2.4, 4.1, 6: each demo account sees the sidebar the spec gives its role keys (among the pages
 * built so far), groups with a single entry collapsed; the system user switches into a provider and back, and a
 * provider chooses a school.
 */
import { expect, test } from "vitest";
import { clickMenuEntry, cookieValue, describeInBrowser, dismissExpiryReminder, expectPath, HOME_PATH, login, sidebarMenu } from "../helpers/browser";
import { en } from "../helpers/locales";
import { expectedMenu } from "./specMenus";

/** DESIGN 11: the role keys of the demo accounts; svc (10 days left) and school (12) get the expiry reminder */
const accounts: { username: string; roles: string[]; reminder: boolean }[] = [
  { username: "sysadmin", roles: ["systemv2", "superadminv2"], reminder: false },
  { username: "svc", roles: ["servicev2", "xcxuploadv2", "is_show_fee"], reminder: true },
  { username: "school", roles: ["schoolv2"], reminder: true },
  { username: "pickup", roles: ["pickup"], reminder: false },
  { username: "svcv1", roles: ["service"], reminder: false },
];

/** Entries opened per test: each test signs in afresh, so that its time stays bounded however many entries a role has. */
const ENTRIES_PER_TEST = 20;

/** Each account's entries in runs of ENTRIES_PER_TEST: [username, first, last, count, account, entries]. */
const entryRuns = accounts.flatMap((account) => {
  const leaves = expectedMenu(account.roles).leaves;
  const runs: (readonly [string, number, number, number, (typeof accounts)[number], string[]])[] = [];
  for (let from = 0; from < leaves.length; from += ENTRIES_PER_TEST) {
    const run = leaves.slice(from, from + ENTRIES_PER_TEST);
    runs.push([account.username, from + 1, from + run.length, leaves.length, account, run] as const);
  }
  return runs;
});

describeInBrowser("sidebar menus per role", (suite) => {
  /** Signs the account in on the home page, its expiry reminder dismissed. */
  async function signIn(username: string, reminder: boolean): Promise<void> {
    const { page } = suite;
    await login(page, suite.url, username);
    await expectPath(page, HOME_PATH);
    if (reminder) await dismissExpiryReminder(page);
  }

  test.each(accounts.map((account) => [account.username, account.roles.join(", "), account] as const))(
    "%s sees the spec's entries for %s",
    async (_username, _roles, { username, roles, reminder }) => {
      const { page } = suite;
      await signIn(username, reminder);
      const menu = await sidebarMenu(page);
      const expected = expectedMenu(roles);

      expect(menu.topLevel[0]).toBe(HOME_PATH);
      expect(menu.texts[0]).toBe(en.shell.dashboard);
      expect(menu.leaves.filter((key) => key !== HOME_PATH).sort()).toEqual(expected.leaves);
      expect(menu.topLevel.filter((key) => key.split("/").length === 2).sort()).toEqual(expected.groups);
    },
  );

  // every entry opens its page (not the 404 or 401 page)
  test.each(entryRuns)("%s opens its entries %i to %i of %i, each its page", async (_username, _first, _last, _count, { username, reminder }, entries) => {
    const { page } = suite;
    await signIn(username, reminder);
    for (const leaf of entries) {
      await clickMenuEntry(page, leaf);
      await expectPath(page, leaf);
      await page.getByTestId("tab-bar").getByTestId(`tab-${leaf}`).waitFor();
      expect(await page.getByText(en.pages.not_found).or(page.getByText(en.pages.forbidden)).count()).toBe(0);
    }
  });

  test("the system user switches into Sunrise, gets the provider's menus, and goes back to the operator console", async () => {
    const { page } = suite;
    await login(page, suite.url, "sysadmin");
    await page.getByTestId("avatar-dropdown").click();
    await page.getByTestId("avatar-switch-provider").click();
    await expectPath(page, "/secservice");

    const sunrise = page.getByRole("row").filter({ hasText: "Sunrise Campus Services" });
    await sunrise.getByRole("button", { name: en.pages.manage }).click();
    await expectPath(page, HOME_PATH);

    expect(await cookieValue(page, "select_user_type")).toBe("service");
    const sysid = await cookieValue(page, "select_sysid");
    expect(sysid).toMatch(/^\d+$/);
    expect(await cookieValue(page, "service_name")).toBe("Sunrise Campus Services");
    const providerMenu = await sidebarMenu(page);
    // Sunrise: v2, mini-program upload allowed, fees shown
    expect(providerMenu.leaves.filter((key) => key !== HOME_PATH).sort()).toEqual(expectedMenu(["servicev2", "xcxuploadv2", "is_show_fee"]).leaves);
    expect(providerMenu.leaves).not.toContain("/servicev2/servicelist");
    // a provider id is known now: the download centre shows
    await expect.poll(() => page.getByTestId("header-download").count()).toBe(1);

    await page.getByTestId("avatar-dropdown").click();
    await page.getByTestId("avatar-switch-school").click();
    await expectPath(page, "/secservice");
    await page.getByTestId("selection-console").click();
    await expectPath(page, HOME_PATH);
    expect(await cookieValue(page, "select_user_type")).toBe("system");
    const operatorMenu = await sidebarMenu(page);
    expect(operatorMenu.leaves.filter((key) => key !== HOME_PATH).sort()).toEqual(expectedMenu(["systemv2", "superadminv2"]).leaves);
  });

  test("a provider chooses a school to manage", async () => {
    const { page } = suite;
    await login(page, suite.url, "svc");
    await dismissExpiryReminder(page);
    expect(await cookieValue(page, "select_schid")).toBeFalsy();
    await page.getByTestId("avatar-dropdown").click();
    await page.getByTestId("avatar-switch-school").click();
    await expectPath(page, "/secservice");
    await expect.poll(() => page.getByTestId("selection-prompt").innerText()).toBe(en.pages.choose_school);

    const choose = page.locator("[data-testid^='select-school-']").first();
    const schoolId = ((await choose.getAttribute("data-testid")) ?? "").replace("select-school-", "");
    expect(schoolId).toMatch(/^\d+$/);
    await choose.click();
    await expectPath(page, HOME_PATH);
    expect(await cookieValue(page, "select_schid")).toBe(schoolId);
    // still the provider
    expect(await cookieValue(page, "select_user_type")).toBe("service");
  });
});
