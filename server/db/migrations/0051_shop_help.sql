-- The shop's questions and answers (shophelp), shown to parents under its goods.
CREATE TABLE "shop_help" (
	"id" serial PRIMARY KEY NOT NULL,
	"question" varchar(100) NOT NULL,
	"answer" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"status" varchar(1) DEFAULT '1' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sysid" integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX "shop_help_sysid_sort_id_idx" ON "shop_help" USING btree ("sysid","sort","id");--> statement-breakpoint
CREATE INDEX "shop_help_question_idx" ON "shop_help" USING btree ("question");--> statement-breakpoint
CREATE INDEX "shop_help_sort_idx" ON "shop_help" USING btree ("sort");--> statement-breakpoint
CREATE INDEX "shop_help_status_idx" ON "shop_help" USING btree ("status");