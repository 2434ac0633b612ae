/**
 * A notice's text as its reader reads it: a reminder of a bill opened less than a day ago says it opened today, never
 * "waiting 0 days"; older ones count their days; money as the reader's language writes it.
 */
import { describe, expect, it } from "vitest";
import { noticeText } from "../../server/notify/notices";
import { translator } from "../../server/lib/i18n";

const params = { school: "Sunrise No.1", student: "王小明", activity: "2027 春季学期收费", amount: "1250.00" };

describe("notice texts", () => {
  it("says a bill opened today opened today, in every language", () => {
    expect(noticeText(translator("zh"), "zh", "reminder", { ...params, days: "0" })).toBe("【Sunrise No.1】王小明家长您好：“2027 春季学期收费”费用 ¥1,250.00 今日新开，请尽快缴纳。");
    expect(noticeText(translator("en"), "en", "reminder", { ...params, days: "0" })).toContain("opened today");
    expect(noticeText(translator("es"), "es", "reminder", { ...params, days: "0" })).toContain("se abrió hoy");
    for (const language of ["zh", "en", "es"] as const) expect(noticeText(translator(language), language, "reminder", { ...params, days: "0" })).not.toMatch(/\b0\b/);
  });

  it("counts the days of an older bill", () => {
    expect(noticeText(translator("zh"), "zh", "reminder", { ...params, days: "3" })).toContain("已待缴 3 天");
    expect(noticeText(translator("en"), "en", "reminder", { ...params, days: "3" })).toContain("waiting 3 days");
  });
});
