/**
 * The message files of locales/<lang>/<namespace>.json, assembled per language as {namespace: messages}, so
 * keys keep their namespace as first segment ("api.ok", "menu.servicelist"). The server reads every namespace:
 * besides its own (api, sandbox, notice_bind) it names the catalogue's titles and labels in exports and
 * validation messages, whichever domain namespace holds them.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export type LocaleMessages = Record<string, Record<string, unknown>>;

// a path, not a URL: the unit tests' jsdom replaces the global URL
const LOCALES_DIR = join(dirname(fileURLToPath(import.meta.url)), "../../locales");

export function readLocale(language: string): LocaleMessages {
  const dir = join(LOCALES_DIR, language);
  const files = readdirSync(dir).filter((file) => file.endsWith(".json")).sort();
  return Object.fromEntries(files.map((file) => [file.slice(0, -".json".length), JSON.parse(readFileSync(join(dir, file), "utf8"))]));
}
