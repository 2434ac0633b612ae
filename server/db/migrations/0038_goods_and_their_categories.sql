-- A v2 provider's goods (catalogue/goods.ts): two levels of categories, goods items, and their SKUs, one per combination of spec values.
CREATE TABLE "goods" (
	"id" serial PRIMARY KEY NOT NULL,
	"images" varchar(500)[],
	"title" varchar(60) NOT NULL,
	"cate_id" integer NOT NULL,
	"spec_names" varchar(10)[] NOT NULL,
	"price" bigint,
	"stock" integer,
	"sales" integer DEFAULT 0 NOT NULL,
	"delivery" varchar(32) DEFAULT 'both' NOT NULL,
	"sch_scope" varchar(32) DEFAULT 'all' NOT NULL,
	"sch_ids" integer[],
	"status" varchar(32) DEFAULT 'off' NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sysid" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "goods_categories" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" varchar(30) NOT NULL,
	"parent_id" integer,
	"level" varchar(32) DEFAULT '1' NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"status" varchar(1) DEFAULT '1' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sysid" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "goods_skus" (
	"id" serial PRIMARY KEY NOT NULL,
	"goods_id" integer NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"spec_values" jsonb NOT NULL,
	"price" bigint NOT NULL,
	"stock" integer DEFAULT 0 NOT NULL,
	"barcode" varchar(32),
	"image" varchar(500),
	"sysid" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "goods" ADD CONSTRAINT "goods_cate_id_goods_categories_id_fk" FOREIGN KEY ("cate_id") REFERENCES "public"."goods_categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "goods_categories" ADD CONSTRAINT "goods_categories_parent_id_goods_categories_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."goods_categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "goods_skus" ADD CONSTRAINT "goods_skus_goods_id_goods_id_fk" FOREIGN KEY ("goods_id") REFERENCES "public"."goods"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "goods_sysid_id_idx" ON "goods" USING btree ("sysid","id");--> statement-breakpoint
CREATE INDEX "goods_title_idx" ON "goods" USING btree ("title");--> statement-breakpoint
CREATE INDEX "goods_cate_id_sysid_id_idx" ON "goods" USING btree ("cate_id","sysid","id");--> statement-breakpoint
CREATE INDEX "goods_price_idx" ON "goods" USING btree ("price");--> statement-breakpoint
CREATE INDEX "goods_stock_idx" ON "goods" USING btree ("stock");--> statement-breakpoint
CREATE INDEX "goods_sales_idx" ON "goods" USING btree ("sales");--> statement-breakpoint
CREATE INDEX "goods_delivery_idx" ON "goods" USING btree ("delivery");--> statement-breakpoint
CREATE INDEX "goods_status_idx" ON "goods" USING btree ("status");--> statement-breakpoint
CREATE INDEX "goods_created_at_idx" ON "goods" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "goods_categories_sysid_sort_id_idx" ON "goods_categories" USING btree ("sysid","sort","id");--> statement-breakpoint
CREATE INDEX "goods_categories_parent_id_sysid_sort_id_idx" ON "goods_categories" USING btree ("parent_id","sysid","sort","id");--> statement-breakpoint
CREATE INDEX "goods_categories_level_idx" ON "goods_categories" USING btree ("level");--> statement-breakpoint
CREATE INDEX "goods_categories_sort_idx" ON "goods_categories" USING btree ("sort");--> statement-breakpoint
CREATE INDEX "goods_categories_status_idx" ON "goods_categories" USING btree ("status");--> statement-breakpoint
CREATE UNIQUE INDEX "goods_categories_parent_id_title_unique" ON "goods_categories" USING btree ("parent_id","title");--> statement-breakpoint
CREATE INDEX "goods_skus_sysid_sort_id_idx" ON "goods_skus" USING btree ("sysid","sort","id");--> statement-breakpoint
CREATE INDEX "goods_skus_goods_id_sort_id_idx" ON "goods_skus" USING btree ("goods_id","sort","id");