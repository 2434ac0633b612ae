CREATE TABLE "fee_daily" (
	"day" date NOT NULL,
	"sysid" integer NOT NULL,
	"sch_id" integer NOT NULL,
	"class_id" integer NOT NULL,
	"activity_id" integer DEFAULT 0 NOT NULL,
	"orders" integer DEFAULT 0 NOT NULL,
	"paid" bigint DEFAULT 0 NOT NULL,
	"refunded" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "fee_daily_class_id_activity_id_day_pk" PRIMARY KEY("class_id","activity_id","day")
);
--> statement-breakpoint
CREATE INDEX "fee_daily_sysid_day_idx" ON "fee_daily" USING btree ("sysid","day");--> statement-breakpoint
CREATE INDEX "fee_daily_sch_id_day_idx" ON "fee_daily" USING btree ("sch_id","day");--> statement-breakpoint
INSERT INTO "fee_daily" ("day", "sysid", "sch_id", "class_id", "activity_id", "orders", "paid", "refunded")
SELECT ("at" AT TIME ZONE 'Asia/Shanghai')::date, "sysid", "sch_id", "class_id", coalesce("activity_id", 0), sum("orders"), sum("paid"), sum("refunded")
  FROM "fee_ledger"
 GROUP BY 1, 2, 3, 4, 5;
