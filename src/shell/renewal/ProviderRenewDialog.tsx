/**
 * A provider's subscription renewal (spec 2.4, 4.4, 5): the yearly price (total_fee/年), mode 1 QR payment
 * polled every 3 seconds and on Finish payment, mode 2 activation code, and a logout link. Without a payment
 * order (get_sysdelay_pay not SUCCESS) it falls to mode 2. Mode 2 and closing stop polling. Keep it mounted
 * while closed: the result dialog outlives it.
 */
import { Alert, Button, Form, Input, Radio, Space, Spin, Typography } from "antd";
import { QRCodeSVG } from "qrcode.react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { feedback } from "../../../providers/feedback";
import { ERROR_TOAST_SECONDS } from "../../../providers/weapi";
import { GuardedButton } from "../../lib/clickGuard";
import { QR_SIZE } from "../QrDialog";
import { useShellActions } from "../useShellActions";
import { createProviderOrder, renewProviderWithCode, type PayOrder } from "./api";
import { TestPaymentNotice } from "./PayDialog";
import { PayResultDialog } from "./PayResultDialog";
import { RenewalModal } from "./RenewalModal";
import { usePaymentPolling } from "./usePaymentPolling";

export const PROVIDER_POLL_MS = 3000;

type Mode = "qr" | "code";

export interface ProviderRenewDialogProps {
  open: boolean;
  onClose: () => void;
  /** after a renewal: reload the provider's term */
  onRenewed: () => void;
  sysid: string;
  /** false: no close icon, no mask or Esc closing (the term has run out) */
  closable?: boolean;
}

export default function ProviderRenewDialog({ open, onClose, onRenewed, sysid, closable = true }: ProviderRenewDialogProps) {
  const { t } = useTranslation();
  const { onLogout } = useShellActions();
  const [mode, setMode] = useState<Mode>("qr");
  const [order, setOrder] = useState<PayOrder | null>(null);
  const [loadingOrder, setLoadingOrder] = useState(false);
  const [notice, setNotice] = useState<string | undefined>();
  const [result, setResult] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const [form] = Form.useForm<{ act_code: string }>();

  const renewed = (message: string) => {
    onClose();
    setResult(message);
    onRenewed();
  };
  const polling = usePaymentPolling(open && mode === "qr" && order ? order.pay_no : null, PROVIDER_POLL_MS, renewed);

  // every opening starts in mode 1 with a fresh order
  useEffect(() => {
    if (!open) return;
    let live = true;
    setMode("qr");
    setOrder(null);
    setNotice(undefined);
    setLoadingOrder(true);
    createProviderOrder(sysid)
      .catch(() => ({ order: null, notice: undefined }))
      .then((answer) => {
        if (!live) return;
        setOrder(answer.order);
        setNotice(answer.notice);
        if (!answer.order) setMode("code");
      })
      .finally(() => live && setLoadingOrder(false));
    return () => {
      live = false;
    };
  }, [open, sysid]);

  const finish = async () => {
    setChecking(true);
    try {
      const check = await polling.checkNow();
      if (!check.paid) setResult(check.message);
    } finally {
      setChecking(false);
    }
  };

  const activate = async () => {
    let actCode: string;
    try {
      actCode = (await form.validateFields()).act_code.trim();
    } catch {
      feedback().error(t("renewal.form_incomplete"), ERROR_TOAST_SECONDS);
      return;
    }
    try {
      const message = await renewProviderWithCode(actCode, sysid);
      if (message !== null) {
        form.resetFields();
        renewed(message);
      }
    } catch {
      // the client showed the error
    }
  };

  return (
    <>
      <RenewalModal title={t("renewal.provider_title")} open={open} onCancel={onClose} closable={closable} width={460} data-testid="provider-renew-dialog">
        <Radio.Group value={mode} onChange={(e) => setMode(e.target.value as Mode)} optionType="button" buttonStyle="solid" style={{ marginBottom: 16 }}>
          <Radio.Button value="qr" data-testid="provider-renew-mode-qr" disabled={!order && !loadingOrder}>
            {t("renewal.mode_qr")}
          </Radio.Button>
          <Radio.Button value="code" data-testid="provider-renew-mode-code">
            {t("renewal.mode_code")}
          </Radio.Button>
        </Radio.Group>
        {notice && <Alert type="warning" showIcon message={notice} style={{ marginBottom: 12 }} data-testid="provider-renew-notice" />}
        {mode === "qr" ? (
          loadingOrder || !order ? (
            <Spin style={{ display: "block", margin: "24px auto" }} />
          ) : (
            <div style={{ display: "flex", flexDirection: "column", alignItems: "center", gap: 8 }}>
              {order.sandbox && <TestPaymentNotice />}
              <Typography.Text strong type="danger" style={{ fontSize: 18 }} data-testid="provider-renew-price">
                {t("renewal.per_year", { amount: order.total_fee })}
              </Typography.Text>
              <div data-testid="provider-renew-qr" data-code-url={order.code_url}>
                <QRCodeSVG value={order.code_url} size={QR_SIZE} />
              </div>
              <Typography.Text type="secondary">{t("renewal.scan_hint")}</Typography.Text>
              <Button type="primary" data-testid="provider-renew-finish" loading={checking} onClick={() => void finish()}>
                {t("renewal.finish_payment")}
              </Button>
            </div>
          )
        ) : (
          <Form form={form} layout="vertical">
            <Form.Item name="act_code" label={t("renewal.code_label")} rules={[{ required: true, whitespace: true, message: t("renewal.code_required_provider") }]}>
              <Input data-testid="provider-renew-code-input" placeholder={t("renewal.code_placeholder")} allowClear />
            </Form.Item>
            <GuardedButton type="primary" block data-testid="provider-renew-submit" onClick={() => void activate()}>
              {t("renewal.activate")}
            </GuardedButton>
          </Form>
        )}
        <Space style={{ marginTop: 16, width: "100%", justifyContent: "center" }}>
          <Typography.Link data-testid="provider-renew-logout" onClick={onLogout}>
            {t("shell.logout")}
          </Typography.Link>
        </Space>
      </RenewalModal>
      <PayResultDialog message={result} onClose={() => setResult(null)} />
    </>
  );
}
