/**
 * How a FieldDecl appears in the generic pages: its form control and client validation (the same limits the
 * server checks), its list column text and its filter control.
 */
import type { CSSProperties, ReactNode } from "react";
import { DatePicker, Input, InputNumber, Radio, Select, Tag } from "antd";
import type { FormItemProps } from "antd";
import type { Rule } from "antd/es/form";
import dayjs, { type Dayjs } from "dayjs";
import type { FieldDecl } from "../../common/catalogue";
import { sanitiseMoneyInput } from "../../common/money";

export type Translate = (key: string, options?: Record<string, unknown>) => string;

export const DATE_FORMAT = "YYYY-MM-DD";
const DATETIME_FORMAT = "YYYY-MM-DD HH:mm:ss";
const MONEY_PATTERN = /^\d+(\.\d{1,2})?$/;

/** Whether the field is in the form of this action; virtual fields (e.g. the first account) only where declared. */
export function inForm(field: FieldDecl, action: "add" | "edit"): boolean {
  return field.form === true || field.form === action;
}

function isChoice(field: FieldDecl): boolean {
  return field.type === "enum" || field.type === "yesno";
}

export function fieldOptions(field: FieldDecl, t: Translate): { value: string; label: string }[] {
  return (field.options ?? []).map((o) => ({ value: o.value, label: t(o.label) }));
}

/** Client-side rules from the declaration; messages name the field. */
export function fieldRules(field: FieldDecl, t: Translate): Rule[] {
  const label = t(field.label);
  const rules: Rule[] = [];
  if (field.required) {
    const key = isChoice(field) || field.type === "date" ? "validation.select_required" : "validation.required";
    const message = t(key, { label });
    // a number, or an id picked as a digit string: the string rule of a plain `required` would refuse a number
    if (field.type === "int") {
      rules.push({
        required: true,
        message,
        validator: async (_rule, value: unknown) => {
          if (value === undefined || value === null || value === "") throw new Error(message);
        },
      });
    } else rules.push({ required: true, whitespace: field.type === "string" || field.type === "text", message });
  }
  switch (field.type) {
    case "string":
    case "text":
    case "password":
      if (field.min !== undefined) rules.push({ min: field.min, message: t("validation.min_length", { label, min: field.min }) });
      if (field.max !== undefined) rules.push({ max: field.max, message: t("validation.max_length", { label, max: field.max }) });
      if (field.pattern) {
        rules.push({ pattern: new RegExp(field.pattern), message: t(field.patternMessage ?? "validation.pattern", { label }) });
      }
      break;
    case "int":
      // a number typed, or an id chosen in a picker (a digit string)
      rules.push({
        validator: async (_rule, value: unknown) => {
          if (value === undefined || value === null || value === "") return;
          const n = typeof value === "number" ? value : /^-?\d{1,15}$/.test(String(value)) ? Number(value) : NaN;
          if (!Number.isInteger(n)) throw new Error(t("validation.integer", { label }));
          if (field.min !== undefined && n < field.min) throw new Error(t("validation.min_value", { label, min: field.min }));
          if (field.max !== undefined && n > field.max) throw new Error(t("validation.max_value", { label, max: field.max }));
        },
      });
      break;
    case "money":
      rules.push({
        validator: async (_rule, value: unknown) => {
          if (value === undefined || value === null || value === "") return;
          const text = String(value);
          if (!MONEY_PATTERN.test(text)) throw new Error(t("validation.money", { label }));
          if (field.min !== undefined && Number(text) < field.min) throw new Error(t("validation.min_value", { label, min: field.min }));
          if (field.max !== undefined && Number(text) > field.max) throw new Error(t("validation.max_value", { label, max: field.max }));
        },
      });
      break;
    default:
      break;
  }
  return rules;
}

/**
 * Value conversions between the API form of a field and its control: dates stay YYYY-MM-DD strings in the
 * form values while the picker works with dayjs; money is cleaned as it is typed (spec 5 money helper).
 */
export function valueProps(field: FieldDecl): Pick<FormItemProps, "getValueProps" | "normalize"> {
  if (field.type === "date") {
    return {
      getValueProps: (value: unknown) => ({ value: typeof value === "string" && value ? dayjs(value, DATE_FORMAT) : undefined }),
      normalize: (value: Dayjs | null) => (value ? value.format(DATE_FORMAT) : undefined),
    };
  }
  if (field.type === "money") return { normalize: (value: unknown) => (typeof value === "string" ? sanitiseMoneyInput(value) : value) };
  return {};
}

/** The form control of a field. */
export function FieldControl({ field, t, ...rest }: { field: FieldDecl; t: Translate; id?: string; "data-testid"?: string }): ReactNode {
  const placeholder = t(field.label);
  switch (field.type) {
    case "text":
      return <Input.TextArea {...rest} rows={3} placeholder={placeholder} showCount={field.max !== undefined} maxLength={field.max} />;
    case "password":
      return <Input.Password {...rest} placeholder={placeholder} autoComplete="new-password" />;
    case "int":
      return <InputNumber {...rest} min={field.min} max={field.max} precision={0} style={{ width: "100%" }} placeholder={placeholder} />;
    case "money":
      return <Input {...rest} inputMode="decimal" prefix="¥" placeholder="0.00" />;
    case "date":
      return <DatePicker {...rest} format={DATE_FORMAT} style={{ width: "100%" }} />;
    case "yesno":
      return <Radio.Group {...rest} options={fieldOptions(field, t)} optionType="button" />;
    case "enum":
      return <Select {...rest} options={fieldOptions(field, t)} placeholder={placeholder} allowClear={!field.required} />;
    default:
      return <Input {...rest} placeholder={placeholder} />;
  }
}

/** A value as the list and detail pages show it. */
export function displayValue(field: FieldDecl, value: unknown, t: Translate): ReactNode {
  if (value === undefined || value === null || value === "") return "-";
  if (isChoice(field)) {
    const option = field.options?.find((o) => o.value === String(value));
    if (!option) return String(value);
    const colour = field.type === "yesno" ? (option.value === "Y" ? "green" : "default") : undefined;
    return colour ? <Tag color={colour}>{t(option.label)}</Tag> : t(option.label);
  }
  if (field.type === "datetime") {
    const d = dayjs(String(value));
    return d.isValid() ? d.format(DATETIME_FORMAT) : String(value);
  }
  if (field.type === "money") return `¥${String(value)}`;
  return String(value);
}

/**
 * The layout of a value in a list cell: short values (numbers, amounts, dates, choices) never break; free text
 * wraps between words within a readable width (set on the value: browsers ignore widths on table cells).
 */
export function cellStyle(field: FieldDecl): CSSProperties {
  switch (field.type) {
    case "int":
    case "money":
    case "date":
    case "enum":
    case "yesno":
      return { whiteSpace: "nowrap" };
    case "datetime":
      // date and time may go on two lines, never a digit alone
      return { minWidth: 90 };
    default:
      return { minWidth: 64, maxWidth: 280 };
  }
}

/** The filter control of a list filter field; `block` fills the width (the folded filters of a phone). */
export function FilterControl({ field, t, block, ...rest }: { field: FieldDecl; t: Translate; block?: boolean; id?: string }): ReactNode {
  const label = t(field.label);
  const width = block ? { width: "100%" } : undefined;
  if (isDayRange(field)) return <DatePicker.RangePicker {...rest} format={DATE_FORMAT} allowEmpty={[true, true]} style={width} />;
  if (field.filter === "eq" && field.options) {
    return <Select {...rest} allowClear options={fieldOptions(field, t)} placeholder={label} style={width ?? { minWidth: 140 }} />;
  }
  return <Input {...rest} allowClear placeholder={label} style={width} />;
}

/** Range filters on dates and times are chosen by day (the server reads a day of a time range as the whole business day). */
function isDayRange(field: FieldDecl): boolean {
  return field.filter === "range" && (field.type === "date" || field.type === "datetime");
}

/** Filter form values: day ranges are kept as [start, end] strings so they survive the URL round trip. */
export function filterValueProps(field: FieldDecl): Pick<FormItemProps, "getValueProps" | "normalize"> {
  if (!isDayRange(field)) return {};
  return {
    getValueProps: (value: unknown) => ({
      value: Array.isArray(value) ? value.map((v) => (typeof v === "string" && v ? dayjs(v, DATE_FORMAT) : null)) : undefined,
    }),
    normalize: (value: (Dayjs | null)[] | null) => (value ? value.map((d) => (d ? d.format(DATE_FORMAT) : "")) : undefined),
  };
}
