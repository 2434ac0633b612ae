/** Language switch (spec 9): zh, en, es, remembered in the `language` cookie. */
import { Segmented } from "antd";
import { useTranslation } from "react-i18next";
import { changeLanguage, currentLanguage, LANGUAGES, type Language } from "../providers/i18n";

export const LANGUAGE_NAMES: Record<Language, string> = { zh: "中文", en: "EN", es: "ES" };

export function LanguageSwitch() {
  const { t } = useTranslation();
  return (
    <Segmented<Language>
      data-testid="language-switch"
      aria-label={t("shell.language")}
      size="small"
      value={currentLanguage()}
      options={LANGUAGES.map((l) => ({ value: l, label: <span data-testid={`language-${l}`}>{LANGUAGE_NAMES[l]}</span> }))}
      onChange={(lang) => void changeLanguage(lang)}
    />
  );
}
