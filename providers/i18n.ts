/**
 * i18next with the three locales (spec 9): language from the `language` cookie, else the browser's language
 * (zh*, es*, en*), else en. Each locale is its own chunk of the browser's namespaces (providers/locales.ts),
 * loaded when chosen (only one ships with the login page). The refine i18nProvider passes refine's default
 * message as defaultValue, because i18next answers a missing key with the key itself.
 */
import i18next from "i18next";
import { initReactI18next } from "react-i18next";
import type { I18nProvider } from "@refinedev/core";
import { loadMessages } from "./locales";
import { getCookie, setCookie } from "./session";

export const LANGUAGES = ["zh", "en", "es"] as const;
export type Language = (typeof LANGUAGES)[number];

function supported(tag: string | null | undefined): Language | undefined {
  const lower = (tag ?? "").toLowerCase();
  return LANGUAGES.find((l) => lower === l || lower.startsWith(`${l}-`) || lower.startsWith(`${l}_`));
}

/** Spec 9: the cookie, then the browser languages in order of preference, then en. */
export function chooseLanguage(cookieValue: string | undefined, browserLanguages: readonly string[]): Language {
  return supported(cookieValue) ?? browserLanguages.map(supported).find((l) => l !== undefined) ?? "en";
}

function browserLanguages(): string[] {
  if (typeof navigator === "undefined") return [];
  return navigator.languages?.length ? [...navigator.languages] : [navigator.language];
}

const initialLanguage = chooseLanguage(getCookie("language"), browserLanguages());

export const i18n = i18next.createInstance();
void i18n.use(initReactI18next).init({
  resources: {},
  partialBundledLanguages: true,
  lng: initialLanguage,
  // every text exists in all three locales, so no second locale is fetched as a fallback
  fallbackLng: false,
  interpolation: { escapeValue: false },
  initAsync: false,
  returnNull: false,
  showSupportNotice: false,
});

async function loadLocale(lang: Language): Promise<void> {
  if (i18n.hasResourceBundle(lang, "translation")) return;
  i18n.addResourceBundle(lang, "translation", await loadMessages(lang), true, true);
}

/** Resolves when the initial language's texts are loaded: render after it. */
export const i18nReady: Promise<void> = loadLocale(initialLanguage).then(async () => {
  await i18n.changeLanguage(initialLanguage);
});

export function currentLanguage(): Language {
  return supported(i18n.language) ?? "en";
}

/** Switches the interface language and remembers it in the `language` cookie (the server reads it too). */
export async function changeLanguage(lang: Language): Promise<void> {
  setCookie("language", lang);
  await loadLocale(lang);
  await i18n.changeLanguage(lang);
  document.documentElement.lang = lang;
}

export const i18nProvider: I18nProvider = {
  translate: (key, options, defaultMessage) =>
    String(i18n.t(key, { ...(typeof options === "object" ? options : {}), defaultValue: defaultMessage ?? key })),
  changeLocale: (lang) => changeLanguage(supported(lang) ?? "en"),
  getLocale: () => currentLanguage(),
};
