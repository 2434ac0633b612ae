/** Admin-side QR code (spec 2.4, 9): the console's address as a 200 x 200 QR code, to open it on a phone. */
import { Modal, Typography } from "antd";
import { QRCodeSVG } from "qrcode.react";
import { useTranslation } from "react-i18next";

export const QR_SIZE = 200;

export default function QrDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const url = `${window.location.origin}/`;
  return (
    <Modal title={t("dialog.qr_title")} open={open} onCancel={onClose} footer={null} width={300} data-testid="qr-dialog">
      <div style={{ display: "flex", flexDirection: "column", alignItems: "center", gap: 8 }}>
        <QRCodeSVG value={url} size={QR_SIZE} data-testid="qr-code" />
        <Typography.Text copyable>{url}</Typography.Text>
        <Typography.Text type="secondary">{t("dialog.qr_hint")}</Typography.Text>
      </div>
    </Modal>
  );
}
