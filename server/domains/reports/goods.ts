/**
 * The figures of the goods statistics (catalogue/goodsStatistics.ts): the school shop's sales from the items of the
 * shop orders paid in the period (paid_at set: an order refunded in full and so cancelled was sold and refunded),
 * by school, goods item, SKU, day or month of payment. One statement per view: the items of the orders paid,
 * grouped by the dimension with a grand total (grouping sets), and the rows' titles joined to them.
 *
 * An after-sale's refund is of one item (`aftersale_id`): it is that item's, whole. The order's other refunds name
 * the order only, so what they gave back (R: the order's refunded amount less its after-sales' refunds) is split
 * over its items in proportion to what each still held (its amount less its after-sales' refunds), cumulatively in
 * the items' order: an item gets floor(R x what the items up to and including it held / what they all held) less
 * floor(R x what the items before it held / the same). Each item then gets its share rounded down but for what the
 * rounding left, which falls on the later items (all of it on the last of two), never below zero nor above what it
 * held, and the items' refunds add up to the order's to the fen, whatever the filters keep.
 */
import { sql, type SQL } from "drizzle-orm";
import { refTitleKey } from "../../../common/fieldRules";
import { CATEGORY_FILTER, goodsReport, PAID_PERIOD } from "../../../catalogue/goodsStatistics";
import { queryRows } from "../../db/client";
import { aftersales, goods, goodsCategories, goodsSkus, refunds, schools, shopOrderItems, shopOrders } from "../../db/schema";
import type { ReportRow, ReportSource, ReportSources } from "../../engine/reports";
import { columnOf } from "./students";

/** the conditions on the order: the tenant, its school and when it was paid */
const orderColumns = columnOf({ sysid: shopOrders.sysid, sch_id: shopOrders.sch_id, [PAID_PERIOD]: shopOrders.paid_at }, "shop_orders");
const ORDER_FILTERS = [PAID_PERIOD, "sch_id"];
const ITEM_FILTERS = ["goods_id", CATEGORY_FILTER];
/** the conditions on the item: its goods item and the goods item's category */
const itemColumns = columnOf({ sysid: shopOrders.sysid, sch_id: shopOrders.sch_id, goods_id: shopOrderItems.goods_id, [CATEGORY_FILTER]: goods.cate_id }, "shop_order_items");

/** China's time has no summer shift: its business day is the UTC day of the time eight hours on. */
const paidDay = sql`(date '1970-01-01' + floor((extract(epoch from ${shopOrders.paid_at}) + 28800) / 86400)::int)`;

/** What each dimension groups the items by. */
const KEYS: Record<string, SQL> = {
  sch_id: sql`${shopOrders.sch_id}`,
  goods_id: sql`${shopOrderItems.goods_id}`,
  sku_id: sql`${shopOrderItems.sku_id}`,
  day: sql`${paidDay}::text`,
  month: sql`to_char(${paidDay}, 'YYYY-MM')`,
};

/** Each row's title, joined to the figures (`f.key`), and what the rows join for it. */
const TITLES: Record<string, { title: SQL; join: SQL }> = {
  sch_id: { title: sql`${schools.title}`, join: sql`left join ${schools} on ${schools.id} = f.key` },
  goods_id: { title: sql`${goods.title}`, join: sql`left join ${goods} on ${goods.id} = f.key` },
  // "夏季校服短袖套装 (尺码 130 · 颜色 藏青)": the spec values in the order of the goods item's spec names
  sku_id: {
    title: sql`${goods.title} || ' (' || coalesce((select string_agg(u.name || ' ' || coalesce(${goodsSkus.spec_values} ->> u.name, ''), ' · ' order by u.n) from unnest(${goods.spec_names}) with ordinality as u(name, n)), '') || ')'`,
    join: sql`left join ${goodsSkus} on ${goodsSkus.id} = f.key left join ${goods} on ${goods.id} = ${goodsSkus.goods_id}`,
  },
};

/** What each item's after-sales got back (their refunds done), as `own (item_id, amount)`: few rows, hashed once. */
const ITEM_REFUNDS = sql`(select ${aftersales.item_id} as item_id, sum(${refunds.amount})::numeric as amount
                           from ${refunds} join ${aftersales} on ${aftersales.id} = ${refunds.aftersale_id}
                          where ${refunds.aftersale_id} is not null and ${refunds.status} = 'success'
                          group by ${aftersales.item_id}) own`;

/** A top category takes in the goods of the categories within it. */
const inCategory = (value: unknown): SQL =>
  sql`${shopOrderItems.goods_id} in (select ${goods.id} from ${goods} join ${goodsCategories} on ${goodsCategories.id} = ${goods.cate_id} where ${goodsCategories.id} = ${value} or ${goodsCategories.parent_id} = ${value})`;

interface FigureRow extends Record<string, unknown> {
  key: unknown;
  is_total: unknown;
  title: unknown;
  orders: unknown;
  qty: unknown;
  amount: unknown;
  refund_amount: unknown;
}

const num = (value: unknown) => Number(value ?? 0) || 0;

function figuresOf(row: FigureRow): ReportRow {
  const amount = num(row.amount);
  const refunded = num(row.refund_amount);
  return { orders: num(row.orders), qty: num(row.qty), amount, refund_amount: refunded, net_amount: amount - refunded };
}

const goodsSource: ReportSource = {
  conditions: { [CATEGORY_FILTER]: inCategory },
  async rows(db, query) {
    const dimension = query.dimension.name;
    const key = KEYS[dimension];
    if (!key) throw new Error(`goods statistics have no key for the dimension ${dimension}`);
    const titled = TITLES[dimension];
    const orderWhere = query.where(orderColumns, ITEM_FILTERS);
    // an item's goods filters apply after its order's items are all counted for the refund's split
    const itemWhere = query.where(itemColumns, ORDER_FILTERS);
    const rows = await queryRows<FigureRow>(
      db,
      sql`with items as (
            select ${shopOrderItems.order_id} as order_id, ${shopOrderItems.sort} as sort, ${shopOrderItems.id} as id, ${shopOrderItems.qty} as qty,
                   ${shopOrderItems.amount} as amount, ${key} as key, coalesce(${itemWhere ?? sql`true`}, false) as chosen,
                   ${shopOrders.refunded_amount}::numeric as refunded, coalesce(own.amount, 0) as own
              from ${shopOrderItems} join ${shopOrders} on ${shopOrders.id} = ${shopOrderItems.order_id}
              left join ${ITEM_REFUNDS} on own.item_id = ${shopOrderItems.id}
             where ${shopOrders.paid_at} is not null ${orderWhere ? sql`and ${orderWhere}` : sql``}
          ), lines as (
            select order_id, qty, amount, key, chosen, own, amount - own as held,
                   refunded - sum(own) over (partition by order_id) as shared,
                   sum(amount - own) over (partition by order_id order by sort, id) as upto,
                   sum(amount - own) over (partition by order_id) as whole
              from items
          ), f as (
            select key, grouping(key) as is_total, count(distinct order_id) as orders, coalesce(sum(qty), 0) as qty, coalesce(sum(amount), 0) as amount,
                   coalesce(sum(own + case when whole > 0 then div(shared * upto, whole) - div(shared * (upto - held), whole) else 0 end), 0) as refund_amount
              from lines where chosen
             group by grouping sets ((key), ())
          )
          select f.key, f.is_total, f.orders, f.qty, f.amount, f.refund_amount, ${titled ? titled.title : sql`null`} as title
            from f ${titled ? titled.join : sql``}
           order by f.is_total, ${titled ? sql`f.amount desc, f.key` : sql`f.key`}`,
    );
    const titleKey = refTitleKey(dimension);
    let totals: ReportRow = figuresOf({ key: null, is_total: 1, title: null, orders: 0, qty: 0, amount: 0, refund_amount: 0 });
    const out: ReportRow[] = [];
    for (const row of rows) {
      if (num(row.is_total) === 1) totals = figuresOf(row);
      else if (titled) out.push({ [dimension]: num(row.key), [titleKey]: String(row.title ?? row.key), ...figuresOf(row) });
      else out.push({ [dimension]: String(row.key), ...figuresOf(row) });
    }
    return Object.assign(out, { totals });
  },
};

export const goodsReportSources: ReportSources = { [goodsReport.name]: goodsSource };
