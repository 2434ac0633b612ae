/**
 * Importing tracking numbers (orderdeliveryimport, server/domains/retail/deliveryImport.ts): the template, one .xlsx
 * file, the server's preview of what each row would do (nothing written), then the import, each row sent on its own,
 * with its counts, each row's outcome and the result file to download. The orders and the import log refresh after.
 */
import { Alert, Button, Modal, Space, Steps, Table, Tag, Typography, Upload, type UploadFile } from "antd";
import { DownloadOutlined, InboxOutlined, UploadOutlined } from "@ant-design/icons";
import { useState } from "react";
import { useTranslation } from "@refinedev/core";
import { expressNameKey } from "../../../common/expressCompanies";
import { weapi } from "../../../providers/weapi";
import { saveFile, type ExportFile } from "../../engine/files";
import { IMPORT_MAX_MB, readBase64 } from "../../engine/ImportDialog";
import { useRefreshEntities } from "../../engine/useDeclaredOperation";

type Outcome = "deliver" | "delivered" | "unchanged" | "failed";

interface DeliveryRow {
  row: number;
  order_no: string;
  express_code: string;
  tracking_no: string;
  remark: string;
  outcome: Outcome;
  message: string;
}

interface Answer {
  preview: boolean;
  total: number;
  deliver?: number;
  delivered?: number;
  unchanged: number;
  failed: number;
  rows: DeliveryRow[];
  file?: ExportFile;
}

const PATH = "adminapiv2";
const OUTCOME_TONE: Record<Outcome, string> = { deliver: "processing", delivered: "success", unchanged: "default", failed: "error" };

export default function DeliveryImportDialog({ onClose }: { onClose: () => void }) {
  const { translate } = useTranslation();
  const refresh = useRefreshEntities();
  const [file, setFile] = useState<UploadFile | null>(null);
  const [content, setContent] = useState<string | null>(null);
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const send = async (base64: string, preview: boolean) => {
    setBusy(true);
    try {
      const res = await weapi<{ items?: Answer }>(PATH, "orderdeliveryimport", { filename: file?.name, content_base64: base64, preview }, { silent: true });
      const ok = res.return_code === "SUCCESS";
      setMessage({ ok, text: res.return_msg });
      setAnswer(ok ? (res.data?.items ?? null) : null);
      if (ok && !preview) await refresh(["deliveryimport", "shoporder"]).catch(() => undefined);
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
    setFile({ uid: "chosen", name: chosen.name, size: chosen.size, status: "done" });
    const base64 = await readBase64(chosen, () => undefined);
    setContent(base64);
    await send(base64, true);
  };

  const template = async () => {
    const res = await weapi<{ items?: ExportFile }>(PATH, "orderdeliverytemplate", {});
    if (res.return_code === "SUCCESS" && res.data?.items) saveFile(res.data.items);
  };

  const step = !answer ? 0 : answer.preview ? 1 : 2;
  const toSend = answer?.preview ? (answer.deliver ?? 0) : 0;
  // a code of our table by its name; what the file gave otherwise (an unknown company)
  const company = (code: string) => {
    const name = translate(expressNameKey(code));
    return name === expressNameKey(code) ? code : name;
  };

  return (
    <Modal
      open
      width={860}
      title={translate("retail.delivery_import.title")}
      onCancel={() => !busy && onClose()}
      maskClosable={false}
      destroyOnHidden
      footer={
        <Space wrap style={{ justifyContent: "flex-end" }}>
          <Button onClick={onClose} disabled={busy} data-testid="delivery-import-close">
            {translate("import.close")}
          </Button>
          {answer?.preview && (
            <Button type="primary" icon={<UploadOutlined />} loading={busy} disabled={toSend === 0} onClick={() => content && void send(content, false)} data-testid="delivery-import-confirm">
              {toSend === 0 ? translate("retail.delivery_import.nothing") : translate("retail.delivery_import.confirm", { count: toSend })}
            </Button>
          )}
          {answer?.file && (
            <Button type="primary" icon={<DownloadOutlined />} onClick={() => saveFile(answer.file!)} data-testid="delivery-import-result-file">
              {translate("retail.delivery_import.download_result")}
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
            <Alert type="info" showIcon message={translate("retail.delivery_import.hint")} />
            <Button icon={<DownloadOutlined />} onClick={() => void template()} data-testid="delivery-import-template">
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
              data-testid="delivery-import-file"
            >
              <p className="ant-upload-drag-icon">
                <InboxOutlined />
              </p>
              <p className="ant-upload-text">{translate("import.choose_file")}</p>
            </Upload.Dragger>
          </>
        )}
        {message && <Alert type={message.ok ? (answer && answer.failed > 0 ? "warning" : "success") : "error"} showIcon message={message.text} data-testid="delivery-import-message" />}
        {answer && (
          <Table<DeliveryRow>
            size="small"
            data-testid="delivery-import-rows"
            rowKey="row"
            dataSource={answer.rows}
            scroll={{ x: 720 }}
            pagination={{ pageSize: 10, size: "small", showSizeChanger: false, hideOnSinglePage: true }}
            columns={[
              { key: "row", dataIndex: "row", title: translate("import.error_row"), width: 56 },
              { key: "order_no", dataIndex: "order_no", title: translate("collection.field.order_no"), render: (v: string) => <Typography.Text copyable={Boolean(v)}>{v}</Typography.Text> },
              { key: "express", dataIndex: "express_code", title: translate("retail.field.express_company"), render: company },
              { key: "tracking_no", dataIndex: "tracking_no", title: translate("retail.field.tracking_no") },
              {
                key: "outcome",
                dataIndex: "outcome",
                title: translate("retail.delivery_import.result"),
                render: (outcome: Outcome) => <Tag color={OUTCOME_TONE[outcome]}>{translate(`retail.delivery_import.outcome.${outcome}`)}</Tag>,
              },
              { key: "message", dataIndex: "message", title: translate("retail.delivery_import.reason"), render: (v: string) => <span style={{ overflowWrap: "anywhere" }}>{v}</span> },
            ]}
          />
        )}
      </Space>
    </Modal>
  );
}
