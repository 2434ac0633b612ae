/**
 * A settings page of the catalogue (PageRef `{kind: "settings"}`, a SettingsDecl): one record per tenant in a
 * form, no list. It reads `{name}info` and saves `{name}edit` through refine's data provider (`custom`), with
 * each field's control and client rules from its kind (./fields); the server's field errors go under their
 * fields, a save says so and announces itself (src/lib/settingsSaved.ts) so that what shows the values
 * elsewhere follows at once. Labels stack above their fields on a phone. Changes not yet saved are kept while
 * the page's tab is hidden and asked about before anything discards them (src/shell/unsavedChanges.ts). A secret
 * (a password field) is never read back: its box stays empty, saying whether one is saved (the record's
 * `has_{field}`), and sent empty it keeps the saved one.
 */
import { ReloadOutlined, SaveOutlined, UndoOutlined } from "@ant-design/icons";
import { Button, Card, Form, Result, Space, Spin } from "antd";
import { useCustom, useCustomMutation, usePermissions, type HttpError } from "@refinedev/core";
import { useEffect, useMemo } from "react";
import { useTranslation } from "react-i18next";
import type { FieldDecl, MenuEntry, MenuGroup, SettingsDecl } from "../../common/catalogue";
import { fieldSeenBy } from "../../common/fieldRules";
import { ApiFailError, scope } from "../../providers/dataProvider";
import { feedback } from "../../providers/feedback";
import { settingsSaved } from "../lib/settingsSaved";
import { useUnsavedChanges } from "../shell/unsavedChanges";
import { FieldControl, fieldRules, valueProps, type Translate } from "./fields";

type SettingsRecord = Record<string, unknown>;

export interface SettingsPageProps {
  settings: SettingsDecl;
  /** the menu group and entry the page is opened from */
  group: MenuGroup;
  entry: MenuEntry;
}

/**
 * What a save sends: every field of the form, text trimmed; an emptied field is sent empty, so the server
 * clears it (a required one is refused). A secret is sent as typed, and only when typed: left empty, the saved
 * one stays.
 */
export function settingsPayload(settings: SettingsDecl, values: SettingsRecord): SettingsRecord {
  const payload: SettingsRecord = {};
  for (const field of settings.fields) {
    const value = values[field.name];
    if (field.type === "password") {
      if (typeof value === "string" && value !== "") payload[field.name] = value;
      continue;
    }
    payload[field.name] = value === undefined ? null : typeof value === "string" ? value.trim() : value;
  }
  return payload;
}

/** The form's values of a record as the server answers it: a secret's box empty, whatever was typed in it. */
function formValues(settings: SettingsDecl, record: SettingsRecord): SettingsRecord {
  const values = { ...record };
  for (const field of settings.fields) if (field.type === "password") values[field.name] = undefined;
  return values;
}

/** The tenant the record belongs to: the chosen provider or school, none for a platform-wide page. */
function tenantPayload(settings: SettingsDecl): SettingsRecord {
  return settings.scope === "platform" ? {} : scope();
}

const LABEL_COL = { xs: { span: 24 }, sm: { span: 7 }, lg: { span: 6 } };
const WRAPPER_COL = { xs: { span: 24 }, sm: { span: 17 }, lg: { span: 14 } };
const ACTIONS_COL = { xs: { span: 24 }, sm: { offset: 7, span: 17 }, lg: { offset: 6, span: 14 } };

export default function SettingsPage({ settings: declared, entry }: SettingsPageProps) {
  const { data: roles } = usePermissions<string[]>({});
  // the fields the user's roles see (a provider's own record of the mini-program settings holds none of the platform's)
  const settings = useMemo(() => (declared.fields.some((f) => f.roles) ? { ...declared, fields: declared.fields.filter((f) => fieldSeenBy(f, roles)) } : declared), [declared, roles]);
  const { t: translate } = useTranslation();
  const t: Translate = (key, options) => translate(key, options);
  const [form] = Form.useForm();
  const tenant = tenantPayload(settings);
  const unsaved = useUnsavedChanges();

  const { query, result } = useCustom<SettingsRecord>({
    url: `${settings.name}info`,
    method: "post",
    config: { payload: tenant },
    // an edit in progress is not replaced by a read behind the user's back
    queryOptions: { refetchOnWindowFocus: false },
    // the weapi client has shown a failure already
    errorNotification: false,
    successNotification: false,
  });
  const record = query.isSuccess ? result.data : undefined;

  const { mutateAsync, mutation } = useCustomMutation<SettingsRecord, HttpError, SettingsRecord>();

  // the stored values, unless the user is changing them (a tab shown again runs this anew)
  useEffect(() => {
    if (record && !unsaved.isDirty()) form.setFieldsValue(formValues(settings, record));
  }, [form, record, unsaved, settings]);

  const save = async (values: SettingsRecord) => {
    try {
      const { data } = await mutateAsync({
        url: `${settings.name}edit`,
        method: "post",
        values: { ...tenant, ...settingsPayload(settings, values) },
        // the console's toasts: the weapi client shows a failure once, the page says what succeeded
        successNotification: false,
        errorNotification: false,
      });
      unsaved.markClean();
      form.setFieldsValue(formValues(settings, data));
      feedback().success(t("crud.saved"));
      settingsSaved(settings.name, data);
      void query.refetch();
    } catch (err) {
      // the message was shown as a toast; the fields it names are marked
      if (err instanceof ApiFailError && err.errors) {
        form.setFields(Object.entries(err.errors).map(([name, message]) => ({ name, errors: [String(message)] })));
      }
    }
  };

  const undo = () => {
    if (!record) return;
    unsaved.markClean();
    form.setFieldsValue(formValues(settings, record));
    form.setFields(settings.fields.map((field) => ({ name: field.name, errors: [] })));
  };

  const title = t(entry.title || settings.title);

  if (query.isError) {
    const refused = query.error instanceof ApiFailError;
    return (
      <Card title={title} data-testid="settings-page">
        <div data-testid="settings-page-load-failed">
          <Result
            status="warning"
            title={refused ? query.error.message : t("crud.load_failed_record")}
            extra={
              <Button type="primary" icon={<ReloadOutlined />} onClick={() => void query.refetch()} data-testid="settings-page-retry">
                {t("crud.retry")}
              </Button>
            }
          />
        </div>
      </Card>
    );
  }

  // a secret says whether one is saved, which an empty box keeps
  const secretState = (field: FieldDecl) =>
    field.type !== "password" || !record ? undefined : (
      <span data-testid={`settings-secret-${field.name}`}>{t(record[`has_${field.name}`] === true ? "crud.secret_saved" : "crud.secret_unsaved")}</span>
    );
  const item = (field: FieldDecl) => (
    <Form.Item key={field.name} name={field.name} label={t(field.label)} rules={fieldRules(field, t)} extra={secretState(field)} {...valueProps(field)}>
      <FieldControl field={field} t={t} data-testid={`settings-field-${field.name}`} />
    </Form.Item>
  );

  return (
    <Card title={title} data-testid="settings-page" styles={{ body: { paddingInline: "clamp(12px, 4vw, 24px)" } }}>
      <Spin spinning={query.isLoading}>
        <Form
          form={form}
          layout="horizontal"
          labelCol={LABEL_COL}
          // a long label wraps within its column rather than being cut
          labelWrap
          wrapperCol={WRAPPER_COL}
          style={{ maxWidth: 960 }}
          // the declared rules check every field, in the console's language: not the browser's own bubbles
          noValidate
          onFinish={(values) => void save(values)}
          onValuesChange={unsaved.markDirty}
          data-testid="settings-page-form"
        >
          {settings.fields.map(item)}
          <Form.Item wrapperCol={ACTIONS_COL}>
            <Space wrap>
              <Button type="primary" htmlType="submit" icon={<SaveOutlined />} loading={mutation.isPending} disabled={!record} data-testid="settings-page-save">
                {t("crud.save")}
              </Button>
              <Button icon={<UndoOutlined />} onClick={undo} disabled={!record || mutation.isPending} data-testid="settings-page-undo">
                {t("crud.reset")}
              </Button>
            </Space>
          </Form.Item>
        </Form>
      </Spin>
    </Card>
  );
}
