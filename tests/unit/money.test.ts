import { describe, expect, it } from "vitest";
import { fenToYuan, sanitiseMoneyInput, yuanToFen } from "../../common/money";

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
});
