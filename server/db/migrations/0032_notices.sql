CREATE TABLE "notices" (
	"id" serial PRIMARY KEY NOT NULL,
	"sysid" integer NOT NULL,
	"sch_id" integer,
	"kind" varchar(16) NOT NULL,
	"channel" varchar(8) NOT NULL,
	"recipient" varchar(128) NOT NULL,
	"recipient_name" varchar(64) DEFAULT '' NOT NULL,
	"params" jsonb NOT NULL,
	"student_id" integer,
	"bill_id" integer,
	"dedupe_key" varchar(128),
	"status" varchar(8) DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone,
	"driver" varchar(16),
	"reference" varchar(64),
	"error" varchar(500),
	"created_by" varchar(64) NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "notices_sysid_idx" ON "notices" USING btree ("sysid","id");--> statement-breakpoint
CREATE INDEX "notices_sch_id_idx" ON "notices" USING btree ("sch_id","id");--> statement-breakpoint
CREATE INDEX "notices_recipient_idx" ON "notices" USING btree ("sysid","recipient","kind","created_at");--> statement-breakpoint
CREATE INDEX "notices_bill_id_idx" ON "notices" USING btree ("bill_id","created_at") WHERE "notices"."bill_id" is not null;--> statement-breakpoint
CREATE INDEX "notices_queued_idx" ON "notices" USING btree ("id") WHERE "notices"."status" in ('queued', 'sending');--> statement-breakpoint
CREATE UNIQUE INDEX "notices_dedupe_key_idx" ON "notices" USING btree ("dedupe_key");