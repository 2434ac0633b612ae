/**
 * The add-account form's account type: required (nothing is sent without one), and offering only the types the
 * user may create: a provider its own kinds (school administrators only in v2), an operator operator accounts,
 * an operator switched into a provider that provider's kinds. Only fetch is fake.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { changeLanguage } from "../../providers/i18n";
import { clearCookies, fakeWeapi, setCookies } from "../helpers/weapiFetch";
import { renderCrud } from "../helpers/renderCrud";

function server() {
  return fakeWeapi((body) => {
    if (body.method === "usersadd") return { return_code: "SUCCESS", return_msg: "", data: { items: { id: 1, ...body } } };
    if (body.method === "schoollist") return { return_code: "SUCCESS", return_msg: "", data: { items: [], total: 0 } };
    return { return_code: "FAIL", return_msg: `unexpected ${String(body.method)}` };
  });
}

function formItem(label: string): HTMLElement {
  const item = screen.getByText(label, { selector: "label" }).closest(".ant-form-item");
  if (!item) throw new Error(`no form item ${label}`);
  return item as HTMLElement;
}

/** The account types the form's select offers. */
async function offeredTypes(): Promise<string[]> {
  await screen.findByText("Account type", { selector: "label" }, { timeout: 10000 });
  const selector = formItem("Account type").querySelector(".ant-select-selector");
  if (!selector) throw new Error("no select");
  fireEvent.mouseDown(selector);
  return waitFor(() => {
    const shown = [...document.querySelectorAll<HTMLElement>(".ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option")];
    if (shown.length === 0) throw new Error("no options shown");
    return shown.map((o) => o.getAttribute("title") ?? "");
  });
}

/** the form's Save (beside "Save and add another") */
function save(): void {
  const button = screen.getAllByRole("button").find((b) => b.textContent?.replace(/\s/g, "") === "Save");
  if (!button) throw new Error("no Save button");
  fireEvent.click(button);
}

const operator = { token: "tok", select_user_type: "system", login_user_type: "system", servicer_ver: "v2", is_superadmin: "N", language: "en" };
const provider = { token: "tok", select_user_type: "service", login_user_type: "service", servicer_ver: "v2", select_sysid: "7", language: "en" };

describe("the add-account form's account type", { timeout: 20000 }, () => {
  beforeAll(async () => {
    await changeLanguage("en");
  });
  afterEach(() => {
    cleanup();
    clearCookies();
    vi.unstubAllGlobals();
  });

  it("offers a v2 provider its administrators, school administrators and pickup clerks, never a platform operator", async () => {
    server();
    setCookies(provider);
    renderCrud("/usersv2/usersadd");
    expect(await offeredTypes()).toEqual(["Provider administrator", "Provider school administrator", "Pickup clerk"]);
  });

  it("offers a v1 provider its administrators only (v1 has no school administrators or pickup clerks)", async () => {
    server();
    setCookies({ ...provider, servicer_ver: "v1" });
    renderCrud("/users/usersadd");
    expect(await offeredTypes()).toEqual(["Provider administrator"]);
  });

  it("offers an operator operator accounts only, and once switched into a provider, that provider's kinds", async () => {
    server();
    setCookies(operator);
    renderCrud("/usersv2/usersadd");
    expect(await offeredTypes()).toEqual(["Platform operator"]);
    cleanup();
    setCookies({ ...operator, select_user_type: "service", select_sysid: "7" });
    renderCrud("/usersv2/usersadd");
    expect(await offeredTypes()).toEqual(["Provider administrator", "Provider school administrator", "Pickup clerk"]);
  });

  it("sends nothing until a type is chosen, then the one chosen", async () => {
    const net = server();
    setCookies(provider);
    renderCrud("/usersv2/usersadd");
    await screen.findByText("Account type", { selector: "label" }, { timeout: 10000 });
    for (const [label, value] of [
      ["Username", "clerk_b"],
      ["Password", "secret-1"],
      ["Name", "Clerk B"],
    ]) {
      const input = screen.getByLabelText(label);
      fireEvent.change(input, { target: { value } });
    }
    save();
    expect(await screen.findByText("Please choose Account type")).toBeTruthy();
    expect(net.of("usersadd")).toHaveLength(0);

    const options = await offeredTypes();
    const option = [...document.querySelectorAll<HTMLElement>(".ant-select-item-option")].find((o) => o.getAttribute("title") === options[0]);
    fireEvent.click(option!);
    save();
    await waitFor(() => expect(net.of("usersadd")).toHaveLength(1));
    expect(net.of("usersadd")[0].body).toMatchObject({ username: "clerk_b", name: "Clerk B", user_type: "service" });
  });

  it("checks an account's phone as every phone field is, and sends it once valid", async () => {
    const net = server();
    setCookies(provider);
    renderCrud("/usersv2/usersadd");
    await screen.findByText("Account type", { selector: "label" }, { timeout: 10000 });
    for (const [label, value] of [
      ["Username", "clerk_c"],
      ["Password", "secret-1"],
      ["Name", "Clerk C"],
      ["Phone", "1380013800"],
    ]) {
      fireEvent.change(screen.getByLabelText(label), { target: { value } });
    }
    const options = await offeredTypes();
    fireEvent.click([...document.querySelectorAll<HTMLElement>(".ant-select-item-option")].find((o) => o.getAttribute("title") === options[2])!);
    save();
    await waitFor(() => expect(formItem("Phone").textContent).toContain("Enter a valid phone number"));
    expect(net.of("usersadd")).toHaveLength(0);

    fireEvent.change(screen.getByLabelText("Phone"), { target: { value: "13800138000" } });
    save();
    await waitFor(() => expect(net.of("usersadd")).toHaveLength(1));
    expect(net.of("usersadd")[0].body).toMatchObject({ username: "clerk_c", user_type: "pickup", phone: "13800138000" });
  });
});
