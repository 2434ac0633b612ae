CREATE TABLE "receipt_counters" (
	"sch_id" integer NOT NULL,
	"year" integer NOT NULL,
	"last" integer NOT NULL,
	CONSTRAINT "receipt_counters_sch_id_year_pk" PRIMARY KEY("sch_id","year")
);
--> statement-breakpoint
ALTER TABLE "fee_orders" ADD COLUMN "receipt_no" varchar(20);--> statement-breakpoint
CREATE UNIQUE INDEX "fee_orders_sch_id_receipt_no_unique" ON "fee_orders" USING btree ("sch_id","receipt_no");--> statement-breakpoint
-- the orders paid before voucher numbers existed get theirs, in the order of payment per school and year
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
WHERE o.id = u.id;
