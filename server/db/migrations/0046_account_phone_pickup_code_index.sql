-- An account's optional phone (a pickup clerk's is kept on the pickup records it verifies), and the pickup codes of each kind of order in every state, by provider: a code whose order is no longer waiting (collected, refunded) is found without reading the provider's orders (not catalogue indexes: partial, as the open codes' unique indexes are)
ALTER TABLE "users" ADD COLUMN "phone" varchar(20);--> statement-breakpoint
CREATE INDEX "shop_orders_sysid_pickup_code" ON "shop_orders" USING btree ("sysid","pickup_code") WHERE "pickup_code" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "fee_orders_sysid_pickup_code" ON "fee_orders" USING btree ("sysid","pickup_code") WHERE "pickup_code" IS NOT NULL;
