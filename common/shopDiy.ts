/**
 * A shop's DIY page (shopdiylist): an ordered list of blocks the payer page renders top to bottom, one page the
 * shop's home. The blocks' shapes and their check, shared by the server (the field kind `blocks`, which stores exactly
 * what `diyBlocks` gives back), the console's editor and the payer page, which reads it as the console does. That each
 * goods item, category and page named is the provider's own is checked on the server.
 */
import { isImageUrl } from "./fieldRules";

export const DIY_BLOCK_KINDS = ["banners", "goods", "notice", "image", "spacer"] as const;
export type DiyBlockKind = (typeof DIY_BLOCK_KINDS)[number];

/** Where an image block leads when tapped (a banner's links, and another DIY page). */
export const DIY_LINK_TYPES = ["none", "goods", "category", "page", "url"] as const;
export type DiyLinkType = (typeof DIY_LINK_TYPES)[number];

export const MAX_DIY_BLOCKS = 30;
/** goods a grid names or shows, at most */
export const MAX_DIY_GOODS = 20;
export const MAX_DIY_TITLE = 20;
export const MAX_DIY_NOTICE = 200;
export const DIY_SPACER_HEIGHTS = { min: 4, max: 80 } as const;
export const DIY_GRID_COLUMNS = [1, 2, 3] as const;

export interface DiyLink {
  type: DiyLinkType;
  goods_id?: number;
  cate_id?: number;
  page_id?: number;
  url?: string;
}

export type DiyBlock =
  /** the shop's banners (bannerlist), swiped one at a time */
  | { kind: "banners" }
  /** goods in a grid: the newest of a category (`count` of them), or the ones chosen, in their order */
  | { kind: "goods"; title: string; source: "category"; cate_id: number; count: number; columns: number }
  | { kind: "goods"; title: string; source: "chosen"; goods_ids: number[]; columns: number }
  /** a line of text (an opening day, a notice of the school's) */
  | { kind: "notice"; text: string }
  | { kind: "image"; image: string; link: DiyLink }
  | { kind: "spacer"; height: number };

/** A goods item as a grid shows it (as the shop's goods list does): its first picture, its lowest price in yuan. */
export interface DiyGoodsCard {
  id: number;
  title: string;
  cate_id: number | null;
  image: string | null;
  price: string;
  stock: number;
  delivery: "pickup" | "express" | "both";
}

/**
 * A block as the payer page and the console's preview show it (server/domains/retail/shopPages.ts shownBlocks): a goods
 * grid with the goods it shows (by category: with the category, for "more"); the others as stored.
 */
export type ShownDiyBlock =
  | Exclude<DiyBlock, { kind: "goods" }>
  | { kind: "goods"; title: string; columns: number; goods: DiyGoodsCard[]; cate_id?: number };

/** What is wrong with a page's blocks: too many, or the first block at fault (counted from 1). */
export type DiyProblem = { problem: "over_count" } | { problem: "block"; index: number };

const isId = (value: unknown): value is number => Number.isInteger(value) && (value as number) > 0;
const text = (value: unknown): string => (typeof value === "string" ? value.trim() : "");

function link(value: unknown): DiyLink | null {
  const raw = (value ?? { type: "none" }) as Record<string, unknown>;
  switch (raw.type) {
    case "none":
      return { type: "none" };
    case "goods":
      return isId(raw.goods_id) ? { type: "goods", goods_id: raw.goods_id } : null;
    case "category":
      return isId(raw.cate_id) ? { type: "category", cate_id: raw.cate_id } : null;
    case "page":
      return isId(raw.page_id) ? { type: "page", page_id: raw.page_id } : null;
    case "url": {
      const url = text(raw.url);
      // a page the payer leaves the shop for: over https only
      return url.startsWith("https://") && isImageUrl(url) ? { type: "url", url } : null;
    }
    default:
      return null;
  }
}

/** One block as stored (exactly its kind's keys, texts trimmed), or null when it is not a complete block. */
function block(value: unknown): DiyBlock | null {
  if (typeof value !== "object" || value === null) return null;
  const raw = value as Record<string, unknown>;
  switch (raw.kind) {
    case "banners":
      return { kind: "banners" };
    case "goods": {
      const title = text(raw.title);
      const columns = Number(raw.columns);
      if (title.length > MAX_DIY_TITLE || !(DIY_GRID_COLUMNS as readonly number[]).includes(columns)) return null;
      if (raw.source === "category") {
        const count = Number(raw.count);
        if (!isId(raw.cate_id) || !Number.isInteger(count) || count < 1 || count > MAX_DIY_GOODS) return null;
        return { kind: "goods", title, source: "category", cate_id: raw.cate_id, count, columns };
      }
      if (raw.source === "chosen") {
        const ids = Array.isArray(raw.goods_ids) ? raw.goods_ids : [];
        if (ids.length < 1 || ids.length > MAX_DIY_GOODS || !ids.every(isId) || new Set(ids).size !== ids.length) return null;
        return { kind: "goods", title, source: "chosen", goods_ids: ids, columns };
      }
      return null;
    }
    case "notice": {
      const notice = text(raw.text);
      return notice.length >= 1 && notice.length <= MAX_DIY_NOTICE ? { kind: "notice", text: notice } : null;
    }
    case "image": {
      const image = text(raw.image);
      const to = link(raw.link);
      return isImageUrl(image) && to ? { kind: "image", image, link: to } : null;
    }
    case "spacer": {
      const height = Number(raw.height);
      return Number.isInteger(height) && height >= DIY_SPACER_HEIGHTS.min && height <= DIY_SPACER_HEIGHTS.max ? { kind: "spacer", height } : null;
    }
    default:
      return null;
  }
}

/** The blocks as stored, or what is wrong with them. */
export function diyBlocks(value: unknown): { blocks: DiyBlock[] } | DiyProblem {
  if (!Array.isArray(value)) return { problem: "block", index: 1 };
  if (value.length > MAX_DIY_BLOCKS) return { problem: "over_count" };
  const blocks: DiyBlock[] = [];
  for (const [i, raw] of value.entries()) {
    const checked = block(raw);
    if (!checked) return { problem: "block", index: i + 1 };
    blocks.push(checked);
  }
  return { blocks };
}

/** The records the blocks name, by kind: each must be the provider's own (checked on the server). */
export function diyReferences(blocks: readonly DiyBlock[]): { goods: number[]; categories: number[]; pages: number[] } {
  const goods = new Set<number>();
  const categories = new Set<number>();
  const pages = new Set<number>();
  for (const b of blocks) {
    if (b.kind === "goods" && b.source === "chosen") b.goods_ids.forEach((id) => goods.add(id));
    if (b.kind === "goods" && b.source === "category") categories.add(b.cate_id);
    if (b.kind === "image") {
      if (b.link.goods_id) goods.add(b.link.goods_id);
      if (b.link.cate_id) categories.add(b.link.cate_id);
      if (b.link.page_id) pages.add(b.link.page_id);
    }
  }
  return { goods: [...goods], categories: [...categories], pages: [...pages] };
}
