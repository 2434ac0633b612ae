-- Mini-programs published for the providers, and the publisher's calls (catalogue/miniPrograms.ts)
CREATE TABLE "mini_program_calls" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"sysid" integer NOT NULL,
	"call" varchar(60) NOT NULL,
	"request" text,
	"errcode" integer DEFAULT 0 NOT NULL,
	"answer" text,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mini_programs" (
	"id" serial PRIMARY KEY NOT NULL,
	"nickname" varchar(50) NOT NULL,
	"platform" varchar(32) NOT NULL,
	"appid" varchar(32) NOT NULL,
	"sysid" integer,
	"auth_status" varchar(32) DEFAULT 'authorized' NOT NULL,
	"ext_json" text,
	"publish_status" varchar(32) DEFAULT 'none' NOT NULL,
	"exp_version" varchar(64),
	"exp_qrcode" varchar(500),
	"audit_id" varchar(32),
	"audit_reason" text,
	"live_version" varchar(64),
	"previous_version" varchar(64),
	"released_at" timestamp with time zone,
	"privacy_dev" text,
	"privacy_live" text,
	"last_error" varchar(300),
	"sandbox_error" varchar(8),
	"sandbox_audit" varchar(220),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mini_program_calls" ADD CONSTRAINT "mini_program_calls_app_id_mini_programs_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."mini_programs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mini_program_calls" ADD CONSTRAINT "mini_program_calls_sysid_providers_id_fk" FOREIGN KEY ("sysid") REFERENCES "public"."providers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mini_programs" ADD CONSTRAINT "mini_programs_sysid_providers_id_fk" FOREIGN KEY ("sysid") REFERENCES "public"."providers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mini_program_calls_app_id_id_idx" ON "mini_program_calls" USING btree ("app_id","id");--> statement-breakpoint
CREATE INDEX "mini_program_calls_call_idx" ON "mini_program_calls" USING btree ("call");--> statement-breakpoint
CREATE INDEX "mini_program_calls_at_idx" ON "mini_program_calls" USING btree ("at");--> statement-breakpoint
CREATE INDEX "mini_programs_nickname_idx" ON "mini_programs" USING btree ("nickname");--> statement-breakpoint
CREATE INDEX "mini_programs_platform_idx" ON "mini_programs" USING btree ("platform");--> statement-breakpoint
CREATE INDEX "mini_programs_sysid_id_idx" ON "mini_programs" USING btree ("sysid","id");--> statement-breakpoint
CREATE INDEX "mini_programs_auth_status_idx" ON "mini_programs" USING btree ("auth_status");--> statement-breakpoint
CREATE INDEX "mini_programs_publish_status_idx" ON "mini_programs" USING btree ("publish_status");--> statement-breakpoint
CREATE INDEX "mini_programs_released_at_idx" ON "mini_programs" USING btree ("released_at");--> statement-breakpoint
CREATE INDEX "mini_programs_created_at_idx" ON "mini_programs" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "mini_programs_appid_unique" ON "mini_programs" USING btree ("appid");