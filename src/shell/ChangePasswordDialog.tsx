/**
 * Change password (spec 5, 7): current password, new password, confirmation; validated on blur, sent only when
 * valid; the server's return_msg is shown on success.
 */
import { Form, Input, Modal, type ButtonProps } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { feedback } from "../../providers/feedback";
import { weapi } from "../../providers/weapi";
import { useGuardedDialog } from "./unsavedChanges";

export const MIN_PASSWORD_LENGTH = 6;

/** Translation key of the new-password error, or null when valid. */
export function newPasswordError(value: string | undefined): string | null {
  if (!value) return "dialog.password_required";
  if (value.length < MIN_PASSWORD_LENGTH) return "dialog.password_short";
  return null;
}

/** Translation key of the confirmation error, or null when valid. */
export function confirmPasswordError(value: string | undefined, newPassword: string | undefined): string | null {
  if (!value) return "dialog.password_again";
  if (value !== newPassword) return "dialog.password_mismatch";
  return null;
}

interface PasswordForm {
  password1: string;
  password2: string;
  password3: string;
}

export function ChangePasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<PasswordForm>();
  const [saving, setSaving] = useState(false);
  // closed with something typed (its X, Esc, the mask, Cancel): asked first
  const guard = useGuardedDialog(open, onClose);

  const submit = async () => {
    let values: PasswordForm;
    try {
      values = await form.validateFields();
    } catch {
      return; // the form shows what is wrong
    }
    setSaving(true);
    try {
      const res = await weapi("adminapiv2", "sysusereditpassword", { ...values });
      if (res.return_code === "SUCCESS") {
        feedback().success(res.return_msg || t("dialog.password_changed"));
        form.resetFields();
        onClose();
      }
    } catch {
      // the client already showed the error
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      title={t("dialog.change_password")}
      open={open}
      onCancel={guard.onCancel}
      onOk={submit}
      confirmLoading={saving}
      okText={t("common.confirm")}
      cancelText={t("common.cancel")}
      okButtonProps={{ "data-testid": "password-submit" } as ButtonProps}
      destroyOnHidden
      data-testid="password-dialog"
    >
      <Form<PasswordForm> form={form} layout="vertical" validateTrigger="onBlur" onValuesChange={guard.markChanged} preserve={false}>
        <Form.Item name="password1" label={t("dialog.password_current")} rules={[{ required: true, message: t("dialog.password_current_required") }]}>
          <Input.Password data-testid="password-current" autoComplete="current-password" />
        </Form.Item>
        <Form.Item
          name="password2"
          label={t("dialog.password_new")}
          rules={[{ validator: async (_, value: string) => { const e = newPasswordError(value); if (e) throw new Error(t(e)); } }]}
        >
          <Input.Password data-testid="password-new" autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="password3"
          label={t("dialog.password_confirm")}
          dependencies={["password2"]}
          rules={[
            ({ getFieldValue }) => ({
              validator: async (_, value: string) => {
                const e = confirmPasswordError(value, getFieldValue("password2") as string);
                if (e) throw new Error(t(e));
              },
            }),
          ]}
        >
          <Input.Password data-testid="password-confirm" autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
