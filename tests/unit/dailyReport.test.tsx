/**
 * Daily business report binding (spec 2.4, 5, 7): QR code of the binding link, refresh, bound users, and
 * unbinding after a confirmation. Only fetch is fake.
 */
import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { changeLanguage } from "../../providers/i18n";
import DailyReportDialog from "../../src/shell/renewal/DailyReportDialog";
import { renderDialog } from "../helpers/renderDialog";
import { clearCookies, fakeWeapi, setCookies } from "../helpers/weapiFetch";

const users = [
  { id: 11, nickname: "Wang Fang", headurl: "/favicon.svg" },
  { id: 12, nickname: "Zhao Lei", headurl: "" },
];

function dailyServer() {
  let bound = [...users];
  let token = 0;
  return fakeWeapi((body) => {
    switch (body.method) {
      case "getdaycountnoticeset":
        token += 1;
        return { return_code: "SUCCESS", return_msg: "", data: { daycount_notice_user: bound, authurl: `http://127.0.0.1/bind/sandbox/token${token}` } };
      case "daycountnoticeunbind":
        bound = bound.filter((u) => u.id !== body.id);
        return { return_code: "SUCCESS", return_msg: "unbind succeeded" };
      default:
        return { return_code: "FAIL", return_msg: `unexpected ${String(body.method)}` };
    }
  });
}

function okButton(): HTMLElement {
  const button = [...document.querySelectorAll<HTMLElement>(".ant-modal-confirm .ant-btn")].find((b) => b.textContent === "OK");
  if (!button) throw new Error("no OK button");
  return button;
}

function cancelButton(): HTMLElement {
  const button = [...document.querySelectorAll<HTMLElement>(".ant-modal-confirm .ant-btn")].find((b) => b.textContent === "Cancel");
  if (!button) throw new Error("no Cancel button");
  return button;
}

beforeAll(async () => {
  await changeLanguage("en");
});
beforeEach(() => {
  clearCookies();
  setCookies({ token: "tok", select_user_type: "service", login_user_type: "service", select_sysid: "5", servicer_ver: "v2" });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("daily report dialog", () => {
  it("shows the binding QR code and the bound users of the provider", async () => {
    const server = dailyServer();
    renderDialog(<DailyReportDialog open onClose={() => {}} sysid="5" />);
    const qr = await screen.findByTestId("daily-report-qr");
    expect(server.of("getdaycountnoticeset").map((c) => c.body)).toEqual([{ method: "getdaycountnoticeset", id: "5" }]);
    expect(qr.getAttribute("data-auth-url")).toBe("http://127.0.0.1/bind/sandbox/token1");
    expect(qr.querySelector("svg")?.getAttribute("width")).toBe("200");
    expect(screen.getByTestId("daily-report-user-11").textContent).toContain("Wang Fang");
    expect(screen.getByTestId("daily-report-user-12").textContent).toContain("Zhao Lei");
  });

  it("refresh asks again for a fresh binding link", async () => {
    const server = dailyServer();
    renderDialog(<DailyReportDialog open onClose={() => {}} sysid="5" />);
    await screen.findByTestId("daily-report-qr");
    fireEvent.click(screen.getByTestId("daily-report-refresh"));
    await waitFor(() => expect(screen.getByTestId("daily-report-qr").getAttribute("data-auth-url")).toBe("http://127.0.0.1/bind/sandbox/token2"));
    expect(server.of("getdaycountnoticeset")).toHaveLength(2);
  });

  it("clicking an avatar asks first; confirming unbinds the user and says so", async () => {
    const server = dailyServer();
    renderDialog(<DailyReportDialog open onClose={() => {}} sysid="5" />);
    fireEvent.click(await screen.findByTestId("daily-report-user-11"));
    expect(await screen.findByText("this will unbind the user, continue?")).toBeTruthy();
    expect(server.of("daycountnoticeunbind")).toHaveLength(0);
    fireEvent.click(okButton());
    expect(await screen.findByText("unbind succeeded")).toBeTruthy();
    expect(server.of("daycountnoticeunbind").map((c) => c.body)).toEqual([{ method: "daycountnoticeunbind", sysid: "5", id: 11 }]);
    await waitFor(() => expect(screen.queryByTestId("daily-report-user-11")).toBeNull());
    expect(screen.getByTestId("daily-report-user-12")).toBeTruthy();
  });

  it("cancelling unbinds nothing and shows 'cancelled'", async () => {
    const server = dailyServer();
    renderDialog(<DailyReportDialog open onClose={() => {}} sysid="5" />);
    fireEvent.click(await screen.findByTestId("daily-report-user-12"));
    await screen.findByText("this will unbind the user, continue?");
    fireEvent.click(cancelButton());
    expect(await screen.findByText("cancelled")).toBeTruthy();
    expect(server.of("daycountnoticeunbind")).toHaveLength(0);
    expect(screen.getByTestId("daily-report-user-12")).toBeTruthy();
  });
});
