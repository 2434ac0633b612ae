/**
 * antd and dayjs texts for the interface language, loaded per language (only one ships with the login page).
 * English is always passed as a locale object too: antd's ConfigProvider wraps its children in a locale
 * provider only when given a locale, so switching between none and one would re-mount the whole application
 * (and empty every form on the page).
 */
import type { Locale } from "antd/es/locale";
// antd's own default, already in the bundle through ConfigProvider
import enUS from "antd/es/locale/en_US";
import dayjs from "dayjs";
import { useEffect, useState } from "react";
import type { Language } from "../../providers/i18n";

// English is antd's and dayjs' built-in language: nothing to load
const loaders: Record<Language, () => Promise<Locale>> = {
  zh: async () => {
    const [antd] = await Promise.all([import("antd/es/locale/zh_CN"), import("dayjs/locale/zh-cn")]);
    return antd.default;
  },
  en: async () => enUS,
  es: async () => {
    const [antd] = await Promise.all([import("antd/es/locale/es_ES"), import("dayjs/locale/es")]);
    return antd.default;
  },
};
const dayjsNames: Record<Language, string> = { zh: "zh-cn", en: "en", es: "es" };
const loaded = new Map<Language, Locale>([["en", enUS]]);

export async function loadAntdLocale(lang: Language): Promise<Locale> {
  let locale = loaded.get(lang);
  if (!locale) {
    locale = await loaders[lang]();
    loaded.set(lang, locale);
  }
  dayjs.locale(dayjsNames[lang]);
  return locale;
}

/** The antd locale of a language; the previous one stays until the new one has loaded. */
export function useAntdLocale(lang: Language): Locale {
  const [locale, setLocale] = useState<Locale>(() => loaded.get(lang) ?? enUS);
  useEffect(() => {
    let live = true;
    void loadAntdLocale(lang).then((l) => live && setLocale(l));
    return () => {
      live = false;
    };
  }, [lang]);
  return locale;
}
