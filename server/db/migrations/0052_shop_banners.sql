-- The shop's banners (bannerlist): pictures at the top of its page, each leading to goods, a category or a page, shown between two days.
CREATE TABLE "shop_banners" (
	"id" serial PRIMARY KEY NOT NULL,
	"image" varchar(500) NOT NULL,
	"title" varchar(30) NOT NULL,
	"link_type" varchar(32) DEFAULT 'none' NOT NULL,
	"goods_id" integer,
	"cate_id" integer,
	"url" varchar(300),
	"sort" integer DEFAULT 0 NOT NULL,
	"start_date" date,
	"end_date" date,
	"status" varchar(1) DEFAULT '1' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sysid" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "shop_banners" ADD CONSTRAINT "shop_banners_goods_id_goods_id_fk" FOREIGN KEY ("goods_id") REFERENCES "public"."goods"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_banners" ADD CONSTRAINT "shop_banners_cate_id_goods_categories_id_fk" FOREIGN KEY ("cate_id") REFERENCES "public"."goods_categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "shop_banners_sysid_sort_id_idx" ON "shop_banners" USING btree ("sysid","sort","id");--> statement-breakpoint
CREATE INDEX "shop_banners_title_idx" ON "shop_banners" USING btree ("title");--> statement-breakpoint
CREATE INDEX "shop_banners_link_type_idx" ON "shop_banners" USING btree ("link_type");--> statement-breakpoint
CREATE INDEX "shop_banners_sort_idx" ON "shop_banners" USING btree ("sort");--> statement-breakpoint
CREATE INDEX "shop_banners_status_idx" ON "shop_banners" USING btree ("status");