-- A pickup verified (catalogue/retail.ts pickuprec): the order handed over at a point, by whom, typed or scanned.
CREATE TABLE "pickup_records" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"order_no" varchar(32) NOT NULL,
	"pickup_point_id" integer NOT NULL,
	"sch_id" integer NOT NULL,
	"student_id" integer NOT NULL,
	"amount" bigint NOT NULL,
	"verifier_id" integer NOT NULL,
	"verifier_name" varchar(50) NOT NULL,
	"verifier_phone" varchar(20),
	"via" varchar(32) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sysid" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "pickup_records" ADD CONSTRAINT "pickup_records_order_id_shop_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."shop_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pickup_records" ADD CONSTRAINT "pickup_records_pickup_point_id_pickup_points_id_fk" FOREIGN KEY ("pickup_point_id") REFERENCES "public"."pickup_points"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pickup_records" ADD CONSTRAINT "pickup_records_sch_id_schools_id_fk" FOREIGN KEY ("sch_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pickup_records" ADD CONSTRAINT "pickup_records_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pickup_records_sch_id_id_idx" ON "pickup_records" USING btree ("sch_id","id");--> statement-breakpoint
CREATE INDEX "pickup_records_sysid_id_idx" ON "pickup_records" USING btree ("sysid","id");--> statement-breakpoint
CREATE INDEX "pickup_records_order_no_idx" ON "pickup_records" USING btree ("order_no");--> statement-breakpoint
CREATE INDEX "pickup_records_pickup_point_id_sch_id_sysid_id_idx" ON "pickup_records" USING btree ("pickup_point_id","sch_id","sysid","id");--> statement-breakpoint
CREATE INDEX "pickup_records_verifier_id_sch_id_sysid_id_idx" ON "pickup_records" USING btree ("verifier_id","sch_id","sysid","id");--> statement-breakpoint
CREATE INDEX "pickup_records_via_idx" ON "pickup_records" USING btree ("via");--> statement-breakpoint
CREATE INDEX "pickup_records_created_at_idx" ON "pickup_records" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "pickup_records_order_id_unique" ON "pickup_records" USING btree ("order_id");