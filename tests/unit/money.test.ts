import { describe, expect, it } from "vitest";
import { fenToYuan, formatNumber, formatYuan, sanitiseMoneyInput, yuanToFen } from "../../common/money";

describe("money helper (spec 5)", () => {
  it.each([
    ["365", "365"],
    ["¥1,234.5", "1234.5"],
    ["12.345", "12.34"],
    [".5", "5"],
    ["..12", "12"],
    ["1.2.3", "1.23"],
    ["abc", ""],
    ["-8.00", "8.00"],
    ["10.", "10."],
  ])("%s becomes %s", (input, output) => {
    expect(sanitiseMoneyInput(input)).toBe(output);
  });

  it("converts between fen and yuan strings", () => {
    expect(fenToYuan(36500)).toBe("365.00");
    expect(fenToYuan(5)).toBe("0.05");
    expect(fenToYuan(-150)).toBe("-1.50");
    expect(yuanToFen("365")).toBe(36500);
    expect(yuanToFen("0.5")).toBe(50);
    expect(yuanToFen("1.005")).toBeNull();
    expect(yuanToFen("-1")).toBeNull();
  });

  it("groups thousands the same way at every size, four digits included (Spanish too)", () => {
    expect(formatYuan("1234.5", "es")).toBe("¥1.234,50");
    expect(formatYuan("12345.5", "es")).toBe("¥12.345,50");
    expect(formatYuan("999.5", "es")).toBe("¥999,50");
    expect(formatYuan("1234567.89", "es")).toBe("¥1.234.567,89");
    expect(formatYuan("1234.5", "zh")).toBe("¥1,234.50");
    expect(formatYuan("1234.5", "en")).toBe("¥1,234.50");
    expect(formatYuan(0, "es")).toBe("¥0,00");
    expect(formatNumber(1234, "es")).toBe("1.234");
    expect(formatNumber(12.5, "es", 1)).toBe("12,5");
  });
});
