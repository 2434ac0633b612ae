-- the help centre: its categories and questions (catalogue/help.ts)
CREATE TABLE "help_categories" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" varchar(30) NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"status" varchar(1) DEFAULT '1' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "help_problems" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" varchar(100) NOT NULL,
	"cate_id" integer NOT NULL,
	"content" text NOT NULL,
	"roles" varchar(32)[],
	"sort" integer DEFAULT 0 NOT NULL,
	"status" varchar(1) DEFAULT '1' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "help_problems" ADD CONSTRAINT "help_problems_cate_id_help_categories_id_fk" FOREIGN KEY ("cate_id") REFERENCES "public"."help_categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "help_categories_sort_idx" ON "help_categories" USING btree ("sort");--> statement-breakpoint
CREATE INDEX "help_categories_status_idx" ON "help_categories" USING btree ("status");--> statement-breakpoint
CREATE UNIQUE INDEX "help_categories_title_unique" ON "help_categories" USING btree ("title");--> statement-breakpoint
CREATE INDEX "help_problems_title_idx" ON "help_problems" USING btree ("title");--> statement-breakpoint
CREATE INDEX "help_problems_cate_id_sort_id_idx" ON "help_problems" USING btree ("cate_id","sort","id");--> statement-breakpoint
CREATE INDEX "help_problems_sort_idx" ON "help_problems" USING btree ("sort");--> statement-breakpoint
CREATE INDEX "help_problems_status_idx" ON "help_problems" USING btree ("status");