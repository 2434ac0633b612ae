-- Trace-source codes (uniform supervision codes, one per garment): a provider's codes unique within it, each of one SKU with its batch's facts (maker, standard, fabric, report), free, bound to a shop order item, or voided; indexed for every filter of tracesourcelist
CREATE TABLE "trace_sources" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" varchar(64) NOT NULL,
	"goods_id" integer NOT NULL,
	"sku_id" integer NOT NULL,
	"spec_values" jsonb,
	"batch_no" varchar(40) NOT NULL,
	"manufacturer" varchar(100),
	"standard" varchar(60),
	"fabric" varchar(200),
	"report_url" varchar(500),
	"status" varchar(32) DEFAULT 'free' NOT NULL,
	"order_id" integer,
	"order_item_id" integer,
	"bound_at" timestamp with time zone,
	"bound_by" varchar(50),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sysid" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "trace_sources" ADD CONSTRAINT "trace_sources_goods_id_goods_id_fk" FOREIGN KEY ("goods_id") REFERENCES "public"."goods"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trace_sources" ADD CONSTRAINT "trace_sources_sku_id_goods_skus_id_fk" FOREIGN KEY ("sku_id") REFERENCES "public"."goods_skus"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trace_sources" ADD CONSTRAINT "trace_sources_order_id_shop_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."shop_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "trace_sources_sysid_id_idx" ON "trace_sources" USING btree ("sysid","id");--> statement-breakpoint
CREATE INDEX "trace_sources_goods_id_sysid_id_idx" ON "trace_sources" USING btree ("goods_id","sysid","id");--> statement-breakpoint
CREATE INDEX "trace_sources_sku_id_sysid_id_idx" ON "trace_sources" USING btree ("sku_id","sysid","id");--> statement-breakpoint
CREATE INDEX "trace_sources_batch_no_idx" ON "trace_sources" USING btree ("batch_no");--> statement-breakpoint
CREATE INDEX "trace_sources_manufacturer_idx" ON "trace_sources" USING btree ("manufacturer");--> statement-breakpoint
CREATE INDEX "trace_sources_status_idx" ON "trace_sources" USING btree ("status");--> statement-breakpoint
CREATE INDEX "trace_sources_order_id_sysid_id_idx" ON "trace_sources" USING btree ("order_id","sysid","id");--> statement-breakpoint
CREATE INDEX "trace_sources_order_item_id_idx" ON "trace_sources" USING btree ("order_item_id");--> statement-breakpoint
CREATE INDEX "trace_sources_bound_at_idx" ON "trace_sources" USING btree ("bound_at");--> statement-breakpoint
CREATE INDEX "trace_sources_created_at_idx" ON "trace_sources" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "trace_sources_sysid_code_unique" ON "trace_sources" USING btree ("sysid","code");