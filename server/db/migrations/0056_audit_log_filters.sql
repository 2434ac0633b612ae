-- the audit log page filters by who and by what (catalogue/audit.ts)
CREATE INDEX "audit_log_username_id_idx" ON "audit_log" USING btree ("username","id");--> statement-breakpoint
CREATE INDEX "audit_log_action_id_idx" ON "audit_log" USING btree ("action","id");