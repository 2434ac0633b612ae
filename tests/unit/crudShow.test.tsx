/**
 * The generic detail page, mounted on a test route because no built menu entry opens one yet. Only fetch is
 * fake.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { Route } from "react-router";
import { changeLanguage } from "../../providers/i18n";
import CrudShow from "../../src/engine/CrudShow";
import { clearCookies, fakeWeapi, setCookies } from "../helpers/weapiFetch";
import { renderCrud } from "../helpers/renderCrud";

const record = {
  id: 7,
  title: "Sunrise Campus Services",
  servicer_ver: "v2",
  end_time: "2026-12-01",
  year_fee: "365.00",
  xcx_upload: "Y",
  status: "0",
};

describe("generic detail page", { timeout: 20000 }, () => {
  beforeAll(async () => {
    await changeLanguage("en");
  });
  beforeEach(() => {
    clearCookies();
    setCookies({ token: "tok", select_user_type: "system", servicer_ver: "v2", language: "en" });
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it("shows the record's detail fields as labelled values and leads to its edit route", async () => {
    const net = fakeWeapi((body) =>
      body.method === "serviceinfo" ? { return_code: "SUCCESS", return_msg: "", data: { items: record } } : { return_code: "FAIL", return_msg: "unexpected" },
    );
    renderCrud("/detail/7", <Route path="detail/:id" element={<CrudShow resource="service@servicev2" />} />);
    expect(await screen.findByText("Sunrise Campus Services", {}, { timeout: 10000 })).toBeTruthy();
    expect(net.of("serviceinfo")[0].body).toEqual({ method: "serviceinfo", id: "7" });
    const labelled = (label: string) => screen.getByText(label, { selector: "th *, th" }).closest("tr")?.textContent;
    expect(labelled("Annual fee (yuan)")).toContain("¥365.00");
    expect(labelled("Status")).toContain("Disabled");
    expect(labelled("Mini-program upload")).toContain("Yes");
    expect(labelled("Remarks")).toContain("-");
    // write-only and add-only fields never show
    expect(screen.queryByText("Administrator password")).toBeNull();

    fireEvent.click(screen.getByRole("button", { name: /Edit/ }));
    await waitFor(() => expect(screen.getByTestId("location").textContent).toBe("/servicev2/serviceedit/7"));
  });
});
