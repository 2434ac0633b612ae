-- After-sales of shop order items (catalogue/afterSales.ts), and the after-sale a refund gives money back for
CREATE TABLE "aftersales" (
	"id" serial PRIMARY KEY NOT NULL,
	"aftersale_no" varchar(32) NOT NULL,
	"order_id" integer NOT NULL,
	"item_id" integer NOT NULL,
	"sch_id" integer NOT NULL,
	"student_id" integer NOT NULL,
	"pickup_point_id" integer,
	"handed_over_by" varchar(50),
	"way" varchar(32) NOT NULL,
	"title" varchar(60) NOT NULL,
	"spec_values" jsonb NOT NULL,
	"qty" integer NOT NULL,
	"amount" bigint NOT NULL,
	"reason" varchar(60) NOT NULL,
	"description" text,
	"images" varchar(500)[],
	"status" varchar(32) DEFAULT 'applied' NOT NULL,
	"restock" varchar(1),
	"restocked_at" timestamp with time zone,
	"express_code" varchar(32),
	"tracking_no" varchar(40),
	"review_reason" varchar(60),
	"reviewed_by" varchar(50),
	"receive_reason" varchar(60),
	"received_by" varchar(50),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reviewed_at" timestamp with time zone,
	"returned_at" timestamp with time zone,
	"received_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"sysid" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "aftersale_id" integer;--> statement-breakpoint
ALTER TABLE "aftersales" ADD CONSTRAINT "aftersales_order_id_shop_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."shop_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "aftersales" ADD CONSTRAINT "aftersales_item_id_shop_order_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."shop_order_items"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "aftersales" ADD CONSTRAINT "aftersales_sch_id_schools_id_fk" FOREIGN KEY ("sch_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "aftersales" ADD CONSTRAINT "aftersales_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "aftersales" ADD CONSTRAINT "aftersales_pickup_point_id_pickup_points_id_fk" FOREIGN KEY ("pickup_point_id") REFERENCES "public"."pickup_points"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "aftersales_sch_id_id_idx" ON "aftersales" USING btree ("sch_id","id");--> statement-breakpoint
CREATE INDEX "aftersales_sysid_id_idx" ON "aftersales" USING btree ("sysid","id");--> statement-breakpoint
CREATE INDEX "aftersales_order_id_sch_id_sysid_id_idx" ON "aftersales" USING btree ("order_id","sch_id","sysid","id");--> statement-breakpoint
CREATE INDEX "aftersales_student_id_sch_id_sysid_id_idx" ON "aftersales" USING btree ("student_id","sch_id","sysid","id");--> statement-breakpoint
CREATE INDEX "aftersales_pickup_point_id_sch_id_sysid_id_idx" ON "aftersales" USING btree ("pickup_point_id","sch_id","sysid","id");--> statement-breakpoint
CREATE INDEX "aftersales_way_idx" ON "aftersales" USING btree ("way");--> statement-breakpoint
CREATE INDEX "aftersales_amount_idx" ON "aftersales" USING btree ("amount");--> statement-breakpoint
CREATE INDEX "aftersales_status_idx" ON "aftersales" USING btree ("status");--> statement-breakpoint
CREATE INDEX "aftersales_tracking_no_idx" ON "aftersales" USING btree ("tracking_no");--> statement-breakpoint
CREATE INDEX "aftersales_created_at_idx" ON "aftersales" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "aftersales_item_id_idx" ON "aftersales" USING btree ("item_id");--> statement-breakpoint
CREATE UNIQUE INDEX "aftersales_aftersale_no_unique" ON "aftersales" USING btree ("aftersale_no");--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_aftersale_id_aftersales_id_fk" FOREIGN KEY ("aftersale_id") REFERENCES "public"."aftersales"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "refunds_aftersale_id_sch_id_sysid_id_idx" ON "refunds" USING btree ("aftersale_id","sch_id","sysid","id");