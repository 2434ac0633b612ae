-- Express templates (expresstpl) and their rules by province; a goods item names its template, a SKU its weight; a shop order keeps its freight, every order of goods the receiver's province.
CREATE TABLE "express_rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"template_id" integer NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"regions" varchar(32)[],
	"first_units" integer DEFAULT 1 NOT NULL,
	"first_price" bigint DEFAULT 0 NOT NULL,
	"extra_units" integer DEFAULT 1 NOT NULL,
	"extra_price" bigint DEFAULT 0 NOT NULL,
	"free_amount" bigint,
	"free_count" integer,
	"sysid" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "express_templates" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" varchar(30) NOT NULL,
	"charge_by" varchar(32) DEFAULT 'count' NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"status" varchar(1) DEFAULT '1' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sysid" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "fee_orders" ADD COLUMN "receiver_province" varchar(32);--> statement-breakpoint
ALTER TABLE "goods" ADD COLUMN "express_tpl_id" integer;--> statement-breakpoint
ALTER TABLE "goods_skus" ADD COLUMN "weight" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "shop_orders" ADD COLUMN "freight" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "shop_orders" ADD COLUMN "receiver_province" varchar(32);--> statement-breakpoint
ALTER TABLE "express_rules" ADD CONSTRAINT "express_rules_template_id_express_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."express_templates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "express_rules_sysid_sort_id_idx" ON "express_rules" USING btree ("sysid","sort","id");--> statement-breakpoint
CREATE INDEX "express_rules_template_id_sort_id_idx" ON "express_rules" USING btree ("template_id","sort","id");--> statement-breakpoint
CREATE INDEX "express_templates_sysid_sort_id_idx" ON "express_templates" USING btree ("sysid","sort","id");--> statement-breakpoint
CREATE INDEX "express_templates_charge_by_idx" ON "express_templates" USING btree ("charge_by");--> statement-breakpoint
CREATE INDEX "express_templates_sort_idx" ON "express_templates" USING btree ("sort");--> statement-breakpoint
CREATE INDEX "express_templates_status_idx" ON "express_templates" USING btree ("status");--> statement-breakpoint
CREATE INDEX "express_templates_created_at_idx" ON "express_templates" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "express_templates_sysid_title_unique" ON "express_templates" USING btree ("sysid","title");--> statement-breakpoint
ALTER TABLE "goods" ADD CONSTRAINT "goods_express_tpl_id_express_templates_id_fk" FOREIGN KEY ("express_tpl_id") REFERENCES "public"."express_templates"("id") ON DELETE no action ON UPDATE no action;