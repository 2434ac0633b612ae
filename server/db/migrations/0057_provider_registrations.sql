-- providers who sign up and the operators decision (catalogue/registrations.ts)
CREATE TABLE "provider_registrations" (
	"id" serial PRIMARY KEY NOT NULL,
	"org" varchar(100) NOT NULL,
	"contact" varchar(50) NOT NULL,
	"mobile" varchar(20) NOT NULL,
	"email" varchar(100) NOT NULL,
	"region" varchar(32) NOT NULL,
	"licence_images" varchar(500)[] NOT NULL,
	"message" text,
	"status" varchar(32) DEFAULT 'pending' NOT NULL,
	"reject_reason" varchar(200),
	"reviewed_by" varchar(50),
	"reviewed_at" timestamp with time zone,
	"provider_id" integer,
	"username" varchar(50),
	"ip" varchar(64),
	"follow_hash" varchar(64),
	"password_hash" varchar(64),
	"password_expires_at" timestamp with time zone,
	"password_set_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "provider_registrations" ADD CONSTRAINT "provider_registrations_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "provider_registrations_org_idx" ON "provider_registrations" USING btree ("org");--> statement-breakpoint
CREATE INDEX "provider_registrations_mobile_idx" ON "provider_registrations" USING btree ("mobile");--> statement-breakpoint
CREATE INDEX "provider_registrations_region_idx" ON "provider_registrations" USING btree ("region");--> statement-breakpoint
CREATE INDEX "provider_registrations_status_idx" ON "provider_registrations" USING btree ("status");--> statement-breakpoint
CREATE INDEX "provider_registrations_created_at_idx" ON "provider_registrations" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "provider_registrations_follow_hash_unique" ON "provider_registrations" USING btree ("follow_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "provider_registrations_password_hash_unique" ON "provider_registrations" USING btree ("password_hash");