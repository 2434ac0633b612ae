/**
 * The notices sent (server/domains/notices/): every reminder, payment and refund notice and daily report of the
 * user's provider and schools, newest first, as its recipient reads it (drawn in the user's language). With the
 * sandbox notifier nothing leaves the server and this is its outbox. The page asks again every two seconds while a
 * notice is still on its way.
 */
import { ReloadOutlined } from "@ant-design/icons";
import { useQuery } from "@tanstack/react-query";
import { Button, Card, Empty, Grid, Segmented, Space, Table, Tag, Tooltip, Typography, type TableProps } from "antd";
import { useState, type HTMLAttributes } from "react";
import { useTranslation } from "react-i18next";
import { weapi } from "../../providers/weapi";
import { scope } from "../../providers/dataProvider";
import { TimeText } from "../lib/TimeText";

export interface NoticeItem {
  id: number;
  sch_id: number | null;
  school: string | null;
  kind: "reminder" | "daily_report" | "payment" | "refund";
  channel: "sms" | "wechat";
  recipient: string;
  recipient_name: string;
  text: string;
  status: "queued" | "sending" | "sent" | "failed";
  driver: string | null;
  error: string | null;
  created_by: string;
  created_at: string;
  sent_at: string | null;
}

const POLL_MS = 2000;
const PAGE_SIZE = 20;
const KINDS = ["reminder", "payment", "refund", "daily_report"] as const;
const STATUS_COLOURS: Record<NoticeItem["status"], string> = { queued: "default", sending: "processing", sent: "success", failed: "error" };
const KIND_COLOURS: Record<NoticeItem["kind"], string> = { reminder: "orange", payment: "green", refund: "purple", daily_report: "blue" };

function NoticeState({ notice }: { notice: NoticeItem }) {
  const { t } = useTranslation();
  const tag = (
    <Tag color={STATUS_COLOURS[notice.status]} data-testid="notice-status">
      {t(`notices.status.${notice.status}`)}
    </Tag>
  );
  return notice.error && notice.status !== "sent" ? <Tooltip title={notice.error}>{tag}</Tooltip> : tag;
}

export default function NoticeList() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [kind, setKind] = useState<string>("");
  const narrow = Grid.useBreakpoint().md === false;
  const query = useQuery({
    queryKey: ["noticelist", page, kind],
    queryFn: async () => {
      const res = await weapi<{ items: NoticeItem[]; total: number }>("adminapiv2", "noticelist", { ...scope(), page, limit: PAGE_SIZE, ...(kind ? { kind } : {}) });
      return res.return_code === "SUCCESS" ? { items: res.data?.items ?? [], total: res.data?.total ?? 0 } : { items: [], total: 0 };
    },
    // a notice on its way is asked for again until it is sent or failed
    refetchInterval: (q) => (q.state.data?.items.some((n) => n.status === "queued" || n.status === "sending") ? POLL_MS : false),
  });
  const when = (value: string) => <TimeText value={value} unit="minute" />;

  const recipient = (n: NoticeItem) => (
    <Space size={4} wrap>
      <Tag bordered={false}>{t(`notices.channel.${n.channel}`)}</Tag>
      <span>{[n.recipient_name, n.channel === "sms" ? n.recipient : null].filter(Boolean).join(" ")}</span>
    </Space>
  );

  const columns: TableProps<NoticeItem>["columns"] = [
    { key: "created_at", title: t("notices.column.created_at"), width: 150, responsive: ["md"], render: (_, n) => when(n.created_at) },
    {
      key: "kind",
      title: t("notices.column.kind"),
      width: 110,
      responsive: ["md"],
      render: (_, n) => <Tag color={KIND_COLOURS[n.kind]}>{t(`notices.kind.${n.kind}`)}</Tag>,
    },
    { key: "recipient", title: t("notices.column.recipient"), responsive: ["md"], render: (_, n) => recipient(n) },
    {
      key: "text",
      title: t("notices.column.text"),
      render: (_, n) => (
        <Space direction="vertical" size={2}>
          {/* a phone shows the rest of the row around the message */}
          {narrow && (
            <Space size={4} wrap>
              <Tag color={KIND_COLOURS[n.kind]}>{t(`notices.kind.${n.kind}`)}</Tag>
              <NoticeState notice={n} />
              <Typography.Text type="secondary">{when(n.created_at)}</Typography.Text>
            </Space>
          )}
          {narrow && recipient(n)}
          <Typography.Text style={{ whiteSpace: "pre-wrap" }} data-testid="notice-text">
            {n.text}
          </Typography.Text>
          {n.school && <Typography.Text type="secondary">{n.school}</Typography.Text>}
        </Space>
      ),
    },
    { key: "status", title: t("notices.column.status"), width: 110, responsive: ["md"], render: (_, n) => <NoticeState notice={n} /> },
    { key: "created_by", title: t("notices.column.created_by"), width: 110, responsive: ["lg"], dataIndex: "created_by" },
  ];

  return (
    <Card
      title={t("notices.outbox.title")}
      extra={
        <Button icon={<ReloadOutlined />} onClick={() => void query.refetch()} loading={query.isFetching} aria-label={t("notices.outbox.refresh")}>
          {narrow ? null : t("notices.outbox.refresh")}
        </Button>
      }
      data-testid="notice-list"
    >
      <Typography.Paragraph type="secondary">{t("notices.outbox.hint")}</Typography.Paragraph>
      <Segmented
        style={{ marginBottom: 16, maxWidth: "100%", overflowX: "auto" }}
        value={kind}
        onChange={(value) => {
          setKind(String(value));
          setPage(1);
        }}
        options={[{ value: "", label: t("notices.all") }, ...KINDS.map((k) => ({ value: k, label: t(`notices.kind.${k}`) }))]}
        data-testid="notice-kinds"
      />
      <Table<NoticeItem>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={query.data?.items ?? []}
        loading={query.isLoading}
        locale={{ emptyText: <Empty description={t("notices.outbox.empty")} /> }}
        pagination={{ current: page, pageSize: PAGE_SIZE, total: query.data?.total ?? 0, onChange: setPage, hideOnSinglePage: true, showSizeChanger: false }}
        onRow={(n) => ({ "data-testid": `notice-row-${n.id}` }) as HTMLAttributes<HTMLElement>}
      />
    </Card>
  );
}
