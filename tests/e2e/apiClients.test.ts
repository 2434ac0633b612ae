/**
 * An operator connects a school's system in the browser: adds an API client of a provider's school with its scopes,
 * copies its id and secret from the dialog that shows them once, and the system trades them for a token and reads
 * its school through the open API; a new secret shown the same way ends the old one. The documentation opens from
 * the list, and on a phone the list fits the screen.
 */
import type { Locator, Page } from "playwright-core";
import { expect, test } from "vitest";
import { animationsSettled, choose, describeInBrowser, login } from "../helpers/browser";
import { en, zh } from "../helpers/locales";

/** The select of a form item by its label, within `scope`. */
function selectOf(scope: Locator, label: string): Locator {
  return scope.locator(".ant-form-item").filter({ has: scope.page().locator(`label[title="${label}"]`) }).locator(".ant-select");
}

/** The id and secret of the dialog that shows them once, closed as the user closes it once they are copied. */
async function copiedCredentials(page: Page): Promise<{ clientId: string; secret: string }> {
  const dialog = page.getByTestId("answered-once");
  await dialog.waitFor();
  expect(await dialog.innerText()).toContain(en.clients.secret_hint);
  const clientId = (await dialog.getByTestId("answered-client_id").innerText()).trim();
  const secret = (await dialog.getByTestId("answered-client_secret").innerText()).trim();
  await page.locator(".ant-modal-confirm").getByRole("button", { name: en.crud.answered_once_close }).click();
  await dialog.waitFor({ state: "detached" });
  return { clientId, secret };
}

describeInBrowser("API clients", (suite) => {
  const tokenOf = (clientId: string, secret: string) =>
    fetch(`${suite.url}/openapi/v1/oauth/token`, {
      method: "POST",
      headers: { authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString("base64")}`, "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=client_credentials",
    });

  test("1440 px: a client is added, its secret copied once, used by the school's system and renewed", async () => {
    const { page } = suite;
    await page.setViewportSize({ width: 1440, height: 900 });
    await login(page, suite.url, "sysadmin", { to: "/clientv2/clientlist" });
    const active = page.getByTestId("page-active");
    expect(await active.getByTestId("list-tool-openapidocs").getAttribute("href")).toBe("/openapi/v1/docs");

    await active.getByTestId("add-button").click();
    const form = page.locator(".ant-modal").filter({ visible: true }).locator("form");
    await form.locator("#title").waitFor();
    await animationsSettled(page);
    await form.locator("#title").fill("Sunrise No.1 roster sync");
    await choose(page, selectOf(form, en.clients.field.provider), "Sunrise Campus Services");
    await choose(page, selectOf(form, en.clients.field.school), "Sunrise No.1 Primary School");
    await choose(page, selectOf(form, en.clients.field.scopes), en.clients.scope.students_write);
    await page.keyboard.press("Escape");
    await form.locator("#allowed_ips").fill("127.0.0.1\n::1");
    await page.locator(".ant-modal-footer").filter({ visible: true }).getByRole("button", { name: en.crud.save }).click();
    const first = await copiedCredentials(page);
    expect(first.clientId).toMatch(/^cp_[0-9a-f]{24}$/);

    // the school's system signs in with what was copied, and acts for its school alone
    const token = await tokenOf(first.clientId, first.secret);
    expect(token.status).toBe(200);
    const { access_token, scope } = (await token.json()) as { access_token: string; scope: string };
    expect(scope).toBe("students:write");
    const schools = await fetch(`${suite.url}/openapi/v1/schools`, { headers: { authorization: `Bearer ${access_token}` } });
    expect(((await schools.json()) as { data: { title: string }[] }).data.map((s) => s.title)).toEqual(["Sunrise No.1 Primary School"]);

    // a new secret, shown the same way; the old one no longer signs in
    const row = active.locator("tbody tr.ant-table-row").filter({ hasText: "Sunrise No.1 roster sync" });
    await row.getByTestId("row-clientreset").click();
    await page.locator(".ant-popover, .ant-modal-confirm").filter({ visible: true }).getByRole("button", { name: en.common.confirm }).click();
    const second = await copiedCredentials(page);
    expect(second.clientId).toBe(first.clientId);
    expect(second.secret).not.toBe(first.secret);
    expect((await tokenOf(first.clientId, first.secret)).status).toBe(401);
    expect((await tokenOf(second.clientId, second.secret)).status).toBe(200);
  });

  test("390 px in Chinese: the clients fit the screen and the documentation reads in Chinese", async () => {
    const phone = await (await suite.newContext("zh-CN")).newPage();
    await phone.setViewportSize({ width: 390, height: 844 });
    await login(phone, suite.url, "sysadmin", { to: "/clientv2/clientlist" });
    const active = phone.getByTestId("page-active");
    await active.getByText("Sunrise ERP").waitFor();
    expect(await active.innerText()).toContain(zh.clients.scope.orders_read);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await phone.goto(`${suite.url}/openapi/v1/docs`);
    expect(await phone.locator("h1").innerText()).toBe(zh.openapi.docs.title);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});
