ALTER TABLE "payment_orders" ADD COLUMN "gateway_asked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payment_orders" ADD COLUMN "payer_key" varchar(64);