-- Pickup points become a catalogue entity (catalogue/retail.ts): their verifiers and schools are kept on the point,
-- the clerks of pickup_point_users move into `verifiers`, and a point made before serves all its provider's schools.
ALTER TABLE "pickup_points" ADD COLUMN "phone" varchar(20);--> statement-breakpoint
ALTER TABLE "pickup_points" ADD COLUMN "opening_hours" varchar(100);--> statement-breakpoint
ALTER TABLE "pickup_points" ADD COLUMN "verifiers" integer[];--> statement-breakpoint
ALTER TABLE "pickup_points" ADD COLUMN "sch_ids" integer[];--> statement-breakpoint
ALTER TABLE "pickup_points" ADD COLUMN "status" varchar(1) DEFAULT '1' NOT NULL;--> statement-breakpoint
UPDATE "pickup_points" p SET "verifiers" = (SELECT array_agg(u."user_id" ORDER BY u."user_id") FROM "pickup_point_users" u WHERE u."pickup_point_id" = p."id");--> statement-breakpoint
UPDATE "pickup_points" p SET "sch_ids" = coalesce((SELECT array_agg(s."id" ORDER BY s."id") FROM "schools" s WHERE s."sysid" = p."sysid"), '{}');--> statement-breakpoint
ALTER TABLE "pickup_points" ALTER COLUMN "sch_ids" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "pickup_points" ALTER COLUMN "address" DROP DEFAULT;--> statement-breakpoint
DROP TABLE "pickup_point_users" CASCADE;--> statement-breakpoint
DROP INDEX "pickup_points_sysid_idx";--> statement-breakpoint
CREATE INDEX "pickup_points_sysid_id_idx" ON "pickup_points" USING btree ("sysid","id");--> statement-breakpoint
CREATE INDEX "pickup_points_status_idx" ON "pickup_points" USING btree ("status");--> statement-breakpoint
CREATE INDEX "pickup_points_created_at_idx" ON "pickup_points" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "pickup_points_sysid_title_unique" ON "pickup_points" USING btree ("sysid","title");
