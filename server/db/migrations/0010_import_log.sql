CREATE TABLE "school_import_logs" (
	"id" serial PRIMARY KEY NOT NULL,
	"entity" varchar(32) NOT NULL,
	"sch_id" integer NOT NULL,
	"filename" varchar(255) NOT NULL,
	"username" varchar(50) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"imported" integer DEFAULT 0 NOT NULL,
	"error_count" integer DEFAULT 0 NOT NULL,
	"status" varchar(32) NOT NULL,
	"errors" text,
	"sysid" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "school_import_logs" ADD CONSTRAINT "school_import_logs_sch_id_schools_id_fk" FOREIGN KEY ("sch_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "school_import_logs_sch_id_created_at_id_idx" ON "school_import_logs" USING btree ("sch_id","created_at","id");--> statement-breakpoint
CREATE INDEX "school_import_logs_sysid_created_at_id_idx" ON "school_import_logs" USING btree ("sysid","created_at","id");--> statement-breakpoint
CREATE INDEX "school_import_logs_entity_idx" ON "school_import_logs" USING btree ("entity");--> statement-breakpoint
CREATE INDEX "school_import_logs_created_at_idx" ON "school_import_logs" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "school_import_logs_status_idx" ON "school_import_logs" USING btree ("status");--> statement-breakpoint
ALTER TABLE "classes" ADD CONSTRAINT "classes_sch_id_schools_id_fk" FOREIGN KEY ("sch_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grades" ADD CONSTRAINT "grades_sch_id_schools_id_fk" FOREIGN KEY ("sch_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "students" ADD CONSTRAINT "students_sch_id_schools_id_fk" FOREIGN KEY ("sch_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;