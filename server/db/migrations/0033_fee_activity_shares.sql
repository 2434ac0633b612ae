CREATE TABLE "fee_refund_shares" (
	"refund_id" integer NOT NULL,
	"activity_id" integer NOT NULL,
	"amount" bigint NOT NULL,
	CONSTRAINT "fee_refund_shares_refund_id_activity_id_pk" PRIMARY KEY("refund_id","activity_id")
);
--> statement-breakpoint
-- A payment of bills of several activities (its order names no activity) is put in each activity by the lines of
-- that activity's bills, the order counted once, in its first line's activity; its refunds by their shares. An order
-- of one activity keeps the payment's own row, as before.
CREATE OR REPLACE VIEW "fee_ledger" AS
SELECT p."sysid", p."sch_id", p."student_id", p."class_id", c."grade_id", p."activity_id", p."paychnl_id",
       p."paid_at" AS "at", 1 AS "orders", p."amount" AS "paid", 0::bigint AS "refunded"
  FROM "fee_payments" p LEFT JOIN "classes" c ON c."id" = p."class_id"
 WHERE p."activity_id" IS NOT NULL
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
 WHERE p."activity_id" IS NULL
UNION ALL
SELECT r."sysid", r."sch_id", r."student_id", p."class_id", c."grade_id", p."activity_id", p."paychnl_id",
       r."success_time" AS "at", 0 AS "orders", 0::bigint AS "paid", r."amount" AS "refunded"
  FROM "fee_refunds" r JOIN "fee_payments" p ON p."order_id" = r."order_id" LEFT JOIN "classes" c ON c."id" = p."class_id"
 WHERE r."status" = 'success' AND p."activity_id" IS NOT NULL
UNION ALL
SELECT r."sysid", r."sch_id", r."student_id", p."class_id", c."grade_id", s."activity_id", p."paychnl_id",
       r."success_time" AS "at", 0 AS "orders", 0::bigint AS "paid", s."amount" AS "refunded"
  FROM "fee_refunds" r JOIN "fee_refund_shares" s ON s."refund_id" = r."id"
  JOIN "fee_payments" p ON p."order_id" = r."order_id" LEFT JOIN "classes" c ON c."id" = p."class_id"
 WHERE r."status" = 'success' AND p."activity_id" IS NULL;
--> statement-breakpoint
-- the shares of the refunds done before: the lines a refund gave back on, as it gave back (refunds in the order they
-- were done, each over the lines in turn: a duplicate's unsettled lines, then by their position)
INSERT INTO "fee_refund_shares" ("refund_id", "activity_id", "amount")
SELECT r."id", l."activity_id", sum(least(r."stop", l."stop") - greatest(r."start", l."start"))
  FROM (SELECT r."id", r."order_id", sum(r."amount") OVER w - r."amount" AS "start", sum(r."amount") OVER w AS "stop"
          FROM "fee_refunds" r JOIN "fee_orders" o ON o."id" = r."order_id"
         WHERE r."status" = 'success' AND o."activity_id" IS NULL
        WINDOW w AS (PARTITION BY r."order_id" ORDER BY r."success_time", r."id")) r
  JOIN (SELECT l."order_id", b."activity_id", sum(l."amount") OVER w - l."amount" AS "start", sum(l."amount") OVER w AS "stop"
          FROM "fee_order_lines" l JOIN "bills" b ON b."id" = l."bill_id" JOIN "fee_orders" o ON o."id" = l."order_id"
         WHERE o."activity_id" IS NULL
        WINDOW w AS (PARTITION BY l."order_id" ORDER BY l."settled", l."sort", l."id")) l
    ON l."order_id" = r."order_id" AND l."start" < r."stop" AND r."start" < l."stop"
 GROUP BY r."id", l."activity_id";
--> statement-breakpoint
DELETE FROM "fee_daily";
--> statement-breakpoint
INSERT INTO "fee_daily" ("day", "sysid", "sch_id", "class_id", "activity_id", "orders", "paid", "refunded")
SELECT ("at" AT TIME ZONE 'Asia/Shanghai')::date, "sysid", "sch_id", "class_id", coalesce("activity_id", 0), sum("orders"), sum("paid"), sum("refunded")
  FROM "fee_ledger"
 GROUP BY 1, 2, 3, 4, 5;
