/**
 * Spec 2.1, 4.1, 5, 8: the navigation guard, login (wrong password, username trimmed, redirect back), logout
 * (token revoked, back to /login?redirect=...) and unknown paths.
 */
import { expect, test } from "vitest";
import { cookieValue, describeInBrowser, expectPath, HOME_PATH, login, clickMenuEntry } from "../helpers/browser";
import { en } from "../helpers/locales";

describeInBrowser("session and navigation", (suite) => {
  test("a wrong password shows the server's message and stays on the login page", async () => {
    const { page } = suite;
    await page.goto(`${suite.url}/login`);
    await page.getByTestId("login-username").fill("sysadmin");
    await page.getByTestId("login-password").fill("wrong-password");
    await page.getByTestId("login-submit").click();
    await expect.poll(() => page.getByText(en.api.login_failed).count()).toBeGreaterThan(0);
    expect(new URL(page.url()).pathname).toBe("/login");
    await expect.poll(() => cookieValue(page, "token")).toBeFalsy();
  });

  test("a protected URL without a token goes to the login page and back after login (username trimmed)", async () => {
    const { page } = suite;
    await page.goto(`${suite.url}/servicev2/servicelist`);
    await expectPath(page, "/login");
    expect(new URL(page.url()).searchParams.get("redirect")).toBe("/servicev2/servicelist");

    await page.getByTestId("login-username").fill("  sysadmin  ");
    await page.getByTestId("login-password").fill("demo1234");
    await page.getByTestId("login-submit").click();
    await expectPath(page, "/servicev2/servicelist");
    // the browser stores a cookie written by the page a moment later than the page sees it
    await expect.poll(() => cookieValue(page, "token")).toBeTruthy();

    // logged in, /login leads home
    await page.goto(`${suite.url}/login`);
    await page.waitForURL((url) => url.pathname !== "/login");
    expect([HOME_PATH, "/"]).toContain(new URL(page.url()).pathname);
  });

  test("an unknown path shows the 404 page", async () => {
    const { page } = suite;
    await login(page, suite.url, "school");
    await page.goto(`${suite.url}/no/such/page`);
    await expectPath(page, "/404");
    await page.getByText(en.pages.not_found).waitFor();
  });

  test("logout revokes the token and returns to /login?redirect= the page left", async () => {
    const { page } = suite;
    await login(page, suite.url, "sysadmin");
    await clickMenuEntry(page, "/servicev2/servicelist");
    await expectPath(page, "/servicev2/servicelist");
    await expect.poll(() => cookieValue(page, "token")).toBeTruthy();
    const token = await cookieValue(page, "token");

    await page.getByTestId("avatar-dropdown").click();
    await page.getByTestId("avatar-logout").click();
    await expectPath(page, "/login");
    // the full path of the page left, with its query (list state)
    expect(new URL(page.url()).searchParams.get("redirect")).toMatch(/^\/servicev2\/servicelist(\?|$)/);
    await expect.poll(() => cookieValue(page, "token")).toBeFalsy();

    // the server no longer accepts the old token
    const answer = await fetch(`${suite.url}/weapi/adminapi`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-token": token! },
      body: JSON.stringify({ method: "getuserinfo" }),
    }).then((res) => res.json() as Promise<{ return_code: string }>);
    expect(answer.return_code).toBe("token_error");

    // and the console is closed again
    await page.goto(`${suite.url}${HOME_PATH}`);
    await expectPath(page, "/login");
  });
});
