/**
 * Report pages and the dashboard in the browser: the school opens students by class (/datacount/class_statisv2),
 * sees the chart drawn on a canvas and the table of its classes with a total, narrows it by grade and exports
 * it to .xlsx; the chart's library is loaded by report pages only, never on the login page or the dashboard, a
 * placeholder of the chart's size standing in while it loads. The page fits a phone (390 px, its filters folded
 * behind a button) and a wide screen (1440 px) and speaks Chinese. The dashboard shows each role's figures, and
 * a figure opens the list it counts.
 */
import ExcelJS from "exceljs";
import { randomBytes } from "node:crypto";
import type { Locator, Page } from "playwright-core";
import { expect, test } from "vitest";
import { formatNumber, formatYuan } from "../../common/money";
import { translator } from "../../server/lib/i18n";
import { animationsSettled, describeInBrowser, dismissExpiryReminder, expectPath, exportThroughDownloadCentre, HOME_PATH, login } from "../helpers/browser";

const en = translator("en");
const zh = translator("zh");
const REPORT_PATH = "/datacount/class_statisv2";
const NO1 = "Sunrise No.1 Primary School";

type Row = Record<string, unknown>;

function tableRows(page: Page) {
  return page.getByTestId("report-table").locator(".ant-table-tbody tr.ant-table-row").filter({ visible: true });
}

/** Chooses an option of a searchable select, typing part of its label first. */
async function choose(page: Page, select: Locator, text: string): Promise<void> {
  await select.click();
  await select.locator("input").fill(text);
  await page.locator(".ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option").filter({ hasText: text }).first().click();
  await animationsSettled(page);
}

/** JavaScript files the page has loaded so far. */
function scriptsLoaded(page: Page): string[] {
  const urls: string[] = [];
  page.on("response", (response) => {
    if (response.url().endsWith(".js")) urls.push(new URL(response.url()).pathname);
  });
  return urls;
}

describeInBrowser("report pages and the dashboard", (suite) => {
  /** A /weapi/ call as a demo account (the test's own data goes in through the API). */
  const tokens: Record<string, string> = {};
  async function api(user: string, method: string, payload: Row = {}): Promise<Row> {
    if (!tokens[user]) {
      const res = (await (await fetch(`${suite.url}/weapi/adminapi`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ method: "login", username: user, password: "demo1234" }) })).json()) as { data?: { token?: string } };
      tokens[user] = String(res.data?.token);
    }
    const res = (await (await fetch(`${suite.url}/weapi/adminapiv2`, { method: "POST", headers: { "content-type": "application/json", "x-token": tokens[user]! }, body: JSON.stringify({ method, ...payload }) })).json()) as { return_code: string; return_msg: string; data?: Row };
    expect(res.return_code, `${method}: ${res.return_msg}`).toBe("SUCCESS");
    return res.data ?? {};
  }

  /** A grade of the school with two classes: A with two boys and a girl, B empty. */
  async function gradeWithStudents(): Promise<{ grade: string }> {
    const tag = randomBytes(3).toString("hex");
    const grade = `Report ${tag}`;
    const schools = (await api("svc", "schoollist", { title: "No.1" })).items as Row[];
    const schId = Number(schools.find((s) => s.title === NO1)!.id);
    const gradeId = Number(((await api("school", "gradeadd", { sch_id: schId, title: grade, sort: 0 })).items as Row).id);
    const classA = Number(((await api("school", "classesadd", { sch_id: schId, grade_id: gradeId, title: "Class A" })).items as Row).id);
    await api("school", "classesadd", { sch_id: schId, grade_id: gradeId, title: "Class B" });
    for (const [i, sex] of ["1", "1", "2"].entries()) {
      await api("svc", "studentadd", { sch_id: schId, name: `Pupil ${i}`, student_no: `R${tag}${i}`, sex, grade_id: gradeId, class_id: classA });
    }
    return { grade };
  }

  test("the school opens students by class: chart, its classes with a total, filtered by grade, exported; echarts only here", async () => {
    const { page } = suite;
    const { grade } = await gradeWithStudents();
    const scripts = scriptsLoaded(page);
    await page.setViewportSize({ width: 1440, height: 900 });
    await login(page, suite.url, "school");
    await dismissExpiryReminder(page);
    await page.getByTestId("dashboard-figures").waitFor();
    // the login page and the dashboard never load the chart library
    expect(scripts.filter((url) => url.includes("/echarts-"))).toEqual([]);

    // the expiry reminder shows once per browser session: not again after this load
    await page.goto(`${suite.url}${REPORT_PATH}`);
    const report = page.getByTestId("report-page");
    await report.waitFor();
    const canvas = page.getByTestId("report-chart").locator("canvas");
    await canvas.waitFor();
    expect(scripts.filter((url) => url.includes("/echarts-"))).toHaveLength(1);
    const box = (await canvas.boundingBox())!;
    expect(box.width).toBeGreaterThan(600);
    expect(box.height).toBeGreaterThan(200);
    const headers = await page.getByTestId("report-table").locator(".ant-table-thead th").allInnerTexts();
    expect(headers.map((h) => h.trim())).toEqual([en("reports.dimension.class"), en("reports.measure.students"), en("reports.measure.boys"), en("reports.measure.girls")]);
    await expect.poll(() => tableRows(page).filter({ hasText: `${grade} Class A` }).count()).toBe(1);
    expect((await tableRows(page).filter({ hasText: `${grade} Class A` }).locator("td").allInnerTexts()).map((c) => c.trim())).toEqual([`${grade} Class A`, "3", "2", "1"]);

    // narrowed to the grade: its two classes (the empty one with zeros) and their total
    await choose(page, page.getByTestId("report-filters").locator(".ant-select").first(), grade);
    await page.getByTestId("report-search").click();
    await expect.poll(() => tableRows(page).count()).toBe(2);
    expect((await tableRows(page).nth(1).locator("td").allInnerTexts()).map((c) => c.trim())).toEqual([`${grade} Class B`, "0", "0", "0"]);
    expect((await page.getByTestId("report-total").locator("td").allInnerTexts()).map((c) => c.trim())).toEqual([en("reports.total"), "3", "2", "1"]);

    // the export holds the same figures, headed in the page's language
    const file = await exportThroughDownloadCentre(page, page.getByTestId("report-export"));
    // named by the report and the grade it was narrowed to
    expect(file.suggestedFilename()).toBe(`${en("reports.title.classstatis")}_${grade}.xlsx`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile((await file.path())!);
    const rows: unknown[][] = [];
    workbook.worksheets[0]!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    expect(rows).toEqual([
      [en("reports.dimension.class"), en("reports.measure.students"), en("reports.measure.boys"), en("reports.measure.girls")],
      [`${grade} Class A`, 3, 2, 1],
      [`${grade} Class B`, 0, 0, 0],
      [en("reports.total"), 3, 2, 1],
    ]);

    // on a phone: the chart fits the width, the bars lie on their side, nothing overflows the page
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(async () => (await canvas.boundingBox())!.width).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.getByTestId("report-export").waitFor();
    expect(await tableRows(page).count()).toBe(2);
  });

  test("390 px: the filters fold behind a button counting those set; while the chart's code loads, a placeholder of the chart's size stands in", async () => {
    const { page } = suite;
    await page.setViewportSize({ width: 390, height: 844 });
    await login(page, suite.url, "school");
    await dismissExpiryReminder(page);
    for (const width of [390, 1440]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      // the chart's code held back
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route(/\/assets\/(echarts|ReportChart)-[^/]*\.js$/, async (route) => {
        await held;
        await route.continue();
      });
      await page.goto(`${suite.url}${REPORT_PATH}`);
      await tableRows(page).first().waitFor();
      const area = (await page.getByTestId("report-chart-area").boundingBox())!;
      const placeholder = page.getByTestId("report-chart-loading").locator(".ant-skeleton");
      await placeholder.waitFor();
      const shown = (await placeholder.boundingBox())!;
      expect(Math.abs(shown.width - area.width), `${width} px`).toBeLessThan(2);
      release();
      const chart = page.getByTestId("report-chart");
      await chart.locator("canvas").waitFor();
      // the chart takes the placeholder's place without moving what follows
      expect(Math.abs((await chart.boundingBox())!.height - shown.height), `${width} px`).toBeLessThan(2);
      await page.unrouteAll();
    }

    await page.setViewportSize({ width: 390, height: 844 });
    const toggle = page.getByTestId("report-filters-toggle");
    await toggle.waitFor();
    // folded: the chart starts in the top half of the screen
    await expect.poll(() => page.getByTestId("report-filters").count()).toBe(0);
    expect((await page.getByTestId("report-chart-area").boundingBox())!.y).toBeLessThan(844 / 2);
    const badge = page.locator(".ant-badge").filter({ has: toggle }).locator(".ant-badge-count");
    expect(await badge.count()).toBe(0);
    await toggle.click();
    await choose(page, page.getByTestId("report-filters").locator(".ant-select").first(), "一年级");
    await page.getByTestId("report-search").click();
    // searching folds them away again, the button counting the one set
    await expect.poll(() => page.getByTestId("report-filters").count()).toBe(0);
    await expect.poll(() => badge.innerText()).toBe("1");
    await expect.poll(() => tableRows(page).count()).toBeLessThan(6);
    expect(await page.getByTestId("report-export").isVisible()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });

  test("the provider drills its schools down to a class's students owing, each level adding up to the row it opened; a school's class opens its own page", async () => {
    const { page } = suite;
    await page.setViewportSize({ width: 1440, height: 900 });
    await login(page, suite.url, "svc", { to: "/datacount/schoolcountv2" });
    await dismissExpiryReminder(page);
    const table = page.getByTestId("report-table");
    const header = async () => (await table.locator(".ant-table-thead th").allInnerTexts()).map((h) => h.trim());
    await expect.poll(header).toEqual([
      en("reports.dimension.school"),
      ...["orders", "paid_amount", "refund_amount", "net_amount", "bills", "paid_bills", "collection_rate", "unpaid_amount"].map((m) => en(`reports.measure.${m}`)),
    ]);
    await tableRows(page).first().waitFor();
    const cells = async (row: Locator) => (await row.locator("td").allInnerTexts()).map((c) => c.trim());
    const total = () => cells(page.getByTestId("report-total"));

    // a level down at a time: its rows add up to the row opened
    for (const level of ["grade", "class", "student"]) {
      const opened = tableRows(page).filter({ has: page.getByTestId("report-drill") }).first();
      const [title, ...figures] = await cells(opened);
      await opened.getByTestId("report-drill").click();
      await expect.poll(async () => (await header())[0]).toBe(en(`reports.dimension.${level}`));
      await expect.poll(async () => (await total()).slice(1)).toEqual(figures);
      expect(await page.getByTestId("report-drill-path").innerText()).toContain(title!);
    }
    // the students owing: every one owes
    await page.getByTestId("report-filters").getByLabel(en("reports.filter.owing")).click();
    await page.locator(".ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option").filter({ hasText: en("common.yes") }).first().click();
    await page.getByTestId("report-search").click();
    await expect.poll(async () => (await Promise.all((await tableRows(page).all()).map(cells))).every((row) => row.at(-1) !== "¥0.00")).toBe(true);
    // back to every school
    await page.getByTestId("report-drill-path").getByText(en("reports.drill_all")).click();
    await expect.poll(async () => (await header())[0]).toBe(en("reports.dimension.school"));

    // the school's classes: a class opens the page of its students, which adds up to it
    const schoolPage = await (await suite.newContext("en-US")).newPage();
    await login(schoolPage, suite.url, "school", { to: "/datacount/classescountv2" });
    await dismissExpiryReminder(schoolPage);
    await tableRows(schoolPage).first().waitFor();
    const klass = tableRows(schoolPage).first();
    const [, ...classFigures] = await cells(klass);
    await klass.getByTestId("report-drill").click();
    await expect.poll(() => new URL(schoolPage.url()).pathname).toMatch(/^\/datacount\/classescount_infov2\/\d+$/);
    const studentsTable = schoolPage.getByTestId("report-table").filter({ visible: true });
    await expect.poll(async () => (await studentsTable.locator(".ant-table-thead th").allInnerTexts())[0]?.trim()).toBe(en("reports.dimension.student"));
    await expect.poll(async () => (await cells(schoolPage.getByTestId("report-total").filter({ visible: true }))).slice(1)).toEqual(classFigures);
  });

  test("the provider's goods statistics: its schools' shop sales, a school opening its goods and a goods item its SKUs, each level adding up to the row it opened", async () => {
    const { page } = suite;
    await page.setViewportSize({ width: 1440, height: 900 });
    await login(page, suite.url, "svc", { to: "/datacount/goods_statisv2" });
    await dismissExpiryReminder(page);
    const header = async () => (await page.getByTestId("report-table").locator(".ant-table-thead th").allInnerTexts()).map((h) => h.trim());
    const measures = ["shop_orders", "qty", "sales_amount", "refund_amount", "net_amount"].map((m) => en(`reports.measure.${m}`));
    await expect.poll(header).toEqual([en("reports.dimension.school"), ...measures]);
    await page.getByTestId("report-chart").locator("canvas").waitFor();
    const cells = async (row: Locator) => (await row.locator("td").allInnerTexts()).map((c) => c.trim());
    // the totals the server answers, as the page writes them
    const sums = (await api("svc", "goodsstatis")).sums as Row;
    const written = [formatNumber(Number(sums.orders), "en"), formatNumber(Number(sums.qty), "en"), ...["amount", "refund_amount", "net_amount"].map((m) => formatYuan(String(sums[m]), "en"))];
    expect(Number(sums.orders)).toBeGreaterThan(0);
    await expect.poll(async () => (await cells(page.getByTestId("report-total"))).slice(1)).toEqual(written);
    for (const level of ["goods", "sku"]) {
      const opened = tableRows(page).filter({ has: page.getByTestId("report-drill") }).first();
      const [, ...figures] = await cells(opened);
      await opened.getByTestId("report-drill").click();
      await expect.poll(async () => (await header())[0]).toBe(en(`reports.dimension.${level}`));
      // an order of several goods counts once in the goods' total too
      await expect.poll(async () => (await cells(page.getByTestId("report-total"))).slice(1)).toEqual(figures);
    }
    await expect.poll(() => tableRows(page).first().innerText()).toMatch(/\(.+ · .+\)|\(\S+ \S+\)/);
  });

  test("in Chinese, the report speaks Chinese", async () => {
    const context = await suite.newContext("zh-CN");
    const page = await context.newPage();
    await login(page, suite.url, "school", { to: REPORT_PATH });
    await dismissExpiryReminder(page);
    await page.getByTestId("report-chart").locator("canvas").waitFor();
    await expect.poll(async () => (await page.getByTestId("report-table").locator(".ant-table-thead th").allInnerTexts()).map((h) => h.trim())).toEqual([
      zh("reports.dimension.class"),
      zh("reports.measure.students"),
      zh("reports.measure.boys"),
      zh("reports.measure.girls"),
    ]);
    expect(await page.getByTestId("report-export").innerText()).toContain(zh("crud.export"));
  });

  test("the dashboard shows each role's figures, and a figure opens the list it counts", async () => {
    const { page } = suite;
    await login(page, suite.url, "school");
    await dismissExpiryReminder(page);
    await expectPath(page, HOME_PATH);
    const figures = page.getByTestId("dashboard-figures");
    await figures.waitFor();
    expect(await figures.getAttribute("data-audience")).toBe("school");
    const grades = Number(((await api("school", "gradelist", { limit: 1 })) as Row).total);
    expect(await page.getByTestId("dashboard-figure-grades-value").innerText()).toBe(String(grades));
    // the school's term ends in 12 days
    expect(await page.getByTestId("dashboard-figure-term_days_left-value").innerText()).toBe("13");
    // fee collection: amounts in yuan, the rate in percent
    expect(await page.getByTestId("dashboard-figure-collected_month-value").innerText()).toMatch(/^¥[\d,]+\.\d\d$/);
    expect(await page.getByTestId("dashboard-figure-collection_rate-value").innerText()).toMatch(/^[\d.]+%$/);
    expect(await page.getByTestId("dashboard-figure-net_month-value").innerText()).toMatch(/^¥[\d,]+\.\d\d$/);
    // the last 30 days as bars, and the open activities most owed (the v2 school has no activity page to open)
    expect(await page.getByTestId("collection-bars").locator("g[data-testid^='collection-day-']").count()).toBe(30);
    expect(await page.getByTestId("dashboard-unpaid").locator("[data-testid^='dashboard-unpaid-']").count()).toBeGreaterThan(0);
    expect(await page.getByTestId("dashboard-unpaid").locator("a").count()).toBe(0);

    await page.getByTestId("dashboard-link-classes").click();
    await expectPath(page, "/schoolv2/classeslist");
    await page.goto(`${suite.url}${HOME_PATH}`);
    // v2 gives the school no gender report: boys and girls open students by class
    await page.getByTestId("dashboard-link-boys").click();
    await expectPath(page, REPORT_PATH);
    await page.getByTestId("report-chart").locator("canvas").waitFor();

    // the platform's operator: providers open the provider list; a figure without a list in its menu is no link
    const operator = await (await suite.newContext()).newPage();
    await login(operator, suite.url, "sysadmin");
    await operator.getByTestId("dashboard-figures").waitFor();
    expect(await operator.getByTestId("dashboard-figures").getAttribute("data-audience")).toBe("platform");
    expect(await operator.getByTestId("dashboard-link-school_renewals_month").count()).toBe(0);
    await operator.getByTestId("dashboard-figure-school_renewals_month").waitFor();
    // providers whose term ends within 30 days: the provider list, filtered to them (Sunrise ends in 10 days)
    const ending = Number(await operator.getByTestId("dashboard-figure-providers_ending-value").innerText());
    const providers = Number(await operator.getByTestId("dashboard-figure-providers-value").innerText());
    expect(ending).toBeGreaterThanOrEqual(1);
    expect(providers).toBeGreaterThan(ending);
    await operator.getByTestId("dashboard-link-providers_ending").click();
    await expectPath(operator, "/servicev2/servicelist");
    const providerRows = operator.locator(".ant-table-tbody tr.ant-table-row").filter({ visible: true });
    await expect.poll(() => providerRows.count()).toBe(ending);
    expect(await providerRows.allInnerTexts()).toContainEqual(expect.stringContaining("Sunrise Campus Services"));
    await operator.goto(`${suite.url}${HOME_PATH}`);
    await operator.getByTestId("dashboard-link-providers").click();
    await expectPath(operator, "/servicev2/servicelist");
    await expect.poll(() => providerRows.count()).toBe(Math.min(providers, 20));

    // the provider: an activity most owed opens the activity's board, where its bills are
    const provider = await (await suite.newContext()).newPage();
    await login(provider, suite.url, "svc");
    await dismissExpiryReminder(provider);
    const mostOwed = provider.getByTestId("dashboard-unpaid").locator("a[data-testid^='dashboard-unpaid-link-']").first();
    const activityTitle = await mostOwed.innerText();
    await mostOwed.click();
    await provider.waitForURL((url) => url.pathname.startsWith("/activity/activityact/"));
    await provider.getByTestId("page-active").getByText(activityTitle).first().waitFor();

    // the pickup clerk: its pickup points, and a friendly word while there is nothing to verify
    const clerk = await (await suite.newContext()).newPage();
    await login(clerk, suite.url, "pickup");
    await clerk.getByTestId("dashboard-pickup-empty").waitFor();
    expect(await clerk.getByTestId("dashboard-figure-pickup_points-value").innerText()).toBe("1");
  });
});
