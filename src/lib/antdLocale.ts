/**
 * antd and dayjs texts for the interface language, loaded per language (only one ships with the login page).
 */
import type { Locale } from "antd/es/locale";
import dayjs from "dayjs";
import { useEffect, useState } from "react";
import type { Language } from "../../providers/i18n";

// English is antd's and dayjs' built-in language: nothing to load
const loaders: Record<Language, () => Promise<Locale | undefined>> = {
  zh: async () => {
    const [antd] = await Promise.all([import("antd/es/locale/zh_CN"), import("dayjs/locale/zh-cn")]);
    return antd.default;
  },
  en: async () => undefined,
  es: async () => {
    const [antd] = await Promise.all([import("antd/es/locale/es_ES"), import("dayjs/locale/es")]);
    return antd.default;
  },
};
const dayjsNames: Record<Language, string> = { zh: "zh-cn", en: "en", es: "es" };
const loaded = new Map<Language, Locale | undefined>();

export async function loadAntdLocale(lang: Language): Promise<Locale | undefined> {
  if (!loaded.has(lang)) loaded.set(lang, await loaders[lang]());
  dayjs.locale(dayjsNames[lang]);
  return loaded.get(lang);
}

/** The antd locale of a language (undefined: English); the previous one stays until the new one has loaded. */
export function useAntdLocale(lang: Language): Locale | undefined {
  const [locale, setLocale] = useState<Locale | undefined>(() => loaded.get(lang));
  useEffect(() => {
    let live = true;
    void loadAntdLocale(lang).then((l) => live && setLocale(l));
    return () => {
      live = false;
    };
  }, [lang]);
  return locale;
}
