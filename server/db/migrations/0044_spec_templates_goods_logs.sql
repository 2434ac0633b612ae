-- Spec templates (a v1 provider's spec names with their values, the title unique within the provider) and the price and stock log (each price or stock change a person made to a goods SKU or a v1 fee project, before and after, who and when; indexed for every filter of goodslogs)
CREATE TABLE "goods_logs" (
	"id" serial PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"kind" varchar(32) NOT NULL,
	"record_id" integer NOT NULL,
	"title" varchar(60) NOT NULL,
	"specs" varchar(200),
	"field" varchar(32) NOT NULL,
	"before_value" varchar(20),
	"after_value" varchar(20),
	"user_id" integer,
	"username" varchar(50),
	"sysid" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "spec_templates" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" varchar(30) NOT NULL,
	"specs" jsonb NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"status" varchar(1) DEFAULT '1' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sysid" integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX "goods_logs_sysid_created_at_id_idx" ON "goods_logs" USING btree ("sysid","created_at","id");--> statement-breakpoint
CREATE INDEX "goods_logs_created_at_idx" ON "goods_logs" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "goods_logs_kind_idx" ON "goods_logs" USING btree ("kind");--> statement-breakpoint
CREATE INDEX "goods_logs_title_idx" ON "goods_logs" USING btree ("title");--> statement-breakpoint
CREATE INDEX "goods_logs_field_idx" ON "goods_logs" USING btree ("field");--> statement-breakpoint
CREATE INDEX "goods_logs_username_idx" ON "goods_logs" USING btree ("username");--> statement-breakpoint
CREATE INDEX "spec_templates_sysid_sort_id_idx" ON "spec_templates" USING btree ("sysid","sort","id");--> statement-breakpoint
CREATE INDEX "spec_templates_sort_idx" ON "spec_templates" USING btree ("sort");--> statement-breakpoint
CREATE INDEX "spec_templates_status_idx" ON "spec_templates" USING btree ("status");--> statement-breakpoint
CREATE INDEX "spec_templates_created_at_idx" ON "spec_templates" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "spec_templates_sysid_title_unique" ON "spec_templates" USING btree ("sysid","title");