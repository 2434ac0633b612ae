CREATE TABLE "recon_batches" (
	"id" serial PRIMARY KEY NOT NULL,
	"paychnl_id" integer NOT NULL,
	"bill_date" date NOT NULL,
	"status" varchar(32) DEFAULT 'balanced' NOT NULL,
	"matched" integer DEFAULT 0 NOT NULL,
	"missing_local" integer DEFAULT 0 NOT NULL,
	"missing_gateway" integer DEFAULT 0 NOT NULL,
	"amount_mismatch" integer DEFAULT 0 NOT NULL,
	"status_mismatch" integer DEFAULT 0 NOT NULL,
	"open_items" integer DEFAULT 0 NOT NULL,
	"bill_count" integer DEFAULT 0 NOT NULL,
	"bill_paid" bigint DEFAULT 0 NOT NULL,
	"bill_refund" bigint DEFAULT 0 NOT NULL,
	"bill_fee" bigint DEFAULT 0 NOT NULL,
	"local_count" integer DEFAULT 0 NOT NULL,
	"local_paid" bigint DEFAULT 0 NOT NULL,
	"local_refund" bigint DEFAULT 0 NOT NULL,
	"summary_ok" varchar(1) DEFAULT 'Y' NOT NULL,
	"error" varchar(200),
	"run_by" varchar(50),
	"run_at" timestamp with time zone,
	"sysid" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "recon_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"batch_id" integer NOT NULL,
	"paychnl_id" integer NOT NULL,
	"bill_date" date NOT NULL,
	"kind" varchar(32) NOT NULL,
	"pay_no" varchar(32) NOT NULL,
	"refund_no" varchar(64),
	"outcome" varchar(32) NOT NULL,
	"status" varchar(32) DEFAULT 'ok' NOT NULL,
	"bill_amount" bigint,
	"local_amount" bigint,
	"bill_state" varchar(32),
	"local_state" varchar(32),
	"fee" bigint,
	"sch_id" integer,
	"trade_time" varchar(19),
	"note" varchar(200),
	"resolved_by" varchar(50),
	"resolved_at" timestamp with time zone,
	"sysid" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "settlements" (
	"id" serial PRIMARY KEY NOT NULL,
	"day" date NOT NULL,
	"sch_id" integer NOT NULL,
	"paychnl_id" integer NOT NULL,
	"status" varchar(32) DEFAULT 'pending' NOT NULL,
	"orders" integer DEFAULT 0 NOT NULL,
	"gross" bigint DEFAULT 0 NOT NULL,
	"refunds" integer DEFAULT 0 NOT NULL,
	"refund" bigint DEFAULT 0 NOT NULL,
	"fee" bigint DEFAULT 0 NOT NULL,
	"fee_source" varchar(32) DEFAULT 'rate' NOT NULL,
	"net" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone,
	"sysid" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "recon_batches" ADD CONSTRAINT "recon_batches_paychnl_id_payment_channels_id_fk" FOREIGN KEY ("paychnl_id") REFERENCES "public"."payment_channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recon_items" ADD CONSTRAINT "recon_items_batch_id_recon_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."recon_batches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recon_items" ADD CONSTRAINT "recon_items_paychnl_id_payment_channels_id_fk" FOREIGN KEY ("paychnl_id") REFERENCES "public"."payment_channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recon_items" ADD CONSTRAINT "recon_items_sch_id_schools_id_fk" FOREIGN KEY ("sch_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlements" ADD CONSTRAINT "settlements_sch_id_schools_id_fk" FOREIGN KEY ("sch_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlements" ADD CONSTRAINT "settlements_paychnl_id_payment_channels_id_fk" FOREIGN KEY ("paychnl_id") REFERENCES "public"."payment_channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "recon_batches_sysid_bill_date_id_idx" ON "recon_batches" USING btree ("sysid","bill_date","id");--> statement-breakpoint
CREATE INDEX "recon_batches_paychnl_id_sysid_bill_date_id_idx" ON "recon_batches" USING btree ("paychnl_id","sysid","bill_date","id");--> statement-breakpoint
CREATE INDEX "recon_batches_status_idx" ON "recon_batches" USING btree ("status");--> statement-breakpoint
CREATE INDEX "recon_batches_run_at_idx" ON "recon_batches" USING btree ("run_at");--> statement-breakpoint
CREATE UNIQUE INDEX "recon_batches_paychnl_id_bill_date_unique" ON "recon_batches" USING btree ("paychnl_id","bill_date");--> statement-breakpoint
CREATE INDEX "recon_items_sysid_id_idx" ON "recon_items" USING btree ("sysid","id");--> statement-breakpoint
CREATE INDEX "recon_items_batch_id_sysid_id_idx" ON "recon_items" USING btree ("batch_id","sysid","id");--> statement-breakpoint
CREATE INDEX "recon_items_paychnl_id_sysid_id_idx" ON "recon_items" USING btree ("paychnl_id","sysid","id");--> statement-breakpoint
CREATE INDEX "recon_items_kind_idx" ON "recon_items" USING btree ("kind");--> statement-breakpoint
CREATE INDEX "recon_items_pay_no_idx" ON "recon_items" USING btree ("pay_no");--> statement-breakpoint
CREATE INDEX "recon_items_outcome_idx" ON "recon_items" USING btree ("outcome");--> statement-breakpoint
CREATE INDEX "recon_items_status_idx" ON "recon_items" USING btree ("status");--> statement-breakpoint
CREATE INDEX "settlements_sch_id_day_id_idx" ON "settlements" USING btree ("sch_id","day","id");--> statement-breakpoint
CREATE INDEX "settlements_sysid_day_id_idx" ON "settlements" USING btree ("sysid","day","id");--> statement-breakpoint
CREATE INDEX "settlements_day_idx" ON "settlements" USING btree ("day");--> statement-breakpoint
CREATE INDEX "settlements_paychnl_id_sch_id_sysid_day_id_idx" ON "settlements" USING btree ("paychnl_id","sch_id","sysid","day","id");--> statement-breakpoint
CREATE INDEX "settlements_status_idx" ON "settlements" USING btree ("status");--> statement-breakpoint
CREATE INDEX "settlements_gross_idx" ON "settlements" USING btree ("gross");--> statement-breakpoint
CREATE INDEX "settlements_net_idx" ON "settlements" USING btree ("net");--> statement-breakpoint
CREATE INDEX "settlements_paychnl_id_day_idx" ON "settlements" USING btree ("paychnl_id","day");--> statement-breakpoint
CREATE INDEX "payment_orders_merchant_paid_idx" ON "payment_orders" USING btree ("merchant_id","paid_at");--> statement-breakpoint
CREATE INDEX "sandbox_payments_paid_at_idx" ON "sandbox_payments" USING btree ("paid_at");--> statement-breakpoint
CREATE INDEX "sandbox_refunds_created_at_idx" ON "sandbox_refunds" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "fee_refunds_submitted_at_idx" ON "fee_refunds" USING btree ("submitted_at");