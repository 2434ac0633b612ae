CREATE TABLE "fee_projects" (
	"id" serial PRIMARY KEY NOT NULL,
	"sch_id" integer NOT NULL,
	"title" varchar(50) NOT NULL,
	"amount_mode" varchar(32) DEFAULT 'fixed' NOT NULL,
	"amount" bigint,
	"min_amount" bigint,
	"max_amount" bigint,
	"required" varchar(1) DEFAULT 'Y' NOT NULL,
	"status" varchar(1) DEFAULT '1' NOT NULL,
	"remark" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sysid" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_channels" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" varchar(50) NOT NULL,
	"sysid" integer NOT NULL,
	"gateway" varchar(32) DEFAULT 'wechatpay' NOT NULL,
	"sub_mchid" varchar(32),
	"status" varchar(32) DEFAULT 'draft' NOT NULL,
	"reject_reason" text,
	"subject" varchar(100),
	"licence_no" varchar(18),
	"legal_person" varchar(50),
	"contact_name" varchar(50),
	"contact_phone" varchar(20),
	"bank_name" varchar(100),
	"bank_account" varchar(32),
	"reviewed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "provider_fee_projects" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" varchar(50) NOT NULL,
	"amount_mode" varchar(32) DEFAULT 'fixed' NOT NULL,
	"amount" bigint,
	"min_amount" bigint,
	"max_amount" bigint,
	"required" varchar(1) DEFAULT 'Y' NOT NULL,
	"status" varchar(1) DEFAULT '1' NOT NULL,
	"remark" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sysid" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "school_channels" (
	"id" serial PRIMARY KEY NOT NULL,
	"sch_id" integer NOT NULL,
	"paychnl_id" integer NOT NULL,
	"bound_at" timestamp with time zone,
	"bound_by" varchar(50),
	"sysid" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "fee_projects" ADD CONSTRAINT "fee_projects_sch_id_schools_id_fk" FOREIGN KEY ("sch_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_channels" ADD CONSTRAINT "payment_channels_sysid_providers_id_fk" FOREIGN KEY ("sysid") REFERENCES "public"."providers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "school_channels" ADD CONSTRAINT "school_channels_sch_id_schools_id_fk" FOREIGN KEY ("sch_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "school_channels" ADD CONSTRAINT "school_channels_paychnl_id_payment_channels_id_fk" FOREIGN KEY ("paychnl_id") REFERENCES "public"."payment_channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "fee_projects_sch_id_id_idx" ON "fee_projects" USING btree ("sch_id","id");--> statement-breakpoint
CREATE INDEX "fee_projects_sysid_id_idx" ON "fee_projects" USING btree ("sysid","id");--> statement-breakpoint
CREATE INDEX "fee_projects_amount_mode_idx" ON "fee_projects" USING btree ("amount_mode");--> statement-breakpoint
CREATE INDEX "fee_projects_amount_idx" ON "fee_projects" USING btree ("amount");--> statement-breakpoint
CREATE INDEX "fee_projects_status_idx" ON "fee_projects" USING btree ("status");--> statement-breakpoint
CREATE INDEX "fee_projects_created_at_idx" ON "fee_projects" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "fee_projects_sch_id_title_unique" ON "fee_projects" USING btree ("sch_id","title");--> statement-breakpoint
CREATE INDEX "payment_channels_sysid_id_idx" ON "payment_channels" USING btree ("sysid","id");--> statement-breakpoint
CREATE INDEX "payment_channels_gateway_idx" ON "payment_channels" USING btree ("gateway");--> statement-breakpoint
CREATE INDEX "payment_channels_status_idx" ON "payment_channels" USING btree ("status");--> statement-breakpoint
CREATE INDEX "payment_channels_created_at_idx" ON "payment_channels" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_channels_sysid_title_unique" ON "payment_channels" USING btree ("sysid","title");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_channels_sub_mchid_unique" ON "payment_channels" USING btree ("sub_mchid");--> statement-breakpoint
CREATE INDEX "provider_fee_projects_sysid_id_idx" ON "provider_fee_projects" USING btree ("sysid","id");--> statement-breakpoint
CREATE INDEX "provider_fee_projects_amount_mode_idx" ON "provider_fee_projects" USING btree ("amount_mode");--> statement-breakpoint
CREATE INDEX "provider_fee_projects_amount_idx" ON "provider_fee_projects" USING btree ("amount");--> statement-breakpoint
CREATE INDEX "provider_fee_projects_status_idx" ON "provider_fee_projects" USING btree ("status");--> statement-breakpoint
CREATE INDEX "provider_fee_projects_created_at_idx" ON "provider_fee_projects" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "provider_fee_projects_sysid_title_unique" ON "provider_fee_projects" USING btree ("sysid","title");--> statement-breakpoint
CREATE INDEX "school_channels_sch_id_id_idx" ON "school_channels" USING btree ("sch_id","id");--> statement-breakpoint
CREATE INDEX "school_channels_sysid_id_idx" ON "school_channels" USING btree ("sysid","id");--> statement-breakpoint
CREATE INDEX "school_channels_paychnl_id_sch_id_sysid_id_idx" ON "school_channels" USING btree ("paychnl_id","sch_id","sysid","id");--> statement-breakpoint
CREATE UNIQUE INDEX "school_channels_sch_id_unique" ON "school_channels" USING btree ("sch_id");