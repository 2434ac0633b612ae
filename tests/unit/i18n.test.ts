import Cookies from "js-cookie";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { changeLanguage, chooseLanguage, currentLanguage, i18n, i18nProvider, i18nReady } from "../../providers/i18n";

beforeAll(async () => {
  await i18nReady;
});
afterEach(() => Cookies.remove("language"));

describe("language choice (spec 9)", () => {
  it("takes the cookie first", () => {
    expect(chooseLanguage("es", ["zh-CN"])).toBe("es");
  });

  it("then the browser languages in order (zh*, es*, en*)", () => {
    expect(chooseLanguage(undefined, ["zh-CN", "en"])).toBe("zh");
    expect(chooseLanguage("", ["fr-FR", "es-MX"])).toBe("es");
    expect(chooseLanguage("de", ["en-GB"])).toBe("en");
  });

  it("else en", () => {
    expect(chooseLanguage(undefined, ["fr-FR", "de"])).toBe("en");
    expect(chooseLanguage(undefined, [])).toBe("en");
  });

  it("switching stores the cookie and loads that locale", async () => {
    await changeLanguage("es");
    expect(Cookies.get("language")).toBe("es");
    expect(currentLanguage()).toBe("es");
    expect(i18n.t("errors.network")).toBe("Error de red");
    await changeLanguage("zh");
    expect(i18n.t("errors.network")).toBe("网络错误");
  });
});

describe("refine i18nProvider", () => {
  it("translates known keys and answers refine's default message for missing ones", async () => {
    await changeLanguage("en");
    expect(i18nProvider.translate("shell.tab_close_all")).toBe("Close all");
    expect(i18nProvider.translate("buttons.save", undefined, "Save")).toBe("Save");
    expect(i18nProvider.getLocale()).toBe("en");
  });
});
