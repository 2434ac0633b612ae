/**
 * Printing an order on purpose (custom page "devicemtprint"): a printer of the provider and an order number, printed
 * now (devicemtprint; a reprint where the printer printed the order before), and the newest print jobs, each one's
 * receipt shown as it comes out on 58 mm paper (the sandbox printer's, and what a cloud printer was sent).
 */
import { Alert, Button, Card, Col, Empty, Form, List, Row, Space, Typography } from "antd";
import { useList, useOne, type BaseRecord } from "@refinedev/core";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { deviceManualPrint, printJobEntity } from "../../../catalogue/devices";
import { feedback } from "../../../providers/feedback";
import { displayValue } from "../../engine/fields";
import { OperationForm } from "../../engine/OperationForm";
import type { Translate } from "../../engine/fieldKinds";
import type { CustomPageProps } from "..";
import "./receipt.css";

/** the newest jobs listed */
const RECENT = 8;

const jobField = (name: string) => printJobEntity.fields.find((f) => f.name === name)!;

/** A receipt as 58 mm paper shows it: 32 columns of a monospaced font, a Chinese character two. */
function ReceiptPaper({ jobId }: { jobId: number }) {
  const { t } = useTranslation();
  const { result: job, query } = useOne<BaseRecord>({ resource: printJobEntity.name, id: jobId, errorNotification: false });
  if (query.isLoading) return <Card loading />;
  const preview = typeof job?.preview === "string" ? job.preview : "";
  return (
    <div className="receipt-paper" data-testid="receipt-paper" aria-label={t("devices.preview.title")}>
      {preview ? <pre>{preview}</pre> : <Typography.Text type="secondary">{t("devices.preview.empty")}</Typography.Text>}
    </div>
  );
}

export default function ManualPrintPage({ entry }: CustomPageProps) {
  const { t: translate } = useTranslation();
  const t: Translate = (key, options) => translate(key, options);
  const [form] = Form.useForm();
  const [shown, setShown] = useState<number>();
  const { result: printers, query: printersQuery } = useList<BaseRecord>({ resource: "device", pagination: { currentPage: 1, pageSize: 1 }, errorNotification: false });
  const { result: jobs, query: jobsQuery } = useList<BaseRecord>({
    resource: printJobEntity.name,
    pagination: { currentPage: 1, pageSize: RECENT },
    sorters: [{ field: "id", order: "desc" }],
    errorNotification: false,
  });
  const shownJob = shown ?? (jobs.data[0] ? Number(jobs.data[0].id) : undefined);
  const paperRef = useRef<HTMLDivElement>(null);
  const show = (id: number) => {
    setShown(id);
    paperRef.current?.scrollIntoView({ block: "nearest", behavior: "smooth" });
  };

  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} lg={14}>
        <Card title={t(entry.title)}>
          <Typography.Paragraph type="secondary">{t("devices.manual.intro")}</Typography.Paragraph>
          {!printersQuery.isLoading && printers.total === 0 ? <Alert type="warning" showIcon message={t("devices.manual.no_devices")} style={{ marginBottom: 16 }} /> : null}
          <OperationForm
            operation={deviceManualPrint}
            form={form}
            testIds={{ device_id: "mtprint-device", order_no: "mtprint-order" }}
            submitTestId="mtprint-submit"
            onDone={(result: BaseRecord) => {
              feedback().success(t("devices.manual.printed", { device: String(result.device_title ?? "") }));
              form.setFieldValue("order_no", undefined);
              setShown(Number(result.id));
              void jobsQuery.refetch();
            }}
          />
        </Card>
        <Card title={t("devices.manual.recent")} style={{ marginTop: 16 }} loading={jobsQuery.isLoading}>
          <List
            dataSource={jobs.data}
            locale={{ emptyText: <Empty description={t("devices.manual.none")} /> }}
            renderItem={(job) => (
              <List.Item key={String(job.id)} data-testid={`print-job-${job.id}`} className={Number(job.id) === shownJob ? "print-job shown" : "print-job"}>
                <List.Item.Meta
                  title={
                    <Space wrap size={4}>
                      {/* the order's number opens its receipt, brought into view on a phone */}
                      <Button type="link" className="print-job-order" onClick={() => show(Number(job.id))} data-testid={`print-job-show-${job.id}`} aria-label={`${t("devices.preview.title")} ${String(job.order_no)}`}>
                        {String(job.order_no)}
                      </Button>
                      {displayValue(jobField("status"), job.status, t)}
                      {displayValue(jobField("kind"), job.kind, t)}
                    </Space>
                  }
                  description={
                    <Space wrap size={8}>
                      <span>{String(job.device_title ?? job.device_id)}</span>
                      <span>{displayValue(jobField("created_at"), job.created_at, t)}</span>
                      {job.last_error ? <Typography.Text type="danger">{displayValue(jobField("last_error"), job.last_error, t)}</Typography.Text> : null}
                    </Space>
                  }
                />
              </List.Item>
            )}
          />
        </Card>
      </Col>
      <Col xs={24} lg={10} ref={paperRef}>
        <Card title={t("devices.preview.title")}>{shownJob !== undefined ? <ReceiptPaper key={shownJob} jobId={shownJob} /> : <Empty description={t("devices.manual.none")} />}</Card>
      </Col>
    </Row>
  );
}
