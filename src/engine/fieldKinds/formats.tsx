/** Kinds of text with a format: a phone number, an image by URL and an identity card number (masked in lists). */
import { Image, Input, Space } from "antd";
import { isIdCard, isImageUrl, isPhone, maskIdCard } from "../../../common/fieldRules";
import type { FieldDecl } from "../../../common/catalogue";
import { NO_BREAK, type Translate, type UiFieldKind } from "./kind";
import { TextFilter, textRules } from "./text";

function formatRule(check: (v: string) => boolean, message: string, normalise = (v: string) => v) {
  return (field: FieldDecl, t: Translate) => [
    ...textRules(field, t),
    {
      validator: async (_rule: unknown, value: unknown) => {
        if (value === undefined || value === null || value === "") return;
        if (!check(normalise(String(value).trim()))) throw new Error(t(message, { label: t(field.label) }));
      },
    },
  ];
}

export const phoneKind: UiFieldKind = {
  Control: ({ field, t, value, onChange, block: _block, ...rest }) => (
    <Input {...rest} type="tel" inputMode="tel" value={value as string | undefined} onChange={(e) => onChange?.(e.target.value)} placeholder={t(field.label)} maxLength={field.max ?? 20} />
  ),
  rules: formatRule(isPhone, "validation.phone", (v) => v.replace(/[\s()]/g, "")),
  display: (_field, value) => (
    // a phone dials from the list
    <a href={`tel:${String(value)}`} onClick={(e) => e.stopPropagation()}>
      {String(value)}
    </a>
  ),
  cellStyle: NO_BREAK,
  Filter: TextFilter,
};

export const imageKind: UiFieldKind = {
  Control: ({ field, t, value, onChange, block: _block, ...rest }) => (
    <Space.Compact block>
      <Input {...rest} inputMode="url" value={value as string | undefined} onChange={(e) => onChange?.(e.target.value)} placeholder="https://" />
      {typeof value === "string" && isImageUrl(value) && <Image src={value} alt={t(field.label)} width={32} height={32} style={{ objectFit: "contain" }} />}
    </Space.Compact>
  ),
  rules: formatRule(isImageUrl, "validation.image"),
  display: (field, value) => <Image src={String(value)} alt={field.name} width={40} height={40} style={{ objectFit: "contain" }} />,
  cellStyle: NO_BREAK,
};

export const idcardKind: UiFieldKind = {
  Control: ({ field, t, value, onChange, block: _block, ...rest }) => (
    <Input {...rest} value={value as string | undefined} onChange={(e) => onChange?.(e.target.value.toUpperCase())} placeholder={t(field.label)} maxLength={18} autoComplete="off" />
  ),
  rules: formatRule(isIdCard, "validation.idcard", (v) => v.toUpperCase()),
  // lists and details show the region and the check character only; the edit form shows it whole
  display: (_field, value) => maskIdCard(String(value)),
  cellStyle: NO_BREAK,
  Filter: TextFilter,
};

