/**
 * An activity's fee items copied from an earlier activity (ChildDecl `copyFromEarlier`): the v2 provider's activity
 * form offers the school's activities, newest first; the chosen one's items, read through its info (which the
 * server answers only within the caller's tenant and the school named), are shown, then added as rows with the
 * total of what every pupil owes. Only fetch is fake.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { changeLanguage } from "../../providers/i18n";
import { clearCookies, fakeWeapi, setCookies } from "../helpers/weapiFetch";
import { renderCrud } from "../helpers/renderCrud";
import { en } from "../helpers/locales";

const ok = (data: unknown) => ({ return_code: "SUCCESS", return_msg: "", data });
const earlier = { id: 3, title: "2026 autumn term", sch_id: 7, status: "closed", start_date: "2026-09-01", end_date: "2026-09-30", target: "school", amount: "1300.00" };
const items = [
  { id: 31, activity_id: 3, sort: 0, title: "Tuition", amount: "1200.00", amount_mode: "fixed", required: "Y" },
  { id: 32, activity_id: 3, sort: 1, title: "Library donation", amount: "100.00", amount_mode: "open", required: "N" },
];

describe("an activity's fee items copied from an earlier activity", () => {
  beforeAll(async () => {
    await changeLanguage("en");
  });
  afterEach(() => {
    cleanup();
    clearCookies();
    vi.unstubAllGlobals();
  });

  it("adds the items of the chosen earlier activity of the school", async () => {
    setCookies({ token: "tok", select_user_type: "service", login_user_type: "service", select_sysid: "5", select_schid: "7", servicer_ver: "v2" });
    const network = fakeWeapi((body) => {
      if (body.method === "activitylist") return ok({ items: [earlier], total: 1 });
      if (body.method === "activityinfo") return ok({ items: { ...earlier, items } });
      if (String(body.method).endsWith("list")) return ok({ items: [], total: 0 });
      return { return_code: "FAIL", return_msg: `unexpected ${String(body.method)}` };
    });
    renderCrud("/activity/activitylist");
    fireEvent.click(await screen.findByTestId("add-button", {}, { timeout: 10000 }));
    const dialog = await screen.findByRole("dialog", {}, { timeout: 10000 });
    const button = await within(dialog).findByTestId("child-copy-items", {}, { timeout: 10000 });
    expect(button.textContent).toBe(en.crud.copy_from.replace("{{entity}}", en.collection.entity.activity));
    fireEvent.click(button);

    const copyDialog = (await screen.findAllByRole("dialog")).at(-1)!;
    fireEvent.mouseDown(within(copyDialog).getByRole("combobox"));
    fireEvent.click(await screen.findByTitle(earlier.title));
    // the school's activities, newest first; the chosen one read through its info
    const listed = network.of("activitylist").at(-1)!.body;
    expect(listed).toMatchObject({ sch_id: "7", sort: "-id" });
    await waitFor(() => expect(network.of("activityinfo").map((call) => call.body.id)).toContain(3));
    const shown = await within(copyDialog).findByTestId("child-copy-items-rows");
    await waitFor(() => expect(shown.textContent).toContain("Tuition"));
    expect(shown.textContent).toContain("Library donation");
    fireEvent.click(within(copyDialog).getByRole("button", { name: en.crud.add_rows }));

    await waitFor(() => expect(within(dialog).getAllByTestId(/^child-items-\d+$/).length).toBeGreaterThanOrEqual(2));
    const rows = within(dialog).getAllByTestId(/^child-items-\d+$/);
    const tuition = rows.find((row) => within(row).queryByDisplayValue("Tuition"))!;
    expect(within(tuition).getByDisplayValue("1200.00")).toBeTruthy();
    expect(rows.some((row) => within(row).queryByDisplayValue("Library donation"))).toBe(true);
    expect(within(dialog).getByTestId("children-total-items").textContent).toContain("1,200.00");
  }, 40000);
});
