-- The money in and out of fee collection, one row per payment (+) and per refund done (-), with the class, grade,
-- activity and channel of the payment: every statistics page reads it, so a figure is the same on each of them
-- and equals what payrecord and refundrecord list. A view: its rows are the ledgers' own, filtered through
-- their indexes (the conditions of a query reach each branch). The class is joined on its key and left out of a
-- query that reads no grade.
CREATE VIEW "fee_ledger" AS
SELECT p."sysid", p."sch_id", p."student_id", p."class_id", c."grade_id", p."activity_id", p."paychnl_id",
       p."paid_at" AS "at", 1 AS "orders", p."amount" AS "paid", 0::bigint AS "refunded"
  FROM "fee_payments" p LEFT JOIN "classes" c ON c."id" = p."class_id"
UNION ALL
SELECT r."sysid", r."sch_id", r."student_id", p."class_id", c."grade_id", p."activity_id", p."paychnl_id",
       r."success_time" AS "at", 0 AS "orders", 0::bigint AS "paid", r."amount" AS "refunded"
  FROM "fee_refunds" r JOIN "fee_payments" p ON p."order_id" = r."order_id" LEFT JOIN "classes" c ON c."id" = p."class_id"
 WHERE r."status" = 'success';
