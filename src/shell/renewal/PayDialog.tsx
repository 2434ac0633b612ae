/**
 * School package payment (spec 2.4, 4.3): order number, product ('renewal package' + title), price, total and
 * the 200 x 200 QR code. checkpay runs every second, silently; Finish payment checks at once and, when not
 * paid yet, shows the answer in the result dialog and stops polling. Closing stops polling.
 */
import { Alert, Button, Descriptions, Modal, Typography } from "antd";
import { QRCodeSVG } from "qrcode.react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { formatNumber } from "../../../common/money";
import { QR_SIZE } from "../QrDialog";
import type { PayOrder } from "./api";
import { usePaymentPolling } from "./usePaymentPolling";

export const SCHOOL_POLL_MS = 1000;

export interface PayDialogProps {
  /** the open order with the package title; null: closed */
  order: (PayOrder & { title: string }) | null;
  onClose: () => void;
  onPaid: (message: string) => void;
  /** a manual check found the order unpaid */
  onUnpaid: (message: string) => void;
}

export function PayDialog({ order, onClose, onPaid, onUnpaid }: PayDialogProps) {
  const { t, i18n } = useTranslation();
  const polling = usePaymentPolling(order?.pay_no ?? null, SCHOOL_POLL_MS, onPaid);
  const [checking, setChecking] = useState(false);

  const finish = async () => {
    setChecking(true);
    try {
      const result = await polling.checkNow();
      if (!result.paid) {
        polling.stop();
        onUnpaid(result.message);
      }
    } finally {
      setChecking(false);
    }
  };

  const close = () => {
    polling.stop();
    onClose();
  };

  return (
    <Modal
      title={t("renewal.pay_title")}
      open={order !== null}
      onCancel={close}
      maskClosable={false}
      destroyOnHidden
      width={420}
      data-testid="pay-dialog"
      footer={
        <Button type="primary" data-testid="pay-finish" loading={checking} onClick={() => void finish()}>
          {t("renewal.finish_payment")}
        </Button>
      }
    >
      {order && (
        <>
          {order.sandbox && <TestPaymentNotice />}
          <Descriptions column={1} size="small">
            <Descriptions.Item label={t("renewal.order_number")}>
              <span data-testid="pay-orderid">{order.orderid}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t("renewal.product")}>{`${t("renewal.renewal_package")} ${order.title}`}</Descriptions.Item>
            <Descriptions.Item label={t("renewal.price")}>{t("renewal.yuan", { amount: formatNumber(Number(order.total_fee), i18n.language, 2) })}</Descriptions.Item>
            <Descriptions.Item label={t("renewal.total")}>
              <Typography.Text strong type="danger" data-testid="pay-total">
                {t("renewal.yuan", { amount: formatNumber(Number(order.total_fee), i18n.language, 2) })}
              </Typography.Text>
            </Descriptions.Item>
          </Descriptions>
          <div style={{ display: "flex", flexDirection: "column", alignItems: "center", gap: 8 }}>
            <div data-testid="pay-qr" data-code-url={order.code_url}>
              <QRCodeSVG value={order.code_url} size={QR_SIZE} />
            </div>
            <Typography.Text type="secondary">{t("renewal.scan_hint")}</Typography.Text>
          </div>
        </>
      )}
    </Modal>
  );
}

/** Said above every QR code of the payment sandbox: nobody should take a test payment for a real one. */
export function TestPaymentNotice() {
  const { t } = useTranslation();
  return <Alert type="warning" showIcon message={t("renewal.test_payment")} style={{ marginBottom: 12 }} data-testid="pay-test-notice" />;
}
