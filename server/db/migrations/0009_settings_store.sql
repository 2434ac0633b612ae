CREATE TABLE "settings_records" (
	"name" varchar(50) NOT NULL,
	"tenant_id" integer NOT NULL,
	"fields" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer,
	CONSTRAINT "settings_records_name_tenant_id_pk" PRIMARY KEY("name","tenant_id")
);
--> statement-breakpoint
-- The site settings (getwebsetinfo, getsysinfo) become the platform's record of the settings page "sysset".
INSERT INTO "settings_records" ("name", "tenant_id", "fields")
SELECT 'sysset', 0, jsonb_build_object(
	'title', "title",
	'keywords', "keywords",
	'description', "description",
	'icon', "icon",
	'kfurl', "kfurl",
	'user_manual_url', "user_manual_url"
)
FROM "site_settings" WHERE "id" = 1;
--> statement-breakpoint
DROP TABLE "site_settings" CASCADE;
