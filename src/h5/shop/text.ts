/** The shop's messages in the page's language (the language switch of the payer page chooses it). */
import { useMemo } from "react";
import { useI18n, type H5Language } from "../i18n";
import { shopEn, type ShopMessageKey, type ShopMessages } from "../i18n/shop.en";
import { shopEs } from "../i18n/shop.es";
import { shopZh } from "../i18n/shop.zh";

const messages: Record<H5Language, ShopMessages> = { zh: shopZh, en: shopEn, es: shopEs };

export type ShopTranslate = (key: ShopMessageKey, params?: Record<string, string | number>) => string;

export function shopTranslator(language: H5Language): ShopTranslate {
  const set = messages[language];
  return (key, params) => set[key].replace(/\{(\w+)\}/g, (whole, name: string) => (params && name in params ? String(params[name]) : whole));
}

/** the page's own `t` (shared texts: retry, currency...) and the shop's `s` */
export function useShopText() {
  const i18n = useI18n();
  const s = useMemo(() => shopTranslator(i18n.language), [i18n.language]);
  return { ...i18n, s };
}

/** a list as the language writes it: "尺码、颜色", "size, colour" */
export function listText(language: H5Language, items: readonly string[]): string {
  return items.join(language === "zh" ? "、" : ", ");
}
