/**
 * How the console names a referred record where the SPA composes the name: an order paying bills of several
 * activities shows its first activity with their count ("2027 春季学期收费 等 2 项") in its list cell and detail, in
 * each language; a class picked from a list is named with its grade ("三年级 1班") unless the form's grade narrows
 * it, and a student with their number; a student is searched by typing, not picked.
 */
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { orderEntity } from "../../catalogue/collectionOrders";
import { paymentEntity } from "../../catalogue/collectionPayments";
import { classesEntity, studentEntity } from "../../catalogue/schools";
import { referredTitle } from "../../common/fieldRules";
import { changeLanguage, i18n } from "../../providers/i18n";
import { displayValue, FilterControl } from "../../src/engine/fields";

const field = (entity: typeof orderEntity, name: string) => entity.fields.find((f) => f.name === name)!;
const t = (key: string, options?: Record<string, unknown>) => i18n.t(key, options);

describe("an order of several activities", () => {
  const order = { id: 7, activity_id: 3, activity_title: "2027 春季学期收费", activity_count: 2 };

  it("is named by its first activity and the count of all of them, in every language, in the order list and payrecord", async () => {
    const named: Record<string, string> = { zh: "2027 春季学期收费 等 2 项", en: "2027 春季学期收费 and 1 more", es: "2027 春季学期收费 y 1 más" };
    for (const lang of ["zh", "en", "es"] as const) {
      await changeLanguage(lang);
      expect(displayValue(field(orderEntity, "activity_id"), order.activity_id, t, order)).toBe(named[lang]);
      expect(displayValue(field(paymentEntity, "activity_id"), order.activity_id, t, order)).toBe(named[lang]);
    }
  });

  it("of one activity is named by it alone", async () => {
    await changeLanguage("zh");
    expect(displayValue(field(orderEntity, "activity_id"), 3, t, { ...order, activity_count: 1 })).toBe("2027 春季学期收费");
  });
});

describe("a referred class and student", () => {
  const klass = { id: 4, title: "1班", grade_id: 2, grade_title: "三年级" };

  it("names a class with its grade, but by itself where the grade narrows the choice", () => {
    expect(referredTitle(classesEntity, klass)).toBe("三年级 1班");
    expect(referredTitle(classesEntity, klass, "grade_id")).toBe("1班");
  });

  it("names a student with their number", () => {
    expect(referredTitle(studentEntity, { id: 9, name: "张三", student_no: "20250002" })).toBe("张三 (20250002)");
  });

  it("searches the order list's student by a typed name or number", async () => {
    await changeLanguage("en");
    render(<FilterControl field={field(orderEntity, "student_id")} t={t} data-testid="student-filter" />);
    const box = screen.getByTestId("student-filter");
    expect(box.tagName).toBe("INPUT");
    expect(box.getAttribute("placeholder")).toBe("Student: name or number");
  });
});
