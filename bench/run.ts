/**
 * npm run bench: measures the real server (startTestServer, in this process) and the built SPA in Chromium,
 * and prints each figure beside its DESIGN 10 budget. Runs on a temporary embedded database always, and on a
 * fresh PostgreSQL database when BENCH_DATABASE_URL / DATABASE_URL is set or 127.0.0.1:5432 answers.
 * Every load is bounded in request count and in time. BENCH_SCALE=N seeds N x 10,000 students for the student
 * list (default 100: 1,000,000), and as many shop orders for the shop order list (bench/retail.ts).
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import http from "node:http";
import ExcelJS from "exceljs";
import pg from "pg";
import type { Page, Response } from "playwright-core";
import type { LoadAnswer, LoadJob, LoadRequest, LoadResult } from "./loadWorker";
import { animationsSettled, launchChromium, chromiumMissingReason, menuEntry } from "../tests/helpers/browser";
import { startTestServer, type TestServer } from "../tests/helpers/server";
import { count, inArray, sql } from "drizzle-orm";
import { bills, classes, feeOrders, students } from "../server/db/schema";
import { DEMO_ACCOUNTS } from "../server/seed/demo";
import { seedScale } from "../server/seed/scale";
import { measureLargeJobs, measureServerMemory, type ReconciliationDay } from "./memory";
import { measureRetail, type RetailBench } from "./retail";
import { measurePeak } from "./peak";
import { startFloorServer } from "./floor";
import { openActivityPayers } from "../tests/helpers/schoolPayers";
import { billClass, call, type Envelope } from "./weapi";

const ROOT = path.resolve(import.meta.dirname, "..");
const DEMO_PASSWORD = "demo1234";
const KB = 1024;

interface Row {
  measure: string;
  database: string;
  figure: string;
  budget: string;
  verdict: "ok" | "OVER" | "n/a" | "FAILED";
}
const rows: Row[] = [];
function record(measure: string, database: string, value: number | undefined, unit: string, budget?: { limit: number; atMost: boolean; text: string }): void {
  const decimals = unit === "x" ? 2 : unit === "req/s" || unit === "ms" ? 1 : 0;
  const figure = value === undefined ? "not measured" : `${value.toFixed(decimals)} ${unit}`;
  let verdict: Row["verdict"] = "n/a";
  if (budget && value !== undefined) verdict = (budget.atMost ? value <= budget.limit : value >= budget.limit) ? "ok" : "OVER";
  rows.push({ measure, database, figure, budget: budget?.text ?? "", verdict });
}

// ---------------------------------------------------------------------------------------------------------
// The SPA in Chromium

function ensureBuilt(): void {
  if (fs.existsSync(path.join(ROOT, "dist/index.html"))) return;
  console.log("dist/ is missing: building the SPA (vite build)");
  execFileSync(process.execPath, [path.join(ROOT, "node_modules/vite/bin/vite.js"), "build"], { cwd: ROOT, stdio: "inherit" });
}

/** A string of echarts' core (its DOM attribute key), present in any bundle that holds echarts. */
const ECHARTS_MARK = "_echarts_instance_";

/** A browser's Accept-Encoding (Chromium sends br over https only; a deployment serves the console over https). */
const BROWSER_ACCEPT_ENCODING = "br, gzip";

/** The bytes of a file's body as the server sends it to a browser that accepts br and gzip, and their encoding. */
function wireSize(url: string, acceptEncoding = BROWSER_ACCEPT_ENCODING): Promise<{ size: number; encoding: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { "accept-encoding": acceptEncoding } }, (res) => {
        let size = 0;
        res.on("data", (chunk: Buffer) => (size += chunk.length));
        res.on("end", () => resolve({ size, encoding: String(res.headers["content-encoding"] ?? "identity") }));
        res.on("error", reject);
      })
      .on("error", reject);
  });
}

/** Encodings seen on the wire for the console's JS and CSS (br expected for all but the smallest files). */
const wireEncodings = new Map<string, number>();

/**
 * The bytes on the wire (Accept-Encoding: br, gzip) of every JS and CSS response the page receives from now on
 * (by URL, counted once), and which of them hold echarts.
 */
function trackScriptsAndStyles(page: Page): { bytes(): Promise<number>; sizes(): Promise<Map<string, number>>; echarts(): Promise<Set<string>> } {
  const pending = new Map<string, Promise<{ size: number; echarts: boolean }>>();
  const onResponse = (response: Response) => {
    const type = response.request().resourceType();
    if (type !== "script" && type !== "stylesheet") return;
    if (pending.has(response.url())) return;
    pending.set(
      response.url(),
      Promise.all([response.body(), wireSize(response.url())]).then(
        ([body, wire]) => {
          wireEncodings.set(wire.encoding, (wireEncodings.get(wire.encoding) ?? 0) + 1);
          return { size: wire.size, echarts: body.includes(ECHARTS_MARK) };
        },
        () => ({ size: 0, echarts: false }),
      ),
    );
  };
  page.on("response", onResponse);
  return {
    async bytes() {
      const sizes = await Promise.all(pending.values());
      return sizes.reduce((a, b) => a + b.size, 0);
    },
    async sizes() {
      return new Map(await Promise.all([...pending].map(async ([url, answer]) => [url, (await answer).size] as const)));
    },
    async echarts() {
      const answers = await Promise.all([...pending].map(async ([url, answer]) => [url, (await answer).echarts] as const));
      return new Set(answers.filter(([, has]) => has).map(([url]) => url));
    },
  };
}

async function measureSpa(server: TestServer): Promise<void> {
  const missing = chromiumMissingReason();
  if (missing) {
    console.warn(`Skipping the browser figures: ${missing}`);
    record("login page JS+CSS (br, on the wire)", "-", undefined, "KB");
    return;
  }
  const browser = await launchChromium();
  try {
    const interactiveTimes: number[] = [];
    let loginBytes = 0;
    let dashboardBytes = 0;
    let listPageBytes = 0;
    let largestListChunk = 0;
    for (let run = 0; run < 3; run++) {
      // a fresh context: nothing cached
      const context = await browser.newContext({ locale: "zh-CN", viewport: { width: 1366, height: 850 } });
      const page = await context.newPage();
      const loginAssets = trackScriptsAndStyles(page);
      const started = Date.now();
      await page.goto(`${server.url}/login`);
      // usable: the submit button is there and enabled
      await page.getByTestId("login-submit").waitFor({ state: "visible" });
      await page.waitForFunction(() => !(document.querySelector("[data-testid='login-submit']") as HTMLButtonElement | null)?.disabled);
      interactiveTimes.push(Date.now() - started);
      const atLogin = await loginAssets.bytes();

      await page.getByTestId("login-username").fill("sysadmin");
      await page.getByTestId("login-password").fill(DEMO_PASSWORD);
      await page.getByTestId("login-submit").click();
      await page.getByTestId("dashboard").waitFor();
      await page.waitForLoadState("networkidle");
      const atDashboard = await loginAssets.bytes();
      const dashboardUrls = new Set((await loginAssets.sizes()).keys());

      await (await menuEntry(page, "/servicev2/servicelist")).click();
      await page.locator(".ant-table").first().waitFor();
      await page.waitForLoadState("networkidle");
      const atList = await loginAssets.bytes();
      if (run === 0) {
        loginBytes = atLogin;
        dashboardBytes = atDashboard;
        listPageBytes = atList - atDashboard;
        const listChunks = [...(await loginAssets.sizes())].filter(([url]) => !dashboardUrls.has(url)).map(([, size]) => size);
        largestListChunk = Math.max(0, ...listChunks);
      }
      await context.close();
    }
    interactiveTimes.sort((a, b) => a - b);
    record("login page: JS+CSS before the form is usable (br, on the wire)", "-", loginBytes / KB, "KB", { limit: 250, atMost: true, text: "<= 250 KB" });
    record("dashboard after login: JS+CSS in total (br, on the wire)", "-", dashboardBytes / KB, "KB", { limit: 450, atMost: true, text: "<= 450 KB" });
    record("provider list page: largest further chunk (br, on the wire)", "-", largestListChunk / KB, "KB", { limit: 60, atMost: true, text: "<= 60 KB per chunk" });
    record("provider list page: further JS+CSS in total (br, on the wire)", "-", listPageBytes / KB, "KB");
    record("login page interactive (median of 3, cold cache)", "-", interactiveTimes[1], "ms", { limit: 1000, atMost: true, text: "<= 1000 ms" });
    await measureReportPage(browser, server).catch((err: unknown) => {
      console.warn(`The report page could not be measured: ${err instanceof Error ? err.message : String(err)}`);
      rows.push({ measure: `report page ${REPORT_ROUTE}: JS+CSS (br, on the wire)`, database: "-", figure: "not measured", budget: "", verdict: "FAILED" });
    });
    const encodings = [...wireEncodings].map(([encoding, files]) => `${encoding} ${files}`).join(", ");
    rows.push({ measure: "JS+CSS files by encoding on the wire (Accept-Encoding: br, gzip)", database: "-", figure: encodings, budget: "", verdict: "n/a" });
  } finally {
    await browser.close();
  }
}

const REPORT_ROUTE = "/datacount/class_statisv2";

/** the payer's phone pages (h5.html): their JS+CSS, gzip (a phone's browser on plain http gets no brotli) */
const PAYER_PAGE_BUDGET = { limit: 120, atMost: true, text: "<= 120 KB" };
/** the payer page's shop (its lazy chunk with the page's own files) */
const PAYER_SHOP_BUDGET = { limit: 150, atMost: true, text: "<= 150 KB" };

/** A payer QR code of Sunrise No.1 (a school with goods on sale), made by its provider: /h5/{code}. */
async function payerCode(server: TestServer): Promise<string> {
  const login = await call(server.url, "adminapi", { method: "login", username: "svc", password: DEMO_PASSWORD });
  const token = String((login.data as { token?: string } | undefined)?.token ?? "");
  const schools = await call(server.url, "adminapiv2", { method: "schoollist", page: 1, limit: 50 }, token);
  const school = ((schools.data?.items as { id: number; title: string }[] | undefined) ?? []).find((s) => s.title === "Sunrise No.1 Primary School");
  if (!school) throw new Error("the demo school Sunrise No.1 Primary School is missing");
  const added = await call(server.url, "adminapiv2", { method: "qrchnladd", sch_id: school.id, title: `Bench payer page ${Date.now()}` }, token);
  const code = (added.data?.items as { code?: string } | undefined)?.code;
  if (!code) throw new Error(`qrchnladd: ${added.return_msg}`);
  return code;
}

/**
 * The JS and CSS files reachable from `roots` (file names under dist/assets), following each JS file's references
 * to the others (static and lazy imports alike), without entering the files of `leaveOut`.
 */
async function reachableFiles(server: TestServer, roots: Iterable<string>, leaveOut: ReadonlySet<string> = new Set()): Promise<Set<string>> {
  const reference = /(?:\/|\.\/|")(?:assets\/)?([\w.-]+\.(?:js|css))(?=["'])/g;
  const seen = new Set<string>();
  const queue = [...roots];
  while (queue.length > 0) {
    const file = queue.shift() as string;
    if (seen.has(file) || leaveOut.has(file)) continue;
    seen.add(file);
    if (!file.endsWith(".js")) continue;
    const source = await (await fetch(`${server.url}/assets/${file}`)).text();
    for (const [, next] of source.matchAll(reference)) if (!seen.has(next) && fs.existsSync(path.join(ROOT, "dist/assets", next))) queue.push(next);
  }
  return seen;
}

async function gzipBytes(server: TestServer, files: Iterable<string>): Promise<number> {
  const sizes = await Promise.all([...files].map((file) => wireSize(`${server.url}/assets/${file}`, "gzip")));
  return sizes.reduce((sum, { size }) => sum + size, 0);
}

const assetName = (url: string) => new URL(url).pathname.replace(/^\/assets\//, "");

/**
 * The payer's page /h5/{code} at 390 px, as gzip on the wire: the JS+CSS the page fetches before it shows its first
 * answer; every JS+CSS file the fee steps can ever load (the entry, the chunks it imports and the lazy QR code chunk
 * of the pay step, followed from h5.html through the files' references), the shop's lazy chunk left out; and the
 * shop: what the page fetches to show the goods and a goods item once the shop's tab is opened, and every file the
 * shop can load (its chunk, the page's own files and the QR code chunk of a pickup order).
 */
async function measurePayerPage(server: TestServer): Promise<void> {
  const pageUrl = `${server.url}/h5/${await payerCode(server)}`;
  const html = await (await fetch(pageUrl, { headers: { accept: "text/html" } })).text();
  if (!html.includes("/src/h5/") && !/\/assets\/h5-[\w-]+\.js/.test(html)) throw new Error(`${pageUrl} is not the payer's page (is dist/ built with h5.html?)`);
  const entryFiles = [...html.matchAll(/\/assets\/([\w.-]+\.(?:js|css))/g)].map((m) => m[1]);

  let initial: number | undefined;
  let shopShown: number | undefined;
  let shopAll: number | undefined;
  let feeFiles: Set<string> | undefined;
  if (!chromiumMissingReason()) {
    const browser = await launchChromium();
    try {
      const context = await browser.newContext({ locale: "zh-CN", viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
      const page = await context.newPage();
      const loaded = new Set<string>();
      page.on("response", (response) => {
        const type = response.request().resourceType();
        if (type === "script" || type === "stylesheet") loaded.add(response.url());
      });
      await page.goto(pageUrl);
      // the school's page stands: the student can be looked up
      await page.getByTestId("h5-find-submit").waitFor();
      await page.waitForLoadState("networkidle");
      const first = new Set(loaded);
      initial = await gzipBytes(server, [...first].map(assetName));
      // the shop: its tab, the goods, one goods item
      await page.getByTestId("h5-tab-shop").click();
      await page.getByTestId("shop-goods").waitFor();
      await page.locator("[data-testid^='shop-goods-']").first().click();
      await page.getByTestId("shop-goods-title").waitFor();
      await page.waitForLoadState("networkidle");
      const shopChunks = new Set([...loaded].filter((url) => !first.has(url)).map(assetName));
      if (shopChunks.size === 0) throw new Error("opening the shop loaded no chunk of its own: is it still lazy?");
      shopShown = await gzipBytes(server, [...loaded].map(assetName));
      shopAll = await gzipBytes(server, await reachableFiles(server, [...loaded].map(assetName)));
      feeFiles = await reachableFiles(server, entryFiles, shopChunks);
      await context.close();
    } finally {
      await browser.close();
    }
  }
  const fees = feeFiles ? await gzipBytes(server, feeFiles) : undefined;
  record("payer page /h5/: JS+CSS before its first answer (gzip, on the wire)", "-", initial === undefined ? undefined : initial / KB, "KB", PAYER_PAGE_BUDGET);
  record(`payer page /h5/: every JS+CSS of the fee steps, QR code chunk included, the shop's chunk left out (${feeFiles?.size ?? "?"} files, gzip, on the wire)`, "-", fees === undefined ? undefined : fees / KB, "KB", PAYER_PAGE_BUDGET);
  record("payer page's shop: JS+CSS to show the goods and a goods item (gzip, on the wire)", "-", shopShown === undefined ? undefined : shopShown / KB, "KB", PAYER_SHOP_BUDGET);
  record("payer page's shop: every JS+CSS it can load, QR code chunk included (gzip, on the wire)", "-", shopAll === undefined ? undefined : shopAll / KB, "KB", PAYER_SHOP_BUDGET);
}

/**
 * The school's report page (students by class, with its echarts chart): the JS+CSS it fetches beyond the
 * dashboard, and whether echarts stays out of the dashboard's bytes (DESIGN 10: <= 450 KB) and arrives with
 * the report only.
 */
async function measureReportPage(browser: Awaited<ReturnType<typeof launchChromium>>, server: TestServer): Promise<void> {
  const context = await browser.newContext({ locale: "zh-CN", viewport: { width: 1366, height: 850 } });
  try {
    const page = await context.newPage();
    const assets = trackScriptsAndStyles(page);
    await page.goto(`${server.url}/login`);
    await page.getByTestId("login-username").fill("school");
    await page.getByTestId("login-password").fill(DEMO_PASSWORD);
    await page.getByTestId("login-submit").click();
    await page.getByTestId("dashboard").waitFor();
    await page.waitForLoadState("networkidle");
    const dashboardBytes = await assets.bytes();
    const dashboardUrls = new Set((await assets.sizes()).keys());
    const dashboardEcharts = (await assets.echarts()).size > 0;
    // the school's term ends soon: its reminder opens over the dashboard
    const reminder = page.getByTestId("expiry-reminder-ok");
    if (await reminder.waitFor({ timeout: 5000 }).then(() => true, () => false)) {
      await animationsSettled(page);
      await reminder.click();
      await reminder.waitFor({ state: "hidden" });
      await animationsSettled(page);
    }
    record("dashboard after login as school: JS+CSS in total (br, on the wire)", "-", dashboardBytes / KB, "KB", { limit: 450, atMost: true, text: "<= 450 KB" });
    rows.push({
      measure: "dashboard after login as school: echarts among its JS",
      database: "-",
      figure: dashboardEcharts ? "yes" : "no",
      budget: "no (echarts must not reach the dashboard's budget)",
      verdict: dashboardEcharts ? "OVER" : "ok",
    });

    await (await menuEntry(page, REPORT_ROUTE)).click();
    const shows = (testId: string) =>
      page
        .getByTestId(testId)
        .waitFor({ timeout: 20_000 })
        .then(() => true, () => false);
    // the page, then its chart (a lazy chunk of its own, drawn once the figures are in)
    const shown = (await shows("report-page")) && (await shows("report-chart"));
    await page.waitForLoadState("networkidle");
    if (!shown) {
      console.warn(`The report page ${REPORT_ROUTE} did not show its chart (report-page, report-chart): its bytes are not measured.`);
      record(`report page ${REPORT_ROUTE}: further JS+CSS (br, on the wire)`, "-", undefined, "KB");
      return;
    }
    const further = [...(await assets.sizes())].filter(([url]) => !dashboardUrls.has(url));
    const withEcharts = await assets.echarts();
    const echartsBytes = further.filter(([url]) => withEcharts.has(url)).reduce((a, [, size]) => a + size, 0);
    const others = further.filter(([url]) => !withEcharts.has(url)).map(([, size]) => size);
    record(`report page ${REPORT_ROUTE}: further JS+CSS in total (br, on the wire)`, "-", further.reduce((a, [, size]) => a + size, 0) / KB, "KB");
    rows.push({
      measure: `report page ${REPORT_ROUTE}: echarts chunk(s) (br, on the wire)`,
      database: "-",
      figure: echartsBytes > 0 ? `${(echartsBytes / KB).toFixed(0)} KB` : dashboardEcharts ? "in the dashboard" : "none",
      budget: "loaded with the report, outside the dashboard's 450 KB",
      verdict: echartsBytes > 0 && !dashboardEcharts ? "ok" : dashboardEcharts ? "OVER" : "n/a",
    });
    record(`report page ${REPORT_ROUTE}: largest further chunk but echarts (br, on the wire)`, "-", Math.max(0, ...others) / KB, "KB", { limit: 60, atMost: true, text: "<= 60 KB per chunk" });
  } finally {
    await context.close();
  }
}

// ---------------------------------------------------------------------------------------------------------
// The API on loopback

interface LoginFacts {
  data?: { sysid?: string; schid?: string };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const LOAD_WORKER_URL = new URL("./loadWorker.ts", import.meta.url).href;

/** Runs a load job in a worker thread (bench/loadWorker.ts) and summarises its latencies. */
function load(url: string, requests: LoadRequest[], concurrency: number, maxRequests: number, maxSeconds: number, acceptedCodes?: string[]): Promise<LoadResult> {
  const job: LoadJob = { url, requests, concurrency, maxRequests, maxSeconds, acceptedCodes };
  return new Promise((resolve, reject) => {
    // the worker is TypeScript too: it registers tsx's loader in its own thread before importing it
    const source = `import("tsx/esm/api").then(({ register }) => { register(); return import(${JSON.stringify(LOAD_WORKER_URL)}); })`;
    const worker = new Worker(source, { eval: true, workerData: job });
    worker.once("error", reject);
    worker.once("message", (answer: LoadAnswer) => {
      void worker.terminate();
      if (answer.sampleFailure) console.warn(`a failing answer: ${answer.sampleFailure}`);
      const { latencies } = answer;
      resolve({
        count: latencies.length,
        failures: answer.failures,
        seconds: answer.seconds,
        p50: percentile(latencies, 50),
        p95: percentile(latencies, 95),
        p99: percentile(latencies, 99),
      });
    });
  });
}

function recordLoad(name: string, database: string, concurrency: number, result: LoadResult): void {
  const failed = result.failures ? `, ${result.failures} FAILED` : "";
  rows.push({
    measure: `${name}, ${concurrency} clients (${result.count} requests${failed})`,
    database,
    figure: `p50 ${result.p50.toFixed(1)} / p95 ${result.p95.toFixed(1)} / p99 ${result.p99.toFixed(1)} ms, ${(result.count / result.seconds).toFixed(0)} req/s`,
    budget: "",
    verdict: result.failures ? "FAILED" : "n/a",
  });
}

async function measureApi(server: TestServer, database: string): Promise<void> {
  // warm up: first queries compile plans, first argon2 allocates
  const first = await call(server.url, "adminapi", { method: "login", username: "svc", password: DEMO_PASSWORD });
  if (first.return_code !== "SUCCESS" || !first.data?.token) throw new Error(`login as svc failed on ${database}: ${first.return_msg}`);
  const token = first.data.token;
  const sysid = (first.data.items as LoginFacts | undefined)?.data?.sysid;
  const serviceinfo: LoadRequest[] = [{ path: "adminapiv2", body: { method: "serviceinfo", id: sysid }, token }];
  const warm = await call(server.url, "adminapiv2", serviceinfo[0].body, token);
  if (warm.return_code !== "SUCCESS") throw new Error(`serviceinfo failed on ${database}: ${warm.return_msg}`);
  await load(server.url, serviceinfo, 4, 200, 5);

  // login is argon2id-bound by design (m=19 MiB, t=2): few requests suffice. Different people log in (the
  // throttle lets one account run only a few password checks at once)
  const login: LoadRequest[] = DEMO_ACCOUNTS.map(({ username }) => ({ path: "adminapi", body: { method: "login", username, password: DEMO_PASSWORD } }));
  for (const concurrency of [1, 4, 16]) {
    recordLoad("login", database, concurrency, await load(server.url, login, concurrency, 40 * concurrency, 15));
  }
  for (const concurrency of [1, 8, 32]) {
    recordLoad("serviceinfo", database, concurrency, await load(server.url, serviceinfo, concurrency, 20000, 10));
  }
  const admin = await call(server.url, "adminapi", { method: "login", username: "sysadmin", password: DEMO_PASSWORD });
  const filteredList: LoadRequest[] = [{ path: "adminapiv2", body: { method: "servicelist", page: 1, limit: 20, title: "Sun" }, token: admin.data?.token }];
  recordLoad("servicelist, 20 rows, title filter (demo data)", database, 32, await load(server.url, filteredList, 32, 20000, 10));
}

/** checkpay budget on PostgreSQL (DESIGN 10) */
const CHECKPAY_BUDGET = { limit: 3000, atMost: false, text: ">= 3000 req/s (PostgreSQL)" };
const OPEN_PAYMENT_DIALOGS = 64;
const CHECKPAY_ORDERS = 200;

/**
 * Many open payment dialogs: the school creates 200 sandbox orders (get_pay), then 64 clients poll checkpay on
 * them; every answer is the FAIL "payment not received yet", which counts as served.
 */
async function measureCheckpay(server: TestServer, database: string, databaseUrl?: string): Promise<void> {
  const login = await call(server.url, "adminapi", { method: "login", username: "school", password: DEMO_PASSWORD });
  const facts = (login.data?.items as LoginFacts | undefined)?.data;
  const token = login.data?.token;
  if (login.return_code !== "SUCCESS" || !token || !facts?.schid) throw new Error(`login as school failed on ${database}: ${login.return_msg}`);
  const meals = await call(server.url, "adminapiv2", { method: "getsetmeal" }, token);
  const mealId = (meals.data?.items as { id: number }[] | undefined)?.[0]?.id;
  if (mealId === undefined) throw new Error(`getsetmeal answered no package on ${database}: ${meals.return_msg}`);
  const checks: LoadRequest[] = [];
  for (let i = 0; i < CHECKPAY_ORDERS; i++) {
    const order = await call(server.url, "adminapiv2", { method: "get_pay", setmeal_id: mealId, sch_id: facts.schid, sysid: facts.sysid }, token);
    const payNo = (order.data?.items as { pay_no?: string } | undefined)?.pay_no;
    if (!payNo) throw new Error(`get_pay failed on ${database}: ${order.return_msg}`);
    checks.push({ path: "adminapiv2", body: { method: "checkpay", pay_no: payNo }, token });
  }
  await load(server.url, checks, 8, 2000, 5, ["FAIL"]);
  const result = await load(server.url, checks, OPEN_PAYMENT_DIALOGS, 200000, 10, ["FAIL"]);
  recordLoad(`checkpay on ${CHECKPAY_ORDERS} unpaid orders`, database, OPEN_PAYMENT_DIALOGS, result);
  record("checkpay polling throughput", database, result.count / result.seconds, "req/s", database === "PostgreSQL" ? CHECKPAY_BUDGET : undefined);
  if (databaseUrl) await measureFloor(server, database, databaseUrl, checks, result);
}

/** the product's polling throughput against the floor's (bench/floor.ts), DESIGN 10's goal */
const FLOOR_RATIO_GOAL = { limit: 0.9, atMost: false, text: ">= 0.9 of the floor" };
const PAYER_POLLS = 20;

/**
 * checkpay and h5checkpay beside the floor, a minimal server of the same shape doing the same two lookups, on the
 * same database in the same run, with the same load: printed as the product's throughput over the floor's.
 */
async function measureFloor(server: TestServer, database: string, databaseUrl: string, checks: LoadRequest[], checkpay: LoadResult): Promise<void> {
  // payers polling their unpaid orders: tickets and orders of Sunrise No.1's open activity
  const code = await payerCode(server);
  const { payers } = await openActivityPayers(server.server.database.db, "Sunrise No.1 Primary School", PAYER_POLLS);
  const polls: LoadRequest[] = [];
  for (const [i, payer] of payers.entries()) {
    const phone = { "x-forwarded-for": `10.70.0.${i + 1}` };
    const found = await call(server.url, "h5api", { method: "h5find", code, name: payer.name, student_no: payer.student_no }, undefined, phone);
    const ticket = (found.data?.items as { ticket?: string } | undefined)?.ticket;
    if (!ticket) throw new Error(`h5find failed on ${database}: ${found.return_msg}`);
    const order = await call(server.url, "h5api", { method: "h5pay", ticket, bill_ids: [payer.billId] }, undefined, phone);
    const payNo = (order.data?.items as { pay_no?: string } | undefined)?.pay_no;
    if (!payNo) throw new Error(`h5pay failed on ${database}: ${order.return_msg}`);
    polls.push({ path: "h5api", body: { method: "h5checkpay", ticket, pay_no: payNo } });
  }
  const h5checkpay = await load(server.url, polls, OPEN_PAYMENT_DIALOGS, 200000, 10);
  recordLoad(`h5checkpay on ${PAYER_POLLS} unpaid orders`, database, OPEN_PAYMENT_DIALOGS, h5checkpay);

  const floor = await startFloorServer(databaseUrl);
  try {
    await load(floor.url, checks, 8, 2000, 5, ["FAIL"]);
    const floorCheckpay = await load(floor.url, checks, OPEN_PAYMENT_DIALOGS, 200000, 10, ["FAIL"]);
    const floorH5 = await load(floor.url, polls, OPEN_PAYMENT_DIALOGS, 200000, 10);
    recordLoad("the floor's checkpay (bench/floor.ts)", database, OPEN_PAYMENT_DIALOGS, floorCheckpay);
    recordLoad("the floor's h5checkpay (bench/floor.ts)", database, OPEN_PAYMENT_DIALOGS, floorH5);
    const rate = (result: LoadResult) => result.count / result.seconds;
    record("checkpay against the floor (throughput ratio)", database, rate(checkpay) / rate(floorCheckpay), "x", FLOOR_RATIO_GOAL);
    record("h5checkpay against the floor (throughput ratio)", database, rate(h5checkpay) / rate(floorH5), "x", FLOOR_RATIO_GOAL);
  } finally {
    await floor.close();
  }
}

/** budget of one 5,000-row student import (the import page kind, server/engine/imports.ts) */
const STUDENT_IMPORT_ROWS = 5000;
const STUDENT_IMPORT_BUDGET = { limit: 10_000, atMost: true, text: "<= 10000 ms" };

/**
 * One studentimport call of a 5,000-row .xlsx (built in memory) into a school of the v2 provider: every row
 * checked, 6 grades and 24 classes created, the students written in one transaction.
 */
async function measureStudentImport(server: TestServer, database: string): Promise<void> {
  const login = await call(server.url, "adminapi", { method: "login", username: "svc", password: DEMO_PASSWORD });
  const token = login.data?.token;
  if (login.return_code !== "SUCCESS" || !token) throw new Error(`login as svc failed on ${database}: ${login.return_msg}`);
  const schools = await call(server.url, "adminapiv2", { method: "schoollist", page: 1, limit: 1 }, token);
  const schId = (schools.data?.items as { id: number }[] | undefined)?.[0]?.id;
  if (schId === undefined) throw new Error(`schoollist answered no school on ${database}: ${schools.return_msg}`);
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet("students");
  sheet.addRow(["name", "student_no", "sex", "grade", "class", "guardian_name", "guardian_phone", "id_card"]);
  const prefix = `B${randomBytes(3).toString("hex")}`;
  for (let i = 0; i < STUDENT_IMPORT_ROWS; i++) {
    sheet.addRow([`学生${i}`, `${prefix}-${String(i).padStart(5, "0")}`, i % 2 ? "男" : "女", `Bench grade ${1 + (i % 6)}`, `Class ${1 + (i % 4)}`, `家长${i}`, `138${String(i).padStart(8, "0")}`, null]);
  }
  const content = Buffer.from(await book.xlsx.writeBuffer()).toString("base64");
  const started = performance.now();
  const res = await call(server.url, "adminapiv2", { method: "studentimport", sch_id: schId, filename: "bench.xlsx", content_base64: content }, token);
  const elapsed = performance.now() - started;
  const imported = (res.data?.items as { imported?: number } | undefined)?.imported;
  if (res.return_code !== "SUCCESS" || imported !== STUDENT_IMPORT_ROWS) throw new Error(`studentimport failed on ${database}: ${res.return_msg}`);
  record(`student import, ${STUDENT_IMPORT_ROWS.toLocaleString("en")} rows (one studentimport call, ${Math.round(content.length / KB)} KB base64)`, database, elapsed, "ms", STUDENT_IMPORT_BUDGET);
}

/** DESIGN 10: a list of 20 rows with a filter over 1,000,000 records, p99 at 32 concurrent clients */
const LIST_BUDGET: Record<string, { limit: number; atMost: boolean; text: string }> = {
  PostgreSQL: { limit: 30, atMost: true, text: "p99 <= 30 ms (PostgreSQL)" },
  PGlite: { limit: 100, atMost: true, text: "p99 <= 100 ms (PGlite)" },
};
/** full load before the student list is measured */
const STUDENT_LIST_WARM_UP_SECONDS = 5;
/** classes the list requests go round (spread over the bench schools) */
const LISTED_CLASSES = 256;

/** BENCH_SCALE: scale units of 10,000 students for the student list (default 100: 1,000,000 students). */
function benchScale(): number {
  const raw = process.env.BENCH_SCALE;
  const scale = raw ? Number(raw) : 100;
  if (!Number.isSafeInteger(scale) || scale < 1) throw new Error(`BENCH_SCALE must be a whole number of at least 1, got "${raw}"`);
  return scale;
}

/**
 * The student list of a class: seeds BENCH_SCALE x 10,000 students into bench schools of Sunrise (as
 * `npm run seed -- --scale N` does), then its provider account svc (servicev2) asks for the first 20 students
 * of a class, a different class each time, with 32 clients.
 */
async function measureStudentList(server: TestServer, database: string): Promise<ReconciliationDay> {
  const seeded = await seedBenchScale(server, database);
  const db = server.server.database.db;
  const [{ n }] = await db.select({ n: count() }).from(students);
  const total = Number(n);

  const schoolClasses = await db
    .select({ id: classes.id, sch_id: classes.sch_id })
    .from(classes)
    .where(inArray(classes.sch_id, seeded.schoolIds))
    .orderBy(classes.id);
  const step = Math.max(1, Math.floor(schoolClasses.length / LISTED_CLASSES));
  const chosen = schoolClasses.filter((_, i) => i % step === 0).slice(0, LISTED_CLASSES);

  // the seed kept the event loop busy: the server may have closed an idle keep-alive connection meanwhile, which
  // the first request can still pick up; that one is tried again
  const login = await call(server.url, "adminapi", { method: "login", username: "svc", password: DEMO_PASSWORD }).catch(() =>
    call(server.url, "adminapi", { method: "login", username: "svc", password: DEMO_PASSWORD }),
  );
  const token = login.data?.token;
  if (login.return_code !== "SUCCESS" || !token) throw new Error(`login as svc failed on ${database}: ${login.return_msg}`);
  const requests: LoadRequest[] = chosen.map((c) => ({ path: "adminapiv2", body: { method: "studentlist", sch_id: c.sch_id, class_id: c.id, page: 1, limit: 20 }, token }));
  const first = await call(server.url, requests[0].path, requests[0].body, token);
  const firstRows = first.data?.items;
  if (first.return_code !== "SUCCESS" || !Array.isArray(firstRows) || firstRows.length !== 20) {
    throw new Error(`studentlist of a class did not answer 20 rows on ${database}: ${first.return_msg}`);
  }
  // warm up to the steady state the budget is about: every pooled connection has planned its statements, the
  // classes' pages are in the buffers and the server's code is compiled for its hot paths (a few seconds of full load)
  await load(server.url, requests, 32, 20000, STUDENT_LIST_WARM_UP_SECONDS);
  const result = await load(server.url, requests, 32, 20000, 10);
  const name = `studentlist, 20 rows filtered by class, ${total.toLocaleString("en")} students`;
  recordLoad(name, database, 32, result);
  record(`${name}: p99 at 32 clients`, database, result.p99, "ms", LIST_BUDGET[database]);
  await measureOrderList(server, database, token, seeded.schoolIds);
  await measureReports(server, database, token, seeded.schoolIds);
  // last: it moves payments to one day, which the figures above do not expect
  return prepareReconciliationDay(server, database);
}

/** Seeds BENCH_SCALE x 10,000 students, each with a paid order, as `npm run seed -- --scale N` does, and times it. */
async function seedBenchScale(server: TestServer, database: string) {
  const scale = benchScale();
  const db = server.server.database.db;
  const started = performance.now();
  const seeded = await seedScale(db, { scale, now: new Date() });
  const seconds = (performance.now() - started) / 1000;
  record(`seed ${seeded.students.toLocaleString("en")} students (npm run seed -- --scale ${scale})`, database, seconds, "s");
  // the seed leaves hundreds of megabytes of written pages that the checkpointer would otherwise write out during
  // the measurement, on the same two cores: write them now, as a server in steady use has long since done
  await db.execute(sql`CHECKPOINT`).catch((err: unknown) => console.warn(`CHECKPOINT after the seed failed (${(err as Error).message}): the measurements share the machine with it`));
  return seeded;
}

/** BENCH_ONLY=reconciliation: the seed and the 100,000-line reconciliation alone, without the lists, reports and export. */
async function seedReconciliationDay(server: TestServer, database: string): Promise<ReconciliationDay> {
  await seedBenchScale(server, database);
  return prepareReconciliationDay(server, database);
}

const RECON_LINES = 100_000;

/**
 * A day of 100,000 payments for the reconciliation's figure: that many of the bench's paid orders are moved to one
 * day (the order, the payment order, the ledger and the sandbox's own record, so that both sides agree). Answers the
 * channel and the day, which the server process of the export then reconciles.
 */
async function prepareReconciliationDay(server: TestServer, database: string): Promise<ReconciliationDay> {
  const db = server.server.database.db;
  const [channel] = await db.select({ id: feeOrders.paychnl_id, n: count() }).from(feeOrders).where(sql`${feeOrders.status} = 'paid' and ${feeOrders.gateway} = 'sandbox'`).groupBy(feeOrders.paychnl_id).orderBy(sql`count(*) desc`).limit(1);
  if (!channel?.id) throw new Error(`no sandbox payments on ${database}`);
  // a smaller BENCH_SCALE reconciles what it has
  const lines = Math.min(RECON_LINES, Number(channel.n));
  const day = new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Shanghai" }).format(new Date(Date.now() - 2 * 86_400_000));
  const start = `${day}T00:00:00+08:00`;
  await db.transaction(async (tx) => {
    await tx.execute(sql`
      CREATE TEMP TABLE bench_recon ON COMMIT DROP AS
      SELECT pay_no, ${start}::timestamptz + (row_number() OVER (ORDER BY id)) * interval '860 milliseconds' AS paid_at
      FROM fee_orders WHERE status = 'paid' AND gateway = 'sandbox' AND paychnl_id = ${channel.id} ORDER BY id LIMIT ${lines}`);
    await tx.execute(sql`UPDATE fee_orders o SET paid_at = b.paid_at FROM bench_recon b WHERE o.pay_no = b.pay_no`);
    await tx.execute(sql`UPDATE fee_payments p SET paid_at = b.paid_at FROM bench_recon b WHERE p.pay_no = b.pay_no`);
    await tx.execute(sql`UPDATE payment_orders p SET paid_at = b.paid_at FROM bench_recon b WHERE p.pay_no = b.pay_no`);
    await tx.execute(sql`UPDATE sandbox_payments p SET paid_at = b.paid_at FROM bench_recon b WHERE p.pay_no = b.pay_no`);
  });
  return { paychnlId: channel.id, day, lines };
}

const REPORT_BUDGET: Record<string, { limit: number; atMost: boolean; text: string } | undefined> = {
  PostgreSQL: { limit: 500, atMost: true, text: "<= 500 ms" },
  PGlite: undefined,
};

/**
 * Each statistics page's figures as the provider reads them at a million orders: the median of five calls of each
 * report and dimension, over every order (no period), and a school's grades, classes and students.
 */
async function measureReports(server: TestServer, database: string, token: string, schoolIds: readonly number[]): Promise<void> {
  const schId = schoolIds[0];
  const cases: [string, Record<string, unknown>][] = [
    ["payservicestatis", { dimension: "day", page: 1, limit: 31 }],
    ["payservicestatis", { dimension: "month", page: 1, limit: 31 }],
    ["paystatis", { dimension: "sch_id", page: 1, limit: 31 }],
    ["schoolstatis", { dimension: "sch_id", page: 1, limit: 50 }],
    ["schoolstatis", { dimension: "grade_id", sch_id: schId, page: 1, limit: 50 }],
    ["schoolstatis", { dimension: "class_id", sch_id: schId, page: 1, limit: 50 }],
    ["schoolstatis", { dimension: "student_id", sch_id: schId, page: 1, limit: 50 }],
  ];
  for (const [method, payload] of cases) {
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      const res = await call(server.url, "adminapiv2", { method, ...payload }, token);
      times.push(performance.now() - started);
      if (res.return_code !== "SUCCESS") throw new Error(`${method} failed on ${database}: ${res.return_msg}`);
    }
    times.sort((a, b) => a - b);
    const by = `${String(payload.dimension)}${payload.sch_id ? " of a school" : ""}`;
    record(`${method} by ${by}, every order: median of 5 calls`, database, times[2], "ms", REPORT_BUDGET[database]);
  }
}

/**
 * The fee order list as a provider reads it at a million orders: the first 20 paid orders of one school (a
 * different bench school each time), with the state tabs' counts and the amount summed over the filter.
 */
async function measureOrderList(server: TestServer, database: string, token: string, schoolIds: readonly number[]): Promise<void> {
  const db = server.server.database.db;
  const [{ n }] = await db.select({ n: count() }).from(feeOrders);
  const requests: LoadRequest[] = schoolIds.map((schId) => ({ path: "adminapiv2", body: { method: "orderlist", sch_id: schId, status: "paid", page: 1, limit: 20 }, token }));
  const first = await call(server.url, requests[0].path, requests[0].body, token);
  const data = first.data as { items?: unknown[]; summary?: { count?: number } } | undefined;
  if (first.return_code !== "SUCCESS" || data?.items?.length !== 20 || !data.summary?.count) {
    throw new Error(`orderlist of a school's paid orders did not answer 20 rows and a summary on ${database}: ${first.return_msg}`);
  }
  await load(server.url, requests, 32, 20000, STUDENT_LIST_WARM_UP_SECONDS);
  const result = await load(server.url, requests, 32, 20000, 10);
  const name = `orderlist, 20 rows filtered by school and status, tabs and summary, ${Number(n).toLocaleString("en")} orders`;
  recordLoad(name, database, 32, result);
  record(`${name}: p99 at 32 clients`, database, result.p99, "ms", LIST_BUDGET[database]);
}

const PAYERS = 50;

/**
 * A class of 50 payers at once on the payer page: svc adds a class of 50 pupils to a demo school, an activity
 * billing it and its QR code; then every payer finds the pupil, makes an order, pays it in the sandbox and checks
 * it, all at once. Every bill must end paid by exactly one order, and no call may fail.
 */
async function measurePayers(server: TestServer, database: string): Promise<void> {
  const login = await call(server.url, "adminapi", { method: "login", username: "svc", password: DEMO_PASSWORD });
  const token = login.data?.token;
  if (login.return_code !== "SUCCESS" || !token) throw new Error(`login as svc failed on ${database}: ${login.return_msg}`);
  const step = async (method: string, payload: Record<string, unknown>): Promise<Record<string, unknown>> => {
    const res = await call(server.url, "adminapiv2", { method, ...payload }, token);
    if (res.return_code !== "SUCCESS") throw new Error(`${method} failed on ${database}: ${res.return_msg}`);
    return res.data?.items as Record<string, unknown>;
  };
  const [school] = (await call(server.url, "adminapiv2", { method: "schoollist", page: 1, limit: 1, title: "No.1" }, token)).data?.items as { id: number }[];
  const [grade] = (await call(server.url, "adminapiv2", { method: "gradelist", page: 1, limit: 1, sch_id: school.id }, token)).data?.items as { id: number }[];
  const tag = randomBytes(3).toString("hex");
  const klass = await step("classesadd", { sch_id: school.id, grade_id: grade.id, title: `Bench ${tag}` });
  const pupils = Array.from({ length: PAYERS }, (_, i) => ({ name: `付款${i}`, student_no: `PAY-${tag}-${i}` }));
  for (const pupil of pupils) await step("studentadd", { sch_id: school.id, grade_id: grade.id, class_id: klass.id, sex: "1", ...pupil });
  const activity = await billClass(step, school.id, Number(klass.id), `Bench payers ${tag}`, "120.00");

  const latencies: number[] = [];
  const failures: string[] = [];
  const started = performance.now();
  await Promise.all(
    pupils.map(async (pupil, i) => {
      // each parent's phone has an address of its own (the server is told it by its proxy)
      const phone = { "x-forwarded-for": `10.50.${Math.floor(i / 250)}.${(i % 250) + 1}` };
      const h5 = (method: string, payload: Record<string, unknown>) => call(server.url, "h5api", { method, ...payload }, undefined, phone);
      const begun = performance.now();
      const found = await h5("h5find", { code: activity.code, ...pupil });
      const { ticket, bills: owed } = (found.data?.items ?? {}) as { ticket?: string; bills?: { id: number }[] };
      if (found.return_code !== "SUCCESS" || !ticket || !owed?.length) return void failures.push(`find: ${found.return_msg}`);
      const paid = await h5("h5pay", { ticket, bill_ids: owed.map((b) => b.id) });
      const order = paid.data?.items as { pay_no: string; payparam: { code_url: string } } | undefined;
      if (paid.return_code !== "SUCCESS" || !order) return void failures.push(`pay: ${paid.return_msg}`);
      const confirm = await fetch(`${order.payparam.code_url}/confirm`, { method: "POST", headers: { "content-type": "application/json", ...phone }, body: "{}" });
      const confirmed = (await confirm.json()) as Envelope;
      if (confirmed.return_code !== "SUCCESS") return void failures.push(`confirm: ${confirmed.return_msg}`);
      const checked = await h5("h5checkpay", { ticket, pay_no: order.pay_no });
      if ((checked.data?.items as { status?: string } | undefined)?.status !== "paid") return void failures.push(`check: ${checked.return_msg}`);
      latencies.push(performance.now() - begun);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const db = server.server.database.db;
  const [billed] = await db
    .select({ bills: count(), paid: sql<number>`count(*) filter (where ${bills.status} = 'paid')::int` })
    .from(bills)
    .where(sql`${bills.activity_id} = ${activity.activityId}`);
  const [ordered] = await db
    .select({ paid: sql<number>`count(*) filter (where ${feeOrders.status} = 'paid')::int`, duplicates: sql<number>`count(*) filter (where ${feeOrders.duplicate} = 'Y')::int` })
    .from(feeOrders)
    .where(sql`${feeOrders.activity_id} = ${activity.activityId}`);
  latencies.sort((a, b) => a - b);
  const allPaidOnce = failures.length === 0 && Number(billed.bills) === PAYERS && billed.paid === PAYERS && ordered.paid === PAYERS && ordered.duplicates === 0;
  rows.push({
    measure: `${PAYERS} payers of one class find, pay in the sandbox and check at once (h5find, h5pay, confirm, h5checkpay)`,
    database,
    figure: `${seconds.toFixed(1)} s in all, per payer p50 ${percentile(latencies, 50).toFixed(0)} / p99 ${percentile(latencies, 99).toFixed(0)} ms; ${billed.paid} of ${billed.bills} bills paid by ${ordered.paid} orders, ${failures.length} failures`,
    budget: "no failure, every bill paid once",
    verdict: allPaidOnce ? "ok" : "FAILED",
  });
  if (failures.length) console.warn(`payers on ${database}: ${failures.slice(0, 5).join("; ")}`);
}

/**
 * BENCH_ONLY=spa,h5,api,checkpay,import,payers,memory,students,reconciliation,retail,peak runs only those parts
 * (default all; students includes the order list, the reports, the export and the reconciliation; reconciliation is
 * the seed and the reconciliation alone; retail is the school shop's: pickup verification, the last items of a size
 * and the shop order list at BENCH_SCALE x 10,000 shop orders, bench/retail.ts; peak is a school's collection peak
 * on PostgreSQL with one and three server processes, bench/peak.ts).
 */
function wanted(part: "spa" | "h5" | "api" | "checkpay" | "import" | "payers" | "memory" | "students" | "reconciliation" | "retail" | "peak"): boolean {
  const only = process.env.BENCH_ONLY;
  return !only || only.split(",").map((p) => p.trim()).includes(part);
}

/** BENCH_DATABASES=postgres or pglite measures on that database only (default both). */
function wantedDatabase(database: "postgres" | "pglite"): boolean {
  const only = process.env.BENCH_DATABASES?.split(",").map((d) => d.trim());
  if (only?.some((d) => d !== "postgres" && d !== "pglite")) throw new Error(`BENCH_DATABASES names postgres and pglite, got "${process.env.BENCH_DATABASES}"`);
  return !only || only.includes(database);
}

async function measureServer(server: TestServer, database: string, databaseUrl?: string): Promise<void> {
  if (wanted("api")) await measureApi(server, database);
  if (wanted("checkpay")) await measureCheckpay(server, database, databaseUrl);
  if (wanted("import")) await measureStudentImport(server, database);
  if (wanted("payers")) await measurePayers(server, database);
}

/** The school shop's figures (bench/retail.ts), on a server of their own: its seed at scale is theirs alone. */
async function measureShop(server: TestServer, database: string): Promise<void> {
  const bench: RetailBench = {
    record,
    row: (row) => rows.push(row),
    call,
    load,
    recordLoad,
    percentile,
    orders: benchScale() * 10_000,
    listBudget: LIST_BUDGET[database],
  };
  await measureRetail(bench, server, database);
}

// ---------------------------------------------------------------------------------------------------------
// PostgreSQL: a fresh database for the run

async function postgresAdminUrl(): Promise<string | undefined> {
  const configured = process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL;
  const candidate = configured || "postgres://postgres@127.0.0.1:5432/postgres";
  const client = new pg.Client({ connectionString: candidate, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return candidate;
  } catch (err) {
    if (configured) throw new Error(`cannot reach the PostgreSQL of BENCH_DATABASE_URL/DATABASE_URL: ${(err as Error).message}`);
    return undefined;
  }
}

async function withPostgresDatabase<T>(adminUrl: string, body: (url: string) => Promise<T>): Promise<T> {
  const name = `cpc_bench_${randomBytes(5).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  try {
    return await body(url.toString());
  } finally {
    const dropper = new pg.Client({ connectionString: adminUrl });
    await dropper.connect();
    await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await dropper.end();
  }
}

// ---------------------------------------------------------------------------------------------------------

function printTable(): void {
  const headers: Row = { measure: "measure", database: "database", figure: "figure", budget: "budget (DESIGN 10)", verdict: "ok" };
  const keys = ["measure", "database", "figure", "budget", "verdict"] as const;
  const widths = keys.map((k) => Math.max(k === "verdict" ? 7 : headers[k].length, ...rows.map((r) => r[k].length)));
  const line = (r: Row | Record<(typeof keys)[number], string>) => keys.map((k, i) => r[k].padEnd(widths[i])).join(" | ");
  console.log(`\n${line({ ...headers, verdict: "verdict" })}`);
  console.log(widths.map((w) => "-".repeat(w)).join("-|-"));
  for (const r of rows) console.log(line(r));
  console.log("The load generator runs in a worker thread of the bench process: it shares the machine's cores with the server and the database.");
}

async function main(): Promise<void> {
  // the SPA's figures need it built; the server's alone do not
  if (wanted("spa") || wanted("h5")) ensureBuilt();
  const serverOptions = { seedDemo: true, rateLimit: false as const, trustProxy: true };

  if (wantedDatabase("pglite")) {
    const embedded = await startTestServer(serverOptions);
    try {
      if (wanted("spa")) await measureSpa(embedded);
      if (wanted("h5")) await measurePayerPage(embedded);
      await measureServer(embedded, "PGlite");
    } finally {
      await embedded.close();
    }
    if (wanted("memory")) await measureServerMemory(record);
  }

  const adminUrl = wantedDatabase("postgres") ? await postgresAdminUrl() : undefined;
  if (adminUrl) {
    await withPostgresDatabase(adminUrl, async (url) => {
      const server = await startTestServer({ ...serverOptions, databaseUrl: url });
      let reconciliation: ReconciliationDay | undefined;
      try {
        await measureServer(server, "PostgreSQL", url);
        if (wanted("students")) reconciliation = await measureStudentList(server, "PostgreSQL");
        else if (wanted("reconciliation")) reconciliation = await seedReconciliationDay(server, "PostgreSQL");
      } finally {
        await server.close();
      }
      if (reconciliation) await measureLargeJobs(record, "PostgreSQL", { databaseUrl: url }, reconciliation, wanted("students"));
    });
    if (wanted("peak")) rows.push(...(await measurePeak((body) => withPostgresDatabase(adminUrl, body))));
    if (wanted("retail")) {
      await withPostgresDatabase(adminUrl, async (url) => {
        const server = await startTestServer({ ...serverOptions, databaseUrl: url });
        try {
          await measureShop(server, "PostgreSQL");
        } finally {
          await server.close();
        }
      });
    }
  } else if (wantedDatabase("postgres")) {
    console.warn("No PostgreSQL (set BENCH_DATABASE_URL or run one on 127.0.0.1:5432): PostgreSQL figures skipped.");
  }

  // last, on an embedded database of its own: the million students live in this process's memory, and no
  // figure measured after them would be the figure of a server that never held them
  if ((wanted("students") || wanted("reconciliation")) && wantedDatabase("pglite")) {
    // a directory the bench keeps past the server's close: the export runs in a server process of its own on it
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cpc-bench-students-"));
    try {
      const students = await startTestServer({ ...serverOptions, dataDir });
      let reconciliation: ReconciliationDay;
      try {
        reconciliation = wanted("students") ? await measureStudentList(students, "PGlite") : await seedReconciliationDay(students, "PGlite");
      } finally {
        await students.close();
      }
      await measureLargeJobs(record, "PGlite", { dataDir }, reconciliation, wanted("students"));
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
  // the shop's million orders on an embedded database of their own, last for the same reason
  if (wanted("retail") && wantedDatabase("pglite")) {
    const shop = await startTestServer(serverOptions);
    try {
      await measureShop(shop, "PGlite");
    } finally {
      await shop.close();
    }
  }
  printTable();
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
