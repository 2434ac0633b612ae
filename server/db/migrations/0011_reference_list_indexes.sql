DROP INDEX "classes_grade_id_id_idx";--> statement-breakpoint
DROP INDEX "students_grade_id_id_idx";--> statement-breakpoint
DROP INDEX "students_class_id_id_idx";--> statement-breakpoint
CREATE INDEX "classes_grade_id_sch_id_sysid_id_idx" ON "classes" USING btree ("grade_id","sch_id","sysid","id");--> statement-breakpoint
CREATE INDEX "students_grade_id_sch_id_sysid_id_idx" ON "students" USING btree ("grade_id","sch_id","sysid","id");--> statement-breakpoint
CREATE INDEX "students_class_id_sch_id_sysid_id_idx" ON "students" USING btree ("class_id","sch_id","sysid","id");