/**
 * The generic add / edit page on the provider entity: client validation from the declaration, virtual fields
 * only on add, what is sent, success and server-side failures. Only fetch is fake.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import dayjs from "dayjs";
import { changeLanguage } from "../../providers/i18n";
import { clearCookies, fakeWeapi, setCookies, type Answer } from "../helpers/weapiFetch";
import { renderCrud } from "../helpers/renderCrud";

const stored = {
  id: 7,
  title: "Sunrise Campus Services",
  contact: "Li Lei",
  phone: "13800000000",
  servicer_ver: "v2",
  end_time: "2026-12-01",
  year_fee: "365.00",
  xcx_upload: "Y",
  is_show_fee: "Y",
  open_activity_mode: "1",
  status: "1",
  remark: "",
  created_at: "2026-01-02T03:04:05.000Z",
};

const ok = (data: unknown) => ({ return_code: "SUCCESS", return_msg: "", data });

function server(overrides: Record<string, Answer> = {}) {
  return fakeWeapi((body, url) => {
    const method = String(body.method);
    if (overrides[method]) return overrides[method](body, url);
    if (method === "servicelist") return ok({ items: [stored], total: 1 });
    if (method === "serviceinfo") return ok({ items: stored });
    if (method === "serviceadd" || method === "serviceedit") return ok({ items: { ...stored, ...body } });
    return { return_code: "FAIL", return_msg: `unexpected ${method}` };
  });
}

function type(label: string, value: string) {
  const input = screen.getByLabelText(label);
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
}

async function pickDate(label: string, date: dayjs.Dayjs) {
  const input = screen.getByLabelText(label);
  fireEvent.mouseDown(input);
  fireEvent.click(input);
  const cell = await waitFor(() => {
    const found = document.querySelector<HTMLElement>(`.ant-picker-dropdown td[title="${date.format("YYYY-MM-DD")}"] .ant-picker-cell-inner`);
    if (!found) throw new Error("calendar not open");
    return found;
  });
  fireEvent.click(cell);
}

const submit = () => fireEvent.click(screen.getByTestId("form-save"));
const location = () => screen.getByTestId("location").textContent;

describe("generic add / edit page (provider entity)", { timeout: 20000 }, () => {
  beforeAll(async () => {
    await changeLanguage("en");
  });
  beforeEach(() => {
    clearCookies();
    setCookies({ token: "tok", select_user_type: "system", login_user_type: "system", servicer_ver: "v2", is_superadmin: "Y", language: "en" });
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    document.querySelectorAll(".ant-message").forEach((m) => m.remove());
  });

  it("requires the declared fields before anything is sent, first account included", async () => {
    const net = server();
    renderCrud("/servicev2/serviceadd");
    await screen.findByLabelText("Administrator username", {}, { timeout: 10000 });
    submit();
    expect(await screen.findByText("Please enter Provider name")).toBeTruthy();
    expect(screen.getByText("Please choose Term ends")).toBeTruthy();
    expect(screen.getByText("Please enter Administrator username")).toBeTruthy();
    expect(screen.getByText("Please enter Administrator password")).toBeTruthy();
    // declared defaults fill the rest
    expect(screen.getByText("New (v2)")).toBeTruthy();
    expect((screen.getByLabelText("Annual fee (yuan)") as HTMLInputElement).value).toBe("0.00");
    expect(net.of("serviceadd")).toHaveLength(0);
  });

  it("checks patterns and lengths with the declaration's messages", async () => {
    server();
    renderCrud("/servicev2/serviceadd");
    await screen.findByLabelText("Administrator username", {}, { timeout: 10000 });
    type("Phone", "call me");
    type("Administrator username", "bad name!");
    type("Administrator password", "12345");
    expect(await screen.findByText("Enter a valid phone number")).toBeTruthy();
    expect(await screen.findByText("The username may contain letters, digits and _ . @ - only")).toBeTruthy();
    expect(await screen.findByText("Administrator password needs at least 6 characters")).toBeTruthy();
  });

  it("cleans money as it is typed and rejects amounts that are not complete or too large", async () => {
    server();
    renderCrud("/servicev2/serviceadd");
    const fee = (await screen.findByLabelText("Annual fee (yuan)", {}, { timeout: 10000 })) as HTMLInputElement;
    type("Annual fee (yuan)", "¥1a2.3.456");
    expect(fee.value).toBe("12.34");
    type("Annual fee (yuan)", "7.");
    expect(await screen.findByText("Enter an amount with at most two decimals")).toBeTruthy();
    type("Annual fee (yuan)", "100000001");
    expect(await screen.findByText("Annual fee (yuan) must be at most 100000000")).toBeTruthy();
  });

  it("adds a provider with its first account, confirms, and returns to the list", async () => {
    const net = server();
    renderCrud("/servicev2/serviceadd");
    await screen.findByLabelText("Administrator username", {}, { timeout: 10000 });
    const endDate = dayjs().startOf("month").add(14, "day");
    type("Provider name", "Harbour Education");
    await pickDate("Term ends", endDate);
    type("Annual fee (yuan)", "365.5");
    type("Administrator username", "harbour_admin");
    type("Administrator password", "secret123");
    submit();

    await waitFor(() => expect(net.of("serviceadd")).toHaveLength(1));
    expect(net.of("serviceadd")[0].body).toEqual({
      method: "serviceadd",
      title: "Harbour Education",
      servicer_ver: "v2",
      end_time: endDate.format("YYYY-MM-DD"),
      year_fee: "365.5",
      xcx_upload: "N",
      is_show_fee: "N",
      open_activity_mode: "1",
      status: "1",
      username: "harbour_admin",
      password: "secret123",
    });
    expect(await screen.findByText("Service provider added")).toBeTruthy();
    await waitFor(() => expect(location()).toBe("/servicev2/servicelist"));
  });

  it("edits a record without the add-only account fields and sends its id", async () => {
    const net = server();
    renderCrud("/servicev2/serviceedit/7");
    await waitFor(() => expect((screen.getByLabelText("Provider name") as HTMLInputElement).value).toBe(stored.title), { timeout: 10000 });
    expect(net.of("serviceinfo")[0].body).toEqual({ method: "serviceinfo", id: "7" });
    expect(screen.queryByLabelText("Administrator username")).toBeNull();
    expect(screen.queryByLabelText("Administrator password")).toBeNull();
    expect((screen.getByLabelText("Term ends") as HTMLInputElement).value).toBe("2026-12-01");

    type("Provider name", "Sunrise Campus Services Ltd");
    submit();
    await waitFor(() => expect(net.of("serviceedit")).toHaveLength(1));
    const sent = net.of("serviceedit")[0].body;
    expect(sent).toMatchObject({ method: "serviceedit", id: "7", title: "Sunrise Campus Services Ltd", end_time: "2026-12-01", year_fee: "365.00" });
    expect(sent).not.toHaveProperty("username");
    expect(sent).not.toHaveProperty("password");
    expect(sent).not.toHaveProperty("created_at");
    expect(await screen.findByText("Saved")).toBeTruthy();
    await waitFor(() => expect(location()).toBe("/servicev2/servicelist"));
  });

  it("shows a refused save once as a toast, with the server's field errors under their fields", async () => {
    const net = server({
      serviceedit: () => ({
        return_code: "FAIL",
        return_msg: "Invalid parameter: title",
        data: { errors: [{ field: "title", message: "Provider name already exists" }] },
      }),
    });
    renderCrud("/servicev2/serviceedit/7");
    await waitFor(() => expect((screen.getByLabelText("Provider name") as HTMLInputElement).value).toBe(stored.title), { timeout: 10000 });
    submit();
    expect(await screen.findByText("Provider name already exists")).toBeTruthy();
    expect(await screen.findByText("Invalid parameter: title")).toBeTruthy();
    // the save has settled (its button no longer loading): any second notice would be on screen by now
    await waitFor(() => expect(screen.getByTestId("form-save").classList.contains("ant-btn-loading")).toBe(false));
    await act(async () => undefined);
    expect(screen.getAllByText("Invalid parameter: title")).toHaveLength(1);
    expect(net.of("serviceedit")).toHaveLength(1);
    expect(location()).toBe("/servicev2/serviceedit/7");
  });
});

describe("an add form whose record has a next step (a payment channel's submission)", { timeout: 30000 }, () => {
  beforeAll(async () => {
    await changeLanguage("en");
  });
  beforeEach(() => {
    clearCookies();
    setCookies({ token: "tok", select_user_type: "service", login_user_type: "service", select_sysid: "5", servicer_ver: "v2", language: "en" });
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    document.querySelectorAll(".ant-message").forEach((m) => m.remove());
  });

  /** the channel server: the add answers the new draft, the submission as told */
  function channelServer(submit: Answer) {
    return fakeWeapi((body, url) => {
      const method = String(body.method);
      if (method === "paychnladd") return ok({ items: { id: 41, status: "draft", ...body } });
      if (method === "paychnlsubmit") return submit(body, url);
      if (method === "paychnllist") return ok({ items: [], total: 0 });
      return { return_code: "FAIL", return_msg: `unexpected ${method}` };
    });
  }

  it("says that the review comes next and saves and submits in one click", async () => {
    const net = channelServer(() => ok({ items: { id: 41, status: "submitted" } }));
    renderCrud("/sysadminv2/paychnladd");
    expect((await screen.findByTestId("form-next-step", {}, { timeout: 10000 })).textContent).toContain("the next step is to submit it for the platform's review");
    type("Channel name", "Sunrise WeChat Pay");
    fireEvent.click(screen.getByTestId("form-save-and-paychnlsubmit"));
    await waitFor(() => expect(net.of("paychnlsubmit")).toHaveLength(1));
    expect(net.of("paychnladd")).toHaveLength(1);
    expect(net.of("paychnlsubmit")[0].body).toEqual({ method: "paychnlsubmit", sysid: "5", id: 41 });
    await waitFor(() => expect(location()).toBe("/sysadminv2/paychnllist"));
  });

  it("keeps the channel saved when its submission is refused, and says why", async () => {
    const net = channelServer(() => ({ return_code: "FAIL", return_msg: "Bank account is missing" }));
    renderCrud("/sysadminv2/paychnladd");
    await screen.findByTestId("form-save-and-paychnlsubmit", {}, { timeout: 10000 });
    type("Channel name", "Sunrise WeChat Pay");
    fireEvent.click(screen.getByTestId("form-save-and-paychnlsubmit"));
    expect(await screen.findByText('Payment channel saved, but “Submit for review” did not go through: Bank account is missing. It can be done again from the list.')).toBeTruthy();
    expect(net.of("paychnladd")).toHaveLength(1);
    await waitFor(() => expect(location()).toBe("/sysadminv2/paychnllist"));
  });
});
