CREATE TABLE "meal_packages" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" varchar(100) NOT NULL,
	"term_months" integer NOT NULL,
	"fee" bigint NOT NULL,
	"status" varchar(32) DEFAULT '1' NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"remark" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "meal_packages_title_idx" ON "meal_packages" USING btree ("title");--> statement-breakpoint
CREATE INDEX "meal_packages_term_months_idx" ON "meal_packages" USING btree ("term_months");--> statement-breakpoint
CREATE INDEX "meal_packages_fee_idx" ON "meal_packages" USING btree ("fee");--> statement-breakpoint
CREATE INDEX "meal_packages_status_idx" ON "meal_packages" USING btree ("status");--> statement-breakpoint
CREATE INDEX "meal_packages_sort_idx" ON "meal_packages" USING btree ("sort");--> statement-breakpoint
CREATE INDEX "meal_packages_created_at_idx" ON "meal_packages" USING btree ("created_at");