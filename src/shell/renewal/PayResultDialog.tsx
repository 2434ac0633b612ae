/** Payment result (spec 2.4, 4.3, 4.4): the server's message after a payment check or an activation. */
import { Button, Modal } from "antd";
import { useTranslation } from "react-i18next";

export function PayResultDialog({ message, onClose }: { message: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      title={t("renewal.result_title")}
      open={message !== null}
      onCancel={onClose}
      width={360}
      data-testid="pay-result-dialog"
      footer={
        <Button type="primary" data-testid="pay-result-ok" onClick={onClose}>
          {t("common.confirm")}
        </Button>
      }
    >
      <p data-testid="pay-result-message">{message}</p>
    </Modal>
  );
}
