-- The WeChat third-party platform's verify ticket and component token, shared by every process; each app's platform tokens
CREATE TABLE "mini_program_platform_state" (
	"name" varchar(40) PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mini_programs" ADD COLUMN "auth_refresh_token" text;--> statement-breakpoint
ALTER TABLE "mini_programs" ADD COLUMN "auth_access_token" text;--> statement-breakpoint
ALTER TABLE "mini_programs" ADD COLUMN "auth_token_expires_at" timestamp with time zone;