/**
 * The goods form starting from a spec template (ChildDecl product `template`): a v2 provider chooses one of its
 * enabled templates, the spec names and values are filled from it and the SKUs built as their combinations; a SKU
 * whose combination stays keeps the price typed in it, and giving up SKUs with a price asks first. A provider with no
 * template is offered none. Only fetch is fake.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { changeLanguage } from "../../providers/i18n";
import { clearCookies, fakeWeapi, setCookies } from "../helpers/weapiFetch";
import { renderCrud } from "../helpers/renderCrud";
import { en } from "../helpers/locales";

const ok = (data: unknown) => ({ return_code: "SUCCESS", return_msg: "", data });

const templates = [
  { id: 1, title: "Uniform sizes", status: "1", specs: [{ name: "尺码", values: ["120", "130"] }, { name: "颜色", values: ["藏青", "白色"] }] },
  { id: 2, title: "Navy only", status: "1", specs: [{ name: "尺码", values: ["130", "140"] }, { name: "颜色", values: ["藏青"] }] },
  { id: 3, title: "Editions", status: "1", specs: [{ name: "版本", values: ["人教版"] }] },
];

function server(list: unknown[]) {
  return fakeWeapi((body) => {
    if (body.method === "spectemplatelist") return ok({ items: list, total: list.length });
    if (String(body.method).endsWith("list")) return ok({ items: [], total: 0 });
    return { return_code: "FAIL", return_msg: `unexpected ${String(body.method)}` };
  });
}

/** the SKU table's rows: each one's specs as shown, and the price typed in it */
function skuRows(): { specs: string; price: string }[] {
  const table = screen.queryByTestId("product-rows-skus");
  if (!table) return [];
  return [...table.querySelectorAll("tbody tr.ant-table-row")].map((row) => ({
    specs: [...row.querySelectorAll(".ant-tag")].map((tag) => tag.textContent?.replace(/\s+/g, " ").trim()).join(" · "),
    price: (row.querySelectorAll("input")[0] as HTMLInputElement | undefined)?.value ?? "",
  }));
}

async function chooseTemplate(title: string) {
  const picker = await screen.findByTestId("product-template-skus", {}, { timeout: 10000 });
  fireEvent.mouseDown(within(picker).getByRole("combobox"));
  fireEvent.click(await screen.findByTitle(title));
}

describe("the goods form's spec template", () => {
  beforeAll(async () => {
    await changeLanguage("en");
  });
  afterEach(() => {
    cleanup();
    clearCookies();
    vi.unstubAllGlobals();
  });

  it("fills the specs from the template chosen and builds its SKUs, keeping a price typed for a combination that stays", async () => {
    setCookies({ token: "tok", select_user_type: "service", login_user_type: "service", select_sysid: "5", servicer_ver: "v2" });
    const network = server(templates);
    renderCrud("/goods/goodsadd");
    expect(await screen.findByText(en.retail.product.template, {}, { timeout: 10000 })).toBeTruthy();
    await chooseTemplate("Uniform sizes");
    // only the enabled templates were asked for
    expect(network.of("spectemplatelist")[0].body).toMatchObject({ status: "1" });
    await waitFor(() => expect(skuRows().map((r) => r.specs)).toEqual(["尺码 120 · 颜色 藏青", "尺码 120 · 颜色 白色", "尺码 130 · 颜色 藏青", "尺码 130 · 颜色 白色"]));
    // the spec names are the template's, the values of each too
    const form = screen.getByTestId("children-skus").closest("form")!;
    expect([...form.querySelectorAll(".ant-select-selection-item")].map((tag) => tag.textContent)).toEqual(expect.arrayContaining(["尺码", "颜色", "120", "130", "藏青", "白色"]));

    // a price for 130 navy, which the next template keeps: no question asked
    const navy130 = screen.getByTestId("product-rows-skus").querySelectorAll("tbody tr.ant-table-row")[2];
    fireEvent.change(navy130.querySelectorAll("input")[0], { target: { value: "128.00" } });
    await chooseTemplate("Navy only");
    await waitFor(() => expect(skuRows()).toEqual([{ specs: "尺码 130 · 颜色 藏青", price: "128.00" }, { specs: "尺码 140 · 颜色 藏青", price: "" }]));
    expect(screen.queryByText(en.retail.product.template_replace)).toBeNull();

    // a template of other names would give up the priced SKU: asked first, and nothing changes when declined
    await chooseTemplate("Editions");
    const dialog = await screen.findByRole("dialog");
    expect(dialog.textContent).toContain(en.retail.product.template_replace);
    expect(dialog.textContent).toContain(en.retail.product.template_replace_hint.replace("{{count}}", "1"));
    fireEvent.click(within(dialog).getByRole("button", { name: en.common.cancel }));
    expect(skuRows().map((r) => r.price)).toEqual(["128.00", ""]);
    await chooseTemplate("Editions");
    await waitFor(() => expect(screen.getAllByTestId("product-template-confirm-skus")).toHaveLength(2));
    fireEvent.click(screen.getAllByTestId("product-template-confirm-skus")[1]);
    await waitFor(() => expect(skuRows()).toEqual([{ specs: "版本 人教版", price: "" }]));
  }, 30000);

  it("offers no template to a provider that has none", async () => {
    setCookies({ token: "tok", select_user_type: "service", login_user_type: "service", select_sysid: "5", servicer_ver: "v2" });
    const network = server([]);
    renderCrud("/goods/goodsadd");
    await screen.findByText(en.retail.product.names_first, {}, { timeout: 10000 });
    await waitFor(() => expect(network.of("spectemplatelist")).toHaveLength(1));
    expect(screen.queryByTestId("product-template-skus")).toBeNull();
    expect(screen.queryByText(en.retail.product.template)).toBeNull();
  }, 20000);
});
