/**
 * The browser's messages: every namespace of locales/<lang>/ except the ones only the server speaks (API
 * answers, the phone pages of the payment sandbox and of the notice binding), which never ship to the browser.
 * A new namespace reaches the browser by its file alone. Each language's files make one chunk (vite.config.ts),
 * fetched when that language is chosen.
 */
import type { Language } from "./i18n";

export type Messages = Record<string, unknown>;

// the exclusions must be literal for Vite; tests/unit/localeKeys.test.ts checks them against the SPA's keys
const files = import.meta.glob<Messages>(
  ["../locales/*/*.json", "!../locales/*/api.json", "!../locales/*/sandbox.json", "!../locales/*/notice_bind.json"],
  { import: "default" },
);

const FILE = /\/locales\/([^/]+)\/([^/]+)\.json$/;

function filesOf(language: Language): [namespace: string, load: () => Promise<Messages>][] {
  return Object.entries(files).flatMap(([path, load]) => {
    const [, lang, namespace] = FILE.exec(path) ?? [];
    return lang === language ? [[namespace, load] as [string, () => Promise<Messages>]] : [];
  });
}

/** The browser's namespaces, the same in every language. */
export function browserNamespaces(language: Language): string[] {
  return filesOf(language).map(([namespace]) => namespace).sort();
}

/** One language's messages as {namespace: messages}, so keys stay "crud.add", "menu.servicelist". */
export async function loadMessages(language: Language): Promise<Record<string, Messages>> {
  const loaded = await Promise.all(filesOf(language).map(async ([namespace, load]) => [namespace, await load()] as const));
  return Object.fromEntries(loaded);
}
