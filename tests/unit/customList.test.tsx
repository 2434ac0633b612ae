/**
 * Catalogue wiring of issue 3: custom pages mounted from `{kind: "custom", id}` menu entries, the list
 * page's Export button (entity.exportOperation) and a list page's fixed filters. The catalogue gets a test
 * entity and two test groups; everything else (refine, data provider, weapi client) is real, only fetch is
 * fake.
 */
import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { EntityDecl, MenuGroup } from "../../common/catalogue";
import { changeLanguage } from "../../providers/i18n";
import { menus } from "../../resources.config";
import { declaredPageRoutes } from "../../src/engine";
import { customPages } from "../../src/domains";
import { renderCrud } from "../helpers/renderCrud";
import { en } from "../helpers/locales";
import { clearCookies, fakeWeapi, setCookies } from "../helpers/weapiFetch";

const testCatalogue = vi.hoisted(() => {
  const voucher: EntityDecl = {
    name: "voucher",
    table: "vouchers",
    scope: "platform",
    title: "entity.service",
    titleField: "code",
    exportOperation: "voucherexport",
    roles: { list: ["systemv2"] },
    fields: [
      { name: "id", type: "int", label: "field.id", list: true },
      { name: "code", type: "string", label: "field.service_title", list: true, filter: "like" },
      {
        name: "target",
        type: "enum",
        label: "field.servicer_ver",
        list: true,
        filter: "eq",
        options: [
          { value: "school", label: "enum.ver.v1" },
          { value: "service", label: "enum.ver.v2" },
        ],
      },
    ],
  };
  const groups: MenuGroup[] = [
    {
      path: "testv2",
      generation: "v2",
      title: "menu.group.service",
      roles: ["systemv2", "schoolv2"],
      children: [
        { name: "voucherlist", title: "menu.servicelist", roles: ["systemv2"], page: { kind: "list", entity: "voucher" } },
        { name: "recharge", title: "menu.recharge", roles: ["schoolv2"], page: { kind: "custom", id: "recharge", calls: [] } },
        { name: "unbuilt", title: "menu.recharge", page: { kind: "custom", id: "no-such-page", calls: [] } },
      ],
    },
    {
      path: "testsvc",
      generation: "v2",
      title: "menu.group.service",
      roles: ["systemv2"],
      children: [{ name: "servicevouchers", title: "menu.servicelist", page: { kind: "list", entity: "voucher", filters: { target: "service" } } }],
    },
  ];
  return { voucher, groups };
});

vi.mock("../../resources.config", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../../resources.config")>();
  const entities = [...actual.entities, testCatalogue.voucher];
  const allMenus = [...actual.menus, ...testCatalogue.groups];
  return {
    ...actual,
    entities,
    menus: allMenus,
    catalogue: { entities, menus: allMenus },
    entityByName: (name: string) => entities.find((e) => e.name === name),
  };
});

const rows = [
  { id: 1, code: "ABCD-EFGH-JKMN-PQRS-TVWX", target: "service" },
  { id: 2, code: "BCDE-FGHJ-KMNP-QRST-VWXY", target: "school" },
];

function listServer() {
  return fakeWeapi((body) => {
    switch (body.method) {
      case "voucherlist":
        return { return_code: "SUCCESS", return_msg: "", data: { items: rows, total: 2 } };
      case "voucherexport":
        return { return_code: "SUCCESS", return_msg: "", data: { items: { job_id: 41 } } };
      case "schoolinfo":
        return { return_code: "SUCCESS", return_msg: "", data: { items: { title: "Sunrise No.1", endtime: "2026-12-05" } } };
      case "getsetmeal":
        return { return_code: "SUCCESS", return_msg: "", data: { items: [{ id: 7, title: "One year", fee: "365.00", term_months: 12 }] } };
      default:
        return { return_code: "FAIL", return_msg: `unexpected ${String(body.method)}` };
    }
  });
}

beforeAll(async () => {
  await changeLanguage("en");
});
beforeEach(() => {
  clearCookies();
  setCookies({ token: "tok", select_user_type: "system", login_user_type: "system", servicer_ver: "v2", language: "en" });
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe("custom page registry", () => {
  it("has a page for every custom page the catalogue's menus name", () => {
    const named = menus.flatMap((g) => g.children.flatMap((e) => (e.page?.kind === "custom" ? [e.page.id] : [])));
    const unbuilt = named.filter((id) => id !== "no-such-page" && !(id in customPages));
    expect(unbuilt).toEqual([]);
  });

  it("mounts registered custom pages at their routes and leaves unknown ids out", () => {
    const routes = declaredPageRoutes(testCatalogue.groups).map((r) => r.route);
    expect(routes).toEqual(["/testv2/recharge"]);
  });

  it("opens a custom page from its route inside the console's routes", async () => {
    setCookies({ select_user_type: "school", login_user_type: "school", select_schid: "31", select_sysid: "5" });
    const server = listServer();
    renderCrud("/testv2/recharge");
    expect(await screen.findByTestId("recharge-page")).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId("recharge-end").textContent).toBe("2026-12-05"));
    expect(server.of("schoolinfo").map((c) => c.body)).toEqual([{ method: "schoolinfo", sch_id: "31", sysid: "5" }]);
  });
});

describe("list export", () => {
  it("exports with the list's current filters and points to the download centre, where the file will be", async () => {
    const server = listServer();
    renderCrud("/testv2/voucherlist");
    await screen.findByText("ABCD-EFGH-JKMN-PQRS-TVWX");
    fireEvent.change(screen.getByPlaceholderText("Provider name"), { target: { value: "ABCD" } });
    fireEvent.click(screen.getByRole("button", { name: /Search/ }));
    await waitFor(() => expect(server.of("voucherlist").at(-1)?.body.code).toBe("ABCD"));

    fireEvent.click(screen.getByTestId("export-button"));
    const started = await screen.findByTestId("export-started");
    const call = server.of("voucherexport")[0].body;
    expect(call.code).toBe("ABCD");
    expect(call).not.toHaveProperty("page");
    expect(started.textContent).toContain(en.downloads.started);
    const link = within(started).getByRole("link", { name: en.downloads.open });
    fireEvent.click(link);
    await waitFor(() => expect(screen.getByTestId("location").textContent).toBe("/download/downloadlist"));
  });

  it("offers no Export button on an entity without an export operation", async () => {
    fakeWeapi(() => ({ return_code: "SUCCESS", return_msg: "", data: { items: [{ id: 3, title: "Harbour Education Services" }], total: 1 } }));
    renderCrud("/servicev2/servicelist");
    await screen.findByText("Harbour Education Services");
    expect(screen.queryByTestId("export-button")).toBeNull();
  });
});

describe("fixed list filters", () => {
  it("sends the page's filters with every list and export call and shows no input for them", async () => {
    const server = listServer();
    renderCrud("/testsvc/servicevouchers");
    await screen.findByText("ABCD-EFGH-JKMN-PQRS-TVWX");
    // the list has settled: a second read, if the page made one, would have been sent by now
    await waitFor(() => expect(document.querySelector(".ant-table .ant-spin-spinning")).toBeNull());
    await act(async () => undefined);
    expect(server.of("voucherlist")).toHaveLength(1);
    expect(server.of("voucherlist")[0].body).toMatchObject({ target: "service", page: 1, limit: 20 });
    expect(screen.queryByText("Version", { selector: "label" })).toBeNull();
    expect(screen.getByText("Provider name", { selector: "label" })).toBeTruthy();

    fireEvent.change(screen.getByPlaceholderText("Provider name"), { target: { value: "BCDE" } });
    fireEvent.click(screen.getByRole("button", { name: /Search/ }));
    await waitFor(() => expect(server.of("voucherlist").at(-1)?.body).toMatchObject({ code: "BCDE", target: "service" }));
    fireEvent.click(screen.getByRole("button", { name: /Reset/ }));
    await waitFor(() => expect(server.of("voucherlist").at(-1)?.body.code).toBeUndefined());
    expect(server.of("voucherlist").at(-1)?.body.target).toBe("service");

    fireEvent.click(screen.getByTestId("export-button"));
    await waitFor(() => expect(server.of("voucherexport")).toHaveLength(1));
    expect(server.of("voucherexport")[0].body.target).toBe("service");
  });
});
