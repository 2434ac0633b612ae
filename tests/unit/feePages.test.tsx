/**
 * The fee domain's custom pages in jsdom (only fetch is fake): the onboarding review shows a channel's whole
 * material and, to an operator, the review form that sends the decision with the sub-merchant id; a provider sees
 * why its channel was rejected and what is still missing, and no review; a school's channel page binds the school
 * to an approved channel of the provider.
 */
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { MenuEntry, MenuGroup } from "../../common/catalogue";
import { changeLanguage } from "../../providers/i18n";
import { menus } from "../../resources.config";
import ChannelMaterialPage from "../../src/domains/fees/ChannelMaterialPage";
import SchoolChannelPage from "../../src/domains/fees/SchoolChannelPage";
import { en } from "../helpers/locales";
import { readLocale } from "../../server/lib/locales";
import { renderDialog } from "../helpers/renderDialog";
import { clearCookies, fakeWeapi, setCookies } from "../helpers/weapiFetch";

const fees = readLocale("en").fees as Record<string, Record<string, string>>;

function menuEntry(groupPath: string, name: string): { group: MenuGroup; entry: MenuEntry } {
  const group = menus.find((g) => g.path === groupPath && g.children.some((e) => e.name === name))!;
  return { group, entry: group.children.find((e) => e.name === name)! };
}

const channel = {
  id: 2,
  title: "Sunrise WeChat Pay",
  sysid: 5,
  sysid_title: "Sunrise Campus Services",
  gateway: "wechatpay",
  sub_mchid: null,
  status: "submitted",
  reject_reason: null,
  subject: "Sunrise Campus Services Co., Ltd.",
  licence_no: "91310115MA1K0017Q2",
  legal_person: "Zhang Hui",
  contact_name: "Li Wei",
  contact_phone: "13916200012",
  bank_name: "Bank of Shanghai",
  bank_account: "62220200110080016255",
};

const ok = (items: unknown, extra: Record<string, unknown> = {}) => ({ return_code: "SUCCESS", return_msg: "done", data: { items, ...extra } });

beforeAll(async () => {
  await changeLanguage("en");
});
beforeEach(() => clearCookies());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("the onboarding review", () => {
  it("shows an operator the whole material and sends the approval with the sub-merchant id", async () => {
    setCookies({ token: "tok", select_user_type: "system", login_user_type: "system", servicer_ver: "v1" });
    const server = fakeWeapi((body) => {
      if (body.method === "paychnlinfo") return ok(channel);
      if (body.method === "paychnlreview") return { return_code: "SUCCESS", return_msg: "Channel approved", data: { items: { ...channel, status: "approved", sub_mchid: body.sub_mchid } } };
      return { return_code: "FAIL", return_msg: `unexpected ${String(body.method)}` };
    });
    const { toasts } = renderDialog(<ChannelMaterialPage {...menuEntry("pay", "paychnlinfo")} />, { path: "/pay/paychnlinfo/2", route: "/pay/paychnlinfo/:id" });
    const material = await screen.findByTestId("channel-material");
    // the reviewer compares the whole account, in groups of four
    expect(within(material).getByText("6222 0200 1100 8001 6255")).toBeTruthy();
    expect(screen.getByText("Sunrise Campus Services")).toBeTruthy();
    const review = await screen.findByTestId("channel-review");
    fireEvent.click(within(review).getByText(fees.review_result.approve));
    fireEvent.change(await screen.findByTestId("review-sub-mchid"), { target: { value: "1900012345" } });
    fireEvent.click(screen.getByTestId("review-submit"));
    await waitFor(() => expect(server.of("paychnlreview")).toHaveLength(1));
    expect(server.of("paychnlreview")[0].body).toEqual({ method: "paychnlreview", id: 2, result: "approve", sub_mchid: "1900012345" });
    await waitFor(() => expect(toasts.successes).toContain("Channel approved"));
  });

  it("asks an operator for the reason of a rejection before sending it", async () => {
    setCookies({ token: "tok", select_user_type: "system", login_user_type: "system", servicer_ver: "v1" });
    const server = fakeWeapi((body) => (body.method === "paychnlinfo" ? ok(channel) : ok({})));
    renderDialog(<ChannelMaterialPage {...menuEntry("pay", "paychnlinfo")} />, { path: "/pay/paychnlinfo/2", route: "/pay/paychnlinfo/:id" });
    const review = await screen.findByTestId("channel-review");
    fireEvent.click(within(review).getByText(fees.review_result.reject));
    fireEvent.click(await screen.findByTestId("review-submit"));
    expect(await within(review).findByText(en.validation.required.replace("{{label}}", fees.field.reject_reason))).toBeTruthy();
    expect(server.of("paychnlreview")).toHaveLength(0);
  });

  it("shows a provider why its channel was rejected and what is missing, without a review", async () => {
    setCookies({ token: "tok", select_user_type: "service", login_user_type: "service", select_sysid: "5", servicer_ver: "v2" });
    fakeWeapi((body) => (body.method === "paychnlinfo" ? ok({ ...channel, status: "rejected", reject_reason: "The licence photo is unreadable", legal_person: null }) : ok({})));
    renderDialog(<ChannelMaterialPage {...menuEntry("sysadminv2", "paychnlinfo")} />, { path: "/sysadminv2/paychnlinfo/2", route: "/sysadminv2/paychnlinfo/:id" });
    expect(await screen.findByText("The licence photo is unreadable")).toBeTruthy();
    expect(screen.getByTestId("channel-incomplete")).toBeTruthy();
    expect(within(screen.getByTestId("channel-material")).getByText(fees.page.missing)).toBeTruthy();
    expect(screen.queryByTestId("channel-review")).toBeNull();
  });
});

describe("a school's channel", () => {
  it("binds the school to an approved channel of its provider", async () => {
    setCookies({ token: "tok", select_user_type: "service", login_user_type: "service", select_sysid: "5", servicer_ver: "v2" });
    const channels = [
      { ...channel, id: 1, title: "Sunrise sandbox", gateway: "sandbox", sub_mchid: "9900000001", status: "approved" },
      { ...channel, id: 2, status: "approved", sub_mchid: "1900012345" },
      { ...channel, id: 3, title: "Sunrise draft", status: "draft" },
    ];
    const server = fakeWeapi((body) => {
      switch (body.method) {
        case "schoolinfo":
          return ok({ id: 31, title: "Sunrise No.1 Primary School" });
        case "schoollist":
          return ok([{ id: 31, title: "Sunrise No.1 Primary School" }, { id: 32, title: "Sunrise No.2 Primary School" }], { total: 2 });
        case "schoolpaychnllist":
          return ok([{ id: 7, sch_id: 31, sch_title: "Sunrise No.1 Primary School", paychnl_id: 1, paychnl_title: "Sunrise sandbox" }], { total: 1 });
        case "paychnllist":
          return ok(channels, { total: 3 });
        case "schoolpaychnlset":
          return ok({ id: 7, sch_id: 31, paychnl_id: 2, paychnl_title: "Sunrise WeChat Pay" });
        default:
          return { return_code: "FAIL", return_msg: `unexpected ${String(body.method)}` };
      }
    });
    const { toasts } = renderDialog(<SchoolChannelPage {...menuEntry("schoolv2", "school_paychnllist")} />, { path: "/schoolv2/school_paychnllist/31", route: "/schoolv2/school_paychnllist/:id" });
    expect(await within(await screen.findByTestId("school-channel-current")).findByText("Sunrise sandbox")).toBeTruthy();
    // the other school has no channel yet
    const list = screen.getByTestId("school-channel-list");
    await waitFor(() => expect(within(list).getByText(fees.page.unbound)).toBeTruthy());

    // only the approved channels are offered
    fireEvent.mouseDown(screen.getByTestId("school-channel-choice").querySelector(".ant-select-selector")!);
    const options = await waitFor(() => {
      const found = [...document.querySelectorAll<HTMLElement>(".ant-select-item-option")];
      if (found.length === 0) throw new Error("no options yet");
      return found;
    });
    expect(options.map((o) => o.textContent)).toEqual([expect.stringContaining("Sunrise sandbox"), expect.stringContaining("Sunrise WeChat Pay")]);
    fireEvent.click(options[1]!);
    fireEvent.click(screen.getByTestId("school-channel-bind"));
    // a switch is asked first, naming the school, the channel it leaves and the one it takes; nothing sent before
    const question = await screen.findByTestId("school-channel-switch-text");
    expect(question.textContent).toBe(fees.page.switch_confirm.replace("{{school}}", "Sunrise No.1 Primary School").replace("{{from}}", "Sunrise sandbox").replace("{{to}}", "Sunrise WeChat Pay"));
    expect(server.of("schoolpaychnlset")).toHaveLength(0);
    fireEvent.click(await screen.findByTestId("school-channel-switch-ok"));
    await waitFor(() => expect(server.of("schoolpaychnlset")).toHaveLength(1));
    expect(server.of("schoolpaychnlset")[0].body).toEqual({ method: "schoolpaychnlset", sysid: "5", sch_id: "31", paychnl_id: "2" });
    await waitFor(() => expect(toasts.successes).toContain(fees.page.bound.replace("{{channel}}", "Sunrise WeChat Pay")));
  });
});
