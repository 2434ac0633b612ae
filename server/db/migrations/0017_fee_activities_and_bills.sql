CREATE TABLE "activities" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" varchar(100) NOT NULL,
	"sch_id" integer NOT NULL,
	"status" varchar(32) DEFAULT 'draft' NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"auto_open" varchar(1) DEFAULT 'N' NOT NULL,
	"target" varchar(32) DEFAULT 'school' NOT NULL,
	"grade_ids" integer[],
	"class_ids" integer[],
	"student_ids" integer[],
	"amount" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sysid" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "activity_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"activity_id" integer NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"title" varchar(50) NOT NULL,
	"amount" bigint NOT NULL,
	"amount_mode" varchar(32) DEFAULT 'fixed' NOT NULL,
	"required" varchar(1) DEFAULT 'Y' NOT NULL,
	"sysid" integer NOT NULL,
	"sch_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bills" (
	"id" serial PRIMARY KEY NOT NULL,
	"activity_id" integer NOT NULL,
	"sch_id" integer NOT NULL,
	"student_id" integer NOT NULL,
	"class_id" integer NOT NULL,
	"amount" bigint NOT NULL,
	"paid_amount" bigint DEFAULT 0 NOT NULL,
	"refunded_amount" bigint DEFAULT 0 NOT NULL,
	"status" varchar(32) DEFAULT 'unpaid' NOT NULL,
	"remark" text,
	"paid_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sysid" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_sch_id_schools_id_fk" FOREIGN KEY ("sch_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_items" ADD CONSTRAINT "activity_items_activity_id_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."activities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bills" ADD CONSTRAINT "bills_activity_id_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."activities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bills" ADD CONSTRAINT "bills_sch_id_schools_id_fk" FOREIGN KEY ("sch_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bills" ADD CONSTRAINT "bills_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bills" ADD CONSTRAINT "bills_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."classes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "activities_sch_id_id_idx" ON "activities" USING btree ("sch_id","id");--> statement-breakpoint
CREATE INDEX "activities_sysid_id_idx" ON "activities" USING btree ("sysid","id");--> statement-breakpoint
CREATE INDEX "activities_title_idx" ON "activities" USING btree ("title");--> statement-breakpoint
CREATE INDEX "activities_status_idx" ON "activities" USING btree ("status");--> statement-breakpoint
CREATE INDEX "activities_start_date_idx" ON "activities" USING btree ("start_date");--> statement-breakpoint
CREATE INDEX "activities_end_date_idx" ON "activities" USING btree ("end_date");--> statement-breakpoint
CREATE INDEX "activities_created_at_idx" ON "activities" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "activity_items_sch_id_sort_id_idx" ON "activity_items" USING btree ("sch_id","sort","id");--> statement-breakpoint
CREATE INDEX "activity_items_sysid_sort_id_idx" ON "activity_items" USING btree ("sysid","sort","id");--> statement-breakpoint
CREATE INDEX "activity_items_activity_id_sort_id_idx" ON "activity_items" USING btree ("activity_id","sort","id");--> statement-breakpoint
CREATE INDEX "bills_sch_id_id_idx" ON "bills" USING btree ("sch_id","id");--> statement-breakpoint
CREATE INDEX "bills_sysid_id_idx" ON "bills" USING btree ("sysid","id");--> statement-breakpoint
CREATE INDEX "bills_activity_id_sch_id_sysid_id_idx" ON "bills" USING btree ("activity_id","sch_id","sysid","id");--> statement-breakpoint
CREATE INDEX "bills_student_id_sch_id_sysid_id_idx" ON "bills" USING btree ("student_id","sch_id","sysid","id");--> statement-breakpoint
CREATE INDEX "bills_class_id_sch_id_sysid_id_idx" ON "bills" USING btree ("class_id","sch_id","sysid","id");--> statement-breakpoint
CREATE INDEX "bills_amount_idx" ON "bills" USING btree ("amount");--> statement-breakpoint
CREATE INDEX "bills_status_idx" ON "bills" USING btree ("status");--> statement-breakpoint
CREATE INDEX "bills_paid_at_idx" ON "bills" USING btree ("paid_at");--> statement-breakpoint
CREATE UNIQUE INDEX "bills_activity_id_student_id_unique" ON "bills" USING btree ("activity_id","student_id");