CREATE TABLE "bill_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"bill_id" integer NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"title" varchar(50) NOT NULL,
	"amount" bigint NOT NULL,
	"sysid" integer NOT NULL,
	"sch_id" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bill_items" ADD CONSTRAINT "bill_items_bill_id_bills_id_fk" FOREIGN KEY ("bill_id") REFERENCES "public"."bills"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bill_items_sch_id_sort_id_idx" ON "bill_items" USING btree ("sch_id","sort","id");--> statement-breakpoint
CREATE INDEX "bill_items_sysid_sort_id_idx" ON "bill_items" USING btree ("sysid","sort","id");--> statement-breakpoint
CREATE INDEX "bill_items_bill_id_sort_id_idx" ON "bill_items" USING btree ("bill_id","sort","id");