CREATE TABLE "payer_wechat_ids" (
	"token_hash" varchar(64) PRIMARY KEY NOT NULL,
	"appid" varchar(32) NOT NULL,
	"openid" varchar(128) NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payment_merchants" ADD COLUMN "app_secret_enc" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX "payer_wechat_ids_expires_at_idx" ON "payer_wechat_ids" USING btree ("expires_at");