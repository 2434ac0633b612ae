import { chromium } from "playwright-core";
import { startTestServer } from "./tests/helpers/server";
const server = await startTestServer({ rateLimit: false });
const shots: { user: string; path: string; name: string; click?: string }[] = JSON.parse(process.env.SHOTS!);
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
for (const lang of (process.env.LANGS ?? "en").split(",")) {
  for (const [w, h] of [[1440, 900], [390, 844]]) {
    for (const shot of shots) {
      const ctx = await browser.newContext({ viewport: { width: w, height: h }, locale: lang === "zh" ? "zh-CN" : "en-US" });
      const page = await ctx.newPage();
      await page.goto(server.url + "/login");
      await page.locator("#username").fill(shot.user);
      await page.locator("#password").fill("demo1234");
      await page.locator("button[type=submit]").click();
      await page.waitForURL(/Dashboard/);
      const ok = page.getByTestId("expiry-reminder-ok");
      await ok.click({ timeout: 3000 }).catch(() => undefined);
      await page.goto(server.url + shot.path);
      await page.getByTestId("report-table").waitFor();
      await page.waitForTimeout(2000);
      await ok.click({ timeout: 1000 }).catch(() => undefined);
      if (shot.click) { await page.getByTestId(shot.click).first().click(); await page.waitForTimeout(1500); }
      await page.screenshot({ path: `/tmp/ol/${shot.name}-${lang}-${w}.png`, fullPage: true });
      await ctx.close();
    }
  }
}
await browser.close();
await server.close();
