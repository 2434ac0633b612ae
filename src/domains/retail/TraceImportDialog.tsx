/**
 * Importing trace-source codes by SKU and batch (tracesourceimport, server/domains/retail/traceSources.ts): the SKU
 * of the batch (a goods item, then one of its SKUs) and the batch's facts, then the engine's RowImportDialog (the
 * template, one .xlsx of codes, where a row may name its own SKU and facts; the preview of each row; the import with
 * its counts, each row's outcome and the result file). The codes' list refreshes after.
 */
import { Col, Form, Row, Typography } from "antd";
import { useTranslation } from "@refinedev/core";
import type { FieldDecl } from "../../../common/catalogue";
import { traceSourceEntity } from "../../../catalogue/traceSources";
import { FieldControl, fieldRules, valueProps, type Translate } from "../../engine/fields";
import { RowImportDialog, type ImportedRow } from "../../engine/RowImportDialog";

interface TraceRow extends ImportedRow {
  code: string;
  sku: string;
  batch_no: string;
}

/** the batch's fields of the entity, as its form has them; none required here: a row may give its own */
const BATCH_FIELDS: FieldDecl[] = ["goods_id", "sku_id", "batch_no", "manufacturer", "standard", "fabric", "report_url"].map((name) => ({
  ...traceSourceEntity.fields.find((f) => f.name === name)!,
  required: false,
}));
/** what is sent of them: the SKU names its goods item */
const SENT_FIELDS = BATCH_FIELDS.map((f) => f.name).filter((name) => name !== "goods_id");

export default function TraceImportDialog({ onClose }: { onClose: () => void }) {
  const { translate } = useTranslation();
  const t: Translate = (key, options) => translate(key, options);
  const [form] = Form.useForm();

  const item = (field: FieldDecl) => (
    <Form.Item key={field.name} name={field.name} label={t(field.label)} rules={fieldRules(field, t)} {...valueProps(field)} style={{ marginBottom: 12 }}>
      <FieldControl field={field} t={t} data-testid={`trace-import-${field.name}`} />
    </Form.Item>
  );

  const collect = async (): Promise<Record<string, unknown> | null> => {
    try {
      await form.validateFields();
    } catch {
      return null;
    }
    const values = form.getFieldsValue() as Record<string, unknown>;
    return Object.fromEntries(
      SENT_FIELDS.map((name) => [name, typeof values[name] === "string" ? (values[name] as string).trim() : values[name]] as const).filter(
        ([, value]) => value !== undefined && value !== null && value !== "",
      ),
    );
  };

  const batchForm = (
    <Form form={form} layout="vertical" requiredMark={false} data-testid="trace-import-batch">
      <Row gutter={16}>
        <Col xs={24} md={12}>
          {item(BATCH_FIELDS[0])}
        </Col>
        <Col xs={24} md={12}>
          {item(BATCH_FIELDS[1])}
        </Col>
      </Row>
      <Typography.Text type="secondary" style={{ display: "block", marginBottom: 8 }}>
        {translate("retail.trace.import.batch_facts")}
      </Typography.Text>
      <Row gutter={16}>
        {BATCH_FIELDS.slice(2).map((field) => (
          <Col key={field.name} xs={24} md={field.name === "report_url" || field.name === "fabric" ? 24 : 8}>
            {item(field)}
          </Col>
        ))}
      </Row>
    </Form>
  );

  return (
    <RowImportDialog<TraceRow>
      onClose={onClose}
      path="adminapiv2"
      operation="tracesourceimport"
      templateOperation="tracesourcetemplate"
      messages="retail.trace.import"
      pending="add"
      done="added"
      refresh={[traceSourceEntity.name]}
      testId="trace-import"
      width={900}
      params={{
        form: batchForm,
        collect,
        showErrors: (errors) => form.setFields(errors.filter((e) => BATCH_FIELDS.some((f) => f.name === e.field)).map((e) => ({ name: e.field, errors: [e.message] }))),
      }}
      columns={[
        { key: "code", dataIndex: "code", title: translate("retail.trace.field.code"), render: (v: string) => <Typography.Text copyable={Boolean(v)}>{v}</Typography.Text> },
        { key: "sku", dataIndex: "sku", title: translate("retail.entity.goodssku") },
        { key: "batch_no", dataIndex: "batch_no", title: translate("retail.trace.field.batch_no") },
      ]}
    />
  );
}
