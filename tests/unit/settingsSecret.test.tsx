/**
 * A secret on a settings page (a password field: qwkfset's corp secret): never read back, its box empty whatever
 * was saved, saying whether one is saved; sent only when typed, so that a save with the box left empty keeps the
 * saved one. Only fetch is fake.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { changeLanguage } from "../../providers/i18n";
import enQwkf from "../../locales/en/qwkf.json";
import { en } from "../helpers/locales";
import { renderCrud } from "../helpers/renderCrud";
import { clearCookies, fakeWeapi, setCookies } from "../helpers/weapiFetch";

const SECRET = "Qm9vNkN1c3RvbWVyU2VydmljZVNlY3JldDAxMjM0NTY";
const ok = (data: unknown) => ({ return_code: "SUCCESS", return_msg: "", data });

function server() {
  let hasSecret = false;
  let record: Record<string, unknown> = { contact_enabled: "N", contact_kf_id: null, corp_id: "ww6a1d2b3c4e5f6071" };
  return fakeWeapi((body) => {
    const { method, ...fields } = body;
    if (method === "qwkfsetinfo") return ok({ items: { ...record, has_corp_secret: hasSecret } });
    if (method === "qwkfsetedit") {
      const { corp_secret: secret, ...rest } = fields;
      if (typeof secret === "string" && secret !== "") hasSecret = true;
      record = { ...record, ...rest };
      return ok({ items: { ...record, has_corp_secret: hasSecret } });
    }
    if (method === "qwkflist") return ok({ items: [], total: 0 });
    return { return_code: "FAIL", return_msg: `unexpected ${String(method)}` };
  });
}

const secretBox = () => screen.getByTestId("settings-field-corp_secret") as HTMLInputElement;
const secretState = () => screen.getByTestId("settings-secret-corp_secret").textContent;

describe("a secret on a settings page", { timeout: 20000 }, () => {
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
    document.querySelectorAll(".ant-message").forEach((m) => m.remove());
  });

  it("is sent when typed, never shown again, and kept by a save that leaves its box empty", async () => {
    const net = server();
    renderCrud("/sysadminv2/qwkfset");
    await waitFor(() => expect(secretState()).toBe(en.crud.secret_unsaved), { timeout: 10000 });
    expect(secretBox().value).toBe("");

    fireEvent.change(secretBox(), { target: { value: SECRET } });
    fireEvent.click(screen.getByTestId("settings-page-save"));
    await waitFor(() => expect(net.of("qwkfsetedit")).toHaveLength(1));
    expect(net.of("qwkfsetedit")[0]!.body).toMatchObject({ corp_id: "ww6a1d2b3c4e5f6071", corp_secret: SECRET });
    await waitFor(() => expect(secretState()).toBe(en.crud.secret_saved));
    expect(secretBox().value).toBe("");

    // saved again with the box left empty: no secret sent, so the saved one stays
    fireEvent.click(screen.getByTestId("settings-page-save"));
    await waitFor(() => expect(net.of("qwkfsetedit")).toHaveLength(2));
    expect(net.of("qwkfsetedit")[1]!.body).not.toHaveProperty("corp_secret");
    await waitFor(() => expect(secretState()).toBe(en.crud.secret_saved));
  });

  it("refuses in the browser a secret not in enterprise WeChat's form, naming it", async () => {
    const net = server();
    renderCrud("/sysadminv2/qwkfset");
    await waitFor(() => expect(secretState()).toBe(en.crud.secret_unsaved), { timeout: 10000 });
    fireEvent.change(secretBox(), { target: { value: "not a secret" } });
    fireEvent.click(screen.getByTestId("settings-page-save"));
    expect(await screen.findByText(enQwkf.corp_secret_format)).toBeTruthy();
    expect(net.of("qwkfsetedit")).toHaveLength(0);
  });
});
