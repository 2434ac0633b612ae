/**
 * Server-side messages: the "api" namespace (and the catalogue's labels) of locales/<lang>/ through i18next, in
 * the language of the request (`language` cookie, then Accept-Language, zh by default).
 */
import i18next, { type TFunction } from "i18next";
import { readLocale } from "./locales";

export const LANGUAGES = ["zh", "en", "es"] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = "zh";

const i18n = i18next.createInstance();
void i18n.init({
  resources: Object.fromEntries(LANGUAGES.map((language) => [language, { translation: readLocale(language) }])),
  lng: DEFAULT_LANGUAGE,
  fallbackLng: DEFAULT_LANGUAGE,
  initAsync: false,
  // messages are JSON strings, never HTML
  interpolation: { escapeValue: false },
  showSupportNotice: false,
});

export type Translate = (key: string, params?: Record<string, string | number>) => string;

const MAX_CACHED_MESSAGES = 5000;

function fixedTranslator(language: Language): Translate {
  const t: TFunction = i18n.getFixedT(language);
  // a message without parameters is the same text every time (every success answers "api.ok"); i18next's
  // lookup costs as much as a small list's serialisation, so each is looked up once (keys come from the code:
  // the bound only keeps a mistake from growing it)
  const plain = new Map<string, string>();
  return (key, params) => {
    // a catalogue label asked with its fallback (labelText: every cell of an export) is as fixed as a plain one
    const keys = params === undefined ? 0 : Object.keys(params).length;
    const fallbackOnly = keys === 1 && params?.defaultValue !== undefined;
    // a failure without parameters carries an empty object (ApiFailure's default): as fixed as none
    if (keys > 0 && !fallbackOnly) return t(key, params) as string;
    const cacheKey = fallbackOnly ? `${key}\u0000${String(params?.defaultValue)}` : key;
    let text = plain.get(cacheKey);
    if (text === undefined) {
      text = t(key, (fallbackOnly && params) || {}) as string;
      if (plain.size < MAX_CACHED_MESSAGES) plain.set(cacheKey, text);
    }
    return text;
  };
}
// one per language, built once: every request needs one
const translators = new Map<Language, Translate>(LANGUAGES.map((language) => [language, fixedTranslator(language)]));

export function translator(language: Language): Translate {
  return translators.get(language) ?? fixedTranslator(language);
}

/** Translation of a catalogue label key, or `fallback` when the key has no text yet. */
export function labelText(t: Translate, key: string, fallback: string): string {
  const text = t(key, { defaultValue: fallback });
  return text === key ? fallback : text;
}

function toLanguage(tag: string | undefined): Language | undefined {
  const base = tag?.trim().toLowerCase().split(/[-_;]/)[0];
  return LANGUAGES.find((l) => l === base);
}

function cookieValue(cookieHeader: string | undefined, name: string): string | undefined {
  if (!cookieHeader) return undefined;
  for (const part of cookieHeader.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

export function requestLanguage(headers: { cookie?: string; "accept-language"?: string }): Language {
  const fromCookie = toLanguage(cookieValue(headers.cookie, "language"));
  if (fromCookie) return fromCookie;
  for (const tag of (headers["accept-language"] ?? "").split(",")) {
    const lang = toLanguage(tag);
    if (lang) return lang;
  }
  return DEFAULT_LANGUAGE;
}
