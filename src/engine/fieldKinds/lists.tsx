/**
 * Kinds holding several values (server/engine/fieldKinds/lists.ts): images in order, short texts (a goods item's spec
 * names) and a value per name (a SKU's specs); and rich text, HTML the server keeps to an allow-list.
 */
import { Image, Input, Select, Space, Tag, Typography } from "antd";
import { lazy, Suspense } from "react";
import { isImageUrl } from "../../../common/fieldRules";
import { shownImageUrl } from "./formats";
import { WRAPS, type ControlProps, type UiFieldKind } from "./kind";
import { textRules } from "./text";

const DEFAULT_MAX_IMAGES = 9;

function asList(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String) : [];
}

function asSpecs(value: unknown): [string, string][] {
  return value && typeof value === "object" && !Array.isArray(value) ? Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, String(v)]) : [];
}

/** Texts typed one by one (Enter or a comma ends each), each kept once. */
function TextsControl({ field, t, value, onChange, block: _block, ...rest }: ControlProps) {
  return (
    <Select
      {...rest}
      mode="tags"
      open={false}
      value={asList(value)}
      onChange={(texts: string[]) => onChange?.(texts.map((s) => s.trim()).filter(Boolean))}
      tokenSeparators={[",", "，", "、"]}
      placeholder={t(field.label)}
      style={{ width: "100%" }}
    />
  );
}

// antd's upload loads with the first form showing an image field (as the image kind's)
const ImageUpload = lazy(() => import("../ImageUpload"));

export const imagesKind: UiFieldKind = {
  // uploaded in order, reordered and removed in place, at most the field's count
  Control: ({ field, value, onChange, "data-testid": testId }) => (
    <Suspense fallback={null}>
      <ImageUpload multiple max={field.max ?? DEFAULT_MAX_IMAGES} value={asList(value)} onChange={(next) => onChange?.(Array.isArray(next) ? next : [])} data-testid={testId} />
    </Suspense>
  ),
  rules: (field, t) => [
    {
      validator: (_rule, value: unknown) => {
        const urls = asList(value);
        if (urls.some((url) => !isImageUrl(url))) return Promise.reject(new Error(t("validation.image", { label: t(field.label) })));
        const max = field.max ?? DEFAULT_MAX_IMAGES;
        if (urls.length > max) return Promise.reject(new Error(t("validation.over_count", { label: t(field.label), count: max })));
        return Promise.resolve();
      },
    },
  ],
  display: (field, value) => {
    const urls = asList(value);
    return (
      <Image.PreviewGroup>
        <Space size={4} wrap>
          {urls.map((url) => (
            <Image key={url} src={shownImageUrl(url)} alt={field.name} width={40} height={40} style={{ objectFit: "cover" }} />
          ))}
        </Space>
      </Image.PreviewGroup>
    );
  },
  cellStyle: { minWidth: 48, maxWidth: 140 },
};

export const stringsKind: UiFieldKind = {
  Control: (props) => <TextsControl {...props} />,
  display: (_field, value) => (
    <Space size={4} wrap>
      {asList(value).map((text) => (
        <Tag key={text}>{text}</Tag>
      ))}
    </Space>
  ),
  cellStyle: WRAPS,
};

/** A SKU's specs as tags: 尺码 130 · 颜色 藏青 (built by the goods form from its spec names, not typed here). */
function SpecTags({ value }: { value: unknown }) {
  return (
    <Space size={4} wrap>
      {asSpecs(value).map(([name, v]) => (
        <Tag key={name}>
          <Typography.Text type="secondary">{name}</Typography.Text> {v}
        </Tag>
      ))}
    </Space>
  );
}

export const specsKind: UiFieldKind = {
  Control: ({ value }) => <SpecTags value={value} />,
  display: (_field, value) => <SpecTags value={value} />,
  cellStyle: WRAPS,
};

/** Rich text as the server kept it (its allow-list); a list shows its words only. */
export const richtextKind: UiFieldKind = {
  Control: ({ field, t, value, onChange, block: _block, ...rest }) => (
    <Input.TextArea {...rest} value={value as string | undefined} onChange={(e) => onChange?.(e.target.value)} autoSize={{ minRows: 4, maxRows: 16 }} placeholder={t(field.label)} showCount maxLength={field.max} />
  ),
  rules: textRules,
  display: (_field, value) => <div className="rich-text" dangerouslySetInnerHTML={{ __html: String(value) }} />,
  cellStyle: WRAPS,
};

