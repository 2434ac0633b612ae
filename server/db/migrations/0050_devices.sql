-- Receipt printers (devicelist) with their secrets kept encrypted apart, and their print jobs, one automatic receipt per printer and order (catalogue/devices.ts).
CREATE TABLE "device_secrets" (
	"device_id" integer PRIMARY KEY NOT NULL,
	"printer_key" text,
	"account_secret" text
);
--> statement-breakpoint
CREATE TABLE "devices" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" varchar(30) NOT NULL,
	"vendor" varchar(32) DEFAULT 'sandbox' NOT NULL,
	"sn" varchar(40) NOT NULL,
	"account_user" varchar(64),
	"sch_ids" integer[] NOT NULL,
	"copies" integer DEFAULT 1 NOT NULL,
	"auto_print" varchar(1) DEFAULT 'Y' NOT NULL,
	"sandbox_state" varchar(32) DEFAULT 'online' NOT NULL,
	"status" varchar(32) DEFAULT 'unknown' NOT NULL,
	"status_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sysid" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "print_jobs" (
	"id" serial PRIMARY KEY NOT NULL,
	"device_id" integer NOT NULL,
	"sch_id" integer NOT NULL,
	"order_kind" varchar(32) NOT NULL,
	"order_no" varchar(32) NOT NULL,
	"kind" varchar(32) NOT NULL,
	"status" varchar(32) DEFAULT 'queued' NOT NULL,
	"copies" integer DEFAULT 1 NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" varchar(32),
	"dedupe_key" varchar(32) NOT NULL,
	"provider_job_id" varchar(64),
	"preview" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"printed_at" timestamp with time zone,
	"sysid" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "device_secrets" ADD CONSTRAINT "device_secrets_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "print_jobs" ADD CONSTRAINT "print_jobs_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "print_jobs" ADD CONSTRAINT "print_jobs_sch_id_schools_id_fk" FOREIGN KEY ("sch_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "devices_sysid_id_idx" ON "devices" USING btree ("sysid","id");--> statement-breakpoint
CREATE INDEX "devices_title_idx" ON "devices" USING btree ("title");--> statement-breakpoint
CREATE INDEX "devices_vendor_idx" ON "devices" USING btree ("vendor");--> statement-breakpoint
CREATE INDEX "devices_auto_print_idx" ON "devices" USING btree ("auto_print");--> statement-breakpoint
CREATE INDEX "devices_status_idx" ON "devices" USING btree ("status");--> statement-breakpoint
CREATE INDEX "devices_created_at_idx" ON "devices" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "devices_sysid_sn_unique" ON "devices" USING btree ("sysid","sn");--> statement-breakpoint
CREATE INDEX "print_jobs_sch_id_id_idx" ON "print_jobs" USING btree ("sch_id","id");--> statement-breakpoint
CREATE INDEX "print_jobs_sysid_id_idx" ON "print_jobs" USING btree ("sysid","id");--> statement-breakpoint
CREATE INDEX "print_jobs_device_id_sch_id_sysid_id_idx" ON "print_jobs" USING btree ("device_id","sch_id","sysid","id");--> statement-breakpoint
CREATE INDEX "print_jobs_order_kind_idx" ON "print_jobs" USING btree ("order_kind");--> statement-breakpoint
CREATE INDEX "print_jobs_order_no_idx" ON "print_jobs" USING btree ("order_no");--> statement-breakpoint
CREATE INDEX "print_jobs_kind_idx" ON "print_jobs" USING btree ("kind");--> statement-breakpoint
CREATE INDEX "print_jobs_status_idx" ON "print_jobs" USING btree ("status");--> statement-breakpoint
CREATE INDEX "print_jobs_created_at_idx" ON "print_jobs" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "print_jobs_dedupe_key_unique" ON "print_jobs" USING btree ("dedupe_key");