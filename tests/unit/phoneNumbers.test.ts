/** The phone numbers a form takes (common/fieldRules.ts isPhone), against a table written from how they are dialled in China. */
import { describe, expect, it } from "vitest";
import { isPhone } from "../../common/fieldRules";

const taken = ["13800138000", "19912345678", "010-12345678", "01012345678", "0755-1234567", "0755-1234567-89", "400-820-1234", "4008201234", "800 820 1234", "+85212345678"];
const refused = ["12800138000", "1380013800", "10-12345678", "0755-123456", "400-82-1234", "500-820-1234", "call me", "13800138000 ", "+85", ""];

describe("phone numbers", () => {
  it.each(taken)("takes %s", (value) => expect(isPhone(value)).toBe(true));
  it.each(refused)("refuses %j", (value) => expect(isPhone(value)).toBe(false));
});
