/**
 * Importing trace-source codes by SKU and batch (tracesourceimport, server/domains/retail/traceSources.ts): the SKU
 * of the batch (a goods item, then one of its SKUs) and the batch's facts, the template, one .xlsx of codes (a row
 * may name its own SKU and facts), the server's preview of each row (nothing written), then the import with its
 * counts, each row's outcome and the result file. The codes' list refreshes after.
 */
import { Alert, Button, Col, Form, Modal, Row, Space, Steps, Table, Tag, Typography, Upload, type UploadFile } from "antd";
import { DownloadOutlined, InboxOutlined, UploadOutlined } from "@ant-design/icons";
import { useState } from "react";
import { useTranslation } from "@refinedev/core";
import type { FieldDecl } from "../../../common/catalogue";
import { traceSourceEntity } from "../../../catalogue/traceSources";
import { weapi } from "../../../providers/weapi";
import { FieldControl, fieldRules, valueProps, type Translate } from "../../engine/fields";
import { saveFile, type ExportFile } from "../../engine/files";
import { IMPORT_MAX_MB, readBase64 } from "../../engine/ImportDialog";
import { useRefreshEntities } from "../../engine/useDeclaredOperation";

type Outcome = "add" | "added" | "unchanged" | "failed";

interface TraceRow {
  row: number;
  code: string;
  sku: string;
  batch_no: string;
  outcome: Outcome;
  message: string;
}

interface Answer {
  preview: boolean;
  total: number;
  add?: number;
  added?: number;
  unchanged: number;
  failed: number;
  rows: TraceRow[];
  file?: ExportFile;
}

const PATH = "adminapiv2";
const OUTCOME_TONE: Record<Outcome, string> = { add: "processing", added: "success", unchanged: "default", failed: "error" };
/** the batch's fields of the entity, as its form has them; none required here: a row may give its own */
const BATCH_FIELDS: FieldDecl[] = ["goods_id", "sku_id", "batch_no", "manufacturer", "standard", "fabric", "report_url"].map((name) => ({
  ...traceSourceEntity.fields.find((f) => f.name === name)!,
  required: false,
}));

export default function TraceImportDialog({ onClose }: { onClose: () => void }) {
  const { translate } = useTranslation();
  const t: Translate = (key, options) => translate(key, options);
  const refresh = useRefreshEntities();
  const [form] = Form.useForm();
  const [file, setFile] = useState<UploadFile | null>(null);
  const [content, setContent] = useState<string | null>(null);
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const batch = (): Record<string, unknown> => {
    const values = form.getFieldsValue() as Record<string, unknown>;
    return Object.fromEntries(
      ["sku_id", "batch_no", "manufacturer", "standard", "fabric", "report_url"]
        .map((name) => [name, typeof values[name] === "string" ? (values[name] as string).trim() : values[name]] as const)
        .filter(([, value]) => value !== undefined && value !== null && value !== ""),
    );
  };

  // the batch as it was when previewed: the import sends what the preview checked (the form is gone by then)
  const [sent, setSent] = useState<Record<string, unknown>>({});

  const send = async (base64: string, preview: boolean, facts: Record<string, unknown>) => {
    setBusy(true);
    try {
      const res = await weapi<{ items?: Answer }>(PATH, "tracesourceimport", { filename: file?.name, content_base64: base64, preview, ...facts }, { silent: true });
      const ok = res.return_code === "SUCCESS";
      setMessage({ ok, text: res.return_msg });
      setAnswer(ok ? (res.data?.items ?? null) : null);
      const errors = (res.data as { errors?: { field: string; message: string }[] } | undefined)?.errors;
      if (!ok && errors) form.setFields(errors.filter((e) => BATCH_FIELDS.some((f) => f.name === e.field)).map((e) => ({ name: e.field, errors: [e.message] })));
      if (ok && !preview) await refresh([traceSourceEntity.name]).catch(() => undefined);
    } catch (err) {
      setMessage({ ok: false, text: err instanceof Error ? err.message : String(err) });
    } finally {
      setBusy(false);
    }
  };

  const choose = async (chosen: File) => {
    setAnswer(null);
    setMessage(null);
    if (!/\.xlsx$/i.test(chosen.name)) return setMessage({ ok: false, text: translate("import.not_xlsx") });
    if (chosen.size > IMPORT_MAX_MB * 1024 * 1024) return setMessage({ ok: false, text: translate("import.too_large", { max: IMPORT_MAX_MB }) });
    try {
      await form.validateFields();
    } catch {
      return;
    }
    setFile({ uid: "chosen", name: chosen.name, size: chosen.size, status: "done" });
    const base64 = await readBase64(chosen, () => undefined);
    setContent(base64);
    const facts = batch();
    setSent(facts);
    await send(base64, true, facts);
  };

  const template = async () => {
    const res = await weapi<{ items?: ExportFile }>(PATH, "tracesourcetemplate", {});
    if (res.return_code === "SUCCESS" && res.data?.items) saveFile(res.data.items);
  };

  const step = !answer ? 0 : answer.preview ? 1 : 2;
  const toAdd = answer?.preview ? (answer.add ?? 0) : 0;

  const item = (field: FieldDecl) => (
    <Form.Item key={field.name} name={field.name} label={t(field.label)} rules={fieldRules(field, t)} {...valueProps(field)} style={{ marginBottom: 12 }}>
      <FieldControl field={field} t={t} data-testid={`trace-import-${field.name}`} />
    </Form.Item>
  );

  return (
    <Modal
      open
      width={900}
      title={translate("retail.trace.import.title")}
      onCancel={() => !busy && onClose()}
      maskClosable={false}
      destroyOnHidden
      footer={
        <Space wrap style={{ justifyContent: "flex-end" }}>
          <Button onClick={onClose} disabled={busy} data-testid="trace-import-close">
            {translate("import.close")}
          </Button>
          {answer?.preview && (
            <Button type="primary" icon={<UploadOutlined />} loading={busy} disabled={toAdd === 0} onClick={() => content && void send(content, false, sent)} data-testid="trace-import-confirm">
              {toAdd === 0 ? translate("retail.trace.import.nothing") : translate("retail.trace.import.confirm", { count: toAdd })}
            </Button>
          )}
          {answer?.file && (
            <Button type="primary" icon={<DownloadOutlined />} onClick={() => saveFile(answer.file!)} data-testid="trace-import-result-file">
              {translate("retail.trace.import.download_result")}
            </Button>
          )}
        </Space>
      }
    >
      <Steps
        size="small"
        responsive={false}
        current={step}
        style={{ marginBottom: 16 }}
        items={[{ title: translate("import.step_file") }, { title: translate("import.step_preview") }, { title: translate("import.step_result") }]}
      />
      <Space direction="vertical" size="middle" style={{ width: "100%" }}>
        {step === 0 && (
          <>
            <Alert type="info" showIcon message={translate("retail.trace.import.hint")} />
            <Form form={form} layout="vertical" requiredMark={false} data-testid="trace-import-batch">
              <Row gutter={16}>
                <Col xs={24} md={12}>{item(BATCH_FIELDS[0])}</Col>
                <Col xs={24} md={12}>{item(BATCH_FIELDS[1])}</Col>
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
            <Button icon={<DownloadOutlined />} onClick={() => void template()} data-testid="trace-import-template">
              {translate("import.download_template")}
            </Button>
            <Upload.Dragger
              accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
              multiple={false}
              maxCount={1}
              disabled={busy}
              fileList={file ? [file] : []}
              beforeUpload={(chosen) => {
                void choose(chosen);
                // read here and sent with the preview, not uploaded on its own
                return false;
              }}
              onRemove={() => {
                setFile(null);
                setContent(null);
              }}
              data-testid="trace-import-file"
            >
              <p className="ant-upload-drag-icon">
                <InboxOutlined />
              </p>
              <p className="ant-upload-text">{translate("import.choose_file")}</p>
            </Upload.Dragger>
          </>
        )}
        {message && <Alert type={message.ok ? (answer && answer.failed > 0 ? "warning" : "success") : "error"} showIcon message={message.text} data-testid="trace-import-message" />}
        {answer && (
          <Table<TraceRow>
            size="small"
            data-testid="trace-import-rows"
            rowKey="row"
            dataSource={answer.rows}
            scroll={{ x: 760 }}
            pagination={{ pageSize: 10, size: "small", showSizeChanger: false, hideOnSinglePage: true }}
            columns={[
              { key: "row", dataIndex: "row", title: translate("import.error_row"), width: 56 },
              { key: "code", dataIndex: "code", title: translate("retail.trace.field.code"), render: (v: string) => <Typography.Text copyable={Boolean(v)}>{v}</Typography.Text> },
              { key: "sku", dataIndex: "sku", title: translate("retail.entity.goodssku") },
              { key: "batch_no", dataIndex: "batch_no", title: translate("retail.trace.field.batch_no") },
              {
                key: "outcome",
                dataIndex: "outcome",
                title: translate("retail.trace.import.result"),
                render: (outcome: Outcome) => <Tag color={OUTCOME_TONE[outcome]}>{translate(`retail.trace.import.outcome.${outcome}`)}</Tag>,
              },
              { key: "message", dataIndex: "message", title: translate("retail.trace.import.reason"), render: (v: string) => <span style={{ overflowWrap: "anywhere" }}>{v}</span> },
            ]}
          />
        )}
      </Space>
    </Modal>
  );
}
