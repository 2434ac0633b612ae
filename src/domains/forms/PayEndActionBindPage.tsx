/**
 * Binding an after-payment action to activities (custom page "payendactionbind", opened from an action's row): the
 * action as it stands, and the activities of the provider's schools whose payers see it once paid.
 */
import { Alert, Button, Card, Form, Typography } from "antd";
import { useOne, type BaseRecord } from "@refinedev/core";
import { useTranslation } from "react-i18next";
import { useNavigate, useParams } from "react-router";
import { payEndActionBindOperation, payEndActionEntity } from "../../../catalogue/collectionForms";
import { feedback } from "../../../providers/feedback";
import { OperationForm } from "../../engine/OperationForm";
import type { CustomPageProps } from "..";

/** The form's `id`: the action it binds, shown by its title. */
function ActionTitle({ title }: { title: string; value?: unknown }) {
  return (
    <Typography.Text strong data-testid="bind-action-title">
      {title}
    </Typography.Text>
  );
}

export default function PayEndActionBindPage({ group, entry }: CustomPageProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { id } = useParams();
  const [form] = Form.useForm();
  const { result: action, query } = useOne<BaseRecord>({ resource: payEndActionEntity.name, id: id ?? "", queryOptions: { enabled: Boolean(id) }, errorNotification: false });
  const back = () => navigate(`/${group.path}/${entry.activeMenu ?? "payendaction"}`);

  return (
    <Card title={t(entry.title)} loading={query.isLoading}>
      {action ? (
        <>
          <Alert type="info" showIcon message={t("forms.bind.hint")} style={{ marginBottom: 16, maxWidth: 640 }} />
          <OperationForm
            operation={payEndActionBindOperation}
            form={form}
            initialValues={{ id: Number(id), activity_ids: Array.isArray(action.activity_ids) ? action.activity_ids : [] }}
            controls={{ id: <ActionTitle title={String(action.title ?? "")} /> }}
            testIds={{ activity_ids: "bind-activities" }}
            submitTestId="bind-submit"
            onDone={() => {
              feedback().success(t("forms.bind.done"));
              back();
            }}
            actions={<Button onClick={back}>{t("crud.back")}</Button>}
          />
        </>
      ) : null}
    </Card>
  );
}
