/**
 * Generic add / edit page of a catalogue entity: one form item per form field of the action (virtual fields,
 * such as a provider's first account, only where declared), client validation from the declaration, the
 * server's field errors under their fields, then a success message and back to the list.
 */
import { Button, Card, Form, Space, Spin } from "antd";
import { RollbackOutlined, SaveOutlined } from "@ant-design/icons";
import { useForm } from "@refinedev/antd";
import { useBack, useGo, useTranslation, type BaseRecord, type HttpError } from "@refinedev/core";
import { useParams } from "react-router";
import { feedback } from "../../providers/feedback";
import { addDefaults, clearNarrowed, RecordFields } from "./RecordFields";
import { RecordUnavailable } from "./LoadFailed";
import { resourceByIdentifier } from "./resources";

export type FormAction = "add" | "edit";

export default function CrudForm({ resource, action }: { resource: string; action: FormAction }) {
  const { entity, pages } = resourceByIdentifier(resource);
  const { translate } = useTranslation();
  const back = useBack();
  const go = useGo();
  const { id } = useParams();

  const { formProps, saveButtonProps, formLoading, query } = useForm<BaseRecord, HttpError>({
    resource,
    action: action === "add" ? "create" : "edit",
    id: action === "edit" ? id : undefined,
    redirect: "list",
    defaultFormValues: action === "add" ? addDefaults(entity) : undefined,
    // messages use the same toasts as the weapi client, which has already shown a FAIL's message;
    // the server's field errors go under their fields
    successNotification: false,
    errorNotification: false,
    onMutationSuccess: () =>
      feedback().success(translate(action === "add" ? "crud.created" : "crud.saved", { entity: translate(entity.title) })),
  });

  const title = pages[action]?.entry.title ?? entity.title;
  const toList = () => (pages.list ? go({ to: pages.list.route }) : back());
  if (action === "edit" && query?.isError) {
    return (
      <Card title={translate(title)}>
        <RecordUnavailable error={query.error} entityTitle={entity.title} onRetry={() => void query.refetch()} onBack={toList} />
      </Card>
    );
  }
  return (
    <Card title={translate(title)}>
      <Spin spinning={formLoading}>
        <Form
          {...formProps}
          layout="horizontal"
          labelCol={{ span: 6 }}
          wrapperCol={{ span: 14 }}
          style={{ maxWidth: 900 }}
          onValuesChange={(changed, all) => {
            formProps.onValuesChange?.(changed, all);
            clearNarrowed(entity, formProps.form)(changed as Record<string, unknown>);
          }}
        >
          <RecordFields entity={entity} action={action} />
          <Form.Item wrapperCol={{ offset: 6, span: 14 }}>
            <Space>
              <Button type="primary" icon={<SaveOutlined />} htmlType="submit" loading={saveButtonProps.disabled}>
                {translate("crud.save")}
              </Button>
              <Button icon={<RollbackOutlined />} onClick={toList}>
                {translate("crud.back")}
              </Button>
            </Space>
          </Form.Item>
        </Form>
      </Spin>
    </Card>
  );
}
