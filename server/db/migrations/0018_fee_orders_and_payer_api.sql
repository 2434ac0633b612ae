CREATE TABLE "payer_tickets" (
	"token_hash" varchar(64) PRIMARY KEY NOT NULL,
	"student_id" integer NOT NULL,
	"sch_id" integer NOT NULL,
	"sysid" integer NOT NULL,
	"qrchnl_id" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fee_order_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"event" varchar(32) NOT NULL,
	"note" varchar(200),
	"sysid" integer NOT NULL,
	"sch_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fee_order_lines" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"bill_id" integer NOT NULL,
	"title" varchar(200) NOT NULL,
	"amount" bigint NOT NULL,
	"sysid" integer NOT NULL,
	"sch_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fee_orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_no" varchar(32) NOT NULL,
	"pay_no" varchar(32) NOT NULL,
	"sch_id" integer NOT NULL,
	"student_id" integer NOT NULL,
	"class_id" integer NOT NULL,
	"activity_id" integer,
	"amount" bigint NOT NULL,
	"status" varchar(32) DEFAULT 'unpaid' NOT NULL,
	"paid_at" timestamp with time zone,
	"gateway" varchar(32) NOT NULL,
	"transaction_id" varchar(64),
	"refunded_amount" bigint DEFAULT 0 NOT NULL,
	"duplicate" varchar(1) DEFAULT 'N' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sysid" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "qr_channels" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" varchar(100) NOT NULL,
	"sch_id" integer NOT NULL,
	"activity_id" integer,
	"status" varchar(1) DEFAULT '1' NOT NULL,
	"code" varchar(64) NOT NULL,
	"url" varchar(500) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sysid" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payment_orders" ADD COLUMN "sp_merchant_id" varchar(32);--> statement-breakpoint
ALTER TABLE "fee_order_events" ADD CONSTRAINT "fee_order_events_order_id_fee_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."fee_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_order_lines" ADD CONSTRAINT "fee_order_lines_order_id_fee_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."fee_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_order_lines" ADD CONSTRAINT "fee_order_lines_bill_id_bills_id_fk" FOREIGN KEY ("bill_id") REFERENCES "public"."bills"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_orders" ADD CONSTRAINT "fee_orders_sch_id_schools_id_fk" FOREIGN KEY ("sch_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_orders" ADD CONSTRAINT "fee_orders_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_orders" ADD CONSTRAINT "fee_orders_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."classes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_orders" ADD CONSTRAINT "fee_orders_activity_id_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."activities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qr_channels" ADD CONSTRAINT "qr_channels_sch_id_schools_id_fk" FOREIGN KEY ("sch_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qr_channels" ADD CONSTRAINT "qr_channels_activity_id_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."activities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payer_tickets_expires_at_idx" ON "payer_tickets" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "fee_order_events_sch_id_sort_id_idx" ON "fee_order_events" USING btree ("sch_id","sort","id");--> statement-breakpoint
CREATE INDEX "fee_order_events_sysid_sort_id_idx" ON "fee_order_events" USING btree ("sysid","sort","id");--> statement-breakpoint
CREATE INDEX "fee_order_events_order_id_sort_id_idx" ON "fee_order_events" USING btree ("order_id","sort","id");--> statement-breakpoint
CREATE INDEX "fee_order_lines_sch_id_sort_id_idx" ON "fee_order_lines" USING btree ("sch_id","sort","id");--> statement-breakpoint
CREATE INDEX "fee_order_lines_sysid_sort_id_idx" ON "fee_order_lines" USING btree ("sysid","sort","id");--> statement-breakpoint
CREATE INDEX "fee_order_lines_bill_id_sch_id_sysid_sort_id_idx" ON "fee_order_lines" USING btree ("bill_id","sch_id","sysid","sort","id");--> statement-breakpoint
CREATE INDEX "fee_order_lines_order_id_sort_id_idx" ON "fee_order_lines" USING btree ("order_id","sort","id");--> statement-breakpoint
CREATE INDEX "fee_orders_sch_id_id_idx" ON "fee_orders" USING btree ("sch_id","id");--> statement-breakpoint
CREATE INDEX "fee_orders_sysid_id_idx" ON "fee_orders" USING btree ("sysid","id");--> statement-breakpoint
CREATE INDEX "fee_orders_student_id_sch_id_sysid_id_idx" ON "fee_orders" USING btree ("student_id","sch_id","sysid","id");--> statement-breakpoint
CREATE INDEX "fee_orders_activity_id_sch_id_sysid_id_idx" ON "fee_orders" USING btree ("activity_id","sch_id","sysid","id");--> statement-breakpoint
CREATE INDEX "fee_orders_amount_idx" ON "fee_orders" USING btree ("amount");--> statement-breakpoint
CREATE INDEX "fee_orders_status_idx" ON "fee_orders" USING btree ("status");--> statement-breakpoint
CREATE INDEX "fee_orders_paid_at_idx" ON "fee_orders" USING btree ("paid_at");--> statement-breakpoint
CREATE INDEX "fee_orders_duplicate_idx" ON "fee_orders" USING btree ("duplicate");--> statement-breakpoint
CREATE INDEX "fee_orders_created_at_idx" ON "fee_orders" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "fee_orders_order_no_unique" ON "fee_orders" USING btree ("order_no");--> statement-breakpoint
CREATE UNIQUE INDEX "fee_orders_pay_no_unique" ON "fee_orders" USING btree ("pay_no");--> statement-breakpoint
CREATE INDEX "qr_channels_sch_id_id_idx" ON "qr_channels" USING btree ("sch_id","id");--> statement-breakpoint
CREATE INDEX "qr_channels_sysid_id_idx" ON "qr_channels" USING btree ("sysid","id");--> statement-breakpoint
CREATE INDEX "qr_channels_title_idx" ON "qr_channels" USING btree ("title");--> statement-breakpoint
CREATE INDEX "qr_channels_activity_id_sch_id_sysid_id_idx" ON "qr_channels" USING btree ("activity_id","sch_id","sysid","id");--> statement-breakpoint
CREATE INDEX "qr_channels_status_idx" ON "qr_channels" USING btree ("status");--> statement-breakpoint
CREATE INDEX "qr_channels_created_at_idx" ON "qr_channels" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "qr_channels_code_unique" ON "qr_channels" USING btree ("code");