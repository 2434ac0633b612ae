CREATE TABLE "fee_payments" (
	"id" serial PRIMARY KEY NOT NULL,
	"pay_no" varchar(32) NOT NULL,
	"order_id" integer NOT NULL,
	"sch_id" integer NOT NULL,
	"student_id" integer NOT NULL,
	"class_id" integer NOT NULL,
	"activity_id" integer,
	"amount" bigint NOT NULL,
	"paid_at" timestamp with time zone NOT NULL,
	"paychnl_id" integer,
	"gateway" varchar(32) NOT NULL,
	"transaction_id" varchar(64) NOT NULL,
	"duplicate" varchar(1) DEFAULT 'N' NOT NULL,
	"sysid" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "fee_orders" ADD COLUMN "paychnl_id" integer;--> statement-breakpoint
ALTER TABLE "fee_payments" ADD CONSTRAINT "fee_payments_order_id_fee_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."fee_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_payments" ADD CONSTRAINT "fee_payments_sch_id_schools_id_fk" FOREIGN KEY ("sch_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_payments" ADD CONSTRAINT "fee_payments_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_payments" ADD CONSTRAINT "fee_payments_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."classes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_payments" ADD CONSTRAINT "fee_payments_activity_id_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."activities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_payments" ADD CONSTRAINT "fee_payments_paychnl_id_payment_channels_id_fk" FOREIGN KEY ("paychnl_id") REFERENCES "public"."payment_channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "fee_payments_sch_id_paid_at_id_idx" ON "fee_payments" USING btree ("sch_id","paid_at","id");--> statement-breakpoint
CREATE INDEX "fee_payments_sysid_paid_at_id_idx" ON "fee_payments" USING btree ("sysid","paid_at","id");--> statement-breakpoint
CREATE INDEX "fee_payments_order_id_sch_id_sysid_paid_at_id_idx" ON "fee_payments" USING btree ("order_id","sch_id","sysid","paid_at","id");--> statement-breakpoint
CREATE INDEX "fee_payments_student_id_sch_id_sysid_paid_at_id_idx" ON "fee_payments" USING btree ("student_id","sch_id","sysid","paid_at","id");--> statement-breakpoint
CREATE INDEX "fee_payments_activity_id_sch_id_sysid_paid_at_id_idx" ON "fee_payments" USING btree ("activity_id","sch_id","sysid","paid_at","id");--> statement-breakpoint
CREATE INDEX "fee_payments_amount_idx" ON "fee_payments" USING btree ("amount");--> statement-breakpoint
CREATE INDEX "fee_payments_paid_at_idx" ON "fee_payments" USING btree ("paid_at");--> statement-breakpoint
CREATE INDEX "fee_payments_paychnl_id_sch_id_sysid_paid_at_id_idx" ON "fee_payments" USING btree ("paychnl_id","sch_id","sysid","paid_at","id");--> statement-breakpoint
CREATE INDEX "fee_payments_transaction_id_idx" ON "fee_payments" USING btree ("transaction_id");--> statement-breakpoint
CREATE INDEX "fee_payments_duplicate_idx" ON "fee_payments" USING btree ("duplicate");--> statement-breakpoint
CREATE UNIQUE INDEX "fee_payments_pay_no_unique" ON "fee_payments" USING btree ("pay_no");--> statement-breakpoint
ALTER TABLE "fee_orders" ADD CONSTRAINT "fee_orders_paychnl_id_payment_channels_id_fk" FOREIGN KEY ("paychnl_id") REFERENCES "public"."payment_channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- orders made before orders named their channel: their school's channel (a school has one)
UPDATE "fee_orders" o SET "paychnl_id" = sc."paychnl_id" FROM "school_channels" sc WHERE sc."sch_id" = o."sch_id" AND o."paychnl_id" IS NULL;--> statement-breakpoint
-- the ledger of what was paid so far: one payment per paid order, duplicates included
INSERT INTO "fee_payments" ("pay_no", "order_id", "sch_id", "student_id", "class_id", "activity_id", "amount", "paid_at", "paychnl_id", "gateway", "transaction_id", "duplicate", "sysid")
SELECT "pay_no", "id", "sch_id", "student_id", "class_id", "activity_id", "amount", "paid_at", "paychnl_id", "gateway", coalesce("transaction_id", ''), "duplicate", "sysid"
FROM "fee_orders" WHERE "paid_at" IS NOT NULL ORDER BY "paid_at", "id";
