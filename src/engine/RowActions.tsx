/**
 * A list row's actions beyond edit and detail: a declared row action (a confirmation, or a small form such as a
 * new password or a reason, sent with the row's id) and deleting the record.
 */
import { Button, Form, Modal, Popconfirm } from "antd";
import { DeleteOutlined } from "@ant-design/icons";
import { useState } from "react";
import { useCustomMutation, useDelete, useTranslation, type BaseRecord, type HttpError } from "@refinedev/core";
import type { EntityDecl, RowAction } from "../../common/catalogue";
import { scope, type CustomAnswer } from "../../providers/dataProvider";
import { feedback } from "../../providers/feedback";
import { submitOnlyByButton } from "../lib/forms";
import { FieldControl, fieldRules, valueProps, type Translate } from "./fields";
import { useRefreshEntities } from "./useDeclaredOperation";

interface RowActionProps {
  entity: EntityDecl;
  action: RowAction;
  record: BaseRecord;
}

/**
 * Calls the operation with the row's id (and the form's values) through the data provider's `custom`, shows
 * the server's answer, and refreshes the entity's lists and records.
 */
function useRowCall({ entity, action, record }: RowActionProps) {
  const { mutateAsync, mutation } = useCustomMutation<BaseRecord, HttpError, Record<string, unknown>>();
  const refresh = useRefreshEntities();
  const run = async (values: Record<string, unknown> = {}): Promise<boolean> => {
    let answer: CustomAnswer<BaseRecord>;
    try {
      answer = (await mutateAsync({
        url: action.operation,
        method: "post",
        // in the tenant the user acts in, as every list call is
        values: { ...scope(), ...values, id: record.id },
        successNotification: false,
        errorNotification: false,
      })) as CustomAnswer<BaseRecord>;
    } catch {
      // the weapi client showed the server's message
      return false;
    }
    feedback().success(answer.message);
    await refresh([entity.name]);
    return true;
  };
  return { run, running: mutation.isPending };
}

export function RowActionButton(props: RowActionProps) {
  const { translate } = useTranslation();
  const { action } = props;
  const { run, running } = useRowCall(props);
  if (action.fields?.length) return <RowActionForm {...props} />;
  return (
    <Popconfirm title={translate(action.confirm)} okText={translate("common.confirm")} cancelText={translate("common.cancel")} onConfirm={() => run()}>
      <Button size="small" danger loading={running} data-testid={`row-${action.operation}`}>
        {translate(action.label)}
      </Button>
    </Popconfirm>
  );
}

/** A row action asking for a few values first, in a dialog that says what it will do. */
function RowActionForm(props: RowActionProps) {
  const { action, record, entity } = props;
  const { translate } = useTranslation();
  const t: Translate = (key, options) => translate(key, options);
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm();
  const { run, running } = useRowCall(props);
  const submit = async () => {
    const values = (await form.validateFields()) as Record<string, unknown>;
    if (await run(values)) {
      setOpen(false);
      form.resetFields();
    }
  };
  return (
    <>
      <Button size="small" data-testid={`row-${action.operation}`} onClick={() => setOpen(true)}>
        {translate(action.label)}
      </Button>
      <Modal
        open={open}
        title={`${translate(action.label)}: ${String(record[entity.titleField] ?? record.id)}`}
        okText={translate("common.confirm")}
        cancelText={translate("common.cancel")}
        confirmLoading={running}
        onOk={() => void submit().catch(() => undefined)}
        onCancel={() => setOpen(false)}
        destroyOnHidden
      >
        <p>{translate(action.confirm)}</p>
        <Form form={form} layout="vertical" onKeyDown={submitOnlyByButton} preserve={false} data-testid={`row-form-${action.operation}`}>
          {action.fields!.map((f) => (
            <Form.Item key={f.name} name={f.name} label={translate(f.label)} rules={fieldRules(f, t)} {...valueProps(f)}>
              <FieldControl field={f} t={t} />
            </Form.Item>
          ))}
        </Form>
      </Modal>
    </>
  );
}

/** Deletes the record after a confirmation; a refusal (records still belong to it) is the server's message. */
export function DeleteButton({ resource, record }: { resource: string; record: BaseRecord }) {
  const { translate } = useTranslation();
  const { mutate, mutation } = useDelete();
  return (
    <Popconfirm
      title={translate("crud.delete_confirm")}
      okText={translate("common.confirm")}
      cancelText={translate("common.cancel")}
      okButtonProps={{ danger: true }}
      onConfirm={() =>
        mutate(
          { resource, id: record.id!, successNotification: false, errorNotification: false },
          { onSuccess: () => feedback().success(translate("crud.deleted")) },
        )
      }
    >
      <Button size="small" danger icon={<DeleteOutlined />} loading={mutation.isPending} data-testid={`row-delete-${String(record.id)}`}>
        {translate("crud.delete")}
      </Button>
    </Popconfirm>
  );
}
