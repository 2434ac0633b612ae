/**
 * What a refund request's review decides on (refundreview's `context`): the order it would refund, what that order
 * paid and has had refunded already (read with the dialog), the amount asked, why and who asked when. One column,
 * so that it reads the same on a phone.
 */
import { Alert, Descriptions } from "antd";
import { useOne, useTranslation, type BaseRecord } from "@refinedev/core";
import type { EntityDecl } from "../../../common/catalogue";
import { orderEntity } from "../../../catalogue/collectionOrders";
import { refundEntity } from "../../../catalogue/collectionRefunds";
import { displayValue, type Translate } from "../../engine/fields";
import type { ActionContextProps } from "..";

function fieldOf(entity: EntityDecl, name: string) {
  const field = entity.fields.find((f) => f.name === name);
  if (!field) throw new Error(`${entity.name} has no field ${name}`);
  return field;
}

export default function RefundReviewContext({ record }: ActionContextProps) {
  const { translate } = useTranslation();
  const t: Translate = (key, options) => translate(key, options);
  const { result: order, query } = useOne<BaseRecord>({ resource: orderEntity.name, id: String(record.order_id), errorNotification: false });
  const refund = (name: string) => displayValue(fieldOf(refundEntity, name), record[name], t, record);
  const ofOrder = (name: string) => (order ? displayValue(fieldOf(orderEntity, name), order[name], t, order) : query.isLoading ? "…" : "-");
  return (
    <div data-testid="refund-review-context" style={{ marginBottom: 16 }}>
      <Descriptions
        bordered
        size="small"
        column={1}
        styles={{ label: { width: "42%" } }}
        items={[
          { key: "order", label: t("refunds.field.order"), children: <span data-testid="refund-review-order">{refund("order_id")}</span> },
          { key: "student", label: t("collection.field.student"), children: refund("student_id") },
          { key: "paid", label: t("refunds.review_context.order_paid"), children: <span data-testid="refund-review-paid">{ofOrder("amount")}</span> },
          { key: "refunded", label: t("refunds.review_context.order_refunded"), children: <span data-testid="refund-review-refunded">{ofOrder("refunded_amount")}</span> },
          { key: "asked", label: t("refunds.review_context.asked"), children: <strong data-testid="refund-review-asked">{refund("amount")}</strong> },
          { key: "reason", label: t("refunds.field.reason"), children: <span data-testid="refund-review-reason">{refund("reason")}</span> },
          {
            key: "by",
            label: t("refunds.field.applied_by"),
            children: (
              <span data-testid="refund-review-by">
                {refund("applied_by")} · {refund("created_at")}
              </span>
            ),
          },
        ]}
      />
      {query.isError && <Alert type="warning" showIcon style={{ marginTop: 8 }} message={t("refunds.review_context.order_unavailable")} />}
    </div>
  );
}
