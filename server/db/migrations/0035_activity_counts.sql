ALTER TABLE "fee_orders" ADD COLUMN "activity_count" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "fee_payments" ADD COLUMN "activity_count" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE INDEX "fee_orders_activity_count_sch_id_sysid_id_idx" ON "fee_orders" USING btree ("activity_count","sch_id","sysid","id");--> statement-breakpoint
CREATE INDEX "fee_payments_activity_count_sch_id_sysid_id_idx" ON "fee_payments" USING btree ("activity_count","sch_id","sysid","id");
--> statement-breakpoint
-- An order paying bills of several activities names its first line's activity and counts them all, as its payment
-- does; before, it named none.
UPDATE "fee_orders" o SET "activity_id" = c."first", "activity_count" = c."n"
  FROM (SELECT l."order_id", count(DISTINCT b."activity_id")::int AS "n", (array_agg(b."activity_id" ORDER BY l."sort", l."id"))[1] AS "first"
          FROM "fee_order_lines" l JOIN "bills" b ON b."id" = l."bill_id" JOIN "fee_orders" f ON f."id" = l."order_id"
         WHERE f."activity_id" IS NULL
         GROUP BY l."order_id") c
 WHERE o."id" = c."order_id";
--> statement-breakpoint
UPDATE "fee_payments" p SET "activity_id" = o."activity_id", "activity_count" = o."activity_count"
  FROM "fee_orders" o
 WHERE o."id" = p."order_id" AND p."activity_id" IS NULL;
--> statement-breakpoint
-- the ledger of migration 0033, telling an order of several activities by its count
CREATE OR REPLACE VIEW "fee_ledger" AS
SELECT p."sysid", p."sch_id", p."student_id", p."class_id", c."grade_id", p."activity_id", p."paychnl_id",
       p."paid_at" AS "at", 1 AS "orders", p."amount" AS "paid", 0::bigint AS "refunded"
  FROM "fee_payments" p LEFT JOIN "classes" c ON c."id" = p."class_id"
 WHERE p."activity_count" = 1
UNION ALL
SELECT p."sysid", p."sch_id", p."student_id", p."class_id", c."grade_id", s."activity_id", p."paychnl_id",
       p."paid_at" AS "at", s."orders", s."paid", 0::bigint AS "refunded"
  FROM "fee_payments" p
  JOIN LATERAL (
        SELECT b."activity_id", sum(l."amount")::bigint AS "paid",
               CASE WHEN row_number() OVER (ORDER BY min(l."sort"), min(l."id")) = 1 THEN 1 ELSE 0 END AS "orders"
          FROM "fee_order_lines" l JOIN "bills" b ON b."id" = l."bill_id"
         WHERE l."order_id" = p."order_id"
         GROUP BY b."activity_id") s ON true
  LEFT JOIN "classes" c ON c."id" = p."class_id"
 WHERE p."activity_count" > 1
UNION ALL
SELECT r."sysid", r."sch_id", r."student_id", p."class_id", c."grade_id", p."activity_id", p."paychnl_id",
       r."success_time" AS "at", 0 AS "orders", 0::bigint AS "paid", r."amount" AS "refunded"
  FROM "fee_refunds" r JOIN "fee_payments" p ON p."order_id" = r."order_id" LEFT JOIN "classes" c ON c."id" = p."class_id"
 WHERE r."status" = 'success' AND p."activity_count" = 1
UNION ALL
SELECT r."sysid", r."sch_id", r."student_id", p."class_id", c."grade_id", s."activity_id", p."paychnl_id",
       r."success_time" AS "at", 0 AS "orders", 0::bigint AS "paid", s."amount" AS "refunded"
  FROM "fee_refunds" r JOIN "fee_refund_shares" s ON s."refund_id" = r."id"
  JOIN "fee_payments" p ON p."order_id" = r."order_id" LEFT JOIN "classes" c ON c."id" = p."class_id"
 WHERE r."status" = 'success' AND p."activity_count" > 1;
