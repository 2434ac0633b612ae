-- Shop orders of the payer page's shop (catalogue/shopOrders.ts), their items as bought, and refunds of a shop order.
CREATE TABLE "shop_order_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"goods_id" integer NOT NULL,
	"sku_id" integer NOT NULL,
	"title" varchar(60) NOT NULL,
	"spec_values" jsonb NOT NULL,
	"image" varchar(500),
	"price" bigint NOT NULL,
	"qty" integer NOT NULL,
	"amount" bigint NOT NULL,
	"sysid" integer NOT NULL,
	"sch_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shop_orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_no" varchar(32) NOT NULL,
	"pay_no" varchar(32) NOT NULL,
	"sch_id" integer NOT NULL,
	"student_id" integer NOT NULL,
	"amount" bigint NOT NULL,
	"status" varchar(32) DEFAULT 'unpaid' NOT NULL,
	"refund_status" varchar(32) DEFAULT 'none' NOT NULL,
	"refunded_amount" bigint DEFAULT 0 NOT NULL,
	"delivery" varchar(32) NOT NULL,
	"pickup_point_id" integer,
	"pickup_code" varchar(8),
	"pickup_token" varchar(32),
	"receiver_name" varchar(30),
	"receiver_phone" varchar(20),
	"receiver_address" varchar(200),
	"express_code" varchar(16),
	"tracking_no" varchar(40),
	"gateway" varchar(32) NOT NULL,
	"transaction_id" varchar(64),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"sysid" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "shop_order_id" integer;--> statement-breakpoint
ALTER TABLE "shop_order_items" ADD CONSTRAINT "shop_order_items_order_id_shop_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."shop_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_order_items" ADD CONSTRAINT "shop_order_items_goods_id_goods_id_fk" FOREIGN KEY ("goods_id") REFERENCES "public"."goods"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_order_items" ADD CONSTRAINT "shop_order_items_sku_id_goods_skus_id_fk" FOREIGN KEY ("sku_id") REFERENCES "public"."goods_skus"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_orders" ADD CONSTRAINT "shop_orders_sch_id_schools_id_fk" FOREIGN KEY ("sch_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_orders" ADD CONSTRAINT "shop_orders_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_orders" ADD CONSTRAINT "shop_orders_pickup_point_id_pickup_points_id_fk" FOREIGN KEY ("pickup_point_id") REFERENCES "public"."pickup_points"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "shop_order_items_sch_id_sort_id_idx" ON "shop_order_items" USING btree ("sch_id","sort","id");--> statement-breakpoint
CREATE INDEX "shop_order_items_sysid_sort_id_idx" ON "shop_order_items" USING btree ("sysid","sort","id");--> statement-breakpoint
CREATE INDEX "shop_order_items_order_id_sort_id_idx" ON "shop_order_items" USING btree ("order_id","sort","id");--> statement-breakpoint
CREATE INDEX "shop_orders_sch_id_id_idx" ON "shop_orders" USING btree ("sch_id","id");--> statement-breakpoint
CREATE INDEX "shop_orders_sysid_id_idx" ON "shop_orders" USING btree ("sysid","id");--> statement-breakpoint
CREATE INDEX "shop_orders_student_id_sch_id_sysid_id_idx" ON "shop_orders" USING btree ("student_id","sch_id","sysid","id");--> statement-breakpoint
CREATE INDEX "shop_orders_amount_idx" ON "shop_orders" USING btree ("amount");--> statement-breakpoint
CREATE INDEX "shop_orders_status_idx" ON "shop_orders" USING btree ("status");--> statement-breakpoint
CREATE INDEX "shop_orders_refund_status_idx" ON "shop_orders" USING btree ("refund_status");--> statement-breakpoint
CREATE INDEX "shop_orders_delivery_idx" ON "shop_orders" USING btree ("delivery");--> statement-breakpoint
CREATE INDEX "shop_orders_pickup_point_id_sch_id_sysid_id_idx" ON "shop_orders" USING btree ("pickup_point_id","sch_id","sysid","id");--> statement-breakpoint
CREATE INDEX "shop_orders_tracking_no_idx" ON "shop_orders" USING btree ("tracking_no");--> statement-breakpoint
CREATE INDEX "shop_orders_created_at_idx" ON "shop_orders" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "shop_orders_paid_at_idx" ON "shop_orders" USING btree ("paid_at");--> statement-breakpoint
CREATE INDEX "shop_orders_sch_id_status_id_sysid_amount_idx" ON "shop_orders" USING btree ("sch_id","status","id","sysid","amount");--> statement-breakpoint
CREATE UNIQUE INDEX "shop_orders_order_no_unique" ON "shop_orders" USING btree ("order_no");--> statement-breakpoint
CREATE UNIQUE INDEX "shop_orders_pay_no_unique" ON "shop_orders" USING btree ("pay_no");--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_shop_order_id_shop_orders_id_fk" FOREIGN KEY ("shop_order_id") REFERENCES "public"."shop_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "refunds_shop_order_id_sch_id_sysid_id_idx" ON "refunds" USING btree ("shop_order_id","sch_id","sysid","id");--> statement-breakpoint
-- a pickup code is typed by a clerk: unique among the provider's orders waiting to be collected (not a catalogue index: partial)
CREATE UNIQUE INDEX "shop_orders_open_pickup_code" ON "shop_orders" USING btree ("sysid","pickup_code") WHERE "status" = 'undelivered' AND "pickup_code" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "shop_orders_pickup_token" ON "shop_orders" USING btree ("pickup_token") WHERE "pickup_token" IS NOT NULL;
