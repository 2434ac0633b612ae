/** Kinds of text with a format: a phone number, an image by URL and an identity card number (masked in lists). */
import { lazy, Suspense } from "react";
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

// antd's upload and the control load with the first form that shows an image field, not with the console
const ImageUpload = lazy(() => import("../ImageUpload"));

/** the path of an image the server keeps (server/uploads/keys.ts) */
const UPLOADED_IMAGE_PATH = /^\/files\/img\/[0-9a-f]{64}_[1-9][0-9]{0,3}\.webp$/;

/**
 * An image the server keeps is shown from the console's own address, whichever address its URL names (PUBLIC_URL,
 * which phones reach, may not be the one the console was opened at, and the page's CSP loads images from itself).
 */
export function shownImageUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return UPLOADED_IMAGE_PATH.test(parsed.pathname) && parsed.search === "" ? parsed.pathname : url;
  } catch {
    return url;
  }
}

/** the narrowest width the server keeps of an image wider than it (server/uploads/images.ts IMAGE_WIDTHS[0]) */
const THUMB_WIDTH = 160;

/** A small copy of an image the server keeps, for a grid of many (its narrowest variant); any other image as it is. */
export function thumbnailUrl(url: string): string {
  const shown = shownImageUrl(url);
  const match = /^(\/files\/img\/[0-9a-f]{64})_(\d+)\.webp$/.exec(shown);
  return match && Number(match[2]) > THUMB_WIDTH ? `${match[1]}_${THUMB_WIDTH}.webp` : shown;
}

export const imageKind: UiFieldKind = {
  // an image uploaded (its URL), or an address pasted in the box under it; the box keeps the field's id and test id
  Control: ({ field: _field, t, value, onChange, block: _block, ...rest }) => {
    const url = typeof value === "string" ? value : "";
    const testId = rest["data-testid"];
    return (
      <Space direction="vertical" size={4} style={{ width: "100%" }}>
        <Suspense fallback={null}>
          <ImageUpload value={url && isImageUrl(url) ? url : null} onChange={(next) => onChange?.(typeof next === "string" ? next : "")} data-testid={testId ? `${testId}-upload` : undefined} />
        </Suspense>
        <Input {...rest} inputMode="url" value={url} onChange={(e) => onChange?.(e.target.value)} placeholder={t("uploads.paste_url")} allowClear />
      </Space>
    );
  },
  rules: formatRule(isImageUrl, "validation.image"),
  display: (field, value) => <Image src={shownImageUrl(String(value))} alt={field.name} width={40} height={40} style={{ objectFit: "contain" }} />,
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

