/**
 * The school shop on the payer's phone page, in Chromium at 390 px and in Chinese, against the real server: a parent
 * opens the shop from the school's QR code address, picks the summer uniform in a size (a sold-out size disabled),
 * adds it to the cart, checks out for the student found with pickup at the school's pickup point, pays in the
 * sandbox from the phone and sees the 8-digit pickup code and its QR code; the pickup clerk types the code on the
 * console's pickup page and hands the uniform over, and the parent's order then says it was collected; the size is
 * wrong, so the parent asks to return it, the provider agrees in the console, the parent sends it back with the
 * courier's number, the provider receives it, and the parent's page says it was refunded, the shirt back in stock. An express
 * checkout without an address is refused under the address field, before any order is made; an unpaid order is
 * cancelled by the payer, its stock given back. The provider uploads a picture into its photo library and lays out the
 * shop's home page with it, which the parent's shop then opens on.
 */
import { and, count, eq } from "drizzle-orm";
import { expect, test } from "vitest";
import sharp from "sharp";
import { aftersales, goods, goodsSkus, photos, shopDiyPages, shopOrderItems, shopOrders, students } from "../../server/db/schema";
import { shopZh } from "../../src/h5/i18n/shop.zh";
import { animationsSettled, choose, clickMenuEntry, DEMO_PASSWORD, describeInBrowser, dismissExpiryReminder, expectPath, login } from "../helpers/browser";
import { en, zh } from "../helpers/locales";
import { demoPayer, type DemoPayer } from "../helpers/payers";
import { api } from "../helpers/server";

const SCHOOL = "Sunrise No.1 Primary School";
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
const VERIFY = "/shop/pickuprec";
const SALES = "/shop/saleslist";

describeInBrowser(
  "the payer's school shop",
  (suite) => {
    let payer: DemoPayer | undefined;
    const db = () => suite.server.server.database.db;
    const skuOf = async (title: string, specs: Record<string, string>) => {
      const rows = await db().select({ sku: goodsSkus }).from(goodsSkus).innerJoin(goods, eq(goods.id, goodsSkus.goods_id)).where(eq(goods.title, title));
      return rows.map((r) => r.sku).find((s) => Object.entries(specs).every(([k, v]) => s.spec_values[k] === v))!;
    };
    const stockOf = async (skuId: number) => (await db().select({ stock: goodsSkus.stock }).from(goodsSkus).where(eq(goodsSkus.id, skuId)))[0].stock;
    const ordersOf = async (studentNo: string) => {
      const [student] = await db().select({ id: students.id }).from(students).where(and(eq(students.student_no, studentNo), eq(students.sch_id, payer!.schId)));
      return (await db().select({ n: count() }).from(shopOrders).where(eq(shopOrders.student_id, student.id)))[0].n;
    };

    /** A parent's phone on the school's payer page, in its shop. */
    const openShop = async () => {
      payer ??= await demoPayer(suite, SCHOOL, "商城海报");
      const phone = await suite.newContext("zh-CN", PHONE);
      const page = await phone.newPage();
      await page.goto(`${suite.url}/h5/${payer.code}`);
      await page.getByTestId("h5-tab-shop").click();
      await page.getByTestId("shop-goods").waitFor();
      return page;
    };
    const openGoods = async (page: Awaited<ReturnType<typeof openShop>>, title: string) => {
      await page.locator("[data-testid^='shop-goods-']").filter({ hasText: title }).click();
      await expect.poll(() => page.getByTestId("shop-goods-title").innerText()).toBe(title);
    };
    const findStudent = async (page: Awaited<ReturnType<typeof openShop>>) => {
      // the order is the student's: found first, as for the bills
      await page.getByTestId("h5-find-name").fill(payer!.name);
      await page.getByTestId("h5-find-student-no").fill(payer!.studentNo);
      await page.getByTestId("h5-find-submit").click();
      await page.getByTestId("shop-student").waitFor();
    };

    test("a parent buys a uniform in a size for pickup, pays, and the clerk hands it over by its code", async () => {
      const page = await openShop();
      // the page fits the phone's width
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      const sku = await skuOf("夏季校服短袖套装", { 尺码: "140", 颜色: "藏青" });
      const stockBefore = await stockOf(sku.id);

      await openGoods(page, "夏季校服短袖套装");
      // adding before a size is chosen names what is missing
      await page.getByTestId("shop-add").click();
      expect(await page.getByTestId("shop-spec-missing").innerText()).toContain("尺码");
      // the smallest white size is sold out: with white chosen, 110 cannot be chosen
      await page.getByTestId("shop-spec-颜色-白色").click();
      expect(await page.getByTestId("shop-spec-尺码-110").isDisabled()).toBe(true);
      await page.getByTestId("shop-spec-颜色-藏青").click();
      expect(await page.getByTestId("shop-spec-尺码-110").isDisabled()).toBe(false);
      await page.getByTestId("shop-spec-尺码-140").click();
      // the chosen SKU's price and stock
      expect(await page.getByTestId("shop-price").innerText()).toBe("¥128.00");
      expect(await page.getByTestId("shop-stock").innerText()).toContain(String(stockBefore));
      await page.getByTestId("shop-add").click();
      await page.getByTestId("shop-added").waitFor();
      expect(await page.getByTestId("shop-cart-count").innerText()).toBe("1");

      await page.getByTestId("shop-go-cart").click();
      await page.getByTestId(`shop-line-${sku.id}`).waitFor();
      expect(await page.getByTestId(`shop-line-${sku.id}`).innerText()).toContain("尺码 140 · 颜色 藏青");
      expect(await page.getByTestId("shop-cart-total").innerText()).toBe("¥128.00");
      await page.getByTestId("shop-checkout").click();
      await findStudent(page);

      // pickup at the school's point (its only one, chosen already)
      await page.getByTestId("shop-delivery-pickup").check();
      const point = page.locator("[data-testid^='shop-point-']");
      await point.first().waitFor();
      expect(await point.count()).toBe(1);
      expect(await point.first().isChecked()).toBe(true);
      expect(await point.locator("xpath=..").innerText()).toContain("Sunrise North Gate Pickup");
      await page.getByTestId("shop-submit").click();

      // paid as the fee bills are: the sandbox's page, opened from the phone, brings the parent back
      await page.getByTestId("h5-pay-no").waitFor();
      expect(await page.getByTestId("h5-pay-amount").innerText()).toBe("¥128.00");
      await page.getByTestId("h5-qr-image").waitFor();
      expect(await stockOf(sku.id)).toBe(stockBefore - 1);
      await page.getByTestId("h5-open-pay-page").click();
      await page.waitForURL((url) => url.pathname.startsWith("/pay/sandbox/"));
      await page.getByTestId("sandbox-pay").click();
      await page.waitForURL((url) => url.pathname.startsWith("/h5/"));

      // the pickup code, large, and its QR code
      const codeShown = page.getByTestId("shop-pickup-code");
      await codeShown.waitFor({ timeout: 20000 });
      const pickupCode = (await codeShown.innerText()).replace(/\s/g, "");
      expect(pickupCode).toMatch(/^\d{8}$/);
      expect(parseFloat(await codeShown.evaluate((el) => getComputedStyle(el).fontSize))).toBeGreaterThanOrEqual(32);
      await page.getByTestId("h5-qr-image").waitFor();
      expect(await page.getByTestId("shop-order-status").innerText()).toBe(shopZh.status_to_collect);
      const orderNo = (await page.getByTestId("shop-order-no").innerText()).trim();
      const [order] = await db().select().from(shopOrders).where(eq(shopOrders.order_no, orderNo));
      expect(order).toMatchObject({ status: "undelivered", delivery: "pickup", pickup_code: pickupCode, amount: 12_800 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      // the cart was emptied by the order
      await page.getByTestId("shop-back").click();
      await page.getByTestId(`shop-order-card-${order.id}`).waitFor();
      expect(await page.getByTestId(`shop-order-card-${order.id}`).innerText()).toContain(shopZh.status_to_collect);
      await page.getByTestId(`shop-order-card-${order.id}`).click();
      await codeShown.waitFor();

      // the clerk at the North Gate types the code on the console's pickup page
      const clerk = await (await suite.newContext()).newPage();
      await login(clerk, suite.url, "pickup");
      await clickMenuEntry(clerk, VERIFY);
      await expectPath(clerk, VERIFY);
      await clerk.setViewportSize({ width: 390, height: 844 });
      await clerk.getByTestId("lookup-value").fill(pickupCode);
      await clerk.getByTestId("lookup-find").click();
      const found = clerk.getByTestId("lookup-record");
      await found.waitFor();
      expect(await found.innerText()).toContain(orderNo);
      expect(await found.innerText()).toContain("尺码 140");
      await clerk.getByTestId("lookup-confirm").click();
      await clerk.getByTestId("lookup-done").waitFor();

      // the parent's page, still open on the order, says it was collected
      await page.getByTestId("shop-collected").waitFor({ timeout: 20000 });
      expect(await page.getByTestId("shop-order-status").innerText()).toBe(shopZh.status_completed);
      expect(await page.getByTestId("shop-pickup-code").count()).toBe(0);
      expect((await db().select({ status: shopOrders.status }).from(shopOrders).where(eq(shopOrders.id, order.id)))[0].status).toBe("completed");

      // the size is wrong: the parent asks to return it, from the same page
      const [item] = await db().select({ id: shopOrderItems.id }).from(shopOrderItems).where(eq(shopOrderItems.order_id, order.id));
      await page.getByTestId(`shop-aftersale-ask-${item.id}`).click();
      const form = page.getByTestId("shop-aftersale-form");
      expect(await page.getByTestId("shop-aftersale-amount").inputValue()).toBe("128.00");
      await page.getByTestId("shop-aftersale-reason").fill("尺码偏小");
      // a photo of the shirt against the child, taken on the phone, uploaded as it is chosen
      const photo = await sharp({ create: { width: 900, height: 1200, channels: 3, background: "#1e3a8a" } }).jpeg().toBuffer();
      await page.getByTestId("shop-aftersale-photo-input").setInputFiles({ name: "IMG_2031.jpg", mimeType: "image/jpeg", buffer: photo });
      await page.getByTestId("shop-aftersale-photos").locator("img").waitFor();
      await page.getByTestId("shop-aftersale-submit").click();
      await form.waitFor({ state: "detached" });
      const [asked] = await db().select().from(aftersales).where(eq(aftersales.order_id, order.id));
      expect(asked.images).toHaveLength(1);
      const line = page.getByTestId(`shop-aftersale-${asked.id}`);
      expect(await line.getByTestId("shop-aftersale-status").innerText()).toBe(shopZh.aftersale_status_applied);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

      // the provider reads what is asked, and agrees: the shirt is to come back first
      const provider = await (await suite.newContext("en-US")).newPage();
      await login(provider, suite.url, "svc");
      await dismissExpiryReminder(provider);
      await provider.goto(`${suite.url}${SALES}`);
      const row = provider.getByTestId("page-active").locator("tbody tr.ant-table-row").filter({ hasText: orderNo });
      await row.waitFor();
      expect(await row.innerText()).toContain("尺码偏小");
      await row.getByTestId("row-aftersalereview").click();
      const review = provider.getByTestId("row-form-aftersalereview");
      await review.waitFor();
      await animationsSettled(provider);
      await choose(provider, review.locator(".ant-select").first(), en.aftersales.result.agree);
      await provider.locator(".ant-modal").getByRole("button", { name: en.common.confirm }).click();
      await expect.poll(async () => (await db().select({ status: aftersales.status }).from(aftersales).where(eq(aftersales.id, asked.id)))[0].status).toBe("agreed");
      // the order's page shows the receipt its payment printed on the North Gate's sandbox printer
      await provider.goto(`${suite.url}/shop/shoporderinfo/${order.id}`);
      const receipts = provider.getByTestId("page-active").getByTestId("related-printjob");
      await expect.poll(() => receipts.locator("tbody tr.ant-table-row").count()).toBe(1);
      await expect.poll(() => receipts.innerText(), { timeout: 20000 }).toContain(en.devices.job_state.printed);

      // the parent sends it back with the courier's number
      await page.getByTestId("shop-order-refresh").click();
      await line.getByTestId("shop-aftersale-tracking").waitFor();
      // where to: the provider's default return address
      expect(await line.getByTestId("shop-aftersale-address").innerText()).toContain("Sunrise 校服仓库");
      await line.getByTestId("shop-aftersale-tracking").fill("SF1234567890123");
      await line.getByTestId("shop-aftersale-return").click();
      await expect.poll(() => line.getByTestId("shop-aftersale-status").innerText()).toBe(shopZh.aftersale_status_returning);

      // received: the money goes back at once through the job worker, and the parent's page says so
      await provider.goto(`${suite.url}${SALES}`);
      await row.getByTestId("row-aftersalereceive").click();
      const receipt = provider.getByTestId("row-form-aftersalereceive");
      await receipt.waitFor();
      await animationsSettled(provider);
      await choose(provider, receipt.locator(".ant-select").first(), en.aftersales.result.receive);
      await provider.locator(".ant-modal").getByRole("button", { name: en.common.confirm }).click();
      await expect.poll(async () => (await db().select({ status: aftersales.status }).from(aftersales).where(eq(aftersales.id, asked.id)))[0].status, { timeout: 20000 }).toBe("completed");
      await page.getByTestId("shop-order-refresh").click();
      await expect.poll(() => line.getByTestId("shop-aftersale-status").innerText()).toBe(shopZh.aftersale_status_completed);
      expect(await stockOf(sku.id)).toBe(stockBefore);
    });

    test("an express checkout without an address is refused under the address field; the freight follows the province; an unpaid order is cancelled", async () => {
      const page = await openShop();
      const sku = await skuOf("三年级数学同步练习", { 版本: "人教版" });
      const stockBefore = await stockOf(sku.id);
      await openGoods(page, "三年级数学同步练习");
      await page.getByTestId("shop-spec-版本-人教版").click();
      await page.getByTestId("shop-add").click();
      await page.getByTestId("shop-go-cart").click();
      await page.getByTestId("shop-checkout").click();
      await findStudent(page);
      const ordersBefore = await ordersOf(payer!.studentNo);

      // sent by courier only: the one way offered, chosen already
      expect(await page.getByTestId("shop-delivery-pickup").count()).toBe(0);
      expect(await page.getByTestId("shop-delivery-express").isChecked()).toBe(true);
      await page.getByTestId("shop-address-name").fill("王芳");
      await page.getByTestId("shop-address-phone").fill("12345");
      await page.getByTestId("shop-submit").click();
      // each field says what is wrong with it, the missing address by its name
      expect(await page.getByTestId("shop-address-detail-error").innerText()).toBe(shopZh.address_required);
      expect(await page.getByTestId("shop-address-detail").getAttribute("aria-invalid")).toBe("true");
      expect(await page.getByTestId("shop-address-phone-error").innerText()).toBe(shopZh.phone_invalid);
      expect(await page.getByTestId("shop-address-province-error").innerText()).toBe(shopZh.province_required);
      expect(await page.getByTestId("shop-address-name-error").count()).toBe(0);
      expect(await page.getByTestId("shop-freight").innerText()).toContain(shopZh.freight_after_province);
      expect(await page.getByTestId("h5-pay-no").count()).toBe(0);
      expect(await ordersOf(payer!.studentNo)).toBe(ordersBefore);

      await page.getByTestId("shop-address-phone").fill("13800138000");
      // the book's template sends within East China only (server/seed/goods.ts): Guangdong is refused under the province
      await page.getByTestId("shop-address-province").selectOption("44");
      await expect.poll(() => page.getByTestId("shop-address-province-error").textContent()).toBe("“三年级数学同步练习”暂不配送到广东。");
      // Jiangsu: ¥6 the first 500 g, the book weighing 420 g
      await page.getByTestId("shop-address-province").selectOption("32");
      expect(await page.getByTestId("shop-address-province-error").count()).toBe(0);
      await expect.poll(() => page.getByTestId("shop-freight").innerText()).toContain("¥6.00");
      expect(await page.getByTestId("shop-checkout-total").innerText()).toBe("¥38.50");
      await page.getByTestId("shop-address-detail").fill("江苏省南京市玄武区中山路 1 号 3 栋 301");
      expect(await page.getByTestId("shop-address-detail-error").count()).toBe(0);
      await page.getByTestId("shop-submit").click();
      await page.getByTestId("h5-pay-no").waitFor();
      expect(await ordersOf(payer!.studentNo)).toBe(ordersBefore + 1);
      expect(await stockOf(sku.id)).toBe(stockBefore - 1);

      // not paid after all: cancelled from the payer's orders, its stock back
      await page.getByTestId("h5-back-to-bills").click();
      const unpaid = page.locator("[data-testid^='shop-order-card-']").filter({ hasText: shopZh.status_unpaid }).first();
      await unpaid.click();
      expect(await page.getByTestId("shop-order-freight").innerText()).toContain("¥6.00");
      expect(await page.getByTestId("shop-order-amount").innerText()).toBe("¥38.50");
      await page.getByTestId("shop-cancel").click();
      await page.getByTestId("shop-cancel-yes").click();
      await expect.poll(() => page.getByTestId("shop-order-status").innerText()).toBe(shopZh.status_cancelled);
      expect(await page.getByTestId("shop-cancel").count()).toBe(0);
      expect(await stockOf(sku.id)).toBe(stockBefore);
    });

    test("the shop's page wears the provider's look, shows its banners and answers its questions", async () => {
      const session = await api(suite.url, "adminapi", "login", { username: "svc", password: DEMO_PASSWORD });
      const themed = await api(suite.url, "adminapiv2", "shopthemesetedit", { main_color: "red", style: "square" }, String(session.data?.token));
      expect(themed.return_code, themed.return_msg).toBe("SUCCESS");
      const page = await openShop();
      // China red (common/shopThemes.ts) on the page's buttons, and small corners
      await expect.poll(() => page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--blue").trim())).toBe("#c62828");
      expect(await page.evaluate(() => document.documentElement.classList.contains("shop-square"))).toBe(true);
      // the demo's two banners; the first opens the summer uniform
      expect(await page.getByTestId("shop-banner").count()).toBe(2);
      // "contact us": the chat link of the demo's customer-service account, opened in a page of its own
      const contact = page.getByTestId("shop-contact");
      expect(await contact.innerText()).toBe(shopZh.contact_us);
      expect(await contact.getAttribute("href")).toBe("https://work.weixin.qq.com/kfid/kfc8a1b2c3d4e5f6a7b");
      expect(await contact.getAttribute("rel")).toContain("noopener");
      expect(await page.getByTestId("shop-banner").first().locator("img").getAttribute("alt")).toBe("夏季校服现已开售");
      // its picture loads from the page's own address (the page's CSP), as the goods' do
      await expect.poll(() => page.getByTestId("shop-banner").first().locator("img").evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
      await page.getByTestId("shop-banner").first().click();
      await expect.poll(() => page.getByTestId("shop-goods-title").innerText()).toBe("夏季校服短袖套装");
      await page.goBack();
      await page.getByTestId("shop-goods").waitFor();
      const questions = page.getByTestId("shop-help-item");
      expect(await questions.count()).toBe(3);
      await questions.first().locator("summary").click();
      expect(await questions.first().innerText()).toContain("按孩子的身高选择");
      // back to the bills: the page's own look again
      await page.getByTestId("h5-tab-fees").click();
      await expect.poll(() => page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--blue").trim())).toBe("#1677ff");
      await api(suite.url, "adminapiv2", "shopthemesetedit", { main_color: "blue", style: "rounded" }, String(session.data?.token));
    });

    test("a provider uploads a picture into its photo library, lays out the shop's home page with it beside the preview, and a parent sees it", async () => {
      const console = await (await suite.newContext()).newPage();
      await login(console, suite.url, "svc");
      await dismissExpiryReminder(console);
      // the library: a picture uploaded into the uniforms' folder, named after its file
      await console.goto(`${suite.url}/sysadminv2/photolist`);
      await console.getByTestId("photo-folders").getByText("校服", { exact: true }).click();
      const banner = await sharp({ create: { width: 800, height: 400, channels: 3, background: "#c62828" } }).png().toBuffer();
      await console.getByTestId("photo-library").locator("input[type=file]").setInputFiles({ name: "运动会横幅.png", mimeType: "image/png", buffer: banner });
      await console.getByTestId("photo-tile").filter({ hasText: "运动会横幅" }).waitFor();
      const [stored] = await db().select().from(photos).where(eq(photos.title, "运动会横幅"));
      expect(stored.folder_id).not.toBeNull();

      // a new home page: a notice and that picture, chosen from the library, seen in the phone's preview as typed
      await console.goto(`${suite.url}/sysadminv2/shopdiy`);
      const form = console.locator("form").filter({ visible: true }).first();
      await form.getByPlaceholder(zh.diy.title, { exact: true }).fill("运动会");
      await form.locator(".ant-form-item").filter({ has: console.locator(`label[title="${zh.diy.is_home}"]`) }).getByText(zh.common.yes, { exact: true }).click();
      await console.getByTestId("diy-editor-add").click();
      await console.getByTestId("diy-editor-add-notice").click();
      await console.getByTestId("diy-editor-block-1-text").fill("运动会当天校门口有售");
      await console.getByTestId("diy-editor-add").click();
      await console.getByTestId("diy-editor-add-image").click();
      await console.getByTestId("diy-editor-block-2").getByText(zh.photos.pick).click();
      await console.getByTestId("photo-picker-tile").filter({ hasText: "运动会横幅" }).click();
      await expect.poll(() => console.getByTestId("diy-preview").innerText()).toContain("运动会当天校门口有售");
      await expect.poll(() => console.getByTestId("diy-preview").locator("img").count()).toBe(1);
      await form.getByTestId("form-save").click();
      await console.waitForURL((url) => url.pathname === "/sysadminv2/shopdiylist");
      const [page] = await db().select().from(shopDiyPages).where(eq(shopDiyPages.title, "运动会"));
      expect(page.is_home).toBe("Y");
      expect(page.blocks).toEqual([
        { kind: "notice", text: "运动会当天校门口有售" },
        { kind: "image", image: stored.image, link: { type: "none" } },
      ]);

      // the parent's shop opens on it, the picture loaded from the page's own address
      const phone = await openShop();
      expect(await phone.getByTestId("diy-notice").innerText()).toBe("运动会当天校门口有售");
      await expect.poll(() => phone.getByTestId("diy-page").locator("img").first().evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
      await db().update(shopDiyPages).set({ is_home: "Y" }).where(eq(shopDiyPages.title, "商城首页"));
      await db().delete(shopDiyPages).where(eq(shopDiyPages.id, page.id));
    });
  },
  { locale: "zh-CN" },
);
