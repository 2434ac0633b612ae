/**
 * A DIY page's blocks as the server stores them and the payer page renders them (common/shopDiy.ts): each input
 * below with what a provider expects of it, written by hand: kept as the block it is (texts trimmed, nothing else
 * kept), or refused naming the block at fault.
 */
import { describe, expect, it } from "vitest";
import { diyBlocks, diyReferences } from "../../common/shopDiy";

const IMAGE = "https://img.example.com/summer.jpg";

describe("a DIY page's blocks", () => {
  // [what, the blocks sent, the blocks kept]
  const kept: [string, unknown[], unknown[]][] = [
    ["no blocks", [], []],
    ["the banners, other keys dropped", [{ kind: "banners", extra: 1 }], [{ kind: "banners" }]],
    [
      "a category's goods, the title trimmed",
      [{ kind: "goods", title: " 校服 ", source: "category", cate_id: 3, count: 4, columns: 2, goods_ids: [1] }],
      [{ kind: "goods", title: "校服", source: "category", cate_id: 3, count: 4, columns: 2 }],
    ],
    ["chosen goods in their order, no title", [{ kind: "goods", title: "", source: "chosen", goods_ids: [9, 2, 5], columns: 3 }], [{ kind: "goods", title: "", source: "chosen", goods_ids: [9, 2, 5], columns: 3 }]],
    ["a notice", [{ kind: "notice", text: "  9 月 1 日取校服 " }], [{ kind: "notice", text: "9 月 1 日取校服" }]],
    ["a picture leading nowhere", [{ kind: "image", image: IMAGE, link: { type: "none", goods_id: 3 } }], [{ kind: "image", image: IMAGE, link: { type: "none" } }]],
    ["a picture leading to a page", [{ kind: "image", image: IMAGE, link: { type: "page", page_id: 7 } }], [{ kind: "image", image: IMAGE, link: { type: "page", page_id: 7 } }]],
    ["a picture leading to an https page", [{ kind: "image", image: IMAGE, link: { type: "url", url: "https://school.example.com/news" } }], [{ kind: "image", image: IMAGE, link: { type: "url", url: "https://school.example.com/news" } }]],
    ["a spacer of the least height", [{ kind: "spacer", height: 4 }], [{ kind: "spacer", height: 4 }]],
  ];
  it.each(kept)("keeps %s", (_what, sent, expected) => {
    expect(diyBlocks(sent)).toEqual({ blocks: expected });
  });

  // [what, the blocks sent, the block named (from 1)]
  const refused: [string, unknown, number][] = [
    ["not a list", { kind: "banners" }, 1],
    ["an unknown kind", [{ kind: "banners" }, { kind: "video", url: IMAGE }], 2],
    ["a category grid without its category", [{ kind: "goods", title: "", source: "category", count: 4, columns: 2 }], 1],
    ["a grid of 21 goods", [{ kind: "goods", title: "", source: "category", cate_id: 3, count: 21, columns: 2 }], 1],
    ["a grid of four columns", [{ kind: "goods", title: "", source: "category", cate_id: 3, count: 4, columns: 4 }], 1],
    ["chosen goods, none chosen", [{ kind: "goods", title: "", source: "chosen", goods_ids: [], columns: 2 }], 1],
    ["the same goods chosen twice", [{ kind: "goods", title: "", source: "chosen", goods_ids: [2, 2], columns: 2 }], 1],
    ["a grid's title of 21 characters", [{ kind: "goods", title: "一".repeat(21), source: "chosen", goods_ids: [2], columns: 2 }], 1],
    ["an empty notice", [{ kind: "spacer", height: 8 }, { kind: "notice", text: "   " }], 2],
    ["a notice of 201 characters", [{ kind: "notice", text: "字".repeat(201) }], 1],
    ["a picture without an address", [{ kind: "image", image: "summer.jpg", link: { type: "none" } }], 1],
    ["a link to a page over http", [{ kind: "image", image: IMAGE, link: { type: "url", url: "http://school.example.com" } }], 1],
    ["a link to goods without the goods", [{ kind: "image", image: IMAGE, link: { type: "goods" } }], 1],
    ["a spacer too high", [{ kind: "spacer", height: 81 }], 1],
    ["a spacer of a fraction", [{ kind: "spacer", height: 8.5 }], 1],
  ];
  it.each(refused)("refuses %s", (_what, sent, index) => {
    expect(diyBlocks(sent)).toEqual({ problem: "block", index });
  });

  it("refuses more than 30 blocks as too many", () => {
    expect(diyBlocks(Array.from({ length: 31 }, () => ({ kind: "spacer", height: 8 })))).toEqual({ problem: "over_count" });
    expect(diyBlocks(Array.from({ length: 30 }, () => ({ kind: "spacer", height: 8 })))).toHaveProperty("blocks");
  });

  it("names each goods item, category and page the blocks refer to once", () => {
    const checked = diyBlocks([
      { kind: "goods", title: "", source: "chosen", goods_ids: [4, 5], columns: 2 },
      { kind: "goods", title: "", source: "category", cate_id: 2, count: 4, columns: 2 },
      { kind: "image", image: IMAGE, link: { type: "goods", goods_id: 5 } },
      { kind: "image", image: IMAGE, link: { type: "category", cate_id: 8 } },
      { kind: "image", image: IMAGE, link: { type: "page", page_id: 3 } },
    ]);
    expect("blocks" in checked && diyReferences(checked.blocks)).toEqual({ goods: [4, 5], categories: [2, 8], pages: [3] });
  });
});
