/** Text kinds: a line (string), free text (text) and a write-only password. */
import { Input } from "antd";
import { FILTER_TEXT_MAX, type FieldDecl } from "../../../common/catalogue";
import { maskedText } from "../../../common/fieldExtras";
import { WRAPS, type ControlProps, type Translate, type UiFieldKind } from "./kind";

/** Length and pattern rules of a text field. */
export function textRules(field: FieldDecl, t: Translate) {
  const label = t(field.label);
  return [
    ...(field.min !== undefined ? [{ min: field.min, message: t("validation.min_length", { label, min: field.min }) }] : []),
    ...(field.max !== undefined ? [{ max: field.max, message: t("validation.max_length", { label, max: field.max }) }] : []),
    ...(field.pattern ? [{ pattern: new RegExp(field.pattern), message: t(field.patternMessage ?? "validation.pattern", { label }) }] : []),
  ];
}

export function plainText(_field: FieldDecl, value: unknown) {
  return String(value);
}

function TextFilter({ field, t, block, value, onChange, id }: ControlProps) {
  return (
    <Input id={id} value={value as string | undefined} onChange={(e) => onChange?.(e.target.value)} allowClear maxLength={FILTER_TEXT_MAX} placeholder={t(field.label)} style={block ? { width: "100%" } : undefined} />
  );
}

export const stringKind: UiFieldKind = {
  Control: ({ field, t, value, onChange, block: _block, ...rest }) => (
    <Input {...rest} value={value as string | undefined} onChange={(e) => onChange?.(e.target.value)} placeholder={t(field.label)} maxLength={field.max} />
  ),
  rules: textRules,
  // a masked text (a bank account) shows masked in lists and details; the edit form holds it whole
  display: (field, value) => maskedText(field, String(value)),
  cellStyle: WRAPS,
  Filter: TextFilter,
};

export const textKind: UiFieldKind = {
  Control: ({ field, t, value, onChange, block: _block, ...rest }) => (
    <Input.TextArea
      {...rest}
      value={value as string | undefined}
      onChange={(e) => onChange?.(e.target.value)}
      rows={3}
      placeholder={t(field.label)}
      showCount={field.max !== undefined}
      maxLength={field.max}
    />
  ),
  rules: textRules,
  display: plainText,
  cellStyle: WRAPS,
  Filter: TextFilter,
};

export const passwordKind: UiFieldKind = {
  Control: ({ field, t, value, onChange, block: _block, ...rest }) => (
    <Input.Password {...rest} value={value as string | undefined} onChange={(e) => onChange?.(e.target.value)} placeholder={t(field.label)} autoComplete="new-password" />
  ),
  rules: textRules,
  // never returned by the server
  display: () => "••••••",
};

export { TextFilter };
