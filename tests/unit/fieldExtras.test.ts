/**
 * The field declarations beyond the kinds (common/fieldExtras.ts): a text declared `mask` shows masked in lists,
 * details and exports on both sides and never breaks in a cell; a rule between fields (`requiredWhen`, `atLeast`)
 * is a form rule marked required only while it applies, and the same failure on the server, naming the field.
 */
import type { FormInstance } from "antd";
import type { RuleObject, RuleRender } from "antd/es/form";
import { describe, expect, it } from "vitest";
import type { FieldDecl } from "../../common/catalogue";
import { maskAccount, maskedText } from "../../common/fieldExtras";
import { kindOf } from "../../server/engine/fieldKinds";
import { checkFieldRelations, inapplicableValues } from "../../server/engine/fieldRelations";
import { translator } from "../../server/lib/i18n";
import { ApiFailure } from "../../server/protocol/envelope";
import type { OperationContext } from "../../server/protocol/registry";
import { cellStyle, displayValue, fieldRules } from "../../src/engine/fields";

const account: FieldDecl = { name: "bank_account", type: "string", label: "field.remark", mask: "account" };
const plain: FieldDecl = { name: "title", type: "string", label: "field.remark" };
const t = (key: string) => key;
const en = translator("en");

/** a fee's amounts: a fixed amount, or bounds the payer chooses between (the labels are any existing keys) */
const modeField: FieldDecl = { name: "amount_mode", type: "enum", label: "field.status", options: [{ value: "fixed", label: "common.yes" }, { value: "open", label: "common.no" }] };
const amountFields: FieldDecl[] = [
  modeField,
  { name: "amount", type: "money", label: "field.fee", requiredWhen: { field: "amount_mode", value: "fixed" }, formWhen: { field: "amount_mode", value: "fixed" } },
  { name: "min_amount", type: "money", label: "field.id", requiredWhen: { field: "amount_mode", value: "open" }, formWhen: { field: "amount_mode", value: "open" } },
  {
    name: "max_amount",
    type: "money",
    label: "field.sort",
    requiredWhen: { field: "amount_mode", value: "open" },
    atLeast: { field: "min_amount", message: "validation.pattern" },
    formWhen: { field: "amount_mode", value: "open" },
  },
];
const field = (name: string) => amountFields.find((f) => f.name === name)!;

describe("a masked text", () => {
  it("keeps a bank account's first and last four digits, and leaves a masked one as it is", () => {
    expect(maskAccount("6222020200112233445")).toBe("6222 **** **** 3445");
    expect(maskAccount("6222 0202 0011 2233 445")).toBe("6222 **** **** 3445");
    expect(maskAccount("6222 **** **** 3445")).toBe("6222 **** **** 3445");
    expect(maskAccount("12345678")).toBe("**** 5678");
    expect(maskAccount("1234")).toBe("**** 34");
    expect(maskedText(plain, "6222020200112233445")).toBe("6222020200112233445");
  });

  it("is masked in the server's list form and export cell, whole in the record", () => {
    const kind = kindOf(account);
    expect(kind.listValue?.(account, "6222020200112233445")).toBe("6222 **** **** 3445");
    expect(kind.exportCell?.(account, "6222020200112233445", en)).toBe("6222 **** **** 3445");
    expect(kind.toApi).toBeUndefined();
    // a text without a mask goes out as it is
    expect(kind.listValue?.(plain, "Sunrise")).toBe("Sunrise");
    expect(kind.exportCell?.(plain, "Sunrise", en)).toBe("Sunrise");
  });

  it("shows masked in the SPA's lists and details, on one line", () => {
    expect(displayValue(account, "6222020200112233445", t)).toBe("6222 **** **** 3445");
    expect(displayValue(plain, "Sunrise", t)).toBe("Sunrise");
    expect(cellStyle(account)).toMatchObject({ whiteSpace: "nowrap" });
  });
});

/** The form's rules of a field, run as antd runs them against the form's other values. */
async function formErrors(decl: FieldDecl, value: unknown, others: Record<string, unknown>): Promise<{ required: boolean; errors: string[] }> {
  const form = { getFieldValue: (name: string) => others[name] } as unknown as FormInstance;
  const errors: string[] = [];
  let required = false;
  for (const rule of fieldRules(decl, t)) {
    const object = (typeof rule === "function" ? (rule as RuleRender)(form) : rule) as RuleObject;
    if (object.required) required = true;
    try {
      await object.validator?.(object, value, () => undefined);
    } catch (err) {
      errors.push((err as Error).message);
    }
  }
  return { required, errors };
}

describe("a rule between fields", () => {
  it("asks for a field in the form only while the other field holds its value, marked required then", async () => {
    expect(await formErrors(field("amount"), "", { amount_mode: "fixed" })).toEqual({ required: true, errors: ["validation.required"] });
    expect(await formErrors(field("amount"), "", { amount_mode: "open" })).toEqual({ required: false, errors: [] });
    expect(await formErrors(field("min_amount"), "", { amount_mode: "open" })).toMatchObject({ required: true, errors: ["validation.required"] });
  });

  it("refuses in the form a number below the field it must be at least", async () => {
    expect((await formErrors(field("max_amount"), "20", { amount_mode: "open", min_amount: "50" })).errors).toEqual(["validation.pattern"]);
    expect((await formErrors(field("max_amount"), "50", { amount_mode: "open", min_amount: "50" })).errors).toEqual([]);
    expect((await formErrors(field("max_amount"), "20", { amount_mode: "open", min_amount: "" })).errors).toEqual([]);
  });

  it("fails the same on the server, naming the field, and says which values no longer apply", () => {
    const ctx = { t: en } as unknown as OperationContext;
    const failure = (record: Record<string, unknown>) => {
      try {
        checkFieldRelations(ctx, amountFields, record);
        return null;
      } catch (err) {
        expect(err).toBeInstanceOf(ApiFailure);
        return (err as ApiFailure).data;
      }
    };
    expect(failure({ amount_mode: "fixed", amount: null })).toEqual({ errors: [{ field: "amount", message: en("api.validation.required", { label: en("field.fee") }) }] });
    expect(failure({ amount_mode: "open", min_amount: 5000, max_amount: 2000 })).toEqual({
      errors: [{ field: "max_amount", message: en("validation.pattern", { label: en("field.sort") }) }],
    });
    expect(failure({ amount_mode: "open", min_amount: 2000, max_amount: 2000 })).toBeNull();
    expect(inapplicableValues(amountFields, { amount_mode: "fixed", amount: 100, min_amount: 10, max_amount: null })).toEqual({ min_amount: null });
  });
});
