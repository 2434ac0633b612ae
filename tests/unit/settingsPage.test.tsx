/**
 * The settings page kind on the site settings (sysset): the form is built from the declaration and filled from
 * syssetinfo, client rules refuse what the server would, a save sends every field to syssetedit and says so,
 * the server's field errors go under their fields, and the console's title follows a save at once. Only fetch
 * is fake.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { changeLanguage } from "../../providers/i18n";
import { declaredPageRoutes } from "../../src/engine";
import { menus } from "../../resources.config";
import { loadSiteSettings } from "../../src/lib/site";
import enSite from "../../locales/en/site.json";
import { en } from "../helpers/locales";
import { renderCrud } from "../helpers/renderCrud";
import { clearCookies, fakeWeapi, setCookies, type Answer } from "../helpers/weapiFetch";

const stored = {
  title: "Campus Pay Console",
  keywords: "campus, fees",
  description: "Back office",
  icon: null,
  kfurl: "https://support.example.com/chat",
  user_manual_url: "https://docs.example.com/manual",
};

const ok = (data: unknown) => ({ return_code: "SUCCESS", return_msg: "", data });

function server(overrides: Record<string, Answer> = {}) {
  let record: Record<string, unknown> = { ...stored };
  return fakeWeapi((body, url) => {
    const method = String(body.method);
    if (overrides[method]) return overrides[method](body, url);
    if (method === "syssetinfo") return ok({ items: record });
    if (method === "syssetedit") {
      const { method: _method, ...fields } = body;
      record = { ...record, ...fields };
      return ok({ items: record });
    }
    if (method === "getwebsetinfo") return ok({ items: { title: record.title, keywords: record.keywords, description: record.description, icon: record.icon ?? "", kfurl: record.kfurl } });
    return { return_code: "FAIL", return_msg: `unexpected ${method}` };
  });
}

function type(label: string, value: string) {
  const input = screen.getByLabelText(label);
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
}

const save = () => fireEvent.click(screen.getByTestId("settings-page-save"));
const field = (name: string) => screen.getByTestId(`settings-field-${name}`) as HTMLInputElement;

describe("settings page (site settings)", { timeout: 20000 }, () => {
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

  it("is mounted at the settings routes of both generations", () => {
    const settingsRoutes = menus.flatMap((group) =>
      group.children.filter((e) => e.page?.kind === "settings" && e.page.settings === "sysset").map((e) => `/${group.path}/${e.name}`),
    );
    expect(settingsRoutes.sort()).toEqual(["/sysadmin/sysset", "/sysadminv2/sysset"]);
    expect(declaredPageRoutes().map((r) => r.route)).toEqual(expect.arrayContaining(settingsRoutes));
  });

  it("shows the saved record in a form built from the declaration", async () => {
    const net = server();
    renderCrud("/sysadminv2/sysset");
    await waitFor(() => expect(field("title").value).toBe("Campus Pay Console"), { timeout: 10000 });
    expect(screen.getByText(en.menu.sysset)).toBeTruthy();
    for (const label of Object.values(enSite.field)) expect(screen.getByLabelText(label)).toBeTruthy();
    expect(field("kfurl").value).toBe("https://support.example.com/chat");
    expect(field("icon").value).toBe("");
    expect(net.of("syssetinfo")[0]!.body).toEqual({ method: "syssetinfo" });
  });

  it("refuses in the browser what the server would refuse, naming the field", async () => {
    const net = server();
    renderCrud("/sysadminv2/sysset");
    await waitFor(() => expect(field("title").value).toBe("Campus Pay Console"), { timeout: 10000 });
    type(enSite.field.title, " ");
    type(enSite.field.icon, "logo.png");
    type(enSite.field.kfurl, "support.example.com");
    save();
    expect(await screen.findByText(en.validation.required.replace("{{label}}", enSite.field.title))).toBeTruthy();
    expect(screen.getByText(en.validation.image)).toBeTruthy();
    expect(screen.getByText(enSite.validation.link)).toBeTruthy();
    expect(net.of("syssetedit")).toHaveLength(0);
  });

  it("saves every field, says so, and the console's title follows at once", async () => {
    const net = server();
    await loadSiteSettings();
    renderCrud("/sysadminv2/sysset");
    await waitFor(() => expect(field("title").value).toBe("Campus Pay Console"), { timeout: 10000 });
    type(enSite.field.title, "  Sunrise Pay  ");
    type(enSite.field.keywords, "");
    type(enSite.field.icon, "https://cdn.example.com/logo.png");
    save();
    await waitFor(() => expect(net.of("syssetedit")).toHaveLength(1));
    expect(net.of("syssetedit")[0]!.body).toEqual({
      method: "syssetedit",
      title: "Sunrise Pay",
      keywords: "",
      description: "Back office",
      icon: "https://cdn.example.com/logo.png",
      kfurl: "https://support.example.com/chat",
      user_manual_url: "https://docs.example.com/manual",
    });
    expect(await screen.findByText(en.crud.saved)).toBeTruthy();
    await waitFor(() => expect(document.title).toBe("Sunrise Pay"));
    expect(document.querySelector<HTMLLinkElement>('link[rel="icon"]')?.href).toBe("https://cdn.example.com/logo.png");
  });

  it("puts the server's field errors under their fields", async () => {
    server({
      syssetedit: () => ({
        return_code: "FAIL",
        return_msg: "Invalid parameter: user_manual_url",
        data: { errors: [{ field: "user_manual_url", message: "User manual link is not reachable" }] },
      }),
    });
    renderCrud("/sysadminv2/sysset");
    await waitFor(() => expect(field("title").value).toBe("Campus Pay Console"), { timeout: 10000 });
    save();
    expect(await screen.findByText("User manual link is not reachable")).toBeTruthy();
    expect(screen.queryByText(en.crud.saved)).toBeNull();
  });

  it("offers a retry when the record could not be read, never an empty form", async () => {
    let fail = true;
    server({ syssetinfo: () => (fail ? { return_code: "FAIL", return_msg: "No permission" } : ok({ items: stored })) });
    renderCrud("/sysadminv2/sysset");
    await screen.findByTestId("settings-page-load-failed", {}, { timeout: 10000 });
    expect(screen.queryByTestId("settings-page-form")).toBeNull();
    fail = false;
    fireEvent.click(screen.getByTestId("settings-page-retry"));
    await waitFor(() => expect(field("title").value).toBe("Campus Pay Console"));
  });
});
