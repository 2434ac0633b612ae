/**
 * The public home page's sections (server/engine/fieldKinds/lists.ts sectionsKind, common/siteHome.ts): a card a
 * section, its heading, its text and its picture, moved up or down, removed, or added up to the most a page holds.
 */
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from "@ant-design/icons";
import { Button, Card, Input, Space } from "antd";
import { homeSections, MAX_HOME_SECTIONS, MAX_SECTION_TEXT, MAX_SECTION_TITLE, type HomeSection } from "../../../common/siteHome";
import { imageKind } from "./formats";
import type { ControlProps, UiFieldKind } from "./kind";

function asSections(value: unknown): HomeSection[] {
  if (!Array.isArray(value)) return [];
  return value.map((s: Partial<HomeSection> | null) => ({ title: s?.title ?? "", text: s?.text ?? "", image: s?.image ?? "" }));
}

function SectionsControl({ field, t, value, onChange, "data-testid": testId }: ControlProps) {
  const sections = asSections(value);
  const set = (next: HomeSection[]) => onChange?.(next);
  const change = (index: number, patch: Partial<HomeSection>) => set(sections.map((s, i) => (i === index ? { ...s, ...patch } : s)));
  const move = (index: number, by: -1 | 1) => {
    const next = [...sections];
    [next[index], next[index + by]] = [next[index + by], next[index]];
    set(next);
  };
  const ImageControl = imageKind.Control;
  return (
    <Space direction="vertical" size="small" style={{ width: "100%" }} data-testid={testId}>
      {sections.map((section, index) => (
        <Card
          key={index}
          size="small"
          data-testid={`section-${index + 1}`}
          title={t("site.home.section_n", { n: index + 1 })}
          extra={
            <Space size={0}>
              <Button type="text" size="small" icon={<ArrowUpOutlined />} disabled={index === 0} onClick={() => move(index, -1)} aria-label={t("site.home.move_up")} />
              <Button type="text" size="small" icon={<ArrowDownOutlined />} disabled={index === sections.length - 1} onClick={() => move(index, 1)} aria-label={t("site.home.move_down")} />
              <Button type="text" size="small" danger icon={<DeleteOutlined />} onClick={() => set(sections.filter((_, i) => i !== index))} aria-label={t("crud.delete")} />
            </Space>
          }
        >
          <Space direction="vertical" size="small" style={{ width: "100%" }}>
            <Input value={section.title} maxLength={MAX_SECTION_TITLE} showCount placeholder={t("site.home.section_title")} onChange={(e) => change(index, { title: e.target.value })} data-testid={`section-${index + 1}-title`} />
            <Input.TextArea value={section.text} maxLength={MAX_SECTION_TEXT} showCount autoSize={{ minRows: 2, maxRows: 6 }} placeholder={t("site.home.section_text")} onChange={(e) => change(index, { text: e.target.value })} data-testid={`section-${index + 1}-text`} />
            <ImageControl field={field} t={t} value={section.image} onChange={(next) => change(index, { image: typeof next === "string" ? next : "" })} data-testid={`section-${index + 1}-image`} />
          </Space>
        </Card>
      ))}
      <Button icon={<PlusOutlined />} disabled={sections.length >= MAX_HOME_SECTIONS} onClick={() => set([...sections, { title: "", text: "", image: "" }])} data-testid={testId ? `${testId}-add` : undefined}>
        {t("site.home.add_section", { count: MAX_HOME_SECTIONS })}
      </Button>
    </Space>
  );
}

export const sectionsKind: UiFieldKind = {
  Control: (props) => <SectionsControl {...props} />,
  rules: (field, t) => [
    {
      validator: (_rule, value: unknown) => {
        if (!Array.isArray(value) || value.length === 0) return Promise.resolve();
        const checked = homeSections(value);
        if ("sections" in checked) return Promise.resolve();
        const label = t(field.label);
        return Promise.reject(new Error(checked.problem === "over_count" ? t("validation.over_count", { label, count: MAX_HOME_SECTIONS }) : t("validation.sections", { label, index: checked.index })));
      },
    },
  ],
  display: (_field, value, t) => t("site.home.section_count", { count: Array.isArray(value) ? value.length : 0 }),
  wide: true,
};
