/**
 * Activation-code batch (custom page "actcodeadd", operator only): how many codes, for schools or providers,
 * a package or a number of months, the last day of use, optionally bound to one provider or school. Shows
 * the batch number and leads to the code list.
 */
import { Button, Card, DatePicker, Form, Radio, Result, Select } from "antd";
import type { Dayjs } from "dayjs";
import { businessDay } from "../../../common/term";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { actcodeAddOperation } from "../../../resources.config";
import { DATE_FORMAT, fieldOptions } from "../../engine/fields";
import { OperationForm, operationPayload } from "../../engine/OperationForm";
import { useMealPackages } from "../../shell/renewal/SchoolRenewal";
import type { CustomPageProps } from "..";
import { RemoteSelect } from "../../engine/RemoteSelect";

type TermBy = "meal" | "term";

/** The form's values: the declared fields, and how the term is given (a package or months), which is not sent. */
interface BatchForm {
  count: number;
  target: string;
  term_by: TermBy;
  meal_id?: string;
  term_months?: number;
  expires_on: Dayjs | string;
  sysid?: string;
  sch_id?: string;
  remark?: string;
}

interface Batch {
  batch_no: string;
  count: number;
}

/** Fields that do not apply: the other way of giving the term; a school binding without a provider or for providers. */
function hiddenFields(values: Partial<BatchForm>): string[] {
  const hidden = [values.term_by === "term" ? "meal_id" : "term_months"];
  if (values.target !== "school" || !values.sysid) hidden.push("sch_id");
  return hidden;
}

/** The actcodeadd payload: a package or a term, never both; bindings only when chosen. */
export function batchPayload(values: BatchForm): Record<string, unknown> {
  const expires = typeof values.expires_on === "string" ? values.expires_on : values.expires_on.format(DATE_FORMAT);
  return operationPayload(actcodeAddOperation, { ...values, expires_on: expires }, hiddenFields(values));
}

const field = (name: string) => actcodeAddOperation.fields.find((f) => f.name === name)!;

export default function ActcodeAddPage({ group, entry }: CustomPageProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form] = Form.useForm<BatchForm>();
  const meals = useMealPackages();
  const [batch, setBatch] = useState<Batch | null>(null);
  const target = Form.useWatch("target", form);
  const termBy = Form.useWatch("term_by", form);
  const sysid = Form.useWatch("sysid", form);
  const listPath = `/${group.path}/${entry.activeMenu ?? "actcodelist"}`;

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
      <OperationForm<Batch>
        operation={actcodeAddOperation}
        form={form}
        initialValues={{ target: "school", term_by: "meal", count: 10 }}
        hidden={hiddenFields({ target, term_by: termBy, sysid })}
        testIds={{ count: "actcode-count", term_months: "actcode-term" }}
        submitTestId="actcode-submit"
        onDone={setBatch}
        before={{
          meal_id: (
            <Form.Item name="term_by" label={t("renewal.term_by")}>
              <Radio.Group
                optionType="button"
                options={[
                  { value: "meal", label: t("renewal.term_by_meal") },
                  { value: "term", label: t("renewal.term_by_months") },
                ]}
              />
            </Form.Item>
          ),
        }}
        controls={{
          target: <Radio.Group optionType="button" options={fieldOptions(field("target"), t)} />,
          meal_id: (
            <Select
              data-testid="actcode-meal"
              loading={!meals}
              placeholder={t("renewal.package_required")}
              options={(meals ?? []).map((m) => ({ value: String(m.id), label: `${m.title} (${t("renewal.months", { count: m.term_months })})` }))}
            />
          ),
          // codes usable at least until tomorrow
          expires_on: <DatePicker format={DATE_FORMAT} style={{ width: "100%" }} disabledDate={(day) => day.format(DATE_FORMAT) <= businessDay(new Date())} data-testid="actcode-expires" />,
          sysid: <RemoteSelect operation="servicelist" placeholder={t("renewal.any_provider")} onChange={() => form.setFieldsValue({ sch_id: undefined })} />,
          sch_id: <RemoteSelect operation="schoollist" payload={{ sysid }} placeholder={t("renewal.any_school")} />,
        }}
        itemProps={{ sysid: { extra: t("renewal.bound_provider_hint") } }}
        actions={<Button onClick={() => navigate(listPath)}>{t("crud.back")}</Button>}
      />
    </Card>
  );
}
