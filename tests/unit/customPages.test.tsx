/**
 * Custom pages of issue 3: recharge (a provider user picks a school, then buys or redeems), activation-code
 * batches and contract maintenance. Only fetch is fake.
 */
import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Route, Routes, useLocation } from "react-router";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { MenuEntry, MenuGroup } from "../../common/catalogue";
import { changeLanguage } from "../../providers/i18n";
import { menus } from "../../resources.config";
import ActcodeAddPage, { batchPayload } from "../../src/domains/renewals/ActcodeAddPage";
import RechargePage from "../../src/domains/renewals/RechargePage";
import ServiceDelayPage from "../../src/domains/renewals/ServiceDelayPage";
import dayjs from "dayjs";
import { renderDialog } from "../helpers/renderDialog";
import { clearCookies, fakeWeapi, setCookies } from "../helpers/weapiFetch";

function menuEntry(groupPath: string, name: string): { group: MenuGroup; entry: MenuEntry } {
  const group = menus.find((g) => g.path === groupPath && g.children.some((e) => e.name === name));
  const entry = group?.children.find((e) => e.name === name);
  if (!group || !entry) throw new Error(`no menu entry /${groupPath}/${name}`);
  return { group, entry };
}

function Location() {
  return <output data-testid="location">{useLocation().pathname}</output>;
}

async function chooseOption(select: HTMLElement, title: string) {
  const selector = select.closest(".ant-select")?.querySelector(".ant-select-selector") ?? select.querySelector(".ant-select-selector");
  if (!selector) throw new Error("no select");
  fireEvent.mouseDown(selector);
  const option = await waitFor(() => {
    const found = [...document.querySelectorAll<HTMLElement>(".ant-select-item-option")].find(
      (o) => o.getAttribute("title") === title && !o.closest(".ant-select-dropdown-hidden"),
    );
    if (!found) throw new Error(`option ${title} not shown`);
    return found;
  });
  fireEvent.click(option);
}

beforeAll(async () => {
  await changeLanguage("en");
});
beforeEach(() => clearCookies());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("recharge page", () => {
  it("a provider user picks one of its schools, sees its end date and buys a package for it", async () => {
    setCookies({ token: "tok", select_user_type: "service", login_user_type: "service", select_sysid: "5", servicer_ver: "v2" });
    const server = fakeWeapi((body) => {
      switch (body.method) {
        case "schoollist":
          return { return_code: "SUCCESS", return_msg: "", data: { items: [{ id: 31, title: "Sunrise No.1" }, { id: 32, title: "Sunrise No.2" }], total: 2 } };
        case "schoolinfo":
          return { return_code: "SUCCESS", return_msg: "", data: { items: { title: "Sunrise No.2", endtime: "2026-12-20" } } };
        case "getsetmeal":
          return { return_code: "SUCCESS", return_msg: "", data: { items: [{ id: 7, title: "One year", fee: "365.00", term_months: 12 }] } };
        case "get_pay":
          return { return_code: "SUCCESS", return_msg: "", data: { items: { orderid: "R1", pay_no: "P1", total_fee: "365.00", payparam: { code_url: "http://127.0.0.1/pay/sandbox/P1" } } } };
        default:
          return { return_code: "FAIL", return_msg: `unexpected ${String(body.method)}` };
      }
    });
    renderDialog(<RechargePage {...menuEntry("schoolv2", "recharge")} />);
    await screen.findByTestId("recharge-page");
    expect(screen.queryByTestId("renew-buy-7")).toBeNull();
    await waitFor(() => expect(server.of("schoollist")).toHaveLength(1));
    expect(server.of("schoollist")[0].body).toMatchObject({ sysid: "5", page: 1 });
    await chooseOption(screen.getByTestId("recharge-school"), "Sunrise No.2");
    await waitFor(() => expect(screen.getByTestId("recharge-end").textContent).toBe("2026-12-20"));
    expect(server.of("schoolinfo")[0].body).toEqual({ method: "schoolinfo", sch_id: "32", sysid: "5" });
    fireEvent.click(await screen.findByTestId("renew-buy-7"));
    await waitFor(() => expect(server.of("get_pay")).toHaveLength(1));
    expect(server.of("get_pay")[0].body).toEqual({ method: "get_pay", setmeal_id: 7, sch_id: "32", sysid: "5" });
    expect((await screen.findByTestId("pay-orderid")).textContent).toBe("R1");
  });
});

describe("activation-code batch page", () => {
  it("builds the payload with a package or a term, never both, and bindings only when chosen", () => {
    const expires = dayjs("2027-01-31");
    expect(batchPayload({ count: 5, target: "school", term_by: "meal", meal_id: "7", term_months: 6, expires_on: expires })).toEqual({
      count: 5,
      target: "school",
      meal_id: "7",
      expires_on: "2027-01-31",
    });
    expect(batchPayload({ count: 5, target: "service", term_by: "term", meal_id: "7", term_months: 6, expires_on: expires, sysid: "5", sch_id: "31", remark: " fair " })).toEqual({
      count: 5,
      target: "service",
      term_months: 6,
      expires_on: "2027-01-31",
      sysid: "5",
      remark: "fair",
    });
    expect(batchPayload({ count: 1, target: "school", term_by: "term", term_months: 12, expires_on: expires, sysid: "5", sch_id: "31" })).toMatchObject({ sysid: "5", sch_id: "31" });
  });

  it("generates a batch, shows its number and leads to the code list", async () => {
    setCookies({ token: "tok", select_user_type: "system", login_user_type: "system", servicer_ver: "v2" });
    const server = fakeWeapi((body) => {
      switch (body.method) {
        case "getsetmeal":
          return { return_code: "SUCCESS", return_msg: "", data: { items: [{ id: 7, title: "One year", fee: "365.00", term_months: 12 }] } };
        case "servicelist":
          return { return_code: "SUCCESS", return_msg: "", data: { items: [], total: 0 } };
        case "actcodeadd":
          return { return_code: "SUCCESS", return_msg: "", data: { items: { batch_no: "B20261123001", count: 3 } } };
        default:
          return { return_code: "FAIL", return_msg: `unexpected ${String(body.method)}` };
      }
    });
    renderDialog(
      <>
        <Routes>
          <Route path="/schoolv2/actcodeadd" element={<ActcodeAddPage {...menuEntry("schoolv2", "actcodeadd")} />} />
          <Route path="/schoolv2/actcodelist" element={<p>code list</p>} />
        </Routes>
        <Location />
      </>,
      { path: "/schoolv2/actcodeadd" },
    );
    const submit = await screen.findByTestId("actcode-submit");
    fireEvent.click(submit);
    expect(await screen.findByText("Choose a package")).toBeTruthy();
    expect(server.of("actcodeadd")).toHaveLength(0);

    fireEvent.change(screen.getByTestId("actcode-count"), { target: { value: "3" } });
    fireEvent.click(screen.getByText("By months"));
    fireEvent.change(await screen.findByTestId("actcode-term"), { target: { value: "6" } });
    const date = screen.getByTestId("actcode-expires") as HTMLInputElement;
    const expires = dayjs().add(30, "day").format("YYYY-MM-DD");
    fireEvent.mouseDown(date);
    fireEvent.change(date, { target: { value: expires } });
    fireEvent.keyDown(date, { key: "Enter", code: "Enter", keyCode: 13 });
    fireEvent.click(submit);
    await waitFor(() => expect(server.of("actcodeadd")).toHaveLength(1));
    expect(server.of("actcodeadd")[0].body).toEqual({ method: "actcodeadd", count: 3, target: "school", term_months: 6, expires_on: expires });
    expect((await screen.findByTestId("actcode-batch")).textContent).toContain("B20261123001");
    fireEvent.click(screen.getByTestId("actcode-to-list"));
    expect(await screen.findByText("code list")).toBeTruthy();
    expect(screen.getByTestId("location").textContent).toBe("/schoolv2/actcodelist");
  });
  it("Enter in a field generates nothing, even with the form complete: only the button does", async () => {
    setCookies({ token: "tok", select_user_type: "system", login_user_type: "system", servicer_ver: "v2" });
    const server = fakeWeapi((body) => {
      switch (body.method) {
        case "getsetmeal":
          return { return_code: "SUCCESS", return_msg: "", data: { items: [] } };
        case "servicelist":
          return { return_code: "SUCCESS", return_msg: "", data: { items: [], total: 0 } };
        case "actcodeadd":
          return { return_code: "SUCCESS", return_msg: "", data: { items: { batch_no: "B20261123002", count: 25 } } };
        default:
          return { return_code: "FAIL", return_msg: `unexpected ${String(body.method)}` };
      }
    });
    const user = userEvent.setup();
    renderDialog(<ActcodeAddPage {...menuEntry("schoolv2", "actcodeadd")} />, { path: "/schoolv2/actcodeadd" });
    const count = (await screen.findByTestId("actcode-count")) as HTMLInputElement;
    await user.clear(count);
    await user.type(count, "25{Enter}");
    await user.click(screen.getByText("By months"));
    await user.type(await screen.findByTestId("actcode-term"), "12{Enter}");
    // a date typed and confirmed with Enter, as the user did
    const expires = dayjs().add(30, "day").format("YYYY-MM-DD");
    const date = screen.getByTestId("actcode-expires") as HTMLInputElement;
    await user.click(date);
    await user.type(date, `${expires}{Enter}`);
    await waitFor(() => expect(date.value).toBe(expires));
    await user.type(count, "{Enter}");
    expect(server.of("actcodeadd")).toHaveLength(0);
    expect(screen.queryByTestId("actcode-batch")).toBeNull();

    await user.click(screen.getByTestId("actcode-submit"));
    await waitFor(() => expect(server.of("actcodeadd")).toHaveLength(1));
    expect(server.of("actcodeadd")[0].body).toEqual({ method: "actcodeadd", count: 25, target: "school", term_months: 12, expires_on: expires });
    expect((await screen.findByTestId("actcode-batch")).textContent).toContain("B20261123002");
  });
});

describe("contract maintenance page", () => {
  it("opened with a provider id: shows its end date and the new one, extends it and shows the result", async () => {
    setCookies({ token: "tok", select_user_type: "system", login_user_type: "system", servicer_ver: "v2" });
    let end = "2030-06-30";
    const server = fakeWeapi((body) => {
      switch (body.method) {
        case "serviceinfo":
          return { return_code: "SUCCESS", return_msg: "", data: { items: { id: 5, title: "Sunrise Campus Services", end_time: end } } };
        case "servicelist":
          return { return_code: "SUCCESS", return_msg: "", data: { items: [], total: 0 } };
        case "servicedelay":
          end = "2031-06-30";
          return { return_code: "SUCCESS", return_msg: "", data: { items: { end_time: end } } };
        default:
          return { return_code: "FAIL", return_msg: `unexpected ${String(body.method)}` };
      }
    });
    renderDialog(<ServiceDelayPage {...menuEntry("servicev2", "servicedelayv2")} />, { path: "/servicev2/servicedelayv2/5", route: "/servicev2/servicedelayv2/:id" });
    await waitFor(() => expect(screen.getByTestId("delay-current-end").textContent).toBe("2030-06-30"));
    expect(server.of("serviceinfo")[0].body).toEqual({ method: "serviceinfo", id: "5" });
    expect(screen.getByText("Sunrise Campus Services")).toBeTruthy();
    expect(screen.getByTestId("delay-new-end").textContent).toBe("-");

    fireEvent.change(screen.getByTestId("delay-term"), { target: { value: "12" } });
    await waitFor(() => expect(screen.getByTestId("delay-new-end").textContent).toBe("2031-06-30"));
    fireEvent.change(screen.getByTestId("delay-fee"), { target: { value: "¥1,200.505" } });
    expect((screen.getByTestId("delay-fee") as HTMLInputElement).value).toBe("1200.50");
    fireEvent.click(screen.getByTestId("delay-submit"));
    await waitFor(() => expect(server.of("servicedelay")).toHaveLength(1));
    expect(server.of("servicedelay")[0].body).toEqual({ method: "servicedelay", sysid: "5", term_months: 12, fee: "1200.50" });
    expect(await screen.findByText("Term extended until 2031-06-30")).toBeTruthy();
    expect(screen.getByTestId("delay-current-end").textContent).toBe("2031-06-30");
  });

  it("sends nothing without a provider and a term", async () => {
    setCookies({ token: "tok", select_user_type: "system", login_user_type: "system", servicer_ver: "v2" });
    const server = fakeWeapi(() => ({ return_code: "SUCCESS", return_msg: "", data: { items: [], total: 0 } }));
    renderDialog(<ServiceDelayPage {...menuEntry("servicev2", "servicedelayv2")} />);
    fireEvent.click(await screen.findByTestId("delay-submit"));
    expect(await screen.findAllByText("Choose a provider")).toBeTruthy();
    expect(server.of("servicedelay")).toHaveLength(0);
  });
});
