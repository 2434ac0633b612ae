-- The log of tracking-number imports (orderdeliveryimportlog): who imported which file and how its rows went.
CREATE TABLE "delivery_imports" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" varchar(32) NOT NULL,
	"filename" varchar(255) NOT NULL,
	"username" varchar(50) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"delivered" integer DEFAULT 0 NOT NULL,
	"unchanged" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"errors" text,
	"sysid" integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX "delivery_imports_sysid_id_idx" ON "delivery_imports" USING btree ("sysid","id");--> statement-breakpoint
CREATE INDEX "delivery_imports_kind_idx" ON "delivery_imports" USING btree ("kind");--> statement-breakpoint
CREATE INDEX "delivery_imports_created_at_idx" ON "delivery_imports" USING btree ("created_at");--> statement-breakpoint
-- the goods statistics read a provider's paid shop orders by their payment time
CREATE INDEX "shop_orders_sysid_paid_at_paid_idx" ON "shop_orders" USING btree ("sysid","paid_at") WHERE "paid_at" IS NOT NULL;
