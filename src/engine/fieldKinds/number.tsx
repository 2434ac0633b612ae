/** Number kinds: a whole number (int) and an amount of money (yuan with at most two decimals). */
import { Input, InputNumber } from "antd";
import { i18n } from "../../../providers/i18n";
import { formatYuan, sanitiseMoneyInput } from "../../../common/money";
import { NO_BREAK, type UiFieldKind } from "./kind";
import { TextFilter } from "./text";

const MONEY_PATTERN = /^\d+(\.\d{1,2})?$/;

export const intKind: UiFieldKind = {
  Control: ({ field, t, value, onChange, block: _block, ...rest }) => (
    <InputNumber
      {...rest}
      value={value as number | undefined}
      onChange={(v) => onChange?.(v)}
      min={field.min}
      max={field.max}
      precision={0}
      style={{ width: "100%" }}
      placeholder={t(field.label)}
    />
  ),
  rules: (field, t) => {
    const label = t(field.label);
    return [
      {
        // a number typed, or an id chosen in a picker (a digit string)
        validator: async (_rule, value: unknown) => {
          if (value === undefined || value === null || value === "") return;
          const n = typeof value === "number" ? value : /^-?\d{1,15}$/.test(String(value)) ? Number(value) : NaN;
          if (!Number.isInteger(n)) throw new Error(t("validation.integer", { label }));
          if (field.min !== undefined && n < field.min) throw new Error(t("validation.min_value", { label, min: field.min }));
          if (field.max !== undefined && n > field.max) throw new Error(t("validation.max_value", { label, max: field.max }));
        },
      },
    ];
  },
  display: (_field, value) => String(value),
  cellStyle: NO_BREAK,
  Filter: TextFilter,
};

export const moneyKind: UiFieldKind = {
  Control: ({ value, onChange, block: _block, field: _field, t: _t, ...rest }) => (
    <Input {...rest} value={value as string | undefined} onChange={(e) => onChange?.(e.target.value)} inputMode="decimal" prefix="¥" placeholder="0.00" />
  ),
  rules: (field, t) => {
    const label = t(field.label);
    return [
      {
        validator: async (_rule, value: unknown) => {
          if (value === undefined || value === null || value === "") return;
          const text = String(value);
          if (!MONEY_PATTERN.test(text)) throw new Error(t("validation.money", { label }));
          if (field.min !== undefined && Number(text) < field.min) throw new Error(t("validation.min_value", { label, min: field.min }));
          if (field.max !== undefined && Number(text) > field.max) throw new Error(t("validation.max_value", { label, max: field.max }));
        },
      },
    ];
  },
  // cleaned as it is typed (spec 5 money helper)
  valueProps: () => ({ normalize: (value: unknown) => (typeof value === "string" ? sanitiseMoneyInput(value) : value) }),
  // grouped as the console's language writes numbers: ¥259,211.50
  display: (_field, value) => formatYuan(String(value), i18n.language),
  cellStyle: NO_BREAK,
  Filter: TextFilter,
};
