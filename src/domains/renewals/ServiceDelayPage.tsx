/**
 * Contract maintenance (custom page "servicedelayv2", operator only): extends a provider's term by a number
 * of months, with the fee agreed and a remark, and shows the current end date beside the new one.
 * Opened from the provider list with the provider's id, or on its own to choose the provider.
 */
import { App as AntdApp, Button, Card, Descriptions, Form } from "antd";
import { useOne } from "@refinedev/core";
import { useTranslation } from "react-i18next";
import { useNavigate, useParams } from "react-router";
import { serviceDelayOperation } from "../../../resources.config";
import { OperationForm } from "../../engine/OperationForm";
import { businessDay, extendedEnd } from "../../../common/term";
import type { CustomPageProps } from "..";
import { RemoteSelect, type RemoteRecord } from "../../engine/RemoteSelect";
import { useTermReload } from "../../shell/renewal/termReload";

interface DelayForm {
  sysid: string;
  term_months: number;
  fee?: string;
  remark?: string;
}

interface Provider {
  id: number | string;
  title: string;
  end_time?: string;
}

export default function ServiceDelayPage({ group, entry }: CustomPageProps) {
  const { t } = useTranslation();
  const { message } = AntdApp.useApp();
  const navigate = useNavigate();
  const { id } = useParams();
  const [form] = Form.useForm<DelayForm>();
  const sysid = Form.useWatch("sysid", form);
  const months = Form.useWatch("term_months", form);
  const reloadShellTerm = useTermReload();

  // the chosen provider's current term (serviceinfo), read through refine: the extension refreshes it
  const { result } = useOne<Provider>({
    resource: `service@${group.path}`,
    id: sysid,
    queryOptions: { enabled: Boolean(sysid) },
    // the weapi client has shown a failure already
    errorNotification: false,
  });
  const provider = sysid ? result : undefined;

  const done = ({ end_time: end }: { end_time?: string }) => {
    if (!end) return;
    void message.success(t("renewal.delay_done", { end }));
    // an operator acting in this provider sees its new end in the shell at once
    reloadShellTerm();
    form.setFieldsValue({ term_months: undefined, fee: undefined, remark: undefined });
  };

  const newEnd = provider && months ? extendedEnd(provider.end_time, months, businessDay(new Date())) : undefined;
  const known: RemoteRecord | undefined = provider ? { id: provider.id, title: provider.title } : undefined;

  return (
    <Card title={t(entry.title)}>
      <OperationForm<{ end_time?: string }>
        operation={serviceDelayOperation}
        form={form}
        initialValues={{ sysid: id }}
        testIds={{ term_months: "delay-term", fee: "delay-fee" }}
        submitTestId="delay-submit"
        onDone={done}
        controls={{ sysid: <RemoteSelect operation="servicelist" knownRecord={known} placeholder={t("renewal.choose_provider")} data-testid="delay-provider" /> }}
        before={{
          term_months: (
            <Descriptions size="small" column={1} style={{ marginBottom: 16 }}>
              <Descriptions.Item label={t("renewal.current_end")}>
                <span data-testid="delay-current-end">{provider?.end_time ?? "-"}</span>
              </Descriptions.Item>
              <Descriptions.Item label={t("renewal.new_end")}>
                <span data-testid="delay-new-end">{newEnd ?? "-"}</span>
              </Descriptions.Item>
            </Descriptions>
          ),
        }}
        actions={<Button onClick={() => navigate(`/${group.path}/${entry.activeMenu ?? "servicelist"}`)}>{t("crud.back")}</Button>}
      />
    </Card>
  );
}
