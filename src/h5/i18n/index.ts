/**
 * The payer pages' own messages (zh, en, es), apart from the console's locales/: a few dozen texts that ship
 * with the page's script. The language is the `language` cookie (shared with the console, and read by the server
 * for the messages of its answers), else the browser's languages in order, else zh, the language of the schools.
 */
import { createContext, useContext } from "react";
import { en, type MessageKey, type Messages } from "./en";
import { es } from "./es";
import { zh } from "./zh";

export const H5_LANGUAGES = ["zh", "en", "es"] as const;
export type H5Language = (typeof H5_LANGUAGES)[number];
export type { MessageKey, Messages };

export const h5Messages: Record<H5Language, Messages> = { zh, en, es };

function supported(tag: string | null | undefined): H5Language | undefined {
  const lower = (tag ?? "").trim().toLowerCase();
  return H5_LANGUAGES.find((l) => lower === l || lower.startsWith(`${l}-`) || lower.startsWith(`${l}_`));
}

/** The cookie, then the browser's languages in order of preference, then zh. */
export function chooseH5Language(cookieValue: string | undefined, browserLanguages: readonly string[]): H5Language {
  return supported(cookieValue) ?? browserLanguages.map(supported).find((l) => l !== undefined) ?? "zh";
}

function languageCookie(): string | undefined {
  if (typeof document === "undefined") return undefined;
  const entry = document.cookie.split(";").find((part) => part.trim().startsWith("language="));
  return entry ? decodeURIComponent(entry.trim().slice("language=".length)) : undefined;
}

function browserLanguages(): string[] {
  if (typeof navigator === "undefined") return [];
  return navigator.languages?.length ? [...navigator.languages] : [navigator.language];
}

export function initialH5Language(): H5Language {
  return chooseH5Language(languageCookie(), browserLanguages());
}

/** Remembers the choice as the console does (the server answers in it too). */
export function rememberH5Language(language: H5Language): void {
  // Secure when the page came over https, as the console's cookies (providers/session.ts)
  const secure = window.location.protocol === "https:" ? "; secure" : "";
  document.cookie = `language=${language}; path=/; max-age=${365 * 24 * 3600}; samesite=lax${secure}`;
  document.documentElement.lang = language === "zh" ? "zh-CN" : language;
}

export type Translate = (key: MessageKey, params?: Record<string, string | number>) => string;

export function translator(language: H5Language): Translate {
  const messages = h5Messages[language];
  return (key, params) => messages[key].replace(/\{(\w+)\}/g, (whole, name: string) => (params && name in params ? String(params[name]) : whole));
}

export interface I18nValue {
  language: H5Language;
  t: Translate;
  setLanguage(language: H5Language): void;
}

export const I18nContext = createContext<I18nValue>({ language: "zh", t: translator("zh"), setLanguage: () => undefined });

export function useI18n(): I18nValue {
  return useContext(I18nContext);
}
