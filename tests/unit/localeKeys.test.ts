/**
 * The locale files (locales/<lang>/<namespace>.json): the three languages hold the same namespaces and keys,
 * every translation key the catalogue names exists in each of them, and the browser gets every namespace the
 * SPA and the catalogue use but none of those only the server speaks.
 */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { LANGUAGES } from "../../providers/i18n";
import { browserNamespaces, loadMessages } from "../../providers/locales";
import { catalogue } from "../../resources.config";
import { readLocale } from "../../server/lib/locales";

type Tree = Record<string, unknown>;

const locales = Object.fromEntries(LANGUAGES.map((lang) => [lang, readLocale(lang)]));
const namespaces = Object.keys(locales.zh).sort();
const SERVER_ONLY = ["api", "notice_bind", "sandbox"];

// i18next picks `key_one`, `key_other`... by count; a language without plural forms may hold the bare key
const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

function leafKeys(node: Tree, prefix = ""): string[] {
  return Object.entries(node).flatMap(([key, value]) =>
    value !== null && typeof value === "object" ? leafKeys(value as Tree, `${prefix}${key}.`) : [`${prefix}${key}`],
  );
}

function lookup(messages: Tree, key: string): unknown {
  return key.split(".").reduce<unknown>((node, part) => (node !== null && typeof node === "object" ? (node as Tree)[part] : undefined), messages);
}

function hasMessage(messages: Tree, key: string): boolean {
  return typeof lookup(messages, key) === "string" || typeof lookup(messages, `${key}_other`) === "string";
}

const KEY_PROPERTIES = new Set(["title", "label", "confirm", "patternMessage"]);
const KEY_SHAPE = /^([a-z][a-z0-9_]*)\.[A-Za-z0-9_.]+$/;

/**
 * Every translation key in the catalogue, wherever its declarations put one: the properties that hold keys
 * (titles, labels, confirmations, pattern messages), any other string shaped like a key of a locale namespace,
 * and `menu.{name}` for a menu entry without a title.
 */
function catalogueKeys(node: unknown, where: string, inMenu: boolean, seen: WeakSet<object>, out: Map<string, string>): void {
  if (node === null || typeof node !== "object" || seen.has(node)) return;
  seen.add(node);
  if (Array.isArray(node)) {
    node.forEach((item: unknown, i) => {
      const named = item !== null && typeof item === "object" ? (item as Tree) : {};
      const label = [named.name, named.operation, named.path, named.value].find((v) => typeof v === "string") ?? i;
      catalogueKeys(item, `${where}[${String(label)}]`, inMenu, seen, out);
    });
    return;
  }
  const record = node as Tree;
  const add = (key: string, path: string) => out.has(key) || out.set(key, path);
  if (inMenu && typeof record.name === "string" && record.title === undefined) add(`menu.${record.name}`, `${where}.title`);
  for (const [property, value] of Object.entries(record)) {
    const path = `${where}.${property}`;
    if (typeof value === "string") {
      const namespace = KEY_SHAPE.exec(value)?.[1];
      if (KEY_PROPERTIES.has(property) || (namespace !== undefined && namespaces.includes(namespace))) add(value, path);
    } else {
      // menu entries are the groups of `menus` and their `children`, not what an entry refers to
      catalogueKeys(value, path, property === "menus" || (inMenu && property === "children"), seen, out);
    }
  }
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((file) => /\.tsx?$/.test(file))
    .map((file) => `${dir}/${file}`);
}

describe("locale files", () => {
  it("give every namespace a file in zh, en and es", () => {
    for (const lang of LANGUAGES) expect(Object.keys(locales[lang]).sort(), lang).toEqual(namespaces);
  });

  it("hold the same keys in every language, plural forms aside", () => {
    const missing: string[] = [];
    for (const namespace of namespaces) {
      const keysOf = (lang: string) => new Set(leafKeys(locales[lang][namespace] as Tree).map((k) => k.replace(PLURAL_SUFFIX, "")));
      const every = new Set(LANGUAGES.flatMap((lang) => [...keysOf(lang)]));
      for (const lang of LANGUAGES) missing.push(...[...every].filter((k) => !keysOf(lang).has(k)).map((k) => `${lang}/${namespace}.json: ${k}`));
    }
    expect(missing).toEqual([]);
  });

  it("give every plural message its general form in every language", () => {
    for (const lang of LANGUAGES) {
      const plurals = namespaces.flatMap((ns) => leafKeys(locales[lang][ns] as Tree, `${ns}.`)).filter((k) => PLURAL_SUFFIX.test(k));
      const bases = [...new Set(plurals.map((k) => k.replace(PLURAL_SUFFIX, "")))];
      expect(bases.filter((base) => !hasMessage(locales[lang], base)), lang).toEqual([]);
    }
  });

  it("hold only non-empty strings as messages", () => {
    for (const lang of LANGUAGES) {
      const bad = namespaces.flatMap((ns) => leafKeys(locales[lang][ns] as Tree, `${ns}.`)).filter((k) => {
        const text = lookup(locales[lang], k);
        return typeof text !== "string" || text.trim() === "";
      });
      expect(bad, lang).toEqual([]);
    }
  });
});

describe("catalogue translation keys", () => {
  const keys = new Map<string, string>();
  catalogueKeys(catalogue, "catalogue", false, new WeakSet(), keys);

  it("finds the keys of titles, labels, options, confirmations and menus", () => {
    // guards the walk itself: a catalogue change that hid its keys would otherwise pass unseen
    const places = [...keys.values()];
    const shapes = [/^catalogue\.entities\[\w+\]\.title$/, /\.fields\[\w+\]\.label$/, /\.options\[\w+\]\.label$/, /^catalogue\.menus\b.*\.title$/];
    for (const shape of shapes) expect(places.some((place) => shape.test(place)), String(shape)).toBe(true);
  });

  it("exist in zh, en and es", () => {
    for (const lang of LANGUAGES) {
      const missing = [...keys].filter(([key]) => !hasMessage(locales[lang], key)).map(([key, where]) => `${key} (${where})`);
      expect(missing, lang).toEqual([]);
    }
  });

  it("lie in namespaces the browser loads", () => {
    const browser = browserNamespaces("en");
    expect([...keys].filter(([key]) => !browser.includes(key.split(".")[0])).map(([key, where]) => `${key} (${where})`)).toEqual([]);
  });
});

describe("messages the browser loads", () => {
  it("are every namespace but the server's own", () => {
    for (const lang of LANGUAGES) {
      expect(browserNamespaces(lang), lang).toEqual(namespaces.filter((ns) => !SERVER_ONLY.includes(ns)));
    }
  });

  it("assemble each language as {namespace: messages} without the server's namespaces", async () => {
    for (const lang of LANGUAGES) {
      const messages = await loadMessages(lang);
      for (const ns of SERVER_ONLY) expect(messages, `${lang} ${ns}`).not.toHaveProperty(ns);
      expect(messages, lang).toEqual(Object.fromEntries(browserNamespaces(lang).map((ns) => [ns, locales[lang][ns]])));
    }
  });

  it("cover every namespace the SPA names in its code", () => {
    const literal = /["'`]([a-z][a-z0-9_]*)\.[a-z0-9_]/g;
    const used = new Map<string, string>();
    for (const file of [...sourceFiles("src"), ...sourceFiles("providers")]) {
      for (const [, namespace] of readFileSync(file, "utf8").matchAll(literal)) {
        if (namespaces.includes(namespace) && !used.has(namespace)) used.set(namespace, file);
      }
    }
    expect(used.size).toBeGreaterThan(5);
    const browser = browserNamespaces("en");
    expect([...used].filter(([ns]) => !browser.includes(ns)).map(([ns, file]) => `${ns} (${file})`)).toEqual([]);
  });
});
