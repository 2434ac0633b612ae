-- Refunds belong to a payment order of any kind (server/payments/refunds.ts): the table of fee refunds becomes the
-- table of refunds (its indexes and constraints renamed with it; the views that read it follow the table), a refund
-- names the kind of its payment, and the fee order it refunds only when it refunds a fee.
ALTER TABLE "fee_refunds" RENAME TO "refunds";--> statement-breakpoint
ALTER SEQUENCE "fee_refunds_id_seq" RENAME TO "refunds_id_seq";--> statement-breakpoint
ALTER INDEX "fee_refunds_pkey" RENAME TO "refunds_pkey";--> statement-breakpoint
ALTER INDEX "fee_refunds_amount_idx" RENAME TO "refunds_amount_idx";--> statement-breakpoint
ALTER INDEX "fee_refunds_created_at_idx" RENAME TO "refunds_created_at_idx";--> statement-breakpoint
ALTER INDEX "fee_refunds_kind_idx" RENAME TO "refunds_kind_idx";--> statement-breakpoint
ALTER INDEX "fee_refunds_order_id_sch_id_sysid_id_idx" RENAME TO "refunds_order_id_sch_id_sysid_id_idx";--> statement-breakpoint
ALTER INDEX "fee_refunds_pay_no_idx" RENAME TO "refunds_pay_no_idx";--> statement-breakpoint
ALTER INDEX "fee_refunds_refund_no_unique" RENAME TO "refunds_refund_no_unique";--> statement-breakpoint
ALTER INDEX "fee_refunds_sch_id_id_idx" RENAME TO "refunds_sch_id_id_idx";--> statement-breakpoint
ALTER INDEX "fee_refunds_status_idx" RENAME TO "refunds_status_idx";--> statement-breakpoint
ALTER INDEX "fee_refunds_student_id_sch_id_sysid_id_idx" RENAME TO "refunds_student_id_sch_id_sysid_id_idx";--> statement-breakpoint
ALTER INDEX "fee_refunds_submitted_at_idx" RENAME TO "refunds_submitted_at_idx";--> statement-breakpoint
ALTER INDEX "fee_refunds_success_time_idx" RENAME TO "refunds_success_time_idx";--> statement-breakpoint
ALTER INDEX "fee_refunds_sysid_id_idx" RENAME TO "refunds_sysid_id_idx";--> statement-breakpoint
ALTER TABLE "refunds" RENAME CONSTRAINT "fee_refunds_order_id_fee_orders_id_fk" TO "refunds_order_id_fee_orders_id_fk";--> statement-breakpoint
ALTER TABLE "refunds" RENAME CONSTRAINT "fee_refunds_sch_id_schools_id_fk" TO "refunds_sch_id_schools_id_fk";--> statement-breakpoint
ALTER TABLE "refunds" RENAME CONSTRAINT "fee_refunds_student_id_students_id_fk" TO "refunds_student_id_students_id_fk";--> statement-breakpoint
ALTER TABLE "refunds" ALTER COLUMN "order_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "payment_kind" varchar(32) DEFAULT 'fee' NOT NULL;--> statement-breakpoint
CREATE INDEX "refunds_payment_kind_idx" ON "refunds" USING btree ("payment_kind");
