/**
 * The payer's pages (src/h5/) carry their own messages: the same keys, all non-empty and with the same
 * placeholders, in zh, en and es; the language comes from the cookie, then the browser; and the pages import
 * nothing of the console (only React, the QR code generator and the shared time helper, which imports nothing),
 * so that their bundle stays small.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { chooseH5Language, h5Messages, H5_LANGUAGES, translator } from "../../src/h5/i18n";
import { moneyText, toFen } from "../../src/h5/session";

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe("payer pages' messages", () => {
  it("hold the same keys in zh, en and es", () => {
    const keys = (lang: (typeof H5_LANGUAGES)[number]) => Object.keys(h5Messages[lang]).sort();
    expect(keys("zh")).toEqual(keys("en"));
    expect(keys("es")).toEqual(keys("en"));
    expect(keys("en").length).toBeGreaterThan(40);
  });

  it("are non-empty strings with the same placeholders in every language", () => {
    for (const key of Object.keys(h5Messages.en) as (keyof typeof h5Messages.en)[]) {
      for (const lang of H5_LANGUAGES) {
        const text = h5Messages[lang][key];
        expect(typeof text === "string" && text.trim() !== "", `${lang}.${key}`).toBe(true);
        expect(placeholders(text), `${lang}.${key}`).toEqual(placeholders(h5Messages.en[key]));
      }
    }
  });

  it("differ from English where a language is not English (nothing left untranslated by mistake)", () => {
    const same = (lang: "zh" | "es") =>
      (Object.keys(h5Messages.en) as (keyof typeof h5Messages.en)[]).filter((key) => h5Messages[lang][key] === h5Messages.en[key] && /[a-z]{4}/.test(h5Messages.en[key].replace(/\{\w+\}/g, "")));
    expect(same("zh")).toEqual([]);
    // words spelt alike in both languages
    expect(same("es").filter((key) => !["selected_total"].includes(key))).toEqual([]);
  });

  it("fill their placeholders", () => {
    expect(translator("en")("pay_submit", { amount: "¥155.50" })).toBe("Pay ¥155.50");
    expect(translator("zh")("selected_count", { count: 2 })).toBe("已选 2 项");
    expect(translator("es")("activity_until", { date: "2026-12-31" })).toBe("hasta el 2026-12-31");
  });
});

describe("payer pages' money", () => {
  it("groups thousands in every language as the console does, Spanish with its own marks", () => {
    const written = ["0.50", "155.50", "1234.5", "12345.67", "50000"].map((yuan) => H5_LANGUAGES.map((lang) => moneyText(toFen(yuan), lang)));
    expect(written).toEqual([
      ["0.50", "0.50", "0,50"],
      ["155.50", "155.50", "155,50"],
      ["1,234.50", "1,234.50", "1.234,50"],
      ["12,345.67", "12,345.67", "12.345,67"],
      ["50,000.00", "50,000.00", "50.000,00"],
    ]);
  });
});

describe("payer pages' language", () => {
  it("takes the cookie, then the browser's languages in order, else zh", () => {
    expect(chooseH5Language("es", ["zh-CN"])).toBe("es");
    expect(chooseH5Language(undefined, ["fr-FR", "en-GB", "zh"])).toBe("en");
    expect(chooseH5Language("de", ["es-MX"])).toBe("es");
    expect(chooseH5Language(undefined, ["fr-FR"])).toBe("zh");
  });
});

describe("payer pages' imports", () => {
  const imports = (source: string) => [...source.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)].map((m) => m[1]!);
  // what the page's code imports: a type-only import (a DIY page's blocks, common/shopDiy.ts) adds nothing to it
  const codeImports = (source: string) => imports(source.replace(/^import type [^;]+;$/gm, ""));
  // shared with the console, each of no imports of its own: times are China time on the payer page as in the
  // console, and the provinces an address is in are the express templates'
  const shared = ["../../common/businessTime.ts", "../../common/provinces.ts"].map((file) => path.resolve(import.meta.dirname, file));

  it("reach nothing outside src/h5 but React, the QR code generator and the shared time and province helpers", () => {
    const dir = path.resolve(import.meta.dirname, "../../src/h5");
    const allowed = new Set(["react", "react-dom/client", "react/jsx-runtime", "qrcode.react"]);
    const outside: string[] = [];
    for (const file of readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => /\.tsx?$/.test(f))) {
      const source = readFileSync(path.join(dir, file), "utf8");
      for (const specifier of codeImports(source)) {
        if (specifier.startsWith(".")) {
          const target = path.resolve(dir, path.dirname(file), specifier);
          if (!target.startsWith(dir + path.sep) && !shared.includes(`${target}.ts`)) outside.push(`${file}: ${specifier}`);
        } else if (!allowed.has(specifier)) outside.push(`${file}: ${specifier}`);
      }
    }
    expect(outside).toEqual([]);
    for (const file of shared) expect(imports(readFileSync(file, "utf8")), file).toEqual([]);
  });
});
