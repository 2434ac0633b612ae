-- Fulfilment shared by the orders that carry goods: a fee order's goods (activity items naming goods, each in the size the payer chose), its delivery by express or pickup, its pickup code and QR token (unique among the provider's fee orders waiting to be collected, beside the shop orders' own), and pickup records of either kind of order
CREATE TABLE "fee_order_goods" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"bill_id" integer NOT NULL,
	"goods_id" integer NOT NULL,
	"sku_id" integer NOT NULL,
	"title" varchar(60) NOT NULL,
	"spec_values" jsonb NOT NULL,
	"image" varchar(500),
	"qty" integer NOT NULL,
	"sysid" integer NOT NULL,
	"sch_id" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "pickup_records" ALTER COLUMN "order_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "activity_items" ADD COLUMN "goods_id" integer;--> statement-breakpoint
ALTER TABLE "fee_orders" ADD COLUMN "fulfil_status" varchar(32);--> statement-breakpoint
ALTER TABLE "fee_orders" ADD COLUMN "delivery" varchar(32);--> statement-breakpoint
ALTER TABLE "fee_orders" ADD COLUMN "pickup_point_id" integer;--> statement-breakpoint
ALTER TABLE "fee_orders" ADD COLUMN "pickup_code" varchar(8);--> statement-breakpoint
ALTER TABLE "fee_orders" ADD COLUMN "pickup_token" varchar(32);--> statement-breakpoint
ALTER TABLE "fee_orders" ADD COLUMN "receiver_name" varchar(30);--> statement-breakpoint
ALTER TABLE "fee_orders" ADD COLUMN "receiver_phone" varchar(20);--> statement-breakpoint
ALTER TABLE "fee_orders" ADD COLUMN "receiver_address" varchar(200);--> statement-breakpoint
ALTER TABLE "fee_orders" ADD COLUMN "express_code" varchar(32);--> statement-breakpoint
ALTER TABLE "fee_orders" ADD COLUMN "tracking_no" varchar(40);--> statement-breakpoint
ALTER TABLE "fee_orders" ADD COLUMN "delivered_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "fee_orders" ADD COLUMN "completed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "pickup_records" ADD COLUMN "kind" varchar(32) DEFAULT 'shop_order' NOT NULL;--> statement-breakpoint
ALTER TABLE "pickup_records" ADD COLUMN "fee_order_id" integer;--> statement-breakpoint
ALTER TABLE "fee_order_goods" ADD CONSTRAINT "fee_order_goods_order_id_fee_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."fee_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_order_goods" ADD CONSTRAINT "fee_order_goods_bill_id_bills_id_fk" FOREIGN KEY ("bill_id") REFERENCES "public"."bills"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_order_goods" ADD CONSTRAINT "fee_order_goods_goods_id_goods_id_fk" FOREIGN KEY ("goods_id") REFERENCES "public"."goods"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_order_goods" ADD CONSTRAINT "fee_order_goods_sku_id_goods_skus_id_fk" FOREIGN KEY ("sku_id") REFERENCES "public"."goods_skus"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "fee_order_goods_sch_id_sort_id_idx" ON "fee_order_goods" USING btree ("sch_id","sort","id");--> statement-breakpoint
CREATE INDEX "fee_order_goods_sysid_sort_id_idx" ON "fee_order_goods" USING btree ("sysid","sort","id");--> statement-breakpoint
CREATE INDEX "fee_order_goods_order_id_sort_id_idx" ON "fee_order_goods" USING btree ("order_id","sort","id");--> statement-breakpoint
ALTER TABLE "activity_items" ADD CONSTRAINT "activity_items_goods_id_goods_id_fk" FOREIGN KEY ("goods_id") REFERENCES "public"."goods"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_orders" ADD CONSTRAINT "fee_orders_pickup_point_id_pickup_points_id_fk" FOREIGN KEY ("pickup_point_id") REFERENCES "public"."pickup_points"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pickup_records" ADD CONSTRAINT "pickup_records_fee_order_id_fee_orders_id_fk" FOREIGN KEY ("fee_order_id") REFERENCES "public"."fee_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "fee_orders_fulfil_status_idx" ON "fee_orders" USING btree ("fulfil_status");--> statement-breakpoint
CREATE INDEX "pickup_records_kind_idx" ON "pickup_records" USING btree ("kind");--> statement-breakpoint
CREATE UNIQUE INDEX "pickup_records_fee_order_id_unique" ON "pickup_records" USING btree ("fee_order_id");--> statement-breakpoint
-- a fee order's pickup code is typed by a clerk: unique among the provider's fee orders waiting to be collected (shop orders have their own; the code is chosen free among both under the provider's lock)
CREATE UNIQUE INDEX "fee_orders_open_pickup_code" ON "fee_orders" USING btree ("sysid","pickup_code") WHERE "fulfil_status" = 'undelivered' AND "pickup_code" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "fee_orders_pickup_token" ON "fee_orders" USING btree ("pickup_token") WHERE "pickup_token" IS NOT NULL;
