/**
 * Goods statistics (spec 2.3 /datacount goods_statisv2, servicev2): the school shop's sales by school, goods item,
 * SKU, day or month. A row's orders, quantity sold, amount, amount refunded and net, over the shop orders paid in the
 * period (by their payment time), refunded since or not; a school opens its goods, a goods item its SKUs. The
 * figures come from the orders' items (server/domains/reports/goods.ts), so they equal what the shop order list sums.
 */
import type { CatalogueDomain, FieldDecl, ReportDecl } from "../common/catalogue";
import { GOODS_MANAGERS } from "./goods";
import { byDay, byMonth, bySchool, schoolFilter } from "./statistics";

/** the period: when the orders were paid (their refunds go with them, whenever they were made) */
export const PAID_PERIOD = "paid_at";

const byGoods: FieldDecl = { name: "goods_id", type: "ref", ref: { entity: "goods" }, label: "reports.dimension.goods" };
// each row is titled "goods item (spec value · spec value)"
const bySku: FieldDecl = { name: "sku_id", type: "ref", ref: { entity: "goodssku" }, label: "reports.dimension.sku" };

/** a top category takes in the categories within it */
export const CATEGORY_FILTER = "cate_id";

export const goodsReport: ReportDecl = {
  name: "goodsstatis",
  exportOperation: "goodsstatisexport",
  scope: "school",
  title: "reports.title.goodsstatis",
  note: "reports.note.goods_sales",
  roles: GOODS_MANAGERS,
  filters: [
    { name: PAID_PERIOD, type: "datetime", label: "reports.filter.paid_period", filter: "range" },
    schoolFilter,
    { name: CATEGORY_FILTER, type: "ref", ref: { entity: "goodscate" }, label: "retail.entity.goodscate", filter: "eq" },
    { name: "goods_id", type: "ref", ref: { entity: "goods" }, label: "retail.entity.goods", filter: "eq" },
  ],
  period: PAID_PERIOD,
  dimension: bySchool,
  dimensions: [bySchool, byGoods, bySku, byDay, byMonth],
  drill: { sch_id: { dimension: "goods_id" }, goods_id: { dimension: "sku_id" } },
  pageSize: 31,
  measures: [
    { name: "orders", label: "reports.measure.shop_orders", type: "int" },
    { name: "qty", label: "reports.measure.qty", type: "int" },
    { name: "amount", label: "reports.measure.sales_amount", type: "money" },
    { name: "refund_amount", label: "reports.measure.refund_amount", type: "money" },
    { name: "net_amount", label: "reports.measure.net_amount", type: "money" },
  ],
  chartMeasures: ["amount", "refund_amount"],
  chart: "bar",
};

export const goodsStatistics: CatalogueDomain = {
  entities: [],
  reports: [goodsReport],
  pages: {
    goods_statisv2: { kind: "report", report: goodsReport.name },
  },
};
