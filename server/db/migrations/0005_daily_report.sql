CREATE TABLE "daily_report_bind_tokens" (
	"token_hash" varchar(64) PRIMARY KEY NOT NULL,
	"sysid" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "daily_report_subscribers" (
	"id" serial PRIMARY KEY NOT NULL,
	"sysid" integer NOT NULL,
	"openid" varchar(64) NOT NULL,
	"nickname" varchar(64) NOT NULL,
	"headurl" varchar(500) DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "daily_report_bind_tokens_expires_idx" ON "daily_report_bind_tokens" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "daily_report_subscribers_unique" ON "daily_report_subscribers" USING btree ("sysid","openid");