/**
 * Fulfilment of the orders that carry goods: tracking numbers imported from a spreadsheet (orderdeliveryimportlog
 * for shop orders), each row sent through the order's deliver action (server/domains/retail/deliveryImport.ts), and
 * the log of every import with its counts and the rows that failed. Labels in locales/<lang>/retail.json.
 */
import type { CatalogueDomain, EntityDecl, FieldOption } from "../common/catalogue";
import { GOODS_MANAGERS } from "./goods";

/** the kinds of orders whose deliveries are imported */
export const deliveryImportKinds: FieldOption[] = [{ value: "shop_order", label: "retail.entity.shoporder" }];

/** One import of tracking numbers: who sent which file, when, and how its rows went. */
export const deliveryImportEntity: EntityDecl = {
  name: "deliveryimport",
  table: "delivery_imports",
  scope: "provider",
  title: "retail.entity.deliveryimport",
  titleField: "filename",
  defaultSort: { field: "id", order: "desc" },
  roles: { list: GOODS_MANAGERS, info: GOODS_MANAGERS },
  // the import itself, beside its log
  listTools: ["deliveryimport"],
  fields: [
    { name: "id", type: "int", label: "field.id", sortable: true, detail: true },
    { name: "kind", type: "enum", label: "retail.field.import_kind", required: true, options: deliveryImportKinds, filter: "eq", detail: true },
    { name: "filename", type: "string", label: "import.field.filename", required: true, max: 255, list: true, detail: true },
    { name: "username", type: "string", label: "import.field.username", required: true, max: 50, list: true, detail: true },
    { name: "created_at", type: "datetime", label: "import.field.created_at", list: true, filter: "range", sortable: true, detail: true },
    { name: "total", type: "int", label: "import.field.total", required: true, default: 0, list: true, detail: true },
    { name: "delivered", type: "int", label: "retail.field.import_delivered", required: true, default: 0, list: true, detail: true },
    { name: "unchanged", type: "int", label: "retail.field.import_unchanged", required: true, default: 0, list: true, detail: true },
    { name: "failed", type: "int", label: "retail.field.import_failed", required: true, default: 0, list: true, detail: true },
    // the rows that failed as JSON [{row, order_no, message}] (at most the answer's cap), in the importer's language
    { name: "errors", type: "text", label: "import.field.errors", detail: true },
  ],
};

export const fulfilment: CatalogueDomain = {
  entities: [deliveryImportEntity],
  pages: {
    orderdeliveryimportlog: { kind: "list", entity: "deliveryimport", filters: { kind: "shop_order" } },
  },
};
