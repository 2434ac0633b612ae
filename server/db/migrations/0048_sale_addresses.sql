-- A provider's return addresses (catalogue/shopFace.ts saleaddresslist)
CREATE TABLE "sale_addresses" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(30) NOT NULL,
	"phone" varchar(20) NOT NULL,
	"address" varchar(200) NOT NULL,
	"is_default" varchar(1) DEFAULT 'N' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sysid" integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX "sale_addresses_sysid_id_idx" ON "sale_addresses" USING btree ("sysid","id");