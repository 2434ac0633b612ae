CREATE TABLE "sandbox_refunds" (
	"refund_no" varchar(64) PRIMARY KEY NOT NULL,
	"pay_no" varchar(32) NOT NULL,
	"refund_id" varchar(64) NOT NULL,
	"amount_fen" bigint NOT NULL,
	"status" varchar(16) NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"success_time" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "fee_refunds" (
	"id" serial PRIMARY KEY NOT NULL,
	"refund_no" varchar(64),
	"order_id" integer NOT NULL,
	"pay_no" varchar(32) NOT NULL,
	"sch_id" integer NOT NULL,
	"student_id" integer NOT NULL,
	"amount" bigint NOT NULL,
	"reason" varchar(26) NOT NULL,
	"status" varchar(32) DEFAULT 'applied' NOT NULL,
	"kind" varchar(32) DEFAULT 'request' NOT NULL,
	"applied_by" varchar(50) NOT NULL,
	"reviewed_by" varchar(50),
	"review_reason" varchar(26),
	"gateway" varchar(32) NOT NULL,
	"refund_id" varchar(64),
	"user_received_account" varchar(64),
	"success_time" timestamp with time zone,
	"submitted_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" varchar(200),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sysid" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "fee_order_lines" ADD COLUMN "settled" varchar(1) DEFAULT 'N' NOT NULL;--> statement-breakpoint
ALTER TABLE "fee_order_lines" ADD COLUMN "refunded_amount" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "fee_refunds" ADD CONSTRAINT "fee_refunds_order_id_fee_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."fee_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_refunds" ADD CONSTRAINT "fee_refunds_sch_id_schools_id_fk" FOREIGN KEY ("sch_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_refunds" ADD CONSTRAINT "fee_refunds_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sandbox_refunds_pay_no_idx" ON "sandbox_refunds" USING btree ("pay_no");--> statement-breakpoint
CREATE INDEX "fee_refunds_sch_id_id_idx" ON "fee_refunds" USING btree ("sch_id","id");--> statement-breakpoint
CREATE INDEX "fee_refunds_sysid_id_idx" ON "fee_refunds" USING btree ("sysid","id");--> statement-breakpoint
CREATE INDEX "fee_refunds_order_id_sch_id_sysid_id_idx" ON "fee_refunds" USING btree ("order_id","sch_id","sysid","id");--> statement-breakpoint
CREATE INDEX "fee_refunds_pay_no_idx" ON "fee_refunds" USING btree ("pay_no");--> statement-breakpoint
CREATE INDEX "fee_refunds_student_id_sch_id_sysid_id_idx" ON "fee_refunds" USING btree ("student_id","sch_id","sysid","id");--> statement-breakpoint
CREATE INDEX "fee_refunds_amount_idx" ON "fee_refunds" USING btree ("amount");--> statement-breakpoint
CREATE INDEX "fee_refunds_status_idx" ON "fee_refunds" USING btree ("status");--> statement-breakpoint
CREATE INDEX "fee_refunds_kind_idx" ON "fee_refunds" USING btree ("kind");--> statement-breakpoint
CREATE INDEX "fee_refunds_success_time_idx" ON "fee_refunds" USING btree ("success_time");--> statement-breakpoint
CREATE INDEX "fee_refunds_created_at_idx" ON "fee_refunds" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "fee_refunds_refund_no_unique" ON "fee_refunds" USING btree ("refund_no");--> statement-breakpoint
-- the lines of paid orders that settled their bills: a bill is stamped with the paid_at of the order that paid it
UPDATE "fee_order_lines" l SET "settled" = 'Y'
FROM "fee_orders" o, "bills" b
WHERE o."id" = l."order_id" AND b."id" = l."bill_id" AND o."status" IN ('paid', 'part_refunded', 'refunded')
  AND (o."duplicate" = 'N' OR b."paid_at" = o."paid_at");
