/**
 * Contract maintenance (custom page "servicedelayv2", operator only): extends a provider's term by a number
 * of months, with the fee agreed and a remark, and shows the current end date beside the new one.
 * Opened from the provider list with the provider's id, or on its own to choose the provider.
 */
import { App as AntdApp, Button, Card, Descriptions, Form, Input, InputNumber, Space } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useParams } from "react-router";
import { sanitiseMoneyInput, yuanToFen } from "../../../common/money";
import { weapi } from "../../../providers/weapi";
import { submitOnlyByButton } from "../../lib/forms";
import { businessDay, extendedEnd } from "../../../common/term";
import type { CustomPageProps } from ".";
import { MAX_TERM_MONTHS, REMARK_MAX_LENGTH } from "../../../common/renewalLimits";
import { RemoteSelect, type RemoteRecord } from "./RemoteSelect";
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
  const [provider, setProvider] = useState<Provider | undefined>();
  const [saving, setSaving] = useState(false);
  const sysid = Form.useWatch("sysid", form);
  const months = Form.useWatch("term_months", form);
  const reloadShellTerm = useTermReload();

  // the chosen provider's current term (serviceinfo)
  useEffect(() => {
    setProvider(undefined);
    if (!sysid) return;
    let live = true;
    weapi<{ items?: Provider }>("adminapiv2", "serviceinfo", { id: sysid })
      .then((res) => live && res.return_code === "SUCCESS" && setProvider(res.data?.items))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [sysid]);

  const submit = async (values: DelayForm) => {
    setSaving(true);
    try {
      const res = await weapi<{ items?: { end_time: string } }>("adminapiv2", "servicedelay", {
        sysid: values.sysid,
        term_months: values.term_months,
        ...(values.fee ? { fee: values.fee } : {}),
        ...(values.remark?.trim() ? { remark: values.remark.trim() } : {}),
      });
      const end = res.data?.items?.end_time;
      if (res.return_code === "SUCCESS" && end) {
        void message.success(t("renewal.delay_done", { end }));
        setProvider((p) => p && { ...p, end_time: end });
        // an operator acting in this provider sees its new end in the shell at once
        reloadShellTerm();
        form.setFieldsValue({ term_months: undefined, fee: undefined, remark: undefined });
      }
    } catch {
      // the client showed the error
    } finally {
      setSaving(false);
    }
  };

  const newEnd = provider && months ? extendedEnd(provider.end_time, months, businessDay(new Date())) : undefined;
  const known: RemoteRecord | undefined = provider ? { id: provider.id, title: provider.title } : undefined;

  return (
    <Card title={t(entry.title)}>
      <Form<DelayForm> form={form} labelCol={{ flex: "160px" }} style={{ maxWidth: 640 }} initialValues={{ sysid: id }} onFinish={(values) => void submit(values)} onKeyDown={submitOnlyByButton}>
        <Form.Item name="sysid" label={t("renewal.provider")} rules={[{ required: true, message: t("renewal.choose_provider") }]}>
          <RemoteSelect operation="servicelist" knownRecord={known} placeholder={t("renewal.choose_provider")} data-testid="delay-provider" />
        </Form.Item>
        <Descriptions size="small" column={1} style={{ marginBottom: 16 }}>
          <Descriptions.Item label={t("renewal.current_end")}>
            <span data-testid="delay-current-end">{provider?.end_time ?? "-"}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t("renewal.new_end")}>
            <span data-testid="delay-new-end">{newEnd ?? "-"}</span>
          </Descriptions.Item>
        </Descriptions>
        <Form.Item name="term_months" label={t("renewal.term_months")} rules={[{ required: true, message: t("renewal.term_months_required", { max: MAX_TERM_MONTHS }) }]}>
          <InputNumber min={1} max={MAX_TERM_MONTHS} precision={0} style={{ width: "100%" }} data-testid="delay-term" />
        </Form.Item>
        <Form.Item
          name="fee"
          label={t("renewal.fee")}
          normalize={(value: unknown) => (typeof value === "string" ? sanitiseMoneyInput(value) : value)}
          rules={[{ validator: async (_, value?: string) => { if (value && yuanToFen(value) === null) throw new Error(t("renewal.fee_invalid")); } }]}
        >
          <Input inputMode="decimal" prefix="¥" placeholder="0.00" data-testid="delay-fee" />
        </Form.Item>
        <Form.Item name="remark" label={t("renewal.remark")}>
          <Input.TextArea rows={2} maxLength={REMARK_MAX_LENGTH} showCount />
        </Form.Item>
        <Form.Item label=" " colon={false}>
          <Space>
            <Button type="primary" htmlType="submit" loading={saving} data-testid="delay-submit">
              {t("renewal.extend")}
            </Button>
            <Button onClick={() => navigate(`/${group.path}/${entry.activeMenu ?? "servicelist"}`)}>{t("crud.back")}</Button>
          </Space>
        </Form.Item>
      </Form>
    </Card>
  );
}
