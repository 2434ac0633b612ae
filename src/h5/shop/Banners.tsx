/**
 * The shop's banners at the top of its goods (bannerlist): pictures side by side, swiped one at a time (the browser's
 * own scroll snapping), each opening what it leads to: a goods item, a category, a page of the shop or a web page.
 */
import type { ShopBanner } from "../api";
import { shownImageUrl } from "./parts";
import { useShopText } from "./text";

interface Props {
  banners: readonly ShopBanner[];
  onGoods: (id: number) => void;
  onCategory: (id: number) => void;
  onPage: (id: number) => void;
}

export function Banners({ banners, onGoods, onCategory, onPage }: Props) {
  const { s } = useShopText();
  if (banners.length === 0) return null;
  return (
    <section className="banners" aria-label={s("banners")} data-testid="shop-banners">
      <div className="banner-track">
        {banners.map((banner, i) => {
          // the first is seen at once; the others load as they are swiped to
          const picture = <img src={shownImageUrl(banner.image)} alt={banner.title} loading={i === 0 ? "eager" : "lazy"} decoding="async" />;
          const { link } = banner;
          if (link.type === "url") {
            return (
              <a key={i} className="banner" href={link.url} rel="noopener noreferrer" data-testid="shop-banner">
                {picture}
              </a>
            );
          }
          if (link.type === "none") {
            return (
              <div key={i} className="banner" data-testid="shop-banner">
                {picture}
              </div>
            );
          }
          return (
            <button key={i} type="button" className="banner" data-testid="shop-banner" onClick={() => (link.type === "goods" ? onGoods(link.id) : link.type === "category" ? onCategory(link.id) : onPage(link.id))}>
              {picture}
            </button>
          );
        })}
      </div>
    </section>
  );
}
