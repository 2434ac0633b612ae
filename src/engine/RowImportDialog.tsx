/**
 * An import of rows that each go through an operation of their own (tracking numbers, trace-source codes): the
 * template, one .xlsx file, the server's preview of what each row would do (nothing written), then the import, with
 * its counts, each row's outcome and the result file to download. The import operation takes {filename,
 * content_base64, preview, ...params} and answers {preview, total, unchanged, failed, rows, file?} with the count of
 * rows to do under the name of their outcome (`pending`: "deliver", "add").
 *
 * Messages under `messages`: title, hint, nothing, confirm {count}, download_result, result, reason, outcome.<outcome>.
 */
import { Alert, Button, Modal, Space, Steps, Table, Tag, Upload, type TableColumnsType, type UploadFile } from "antd";
import { DownloadOutlined, InboxOutlined, UploadOutlined } from "@ant-design/icons";
import { useState, type ReactNode } from "react";
import { useTranslation } from "@refinedev/core";
import { weapi } from "../../providers/weapi";
import { saveFile, type ExportFile } from "./files";
import { IMPORT_MAX_MB, readBase64 } from "./ImportDialog";
import { useRefreshEntities } from "./useDeclaredOperation";

/** A row of the answer: its number in the file, what became of it and why. */
export interface ImportedRow {
  row: number;
  outcome: string;
  message: string;
}

interface Answer<Row> {
  preview: boolean;
  total: number;
  unchanged: number;
  failed: number;
  rows: Row[];
  file?: ExportFile;
  [pending: string]: unknown;
}

/** What an import sends beside the file (a batch's facts), asked for before the file is read. */
export interface ImportParams {
  form: ReactNode;
  /** the values to send, or null when the form holds a mistake (shown on it) */
  collect(): Promise<Record<string, unknown> | null>;
  /** the server's refusals of its fields */
  showErrors(errors: { field: string; message: string }[]): void;
}

const OUTCOME_TONES: Readonly<Record<string, string>> = { unchanged: "default", failed: "error" };

export function RowImportDialog<Row extends ImportedRow>(props: {
  onClose: () => void;
  path: string;
  operation: string;
  templateOperation: string;
  messages: string;
  /** the outcome of a row the preview finds to do; once done, `done` */
  pending: string;
  done: string;
  /** the columns before the outcome and its reason */
  columns: TableColumnsType<Row>;
  /** the entities whose lists show what the import wrote */
  refresh: string[];
  testId: string;
  width: number;
  params?: ImportParams;
}) {
  const { onClose, path, operation, messages, pending, done, testId, params } = props;
  const { translate } = useTranslation();
  const refresh = useRefreshEntities();
  const [file, setFile] = useState<UploadFile | null>(null);
  const [content, setContent] = useState<string | null>(null);
  // what was sent with the preview: the import sends what the preview checked (the form is gone by then)
  const [sentParams, setSentParams] = useState<Record<string, unknown>>({});
  const [answer, setAnswer] = useState<Answer<Row> | null>(null);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const text = (key: string, options?: Record<string, unknown>) => translate(`${messages}.${key}`, options);

  const send = async (base64: string, preview: boolean, extra: Record<string, unknown>, filename = file?.name) => {
    setBusy(true);
    try {
      const res = await weapi<{ items?: Answer<Row>; errors?: { field: string; message: string }[] }>(path, operation, { filename, content_base64: base64, preview, ...extra }, { silent: true });
      const ok = res.return_code === "SUCCESS";
      setMessage({ ok, text: res.return_msg });
      setAnswer(ok ? (res.data?.items ?? null) : null);
      if (!ok && res.data?.errors) params?.showErrors(res.data.errors);
      if (ok && !preview) await refresh(props.refresh).catch(() => undefined);
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
    const extra = params ? await params.collect() : {};
    if (extra === null) return;
    setFile({ uid: "chosen", name: chosen.name, size: chosen.size, status: "done" });
    const base64 = await readBase64(chosen, () => undefined);
    setContent(base64);
    setSentParams(extra);
    await send(base64, true, extra, chosen.name);
  };

  const template = async () => {
    const res = await weapi<{ items?: ExportFile }>(path, props.templateOperation, {});
    if (res.return_code === "SUCCESS" && res.data?.items) saveFile(res.data.items);
  };

  const step = !answer ? 0 : answer.preview ? 1 : 2;
  const toDo = answer?.preview ? Number(answer[pending] ?? 0) : 0;
  const tones: Record<string, string> = { ...OUTCOME_TONES, [pending]: "processing", [done]: "success" };

  return (
    <Modal
      open
      width={props.width}
      title={text("title")}
      onCancel={() => !busy && onClose()}
      maskClosable={false}
      destroyOnHidden
      footer={
        <Space wrap style={{ justifyContent: "flex-end" }}>
          <Button onClick={onClose} disabled={busy} data-testid={`${testId}-close`}>
            {translate("import.close")}
          </Button>
          {answer?.preview && (
            <Button type="primary" icon={<UploadOutlined />} loading={busy} disabled={toDo === 0} onClick={() => content && void send(content, false, sentParams)} data-testid={`${testId}-confirm`}>
              {toDo === 0 ? text("nothing") : text("confirm", { count: toDo })}
            </Button>
          )}
          {answer?.file && (
            <Button type="primary" icon={<DownloadOutlined />} onClick={() => saveFile(answer.file!)} data-testid={`${testId}-result-file`}>
              {text("download_result")}
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
            <Alert type="info" showIcon message={text("hint")} />
            {params?.form}
            <Button icon={<DownloadOutlined />} onClick={() => void template()} data-testid={`${testId}-template`}>
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
              data-testid={`${testId}-file`}
            >
              <p className="ant-upload-drag-icon">
                <InboxOutlined />
              </p>
              <p className="ant-upload-text">{translate("import.choose_file")}</p>
            </Upload.Dragger>
          </>
        )}
        {message && <Alert type={message.ok ? (answer && answer.failed > 0 ? "warning" : "success") : "error"} showIcon message={message.text} data-testid={`${testId}-message`} />}
        {answer && (
          <Table<Row>
            size="small"
            data-testid={`${testId}-rows`}
            rowKey="row"
            dataSource={answer.rows}
            scroll={{ x: props.width - 140 }}
            pagination={{ pageSize: 10, size: "small", showSizeChanger: false, hideOnSinglePage: true }}
            columns={[
              { key: "row", dataIndex: "row", title: translate("import.error_row"), width: 56 },
              ...props.columns,
              { key: "outcome", dataIndex: "outcome", title: text("result"), render: (outcome: string) => <Tag color={tones[outcome]}>{text(`outcome.${outcome}`)}</Tag> },
              { key: "message", dataIndex: "message", title: text("reason"), render: (v: string) => <span style={{ overflowWrap: "anywhere" }}>{v}</span> },
            ]}
          />
        )}
      </Space>
    </Modal>
  );
}
