/**
 * The editor of a DIY page's blocks (the field kind `blocks`, common/shopDiy.ts): the blocks in order, each a card
 * with its own fields, moved up or down, removed, or added by kind; beside them (under them on a phone) a phone's
 * preview of the page as parents will see it. A block not yet complete is flagged on its card and left out of the
 * preview; the server refuses the page naming it.
 */
import { Alert, Button, Card, Dropdown, Input, InputNumber, Radio, Segmented, Select, Slider, Space, Tag, Tooltip } from "antd";
import { NoFormStyle } from "antd/es/form/context";
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from "@ant-design/icons";
import type { FieldDecl } from "../../../common/catalogue";
import { DIY_BLOCK_KINDS, DIY_GRID_COLUMNS, DIY_LINK_TYPES, DIY_SPACER_HEIGHTS, diyBlocks, MAX_DIY_BLOCKS, MAX_DIY_GOODS, MAX_DIY_NOTICE, MAX_DIY_TITLE, type DiyBlockKind } from "../../../common/shopDiy";
import { FieldControl } from "../fields";
import type { ControlProps, Translate } from "../fieldKinds/kind";
import { DiyPreview } from "./DiyPreview";
import "./diy.css";

type RawBlock = Record<string, unknown> & { kind: DiyBlockKind };

export function asBlocks(value: unknown): RawBlock[] {
  return Array.isArray(value) ? value.filter((b): b is RawBlock => typeof b === "object" && b !== null && typeof (b as RawBlock).kind === "string") : [];
}

/** whether a block is complete as the server checks it */
export function isComplete(block: RawBlock): boolean {
  return "blocks" in diyBlocks([block]);
}

const NEW_BLOCK: Record<DiyBlockKind, () => RawBlock> = {
  banners: () => ({ kind: "banners" }),
  goods: () => ({ kind: "goods", title: "", source: "category", count: 4, columns: 2 }),
  notice: () => ({ kind: "notice", text: "" }),
  image: () => ({ kind: "image", image: "", link: { type: "none" } }),
  spacer: () => ({ kind: "spacer", height: 16 }),
};

/** the references a block's fields choose, as the form's reference control takes them */
const REFS = {
  category: { name: "cate_id", type: "ref", ref: { entity: "goodscate" }, label: "retail.entity.goodscate" },
  goods: { name: "goods_id", type: "ref", ref: { entity: "goods" }, label: "retail.entity.goods" },
  chosenGoods: { name: "goods_ids", type: "ref", ref: { entity: "goods" }, multiple: true, label: "retail.entity.goods" },
  page: { name: "page_id", type: "ref", ref: { entity: "shopdiy" }, label: "diy.entity" },
  image: { name: "image", type: "image", label: "diy.image" },
} satisfies Record<string, FieldDecl>;

const asId = (value: unknown): number | undefined => (value === undefined || value === null || value === "" ? undefined : Number(value));
const asIds = (value: unknown): number[] => (Array.isArray(value) ? value.map(Number) : []);

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="diy-row">
      <span className="diy-row-label">{label}</span>
      <div className="diy-row-control">{children}</div>
    </div>
  );
}

function BlockFields({ block, set, t, testId }: { block: RawBlock; set: (patch: Record<string, unknown>) => void; t: Translate; testId: string }) {
  switch (block.kind) {
    case "banners":
      return <p className="diy-note">{t("diy.banners_note")}</p>;
    case "goods":
      return (
        <>
          <Row label={t("diy.grid_title")}>
            <Input value={String(block.title ?? "")} maxLength={MAX_DIY_TITLE} onChange={(e) => set({ title: e.target.value })} placeholder={t("diy.grid_title_placeholder")} data-testid={`${testId}-title`} />
          </Row>
          <Row label={t("diy.source")}>
            <Radio.Group value={block.source} onChange={(e) => set({ source: e.target.value })} optionType="button" data-testid={`${testId}-source`}>
              <Radio.Button value="category">{t("diy.source_category")}</Radio.Button>
              <Radio.Button value="chosen">{t("diy.source_chosen")}</Radio.Button>
            </Radio.Group>
          </Row>
          {block.source === "chosen" ? (
            <Row label={t("retail.entity.goods")}>
              <FieldControl field={REFS.chosenGoods} t={t} value={asIds(block.goods_ids).map(String)} onChange={(ids) => set({ goods_ids: asIds(ids) })} data-testid={`${testId}-goods`} />
            </Row>
          ) : (
            <>
              <Row label={t("retail.entity.goodscate")}>
                <FieldControl field={REFS.category} t={t} value={block.cate_id === undefined ? undefined : String(block.cate_id)} onChange={(id) => set({ cate_id: asId(id) })} data-testid={`${testId}-category`} />
              </Row>
              <Row label={t("diy.count")}>
                <InputNumber min={1} max={MAX_DIY_GOODS} precision={0} value={Number(block.count ?? 4)} onChange={(n) => set({ count: n ?? 1 })} data-testid={`${testId}-count`} />
              </Row>
            </>
          )}
          <Row label={t("diy.columns")}>
            <Segmented value={Number(block.columns ?? 2)} options={DIY_GRID_COLUMNS.map((n) => ({ value: n, label: t("diy.columns_n", { count: n }) }))} onChange={(n) => set({ columns: n })} />
          </Row>
        </>
      );
    case "notice":
      return <Input.TextArea value={String(block.text ?? "")} maxLength={MAX_DIY_NOTICE} showCount autoSize={{ minRows: 2, maxRows: 5 }} onChange={(e) => set({ text: e.target.value })} placeholder={t("diy.notice_placeholder")} data-testid={`${testId}-text`} />;
    case "image": {
      const link = (block.link ?? { type: "none" }) as Record<string, unknown>;
      const setLink = (patch: Record<string, unknown>) => set({ link: { ...link, ...patch } });
      return (
        <>
          <FieldControl field={REFS.image} t={t} value={block.image} onChange={(url) => set({ image: url })} data-testid={`${testId}-image`} />
          <Row label={t("diy.link")}>
            <Select value={String(link.type ?? "none")} onChange={(type) => set({ link: { type } })} options={DIY_LINK_TYPES.map((type) => ({ value: type, label: t(`diy.link_${type}`) }))} style={{ minWidth: 160 }} data-testid={`${testId}-link`} />
          </Row>
          {link.type === "goods" && (
            <Row label={t("retail.entity.goods")}>
              <FieldControl field={REFS.goods} t={t} value={link.goods_id === undefined ? undefined : String(link.goods_id)} onChange={(id) => setLink({ goods_id: asId(id) })} />
            </Row>
          )}
          {link.type === "category" && (
            <Row label={t("retail.entity.goodscate")}>
              <FieldControl field={REFS.category} t={t} value={link.cate_id === undefined ? undefined : String(link.cate_id)} onChange={(id) => setLink({ cate_id: asId(id) })} />
            </Row>
          )}
          {link.type === "page" && (
            <Row label={t("diy.entity")}>
              <FieldControl field={REFS.page} t={t} value={link.page_id === undefined ? undefined : String(link.page_id)} onChange={(id) => setLink({ page_id: asId(id) })} />
            </Row>
          )}
          {link.type === "url" && (
            <Row label={t("diy.link_url")}>
              <Input inputMode="url" value={String(link.url ?? "")} onChange={(e) => setLink({ url: e.target.value })} placeholder="https://" />
            </Row>
          )}
        </>
      );
    }
    case "spacer":
      return (
        <Row label={t("diy.height")}>
          <Slider min={DIY_SPACER_HEIGHTS.min} max={DIY_SPACER_HEIGHTS.max} value={Number(block.height ?? 16)} onChange={(height) => set({ height })} tooltip={{ formatter: (n) => `${n}px` }} />
        </Row>
      );
    default:
      return null;
  }
}

export default function DiyEditor({ t, value, onChange, id, "data-testid": testId = "diy-editor" }: ControlProps) {
  const blocks = asBlocks(value);
  const put = (next: RawBlock[]) => onChange?.(next);
  const move = (from: number, to: number) => {
    const next = [...blocks];
    const [moved] = next.splice(from, 1);
    next.splice(to, 0, moved!);
    put(next);
  };
  return (
    <div className="diy-editor" id={id} data-testid={testId}>
      {/* the page's own error stays under it: the blocks' fields are not each marked as wrong */}
      <NoFormStyle status override>
        <div className="diy-editor-blocks">
          {blocks.length === 0 && <Alert type="info" showIcon message={t("diy.empty")} />}
          {blocks.map((block, i) => {
            const complete = isComplete(block);
            const cardId = `${testId}-block-${i + 1}`;
            return (
              <Card
                // a block's place is its identity here: moving one re-renders its neighbour's fields from their values
                key={i}
                size="small"
                className="diy-block"
                data-testid={cardId}
                title={
                  <Space size={6}>
                    <span>{`${i + 1}. ${t(`diy.kind.${block.kind}`)}`}</span>
                    {!complete && <Tag color="warning">{t("diy.incomplete")}</Tag>}
                  </Space>
                }
                extra={
                  <Space size={0}>
                    <Tooltip title={t("diy.move_up")}>
                      <Button type="text" size="small" icon={<ArrowUpOutlined />} aria-label={t("diy.move_up")} disabled={i === 0} onClick={() => move(i, i - 1)} />
                    </Tooltip>
                    <Tooltip title={t("diy.move_down")}>
                      <Button type="text" size="small" icon={<ArrowDownOutlined />} aria-label={t("diy.move_down")} disabled={i === blocks.length - 1} onClick={() => move(i, i + 1)} />
                    </Tooltip>
                    <Tooltip title={t("diy.remove")}>
                      <Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label={t("diy.remove")} onClick={() => put(blocks.filter((_, j) => j !== i))} data-testid={`${cardId}-remove`} />
                    </Tooltip>
                  </Space>
                }
              >
                <BlockFields block={block} t={t} testId={cardId} set={(patch) => put(blocks.map((b, j) => (j === i ? { ...b, ...patch } : b)))} />
              </Card>
            );
          })}
          <Dropdown
            disabled={blocks.length >= MAX_DIY_BLOCKS}
            menu={{ items: DIY_BLOCK_KINDS.map((kind) => ({ key: kind, label: <span data-testid={`${testId}-add-${kind}`}>{t(`diy.kind.${kind}`)}</span> })), onClick: ({ key }) => put([...blocks, NEW_BLOCK[key as DiyBlockKind]()]) }}
            trigger={["click"]}
          >
            <Button icon={<PlusOutlined />} block type="dashed" data-testid={`${testId}-add`}>
              {t("diy.add_block")}
            </Button>
          </Dropdown>
        </div>
      </NoFormStyle>
      <DiyPreview blocks={blocks.filter(isComplete)} left={blocks.filter((b) => !isComplete(b)).length} t={t} />
    </div>
  );
}
