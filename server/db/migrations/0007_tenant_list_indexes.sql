DROP INDEX "provider_extensions_sysid_idx";--> statement-breakpoint
DROP INDEX "school_renewals_sch_id_idx";--> statement-breakpoint
DROP INDEX "schools_sysid_idx";--> statement-breakpoint
CREATE INDEX "provider_extensions_sysid_created_at_id_idx" ON "provider_extensions" USING btree ("sysid","created_at","id");--> statement-breakpoint
CREATE INDEX "school_renewals_sch_id_created_at_id_idx" ON "school_renewals" USING btree ("sch_id","created_at","id");--> statement-breakpoint
CREATE INDEX "schools_sysid_id_idx" ON "schools" USING btree ("sysid","id");