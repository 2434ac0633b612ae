/**
 * Importing tracking numbers (orderdeliveryimport, server/domains/retail/deliveryImport.ts): each row of the file
 * delivers its order through the order's deliver action (the engine's RowImportDialog: template, preview, import,
 * result file). The orders and the import log refresh after.
 */
import { Typography } from "antd";
import { useTranslation } from "@refinedev/core";
import { expressNameKey } from "../../../common/expressCompanies";
import { RowImportDialog, type ImportedRow } from "../../engine/RowImportDialog";

interface DeliveryRow extends ImportedRow {
  order_no: string;
  express_code: string;
  tracking_no: string;
  remark: string;
}

export default function DeliveryImportDialog({ onClose }: { onClose: () => void }) {
  const { translate } = useTranslation();
  // a code of our table by its name; what the file gave otherwise (an unknown company)
  const company = (code: string) => {
    const name = translate(expressNameKey(code));
    return name === expressNameKey(code) ? code : name;
  };
  return (
    <RowImportDialog<DeliveryRow>
      onClose={onClose}
      path="adminapiv2"
      operation="orderdeliveryimport"
      templateOperation="orderdeliverytemplate"
      messages="retail.delivery_import"
      pending="deliver"
      done="delivered"
      refresh={["deliveryimport", "shoporder"]}
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
