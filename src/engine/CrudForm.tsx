/**
 * Generic add / edit page of a catalogue entity: one form item per form field of the action (virtual fields,
 * such as a provider's first account, only where declared), client validation from the declaration, the
 * server's field errors under their fields. A save says so, closes the form's tab and returns to the list it
 * came from (with that list's page and filters); "save and add another" stays on the add form, cleared to its
 * defaults. The form keeps what was typed while its tab is hidden, and its unsaved changes are asked about
 * before anything discards them (src/shell/unsavedChanges.ts), Back included.
 */
import { Button, Card, Form, Space, Spin } from "antd";
import { PlusOutlined, RollbackOutlined, SaveOutlined } from "@ant-design/icons";
import { useForm } from "@refinedev/antd";
import { useBack, useGo, useTranslation, type BaseRecord, type HttpError } from "@refinedev/core";
import { useEffect, useRef } from "react";
import { useParams } from "react-router";
import { feedback } from "../../providers/feedback";
import { closeTab, currentTabs } from "../shell/tabs";
import { confirmDiscard, useUnsavedChanges } from "../shell/unsavedChanges";
import { addDefaults, clearNarrowed, RecordFields } from "./RecordFields";
import { RecordUnavailable } from "./LoadFailed";
import { resourceByIdentifier } from "./resources";
import { scrollToTop } from "./scrollToTop";

export type FormAction = "add" | "edit";

export default function CrudForm({ resource, action }: { resource: string; action: FormAction }) {
  const { entity, pages } = resourceByIdentifier(resource);
  const { translate } = useTranslation();
  const back = useBack();
  const go = useGo();
  const { id } = useParams();
  const unsaved = useUnsavedChanges();
  // set by "save and add another" for the save it starts
  const addAnother = useRef(false);

  /** Back to the list the form came from (as that list's tab left it), closing the form's tab. */
  const leave = () => {
    const list = pages.list?.route;
    if (list) go({ to: currentTabs().find((tab) => tab.key === list)?.path ?? list });
    else back();
    closeTab(unsaved.key);
  };

  const { formProps, form, saveButtonProps, formLoading, query } = useForm<BaseRecord, HttpError>({
    resource,
    action: action === "add" ? "create" : "edit",
    id: action === "edit" ? id : undefined,
    // where a save goes is decided below: back to the list, or a fresh add form
    redirect: false,
    defaultFormValues: action === "add" ? addDefaults(entity) : undefined,
    // messages use the same toasts as the weapi client, which has already shown a FAIL's message;
    // the server's field errors go under their fields
    successNotification: false,
    errorNotification: false,
    onMutationSuccess: () => {
      const entityTitle = translate(entity.title);
      unsaved.markClean();
      if (addAnother.current) {
        addAnother.current = false;
        form.resetFields();
        form.setFieldsValue(addDefaults(entity));
        feedback().success(translate("crud.created_next", { entity: entityTitle }));
        scrollToTop();
        return;
      }
      feedback().success(translate(action === "add" ? "crud.created" : "crud.saved", { entity: entityTitle }));
      leave();
    },
    onMutationError: () => {
      addAnother.current = false;
    },
  });

  // A tab hidden by the tabs view keeps the form's values, but refine resets the form when the page shows again
  // (its effects run anew): what was typed is put back, marked as touched so the add form's defaults, set
  // after it, leave it alone.
  const kept = useRef<Record<string, unknown>>(undefined);
  useEffect(() => {
    if (kept.current) form.setFields(Object.entries(kept.current).map(([name, value]) => ({ name, value, touched: true })));
    kept.current = undefined;
    return () => {
      if (unsaved.isDirty()) kept.current = form.getFieldsValue(true) as Record<string, unknown>;
    };
  }, [form, unsaved]);

  const title = pages[action]?.entry.title ?? entity.title;
  const toList = () => confirmDiscard([unsaved.key], leave);
  if (action === "edit" && query?.isError) {
    return (
      <Card title={translate(title)}>
        <RecordUnavailable error={query.error} entityTitle={entity.title} onRetry={() => void query.refetch()} onBack={toList} />
      </Card>
    );
  }
  const saving = saveButtonProps.disabled;
  return (
    <Card title={translate(title)}>
      <Spin spinning={formLoading}>
        <Form
          {...formProps}
          layout="horizontal"
          labelCol={{ span: 6 }}
          wrapperCol={{ span: 14 }}
          style={{ maxWidth: 900 }}
          // a refused "save and add another" leaves the next save a plain one
          onFinishFailed={() => (addAnother.current = false)}
          onValuesChange={(changed, all) => {
            formProps.onValuesChange?.(changed, all);
            unsaved.markDirty();
            clearNarrowed(entity, formProps.form)(changed as Record<string, unknown>);
          }}
        >
          <RecordFields entity={entity} action={action} />
          {/* under the fields; on a phone, where the labels stand above them, from the left edge */}
          <Form.Item wrapperCol={{ xs: { span: 24 }, sm: { offset: 6, span: 14 } }}>
            <Space wrap>
              <Button type="primary" icon={<SaveOutlined />} htmlType="submit" loading={saving} data-testid="form-save" onClick={() => (addAnother.current = false)}>
                {translate("crud.save")}
              </Button>
              {action === "add" && (
                <Button
                  icon={<PlusOutlined />}
                  disabled={saving}
                  data-testid="form-save-add-another"
                  onClick={() => {
                    addAnother.current = true;
                    form.submit();
                  }}
                >
                  {translate("crud.save_add_another")}
                </Button>
              )}
              <Button icon={<RollbackOutlined />} onClick={toList} data-testid="form-back">
                {translate("crud.back")}
              </Button>
            </Space>
          </Form.Item>
        </Form>
      </Spin>
    </Card>
  );
}
