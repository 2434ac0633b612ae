/**
 * A phone's preview of a DIY page being edited: its complete blocks as the server shows them to parents
 * (shopdiypreview: the goods on sale, the banners in use, the shop's colour), asked again a moment after each change.
 */
import { Empty, Spin, Typography } from "antd";
import { NotificationOutlined } from "@ant-design/icons";
import { useEffect, useState } from "react";
import type { ShownDiyBlock } from "../../../common/shopDiy";
import { weapi } from "../../../providers/weapi";
import { shownImageUrl } from "../fieldKinds/formats";
import type { Translate } from "../fieldKinds/kind";

interface PreviewAnswer {
  blocks: ShownDiyBlock[];
  banners: { title: string; image: string }[];
  theme: { main: string };
}

/** what the preview waits after a change before asking (typing in a notice asks once) */
const PREVIEW_DELAY_MS = 400;

function usePreview(blocks: readonly unknown[]): { answer?: PreviewAnswer; loading: boolean } {
  const [answer, setAnswer] = useState<PreviewAnswer>();
  const [loading, setLoading] = useState(false);
  const key = JSON.stringify(blocks);
  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => {
      setLoading(true);
      weapi<{ items?: PreviewAnswer }>("adminapiv2", "shopdiypreview", { blocks: JSON.parse(key) as unknown })
        .then((res) => live && res.return_code === "SUCCESS" && setAnswer(res.data?.items))
        .catch(() => undefined) // the client showed the error
        .finally(() => live && setLoading(false));
    }, PREVIEW_DELAY_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [key]);
  return { answer, loading };
}

function Block({ block, answer, t }: { block: ShownDiyBlock; answer: PreviewAnswer; t: Translate }) {
  switch (block.kind) {
    case "banners":
      return answer.banners.length === 0 ? (
        <div className="diy-phone-placeholder">{t("diy.no_banners")}</div>
      ) : (
        <div className="diy-phone-banners">
          {answer.banners.map((b, i) => (
            <img key={i} src={shownImageUrl(b.image)} alt={b.title} />
          ))}
        </div>
      );
    case "goods":
      return (
        <section className="diy-phone-goods">
          {block.title && <h3>{block.title}</h3>}
          <div className="diy-phone-grid" style={{ gridTemplateColumns: `repeat(${block.columns}, minmax(0, 1fr))` }}>
            {block.goods.map((g) => (
              <div key={g.id} className="diy-phone-card">
                {g.image ? <img src={shownImageUrl(g.image)} alt="" /> : <div className="diy-phone-noimage" />}
                <span className="diy-phone-card-title">{g.title}</span>
                <strong style={{ color: answer.theme.main }}>¥{g.price}</strong>
              </div>
            ))}
          </div>
        </section>
      );
    case "notice":
      return (
        <div className="diy-phone-notice">
          <NotificationOutlined style={{ color: answer.theme.main }} /> <span>{block.text}</span>
        </div>
      );
    case "image":
      return <img className="diy-phone-image" src={shownImageUrl(block.image)} alt="" />;
    case "spacer":
      return <div style={{ height: block.height }} />;
    default:
      return null;
  }
}

export function DiyPreview({ blocks, left, t }: { blocks: readonly unknown[]; left: number; t: Translate }) {
  const { answer, loading } = usePreview(blocks);
  return (
    <aside className="diy-preview" aria-label={t("diy.preview")} data-testid="diy-preview">
      <Typography.Text type="secondary" className="diy-preview-title">
        {t("diy.preview")}
      </Typography.Text>
      <div className="diy-phone">
        <Spin spinning={loading} size="small">
          {answer && answer.blocks.length > 0 ? answer.blocks.map((block, i) => <Block key={i} block={block} answer={answer} t={t} />) : <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("diy.preview_empty")} />}
        </Spin>
      </div>
      {left > 0 && (
        <Typography.Text type="warning" className="diy-preview-left" data-testid="diy-preview-left">
          {t("diy.preview_left", { count: left })}
        </Typography.Text>
      )}
    </aside>
  );
}
