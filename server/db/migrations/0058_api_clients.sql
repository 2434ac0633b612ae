-- API clients of the open API (catalogue/clients.ts) and their bearer tokens
CREATE TABLE "api_tokens" (
	"token_hash" varchar(64) PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"scopes" varchar(200) NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "api_clients" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" varchar(50) NOT NULL,
	"sysid" integer NOT NULL,
	"sch_id" integer,
	"client_id" varchar(40),
	"secret_hash" varchar(64),
	"secret_sealed" varchar(200),
	"scopes" varchar(32)[] NOT NULL,
	"allowed_ips" text,
	"rate_limit" integer DEFAULT 120 NOT NULL,
	"webhook_url" varchar(300),
	"status" varchar(1) DEFAULT '1' NOT NULL,
	"last_used_at" timestamp with time zone,
	"remark" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_client_id_api_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."api_clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_clients" ADD CONSTRAINT "api_clients_sysid_providers_id_fk" FOREIGN KEY ("sysid") REFERENCES "public"."providers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_clients" ADD CONSTRAINT "api_clients_sch_id_schools_id_fk" FOREIGN KEY ("sch_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_tokens_client_idx" ON "api_tokens" USING btree ("client_id","expires_at");--> statement-breakpoint
CREATE INDEX "api_clients_title_idx" ON "api_clients" USING btree ("title");--> statement-breakpoint
CREATE INDEX "api_clients_sysid_id_idx" ON "api_clients" USING btree ("sysid","id");--> statement-breakpoint
CREATE INDEX "api_clients_sch_id_id_idx" ON "api_clients" USING btree ("sch_id","id");--> statement-breakpoint
CREATE INDEX "api_clients_status_idx" ON "api_clients" USING btree ("status");--> statement-breakpoint
CREATE INDEX "api_clients_last_used_at_idx" ON "api_clients" USING btree ("last_used_at");--> statement-breakpoint
CREATE INDEX "api_clients_created_at_idx" ON "api_clients" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "api_clients_client_id_unique" ON "api_clients" USING btree ("client_id");