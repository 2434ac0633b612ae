-- The shop's DIY pages (a banner may lead to one), the provider's photo library in folders, and its enterprise WeChat customer-service accounts.
CREATE TABLE "photo_folders" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" varchar(20) NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sysid" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "photos" (
	"id" serial PRIMARY KEY NOT NULL,
	"image" varchar(500) NOT NULL,
	"title" varchar(60) NOT NULL,
	"folder_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sysid" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "qw_kf_accounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(30) NOT NULL,
	"avatar" varchar(500),
	"open_kfid" varchar(64) NOT NULL,
	"url" varchar(300) NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"status" varchar(1) DEFAULT '1' NOT NULL,
	"synced_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sysid" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shop_diy_pages" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" varchar(20) NOT NULL,
	"is_home" varchar(1) DEFAULT 'N' NOT NULL,
	"blocks" jsonb NOT NULL,
	"status" varchar(1) DEFAULT '1' NOT NULL,
	"updated_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sysid" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "shop_banners" ADD COLUMN "page_id" integer;--> statement-breakpoint
ALTER TABLE "photos" ADD CONSTRAINT "photos_folder_id_photo_folders_id_fk" FOREIGN KEY ("folder_id") REFERENCES "public"."photo_folders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "photo_folders_sysid_sort_id_idx" ON "photo_folders" USING btree ("sysid","sort","id");--> statement-breakpoint
CREATE INDEX "photo_folders_sort_idx" ON "photo_folders" USING btree ("sort");--> statement-breakpoint
CREATE UNIQUE INDEX "photo_folders_sysid_title_unique" ON "photo_folders" USING btree ("sysid","title");--> statement-breakpoint
CREATE INDEX "photos_sysid_id_idx" ON "photos" USING btree ("sysid","id");--> statement-breakpoint
CREATE INDEX "photos_title_idx" ON "photos" USING btree ("title");--> statement-breakpoint
CREATE INDEX "photos_folder_id_sysid_id_idx" ON "photos" USING btree ("folder_id","sysid","id");--> statement-breakpoint
CREATE INDEX "photos_created_at_idx" ON "photos" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "qw_kf_accounts_sysid_sort_id_idx" ON "qw_kf_accounts" USING btree ("sysid","sort","id");--> statement-breakpoint
CREATE INDEX "qw_kf_accounts_name_idx" ON "qw_kf_accounts" USING btree ("name");--> statement-breakpoint
CREATE INDEX "qw_kf_accounts_sort_idx" ON "qw_kf_accounts" USING btree ("sort");--> statement-breakpoint
CREATE INDEX "qw_kf_accounts_status_idx" ON "qw_kf_accounts" USING btree ("status");--> statement-breakpoint
CREATE UNIQUE INDEX "qw_kf_accounts_sysid_open_kfid_unique" ON "qw_kf_accounts" USING btree ("sysid","open_kfid");--> statement-breakpoint
CREATE INDEX "shop_diy_pages_sysid_id_idx" ON "shop_diy_pages" USING btree ("sysid","id");--> statement-breakpoint
CREATE INDEX "shop_diy_pages_title_idx" ON "shop_diy_pages" USING btree ("title");--> statement-breakpoint
CREATE INDEX "shop_diy_pages_is_home_idx" ON "shop_diy_pages" USING btree ("is_home");--> statement-breakpoint
CREATE INDEX "shop_diy_pages_status_idx" ON "shop_diy_pages" USING btree ("status");--> statement-breakpoint
CREATE INDEX "shop_diy_pages_updated_at_idx" ON "shop_diy_pages" USING btree ("updated_at");--> statement-breakpoint
ALTER TABLE "shop_banners" ADD CONSTRAINT "shop_banners_page_id_shop_diy_pages_id_fk" FOREIGN KEY ("page_id") REFERENCES "public"."shop_diy_pages"("id") ON DELETE no action ON UPDATE no action;