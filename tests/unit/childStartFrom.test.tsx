/**
 * Child rows that start from other records (ChildDecl `startFrom`): a v1 provider adds an activity's fee items from
 * its enabled fee projects (an open project's lowest amount as the item's amount), the total of the required fixed
 * items follows; a v2 provider, who has no fee projects, is offered none. Only fetch is fake.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { changeLanguage } from "../../providers/i18n";
import { clearCookies, fakeWeapi, setCookies } from "../helpers/weapiFetch";
import { renderCrud } from "../helpers/renderCrud";
import { en } from "../helpers/locales";

const ok = (data: unknown) => ({ return_code: "SUCCESS", return_msg: "", data });

const projects = [
  { id: 11, title: "Winter uniform", amount_mode: "fixed", amount: "360.00", min_amount: null, max_amount: null, required: "Y", status: "1" },
  { id: 12, title: "Library donation", amount_mode: "open", amount: null, min_amount: "50.00", max_amount: "500.00", required: "N", status: "1" },
];

function server() {
  return fakeWeapi((body) => {
    if (body.method === "serviceprojectlist") return ok({ items: projects, total: projects.length });
    if (String(body.method).endsWith("list")) return ok({ items: [], total: 0 });
    return { return_code: "FAIL", return_msg: `unexpected ${String(body.method)}` };
  });
}

describe("an activity's fee items from fee projects", () => {
  beforeAll(async () => {
    await changeLanguage("en");
  });
  afterEach(() => {
    cleanup();
    clearCookies();
    vi.unstubAllGlobals();
  });

  it("adds the chosen projects of a v1 provider as items, with the running total of what every pupil owes", async () => {
    setCookies({ token: "tok", select_user_type: "service", login_user_type: "service", select_sysid: "5", servicer_ver: "v1" });
    const network = server();
    renderCrud("/goodsdata/service_activityadd");
    const button = await screen.findByTestId("child-from-serviceproject", {}, { timeout: 10000 });
    expect(button.textContent).toBe(en.crud.add_from.replace("{{entity}}", en.fees.entity.serviceproject));
    fireEvent.click(button);
    const dialog = await screen.findByRole("dialog");
    const select = within(dialog).getByRole("combobox");
    fireEvent.mouseDown(select);
    for (const project of projects) fireEvent.click(await screen.findByTitle(project.title));
    // only the enabled projects were asked for
    expect(network.of("serviceprojectlist")[0].body).toMatchObject({ status: "1" });
    fireEvent.click(within(dialog).getByRole("button", { name: en.crud.add_rows }));

    await waitFor(() => expect(screen.getAllByTestId(/^child-items-\d+$/)).toHaveLength(2));
    const [uniform, donation] = screen.getAllByTestId(/^child-items-\d+$/);
    expect(within(uniform).getByDisplayValue("Winter uniform")).toBeTruthy();
    expect(within(uniform).getByDisplayValue("360.00")).toBeTruthy();
    expect(within(donation).getByDisplayValue("Library donation")).toBeTruthy();
    // an open project: its lowest amount is the item's suggested amount
    expect(within(donation).getByDisplayValue("50.00")).toBeTruthy();
    // every pupil owes the required items of a fixed amount: the uniform alone
    expect(screen.getByTestId("children-total-items").textContent).toContain("¥360.00");
  }, 20000);

  it("offers a v2 provider no projects to start from", async () => {
    setCookies({ token: "tok", select_user_type: "service", login_user_type: "service", select_sysid: "5", servicer_ver: "v2" });
    const network = server();
    renderCrud("/activity/activitylist");
    fireEvent.click(await screen.findByTestId("add-button", {}, { timeout: 10000 }));
    const dialog = await screen.findByRole("dialog", {}, { timeout: 10000 });
    await within(dialog).findByTestId("child-add-items", {}, { timeout: 10000 });
    expect(screen.queryByTestId(/^child-from-/)).toBeNull();
    expect(network.of("serviceprojectlist")).toHaveLength(0);
    expect(network.of("projectlist")).toHaveLength(0);
  }, 20000);
});
