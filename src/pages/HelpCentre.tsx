/**
 * The help centre as every signed-in user reads it (`helpcenter`, server/domains/help/): the questions meant for
 * the user's kind of account, by category, found by words typed; each answer opens under its question. The words
 * and the category are kept in the address, so that a search can be sent to someone. The user manual of the site
 * settings (getsysinfo), where one is set, is a link at the top.
 */
import { BookOutlined } from "@ant-design/icons";
import { useQuery } from "@tanstack/react-query";
import { Button, Card, Collapse, Empty, Input, Skeleton, Space, Tabs, Tag, Typography } from "antd";
import { useEffect, useMemo, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { weapi } from "../../providers/weapi";

interface HelpCategory {
  id: number;
  title: string;
  count: number;
}

interface HelpQuestion {
  id: number;
  title: string;
  cate_id: number;
  content: string;
}

interface HelpAnswer {
  items: HelpQuestion[];
  cates: HelpCategory[];
}

/** the longest search the server takes */
const KEYWORD_MAX = 100;

/** The title with each word searched marked, without regard to case. */
function marked(title: string, words: string[]): ReactNode {
  if (words.length === 0) return title;
  const pattern = new RegExp(`(${words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})`, "gi");
  return title.split(pattern).map((part, i) => (i % 2 === 1 ? <mark key={i}>{part}</mark> : part));
}

async function userManualUrl(): Promise<string> {
  const res = await weapi<{ items?: { user_manual_url?: string | null } }>("adminapiv2", "getsysinfo");
  return res.return_code === "SUCCESS" ? (res.data?.items?.user_manual_url ?? "") : "";
}

export default function HelpCentre() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const keyword = params.get("q") ?? "";
  const cateId = params.get("cate") ?? "";
  const words = useMemo(() => keyword.trim().split(/\s+/).filter(Boolean), [keyword]);

  const query = useQuery({
    queryKey: ["helpcenter", keyword.trim(), cateId],
    queryFn: async (): Promise<HelpAnswer> => {
      const res = await weapi<HelpAnswer>("adminapiv2", "helpcenter", { keyword: keyword.trim() || null, cate_id: cateId ? Number(cateId) : null });
      return res.return_code === "SUCCESS" ? { items: res.data?.items ?? [], cates: res.data?.cates ?? [] } : { items: [], cates: [] };
    },
    placeholderData: (previous) => previous,
  });
  const manual = useQuery({ queryKey: ["getsysinfo"], queryFn: userManualUrl, staleTime: 5 * 60_000 });

  const change = (next: { q?: string; cate?: string }) => {
    const merged = { q: keyword, cate: cateId, ...next };
    setParams(Object.fromEntries(Object.entries(merged).filter(([, v]) => v)), { replace: true });
  };

  const cates = query.data?.cates ?? [];
  const items = query.data?.items ?? [];
  // a category the search leaves no question in gives way to all of them
  const cateGone = Boolean(cateId) && query.isSuccess && !query.isPlaceholderData && !cates.some((c) => String(c.id) === cateId);
  useEffect(() => {
    if (cateGone) change({ cate: "" });
  });
  const titleOf = new Map(cates.map((c) => [c.id, c.title]));
  const total = cates.reduce((sum, c) => sum + c.count, 0);
  const tabs = [
    { key: "", label: `${t("help.centre.all")} ${total}` },
    ...cates.map((c) => ({ key: String(c.id), label: <span data-testid={`help-cate-${c.id}`}>{`${c.title} ${c.count}`}</span> })),
  ];

  return (
    <Card
      data-testid="help-centre"
      title={t("help.centre.title")}
      extra={
        manual.data ? (
          <Button type="link" icon={<BookOutlined />} href={manual.data} target="_blank" rel="noopener noreferrer" data-testid="help-user-manual">
            {t("shell.user_manual")}
          </Button>
        ) : null
      }
    >
      <Space direction="vertical" size="middle" style={{ width: "100%" }}>
        <Input.Search
          data-testid="help-search"
          allowClear
          enterButton
          maxLength={KEYWORD_MAX}
          defaultValue={keyword}
          placeholder={t("help.centre.search")}
          onSearch={(value) => change({ q: value.trim() })}
          style={{ maxWidth: 560 }}
        />
        {query.isPending ? (
          <Skeleton active />
        ) : total === 0 ? (
          <Empty data-testid="help-empty" description={words.length > 0 ? t("help.centre.no_match", { keyword: keyword.trim() }) : t("help.centre.empty")} />
        ) : (
          <>
            <Tabs activeKey={cateGone ? "" : cateId} items={tabs} onChange={(key) => change({ cate: key })} style={{ marginBottom: -8 }} />
            <Typography.Text type="secondary" data-testid="help-count">
              {t("help.centre.count", { count: items.length })}
            </Typography.Text>
            <Collapse
              data-testid="help-questions"
              defaultActiveKey={items.length === 1 ? [String(items[0].id)] : []}
              // opened afresh for each answer: a single question found opens at once
              key={items.map((q) => q.id).join(",")}
              items={items.map((q) => ({
                key: String(q.id),
                label: (
                  <span data-testid={`help-question-${q.id}`}>
                    {marked(q.title, words)}
                    {!cateId && (
                      <Tag bordered={false} style={{ marginInlineStart: 8 }}>
                        {titleOf.get(q.cate_id)}
                      </Tag>
                    )}
                  </span>
                ),
                children: <div className="rich-text" data-testid={`help-answer-${q.id}`} dangerouslySetInnerHTML={{ __html: q.content }} />,
              }))}
            />
          </>
        )}
      </Space>
    </Card>
  );
}
