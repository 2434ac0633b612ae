/**
 * Reading the customer-service accounts from enterprise WeChat (qwkfsync, the list tool of qwkflist): what it does,
 * then what it did (added, updated, unchanged), or the refusal in the server's words, with the way to the settings
 * page (qwkfset) when it names one of its fields (the corp id, the secret), shown in the dialog rather than as a
 * toast. The list refreshes after.
 */
import { Alert, Button, Descriptions, Modal, Space, Typography } from "antd";
import { SyncOutlined } from "@ant-design/icons";
import { useState } from "react";
import { useCustomMutation, useTranslation, type HttpError } from "@refinedev/core";
import { useNavigate } from "react-router";
import { customerServiceSync } from "../../../catalogue/customerService";
import { menus } from "../../../resources.config";
import { ApiFailError } from "../../../providers/dataProvider";
import { builtRoute } from "../../engine/builtPages";
import { useRefreshEntities } from "../../engine/useDeclaredOperation";
import type { ListToolProps } from "..";

interface SyncCounts {
  added: number;
  updated: number;
  unchanged: number;
}

type Outcome = { ok: true; counts: SyncCounts } | { ok: false; message: string; namesSetting: boolean };

/** the settings page holding the corp id and secret, as the menu routes it */
function settingsRoute(): string | undefined {
  for (const group of menus) {
    const entry = group.children.find((e) => e.name === "qwkfset" && e.page);
    if (entry) return builtRoute(group, entry);
  }
  return undefined;
}

export default function QwkfSyncDialog({ onClose }: ListToolProps) {
  const { translate } = useTranslation();
  const navigate = useNavigate();
  const { mutateAsync, mutation } = useCustomMutation<SyncCounts & Record<string, unknown>, HttpError, Record<string, unknown>>();
  const refresh = useRefreshEntities();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const route = settingsRoute();

  const sync = async () => {
    setOutcome(null);
    try {
      const { data } = await mutateAsync({
        url: customerServiceSync.name,
        method: "post",
        values: {},
        // the dialog says what happened, a refusal too
        meta: { silent: true },
        successNotification: false,
        errorNotification: false,
      });
      setOutcome({ ok: true, counts: data });
      await refresh(customerServiceSync.invalidates ?? []);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      setOutcome({ ok: false, message, namesSetting: err instanceof ApiFailError && Boolean(err.errors?.corp_id ?? err.errors?.corp_secret) });
    }
  };

  const openSettings = () => {
    onClose();
    if (route) void navigate(route);
  };

  return (
    <Modal
      open
      width={560}
      title={translate("qwkf.sync.title")}
      onCancel={onClose}
      maskClosable={false}
      destroyOnHidden
      footer={
        <Space wrap style={{ justifyContent: "flex-end" }}>
          <Button onClick={onClose} data-testid="qwkf-sync-close">
            {translate("common.close")}
          </Button>
          <Button type="primary" icon={<SyncOutlined />} loading={mutation.isPending} onClick={() => void sync()} data-testid="qwkf-sync-submit">
            {translate("qwkf.sync.submit")}
          </Button>
        </Space>
      }
    >
      <Typography.Paragraph type="secondary">{translate("qwkf.sync.hint")}</Typography.Paragraph>
      {outcome?.ok ? (
        <div data-testid="qwkf-sync-done">
          <Alert type="success" showIcon message={translate("qwkf.sync.done", { ...outcome.counts })} />
          <Descriptions
            size="small"
            column={3}
            style={{ marginTop: 12 }}
            items={(["added", "updated", "unchanged"] as const).map((key) => ({ key, label: translate(`qwkf.sync.${key}`), children: outcome.counts[key] }))}
          />
        </div>
      ) : null}
      {outcome && !outcome.ok ? (
        <div data-testid="qwkf-sync-failed">
          <Alert type="error" showIcon message={outcome.message} />
          {outcome.namesSetting && route ? (
            <Button type="link" style={{ paddingInline: 0, marginTop: 4 }} onClick={openSettings} data-testid="qwkf-sync-settings">
              {translate("qwkf.sync.open_settings")}
            </Button>
          ) : null}
        </div>
      ) : null}
    </Modal>
  );
}
