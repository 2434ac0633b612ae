import { describe, expect, it } from "vitest";
import { PROVINCES } from "../../common/provinces";
import en from "../../locales/en/retail.json";
import es from "../../locales/es/retail.json";
import zh from "../../locales/zh/retail.json";

describe("provinces", () => {
  it("are the 34 province-level divisions of GB/T 2260, by code", () => {
    // written apart from the list: the codes of the standard
    expect(PROVINCES.map((p) => p.code)).toEqual(
      "11 12 13 14 15 21 22 23 31 32 33 34 35 36 37 41 42 43 44 45 46 50 51 52 53 54 61 62 63 64 65 71 81 82".split(" "),
    );
    expect(PROVINCES.find((p) => p.code === "44")?.zh).toBe("广东");
    expect(PROVINCES.find((p) => p.code === "54")?.en).toBe("Tibet");
  });

  it("have the same names on the payer page as in the console", () => {
    for (const [language, names] of [["zh", zh.province], ["en", en.province], ["es", es.province]] as const) {
      expect(Object.fromEntries(PROVINCES.map((p) => [p.code, p[language]])), language).toEqual(names);
    }
  });
});
