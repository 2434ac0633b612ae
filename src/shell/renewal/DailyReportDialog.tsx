/**
 * Daily business report binding (spec 2.4, 5, 7): the QR code that binds a messaging-app user to the
 * provider's daily report, a refresh link (a fresh binding link), and the bound users; clicking an avatar
 * unbinds that user after a confirmation.
 */
import { App as AntdApp, Avatar, Empty, Modal, Space, Spin, Typography } from "antd";
import { UserOutlined } from "@ant-design/icons";
import { QRCodeSVG } from "qrcode.react";
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { QR_SIZE } from "../QrDialog";
import { fetchDailyReportSettings, unbindDailyReportUser, type DailyReportSettings, type NoticeUser } from "./api";

export default function DailyReportDialog({ open, onClose, sysid }: { open: boolean; onClose: () => void; sysid: string }) {
  const { t } = useTranslation();
  const { modal, message } = AntdApp.useApp();
  const [settings, setSettings] = useState<DailyReportSettings | null>(null);
  const [loading, setLoading] = useState(false);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      setSettings(await fetchDailyReportSettings(sysid));
    } catch {
      // the client showed the error
    } finally {
      setLoading(false);
    }
  }, [sysid]);

  useEffect(() => {
    if (open) void load();
  }, [open, load]);

  const askUnbind = (user: NoticeUser) => {
    modal.confirm({
      title: t("renewal.unbind_title"),
      content: t("renewal.unbind_confirm"),
      okText: t("common.confirm"),
      cancelText: t("common.cancel"),
      onOk: async () => {
        try {
          if (await unbindDailyReportUser(sysid, user.id)) {
            void message.success(t("renewal.unbind_ok"));
            await load();
          }
        } catch {
          // the client showed the error
        }
      },
      onCancel: () => void message.info(t("renewal.cancelled")),
    });
  };

  return (
    <Modal title={t("renewal.daily_title")} open={open} onCancel={onClose} footer={null} width={400} data-testid="daily-report-dialog">
      {!settings ? (
        <Spin spinning={loading} style={{ display: "block", margin: "24px auto" }} />
      ) : (
        <div style={{ display: "flex", flexDirection: "column", alignItems: "center", gap: 8 }}>
          <Spin spinning={loading}>
            <div data-testid="daily-report-qr" data-auth-url={settings.authurl}>
              {settings.authurl && <QRCodeSVG value={settings.authurl} size={QR_SIZE} />}
            </div>
          </Spin>
          <Typography.Text type="secondary">{t("renewal.daily_hint")}</Typography.Text>
          <Typography.Link data-testid="daily-report-refresh" onClick={() => void load()}>
            {t("renewal.refresh")}
          </Typography.Link>
          <Typography.Title level={5} style={{ alignSelf: "flex-start", margin: "8px 0 0" }}>
            {t("renewal.bound_users")}
          </Typography.Title>
          {settings.users.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("renewal.no_bound_users")} />
          ) : (
            <Space wrap size={16} style={{ alignSelf: "flex-start" }}>
              {settings.users.map((user) => (
                <Space
                  key={user.id}
                  direction="vertical"
                  align="center"
                  size={2}
                  role="button"
                  title={t("renewal.unbind_title")}
                  data-testid={`daily-report-user-${user.id}`}
                  style={{ cursor: "pointer" }}
                  onClick={() => askUnbind(user)}
                >
                  <Avatar size={48} src={user.headurl || undefined} icon={<UserOutlined />} />
                  <Typography.Text style={{ maxWidth: 80 }} ellipsis>
                    {user.nickname || t("renewal.wechat_user")}
                  </Typography.Text>
                </Space>
              ))}
            </Space>
          )}
        </div>
      )}
    </Modal>
  );
}
