CREATE TABLE "payment_merchants" (
	"id" serial PRIMARY KEY NOT NULL,
	"sysid" integer,
	"gateway" varchar(16) NOT NULL,
	"merchant_id" varchar(32) NOT NULL,
	"appid" varchar(32) DEFAULT '' NOT NULL,
	"merchant_serial_no" varchar(64) DEFAULT '' NOT NULL,
	"private_key_enc" text DEFAULT '' NOT NULL,
	"api_v3_key_enc" text DEFAULT '' NOT NULL,
	"platform_key_id" varchar(64) DEFAULT '' NOT NULL,
	"platform_public_key" text DEFAULT '' NOT NULL,
	"api_base" varchar(200) DEFAULT '' NOT NULL,
	"enabled" varchar(1) DEFAULT 'Y' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_orders" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"pay_no" varchar(32) NOT NULL,
	"orderid" varchar(32) NOT NULL,
	"kind" varchar(32) NOT NULL,
	"sysid" integer NOT NULL,
	"sch_id" integer,
	"meal_id" integer,
	"title" varchar(100) NOT NULL,
	"term_months" integer NOT NULL,
	"total_fee_fen" bigint NOT NULL,
	"gateway" varchar(16) NOT NULL,
	"merchant_id" varchar(32) DEFAULT '' NOT NULL,
	"code_url" varchar(500) DEFAULT '' NOT NULL,
	"status" varchar(16) DEFAULT 'NOTPAY' NOT NULL,
	"transaction_id" varchar(64),
	"paid_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_orders_pay_no_unique" UNIQUE("pay_no"),
	CONSTRAINT "payment_orders_orderid_unique" UNIQUE("orderid")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "payment_merchants_owner_unique" ON "payment_merchants" USING btree (coalesce("sysid", 0),"gateway");--> statement-breakpoint
CREATE INDEX "payment_merchants_mchid_idx" ON "payment_merchants" USING btree ("merchant_id");--> statement-breakpoint
CREATE INDEX "payment_orders_sysid_idx" ON "payment_orders" USING btree ("sysid","created_at");--> statement-breakpoint
CREATE INDEX "payment_orders_sch_id_idx" ON "payment_orders" USING btree ("sch_id","created_at");--> statement-breakpoint
CREATE INDEX "payment_orders_status_idx" ON "payment_orders" USING btree ("status","expires_at");