-- Shop orders: the express company is one of our codes (enum, wider column); the delivered orders the completion job reads, by when they were sent.
ALTER TABLE "shop_orders" ALTER COLUMN "express_code" SET DATA TYPE varchar(32);--> statement-breakpoint
CREATE INDEX "shop_orders_status_delivered_at_idx" ON "shop_orders" USING btree ("status","delivered_at");