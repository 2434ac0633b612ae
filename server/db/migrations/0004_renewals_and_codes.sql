CREATE TABLE "activation_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" varchar(24) NOT NULL,
	"batch_no" varchar(32) NOT NULL,
	"target" varchar(32) NOT NULL,
	"sysid" integer,
	"sch_id" integer,
	"meal_id" integer,
	"title" varchar(100) NOT NULL,
	"term_months" integer NOT NULL,
	"status" varchar(32) DEFAULT 'unused' NOT NULL,
	"expires_on" date NOT NULL,
	"used_at" timestamp with time zone,
	"used_by" varchar(50),
	"used_sysid" integer,
	"used_sch_id" integer,
	"remark" text,
	"created_by" varchar(50),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "provider_extensions" (
	"id" serial PRIMARY KEY NOT NULL,
	"service_title" varchar(100) NOT NULL,
	"way" varchar(32) NOT NULL,
	"title" varchar(100) NOT NULL,
	"term_months" integer NOT NULL,
	"fee" bigint DEFAULT 0 NOT NULL,
	"old_end" date,
	"new_end" date NOT NULL,
	"pay_no" varchar(32),
	"act_code" varchar(24),
	"remark" text,
	"operator" varchar(50),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sysid" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "school_renewals" (
	"id" serial PRIMARY KEY NOT NULL,
	"school_title" varchar(100) NOT NULL,
	"way" varchar(32) NOT NULL,
	"title" varchar(100) NOT NULL,
	"term_months" integer NOT NULL,
	"fee" bigint DEFAULT 0 NOT NULL,
	"old_end" date,
	"new_end" date NOT NULL,
	"pay_no" varchar(32),
	"act_code" varchar(24),
	"remark" text,
	"operator" varchar(50),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sysid" integer NOT NULL,
	"sch_id" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payment_orders" ADD COLUMN "applied_end" date;--> statement-breakpoint
CREATE INDEX "activation_codes_batch_no_idx" ON "activation_codes" USING btree ("batch_no");--> statement-breakpoint
CREATE INDEX "activation_codes_target_idx" ON "activation_codes" USING btree ("target");--> statement-breakpoint
CREATE INDEX "activation_codes_sysid_idx" ON "activation_codes" USING btree ("sysid");--> statement-breakpoint
CREATE INDEX "activation_codes_sch_id_idx" ON "activation_codes" USING btree ("sch_id");--> statement-breakpoint
CREATE INDEX "activation_codes_status_idx" ON "activation_codes" USING btree ("status");--> statement-breakpoint
CREATE INDEX "activation_codes_expires_on_idx" ON "activation_codes" USING btree ("expires_on");--> statement-breakpoint
CREATE INDEX "activation_codes_used_at_idx" ON "activation_codes" USING btree ("used_at");--> statement-breakpoint
CREATE INDEX "activation_codes_created_at_idx" ON "activation_codes" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "activation_codes_code_unique" ON "activation_codes" USING btree ("code");--> statement-breakpoint
CREATE INDEX "provider_extensions_service_title_idx" ON "provider_extensions" USING btree ("service_title");--> statement-breakpoint
CREATE INDEX "provider_extensions_way_idx" ON "provider_extensions" USING btree ("way");--> statement-breakpoint
CREATE INDEX "provider_extensions_new_end_idx" ON "provider_extensions" USING btree ("new_end");--> statement-breakpoint
CREATE INDEX "provider_extensions_pay_no_idx" ON "provider_extensions" USING btree ("pay_no");--> statement-breakpoint
CREATE INDEX "provider_extensions_act_code_idx" ON "provider_extensions" USING btree ("act_code");--> statement-breakpoint
CREATE INDEX "provider_extensions_created_at_idx" ON "provider_extensions" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "provider_extensions_sysid_idx" ON "provider_extensions" USING btree ("sysid");--> statement-breakpoint
CREATE INDEX "school_renewals_school_title_idx" ON "school_renewals" USING btree ("school_title");--> statement-breakpoint
CREATE INDEX "school_renewals_way_idx" ON "school_renewals" USING btree ("way");--> statement-breakpoint
CREATE INDEX "school_renewals_new_end_idx" ON "school_renewals" USING btree ("new_end");--> statement-breakpoint
CREATE INDEX "school_renewals_pay_no_idx" ON "school_renewals" USING btree ("pay_no");--> statement-breakpoint
CREATE INDEX "school_renewals_act_code_idx" ON "school_renewals" USING btree ("act_code");--> statement-breakpoint
CREATE INDEX "school_renewals_created_at_idx" ON "school_renewals" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "school_renewals_sysid_idx" ON "school_renewals" USING btree ("sysid");--> statement-breakpoint
CREATE INDEX "school_renewals_sch_id_idx" ON "school_renewals" USING btree ("sch_id");