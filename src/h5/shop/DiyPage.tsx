/**
 * The shop's DIY pages on the payer page (common/shopDiy.ts, as server/domains/retail/shopPages.ts shows them): the
 * home page's blocks above the goods, and another page a banner or a picture leads to, asked with h5shoppage. A goods
 * grid by category offers "more", the category in the goods list.
 */
import { useEffect, useState } from "react";
import type { ShownDiyBlock } from "../../../common/shopDiy";
import { h5call, type ShopBanner, type ShopPage } from "../api";
import { problemOf, ProblemText, type Problem } from "../ui";
import { Banners } from "./Banners";
import { BackLink } from "./GoodsPage";
import { GoodsCard } from "./GoodsList";
import { shownImageUrl } from "./parts";
import { useShopText } from "./text";

export interface DiyLinks {
  onGoods: (id: number) => void;
  onCategory: (id: number) => void;
  onPage: (id: number) => void;
}

function Block({ block, banners, links }: { block: ShownDiyBlock; banners: readonly ShopBanner[]; links: DiyLinks }) {
  const { s } = useShopText();
  switch (block.kind) {
    case "banners":
      return <Banners banners={banners} {...links} />;
    case "goods":
      return (
        <section className="diy-goods" data-testid="diy-goods">
          {block.title || block.cate_id ? (
            <div className="diy-goods-head">
              {block.title ? <h2>{block.title}</h2> : <span />}
              {block.cate_id ? (
                <button type="button" className="btn link" onClick={() => links.onCategory(block.cate_id!)}>
                  {s("see_more")}
                </button>
              ) : null}
            </div>
          ) : null}
          <ul className="goods-grid" style={{ gridTemplateColumns: `repeat(${block.columns}, minmax(0, 1fr))` }}>
            {block.goods.map((g) => (
              <GoodsCard key={g.id} goods={g} onOpen={() => links.onGoods(g.id)} testId={`diy-goods-${g.id}`} />
            ))}
          </ul>
        </section>
      );
    case "notice":
      return (
        <p className="diy-notice" role="note" data-testid="diy-notice">
          {block.text}
        </p>
      );
    case "image": {
      const picture = <img src={shownImageUrl(block.image)} alt="" loading="lazy" decoding="async" />;
      const { link } = block;
      if (link.type === "url") return <a className="diy-image" href={link.url} rel="noopener noreferrer">{picture}</a>;
      if (link.type === "none") return <div className="diy-image">{picture}</div>;
      const open = () => (link.type === "goods" ? links.onGoods(link.goods_id!) : link.type === "category" ? links.onCategory(link.cate_id!) : links.onPage(link.page_id!));
      return (
        <button type="button" className="diy-image" data-testid="diy-image" onClick={open}>
          {picture}
        </button>
      );
    }
    case "spacer":
      return <div aria-hidden="true" style={{ height: block.height }} />;
    default:
      return null;
  }
}

export function DiyBlocks({ blocks, banners, links }: { blocks: readonly ShownDiyBlock[]; banners: readonly ShopBanner[]; links: DiyLinks }) {
  return (
    <div className="diy-page" data-testid="diy-page">
      {blocks.map((block, i) => (
        <Block key={i} block={block} banners={banners} links={links} />
      ))}
    </div>
  );
}

type PageLoad = { state: "loading" } | { state: "ready"; page: ShopPage } | { state: "problem"; problem: Problem };

/** A page other than the home page, opened from a banner or a picture. */
export function DiyPageView({ code, id, banners, links, onBack }: { code: string; id: number; banners: readonly ShopBanner[]; links: DiyLinks; onBack: () => void }) {
  const { s, t } = useShopText();
  const [load, setLoad] = useState<PageLoad>({ state: "loading" });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let cancelled = false;
    setLoad({ state: "loading" });
    h5call("h5shoppage", { code, id }).then(
      (page) => !cancelled && setLoad({ state: "ready", page }),
      (err: unknown) => !cancelled && setLoad({ state: "problem", problem: problemOf(err) }),
    );
    return () => {
      cancelled = true;
    };
  }, [code, id, attempt]);
  return (
    <>
      <BackLink label={s("back_to_shop")} onClick={onBack} />
      {load.state === "loading" ? <p className="muted center">{t("loading")}</p> : null}
      {load.state === "problem" ? (
        <section className="card">
          <ProblemText problem={load.problem} testId="diy-page-error" />
          <button type="button" className="btn" onClick={() => setAttempt((a) => a + 1)}>
            {t("retry")}
          </button>
        </section>
      ) : null}
      {load.state === "ready" ? (
        <>
          <h1 className="diy-title">{load.page.title}</h1>
          <DiyBlocks blocks={load.page.blocks} banners={banners} links={links} />
        </>
      ) : null}
    </>
  );
}
