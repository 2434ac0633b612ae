/**
 * Payment voucher numbers (fee_orders.receipt_no): numbered per school and calendar year of the payment
 * (Asia/Shanghai), `YYYY` and a sequence of at least six digits (2026000001), given when an order is paid and never
 * changed. The last number of each school and year is a row of receipt_counters, taken in the paying transaction:
 * concurrent payments of one school follow each other on that row, a payment rolled back gives its number back, and
 * a restart continues from the row, so the numbers issued are consecutive and none is given twice.
 */
import { sql } from "drizzle-orm";
import { businessDay } from "../../../common/term";
import { queryRows, type DbOrTx } from "../../db/client";

export function receiptYear(paidAt: Date): number {
  return Number(businessDay(paidAt).slice(0, 4));
}

export function formatReceiptNo(year: number, sequence: number): string {
  return `${year}${String(sequence).padStart(6, "0")}`;
}

/**
 * The next voucher number of a school for a payment at `paidAt`. The counter row stays locked until the
 * transaction ends, so call it last among the payment's locks (after the bills), keeping the lock short.
 */
export async function nextReceiptNo(tx: DbOrTx, schId: number, paidAt: Date): Promise<string> {
  const year = receiptYear(paidAt);
  const [row] = await queryRows<{ last: number }>(
    tx,
    sql`INSERT INTO receipt_counters (sch_id, year, last) VALUES (${schId}, ${year}, 1)
        ON CONFLICT (sch_id, year) DO UPDATE SET last = receipt_counters.last + 1
        RETURNING last`,
  );
  return formatReceiptNo(year, Number(row.last));
}

/**
 * Numbers every paid order still without a voucher number in one statement, in the order of payment within each
 * school and year, after the numbers already issued, and moves the counters on: for orders written in bulk (the
 * demo's and the bench's seeds; migration 0019 did the same to the orders paid before numbers existed).
 */
export const NUMBER_PAID_ORDERS_SQL = `
WITH unnumbered AS (
  SELECT id, sch_id, extract(year FROM paid_at AT TIME ZONE 'Asia/Shanghai')::int AS year,
         row_number() OVER (PARTITION BY sch_id, extract(year FROM paid_at AT TIME ZONE 'Asia/Shanghai') ORDER BY paid_at, id) AS n
  FROM fee_orders
  WHERE receipt_no IS NULL AND paid_at IS NOT NULL AND status IN ('paid', 'part_refunded', 'refunded')
), issued AS (
  INSERT INTO receipt_counters (sch_id, year, last)
  SELECT sch_id, year, count(*) FROM unnumbered GROUP BY sch_id, year
  ON CONFLICT (sch_id, year) DO UPDATE SET last = receipt_counters.last + excluded.last
  RETURNING sch_id, year, last
), counted AS (
  SELECT sch_id, year, count(*) AS numbered FROM unnumbered GROUP BY sch_id, year
)
UPDATE fee_orders o
SET receipt_no = u.year::text || lpad((i.last - c.numbered + u.n)::text, greatest(6, length((i.last - c.numbered + u.n)::text)), '0')
FROM unnumbered u
JOIN issued i ON i.sch_id = u.sch_id AND i.year = u.year
JOIN counted c ON c.sch_id = u.sch_id AND c.year = u.year
WHERE o.id = u.id`;

export async function numberPaidOrders(db: DbOrTx): Promise<void> {
  await db.execute(sql.raw(NUMBER_PAID_ORDERS_SQL));
}
