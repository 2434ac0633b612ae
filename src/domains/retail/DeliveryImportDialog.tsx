/**
 * Importing tracking numbers (server/domains/retail/deliveryImport.ts) of the kind of orders the log page shows: shop
 * orders (orderdeliveryimport) or fee orders whose items are goods (zdorderdeliveryimport). Each row of the file
 * delivers its order through the order's deliver action (the engine's RowImportDialog: template, preview, import,
 * result file). The orders and the import log refresh after.
 */
import { Typography } from "antd";
import { useTranslation } from "@refinedev/core";
import { expressNameKey } from "../../../common/expressCompanies";
import { RowImportDialog, type ImportedRow } from "../../engine/RowImportDialog";
import type { ListToolProps } from "..";

/** Each kind's operations and the list its rows change. */
const KINDS: Record<string, { operation: string; template: string; orders: string }> = {
  shop_order: { operation: "orderdeliveryimport", template: "orderdeliverytemplate", orders: "shoporder" },
  fee_order: { operation: "zdorderdeliveryimport", template: "zdorderdeliverytemplate", orders: "order" },
};

interface DeliveryRow extends ImportedRow {
  order_no: string;
  express_code: string;
  tracking_no: string;
  remark: string;
}

export default function DeliveryImportDialog({ onClose, filters }: ListToolProps) {
  const { translate } = useTranslation();
  const kind = KINDS[filters?.kind ?? "shop_order"] ?? KINDS.shop_order;
  // a code of our table by its name; what the file gave otherwise (an unknown company)
  const company = (code: string) => {
    const name = translate(expressNameKey(code));
    return name === expressNameKey(code) ? code : name;
  };
  return (
    <RowImportDialog<DeliveryRow>
      onClose={onClose}
      path="adminapiv2"
      operation={kind.operation}
      templateOperation={kind.template}
      messages="retail.delivery_import"
      pending="deliver"
      done="delivered"
      refresh={["deliveryimport", kind.orders]}
      testId="delivery-import"
      width={860}
      columns={[
        { key: "order_no", dataIndex: "order_no", title: translate("collection.field.order_no"), render: (v: string) => <Typography.Text copyable={Boolean(v)}>{v}</Typography.Text> },
        { key: "express", dataIndex: "express_code", title: translate("retail.field.express_company"), render: company },
        { key: "tracking_no", dataIndex: "tracking_no", title: translate("retail.field.tracking_no") },
      ]}
    />
  );
}
