/**
 * Kinds holding several values (server/engine/fieldKinds/lists.ts): images in order, short texts (a goods item's spec
 * names) and a value per name (a SKU's specs); and rich text, HTML the server keeps to an allow-list.
 */
import { Button, Image, Input, Select, Space, Tag, Typography } from "antd";
import { DeleteOutlined, PlusOutlined } from "@ant-design/icons";
import { lazy, Suspense } from "react";
import { isImageUrl } from "../../../common/fieldRules";
import { MAX_SPEC_NAMES, MAX_SPEC_VALUES, specGroupsProblem, type SpecGroup } from "../../../common/specs";
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

function asGroups(value: unknown): SpecGroup[] {
  return Array.isArray(value)
    ? value.filter((g) => g && typeof g === "object").map((g: { name?: unknown; values?: unknown }) => ({ name: typeof g.name === "string" ? g.name : "", values: asList(g.values) }))
    : [];
}

/** A template's spec names, each a line: the name, then its values typed one by one (Enter or a comma ends each). */
function SpecGroupsControl({ field, t, value, onChange, "data-testid": testId }: ControlProps) {
  const groups = asGroups(value);
  const set = (next: SpecGroup[]) => onChange?.(next);
  const change = (i: number, patch: Partial<SpecGroup>) => set(groups.map((g, j) => (j === i ? { ...g, ...patch } : g)));
  return (
    <Space direction="vertical" style={{ width: "100%" }} data-testid={testId}>
      {groups.map((g, i) => (
        <Space.Compact key={i} style={{ width: "100%" }}>
          <Input
            value={g.name}
            onChange={(e) => change(i, { name: e.target.value })}
            maxLength={field.max}
            placeholder={t("retail.spectemplate.name")}
            aria-label={t("retail.spectemplate.name")}
            style={{ width: "30%", minWidth: 90 }}
          />
          <Select
            mode="tags"
            open={false}
            value={g.values}
            onChange={(texts: string[]) => change(i, { values: [...new Set(texts.map((s) => s.trim()).filter(Boolean))] })}
            tokenSeparators={[",", "，", "、"]}
            placeholder={t("retail.spectemplate.values")}
            aria-label={t("retail.spectemplate.values")}
            style={{ flex: 1 }}
          />
          <Button icon={<DeleteOutlined />} aria-label={t("retail.spectemplate.remove")} onClick={() => set(groups.filter((_, j) => j !== i))} />
        </Space.Compact>
      ))}
      {groups.length < MAX_SPEC_NAMES && (
        <Button type="dashed" icon={<PlusOutlined />} onClick={() => set([...groups, { name: "", values: [] }])}>
          {t("retail.spectemplate.add")}
        </Button>
      )}
    </Space>
  );
}

/** A template's specs as lines of tags: 尺码 120 130 140. */
function SpecGroupTags({ value }: { value: unknown }) {
  return (
    <Space direction="vertical" size={2}>
      {asGroups(value).map((g) => (
        <Space key={g.name} size={4} wrap>
          <Typography.Text type="secondary">{g.name}</Typography.Text>
          {g.values.map((v) => (
            <Tag key={v}>{v}</Tag>
          ))}
        </Space>
      ))}
    </Space>
  );
}

export const specgroupsKind: UiFieldKind = {
  Control: (props) => <SpecGroupsControl {...props} />,
  rules: (field, t) => [
    {
      validator: (_rule, value: unknown) => {
        const groups = asGroups(value).map((g) => ({ name: g.name.trim(), values: g.values }));
        if (groups.length === 0) return Promise.resolve();
        const label = t(field.label);
        const problem = specGroupsProblem(groups, field.max ?? 20);
        if (problem === null) return Promise.resolve();
        const message =
          problem === "required"
            ? t("validation.required", { label: t("retail.spectemplate.name") })
            : problem === "too_long"
              ? t("validation.max_length", { label, max: field.max ?? 20 })
              : problem === "over_count"
                ? t("validation.over_count", { label, count: MAX_SPEC_NAMES })
                : problem === "duplicate"
                  ? t("validation.duplicate", { label })
                  : t("validation.spec_values", { label, count: MAX_SPEC_VALUES });
        return Promise.reject(new Error(message));
      },
    },
  ],
  display: (_field, value) => <SpecGroupTags value={value} />,
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

