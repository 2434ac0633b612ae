/**
 * Activation-code batch (custom page "actcodeadd", operator only): how many codes, for schools or providers,
 * a package or a number of months, the last day of use, optionally bound to one provider or school. Shows
 * the batch number and leads to the code list.
 */
import { Button, Card, DatePicker, Form, Input, InputNumber, Radio, Result, Select, Space } from "antd";
import dayjs, { type Dayjs } from "dayjs";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { weapi } from "../../../providers/weapi";
import { submitOnlyByButton } from "../../lib/forms";
import { DATE_FORMAT } from "../../crud/fields";
import { useMealPackages } from "../../shell/renewal/SchoolRenewal";
import type { CustomPageProps } from ".";
import { MAX_CODES_PER_BATCH, MAX_TERM_MONTHS, REMARK_MAX_LENGTH } from "../../../common/renewalLimits";
import { RemoteSelect } from "./RemoteSelect";


type Target = "school" | "service";
type TermBy = "meal" | "term";

interface BatchForm {
  count: number;
  target: Target;
  term_by: TermBy;
  meal_id?: string;
  term_months?: number;
  expires_on: Dayjs;
  sysid?: string;
  sch_id?: string;
  remark?: string;
}

interface Batch {
  batch_no: string;
  count: number;
}

/** The actcodeadd payload: a package or a term, never both; bindings only when chosen. */
export function batchPayload(values: BatchForm): Record<string, unknown> {
  return {
    count: values.count,
    target: values.target,
    ...(values.term_by === "meal" ? { meal_id: values.meal_id } : { term_months: values.term_months }),
    expires_on: values.expires_on.format(DATE_FORMAT),
    ...(values.sysid ? { sysid: values.sysid } : {}),
    ...(values.target === "school" && values.sysid && values.sch_id ? { sch_id: values.sch_id } : {}),
    ...(values.remark?.trim() ? { remark: values.remark.trim() } : {}),
  };
}

export default function ActcodeAddPage({ group, entry }: CustomPageProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form] = Form.useForm<BatchForm>();
  const meals = useMealPackages();
  const [saving, setSaving] = useState(false);
  const [batch, setBatch] = useState<Batch | null>(null);
  const target = Form.useWatch("target", form);
  const termBy = Form.useWatch("term_by", form);
  const sysid = Form.useWatch("sysid", form);
  const listPath = `/${group.path}/${entry.activeMenu ?? "actcodelist"}`;

  const submit = async (values: BatchForm) => {
    setSaving(true);
    try {
      const res = await weapi<{ items?: Batch }>("adminapiv2", "actcodeadd", batchPayload(values));
      if (res.return_code === "SUCCESS" && res.data?.items) setBatch(res.data.items);
    } catch {
      // the client showed the error
    } finally {
      setSaving(false);
    }
  };

  if (batch) {
    return (
      <Card>
        <Result
          status="success"
          title={t("renewal.batch_created")}
          subTitle={
            <span data-testid="actcode-batch">
              {t("renewal.batch_summary", { batch: batch.batch_no, count: batch.count })}
            </span>
          }
          extra={[
            <Button type="primary" key="list" data-testid="actcode-to-list" onClick={() => navigate(listPath)}>
              {t("renewal.to_code_list")}
            </Button>,
            <Button
              key="again"
              onClick={() => {
                setBatch(null);
                form.resetFields();
              }}
            >
              {t("renewal.another_batch")}
            </Button>,
          ]}
        />
      </Card>
    );
  }

  return (
    <Card title={t(entry.title)}>
      <Form<BatchForm>
        form={form}
        layout="horizontal"
        labelCol={{ flex: "160px" }}
        style={{ maxWidth: 640 }}
        initialValues={{ target: "school", term_by: "meal", count: 10 }}
        onFinish={(values) => void submit(values)}
        onKeyDown={submitOnlyByButton}
      >
        <Form.Item name="count" label={t("renewal.code_count")} rules={[{ required: true, message: t("renewal.code_count_required", { max: MAX_CODES_PER_BATCH }) }]}>
          <InputNumber min={1} max={MAX_CODES_PER_BATCH} precision={0} style={{ width: "100%" }} data-testid="actcode-count" />
        </Form.Item>
        <Form.Item name="target" label={t("renewal.code_target")} rules={[{ required: true }]}>
          <Radio.Group
            optionType="button"
            options={[
              { value: "school", label: t("renewal.target_school") },
              { value: "service", label: t("renewal.target_service") },
            ]}
          />
        </Form.Item>
        <Form.Item name="term_by" label={t("renewal.term_by")}>
          <Radio.Group
            optionType="button"
            options={[
              { value: "meal", label: t("renewal.term_by_meal") },
              { value: "term", label: t("renewal.term_by_months") },
            ]}
          />
        </Form.Item>
        {termBy === "term" ? (
          <Form.Item name="term_months" label={t("renewal.term_months")} rules={[{ required: true, message: t("renewal.term_months_required", { max: MAX_TERM_MONTHS }) }]}>
            <InputNumber min={1} max={MAX_TERM_MONTHS} precision={0} style={{ width: "100%" }} data-testid="actcode-term" />
          </Form.Item>
        ) : (
          <Form.Item name="meal_id" label={t("renewal.package")} rules={[{ required: true, message: t("renewal.package_required") }]}>
            <Select
              data-testid="actcode-meal"
              loading={!meals}
              placeholder={t("renewal.package_required")}
              options={(meals ?? []).map((m) => ({ value: String(m.id), label: `${m.title} (${t("renewal.months", { count: m.term_months })})` }))}
            />
          </Form.Item>
        )}
        <Form.Item name="expires_on" label={t("renewal.expires_on")} rules={[{ required: true, message: t("renewal.expires_on_required") }]}>
          <DatePicker format={DATE_FORMAT} style={{ width: "100%" }} disabledDate={(day) => !day.isAfter(dayjs(), "day")} data-testid="actcode-expires" />
        </Form.Item>
        <Form.Item name="sysid" label={t("renewal.bound_provider")} extra={t("renewal.bound_provider_hint")}>
          <RemoteSelect operation="servicelist" placeholder={t("renewal.any_provider")} onChange={() => form.setFieldsValue({ sch_id: undefined })} />
        </Form.Item>
        {target === "school" && sysid && (
          <Form.Item name="sch_id" label={t("renewal.bound_school")}>
            <RemoteSelect operation="schoollist" payload={{ sysid }} placeholder={t("renewal.any_school")} />
          </Form.Item>
        )}
        <Form.Item name="remark" label={t("renewal.remark")}>
          <Input.TextArea rows={2} maxLength={REMARK_MAX_LENGTH} showCount />
        </Form.Item>
        <Form.Item label=" " colon={false}>
          <Space>
            <Button type="primary" htmlType="submit" loading={saving} data-testid="actcode-submit">
              {t("renewal.generate")}
            </Button>
            <Button onClick={() => navigate(listPath)}>{t("crud.back")}</Button>
          </Space>
        </Form.Item>
      </Form>
    </Card>
  );
}
