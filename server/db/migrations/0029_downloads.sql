CREATE TABLE "download_chunks" (
	"download_id" integer NOT NULL,
	"seq" integer NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "download_chunks_download_id_seq_pk" PRIMARY KEY("download_id","seq")
);
--> statement-breakpoint
CREATE TABLE "downloads" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"sysid" integer,
	"sch_id" integer,
	"operation" varchar(64) NOT NULL,
	"filename" varchar(200) NOT NULL,
	"job_id" bigint,
	"request" jsonb NOT NULL,
	"link_key" varchar(64) NOT NULL,
	"size" bigint,
	"rows" integer,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "download_chunks" ADD CONSTRAINT "download_chunks_download_id_downloads_id_fk" FOREIGN KEY ("download_id") REFERENCES "public"."downloads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "downloads" ADD CONSTRAINT "downloads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "downloads_user_id_idx" ON "downloads" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "downloads_expires_at_idx" ON "downloads" USING btree ("expires_at");