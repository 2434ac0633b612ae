CREATE TABLE "classes" (
	"id" serial PRIMARY KEY NOT NULL,
	"grade_id" integer NOT NULL,
	"title" varchar(50) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sysid" integer NOT NULL,
	"sch_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "grades" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" varchar(50) NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sysid" integer NOT NULL,
	"sch_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "students" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(50) NOT NULL,
	"student_no" varchar(32) NOT NULL,
	"sex" varchar(32) NOT NULL,
	"grade_id" integer NOT NULL,
	"class_id" integer NOT NULL,
	"guardian_name" varchar(50),
	"guardian_phone" varchar(20),
	"id_card" varchar(18),
	"status" varchar(1) DEFAULT '1' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sysid" integer NOT NULL,
	"sch_id" integer NOT NULL
);
--> statement-breakpoint
DROP INDEX "school_renewals_sysid_idx";--> statement-breakpoint
ALTER TABLE "schools" ALTER COLUMN "status" SET DATA TYPE varchar(1);--> statement-breakpoint
ALTER TABLE "schools" ALTER COLUMN "status" SET DEFAULT '1';--> statement-breakpoint
ALTER TABLE "classes" ADD CONSTRAINT "classes_grade_id_grades_id_fk" FOREIGN KEY ("grade_id") REFERENCES "public"."grades"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "students" ADD CONSTRAINT "students_grade_id_grades_id_fk" FOREIGN KEY ("grade_id") REFERENCES "public"."grades"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "students" ADD CONSTRAINT "students_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."classes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "classes_sch_id_grade_id_id_idx" ON "classes" USING btree ("sch_id","grade_id","id");--> statement-breakpoint
CREATE INDEX "classes_sysid_grade_id_id_idx" ON "classes" USING btree ("sysid","grade_id","id");--> statement-breakpoint
CREATE INDEX "classes_grade_id_id_idx" ON "classes" USING btree ("grade_id","id");--> statement-breakpoint
CREATE INDEX "classes_title_idx" ON "classes" USING btree ("title");--> statement-breakpoint
CREATE INDEX "grades_sch_id_sort_id_idx" ON "grades" USING btree ("sch_id","sort","id");--> statement-breakpoint
CREATE INDEX "grades_sysid_sort_id_idx" ON "grades" USING btree ("sysid","sort","id");--> statement-breakpoint
CREATE INDEX "grades_sort_idx" ON "grades" USING btree ("sort");--> statement-breakpoint
CREATE UNIQUE INDEX "grades_sch_id_title_unique" ON "grades" USING btree ("sch_id","title");--> statement-breakpoint
CREATE INDEX "students_sch_id_id_idx" ON "students" USING btree ("sch_id","id");--> statement-breakpoint
CREATE INDEX "students_sysid_id_idx" ON "students" USING btree ("sysid","id");--> statement-breakpoint
CREATE INDEX "students_name_idx" ON "students" USING btree ("name");--> statement-breakpoint
CREATE INDEX "students_sex_idx" ON "students" USING btree ("sex");--> statement-breakpoint
CREATE INDEX "students_grade_id_id_idx" ON "students" USING btree ("grade_id","id");--> statement-breakpoint
CREATE INDEX "students_class_id_id_idx" ON "students" USING btree ("class_id","id");--> statement-breakpoint
CREATE INDEX "students_guardian_phone_idx" ON "students" USING btree ("guardian_phone");--> statement-breakpoint
CREATE INDEX "students_status_idx" ON "students" USING btree ("status");--> statement-breakpoint
CREATE INDEX "students_created_at_idx" ON "students" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "students_sch_id_student_no_unique" ON "students" USING btree ("sch_id","student_no");--> statement-breakpoint
ALTER TABLE "schools" ADD CONSTRAINT "schools_sysid_providers_id_fk" FOREIGN KEY ("sysid") REFERENCES "public"."providers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "school_renewals_sysid_created_at_id_idx" ON "school_renewals" USING btree ("sysid","created_at","id");