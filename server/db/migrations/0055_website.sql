-- the public website: its articles (catalogue/website.ts); the home page is a settings record
CREATE TABLE "site_articles" (
	"id" serial PRIMARY KEY NOT NULL,
	"cover" varchar(500),
	"title" varchar(100) NOT NULL,
	"summary" text,
	"content" text NOT NULL,
	"status" varchar(32) DEFAULT 'draft' NOT NULL,
	"published_at" timestamp with time zone,
	"sort" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "site_articles_title_idx" ON "site_articles" USING btree ("title");--> statement-breakpoint
CREATE INDEX "site_articles_status_idx" ON "site_articles" USING btree ("status");--> statement-breakpoint
CREATE INDEX "site_articles_published_at_idx" ON "site_articles" USING btree ("published_at");--> statement-breakpoint
CREATE INDEX "site_articles_sort_idx" ON "site_articles" USING btree ("sort");--> statement-breakpoint
CREATE INDEX "site_articles_updated_at_idx" ON "site_articles" USING btree ("updated_at");