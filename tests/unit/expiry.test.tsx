/**
 * Subscription expiry (spec 4.2): days left from the end date plus one, the 15-day reminder, the forced
 * renewal dialog at 0 days or less (no close icon), and once per browser session. Only fetch is fake.
 */
import { act, cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { Route } from "react-router";
import { useState } from "react";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { changeLanguage } from "../../providers/i18n";
import { setSessionUser } from "../../providers/session";
import { ShellLayout } from "../../src/shell/ShellLayout";
import { EXPIRY_SHOWN_FLAG, ExpiryReminder } from "../../src/shell/renewal/ExpiryReminder";
import { businessDay, daysLeft, expiryOffer, extendedEnd } from "../../common/term";
import { renderDialog } from "../helpers/renderDialog";
import { clearCookies, fakeWeapi, setCookies } from "../helpers/weapiFetch";

// 2026-11-23 09:00 in Asia/Shanghai
const NOW = new Date("2026-11-23T01:00:00Z");
const now = () => NOW;

/** The end date that leaves `days` days on 2026-11-23. */
function endFor(days: number): string {
  const end = new Date(Date.UTC(2026, 10, 23 + days - 1));
  return end.toISOString().slice(0, 10);
}

/** Lets the effects and answers the last render caused settle (nothing here waits on a timer). */
async function settled(): Promise<void> {
  await act(async () => undefined);
}

function modalWrap(testId: string): HTMLElement | null {
  return document.querySelector<HTMLElement>(`[data-testid="${testId}"] .ant-modal-wrap`);
}

function closeIcon(testId: string): Element | null {
  return document.querySelector(`[data-testid="${testId}"] .ant-modal-close`);
}

beforeAll(async () => {
  await changeLanguage("en");
});
beforeEach(() => {
  clearCookies();
  setCookies({ token: "tok", select_user_type: "school", login_user_type: "school", select_schid: "31", select_sysid: "5", servicer_ver: "v2" });
  fakeWeapi((body) =>
    body.method === "getsetmeal"
      ? { return_code: "SUCCESS", return_msg: "", data: { items: [{ id: 7, title: "One year", fee: "365.00", term_months: 12 }] } }
      : { return_code: "FAIL", return_msg: "No yearly fee is set for this provider" },
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  window.sessionStorage.clear();
});

describe("days left (spec 4.2)", () => {
  it("counts the end date itself: ending today leaves 1 day, yesterday 0", () => {
    expect(daysLeft("2026-11-23", "2026-11-23")).toBe(1);
    expect(daysLeft("2026-11-24", "2026-11-23")).toBe(2);
    expect(daysLeft("2026-11-22", "2026-11-23")).toBe(0);
    expect(daysLeft("2026-11-20T23:59:59+08:00", "2026-11-23")).toBe(-2);
    expect(daysLeft("2027-03-01", "2027-02-27")).toBe(3);
    expect(daysLeft("", "2026-11-23")).toBeNull();
  });

  it("takes today in Asia/Shanghai", () => {
    expect(businessDay(new Date("2026-11-22T16:30:00Z"))).toBe("2026-11-23");
    expect(businessDay(new Date("2026-11-22T15:59:59Z"))).toBe("2026-11-22");
  });

  it("offers a reminder under 15 days and above 0, the forced renewal at 0 or less", () => {
    expect(expiryOffer(15)).toBe("none");
    expect(expiryOffer(14)).toBe("reminder");
    expect(expiryOffer(1)).toBe("reminder");
    expect(expiryOffer(0)).toBe("forced");
    expect(expiryOffer(-3)).toBe("forced");
    expect(expiryOffer(null)).toBe("none");
  });

  it("extends from the later of today and the current end", () => {
    expect(extendedEnd("2027-01-31", 1, "2026-11-23")).toBe("2027-02-28");
    expect(extendedEnd("2026-10-01", 12, "2026-11-23")).toBe("2027-11-23");
    expect(extendedEnd(undefined, 3, "2026-11-23")).toBe("2027-02-23");
    // the calendar ends on 9999-12-31: a term cannot run past it
    expect(extendedEnd("9999-06-30", 6, "2026-11-23")).toBe("9999-12-30");
    expect(extendedEnd("9999-06-30", 7, "2026-11-23")).toBeNull();
  });
});

describe("expiry reminder", () => {
  it("15 days left: nothing shows", async () => {
    renderDialog(<ExpiryReminder kind="school" endTime={endFor(15)} sysid="5" onRenewed={() => {}} now={now} />);
    await settled();
    expect(screen.queryByTestId("expiry-reminder")).toBeNull();
    expect(screen.queryByTestId("renew-dialog")).toBeNull();
  });

  it("1 day left: the reminder with the day count; acknowledging closes it", async () => {
    renderDialog(<ExpiryReminder kind="school" endTime={endFor(1)} sysid="5" onRenewed={() => {}} now={now} />);
    expect((await screen.findByTestId("expiry-reminder-days")).textContent).toContain("1 day(s) left");
    expect(closeIcon("expiry-reminder")).not.toBeNull();
    fireEvent.click(screen.getByTestId("expiry-reminder-ok"));
    const wrap = document.querySelector<HTMLElement>('[data-testid="expiry-reminder"] .ant-modal-wrap');
    expect(wrap?.style.display).toBe("none");
    expect(screen.queryByTestId("renew-dialog")).toBeNull();
  });

  it("renew now opens the quick renewal dialog, which may be closed while days remain", async () => {
    renderDialog(<ExpiryReminder kind="school" endTime={endFor(12)} sysid="5" onRenewed={() => {}} now={now} />);
    expect((await screen.findByTestId("expiry-reminder-days")).textContent).toContain("12 day(s) left");
    fireEvent.click(screen.getByTestId("expiry-renew-now"));
    expect(await screen.findByTestId("renew-dialog")).toBeTruthy();
    expect(closeIcon("renew-dialog")).not.toBeNull();
    expect(await screen.findByTestId("renew-buy-7")).toBeTruthy();
  });

  it("0 days left: a school gets the quick renewal dialog without a close icon", async () => {
    renderDialog(<ExpiryReminder kind="school" endTime={endFor(0)} sysid="5" onRenewed={() => {}} now={now} />);
    expect(await screen.findByTestId("renew-dialog")).toBeTruthy();
    expect(closeIcon("renew-dialog")).toBeNull();
    expect(screen.getByTestId("renew-expired")).toBeTruthy();
    expect(screen.queryByTestId("expiry-reminder")).toBeNull();
  });

  it("-3 days: a provider gets the provider renewal dialog without a close icon", async () => {
    setCookies({ select_user_type: "service", login_user_type: "service" });
    renderDialog(<ExpiryReminder kind="provider" endTime={endFor(-3)} sysid="5" onRenewed={() => {}} now={now} />);
    expect(await screen.findByTestId("provider-renew-dialog")).toBeTruthy();
    expect(closeIcon("provider-renew-dialog")).toBeNull();
    expect(await screen.findByTestId("provider-renew-code-input")).toBeTruthy();
  });

  it("an expired term holds the renewal dialog open on every load: the session flag is for the reminder only", async () => {
    window.sessionStorage.setItem(EXPIRY_SHOWN_FLAG, "1");
    for (let load = 1; load <= 2; load++) {
      const view = renderDialog(<ExpiryReminder kind="school" endTime={endFor(-1)} sysid="5" onRenewed={() => {}} now={now} />);
      expect(await screen.findByTestId("renew-dialog")).toBeTruthy();
      expect(closeIcon("renew-dialog")).toBeNull();
      // neither Esc nor the mask closes it
      fireEvent.keyDown(modalWrap("renew-dialog")!, { key: "Escape", keyCode: 27 });
      fireEvent.click(modalWrap("renew-dialog")!);
      await settled();
      expect(modalWrap("renew-dialog")?.style.display).not.toBe("none");
      expect(screen.queryByTestId("expiry-reminder")).toBeNull();
      view.unmount();
    }
  });

  it("a renewal that moves the end date releases the forced dialog", async () => {
    function Renewing() {
      const [endTime, setEndTime] = useState(endFor(0));
      return (
        <>
          <button type="button" data-testid="renewed" onClick={() => setEndTime(endFor(200))} />
          <ExpiryReminder kind="school" endTime={endTime} sysid="5" onRenewed={() => {}} now={now} />
        </>
      );
    }
    renderDialog(<Renewing />);
    expect(await screen.findByTestId("renew-dialog")).toBeTruthy();
    fireEvent.click(screen.getByTestId("renewed"));
    await waitFor(() => expect(modalWrap("renew-dialog")?.style.display).toBe("none"));
    expect(screen.queryByTestId("expiry-reminder")).toBeNull();
  });

  it("shows once per browser session", async () => {
    const first = renderDialog(<ExpiryReminder kind="school" endTime={endFor(5)} sysid="5" onRenewed={() => {}} now={now} />);
    expect(await screen.findByTestId("expiry-reminder")).toBeTruthy();
    expect(window.sessionStorage.getItem(EXPIRY_SHOWN_FLAG)).not.toBeNull();
    first.unmount();
    renderDialog(<ExpiryReminder kind="school" endTime={endFor(5)} sysid="5" onRenewed={() => {}} now={now} />);
    await settled();
    expect(screen.queryByTestId("expiry-reminder")).toBeNull();
  });

  it("waits for the end date to be known", async () => {
    function Loading() {
      const [endTime, setEndTime] = useState<string | undefined>();
      return (
        <>
          <button type="button" data-testid="loaded" onClick={() => setEndTime(endFor(3))} />
          <ExpiryReminder kind="school" endTime={endTime} sysid="5" onRenewed={() => {}} now={now} />
        </>
      );
    }
    renderDialog(<Loading />);
    await settled();
    expect(screen.queryByTestId("expiry-reminder")).toBeNull();
    expect(window.sessionStorage.getItem(EXPIRY_SHOWN_FLAG)).toBeNull();
    fireEvent.click(screen.getByTestId("loaded"));
    expect((await screen.findByTestId("expiry-reminder-days")).textContent).toContain("3 day(s) left");
  });
});

describe("expiry in the console layout", () => {
  it("a school near its end is reminded; a renewal reloads the school's end date in the top bar", async () => {
    // the layout reads the real clock: 3 days left from today
    const [year, month, day] = businessDay(new Date()).split("-").map(Number);
    const threeDaysLeft = new Date(Date.UTC(year, month - 1, day + 2)).toISOString().slice(0, 10);
    let endtime = threeDaysLeft;
    const server = fakeWeapi((body) => {
      switch (body.method) {
        case "schoolinfo":
          return { return_code: "SUCCESS", return_msg: "", data: { items: { title: "Sunrise No.1", endtime } } };
        case "renew":
          endtime = "2031-01-31";
          return { return_code: "SUCCESS", return_msg: "renewed until 2031-01-31" };
        case "getsetmeal":
          return { return_code: "SUCCESS", return_msg: "", data: { items: [] } };
        default:
          return { return_code: "FAIL", return_msg: "" };
      }
    });
    setSessionUser({ roles: ["schoolv2"], name: "School", avatar: "", introduction: "", username: "school", user_type: "school" });
    renderDialog(<ShellLayout pages={<Route path="*" element={<p>page</p>} />} />, { path: "/Dashboard/Dashboard" });
    expect(await screen.findByTestId("expiry-reminder")).toBeTruthy();
    expect(screen.getByTestId("expiry-reminder-days").textContent).toContain("3 day(s) left");
    expect(screen.getByTestId("header-expiry").textContent).toContain(threeDaysLeft);
    fireEvent.click(screen.getByTestId("expiry-renew-now"));
    fireEvent.click(await screen.findByTestId("renew-tab-code"));
    fireEvent.change(await screen.findByTestId("renew-code-input"), { target: { value: "ABCD-EFGH-JKMN-PQRS-TVWX" } });
    fireEvent.click(screen.getByTestId("renew-code-submit"));
    expect((await screen.findByTestId("pay-result-message")).textContent).toBe("renewed until 2031-01-31");
    await waitFor(() => expect(screen.getByTestId("header-expiry").textContent).toContain("2031-01-31"));
    expect(server.of("schoolinfo")).toHaveLength(2);
    setSessionUser(null);
  });
});
