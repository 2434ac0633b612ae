/**
 * Generic add / edit page of a catalogue entity: one form item per form field of the action (virtual fields,
 * such as a provider's first account, only where declared), client validation from the declaration, the
 * server's field errors under their fields. A save says so, closes the form's tab and returns to the list it
 * came from (with that list's page and filters); "save and add another" stays on the add form, cleared to its
 * defaults. A record whose next step is an action (a channel's submission for review) says so on its add form, which
 * offers to save and take that step in one click: a refused step leaves the record saved and says why. The form keeps what was typed while its tab is hidden, and its unsaved changes are asked about
 * before anything discards them (src/shell/unsavedChanges.ts), Back included.
 */
import { Alert, Button, Card, Form, Space, Spin } from "antd";
import { PlusOutlined, RollbackOutlined, SaveOutlined, SendOutlined } from "@ant-design/icons";
import { useForm } from "@refinedev/antd";
import { useBack, useGo, usePermissions, useTranslation, type BaseRecord, type HttpError } from "@refinedev/core";
import { useEffect, useRef } from "react";
import { useParams } from "react-router";
import { hasAnyRole } from "../../common/roleKeys";
import { DEFAULT_API_PATH, scope } from "../../providers/dataProvider";
import { feedback } from "../../providers/feedback";
import { weapi } from "../../providers/weapi";
import { closeTab, currentTabs } from "../shell/tabs";
import { confirmDiscard, useUnsavedChanges } from "../shell/unsavedChanges";
import { addDefaults, clearNarrowed, RecordFields } from "./RecordFields";
import { useAnsweredOnce } from "./AnsweredOnce";
import { RecordUnavailable } from "./LoadFailed";
import { resourceByIdentifier } from "./resources";
import { scrollToTop } from "./scrollToTop";
import { useRefreshEntities } from "./useDeclaredOperation";

export type FormAction = "add" | "edit";

export default function CrudForm({ resource, action }: { resource: string; action: FormAction }) {
  const { entity, pages } = resourceByIdentifier(resource);
  const { translate } = useTranslation();
  const showAnsweredOnce = useAnsweredOnce();
  const back = useBack();
  const go = useGo();
  const { id } = useParams();
  const unsaved = useUnsavedChanges();
  // set by "save and add another" for the save it starts
  const addAnother = useRef(false);
  // the step a new record takes next, when the user may take it (a channel's submission), and whether this save takes it
  const { data: roles } = usePermissions<string[]>({});
  const next = action === "add" ? entity.actions?.find((a) => a.afterAdd && roles && hasAnyRole(roles, a.roles)) : undefined;
  const thenNext = useRef(false);
  const refresh = useRefreshEntities();

  /** The next step taken on the record just saved: said either way, the record stays saved when it is refused. */
  const takeNext = async (id: unknown): Promise<void> => {
    if (!next) return;
    const entityTitle = translate(entity.title);
    try {
      const res = await weapi(entity.apiPath ?? DEFAULT_API_PATH, next.name, { ...scope(), [next.idField ?? "id"]: id }, { silent: true });
      if (res.return_code === "SUCCESS") feedback().success(translate("crud.created_and_next", { entity: entityTitle, message: res.return_msg }));
      else feedback().warning(translate("crud.created_next_failed", { entity: entityTitle, action: translate(next.label), message: res.return_msg }), 8);
    } catch (err) {
      feedback().warning(translate("crud.created_next_failed", { entity: entityTitle, action: translate(next.label), message: err instanceof Error ? err.message : String(err) }), 8);
    }
    await refresh([entity.name]);
  };

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
    onMutationSuccess: async (data) => {
      const entityTitle = translate(entity.title);
      unsaved.markClean();
      // a secret answered once is copied before the form goes
      await showAnsweredOnce(entity, data.data);
      if (thenNext.current) {
        thenNext.current = false;
        await takeNext(data.data?.id);
        leave();
        return;
      }
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
      thenNext.current = false;
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
          onFinishFailed={() => {
            addAnother.current = false;
            thenNext.current = false;
          }}
          onValuesChange={(changed, all) => {
            formProps.onValuesChange?.(changed, all);
            unsaved.markDirty();
            clearNarrowed(entity, formProps.form)(changed as Record<string, unknown>);
          }}
        >
          {next?.afterAdd && <Alert type="info" showIcon style={{ marginBottom: 16 }} message={translate(next.afterAdd.hint)} data-testid="form-next-step" />}
          <RecordFields entity={entity} action={action} />
          {/* under the fields; on a phone, where the labels stand above them, from the left edge */}
          <Form.Item wrapperCol={{ xs: { span: 24 }, sm: { offset: 6, span: 14 } }}>
            <Space wrap>
              <Button
                type="primary"
                icon={<SaveOutlined />}
                htmlType="submit"
                loading={saving}
                data-testid="form-save"
                onClick={() => {
                  addAnother.current = false;
                  thenNext.current = false;
                }}
              >
                {translate("crud.save")}
              </Button>
              {next?.afterAdd && (
                <Button
                  icon={<SendOutlined />}
                  disabled={saving}
                  data-testid={`form-save-and-${next.name}`}
                  onClick={() => {
                    addAnother.current = false;
                    thenNext.current = true;
                    form.submit();
                  }}
                >
                  {translate(next.afterAdd.label)}
                </Button>
              )}
              {action === "add" && (
                <Button
                  icon={<PlusOutlined />}
                  disabled={saving}
                  data-testid="form-save-add-another"
                  onClick={() => {
                    addAnother.current = true;
                    thenNext.current = false;
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
