ALTER TABLE "audit_log" ADD COLUMN "sysid" integer;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "sch_id" integer;--> statement-breakpoint
CREATE INDEX "audit_log_sysid_at_idx" ON "audit_log" USING btree ("sysid","at");--> statement-breakpoint
CREATE INDEX "audit_log_sch_at_idx" ON "audit_log" USING btree ("sch_id","at");