/**
 * The form of a declared operation (catalogue operations): one item per declared field with its control and
 * client rules (src/crud/fields.tsx), sent through useDeclaredOperation; the server's field errors go under
 * their fields. A page adds its own behaviour around it: a picker for a field, content before a field, fields
 * hidden while they do not apply. Enter in a field submits nothing: only the button does. Values changed and
 * not yet submitted are asked about before anything discards them (src/shell/unsavedChanges.ts).
 */
import { Button, Form, Space, type FormInstance, type FormItemProps } from "antd";
import { useTranslation } from "react-i18next";
import type { ReactNode } from "react";
import type { BaseRecord } from "@refinedev/core";
import type { FieldDecl, OperationDecl } from "../../common/catalogue";
import { ApiFailError } from "../../providers/dataProvider";
import { submitOnlyByButton } from "../lib/forms";
import { useUnsavedChanges } from "../shell/unsavedChanges";
import { FieldControl, fieldRules, valueProps, type Translate } from "./fields";
import { useDeclaredOperation } from "./useDeclaredOperation";
import { isBlank } from "../../common/fieldExtras";


/** The payload of the form's values: the declared fields shown and filled in, text trimmed, nothing else. */
export function operationPayload(operation: OperationDecl, values: Record<string, unknown>, hidden: readonly string[] = []): Record<string, unknown> {
  const payload: Record<string, unknown> = {};
  for (const field of operation.fields) {
    const value = values[field.name];
    if (hidden.includes(field.name) || isBlank(value)) continue;
    payload[field.name] = typeof value === "string" && field.type !== "password" ? value.trim() : value;
  }
  return payload;
}

export interface OperationFormProps<T extends BaseRecord> {
  operation: OperationDecl;
  form: FormInstance;
  initialValues?: Record<string, unknown>;
  /** declared fields not shown (and not sent) while they do not apply */
  hidden?: readonly string[];
  /** a page's own control for a field, e.g. a picker of records */
  controls?: Partial<Record<string, ReactNode>>;
  /** further props of a field's item (a hint below it) */
  itemProps?: Partial<Record<string, Pick<FormItemProps, "extra">>>;
  /** test ids of the default controls, by field */
  testIds?: Partial<Record<string, string>>;
  /** shown before a field, whether or not that field is hidden */
  before?: Partial<Record<string, ReactNode>>;
  submitTestId?: string;
  /** buttons beside the submit button */
  actions?: ReactNode;
  /** after a success, with the answer's data.items and the values sent */
  onDone(result: T, payload: Record<string, unknown>): void;
}

export function OperationForm<T extends BaseRecord>(props: OperationFormProps<T>) {
  const { operation, form, hidden = [], controls = {}, itemProps = {}, testIds = {}, before = {} } = props;
  const { t: translate } = useTranslation();
  const t: Translate = (key, options) => translate(key, options);
  const { call, isPending } = useDeclaredOperation<T>(operation);
  const unsaved = useUnsavedChanges();

  const submit = async (values: Record<string, unknown>) => {
    const payload = operationPayload(operation, values, hidden);
    try {
      const result = await call(payload);
      unsaved.markClean();
      props.onDone(result, payload);
    } catch (err) {
      // the message was shown as a toast; the fields it names are marked
      if (err instanceof ApiFailError && err.errors) {
        form.setFields(Object.entries(err.errors).map(([name, message]) => ({ name, errors: [String(message)] })));
      }
    }
  };

  const item = (field: FieldDecl) => (
    <Form.Item key={field.name} name={field.name} label={t(field.label)} rules={fieldRules(field, t)} {...valueProps(field)} {...itemProps[field.name]}>
      {controls[field.name] ?? <FieldControl field={field} t={t} data-testid={testIds[field.name]} />}
    </Form.Item>
  );

  return (
    <Form
      form={form}
      layout="horizontal"
      labelCol={{ flex: "160px" }}
      style={{ maxWidth: 640 }}
      initialValues={props.initialValues}
      onFinish={(values: Record<string, unknown>) => void submit(values)}
      onValuesChange={unsaved.markDirty}
      onKeyDown={submitOnlyByButton}
    >
      {operation.fields.map((field) => (
        <FieldSlot key={field.name} before={before[field.name]}>
          {hidden.includes(field.name) ? null : item(field)}
        </FieldSlot>
      ))}
      <Form.Item label=" " colon={false}>
        <Space>
          <Button type="primary" htmlType="submit" loading={isPending} data-testid={props.submitTestId}>
            {t(operation.submit)}
          </Button>
          {props.actions}
        </Space>
      </Form.Item>
    </Form>
  );
}

function FieldSlot({ before, children }: { before?: ReactNode; children: ReactNode }) {
  return (
    <>
      {before}
      {children}
    </>
  );
}
