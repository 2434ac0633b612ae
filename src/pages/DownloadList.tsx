/**
 * Download centre (spec 2.1; server/domains/downloads/): the user's exports, newest first, with their progress
 * while they are written (the page asks again every second and a half until none is under way) and a Download
 * button once a file is ready, which opens the file's short-lived link.
 */
import { ReloadOutlined, DownloadOutlined } from "@ant-design/icons";
import { useQuery } from "@tanstack/react-query";
import { Button, Card, Empty, Grid, Progress, Space, Table, Tag, Typography, type TableProps } from "antd";
import { useState, type HTMLAttributes } from "react";
import { useTranslation } from "react-i18next";
import { entities, reports } from "../../resources.config";
import { weapi } from "../../providers/weapi";
import { clearNewDownload } from "../lib/newDownload";
import { TimeText } from "../lib/TimeText";
import { formatNumber } from "../../common/money";

export interface DownloadItem {
  id: number;
  job_id: number;
  operation: string;
  filename: string;
  status: "queued" | "running" | "done" | "failed";
  progress: number;
  size: number | null;
  rows: number | null;
  created_at: string;
  expires_at: string;
  url?: string;
}

const POLL_MS = 1500;
const PAGE_SIZE = 20;
const STATUS_COLOURS: Record<DownloadItem["status"], string> = { queued: "default", running: "processing", done: "success", failed: "error" };

/** What a file is of: the title of the list or report its export operation belongs to. */
function subjectTitle(operation: string): string | undefined {
  return entities.find((e) => e.exportOperation === operation)?.title ?? reports.find((r) => r.exportOperation === operation)?.title;
}

function sizeText(bytes: number | null, language: string): string {
  if (bytes === null) return "";
  const units = ["byte", "kilobyte", "megabyte", "gigabyte"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return new Intl.NumberFormat(language, { style: "unit", unit: units[unit], unitDisplay: "short", maximumFractionDigits: unit === 0 ? 0 : 1 }).format(value);
}

/** Opens the file's link (a download: the page stays). */
async function download(id: number): Promise<void> {
  const res = await weapi<{ items?: DownloadItem }>("adminapiv2", "downloadinfo", { id });
  const url = res.data?.items?.url;
  if (res.return_code !== "SUCCESS" || !url) return;
  clearNewDownload();
  const link = document.createElement("a");
  link.href = url;
  document.body.appendChild(link);
  link.click();
  link.remove();
}

/** A download's state: its tag, with a progress bar while its file is written, or what to do once it failed. */
function DownloadState({ download }: { download: DownloadItem }) {
  const { t } = useTranslation();
  const writing = download.status === "queued" || download.status === "running";
  return (
    <Space direction="vertical" size={0} style={writing ? { width: "100%", maxWidth: 200 } : undefined}>
      <Tag color={STATUS_COLOURS[download.status]} data-testid={writing ? undefined : "download-status"}>
        {t(`downloads.status.${download.status}`)}
      </Tag>
      {writing && <Progress percent={download.progress} size="small" status="active" data-testid="download-progress" />}
      {download.status === "failed" && <Typography.Text type="danger">{t("downloads.failed")}</Typography.Text>}
    </Space>
  );
}

export default function DownloadList() {
  const { t, i18n } = useTranslation();
  const [page, setPage] = useState(1);
  const narrow = Grid.useBreakpoint().sm === false;
  const query = useQuery({
    queryKey: ["downloadlist", page],
    queryFn: async () => {
      const res = await weapi<{ items: DownloadItem[]; total: number }>("adminapiv2", "downloadlist", { page, limit: PAGE_SIZE });
      return res.return_code === "SUCCESS" ? { items: res.data?.items ?? [], total: res.data?.total ?? 0 } : { items: [], total: 0 };
    },
    // while a file is being written its progress is asked for again
    refetchInterval: (q) => (q.state.data?.items.some((d) => d.status === "queued" || d.status === "running") ? POLL_MS : false),
  });
  const items = query.data?.items ?? [];
  const when = (value: string) => <TimeText value={value} unit="minute" />;

  const columns: TableProps<DownloadItem>["columns"] = [
    {
      key: "file",
      title: t("downloads.field.file"),
      render: (_, d) => {
        const subject = subjectTitle(d.operation);
        return (
          <Space direction="vertical" size={0}>
            <Typography.Text strong style={{ wordBreak: "break-all" }}>
              {d.filename}
            </Typography.Text>
            <Typography.Text type="secondary">
              {[subject && t(subject), d.rows !== null && t("downloads.rows", { count: d.rows, rows: formatNumber(d.rows, i18n.language) })].filter(Boolean).join(" · ")}
            </Typography.Text>
            {/* a phone has no room for the status column: it goes under the file */}
            {narrow && <DownloadState download={d} />}
          </Space>
        );
      },
    },
    { key: "status", title: t("downloads.field.status"), width: 180, responsive: ["sm"], render: (_, d) => <DownloadState download={d} /> },
    { key: "size", title: t("downloads.field.size"), responsive: ["md"], render: (_, d) => sizeText(d.size, i18n.language) },
    { key: "created_at", title: t("downloads.field.created_at"), responsive: ["lg"], render: (_, d) => when(d.created_at) },
    { key: "expires_at", title: t("downloads.field.expires_at"), responsive: ["lg"], render: (_, d) => when(d.expires_at) },
    {
      key: "actions",
      title: narrow ? null : t("downloads.field.actions"),
      width: narrow ? 48 : undefined,
      render: (_, d) => (
        <Button type="link" icon={<DownloadOutlined />} disabled={d.status !== "done"} onClick={() => void download(d.id)} aria-label={t("downloads.download")} data-testid="download-file">
          {narrow ? null : t("downloads.download")}
        </Button>
      ),
    },
  ];

  return (
    <Card
      title={t("downloads.title")}
      extra={
        <Button icon={<ReloadOutlined />} onClick={() => void query.refetch()} loading={query.isFetching} aria-label={t("downloads.refresh")}>
          {t("downloads.refresh")}
        </Button>
      }
      data-testid="download-list"
    >
      <Typography.Paragraph type="secondary">{t("downloads.hint")}</Typography.Paragraph>
      <Table<DownloadItem>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={items}
        loading={query.isLoading}
        locale={{ emptyText: <Empty description={t("downloads.empty")} /> }}
        pagination={{ current: page, pageSize: PAGE_SIZE, total: query.data?.total ?? 0, onChange: setPage, hideOnSinglePage: true, showSizeChanger: false }}
        onRow={(d) => ({ "data-testid": `download-row-${d.id}` }) as HTMLAttributes<HTMLElement>}
      />
    </Card>
  );
}
