/**
 * The frame of the school and provider renewal dialogs (spec 4.2): while days remain it closes like any dialog;
 * once the term has run out it cannot be closed (no icon, mask or Esc) and says so.
 */
import { Alert, Modal, type ModalProps } from "antd";
import { useTranslation } from "react-i18next";

export type RenewalModalProps = Omit<ModalProps, "closable" | "maskClosable" | "keyboard" | "footer"> & {
  closable: boolean;
  "data-testid": string;
};

export function RenewalModal({ closable, children, ...modalProps }: RenewalModalProps) {
  const { t } = useTranslation();
  return (
    <Modal {...modalProps} closable={closable} maskClosable={closable} keyboard={closable} footer={null}>
      {!closable && <Alert type="error" showIcon message={t("renewal.expired")} style={{ marginBottom: 12 }} data-testid="renew-expired" />}
      {children}
    </Modal>
  );
}
