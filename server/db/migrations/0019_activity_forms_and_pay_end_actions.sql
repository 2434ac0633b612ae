CREATE TABLE "activity_forms" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" varchar(50) NOT NULL,
	"intro" text,
	"activity_ids" integer[],
	"status" varchar(1) DEFAULT '1' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sysid" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "form_answers" (
	"id" serial PRIMARY KEY NOT NULL,
	"form_id" integer NOT NULL,
	"sch_id" integer NOT NULL,
	"activity_id" integer NOT NULL,
	"student_id" integer NOT NULL,
	"class_id" integer NOT NULL,
	"bill_id" integer NOT NULL,
	"question" varchar(100) NOT NULL,
	"value" text,
	"order_id" integer,
	"answered_at" timestamp with time zone NOT NULL,
	"sysid" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "form_questions" (
	"id" serial PRIMARY KEY NOT NULL,
	"form_id" integer NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"label" varchar(100) NOT NULL,
	"kind" varchar(32) DEFAULT 'text' NOT NULL,
	"options" text,
	"required" varchar(1) DEFAULT 'Y' NOT NULL,
	"sysid" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pay_end_actions" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" varchar(30) NOT NULL,
	"kind" varchar(32) DEFAULT 'link' NOT NULL,
	"url" varchar(500),
	"image" varchar(500),
	"text" varchar(100),
	"activity_ids" integer[],
	"status" varchar(1) DEFAULT '1' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sysid" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "form_answers" ADD CONSTRAINT "form_answers_form_id_activity_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."activity_forms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_answers" ADD CONSTRAINT "form_answers_sch_id_schools_id_fk" FOREIGN KEY ("sch_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_answers" ADD CONSTRAINT "form_answers_activity_id_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."activities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_answers" ADD CONSTRAINT "form_answers_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_answers" ADD CONSTRAINT "form_answers_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."classes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_answers" ADD CONSTRAINT "form_answers_bill_id_bills_id_fk" FOREIGN KEY ("bill_id") REFERENCES "public"."bills"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_answers" ADD CONSTRAINT "form_answers_order_id_fee_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."fee_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_questions" ADD CONSTRAINT "form_questions_form_id_activity_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."activity_forms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "activity_forms_sysid_id_idx" ON "activity_forms" USING btree ("sysid","id");--> statement-breakpoint
CREATE INDEX "activity_forms_title_idx" ON "activity_forms" USING btree ("title");--> statement-breakpoint
CREATE INDEX "activity_forms_status_idx" ON "activity_forms" USING btree ("status");--> statement-breakpoint
CREATE INDEX "activity_forms_created_at_idx" ON "activity_forms" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "form_answers_sch_id_id_idx" ON "form_answers" USING btree ("sch_id","id");--> statement-breakpoint
CREATE INDEX "form_answers_sysid_id_idx" ON "form_answers" USING btree ("sysid","id");--> statement-breakpoint
CREATE INDEX "form_answers_form_id_sch_id_sysid_id_idx" ON "form_answers" USING btree ("form_id","sch_id","sysid","id");--> statement-breakpoint
CREATE INDEX "form_answers_activity_id_sch_id_sysid_id_idx" ON "form_answers" USING btree ("activity_id","sch_id","sysid","id");--> statement-breakpoint
CREATE INDEX "form_answers_student_id_sch_id_sysid_id_idx" ON "form_answers" USING btree ("student_id","sch_id","sysid","id");--> statement-breakpoint
CREATE INDEX "form_answers_answered_at_idx" ON "form_answers" USING btree ("answered_at");--> statement-breakpoint
CREATE UNIQUE INDEX "form_answers_bill_id_question_unique" ON "form_answers" USING btree ("bill_id","question");--> statement-breakpoint
CREATE INDEX "form_questions_sysid_sort_id_idx" ON "form_questions" USING btree ("sysid","sort","id");--> statement-breakpoint
CREATE INDEX "form_questions_form_id_sort_id_idx" ON "form_questions" USING btree ("form_id","sort","id");--> statement-breakpoint
CREATE INDEX "pay_end_actions_sysid_id_idx" ON "pay_end_actions" USING btree ("sysid","id");--> statement-breakpoint
CREATE INDEX "pay_end_actions_title_idx" ON "pay_end_actions" USING btree ("title");--> statement-breakpoint
CREATE INDEX "pay_end_actions_kind_idx" ON "pay_end_actions" USING btree ("kind");--> statement-breakpoint
CREATE INDEX "pay_end_actions_status_idx" ON "pay_end_actions" USING btree ("status");--> statement-breakpoint
CREATE INDEX "pay_end_actions_created_at_idx" ON "pay_end_actions" USING btree ("created_at");