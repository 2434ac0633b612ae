/**
 * The activity board (src/domains/collection/ActivityBoardPage.tsx) in jsdom, only fetch fake: bills paid an amount
 * other than they owe now (a bill changed while its order was open) are flagged, for the whole activity and per
 * class, with what to do about them; a board without any shows no flag.
 */
import { cleanup, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { ActivityBoard, BoardRow } from "../../common/activityBoard";
import { changeLanguage } from "../../providers/i18n";
import { readLocale } from "../../server/lib/locales";
import { renderCrud } from "../helpers/renderCrud";
import { clearCookies, fakeWeapi, setCookies } from "../helpers/weapiFetch";

const board = (readLocale("en").collection as Record<string, Record<string, string>>).board;

const row = (classId: number | null, title: string, differs: number): BoardRow => ({
  class_id: classId,
  class_title: title,
  bills: 30,
  paid: 20,
  unpaid: 10 - differs,
  differs,
  rate: 66.7,
  due: "9000.00",
  collected: "6000.00",
});

function renderBoard(differs: [number, number]) {
  const answer: ActivityBoard = {
    activity: { id: 7, title: "Autumn term fees", status: "open" },
    classes: [row(11, "一年级 1班", differs[0]), row(12, "一年级 2班", differs[1])],
    total: row(null, "", differs[0] + differs[1]),
  };
  fakeWeapi((body) => {
    if (body.method === "activityboard") return { return_code: "SUCCESS", return_msg: "", data: { items: answer } };
    if (body.method === "arrearslist") return { return_code: "SUCCESS", return_msg: "", data: { items: [], total: 0 } };
    return { return_code: "FAIL", return_msg: `unexpected ${String(body.method)}` };
  });
  renderCrud("/activity/activityact/7");
}

beforeAll(async () => {
  await changeLanguage("en");
});
beforeEach(() => {
  clearCookies();
  setCookies({ token: "tok", select_user_type: "service", login_user_type: "service", servicer_ver: "v2", select_sysid: "5", language: "en" });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("the activity board's bills paid another amount", { timeout: 20000 }, () => {
  it("flags them for the activity, with what to do, and per class", async () => {
    renderBoard([2, 0]);
    const flag = await screen.findByTestId("board-differs", undefined, { timeout: 10000 });
    expect(flag.textContent).toContain(`${board.differs}: 2`);
    expect(flag.textContent).toContain(board.differs_hint);
    const classes = screen.getByTestId("board-classes");
    expect(within(classes).getAllByText(board.differs, { selector: "th" }).length).toBeGreaterThan(0);
    const first = within(classes).getByText("一年级 1班").closest("tr")!;
    expect(first.querySelector(".ant-tag")?.textContent).toBe("2");
    const second = within(classes).getByText("一年级 2班").closest("tr")!;
    expect(second.querySelector(".ant-tag")).toBeNull();
  });

  it("shows no flag when every payment matched its bill", async () => {
    renderBoard([0, 0]);
    await waitFor(() => expect(within(screen.getByTestId("board-classes")).getByText("一年级 1班")).toBeTruthy(), { timeout: 10000 });
    expect(screen.queryByTestId("board-differs")).toBeNull();
  });
});
