/**
 * Failed reads on the generic pages, mounted with the console's own refine options (renderCrud): a list whose read fails
 * shows the one toast of the weapi client and stops loading, with a retry; an edit or detail page for a
 * record that does not exist shows one error and a not-found state, never an empty form. Only fetch is fake.
 */
import { act, cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { changeLanguage } from "../../providers/i18n";
import { renderCrud } from "../helpers/renderCrud";
import { clearCookies, setCookies } from "../helpers/weapiFetch";

/** the error toasts of the page mounted last */
let errors: string[] = [];
function renderConsolePage(path: string): void {
  errors = renderCrud(path).toasts.errors;
}

type Reply = Record<string, unknown> | "network-error";

/** fetch answering each operation with an envelope, or failing as a lost connection does. */
function fakeNetwork(reply: (method: string) => Reply) {
  const calls: string[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (_url: string, init: RequestInit) => {
      const method = String((JSON.parse(String(init.body)) as { method: string }).method);
      calls.push(method);
      const answer = reply(method);
      if (answer === "network-error") throw new TypeError("Failed to fetch");
      return { ok: true, status: 200, json: async () => answer } as unknown as Response;
    }),
  );
  return { of: (method: string) => calls.filter((c) => c === method).length };
}

const providerRow = { id: 3, title: "Harbour Education Services", contact: "Chen Jing", phone: "0755-5550202", servicer_ver: "v2", end_time: "2026-11-19", xcx_upload: "N", status: "1", created_at: "2026-01-01T00:00:00.000Z" };

beforeAll(async () => {
  await changeLanguage("en");
});
beforeEach(() => {
  clearCookies();
  setCookies({ token: "tok", select_user_type: "system", login_user_type: "system", servicer_ver: "v2", is_superadmin: "Y" });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("a list whose read fails", () => {
  it("shows one toast, stops loading and offers a retry that reads again", async () => {
    let online = false;
    const net = fakeNetwork((method) =>
      method !== "servicelist" ? { return_code: "FAIL", return_msg: "" } : online ? { return_code: "SUCCESS", return_msg: "", data: { items: [providerRow], total: 1 } } : "network-error",
    );
    renderConsolePage("/servicev2/servicelist");
    expect(await screen.findByTestId("list-load-failed")).toBeTruthy();
    expect(document.querySelector(".ant-table .ant-spin-spinning")).toBeNull();
    await act(async () => undefined);
    expect(net.of("servicelist")).toBe(1);
    expect(errors).toEqual(["Network error"]);

    online = true;
    fireEvent.click(screen.getByTestId("list-retry"));
    expect(await screen.findByText("Harbour Education Services")).toBeTruthy();
    expect(net.of("servicelist")).toBe(2);
    expect(screen.queryByTestId("list-load-failed")).toBeNull();
    expect(errors).toHaveLength(1);
  });
});

describe("a record that does not exist", () => {
  it("edit: the server's refusal once, and a not-found state instead of an empty form", async () => {
    const net = fakeNetwork((method) => (method === "serviceinfo" ? { return_code: "FAIL", return_msg: "Record not found" } : { return_code: "FAIL", return_msg: "" }));
    renderConsolePage("/servicev2/serviceedit/999");
    expect(await screen.findByTestId("record-not-found")).toBeTruthy();
    expect(screen.getByText("Service provider not found: it does not exist or is no longer available to you.")).toBeTruthy();
    expect(screen.queryByLabelText("Provider name")).toBeNull();
    expect(screen.queryByRole("button", { name: /Save/ })).toBeNull();
    await act(async () => undefined);
    expect(net.of("serviceinfo")).toBe(1);
    expect(errors).toEqual(["Record not found"]);
  });

  it("edit: an answer without the record is a missing record too, not an empty one", async () => {
    fakeNetwork((method) => (method === "serviceinfo" ? { return_code: "SUCCESS", return_msg: "", data: {} } : { return_code: "FAIL", return_msg: "" }));
    renderConsolePage("/servicev2/serviceedit/998");
    expect(await screen.findByTestId("record-not-found")).toBeTruthy();
    expect(screen.queryByLabelText("Provider name")).toBeNull();
  });

  it("edit: a network failure offers a retry, which loads the form", async () => {
    let online = false;
    fakeNetwork((method) => (method !== "serviceinfo" ? { return_code: "FAIL", return_msg: "" } : online ? { return_code: "SUCCESS", return_msg: "", data: { items: providerRow } } : "network-error"));
    renderConsolePage("/servicev2/serviceedit/3");
    expect(await screen.findByTestId("record-load-failed")).toBeTruthy();
    expect(errors).toEqual(["Network error"]);
    online = true;
    fireEvent.click(screen.getByTestId("record-retry"));
    await waitFor(() => expect((screen.getByLabelText("Provider name") as HTMLInputElement).value).toBe("Harbour Education Services"));
  });

  it("detail: one error and a not-found state", async () => {
    setCookies({ select_user_type: "service", login_user_type: "service", select_sysid: "1", is_superadmin: "N" });
    const net = fakeNetwork((method) => (method === "schoolrenewinfo" ? { return_code: "FAIL", return_msg: "Record not found" } : { return_code: "FAIL", return_msg: "" }));
    renderConsolePage("/schoolv2/schoolrenewinfo/42");
    expect(await screen.findByTestId("record-not-found")).toBeTruthy();
    await act(async () => undefined);
    expect(net.of("schoolrenewinfo")).toBe(1);
    expect(errors).toEqual(["Record not found"]);
  });
});
