/**
 * The top bar's renewal entries (spec 2.4, 6): the renew link for schools only, opening the quick renewal
 * dialog, and the daily-report entry of the avatar dropdown for providers. Only fetch is fake.
 */
import { cleanup, fireEvent, screen } from "@testing-library/react";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { changeLanguage } from "../../providers/i18n";
import { TopBar } from "../../src/shell/TopBar";
import { renderDialog } from "../helpers/renderDialog";
import { clearCookies, fakeWeapi, setCookies } from "../helpers/weapiFetch";

function topBar() {
  return <TopBar collapsed={false} onToggleSidebar={() => {}} onOpenSettings={() => {}} routes={[]} scope={{ schoolEndTime: "2026-12-05", reload: () => {} }} mobile={false} />;
}

function server() {
  return fakeWeapi((body) => {
    switch (body.method) {
      case "getsetmeal":
        return { return_code: "SUCCESS", return_msg: "", data: { items: [{ id: 7, title: "One year", fee: "365.00", term_months: 12 }] } };
      case "getdaycountnoticeset":
        return { return_code: "SUCCESS", return_msg: "", data: { daycount_notice_user: [], authurl: "http://127.0.0.1/bind/sandbox/t1" } };
      default:
        return { return_code: "FAIL", return_msg: `unexpected ${String(body.method)}` };
    }
  });
}

async function openAvatarMenu() {
  fireEvent.click(screen.getByTestId("avatar-dropdown"));
  await screen.findByTestId("avatar-logout");
}

beforeAll(async () => {
  await changeLanguage("en");
});
beforeEach(() => clearCookies());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("top bar renewal entries", () => {
  it("a school gets the renew link beside its expiry; it opens the quick renewal dialog", async () => {
    setCookies({ token: "tok", select_user_type: "school", login_user_type: "school", select_schid: "31", select_sysid: "5", servicer_ver: "v2" });
    server();
    renderDialog(topBar());
    expect(screen.getByTestId("header-expiry").textContent).toContain("2026-12-05");
    fireEvent.click(screen.getByTestId("header-renew"));
    expect(await screen.findByTestId("renew-dialog")).toBeTruthy();
    expect(await screen.findByTestId("renew-buy-7")).toBeTruthy();
    await openAvatarMenu();
    expect(screen.queryByTestId("avatar-daily-report")).toBeNull();
  });

  it("a provider gets the daily report in the avatar dropdown and no renew link", async () => {
    setCookies({ token: "tok", select_user_type: "service", login_user_type: "service", select_sysid: "5", servicer_ver: "v2" });
    const calls = server();
    renderDialog(topBar());
    expect(screen.queryByTestId("header-renew")).toBeNull();
    await openAvatarMenu();
    fireEvent.click(screen.getByTestId("avatar-daily-report"));
    expect(await screen.findByTestId("daily-report-qr")).toBeTruthy();
    expect(calls.of("getdaycountnoticeset")[0].body).toEqual({ method: "getdaycountnoticeset", id: "5" });
  });

  it("the operator gets neither", async () => {
    setCookies({ token: "tok", select_user_type: "system", login_user_type: "system", servicer_ver: "v2" });
    server();
    renderDialog(topBar());
    expect(screen.queryByTestId("header-renew")).toBeNull();
    await openAvatarMenu();
    expect(screen.queryByTestId("avatar-daily-report")).toBeNull();
  });
});
