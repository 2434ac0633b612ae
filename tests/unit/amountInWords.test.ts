import { describe, expect, it } from "vitest";
import { amountInWords } from "../../common/amountInWords";
import { yuanToFen } from "../../common/money";

const words = (yuan: string) => amountInWords(yuanToFen(yuan)!);

describe("amount in Chinese capital numerals (人民币大写)", () => {
  it("writes 整 after an amount that ends at 元, and nothing after 角 or 分", () => {
    expect(words("0")).toBe("零元整");
    expect(words("0.00")).toBe("零元整");
    expect(words("1")).toBe("壹元整");
    expect(words("365.00")).toBe("叁佰陆拾伍元整");
    expect(words("155.50")).toBe("壹佰伍拾伍元伍角");
    expect(words("155.55")).toBe("壹佰伍拾伍元伍角伍分");
  });

  it("writes 零 between 元 and 分 when the 角 is zero, and no 元 for less than a yuan", () => {
    expect(words("10.05")).toBe("壹拾元零伍分");
    expect(words("0.05")).toBe("伍分");
    expect(words("0.50")).toBe("伍角");
    expect(words("0.01")).toBe("壹分");
    expect(words("1680.32")).toBe("壹仟陆佰捌拾元叁角贰分");
  });

  it("writes 壹拾 for a leading ten and one 零 for zeros inside the figure", () => {
    expect(words("10")).toBe("壹拾元整");
    expect(words("15")).toBe("壹拾伍元整");
    expect(words("101")).toBe("壹佰零壹元整");
    expect(words("1001")).toBe("壹仟零壹元整");
    expect(words("1010")).toBe("壹仟零壹拾元整");
    expect(words("1100")).toBe("壹仟壹佰元整");
    expect(words("6007.14")).toBe("陆仟零柒元壹角肆分");
  });

  it("groups by 万 and 亿, with one 零 across a zero group or a group under a thousand", () => {
    expect(words("1000000.00")).toBe("壹佰万元整");
    expect(words("100010.01")).toBe("壹拾万零壹拾元零壹分");
    expect(words("107000.53")).toBe("壹拾万柒仟元伍角叁分");
    expect(words("10000")).toBe("壹万元整");
    expect(words("10001")).toBe("壹万零壹元整");
    expect(words("325000")).toBe("叁拾贰万伍仟元整");
    expect(words("100000000")).toBe("壹亿元整");
    expect(words("100050000")).toBe("壹亿零伍万元整");
    expect(words("1000001000")).toBe("壹拾亿零壹仟元整");
    expect(words("123456789012.34")).toBe("壹仟贰佰叁拾肆亿伍仟陆佰柒拾捌万玖仟零壹拾贰元叁角肆分");
    expect(words("999999999999.99")).toBe("玖仟玖佰玖拾玖亿玖仟玖佰玖拾玖万玖仟玖佰玖拾玖元玖角玖分");
  });

  it("takes fen as a number or a bigint, and marks a negative amount", () => {
    expect(amountInWords(15550)).toBe("壹佰伍拾伍元伍角");
    expect(amountInWords(15550n)).toBe("壹佰伍拾伍元伍角");
    expect(amountInWords(-500)).toBe("负伍元整");
  });
});
