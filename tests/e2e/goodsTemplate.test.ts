/**
 * A provider's goods form starts from one of its spec templates (/goods/goodsadd): Old Town kept a template of
 * uniform sizes and colours while on the first generation (/specadmin/sepclist) and has moved to the second; its
 * provider chooses the template, the spec names and values are filled from it and the SKUs built as their
 * combinations, prices are typed in, and the goods item is saved with one SKU for each combination.
 */
import { expect, test } from "vitest";
import { combinations } from "../../common/specs";
import { choose, DEMO_PASSWORD, describeInBrowser, login } from "../helpers/browser";
import { en } from "../helpers/locales";
import { api } from "../helpers/server";

type Row = Record<string, unknown>;

describeInBrowser("the goods form's spec template", (suite) => {
  test("the provider starts a uniform from its template of sizes and colours and saves a SKU for each combination", async () => {
    const { page } = suite;
    // the operator moves Old Town to the second generation; its provider makes a category for its goods
    const operator = String((await api(suite.url, "adminapi", "login", { username: "sysadmin", password: DEMO_PASSWORD })).data?.token);
    const [oldTown] = (await api(suite.url, "adminapiv2", "servicelist", { title: "Old Town" }, operator)).data?.items as Row[];
    expect((await api(suite.url, "adminapiv2", "serviceedit", { id: oldTown.id, servicer_ver: "v2" }, operator)).return_code).toBe("SUCCESS");
    const provider = String((await api(suite.url, "adminapi", "login", { username: "svcv1", password: DEMO_PASSWORD })).data?.token);
    expect((await api(suite.url, "adminapiv2", "goodscateadd", { title: "校服", sort: 1, status: "1" }, provider)).return_code).toBe("SUCCESS");
    const [template] = (await api(suite.url, "adminapiv2", "spectemplatelist", { title: "校服尺码与颜色" }, provider)).data?.items as { specs: { name: string; values: string[] }[] }[];
    const product = combinations(
      template.specs.map((g) => g.name),
      Object.fromEntries(template.specs.map((g) => [g.name, g.values])),
    );
    expect(product).toHaveLength(14);

    await page.setViewportSize({ width: 1440, height: 900 });
    await login(page, suite.url, "svcv1", { to: "/goods/goodsadd" });
    await page.getByPlaceholder(en.retail.field.goods_title, { exact: true }).fill("秋季校服长袖套装");
    await choose(page, page.locator(".ant-select").filter({ has: page.locator(".ant-select-selection-placeholder", { hasText: en.retail.entity.goodscate }) }), "校服");
    await choose(page, page.getByTestId("product-template-skus"), "校服尺码", "校服尺码与颜色");

    // a SKU for each combination of the template's values, in its order, each priced
    const rows = page.getByTestId("product-rows-skus").locator("tbody tr.ant-table-row");
    await expect.poll(() => rows.count()).toBe(14);
    expect((await rows.first().innerText()).replace(/\s+/g, " ")).toContain("尺码 110 颜色 藏青");
    for (let i = 0; i < 14; i++) await rows.nth(i).locator("input").first().fill(i < 10 ? "158.00" : "168.00");
    await page.getByTestId("form-save").click();
    await page.waitForURL((url) => !url.pathname.endsWith("/goodsadd"));

    const [saved] = (await api(suite.url, "adminapiv2", "goodslist", { title: "秋季校服长袖套装" }, provider)).data?.items as Row[];
    const info = (await api(suite.url, "adminapiv2", "goodsinfo", { id: saved.id }, provider)).data?.items as Row;
    expect(info.spec_names).toEqual(["尺码", "颜色"]);
    expect((info.skus as Row[]).map((sku) => sku.spec_values)).toEqual(product);
    expect(info).toMatchObject({ price: "158.00", stock: 0 });
  });
});
