CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"user_id" integer,
	"username" varchar(50) DEFAULT '' NOT NULL,
	"action" varchar(50) NOT NULL,
	"entity" varchar(50) DEFAULT '' NOT NULL,
	"entity_id" varchar(50) DEFAULT '' NOT NULL,
	"ip" varchar(64) DEFAULT '' NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "login_throttle" (
	"key" varchar(200) PRIMARY KEY NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"locked_until" timestamp with time zone,
	"lock_count" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pickup_point_users" (
	"user_id" integer NOT NULL,
	"pickup_point_id" integer NOT NULL,
	CONSTRAINT "pickup_point_users_user_id_pickup_point_id_pk" PRIMARY KEY("user_id","pickup_point_id")
);
--> statement-breakpoint
CREATE TABLE "pickup_points" (
	"id" serial PRIMARY KEY NOT NULL,
	"sysid" integer NOT NULL,
	"title" varchar(100) NOT NULL,
	"address" varchar(200) DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "providers" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" varchar(100) NOT NULL,
	"contact" varchar(50),
	"phone" varchar(20),
	"servicer_ver" varchar(32) DEFAULT 'v2' NOT NULL,
	"end_time" date NOT NULL,
	"year_fee" bigint DEFAULT 0 NOT NULL,
	"xcx_upload" varchar(1) DEFAULT 'N' NOT NULL,
	"is_show_fee" varchar(1) DEFAULT 'N' NOT NULL,
	"open_activity_mode" varchar(32) DEFAULT '1' NOT NULL,
	"status" varchar(32) DEFAULT '1' NOT NULL,
	"remark" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "schools" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" varchar(100) NOT NULL,
	"contact" varchar(50),
	"phone" varchar(20),
	"address" varchar(200),
	"endtime" date NOT NULL,
	"select_paymode" varchar(1) DEFAULT 'N' NOT NULL,
	"status" varchar(32) DEFAULT '1' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sysid" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"token_hash" varchar(64) PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"ip" varchar(64) DEFAULT '' NOT NULL,
	"user_agent" varchar(500) DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "site_settings" (
	"id" integer PRIMARY KEY NOT NULL,
	"title" varchar(100) DEFAULT '' NOT NULL,
	"keywords" varchar(300) DEFAULT '' NOT NULL,
	"description" varchar(500) DEFAULT '' NOT NULL,
	"icon" varchar(500) DEFAULT '' NOT NULL,
	"kfurl" varchar(500) DEFAULT '' NOT NULL,
	"user_manual_url" varchar(500) DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_schools" (
	"user_id" integer NOT NULL,
	"sch_id" integer NOT NULL,
	CONSTRAINT "user_schools_user_id_sch_id_pk" PRIMARY KEY("user_id","sch_id")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"username" varchar(50) NOT NULL,
	"password_hash" text NOT NULL,
	"name" varchar(100) DEFAULT '' NOT NULL,
	"avatar" varchar(500) DEFAULT '' NOT NULL,
	"introduction" varchar(500) DEFAULT '' NOT NULL,
	"user_type" varchar(20) NOT NULL,
	"servicer_ver" varchar(2) DEFAULT 'v2' NOT NULL,
	"sysid" integer,
	"schid" integer,
	"is_superadmin" varchar(1) DEFAULT 'N' NOT NULL,
	"status" varchar(1) DEFAULT '1' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_username_unique" UNIQUE("username")
);
--> statement-breakpoint
ALTER TABLE "pickup_point_users" ADD CONSTRAINT "pickup_point_users_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pickup_point_users" ADD CONSTRAINT "pickup_point_users_pickup_point_id_pickup_points_id_fk" FOREIGN KEY ("pickup_point_id") REFERENCES "public"."pickup_points"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_schools" ADD CONSTRAINT "user_schools_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_at_idx" ON "audit_log" USING btree ("at");--> statement-breakpoint
CREATE INDEX "audit_log_user_idx" ON "audit_log" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "audit_log_entity_idx" ON "audit_log" USING btree ("entity","entity_id");--> statement-breakpoint
CREATE INDEX "pickup_point_users_point_idx" ON "pickup_point_users" USING btree ("pickup_point_id");--> statement-breakpoint
CREATE INDEX "pickup_points_sysid_idx" ON "pickup_points" USING btree ("sysid");--> statement-breakpoint
CREATE INDEX "providers_phone_idx" ON "providers" USING btree ("phone");--> statement-breakpoint
CREATE INDEX "providers_servicer_ver_idx" ON "providers" USING btree ("servicer_ver");--> statement-breakpoint
CREATE INDEX "providers_end_time_idx" ON "providers" USING btree ("end_time");--> statement-breakpoint
CREATE INDEX "providers_xcx_upload_idx" ON "providers" USING btree ("xcx_upload");--> statement-breakpoint
CREATE INDEX "providers_status_idx" ON "providers" USING btree ("status");--> statement-breakpoint
CREATE INDEX "providers_created_at_idx" ON "providers" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "providers_title_unique" ON "providers" USING btree ("title");--> statement-breakpoint
CREATE INDEX "schools_title_idx" ON "schools" USING btree ("title");--> statement-breakpoint
CREATE INDEX "schools_endtime_idx" ON "schools" USING btree ("endtime");--> statement-breakpoint
CREATE INDEX "schools_status_idx" ON "schools" USING btree ("status");--> statement-breakpoint
CREATE INDEX "schools_created_at_idx" ON "schools" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "schools_sysid_idx" ON "schools" USING btree ("sysid");--> statement-breakpoint
CREATE INDEX "sessions_user_id_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "user_schools_sch_id_idx" ON "user_schools" USING btree ("sch_id");--> statement-breakpoint
CREATE INDEX "users_sysid_idx" ON "users" USING btree ("sysid");--> statement-breakpoint
CREATE INDEX "users_schid_idx" ON "users" USING btree ("schid");