/**
 * The built SPA (dist/) ships the browser's messages and none of those only the server speaks (API answers,
 * the sandbox's phone pages): they are the server's to localise, and need not travel to every browser. Every
 * text file of it has its brotli and gzip forms beside it, for the server to send as they are. The payer page's
 * shop is a lazy chunk: what the payer page loads before it is opened holds none of it. (Bytes per page are
 * measured by npm run bench against their budgets.)
 */
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { readLocale } from "../../server/lib/locales";
import { shopEn } from "../../src/h5/i18n/shop.en";
import { shopEs } from "../../src/h5/i18n/shop.es";
import { shopZh } from "../../src/h5/i18n/shop.zh";

const ASSETS = path.resolve(import.meta.dirname, "../../dist/assets");
const SERVER_ONLY = ["api", "sandbox", "notice_bind"];

function messages(node: unknown): string[] {
  if (typeof node === "string") return [node];
  return node !== null && typeof node === "object" ? Object.values(node).flatMap(messages) : [];
}

describe("built SPA", () => {
  it("holds browser messages but no server-only message", () => {
    if (!fs.existsSync(ASSETS)) throw new Error("dist/ is not built (run npm run build)");
    const shipped = fs
      .readdirSync(ASSETS)
      .filter((file) => file.endsWith(".js"))
      .map((file) => fs.readFileSync(path.join(ASSETS, file), "utf8"))
      .join("\n");
    for (const lang of ["zh", "en", "es"]) {
      const locale = readLocale(lang);
      const browserTexts = Object.entries(locale).filter(([ns]) => !SERVER_ONLY.includes(ns)).flatMap(([, m]) => messages(m));
      // long enough to be distinctive, no character a bundler would escape, and not part of a browser message
      const distinctive = (text: string) => text.length >= 8 && !/["'\\\n<]/.test(text);
      const serverTexts = SERVER_ONLY.flatMap((ns) => messages(locale[ns]))
        .filter(distinctive)
        .filter((text) => !browserTexts.some((browserText) => browserText.includes(text)));
      expect(serverTexts.length, lang).toBeGreaterThan(20);
      expect(serverTexts.filter((text) => shipped.includes(text)), lang).toEqual([]);
      // the same search finds what the browser does get, so an absence above is not an artefact of encoding
      expect(browserTexts.filter(distinctive).filter((text) => !shipped.includes(text)), lang).toEqual([]);
    }
  });

  it("has a brotli and a gzip form of every text file of 1 KB and more, each the same file", () => {
    const files = fs.readdirSync(ASSETS).filter((file) => /\.(js|css)$/.test(file)).map((file) => path.join(ASSETS, file));
    files.push(path.resolve(ASSETS, "../index.html"));
    const large = files.filter((file) => fs.statSync(file).size >= 1024);
    expect(large.length).toBeGreaterThan(20);
    for (const file of large) {
      const content = fs.readFileSync(file);
      expect(zlib.brotliDecompressSync(fs.readFileSync(`${file}.br`)).equals(content), `${file}.br`).toBe(true);
      expect(zlib.gunzipSync(fs.readFileSync(`${file}.gz`)).equals(content), `${file}.gz`).toBe(true);
    }
  });

  it("keeps the payer page's shop out of what the payer page loads before the shop is opened", () => {
    const html = fs.readFileSync(path.resolve(ASSETS, "../h5.html"), "utf8");
    const read = (file: string) => fs.readFileSync(path.join(ASSETS, file), "utf8");
    // the files h5.html names and those they import statically, never those behind an import()
    const first = new Set<string>();
    const queue = [...html.matchAll(/\/assets\/([\w.-]+\.(?:js|css))/g)].map((m) => m[1]);
    while (queue.length > 0) {
      const file = queue.shift()!;
      if (first.has(file)) continue;
      first.add(file);
      if (file.endsWith(".js")) for (const [, next] of read(file).matchAll(/(?:\bfrom|\bimport)\s*"\.\/([\w.-]+\.js)"/g)) queue.push(next);
    }
    expect([...first].some((file) => /^h5-[\w-]+\.js$/.test(file))).toBe(true);
    // messages of the shop alone, in each language
    const shopTexts = [shopZh.find_for_order, shopEn.goods_none, shopEs.find_for_order, shopZh.pickup_hint, shopEn.pickup_hint];
    const firstText = [...first].map(read).join("\n");
    expect(shopTexts.filter((text) => firstText.includes(text))).toEqual([]);
    expect(firstText.includes(".goods-grid")).toBe(false);
    // and they are in a chunk of their own, which the payer page imports lazily
    const lazy = fs.readdirSync(ASSETS).filter((file) => file.endsWith(".js") && !first.has(file) && shopTexts.every((text) => read(file).includes(text)));
    expect(lazy).toHaveLength(1);
    expect([...first].filter((file) => file.endsWith(".js")).some((file) => read(file).includes(`import("./${lazy[0]}")`))).toBe(true);
  });
});
