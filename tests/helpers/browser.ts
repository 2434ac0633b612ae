/**
 * Browser test helpers: Debian's Chromium driven by playwright-core (no browser download), kept for the run's files
 * (a file asking for switches of its own, a fake camera, gets its own). A test's page opens in a profile that keeps
 * only its HTTP and code cache from one test to the next (no cookie, storage or permission); the other contexts a test
 * asks for are fresh ones. A missing Chromium or build fails the tests, unless the browser tests are left out on
 * purpose (TEST_SKIP=browser): then they show as skipped with the reason.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type CDPSession, type Download, type Locator, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect } from "vitest";
import { copySeededDataDir, seededTemplate } from "./browserDatabases";
import { assertListedOnPostgres, createPostgresDatabase, testDatabaseKinds, type TestDatabaseKind } from "./db";
import { isSkipped, skipReason } from "./requirements";
import { startTestServer, type TestServer, type TestServerOptions } from "./server";

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

export function chromiumPath(): string {
  return process.env.CHROME_PATH || "/usr/bin/chromium";
}

/** Why the browser tests cannot run here, or undefined when they can. */
export function chromiumMissingReason(): string | undefined {
  const executable = chromiumPath();
  try {
    fs.accessSync(executable, fs.constants.X_OK);
    return undefined;
  } catch {
    return `Chromium not found at ${executable} (install Debian's chromium or set CHROME_PATH)`;
  }
}

const DIST_INDEX = path.resolve(import.meta.dirname, "../../dist/index.html");

/** `extraArgs`: switches of a file's own (a fake camera: ./fakeCamera.ts) after the usual ones */
export async function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  const missing = chromiumMissingReason();
  if (missing) throw new Error(missing);
  return chromium.launch({ executablePath: chromiumPath(), headless: true, args: [...CHROMIUM_ARGS, ...extraArgs] });
}

/**
 * V8 optimises no further than its baseline compiler: a test's page lives seconds, too short for the optimising
 * compilers (Maglev, TurboFan) to repay their compiling, about a fifth of the browser's CPU time on two cores.
 */
const TEST_ARGS = ["--js-flags=--max-opt=1"];

/**
 * The Chromium of the files that ask for no switches of their own: launched by the first of them and kept for the
 * next (the files share one module graph, vitest.e2e.config.ts), so that a file does not wait for a browser to start
 * and stop; playwright closes it when the run's process ends. It holds the fresh contexts tests ask for beside their
 * own page (a second user, a phone).
 */
let sharedChromium: Promise<Browser> | undefined;

/** A browser for a file: the shared one, or one of its own (closed with the file) when it asks for switches. */
async function fileChromium(extraArgs: readonly string[] | undefined): Promise<{ browser: Browser; own: boolean }> {
  if (extraArgs && extraArgs.length > 0) return { browser: await launchChromium([...TEST_ARGS, ...extraArgs]), own: true };
  const running = await sharedChromium?.catch(() => undefined);
  if (running?.isConnected()) return { browser: running, own: false };
  sharedChromium = launchChromium(TEST_ARGS);
  return { browser: await sharedChromium, own: false };
}

/** A test's page: this size, the language of its file, and no animation (see openContext below) */
const PAGE_OPTIONS = { viewport: { width: 1366, height: 850 }, reducedMotion: "reduce" } as const;

/**
 * A Chromium profile on disk, whose pages are the tests' own: a test opens its page in it and leaves it, at its end,
 * without cookies, storage or permissions, as a fresh context would. What it keeps is the HTTP cache and with it V8's
 * code cache, which a fresh (incognito) context never has: each page of the console compiled its scripts anew, the
 * larger part of the browser tests' time on two cores.
 */
interface Profile {
  readonly context: BrowserContext;
  /** a blank page kept open for the profile's DevTools session, so that the profile outlives the tests' pages */
  readonly keeper: Page;
  readonly devtools: CDPSession;
}

async function openProfile(locale: string, extraArgs: readonly string[]): Promise<Profile> {
  const missing = chromiumMissingReason();
  if (missing) throw new Error(missing);
  // "": a temporary profile directory, removed by playwright when the profile closes
  const context = await chromium.launchPersistentContext("", {
    executablePath: chromiumPath(),
    headless: true,
    args: [...CHROMIUM_ARGS, ...TEST_ARGS, ...extraArgs],
    locale,
    ...PAGE_OPTIONS,
  });
  context.setDefaultTimeout(15000);
  const keeper = context.pages()[0] ?? (await context.newPage());
  return { context, keeper, devtools: await context.newCDPSession(keeper) };
}

/** The profiles of the files without switches of their own, one per language, kept for the run as sharedChromium is. */
const sharedProfiles = new Map<string, Promise<Profile>>();

async function fileProfile(locale: string, extraArgs: readonly string[] | undefined): Promise<{ profile: Profile; own: boolean }> {
  if (extraArgs && extraArgs.length > 0) return { profile: await openProfile(locale, extraArgs), own: true };
  const running = await sharedProfiles.get(locale)?.catch(() => undefined);
  if (running && !running.keeper.isClosed()) return { profile: running, own: false };
  const opening = openProfile(locale, []);
  sharedProfiles.set(locale, opening);
  return { profile: await opening, own: false };
}

/**
 * The port the files' servers listen on, one after the other: the first chose it, the next take it again once the one
 * before has closed, so that the console keeps one origin for the run, and a profile's code cache stays valid from one
 * file to the next. A port taken meanwhile by something else gives way to one chosen afresh.
 */
let suitePort = 0;

async function startSuiteServer(options: TestServerOptions): Promise<TestServer> {
  let server: TestServer;
  try {
    server = await startTestServer({ ...options, port: suitePort });
  } catch (err) {
    if (suitePort === 0 || (err as NodeJS.ErrnoException).code !== "EADDRINUSE") throw err;
    server = await startTestServer({ ...options, port: 0 });
  }
  suitePort = Number(new URL(server.url).port);
  return server;
}

/**
 * Closes a file's server. The profile outlives the file, and with it its connections to the server, kept alive or
 * opened ahead of a request, which would hold the server's close open (a connection that never sent a request is not
 * idle to Node): they are closed with the server.
 */
async function closeSuiteServer(server: TestServer): Promise<void> {
  const closing = server.close();
  server.server.app.server.closeAllConnections();
  await closing;
}

/** Ends a test in the profile: its pages closed, and its origin's cookies, storage and permissions removed. */
async function clearProfile(profile: Profile, origin: string): Promise<void> {
  for (const page of profile.context.pages()) if (page !== profile.keeper) await page.close();
  await profile.context.clearCookies();
  await profile.context.clearPermissions();
  await profile.devtools.send("Storage.clearDataForOrigin", {
    origin,
    storageTypes: "local_storage,indexeddb,websql,service_workers,cache_storage,file_systems,shared_storage,storage_buckets",
  });
}

export interface BrowserSuite {
  /** base URL of the real server serving dist/ (valid inside tests) */
  readonly url: string;
  readonly server: TestServer;
  /** the page of the current test (in the profile of its file's language, English unless `locale` asks otherwise) */
  readonly page: Page;
  /** the context of `page`: its file's profile, whose pages close when the test ends */
  readonly context: BrowserContext;
  /** another fresh context, e.g. a second user or another browser's user agent (closed after the test) */
  newContext(language?: string, contextOptions?: BrowserContextOptions): Promise<BrowserContext>;
}

const SCREENSHOT_DIR = path.join(os.tmpdir(), "cpc-e2e-screenshots");

/**
 * A describe block for browser tests: starts the real server and the built SPA on a copy of the seeded demo data (a
 * temporary data directory, or a PostgreSQL database), a Chromium, and a page per test (see Profile); a
 * failing test leaves a screenshot in SCREENSHOT_DIR (its path is printed).
 */
export function describeInBrowser(
  name: string,
  body: (suite: BrowserSuite) => void,
  /**
   * `server`: more options of the test server, read when it starts (after the file's own beforeAll); `chromiumArgs`:
   * more switches for the file's Chromium
   */
  options: { locale?: string; database?: TestDatabaseKind; server?: () => Partial<TestServerOptions>; chromiumArgs?: readonly string[] } = {},
): void {
  if (isSkipped("browser")) {
    describe.skip(`${name} (${skipReason()})`, () => body(unavailableSuite(skipReason())));
    return;
  }
  const missing = chromiumMissingReason() ?? (fs.existsSync(DIST_INDEX) ? undefined : "dist/ is not built (run npm run build)");
  describe(name, () => {
    let server: TestServer | undefined;
    let postgres: { url: string; drop(): Promise<void> } | undefined;
    let dataDir: string | undefined;
    let profile: { profile: Profile; own: boolean } | undefined;
    let browser: { browser: Browser; own: boolean } | undefined;
    let page: Page | undefined;
    const extraContexts: BrowserContext[] = [];
    const locale = options.locale ?? "en-US";

    const openContext = async (language = locale, contextOptions: BrowserContextOptions = {}) => {
      if (!browser?.browser.isConnected()) browser = await fileChromium(options.chromiumArgs);
      // the SPA takes the language from the cookie, then the browser language; with reduced motion asked for, as a
      // reader may ask the system, nothing slides or zooms: a click never lands on what moved away a frame earlier,
      // and no software-drawn animation frame takes the CPU the server and the page need
      const opened = await browser.browser.newContext({ locale: language, ...PAGE_OPTIONS, ...contextOptions });
      opened.setDefaultTimeout(15000);
      return opened;
    };

    beforeAll(async () => {
      // a missing Chromium or build is a failure, with the reason (TEST_SKIP=browser leaves the tests out)
      if (missing) throw new Error(`${missing}; to leave the browser tests out on purpose, set TEST_SKIP=browser`);
      // a copy of the demo the global setup seeded (browserDatabases.ts)
      if (options.database === "postgres") postgres = await createPostgresDatabase(seededTemplate());
      else dataDir = copySeededDataDir();
      [server, profile] = await Promise.all([startSuiteServer({ databaseUrl: postgres?.url, dataDir, ...options.server?.() }), fileProfile(locale, options.chromiumArgs)]);
    });
    afterAll(async () => {
      if (profile?.own) await profile.profile.context.close();
      if (browser?.own) await browser.browser.close();
      if (server) await closeSuiteServer(server);
      await postgres?.drop();
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    });
    beforeEach(async () => {
      // Chromium that exited under a test fails that test alone: the next one starts on a new browser
      if (profile?.profile.keeper.isClosed()) {
        console.error(`Chromium exited during the previous test of "${name}"; starting a new one`);
        profile = await fileProfile(locale, options.chromiumArgs);
      }
      if (!profile) throw new Error("the browser did not start");
      page = await profile.profile.context.newPage();
    });
    afterEach(async ({ task }) => {
      const context = profile?.profile.context;
      if (task.result?.state === "fail") {
        fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
        const pages = [context, ...extraContexts].flatMap((c) => c?.pages() ?? []).filter((p) => p.url() !== "about:blank");
        for (const [i, failed] of pages.entries()) {
          const file = path.join(SCREENSHOT_DIR, `${task.name.replace(/[^\w.-]+/g, "_").slice(0, 80)}-${Date.now()}-${i}.png`);
          const at = failed.url();
          await failed.screenshot({ path: file, fullPage: true }).then(
            () => console.error(`screenshot of the failure: ${file} (at ${at})`),
            () => undefined,
          );
        }
      }
      for (const extra of extraContexts.splice(0)) await extra.close();
      if (profile && server && !profile.profile.keeper.isClosed()) await clearProfile(profile.profile, new URL(server.url).origin);
      page = undefined;
    });

    body({
      get url() {
        if (!server) throw new Error("the server did not start");
        return server.url;
      },
      get server() {
        if (!server) throw new Error("the server did not start");
        return server;
      },
      get page() {
        if (!page) throw new Error("no page outside a test");
        return page;
      },
      get context() {
        if (!page) throw new Error("no context outside a test");
        return page.context();
      },
      async newContext(language?: string, contextOptions?: BrowserContextOptions) {
        const extra = await openContext(language, contextOptions);
        extraContexts.push(extra);
        return extra;
      },
    });
  });
}

/**
 * The same browser tests on the embedded database and on PostgreSQL, in a file listed in ON_POSTGRES (onPostgres.ts,
 * with why); PostgreSQL left out on purpose shows as skipped.
 */
export function describeInBrowserOnDatabases(name: string, body: (suite: BrowserSuite) => void, options: { locale?: string } = {}): void {
  assertListedOnPostgres("describeInBrowserOnDatabases");
  for (const database of testDatabaseKinds()) describeInBrowser(`${name} [${database}]`, body, { ...options, database });
  if (isSkipped("postgres")) describe.skip(`${name} [postgres] (${skipReason()})`, () => body(unavailableSuite(skipReason())));
}

function unavailableSuite(reason: string): BrowserSuite {
  const fail = (): never => {
    throw new Error(reason);
  };
  return {
    get url() {
      return fail();
    },
    get server() {
      return fail();
    },
    get page() {
      return fail();
    },
    get context() {
      return fail();
    },
    newContext: async () => fail(),
  };
}

export const DEMO_PASSWORD = "demo1234";
export const HOME_PATH = "/Dashboard/Dashboard";

/**
 * Logs in through the login form and waits until the console (or the selection page) has replaced it. `to`: the
 * page to land on, as a link followed while signed out comes back to it (/login?redirect=), without loading the
 * console a second time.
 */
export async function login(page: Page, baseUrl: string, username: string, { password = DEMO_PASSWORD, to }: { password?: string; to?: string } = {}): Promise<void> {
  if (to !== undefined) await page.goto(`${baseUrl}/login?redirect=${encodeURIComponent(to)}`);
  else if (!page.url().includes("/login")) await page.goto(`${baseUrl}/login`);
  await page.getByTestId("login-username").fill(username);
  await page.getByTestId("login-password").fill(password);
  await page.getByTestId("login-submit").click();
  await page.waitForURL((url) => !url.pathname.startsWith("/login"));
  await page.getByTestId("console-layout").or(page.getByTestId("selection-page")).first().waitFor();
  if (to !== undefined) await page.waitForURL((url) => url.pathname === new URL(to, baseUrl).pathname);
}

/**
 * Waits until no finite CSS animation or transition runs (a dialog zooming in or out, a menu group unfolding).
 * On a busy machine a click dispatched while the page still moves can reach the element that was under the
 * pointer a frame earlier and be lost; endless ones (spinners) are not waited for.
 */
export async function animationsSettled(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document.getAnimations().every((animation) => animation.playState !== "running" || animation.effect?.getComputedTiming().iterations === Infinity),
  );
}

/** Clicks what has just appeared (a dialog's button, a dropdown's option) once nothing on the page moves. */
export async function clickSettled(page: Page, target: Locator): Promise<void> {
  await target.waitFor();
  await animationsSettled(page);
  await target.click();
}

/**
 * Chooses an option of a select, typing part of its label first into a searchable one. The dropdown slides in,
 * and a popup closed just before (a date picker's) may still slide out over it: the option is clicked once both
 * have stopped.
 */
export async function choose(page: Page, select: Locator, text: string, option = text): Promise<void> {
  await animationsSettled(page);
  await select.click();
  if ((await select.locator("input[readonly]").count()) === 0) await select.locator("input").fill(text);
  const item = page.locator(".ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option").filter({ hasText: option }).first();
  await clickSettled(page, item);
  await animationsSettled(page);
}

/** Clicks an entry of the sidebar once the sidebar has stopped moving. */
export async function clickMenuEntry(page: Page, route: string): Promise<void> {
  const entry = await menuEntry(page, route);
  await animationsSettled(page);
  await entry.click();
}

/** Spec 4.2: a term ending within 15 days shows a reminder once per browser session; acknowledges it. */
export async function dismissExpiryReminder(page: Page): Promise<void> {
  await clickClosing(page, page.getByTestId("expiry-reminder-ok"));
  await animationsSettled(page);
}

/**
 * Clicks a button that closes its dialog, until the dialog has closed. On a busy machine a click is now and then
 * lost (a render lands between its press and its release, and the browser fires no click): a person would click
 * again, and so does this, at most three times in all.
 */
export async function clickClosing(page: Page, button: Locator): Promise<void> {
  await clickSettled(page, button);
  for (let retry = 0; retry < 2; retry++) {
    try {
      await button.waitFor({ state: "hidden", timeout: 3000 });
      return;
    } catch {
      // still open after three seconds: the click was lost, or the machine is slow to close it
    }
    if (await button.isVisible()) await button.click();
  }
  // the last click is given the whole default wait
  await button.waitFor({ state: "hidden" });
}

export const DOWNLOAD_PATH = "/download/downloadlist";

/**
 * An export followed as a user follows it: the Export button, the message pointing to the download centre and its
 * link, the newest download once its file is written, its Download button; then back to the page it started
 * from. Answers the browser's download.
 */
export async function exportThroughDownloadCentre(page: Page, exportButton: Locator): Promise<Download> {
  const from = new URL(page.url());
  await exportButton.click();
  await clickSettled(page, page.getByTestId("export-started").last().getByRole("link"));
  await expectPath(page, DOWNLOAD_PATH);
  const newest = page.getByTestId("download-list").locator("tbody tr.ant-table-row").first();
  // the page asks again until the file is written
  const status = newest.getByTestId("download-status");
  await status.waitFor();
  expect(await newest.getByTestId("download-file").isEnabled(), await status.innerText()).toBe(true);
  const [download] = await Promise.all([page.waitForEvent("download"), newest.getByTestId("download-file").click()]);
  await page.goBack();
  await expectPath(page, from.pathname);
  return download;
}

/** Pays an order on its sandbox page, opened in another page as a phone would open the QR code. */
export async function payInSandbox(page: Page, codeUrl: string): Promise<void> {
  const phone = await page.context().newPage();
  try {
    await phone.goto(codeUrl);
    await phone.getByTestId("sandbox-pay").click();
    await phone.getByTestId("sandbox-paid").waitFor();
  } finally {
    await phone.close();
  }
}

/** The value of a cookie of the page's context (decoded), or undefined. */
export async function cookieValue(page: Page, name: string): Promise<string | undefined> {
  const cookie = (await page.context().cookies()).find((c) => c.name === name);
  return cookie === undefined ? undefined : decodeURIComponent(cookie.value);
}

export interface SidebarMenu {
  /** keys of the top-level entries, in order (a route path, or /{group} for a group) */
  topLevel: string[];
  /** route paths of every page entry, groups expanded */
  leaves: string[];
  /** texts of every entry shown, groups expanded */
  texts: string[];
}

/** Reads the sidebar, opening every group so that its entries are rendered. */
export async function sidebarMenu(page: Page): Promise<SidebarMenu> {
  const sidebar = page.getByTestId("sidebar");
  await sidebar.waitFor();
  const rootItems = sidebar.locator("ul.ant-menu-root > li");
  const count = await rootItems.count();
  const topLevel: string[] = [];
  for (let i = 0; i < count; i++) {
    const item = rootItems.nth(i);
    const label = item.locator("[data-testid^='menu-']").first();
    const key = ((await label.getAttribute("data-testid")) ?? "").replace(/^menu-/, "");
    topLevel.push(key);
    if ((await item.getAttribute("class"))?.includes("ant-menu-submenu") && !(await item.getAttribute("class"))?.includes("ant-menu-submenu-open")) {
      await item.locator(".ant-menu-submenu-title").click();
      await item.locator("ul [data-testid^='menu-']").first().waitFor();
    }
  }
  const labels = sidebar.locator("[data-testid^='menu-']");
  const keys = (await labels.evaluateAll((els) => els.map((el) => el.getAttribute("data-testid") ?? ""))).map((id) => id.replace(/^menu-/, ""));
  const texts = await labels.allInnerTexts();
  const groups = new Set(topLevel.filter((key) => key.split("/").length === 2));
  return { topLevel, leaves: keys.filter((key) => !groups.has(key)), texts: texts.map((t) => t.trim()) };
}

/** Route keys of the open tabs, in order. */
export async function tabKeys(page: Page): Promise<string[]> {
  const tabs = page.getByTestId("tab-bar").locator("[data-testid^='tab-/']");
  return (await tabs.evaluateAll((els) => els.map((el) => el.getAttribute("data-testid") ?? ""))).map((id) => id.replace(/^tab-/, ""));
}

/**
 * Right-clicks a tab and chooses refresh, close, close-others or close-all. A context menu closes itself when
 * the page under it scrolls or re-lays out (a page still rendering after a navigation), so the item is clicked
 * once the menu's opening animation is over, and the menu opened again if it vanished first.
 */
export async function tabMenu(page: Page, tabKey: string, action: "refresh" | "close" | "close-others" | "close-all"): Promise<void> {
  const settledMenu = page.locator(".ant-dropdown:not(.ant-dropdown-hidden):not([class*='-appear']):not([class*='-leave'])");
  for (let attempt = 1; ; attempt++) {
    await page.getByTestId(`tab-${tabKey}`).click({ button: "right" });
    try {
      await settledMenu.getByTestId(`tab-menu-${action}`).click({ timeout: 3000 });
      return;
    } catch (err) {
      if (attempt === 3) throw err;
    }
  }
}

/** Waits until the path (and optionally the query) of the page is the expected one. */
export async function expectPath(page: Page, pathname: string): Promise<void> {
  await page.waitForURL((url) => url.pathname === pathname);
  expect(new URL(page.url()).pathname).toBe(pathname);
}

/** A sidebar entry by its route; its group is opened first when the entry sits in a closed one. */
export async function menuEntry(page: Page, route: string): Promise<Locator> {
  const entry = page.getByTestId(`menu-${route}`);
  const group = page.getByTestId(`menu-/${route.split("/")[1]}`);
  await entry.or(group).first().waitFor();
  if (!(await entry.isVisible())) await group.click();
  await entry.waitFor({ state: "visible" });
  return entry;
}
