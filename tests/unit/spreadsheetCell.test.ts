/**
 * The one rule every exported sheet follows (common/spreadsheetCell.ts, OWASP CSV injection): a text cell starting
 * with `=`, `+`, `-`, `@`, a tab or a carriage return gets a single quote before it; other texts, and number cells
 * (a negative amount of money too), stay as they are.
 */
import { describe, expect, it } from "vitest";
import { safeCell, safeCellText } from "../../common/spreadsheetCell";
import { serverFieldKinds } from "../../server/engine/fieldKinds";
import { translator } from "../../server/lib/i18n";

describe("spreadsheet cells", () => {
  it("puts a single quote before a text that a spreadsheet program would read as a formula", () => {
    for (const text of ['=HYPERLINK("http://x","y")', "+1", "-2+3", "@SUM(A1)", "\t=1+1", "\r=1+1", "-12.50"]) {
      expect(safeCellText(text)).toBe(`'${text}`);
      expect(safeCell(text)).toBe(`'${text}`);
    }
  });

  it("leaves other texts, numbers, dates and empty cells as they are", () => {
    for (const text of ["Li Lei", "a=b", " =1", "'quoted", "", "李雷", "1-2"]) expect(safeCellText(text)).toBe(text);
    expect(safeCell(-12.5)).toBe(-12.5);
    expect(safeCell(0)).toBe(0);
    expect(safeCell(null)).toBeNull();
    expect(safeCell(undefined)).toBeUndefined();
    const day = new Date("2026-03-02T00:00:00Z");
    expect(safeCell(day)).toBe(day);
  });

  it("exports money as a number cell, so a negative amount is a number and no text", () => {
    const money = serverFieldKinds.money;
    const field = { name: "fee", type: "money" as const, label: "field.fee" };
    expect(money.exportCell?.(field, "-12.50", translator("en"))).toBe(-12.5);
    expect(money.exportCell?.(field, "365.00", translator("en"))).toBe(365);
  });
});
